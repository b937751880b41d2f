//! The serialised form of an [`Mlp`](super::Mlp): serde JSON with a validation that names
//! the bad field, and an FNV-1a digest of the exact bit patterns.
//!
//! ```json
//! { "sizes": [5, 64, 4],
//!   "layers": [ { "w": [/* 5·64 values */], "b": [/* 64 */] },
//!               { "w": [/* 64·4 */],        "b": [/* 4 */] } ] }
//! ```
//! Layer `l` maps `sizes[l]` inputs to `sizes[l + 1]` outputs. `w` is row-major with one row
//! per input: `w[i * n_out + o]` is the weight from input `i` to output `o`, the (input,
//! output) shape in which Keras stores a `Dense` kernel.

use super::error::FieldError;
use serde::{Deserialize, Serialize};

/// Widest layer accepted (inputs and outputs alike).
pub const MAX_LAYER_WIDTH: usize = 4096;
/// Most weights and biases accepted in one network: 8 MB of f64, far above a Q-network's
/// few hundred, and small enough to load in a browser.
pub const MAX_PARAMS: usize = 1_000_000;
/// Most dense layers accepted.
pub const MAX_LAYERS: usize = 16;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LayerWeights {
    /// `n_in · n_out` weights, `w[i * n_out + o]`.
    pub w: Vec<f64>,
    /// `n_out` biases.
    pub b: Vec<f64>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MlpWeights {
    /// Widths from input to output: `[inputs, hidden.., outputs]`.
    pub sizes: Vec<usize>,
    /// One entry per dense layer, `sizes.len() − 1` of them.
    pub layers: Vec<LayerWeights>,
}

/// Checks a list of layer widths; returns the number of parameters it implies.
pub fn check_sizes(sizes: &[usize]) -> Result<usize, FieldError> {
    if sizes.len() < 2 || sizes.len() > MAX_LAYERS + 1 {
        return Err(FieldError::new("sizes", format!("{} widths", sizes.len()), "2 to 17 widths"));
    }
    for (i, &n) in sizes.iter().enumerate() {
        if n == 0 || n > MAX_LAYER_WIDTH {
            return Err(FieldError::new(format!("sizes[{i}]"), n, "1 to 4096"));
        }
    }
    let params: usize = sizes.windows(2).map(|p| p[0] * p[1] + p[1]).sum();
    if params > MAX_PARAMS {
        return Err(FieldError::new("sizes", format!("{params} parameters"), "at most 1000000 parameters"));
    }
    Ok(params)
}

impl MlpWeights {
    /// Checks the shape against `sizes` and that every value is finite. Reports every bad
    /// field, once each (the first offending index of an array).
    pub fn validate(&self) -> Result<(), Vec<FieldError>> {
        if let Err(e) = check_sizes(&self.sizes) {
            return Err(vec![e]);
        }
        let mut errors = Vec::new();
        let want_layers = self.sizes.len() - 1;
        if self.layers.len() != want_layers {
            errors.push(FieldError::new(
                "layers",
                format!("{} layers", self.layers.len()),
                format!("{want_layers} layers"),
            ));
        }
        for (l, layer) in self.layers.iter().enumerate().take(want_layers) {
            let (n_in, n_out) = (self.sizes[l], self.sizes[l + 1]);
            check_values(&mut errors, format!("layers[{l}].w"), &layer.w, n_in * n_out);
            check_values(&mut errors, format!("layers[{l}].b"), &layer.b, n_out);
        }
        if errors.is_empty() {
            Ok(())
        } else {
            Err(errors)
        }
    }

    /// All parameters in the order an [`Mlp`](super::Mlp) keeps them: layer by layer, `w`
    /// then `b`.
    pub fn flat_params(&self) -> impl Iterator<Item = f64> + '_ {
        self.layers.iter().flat_map(|l| l.w.iter().chain(l.b.iter()).copied())
    }

    /// FNV-1a digest of the widths and the bit patterns of every parameter; equal digests
    /// mean bit-identical networks. Format it as `{:016x}` before handing it to JavaScript,
    /// whose numbers cannot hold a u64.
    pub fn digest(&self) -> u64 {
        digest(&self.sizes, self.flat_params())
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("weights serialise")
    }

    /// Parses strictly ([`super::file`]) and validates. An error on the whole document is
    /// reported on the field `json`.
    pub fn from_json(text: &str) -> Result<MlpWeights, Vec<FieldError>> {
        let w: MlpWeights = super::file::read(text, "an object {sizes, layers: [{w, b}]}", |_, _| None)?;
        w.validate()?;
        Ok(w)
    }
}

fn check_values(errors: &mut Vec<FieldError>, field: String, values: &[f64], want: usize) {
    if values.len() != want {
        errors.push(FieldError::new(field, format!("{} values", values.len()), format!("{want} values")));
    } else if let Some(i) = values.iter().position(|v| !v.is_finite()) {
        errors.push(FieldError::new(format!("{field}[{i}]"), values[i], "a finite number"));
    }
}

/// FNV-1a (64-bit) over the widths as u64 and the parameters' IEEE-754 bits, little-endian.
pub(super) fn digest(sizes: &[usize], params: impl Iterator<Item = f64>) -> u64 {
    const OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
    const PRIME: u64 = 0x0000_0100_0000_01b3;
    let mut h = OFFSET;
    let mut eat = |word: u64| {
        for byte in word.to_le_bytes() {
            h = (h ^ u64::from(byte)).wrapping_mul(PRIME);
        }
    };
    eat(sizes.len() as u64);
    for &n in sizes {
        eat(n as u64);
    }
    for p in params {
        eat(p.to_bits());
    }
    h
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tiny() -> MlpWeights {
        MlpWeights {
            sizes: vec![2, 3, 1],
            layers: vec![
                LayerWeights { w: vec![0.1, -0.2, 0.3, 0.4, 0.5, -0.6], b: vec![0.0, 0.1, 0.2] },
                LayerWeights { w: vec![1.0, -1.0, 0.5], b: vec![0.25] },
            ],
        }
    }

    fn fields(w: &MlpWeights) -> Vec<String> {
        w.validate().unwrap_err().into_iter().map(|e| e.field).collect()
    }

    #[test]
    fn well_formed_weights_validate() {
        assert_eq!(tiny().validate(), Ok(()));
    }

    #[test]
    fn a_short_weight_array_is_named_with_both_counts() {
        let mut w = tiny();
        w.layers[1].w.pop();
        let errs = w.validate().unwrap_err();
        assert_eq!(errs[0].to_string(), "layers[1].w: expected 3 values, got 2 values");
    }

    #[test]
    fn a_long_bias_array_is_rejected() {
        let mut w = tiny();
        w.layers[0].b.push(0.0);
        assert_eq!(fields(&w), ["layers[0].b"]);
    }

    #[test]
    fn nan_and_infinity_are_rejected_with_their_index() {
        let mut w = tiny();
        w.layers[0].w[4] = f64::NAN;
        w.layers[1].b[0] = f64::NEG_INFINITY;
        assert_eq!(fields(&w), ["layers[0].w[4]", "layers[1].b[0]"]);
    }

    #[test]
    fn a_missing_layer_is_rejected() {
        let mut w = tiny();
        w.layers.pop();
        assert_eq!(fields(&w), ["layers"]);
    }

    #[test]
    fn absurd_sizes_are_rejected() {
        for (sizes, field) in [
            (vec![5], "sizes"),
            (vec![5, 0, 4], "sizes[1]"),
            (vec![5, 5000, 4], "sizes[1]"),
            (vec![4096, 4096, 4], "sizes"),
            (vec![2; 18], "sizes"),
        ] {
            let w = MlpWeights { sizes, layers: vec![] };
            assert_eq!(fields(&w), [field]);
        }
    }

    #[test]
    fn malformed_json_is_reported_on_the_json_field() {
        let errs = MlpWeights::from_json("weights").unwrap_err();
        assert_eq!(errs[0].field, "json");
        let errs = MlpWeights::from_json("{\"sizes\": [2, 1], \"layers\": 3}").unwrap_err();
        assert_eq!(errs[0].field, "layers");
        let errs =
            MlpWeights::from_json(r#"{"sizes":[1,1],"layers":[{"w":[1.0,2.0],"b":[0.0]}]}"#).unwrap_err();
        assert_eq!(errs[0].field, "layers[0].w");
    }

    #[test]
    fn weight_files_are_read_strictly_with_the_field_named() {
        let good = tiny().to_json();
        let err = |text: &str| MlpWeights::from_json(text).unwrap_err().remove(0);
        let e = err(&good.replacen("0.1", "Infinity", 1));
        assert_eq!(e.to_string(), "layers[0].w[0]: expected a finite number, got Infinity");
        let e = err(&good.replacen("-0.2", "NaN", 1));
        assert_eq!(e.field, "layers[0].w[1]");
        let e = err(&good.replacen("\"sizes\"", "\"sizes\":[9],\"sizes\"", 1));
        assert_eq!(e.to_string(), "sizes: expected each key once, got \"sizes\" given twice");
        let e = err(&good.replacen("\"b\"", "\"bias\"", 1));
        assert!(e.field == "layers[0].bias" && e.value.contains("unknown field 'bias'"), "{e}");
        // A layer as a positional list [w, b] is not read.
        let e = err(r#"{"sizes": [1, 1], "layers": [[[0.5], [0.0]]]}"#);
        assert!(e.field == "layers[0]" && e.value.contains("got a list"), "{e}");
        assert_eq!(err("[[1, 1], []]").field, "json");
    }

    #[test]
    fn json_round_trip_keeps_every_bit() {
        let mut w = tiny();
        // Values whose shortest decimal needs 17 digits, the hard case for float parsing.
        w.layers[0].w[0] = 0.1 + 0.2;
        w.layers[0].w[1] = -1.0 / 3.0;
        w.layers[1].b[0] = 2.0f64.sqrt() * 1e-7;
        let back = MlpWeights::from_json(&w.to_json()).unwrap();
        assert_eq!(back.digest(), w.digest());
        assert_eq!(back, w);
    }

    #[test]
    fn digest_sees_a_one_bit_change_and_the_shape() {
        let w = tiny();
        let mut v = tiny();
        v.layers[1].b[0] = f64::from_bits(v.layers[1].b[0].to_bits() ^ 1);
        assert_ne!(w.digest(), v.digest());
        assert_ne!(digest(&[2, 3], std::iter::empty()), digest(&[3, 2], std::iter::empty()));
    }
}
