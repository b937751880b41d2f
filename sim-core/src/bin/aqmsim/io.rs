//! Input and output the careful way: capped reads, output directories checked before a
//! run, files written atomically, a closed pipe ends quietly, every error names its path.

use std::io::{ErrorKind, Read, Write};
use std::path::{Path, PathBuf};

/// Largest scenario or data file read.
pub const MAX_INPUT_BYTES: u64 = 16 << 20;

/// Why a command stopped: a message for the user, or quietly (a reader closed the pipe).
pub enum Failure {
    Msg(String),
    Quiet,
}

impl From<String> for Failure {
    fn from(s: String) -> Failure {
        Failure::Msg(s)
    }
}

impl From<&str> for Failure {
    fn from(s: &str) -> Failure {
        Failure::Msg(s.to_string())
    }
}

pub type Outcome = Result<(), Failure>;

/// Prints a line on standard output; a closed pipe (`| head`) ends the command quietly.
pub fn say(text: &str) -> Outcome {
    let mut out = std::io::stdout().lock();
    match writeln!(out, "{text}").and_then(|_| out.flush()) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == ErrorKind::BrokenPipe => Err(Failure::Quiet),
        Err(e) => Err(Failure::Msg(format!("standard output: {e}"))),
    }
}

/// Prints without a newline (tables end with their own).
pub fn print(text: &str) -> Outcome {
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|_| out.flush()) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == ErrorKind::BrokenPipe => Err(Failure::Quiet),
        Err(e) => Err(Failure::Msg(format!("standard output: {e}"))),
    }
}

/// Reads a text file (or standard input for `-`), refusing more than [`MAX_INPUT_BYTES`]
/// and anything that is not UTF-8.
pub fn read_text(path: &str) -> Result<String, String> {
    let mut bytes = Vec::new();
    let limit = MAX_INPUT_BYTES + 1;
    let got = if path == "-" {
        std::io::stdin().lock().take(limit).read_to_end(&mut bytes)
    } else {
        let f = std::fs::File::open(path).map_err(|e| format!("{path}: {e}"))?;
        if f.metadata().is_ok_and(|m| m.is_dir()) {
            return Err(format!("{path}: is a directory, not a file"));
        }
        f.take(limit).read_to_end(&mut bytes)
    };
    got.map_err(|e| format!("{path}: {e}"))?;
    if bytes.len() as u64 > MAX_INPUT_BYTES {
        return Err(format!("{path}: larger than {} MiB; not a scenario", MAX_INPUT_BYTES >> 20));
    }
    String::from_utf8(bytes).map_err(|_| format!("{path}: not UTF-8 text"))
}

/// Makes sure `dir` exists (or can be created) and is writable, before any work is done.
pub fn prepare_dir(dir: &str) -> Result<PathBuf, String> {
    let p = PathBuf::from(dir);
    std::fs::create_dir_all(&p)
        .map_err(|e| format!("{}: cannot create the output directory: {e}", p.display()))?;
    if !p.is_dir() {
        return Err(format!("{}: not a directory", p.display()));
    }
    let probe = p.join(format!(".aqmsim-write-test-{}", std::process::id()));
    std::fs::write(&probe, b"").map_err(|e| format!("{}: not writable: {e}", p.display()))?;
    let _ = std::fs::remove_file(&probe);
    Ok(p)
}

/// Writes `body` to `path` atomically: a temporary file in the same directory, renamed
/// over the target only once completely written.
pub fn write_atomic(path: &Path, body: &[u8]) -> Result<(), String> {
    let tmp = path.with_extension(format!("{}.tmp", std::process::id()));
    let result = (|| {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(body)?;
        f.sync_all()?;
        std::fs::rename(&tmp, path)
    })();
    result.map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        format!("{}: {e}", path.display())
    })
}
