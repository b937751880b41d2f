//! A multilayer perceptron: dense layers, ReLU on every hidden layer, linear output.
//!
//! Parameters live in one flat `Vec<f64>`, layer by layer, weights then biases, in the
//! layout of [`MlpWeights`]: `w[i * n_out + o]`. Passes run on batches (samples back to
//! back); the loops are in [`kernels`], each sum in a fixed order, so a
//! sample's output does not depend on the batch it is in, the SIMD width or the target.
//!
//! Backpropagation takes dL/dy from the caller ([`Mlp::backward_batch`]), so a Q-learner
//! can put the TD error on the taken action only and leave the other outputs untouched.
//!
//! Initialisation: He-uniform, U(±√(6/fan_in)) (He et al. 2015), for the layers that feed a
//! ReLU; Glorot-uniform, U(±√(6/(fan_in + fan_out))) (Glorot & Bengio 2010, Keras's `Dense`
//! default), for the linear output layer; biases zero.

use super::error::FieldError;
use super::kernels;
use super::weights::{self, check_sizes, LayerWeights, MlpWeights};
use crate::rng::SimRng;

#[derive(Clone, Debug, PartialEq)]
pub struct Mlp {
    sizes: Vec<usize>,
    /// Start of each layer's weights in `params`; its biases follow at `+ n_in · n_out`.
    offsets: Vec<usize>,
    params: Vec<f64>,
}

/// Scratch of a batched forward pass: every layer's output for every sample (post-ReLU for
/// hidden layers), kept for [`Mlp::backward_batch`]. Make one with [`Mlp::scratch`] and
/// reuse it; it grows to the largest batch seen and then stops allocating.
#[derive(Clone, Debug, Default)]
pub struct Activations {
    /// `layers[0]` is the input; `layers[l + 1]` is layer `l`'s output; rows × width each.
    layers: Vec<Vec<f64>>,
    rows: usize,
    delta: Vec<f64>,
    delta_prev: Vec<f64>,
    w_t: Vec<f64>,
}

/// dL/dθ in the layout of the parameters. [`Mlp::backward_batch`] adds to it; clear it between
/// optimiser steps.
#[derive(Clone, Debug, PartialEq)]
pub struct Gradients {
    g: Vec<f64>,
}

impl Gradients {
    pub fn as_slice(&self) -> &[f64] {
        &self.g
    }

    pub fn clear(&mut self) {
        self.g.fill(0.0);
    }

    pub fn scale(&mut self, k: f64) {
        self.g.iter_mut().for_each(|g| *g *= k);
    }

    /// √(Σ g²) over every parameter.
    pub fn global_norm(&self) -> f64 {
        self.g.iter().map(|g| g * g).sum::<f64>().sqrt()
    }
}

impl Mlp {
    /// A freshly initialised network; `sizes` is `[inputs, hidden.., outputs]`. See the
    /// module docs for the initialisation.
    pub fn new(sizes: &[usize], rng: &mut SimRng) -> Result<Mlp, FieldError> {
        let n = check_sizes(sizes)?;
        let mut params = Vec::with_capacity(n);
        let last = sizes.len() - 2;
        for (l, pair) in sizes.windows(2).enumerate() {
            let (n_in, n_out) = (pair[0] as f64, pair[1] as f64);
            let limit = if l < last { (6.0 / n_in).sqrt() } else { (6.0 / (n_in + n_out)).sqrt() };
            params.extend((0..pair[0] * pair[1]).map(|_| (2.0 * rng.uniform() - 1.0) * limit));
            params.extend((0..pair[1]).map(|_| 0.0));
        }
        Ok(Mlp::from_flat(sizes.to_vec(), params))
    }

    pub fn from_weights(w: &MlpWeights) -> Result<Mlp, Vec<FieldError>> {
        w.validate()?;
        Ok(Mlp::from_flat(w.sizes.clone(), w.flat_params().collect()))
    }

    fn from_flat(sizes: Vec<usize>, params: Vec<f64>) -> Mlp {
        let mut offsets = Vec::with_capacity(sizes.len() - 1);
        let mut at = 0;
        for p in sizes.windows(2) {
            offsets.push(at);
            at += p[0] * p[1] + p[1];
        }
        debug_assert_eq!(at, params.len());
        Mlp { sizes, offsets, params }
    }

    pub fn weights(&self) -> MlpWeights {
        let layers = (0..self.offsets.len())
            .map(|l| {
                let (w, b) = self.layer(l);
                LayerWeights { w: w.to_vec(), b: b.to_vec() }
            })
            .collect();
        MlpWeights { sizes: self.sizes.clone(), layers }
    }

    pub fn sizes(&self) -> &[usize] {
        &self.sizes
    }

    pub fn inputs(&self) -> usize {
        self.sizes[0]
    }

    pub fn outputs(&self) -> usize {
        self.sizes[self.sizes.len() - 1]
    }

    pub fn params(&self) -> &[f64] {
        &self.params
    }

    pub(super) fn params_mut(&mut self) -> &mut [f64] {
        &mut self.params
    }

    /// Copies another network's parameters (a target-network sync); shapes must match.
    pub fn copy_from(&mut self, other: &Mlp) {
        assert_eq!(self.sizes, other.sizes, "copy_from between different shapes");
        self.params.copy_from_slice(&other.params);
    }

    /// Same as [`MlpWeights::digest`] of [`Mlp::weights`], without the copy.
    pub fn digest(&self) -> u64 {
        weights::digest(&self.sizes, self.params.iter().copied())
    }

    pub fn zero_gradients(&self) -> Gradients {
        Gradients { g: vec![0.0; self.params.len()] }
    }

    pub fn scratch(&self) -> Activations {
        Activations { layers: vec![Vec::new(); self.sizes.len()], ..Activations::default() }
    }

    fn layer(&self, l: usize) -> (&[f64], &[f64]) {
        let (n_in, n_out) = (self.sizes[l], self.sizes[l + 1]);
        let w = &self.params[self.offsets[l]..][..n_in * n_out];
        let b = &self.params[self.offsets[l] + n_in * n_out..][..n_out];
        (w, b)
    }

    /// The network's output for one input. Panics if `x` has the wrong length.
    pub fn forward(&self, x: &[f64]) -> Vec<f64> {
        let mut s = self.scratch();
        self.forward_batch(x, &mut s).to_vec()
    }

    /// Forward pass of a batch: `xs` holds the samples back to back (`rows × inputs`); returns
    /// the outputs the same way (`rows × outputs`) and keeps every layer's activations for
    /// [`Mlp::backward_batch`]. Each output is bit-identical to [`Mlp::forward`] of its row.
    /// Panics unless `xs.len()` is a positive multiple of the input width.
    pub fn forward_batch<'a>(&self, xs: &[f64], s: &'a mut Activations) -> &'a [f64] {
        let n_in = self.inputs();
        assert!(!xs.is_empty() && xs.len() % n_in == 0, "input length {} for width {n_in}", xs.len());
        let rows = xs.len() / n_in;
        s.rows = rows;
        s.layers.resize(self.sizes.len(), Vec::new());
        s.layers[0].clear();
        s.layers[0].extend_from_slice(xs);
        let hidden = self.offsets.len() - 1;
        for l in 0..self.offsets.len() {
            let (w, b) = self.layer(l);
            let (before, after) = s.layers.split_at_mut(l + 1);
            let out = &mut after[0];
            out.resize(rows * b.len(), 0.0);
            kernels::dense_forward(&before[l], self.sizes[l], w, b, out);
            if l < hidden {
                // ReLU, written as a comparison so every target maps −0 and NaN alike.
                out.iter_mut().for_each(|y| *y = if *y > 0.0 { *y } else { 0.0 });
            }
        }
        &s.layers[self.sizes.len() - 1]
    }

    /// Adds dL/dθ, summed over the batch last run through `s` by
    /// [`forward_batch`](Mlp::forward_batch), to `grads`, given `dl_dy`, the gradient of the
    /// loss with respect to each output of each sample (`rows × outputs`).
    /// Backpropagation: δ = dL/dy at the output; per layer dL/dw_io = Σ_s x_si·δ_so,
    /// dL/db_o = Σ_s δ_so, and the error passed down is δ_si = ReLU'(x_si)·Σ_o w_io·δ_so.
    pub fn backward_batch(&self, s: &mut Activations, dl_dy: &[f64], grads: &mut Gradients) {
        assert_eq!(dl_dy.len(), s.rows * self.outputs(), "output-gradient length");
        let Activations { layers, delta, delta_prev, w_t, .. } = s;
        delta.clear();
        delta.extend_from_slice(dl_dy);
        for l in (0..self.offsets.len()).rev() {
            let (w, _) = self.layer(l);
            let (n_in, n_out) = (self.sizes[l], self.sizes[l + 1]);
            let (gw, gb) = grads.g[self.offsets[l]..][..n_in * n_out + n_out].split_at_mut(n_in * n_out);
            kernels::dense_grads(&layers[l], n_in, delta, n_out, gw, gb);
            if l > 0 {
                delta_prev.resize(layers[l].len(), 0.0);
                kernels::relu_backprop(&layers[l], w, delta, n_out, delta_prev, w_t);
                std::mem::swap(delta, delta_prev);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::StreamId;

    fn rng(seed: u64) -> SimRng {
        SimRng::new(seed, StreamId::Other(0))
    }

    /// L = Σ_s Σ_o g_so·y_so: its gradient is exactly what backward computes for dL/dy = g.
    fn loss(net: &Mlp, xs: &[f64], g: &[f64]) -> f64 {
        net.forward_batch(xs, &mut net.scratch()).iter().zip(g).map(|(y, g)| y * g).sum()
    }

    #[test]
    fn gradients_match_central_differences() {
        // h = 1e-6: truncation error O(h²·f''') ≈ 1e-12 on these O(1) values and rounding
        // error ≈ ε·|L|/h ≈ 1e-10, so 1e-6 relative (plus 1e-8 absolute) leaves room while
        // still catching any wrong index or missing term. Inputs are drawn so no ReLU sits
        // within h of its kink (checked below), where a finite difference means nothing.
        let mut r = rng(42);
        let mut net = Mlp::new(&[3, 7, 5, 4], &mut r).unwrap();
        for p in net.params_mut() {
            *p += 0.1 * (r.uniform() - 0.5); // non-zero biases too
        }
        let h = 1e-6;
        for trial in 0..5 {
            // One sample, or (trial 4) a batch of three.
            let rows = if trial == 4 { 3 } else { 1 };
            let x: Vec<f64> = (0..3 * rows).map(|_| 2.0 * r.uniform() - 1.0).collect();
            let g: Vec<f64> = match trial {
                0 => vec![1.0, 0.0, 0.0, 0.0],
                1 => vec![0.0, 0.0, -2.5, 0.0],
                _ => (0..4 * rows).map(|_| 2.0 * r.uniform() - 1.0).collect(),
            };
            let mut s = net.scratch();
            net.forward_batch(&x, &mut s);
            assert!(
                s.layers[1..3].concat().iter().all(|&v| v == 0.0 || v > 1e-4),
                "too close to a ReLU kink"
            );
            let mut grads = net.zero_gradients();
            net.backward_batch(&mut s, &g, &mut grads);
            for k in 0..net.params.len() {
                let mut plus = net.clone();
                plus.params[k] += h;
                let mut minus = net.clone();
                minus.params[k] -= h;
                let fd = (loss(&plus, &x, &g) - loss(&minus, &x, &g)) / (2.0 * h);
                let bp = grads.g[k];
                assert!(
                    (fd - bp).abs() <= 1e-8 + 1e-6 * fd.abs(),
                    "trial {trial} param {k}: fd {fd} bp {bp}"
                );
            }
        }
    }

    #[test]
    fn a_batch_equals_its_samples_one_by_one() {
        let mut r = rng(3);
        let net = Mlp::new(&[2, 5, 3], &mut r).unwrap();
        let xs = [0.3, -0.7, 0.9, 0.2, -0.1, 0.5];
        let gs = [1.0, 0.5, 0.0, -0.4, 2.0, 0.1, 0.0, 0.0, 3.0];
        let mut s = net.scratch();
        let ys = net.forward_batch(&xs, &mut s).to_vec();
        let mut batch = net.zero_gradients();
        net.backward_batch(&mut s, &gs, &mut batch);
        let mut singles = net.zero_gradients();
        for ((x, g), y) in xs.chunks(2).zip(gs.chunks(3)).zip(ys.chunks(3)) {
            assert_eq!(net.forward(x), y, "outputs are bit-identical");
            net.forward_batch(x, &mut s);
            net.backward_batch(&mut s, g, &mut singles);
        }
        // Summed in another association, so equal up to rounding only.
        for (a, b) in batch.g.iter().zip(&singles.g) {
            assert!((a - b).abs() <= 1e-15 * a.abs().max(1.0), "{a} vs {b}");
        }
    }

    #[test]
    fn initial_weights_respect_the_he_and_glorot_limits() {
        let net = Mlp::new(&[5, 64, 4], &mut rng(1)).unwrap();
        let (w0, b0) = net.layer(0);
        let (w1, b1) = net.layer(1);
        assert!(w0.iter().all(|w| w.abs() <= (6.0f64 / 5.0).sqrt()));
        assert!(w1.iter().all(|w| w.abs() <= (6.0f64 / 68.0).sqrt()));
        assert!(b0.iter().chain(b1).all(|&b| b == 0.0));
        assert!(w0.iter().any(|w| w.abs() > 0.5), "He limit √(6/5) ≈ 1.1 should be used");
    }

    #[test]
    fn weights_round_trip_through_json_gives_identical_outputs() {
        let net = Mlp::new(&[5, 64, 4], &mut rng(5)).unwrap();
        let back = Mlp::from_weights(&MlpWeights::from_json(&net.weights().to_json()).unwrap()).unwrap();
        assert_eq!(back.digest(), net.digest());
        assert_eq!(back.digest(), net.weights().digest());
        let x = [0.3, -1.2, 0.05, 2.0, 0.7];
        let (a, b) = (net.forward(&x), back.forward(&x));
        assert_eq!(
            a.iter().map(|v| v.to_bits()).collect::<Vec<_>>(),
            b.iter().map(|v| v.to_bits()).collect::<Vec<_>>()
        );
    }

    #[test]
    fn from_weights_refuses_bad_weights() {
        let mut w = Mlp::new(&[2, 3, 1], &mut rng(5)).unwrap().weights();
        w.layers[0].b[2] = f64::INFINITY;
        assert_eq!(Mlp::from_weights(&w).unwrap_err()[0].field, "layers[0].b[2]");
    }

    #[test]
    fn same_seed_same_network() {
        let a = Mlp::new(&[5, 64, 4], &mut rng(9)).unwrap();
        assert_eq!(a.digest(), Mlp::new(&[5, 64, 4], &mut rng(9)).unwrap().digest());
        assert_ne!(a.digest(), Mlp::new(&[5, 64, 4], &mut rng(10)).unwrap().digest());
    }
}
