//! Sharing a scenario: through the URL fragment (`#s=<base64url JSON>`) and through JSON
//! files. Imports are size-limited and validated before anything is replaced.

use sim_core::scenario::Scenario;

/// Largest scenario text accepted from a link or a file.
pub const MAX_SCENARIO_BYTES: usize = 64 * 1024;

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/// RFC 4648 §5 base64url without padding.
pub fn base64url_encode(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [chunk[0], *chunk.get(1).unwrap_or(&0), *chunk.get(2).unwrap_or(&0)];
        let n = (b[0] as u32) << 16 | (b[1] as u32) << 8 | b[2] as u32;
        for i in 0..chunk.len() + 1 {
            out.push(ALPHABET[(n >> (18 - 6 * i) & 63) as usize] as char);
        }
    }
    out
}

pub fn base64url_decode(text: &str) -> Result<Vec<u8>, String> {
    let mut out = Vec::with_capacity(text.len() * 3 / 4);
    let (mut acc, mut bits) = (0u32, 0);
    for c in text.bytes() {
        let v = ALPHABET
            .iter()
            .position(|&a| a == c)
            .ok_or_else(|| format!("'{}' is not base64url", c as char))?;
        acc = acc << 6 | v as u32;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    Ok(out)
}

/// The URL fragment (without '#') that carries `sc`.
pub fn to_fragment(sc: &Scenario) -> String {
    let json = serde_json::to_string(sc).expect("scenario serialises");
    format!("s={}", base64url_encode(json.as_bytes()))
}

/// Reads a fragment written by [`to_fragment`]; `Ok(None)` when it carries no scenario.
pub fn from_fragment(fragment: &str) -> Result<Option<Scenario>, String> {
    let Some(payload) = fragment.trim_start_matches('#').strip_prefix("s=") else {
        return Ok(None);
    };
    if payload.len() > MAX_SCENARIO_BYTES * 4 / 3 + 4 {
        return Err(format!("the link's scenario is larger than {} KiB", MAX_SCENARIO_BYTES / 1024));
    }
    let bytes = base64url_decode(payload)?;
    let text = String::from_utf8(bytes).map_err(|_| "the link's scenario is not text".to_string())?;
    parse_checked(&text).map(Some)
}

/// Parses and validates scenario JSON from an untrusted source.
pub fn parse_checked(text: &str) -> Result<Scenario, String> {
    if text.len() > MAX_SCENARIO_BYTES {
        return Err(format!(
            "scenario is {} KiB; the limit is {} KiB",
            text.len() / 1024,
            MAX_SCENARIO_BYTES / 1024
        ));
    }
    let sc = Scenario::from_json(text)?;
    sc.validate().map_err(|errs| {
        let list: Vec<String> = errs.iter().map(|e| e.to_string()).collect();
        format!("the scenario has invalid fields: {}", list.join("; "))
    })?;
    Ok(sc)
}

#[cfg(test)]
mod tests {
    use super::*;
    use sim_core::scenario::preset;

    #[test]
    fn base64url_round_trips_every_length() {
        for n in 0..40 {
            let bytes: Vec<u8> = (0..n).map(|i| (i * 37 + 11) as u8).collect();
            assert_eq!(base64url_decode(&base64url_encode(&bytes)).unwrap(), bytes);
        }
    }

    #[test]
    fn base64url_matches_rfc4648_vectors() {
        assert_eq!(base64url_encode(b"foobar"), "Zm9vYmFy");
        assert_eq!(base64url_encode(b"fo"), "Zm8");
        assert_eq!(base64url_encode(&[0xfb, 0xff]), "-_8");
    }

    #[test]
    fn a_scenario_round_trips_through_the_url_fragment() {
        let mut sc = preset("red-study", Some("ared-nic")).unwrap();
        sc.seed = 42;
        sc.flows[0].stop_s = Some(30.5);
        let back = from_fragment(&format!("#{}", to_fragment(&sc))).unwrap().unwrap();
        assert_eq!(back, sc);
    }

    #[test]
    fn invalid_or_oversized_imports_are_refused() {
        let mut sc = preset("red-study", None).unwrap();
        sc.duration_s = -3.0;
        assert!(from_fragment(&to_fragment(&sc)).unwrap_err().contains("duration_s"));
        assert!(parse_checked(&" ".repeat(MAX_SCENARIO_BYTES + 1)).is_err());
        assert!(from_fragment("s=%%%").is_err());
        assert_eq!(from_fragment("other=1").unwrap(), None);
    }
}
