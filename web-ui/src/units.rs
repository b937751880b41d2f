//! Quantities as people type them ("2 MB/s", "0.02 s", "1.5 kB", "10 kbit", "20 µs"),
//! converted to the unit the field stores (bit/s, ms, bytes, ...). Plain Rust, no DOM.
//!
//! The letter b is a bit and B a byte, so case matters there ("MB/s" is 8·10⁶ bit/s,
//! "Mb/s" 10⁶); words and other letters are read case-insensitively. Prefixes k, M, G, T
//! are decimal, Ki, Mi, Gi, Ti binary. The arithmetic is decimal (digits and a power of
//! ten), so "1.1 kB" is exactly 1100 bytes and a 20-digit seed keeps every digit; a float
//! field gets its f64 only at the end, correctly rounded.

/// A number as digits × 10^exp, exactly as typed (up to 38 significant digits).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Decimal {
    neg: bool,
    digits: u128,
    exp: i32,
}

/// Why a quantity is not a whole number the field can hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NotWhole {
    Negative,
    Fraction,
    /// Beyond u64.
    TooLarge,
}

impl Decimal {
    /// The number at the start of `s` and what follows it; `None` when `s` starts with none.
    fn lead(s: &str) -> Option<(Decimal, &str)> {
        let b = s.as_bytes();
        let mut i = 0;
        let neg = match b.first() {
            Some(b'-') => {
                i += 1;
                true
            }
            Some(b'+') => {
                i += 1;
                false
            }
            _ => false,
        };
        let (mut digits, mut exp, mut seen, mut dot) = (0u128, 0i32, false, false);
        while i < b.len() {
            match b[i] {
                c @ b'0'..=b'9' => {
                    seen = true;
                    match digits.checked_mul(10).and_then(|d| d.checked_add(u128::from(c - b'0'))) {
                        Some(d) => {
                            digits = d;
                            exp -= i32::from(dot);
                        }
                        // Beyond 38 digits the rest only rounds: drop it.
                        None => exp += i32::from(!dot),
                    }
                }
                b'.' if !dot => dot = true,
                _ => break,
            }
            i += 1;
        }
        if !seen {
            return None;
        }
        // An exponent only when digits follow the e: "2e6" is a number, "2 e" is not.
        if matches!(b.get(i), Some(b'e' | b'E')) {
            let mut j = i + 1;
            let sign = match b.get(j) {
                Some(b'-') => {
                    j += 1;
                    -1
                }
                Some(b'+') => {
                    j += 1;
                    1
                }
                _ => 1,
            };
            let start = j;
            while b.get(j).is_some_and(u8::is_ascii_digit) {
                j += 1;
            }
            if j > start {
                let e: i32 = s[start..j].parse().unwrap_or(i32::MAX / 2).min(100_000);
                exp = exp.saturating_add(sign * e);
                i = j;
            }
        }
        Some((Decimal { neg, digits, exp }, &s[i..]))
    }

    /// × num · 2^pow2 · 10^pow10, exactly while the digits fit (a halving is ×5 and /10).
    fn times(self, num: u128, pow2: i32, pow10: i32) -> Decimal {
        fn mul(d: &mut Decimal, m: u128) {
            while d.digits.checked_mul(m).is_none() {
                // Precision beyond 38 digits is lost, never the magnitude.
                d.digits /= 10;
                d.exp += 1;
            }
            d.digits *= m;
        }
        let mut d = self;
        d.exp += pow10;
        mul(&mut d, num);
        for _ in 0..pow2.unsigned_abs() {
            if pow2 > 0 {
                mul(&mut d, 2);
            } else {
                mul(&mut d, 5);
                d.exp -= 1;
            }
        }
        d
    }

    pub fn to_f64(self) -> f64 {
        let s = format!("{}{}e{}", if self.neg { "-" } else { "" }, self.digits, self.exp);
        s.parse().unwrap_or(f64::NAN)
    }

    /// The number as a whole number ≥ 0, exactly.
    pub fn whole(self) -> Result<u64, NotWhole> {
        if self.digits == 0 {
            return Ok(0);
        }
        if self.neg {
            return Err(NotWhole::Negative);
        }
        let mut d = self.digits;
        let mut e = self.exp;
        while e < 0 {
            if !d.is_multiple_of(10) {
                return Err(NotWhole::Fraction);
            }
            d /= 10;
            e += 1;
        }
        for _ in 0..e {
            d = d.checked_mul(10).ok_or(NotWhole::TooLarge)?;
        }
        u64::try_from(d).map_err(|_| NotWhole::TooLarge)
    }
}

/// What a field's unit measures, and so which units may be typed into it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Dimension {
    /// Stored in bit/s.
    Rate,
    /// Stored in bytes.
    Size,
    /// Stored in 10^n ns (s: 9, ms: 6, µs: 3).
    Time(i32),
    Percent,
    Hertz,
    /// Packets, cells, segments, rounds...: the word itself or nothing.
    Count,
    /// No unit: a plain number.
    Plain,
}

fn dimension(unit: &str) -> Dimension {
    match unit {
        "bit/s" => Dimension::Rate,
        "bytes" => Dimension::Size,
        "s" => Dimension::Time(9),
        "ms" => Dimension::Time(6),
        "µs" | "μs" | "us" => Dimension::Time(3),
        "ns" => Dimension::Time(0),
        "%" => Dimension::Percent,
        "Hz" => Dimension::Hertz,
        "" => Dimension::Plain,
        _ => Dimension::Count,
    }
}

/// Why typed text is not a quantity of the field.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refused {
    NotANumber,
    /// What follows the number is no unit of the field.
    Unit,
    /// "mbit/s": m is milli; mega is M.
    MilliForMega,
}

/// A decimal prefix (k, M, G, T) or a binary one (Ki, Mi, Gi, Ti) at the start of `s`:
/// (power of two, power of ten, rest).
fn prefix(s: &str) -> Option<(i32, i32, &str)> {
    let mut c = s.chars();
    let n = match c.next()? {
        'k' | 'K' => 1,
        'M' => 2,
        'G' => 3,
        'T' => 4,
        _ => return None,
    };
    let rest = c.as_str();
    match rest.strip_prefix('i') {
        Some(r) => Some((10 * n, 0, r)),
        None => Some((0, 3 * n, rest)),
    }
}

/// A leading bit or byte (b / B, or the words): (bits in one, rest).
fn bit_or_byte(s: &str) -> Option<(i32, &str)> {
    let lower = s.to_ascii_lowercase();
    for (word, pow2) in [("bytes", 3), ("byte", 3), ("bits", 0), ("bit", 0)] {
        if lower.starts_with(word) {
            return Some((pow2, &s[word.len()..]));
        }
    }
    match s.chars().next()? {
        'B' => Some((3, &s[1..])),
        'b' => Some((0, &s[1..])),
        _ => None,
    }
}

fn per_second(s: &str) -> bool {
    ["/s", "/sec", "ps", "/second"].iter().any(|p| s.eq_ignore_ascii_case(p))
}

/// A time unit: (multiplier, power of ten) of one in ns.
fn time_unit(s: &str) -> Option<(u128, i32)> {
    let w = s.to_lowercase();
    let is = |words: &[&str]| words.contains(&w.as_str());
    Some(if is(&["s", "sec", "secs", "second", "seconds"]) {
        (1, 9)
    } else if is(&["ms", "msec", "millisecond", "milliseconds"]) {
        (1, 6)
    } else if is(&["us", "µs", "μs", "usec", "microsecond", "microseconds"]) {
        (1, 3)
    } else if is(&["ns", "nanosecond", "nanoseconds"]) {
        (1, 0)
    } else if is(&["min", "mins", "minute", "minutes"]) {
        (60, 9)
    } else if is(&["h", "hour", "hours"]) {
        (3600, 9)
    } else {
        return None;
    })
}

/// `suffix` (what follows the number) as a factor into `unit`: (num, pow2, pow10).
fn factor(suffix: &str, unit: &str) -> Result<(u128, i32, i32), Refused> {
    let s = suffix.trim();
    let dim = dimension(unit);
    if s.is_empty() {
        return Ok((1, 0, 0));
    }
    // Rates and sizes: [prefix][b | B | bit | byte][/s]; a bare prefix ("2M") is the unit's.
    let bits_bytes = |s: &str, rate: bool| -> Option<(u128, i32, i32)> {
        let (p2, p10, rest) = prefix(s).unwrap_or((0, 0, s));
        if rest.is_empty() && (p2, p10) != (0, 0) {
            return Some((1, p2, p10));
        }
        let (bits, rest) = bit_or_byte(rest)?;
        let ok = if rate { per_second(rest) } else { rest.is_empty() };
        // A size counts bytes: a bit is an eighth of one.
        let to_unit = if rate { bits } else { bits - 3 };
        ok.then_some((1, p2 + to_unit, p10))
    };
    let milli = |rate: bool| {
        s.strip_prefix('m')
            .and_then(|r| bits_bytes(&format!("M{r}"), rate))
            .map_or(Refused::Unit, |_| Refused::MilliForMega)
    };
    match dim {
        Dimension::Rate => bits_bytes(s, true).ok_or_else(|| milli(true)),
        Dimension::Size => bits_bytes(s, false).ok_or_else(|| milli(false)),
        Dimension::Time(field) => time_unit(s).map(|(n, p10)| (n, 0, p10 - field)).ok_or(Refused::Unit),
        Dimension::Percent => (s == "%").then_some((1, 0, 0)).ok_or(Refused::Unit),
        Dimension::Hertz => {
            let (p2, p10, rest) = prefix(s).filter(|p| p.0 == 0).unwrap_or((0, 0, s));
            (rest.is_empty() && p10 > 0 || rest.eq_ignore_ascii_case("hz"))
                .then_some((1, p2, p10))
                .ok_or(Refused::Unit)
        }
        Dimension::Count | Dimension::Plain => {
            let (p2, p10, rest) = prefix(s).filter(|p| p.0 == 0).unwrap_or((0, 0, s));
            let rest = rest.trim();
            (rest.is_empty() && p10 > 0 || dim == Dimension::Count && count_word(rest, unit))
                .then_some((1, p2, p10))
                .ok_or(Refused::Unit)
        }
    }
}

/// "packets", "packet", "pkt" or "pkts" for a field in packets (and so on).
fn count_word(w: &str, unit: &str) -> bool {
    let singular = unit.strip_suffix('s').unwrap_or(unit);
    let short = match unit {
        "packets" => &["pkt", "pkts"][..],
        "segments" => &["seg", "segs"][..],
        _ => &[][..],
    };
    w.eq_ignore_ascii_case(unit)
        || w.eq_ignore_ascii_case(singular)
        || short.iter().any(|s| w.eq_ignore_ascii_case(s))
}

/// `raw` as a quantity in `unit`, the unit its field stores.
pub fn parse(raw: &str, unit: &str) -> Result<Decimal, Refused> {
    let (d, rest) = Decimal::lead(raw.trim()).ok_or(Refused::NotANumber)?;
    let (num, pow2, pow10) = factor(rest, unit)?;
    Ok(d.times(num, pow2, pow10))
}

/// The units a field takes, in words, for a refusal.
pub fn accepted(unit: &str) -> String {
    match dimension(unit) {
        Dimension::Rate => {
            "a rate: bit/s, kbit/s, Mbit/s, Gbit/s or B/s, kB/s, MB/s (B is a byte, b a bit)".into()
        }
        Dimension::Size => "a size: bytes (B, kB, KiB, MB) or bits (bit, kbit, Mbit)".into(),
        Dimension::Time(_) => "a time: s, ms, µs (or us), ns, min".into(),
        Dimension::Percent => "a percentage: a number, or a number with %".into(),
        Dimension::Hertz => "a frequency: Hz, kHz".into(),
        Dimension::Count => format!("a number of {unit} (the word may follow the number; k, M, G allowed)"),
        Dimension::Plain => "a plain number, without a unit (k, M, G allowed)".into(),
    }
}

/// Whether a field in `unit` takes other units (a rate, a size, a time), not just a number.
pub fn takes_units(unit: &str) -> bool {
    matches!(dimension(unit), Dimension::Rate | Dimension::Size | Dimension::Time(_))
}

/// A short example of what a field takes.
pub fn example(unit: &str) -> &'static str {
    match dimension(unit) {
        Dimension::Rate => "2e6, 2 Mbit/s or 250 kB/s",
        Dimension::Size => "1500, 1.5 kB or 128 KiB",
        Dimension::Time(9) => "0.5, 0.5 s or 500 ms",
        Dimension::Time(6) => "20, 20 ms or 0.02 s",
        Dimension::Time(_) => "20, 20 µs or 0.02 ms",
        _ => "",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f(raw: &str, unit: &str) -> Option<f64> {
        parse(raw, unit).ok().map(Decimal::to_f64)
    }

    fn n(raw: &str, unit: &str) -> Result<u64, String> {
        parse(raw, unit).map_err(|e| format!("{e:?}"))?.whole().map_err(|e| format!("{e:?}"))
    }

    #[test]
    fn plain_numbers_and_exponents() {
        assert_eq!(f("2e6", "bit/s"), Some(2e6));
        assert_eq!(f("-4", "ms"), Some(-4.0));
        assert_eq!(f(".5", "s"), Some(0.5));
        assert_eq!(f("+3", ""), Some(3.0));
        assert_eq!(parse("fast", "bit/s"), Err(Refused::NotANumber));
        assert_eq!(parse("", "ms"), Err(Refused::NotANumber));
        // An e without digits is no exponent, and no unit of a time either.
        assert_eq!(parse("2e", "ms"), Err(Refused::Unit));
    }

    #[test]
    fn a_capital_b_is_a_byte_and_a_small_b_a_bit() {
        assert_eq!(n("2 MB/s", "bit/s"), Ok(16_000_000));
        assert_eq!(n("2 Mb/s", "bit/s"), Ok(2_000_000));
        assert_eq!(n("2 Mbit/s", "bit/s"), Ok(2_000_000));
        assert_eq!(n("2 Mbps", "bit/s"), Ok(2_000_000));
        assert_eq!(n("2 MBps", "bit/s"), Ok(16_000_000));
        assert_eq!(n("1 kB/s", "bit/s"), Ok(8_000));
        assert_eq!(n("1 kb/s", "bit/s"), Ok(1_000));
        assert_eq!(n("1 byte/s", "bit/s"), Ok(8));
        assert_eq!(n("3 Bits/s", "bit/s"), Ok(3));
    }

    #[test]
    fn prefixes_are_decimal_and_binary() {
        assert_eq!(n("500k", "bit/s"), Ok(500_000));
        assert_eq!(n("1 Gbit/s", "bit/s"), Ok(1_000_000_000));
        assert_eq!(n("1 Kibit/s", "bit/s"), Ok(1024));
        assert_eq!(n("1 MiB/s", "bit/s"), Ok(8 * 1_048_576));
        assert_eq!(n("128 KiB", "bytes"), Ok(131_072));
        assert_eq!(n("1 GiB", "bytes"), Ok(1 << 30));
        assert_eq!(n("2M", "bit/s"), Ok(2_000_000));
    }

    #[test]
    fn milli_is_not_mega() {
        assert_eq!(parse("10 mbit/s", "bit/s"), Err(Refused::MilliForMega));
        assert_eq!(parse("10 mB", "bytes"), Err(Refused::MilliForMega));
        assert_eq!(parse("10 zbit/s", "bit/s"), Err(Refused::Unit));
    }

    #[test]
    fn sizes_in_bytes_or_bits_are_exact() {
        assert_eq!(n("1.5 kB", "bytes"), Ok(1500));
        assert_eq!(n("1.1 kB", "bytes"), Ok(1100));
        assert_eq!(n("10 kbit", "bytes"), Ok(1250));
        assert_eq!(n("10 kb", "bytes"), Ok(1250));
        assert_eq!(n("64 bytes", "bytes"), Ok(64));
        assert_eq!(n("64 B", "bytes"), Ok(64));
        assert_eq!(n("1 bit", "bytes"), Err("Fraction".into()));
    }

    #[test]
    fn a_rate_is_not_a_size_nor_a_size_a_rate() {
        assert_eq!(parse("2 MB", "bit/s"), Err(Refused::Unit));
        assert_eq!(parse("2 Mbit", "bit/s"), Err(Refused::Unit));
        assert_eq!(parse("2 MB/s", "bytes"), Err(Refused::Unit));
        assert_eq!(parse("5 ms", "bit/s"), Err(Refused::Unit));
    }

    #[test]
    fn times_convert_to_the_fields_unit() {
        assert_eq!(f("0.02 s", "ms"), Some(20.0));
        assert_eq!(f("500 ms", "s"), Some(0.5));
        assert_eq!(f("20 us", "ms"), Some(0.02));
        assert_eq!(f("20 µs", "ms"), Some(0.02));
        assert_eq!(f("20 μs", "ms"), Some(0.02));
        assert_eq!(f("3 ms", "µs"), Some(3000.0));
        assert_eq!(f("1 min", "s"), Some(60.0));
        assert_eq!(f("2.5 ms", "ms"), Some(2.5));
        assert_eq!(f("2.5 MS", "ms"), Some(2.5));
        assert_eq!(f("0.0035 s", "ms"), Some(3.5));
        assert_eq!(parse("5 kg", "ms"), Err(Refused::Unit));
        assert_eq!(parse("5 kbit", "s"), Err(Refused::Unit));
    }

    #[test]
    fn counts_take_their_own_word_only() {
        assert_eq!(n("100 packets", "packets"), Ok(100));
        assert_eq!(n("1 packet", "packets"), Ok(1));
        assert_eq!(n("100 pkts", "packets"), Ok(100));
        assert_eq!(n("10k", "packets"), Ok(10_000));
        assert_eq!(n("40 cells", "cells"), Ok(40));
        assert_eq!(parse("40 cells", "packets"), Err(Refused::Unit));
        assert_eq!(parse("40 ms", ""), Err(Refused::Unit));
        assert_eq!(f("5k", ""), Some(5000.0));
        assert_eq!(f("5 %", "%"), Some(5.0));
        assert_eq!(f("2 kHz", "Hz"), Some(2000.0));
    }

    #[test]
    fn whole_numbers_keep_every_digit_and_know_their_limits() {
        assert_eq!(n("18446744073709551615", ""), Ok(u64::MAX));
        assert_eq!(n("12345678901234567891", ""), Ok(12_345_678_901_234_567_891));
        assert_eq!(n("18446744073709551616", ""), Err("TooLarge".into()));
        assert_eq!(n("99999999999999999999", ""), Err("TooLarge".into()));
        assert_eq!(n("1e30", ""), Err("TooLarge".into()));
        assert_eq!(n("1.5", ""), Err("Fraction".into()));
        assert_eq!(n("-1", ""), Err("Negative".into()));
        assert_eq!(n("-0", ""), Ok(0));
        assert_eq!(n("2.50e1", ""), Ok(25));
    }
}
