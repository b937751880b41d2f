//! What of a user's input a message repeats: enough to recognise, never a 300-digit number
//! or a 100 KB name whole. One leaf that every message writer shares.

/// Longest name echoed back in an error (a 100 KB bad name is not repeated whole).
const ECHO_MAX: usize = 40;
/// Longest value echoed back (a 17-digit float with sign and exponent fits).
const ECHO_VALUE: usize = 24;
/// Longest message that quotes an input.
const ECHO_LONG: usize = 300;

/// `s` whole if at most `max` characters, else its first `max` and "…".
pub fn cut(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        s.to_string()
    } else {
        format!("{}…", s.chars().take(max).collect::<String>())
    }
}

/// A name (a preset, a variant, a key), shortened for an error message.
pub fn echo(s: &str) -> String {
    cut(s, ECHO_MAX)
}

/// A value, shortened for an error message.
pub fn echo_value(s: &str) -> String {
    cut(s, ECHO_VALUE)
}

/// A message that quotes a huge input, shortened.
pub fn echo_long(msg: &str) -> String {
    cut(msg, ECHO_LONG)
}
