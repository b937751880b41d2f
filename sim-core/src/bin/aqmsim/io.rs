//! Input and output the careful way: capped reads, output paths checked before a run,
//! files written atomically, a closed pipe ends quietly, every error names its path.
//!
//! What is already at an output path is never harmed: aqmsim writes regular files only. A
//! FIFO, a device, a socket or a directory where a file goes is refused, and so is a
//! symbolic link (at a file or as the `--out` directory), because renaming over it would
//! replace it and opening it would write through it. Temporary files are created new
//! (never opened if something is there), named `<file>.<pid>.tmp`, and removed on every
//! error path; those a killed run left are removed by the next run into the same place.

use std::fs::{File, Metadata, OpenOptions};
use std::io::{ErrorKind, Read, Write};
use std::path::{Path, PathBuf};

/// Largest scenario or data file read.
pub const MAX_INPUT_BYTES: u64 = 16 << 20;

/// Why a command stopped: a message for the user (exit 1), a bad argument (exit 2, as clap
/// reports its own), or quietly (a reader closed the pipe).
#[derive(Debug)]
pub enum Failure {
    Msg(String),
    Usage(String),
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

/// A usage error: a flag's value is outside what the command accepts.
pub fn usage(msg: impl Into<String>) -> Failure {
    Failure::Usage(msg.into())
}

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

/// Writes to standard error, ignoring failure: `eprint!` panics when stderr is unwritable,
/// and a message nobody can read must not turn an exit code into 101.
pub fn note(text: &str) {
    let mut err = std::io::stderr().lock();
    let _ = err.write_all(text.as_bytes()).and_then(|_| err.flush());
}

/// Reads a text file (or standard input for `-`), refusing more than [`MAX_INPUT_BYTES`]
/// and anything that is not UTF-8.
pub fn read_text(path: &str) -> Result<String, String> {
    let mut bytes = Vec::new();
    let limit = MAX_INPUT_BYTES + 1;
    let got = if path == "-" {
        std::io::stdin().lock().take(limit).read_to_end(&mut bytes)
    } else {
        let f = File::open(path).map_err(|e| format!("{}: {e}", shown(Path::new(path))))?;
        if f.metadata().is_ok_and(|m| m.is_dir()) {
            return Err(format!("{}: is a directory, not a file", shown(Path::new(path))));
        }
        f.take(limit).read_to_end(&mut bytes)
    };
    got.map_err(|e| format!("{}: {e}", shown(Path::new(path))))?;
    if bytes.len() as u64 > MAX_INPUT_BYTES {
        return Err(format!("{path}: larger than {} MiB; not a scenario", MAX_INPUT_BYTES >> 20));
    }
    String::from_utf8(bytes).map_err(|_| format!("{path}: not UTF-8 text"))
}

/// A path for a message, shortened only if huge: its start and its end (the file's name)
/// stay, the middle goes.
fn shown(p: &Path) -> String {
    let s = p.to_string_lossy();
    let n = s.chars().count();
    if n <= 120 {
        return s.into_owned();
    }
    let head: String = s.chars().take(50).collect();
    let tail: String = s.chars().skip(n - 50).collect();
    format!("{head}…{tail}")
}

/// What a directory entry is, for a message ("a FIFO", "a directory").
fn kind_of(m: &Metadata) -> &'static str {
    let t = m.file_type();
    if t.is_file() {
        return "a regular file";
    }
    if t.is_dir() {
        return "a directory";
    }
    if t.is_symlink() {
        return "a symbolic link";
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_fifo() {
            return "a FIFO (named pipe)";
        }
        if t.is_char_device() {
            return "a character device";
        }
        if t.is_block_device() {
            return "a block device";
        }
        if t.is_socket() {
            return "a socket";
        }
    }
    "not a regular file"
}

/// The refusal for a symbolic link at `p`, naming where it points.
fn link_refusal(p: &Path) -> String {
    let to = std::fs::read_link(p).map(|t| format!(" to {}", shown(&t))).unwrap_or_default();
    format!(
        "{}: is a symbolic link{to}; aqmsim neither writes through nor replaces a link, name the target itself",
        shown(p)
    )
}

/// Checks that a file can be written at `path` without harming what is there: nothing, or
/// a regular file (which is replaced whole). Does not follow a final symbolic link.
pub fn check_file_target(path: &Path) -> Result<(), String> {
    match std::fs::symlink_metadata(path) {
        Ok(m) if m.file_type().is_symlink() => Err(link_refusal(path)),
        Ok(m) if m.is_file() => Ok(()),
        Ok(m) => Err(format!(
            "{}: {} is there; aqmsim writes regular files only and leaves it alone",
            shown(path),
            kind_of(&m)
        )),
        Err(e) if e.kind() == ErrorKind::NotFound => Ok(()),
        Err(e) => Err(format!("{}: {e}", shown(path))),
    }
}

/// `path` without trailing separators, so that `link/` is examined as the link itself.
fn trimmed(dir: &str) -> PathBuf {
    let t = dir.trim_end_matches(std::path::MAIN_SEPARATOR);
    PathBuf::from(if t.is_empty() { dir } else { t })
}

/// Makes sure `dir` exists (or can be created), is a real directory (not a link to one) and
/// is writable, before any work is done.
pub fn prepare_dir(dir: &str) -> Result<PathBuf, String> {
    let p = trimmed(dir);
    match std::fs::symlink_metadata(&p) {
        Ok(m) if m.file_type().is_symlink() => return Err(link_refusal(&p)),
        Ok(m) if !m.is_dir() => {
            return Err(format!(
                "{}: cannot create the output directory: {} is there",
                shown(&p),
                kind_of(&m)
            ))
        }
        _ => {}
    }
    std::fs::create_dir_all(&p)
        .map_err(|e| format!("{}: cannot create the output directory: {e}", shown(&p)))?;
    if !p.is_dir() {
        return Err(format!("{}: not a directory", shown(&p)));
    }
    let probe = p.join(format!(".aqmsim-write-test-{}", std::process::id()));
    let f = create_new(&probe).map_err(|e| format!("{}: not writable: {e}", shown(&p)))?;
    drop(f);
    let _ = std::fs::remove_file(&probe);
    Ok(p)
}

/// Makes sure a file can be written at `path` (its directory exists or can be created, no
/// FIFO, device, directory or link is there) and removes the temporary files a killed run
/// left beside it. Called before the run, so a long run cannot end in a refusal.
pub fn prepare_file(path: &Path) -> Result<(), String> {
    check_file_target(path)?;
    let parent = match path.parent().filter(|d| !d.as_os_str().is_empty()) {
        Some(d) => prepare_dir(&d.to_string_lossy())?,
        None => prepare_dir(".")?,
    };
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned());
    if let Some(name) = name {
        remove_stale(&parent, |stem| stem == name);
    }
    Ok(())
}

/// Checks, before a run, every entry of `dir` whose name the run may write (`ours`): each
/// must be a regular file. Then removes temporary files of those names that a killed run
/// left.
pub fn check_dir_outputs(dir: &Path, ours: impl Fn(&str) -> bool) -> Result<(), String> {
    let entries = std::fs::read_dir(dir).map_err(|e| format!("{}: {e}", shown(dir)))?;
    for e in entries.flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        if ours(&name) {
            check_file_target(&e.path())?;
        }
    }
    remove_stale(dir, ours);
    Ok(())
}

/// The temporary name a file is written under until complete: `<file>.<pid>.tmp`.
pub fn tmp_path(path: &Path) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(format!(".{}.tmp", std::process::id()));
    path.with_file_name(name)
}

/// The file name a temporary name stands for and the process that made it:
/// `a.csv.123.tmp` → (`a.csv`, 123).
fn parse_tmp(name: &str) -> Option<(&str, u32)> {
    let rest = name.strip_suffix(".tmp")?;
    let (stem, pid) = rest.rsplit_once('.')?;
    if stem.is_empty() || pid.is_empty() || !pid.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some((stem, pid.parse().ok()?))
}

/// Whether process `pid` may still be writing its temporary file. Known only where /proc
/// lists processes; elsewhere every other process counts as alive, so its files are kept.
fn may_be_running(pid: u32) -> bool {
    if pid == std::process::id() {
        // This process has not created its temporary files yet: one of its name is stale.
        return false;
    }
    !Path::new("/proc/self").exists() || Path::new(&format!("/proc/{pid}")).exists()
}

/// Removes, in `dir` only, regular files named `<name>.<pid>.tmp` where `ours(name)` and
/// process `pid` is gone: what a killed run left. Nothing else is touched.
fn remove_stale(dir: &Path, ours: impl Fn(&str) -> bool) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for e in entries.flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        let Some((stem, pid)) = parse_tmp(&name) else { continue };
        let regular = std::fs::symlink_metadata(e.path()).is_ok_and(|m| m.is_file());
        if regular && ours(stem) && !may_be_running(pid) {
            let _ = std::fs::remove_file(e.path());
        }
    }
}

/// Creates a file that did not exist: never opens (or truncates) what is already there,
/// a link included. A regular file of this process's temporary name is a leftover of an
/// earlier process with the same id, and is replaced.
pub fn create_new(path: &Path) -> std::io::Result<File> {
    let open = || OpenOptions::new().write(true).create_new(true).open(path);
    match open() {
        Err(e) if e.kind() == ErrorKind::AlreadyExists => {
            if std::fs::symlink_metadata(path).is_ok_and(|m| m.is_file()) {
                std::fs::remove_file(path)?;
                open()
            } else {
                Err(e)
            }
        }
        r => r,
    }
}

/// Moves a complete temporary file to its final name, checking once more (what is there
/// may have changed during a long run) that only a regular file or nothing is replaced.
pub fn commit(tmp: &Path, path: &Path) -> Result<(), String> {
    check_file_target(path)?;
    std::fs::rename(tmp, path).map_err(|e| format!("{}: {e}", shown(path)))
}

/// Writes `body` to `path` atomically: a temporary file in the same directory, renamed
/// over the target only once completely written. The temporary file never outlives an
/// error.
pub fn write_atomic(path: &Path, body: &[u8]) -> Result<(), String> {
    check_file_target(path)?;
    let tmp = tmp_path(path);
    let mut f = create_new(&tmp).map_err(|e| format!("{}: {e}", shown(&tmp)))?;
    let result = f
        .write_all(body)
        .and_then(|_| f.sync_all())
        .map_err(|e| format!("{}: {e}", shown(&tmp)))
        .and_then(|_| commit(&tmp, path));
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn temporary_names_are_recognised_exactly() {
        assert_eq!(parse_tmp("red_queue.csv.123.tmp"), Some(("red_queue.csv", 123)));
        assert_eq!(parse_tmp("summary.json.9.tmp"), Some(("summary.json", 9)));
        assert_eq!(parse_tmp("notes.tmp"), None);
        assert_eq!(parse_tmp("a.csv.12x.tmp"), None);
        assert_eq!(parse_tmp(".5.tmp"), None);
        assert_eq!(parse_tmp("a.csv..tmp"), None);
        let t = tmp_path(Path::new("out/w.json"));
        assert_eq!(t, PathBuf::from(format!("out/w.json.{}.tmp", std::process::id())));
    }
}
