//! Where taskdeck's files are, and how the private ones are written.

use super::ENV_CONFIG;
use std::path::{Path, PathBuf};

fn absolute_env_dir(name: &str) -> Option<PathBuf> {
    std::env::var_os(name)
        .map(PathBuf::from)
        .filter(|p| p.is_absolute())
}

fn home() -> PathBuf {
    dirs::home_dir().unwrap_or_else(|| PathBuf::from("."))
}

/// The config file path: `$TASKDECK_CONFIG`, else
/// `$XDG_CONFIG_HOME/taskdeck/config.toml`, else `~/.config/taskdeck/config.toml`.
pub fn config_path() -> PathBuf {
    if let Some(p) = std::env::var_os(ENV_CONFIG).filter(|p| !p.is_empty()) {
        return PathBuf::from(p);
    }
    absolute_env_dir("XDG_CONFIG_HOME")
        .unwrap_or_else(|| home().join(".config"))
        .join("taskdeck")
        .join("config.toml")
}

/// Where logs and drafts live: `$XDG_STATE_HOME/taskdeck`, else
/// `~/.local/state/taskdeck`. Not created here; see [`ensure_private_dir`].
pub fn state_dir() -> PathBuf {
    absolute_env_dir("XDG_STATE_HOME")
        .unwrap_or_else(|| home().join(".local").join("state"))
        .join("taskdeck")
}

/// The folder this process logs to, once logging started (the demo logs
/// where every run does, though its state folder is its own).
static LOG_DIR: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();

/// Say where this process logs (`taskdeck.log` in `dir`).
pub fn set_log_dir(dir: &Path) {
    let _ = LOG_DIR.set(dir.to_path_buf());
}

/// The log file this process writes: in the folder logging started with,
/// else in [`state_dir`].
pub fn log_file() -> PathBuf {
    LOG_DIR
        .get()
        .cloned()
        .unwrap_or_else(state_dir)
        .join("taskdeck.log")
}

/// Create `dir` (and parents) readable by the owner only (0700 on unix).
pub fn ensure_private_dir(dir: &Path) -> std::io::Result<()> {
    let mut b = std::fs::DirBuilder::new();
    b.recursive(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::DirBuilderExt;
        b.mode(0o700);
    }
    b.create(dir)
}

/// Write a file only its owner can read (0600 on unix; its folder 0700),
/// atomically: a temporary file, synced, then renamed into place. Drafts,
/// editor files, and any config file taskdeck writes go through here.
///
/// Nothing planted in the folder is ever written through: the temporary
/// file has a fresh random name and is created exclusively without
/// following a symlink (an existing file or link of that name fails and
/// another name is tried), and the rename replaces whatever `path` is — a
/// symlink there is replaced, its target left as it was.
pub fn write_private_file(path: &Path, contents: &[u8]) -> std::io::Result<()> {
    use std::io::Write;
    if let Some(parent) = path.parent() {
        ensure_private_dir(parent)?;
    }
    let mut attempts = 0;
    let (tmp, mut f) = loop {
        let tmp = path.with_extension(format!(
            "tmp{}-{:08x}",
            std::process::id(),
            getrandom::u32().unwrap_or(0)
        ));
        let mut o = std::fs::OpenOptions::new();
        o.write(true).create_new(true);
        #[cfg(unix)]
        {
            use std::os::unix::fs::OpenOptionsExt;
            o.mode(0o600).custom_flags(libc::O_NOFOLLOW);
        }
        match o.open(&tmp) {
            Ok(f) => break (tmp, f),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists && attempts < 8 => {
                attempts += 1;
            }
            Err(e) => return Err(e),
        }
    };
    let written = f.write_all(contents).and_then(|()| f.sync_all());
    drop(f);
    let done = written.and_then(|()| std::fs::rename(&tmp, path));
    if done.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    done
}

/// The most a config file may hold: far more than any real one, small
/// enough that a wrong path (a log, a disk image) cannot take the memory.
pub const CONFIG_MAX_BYTES: u64 = 1024 * 1024;

pub use crate::files::read_regular_file;

/// The file a write to `path` should replace: a symlink is followed (to a
/// target not yet there too), so a linked config (dotfiles kept in a
/// repository) is written through and the link stays a link.
pub fn resolve_links(path: &Path) -> PathBuf {
    let mut p = path.to_path_buf();
    // As many hops as the kernel follows; a loop ends there.
    for _ in 0..40 {
        match std::fs::read_link(&p) {
            Ok(t) if t.is_absolute() => p = t,
            Ok(t) => p = p.parent().unwrap_or(Path::new(".")).join(t),
            Err(_) => break,
        }
    }
    p
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::{Duration, Instant};

    #[test]
    fn private_writes_never_follow_a_planted_symlink() {
        let dir = tempfile::tempdir().unwrap();
        let victim = dir.path().join("victim");
        std::fs::write(&victim, "precious").unwrap();
        let folder = dir.path().join("drafts");
        ensure_private_dir(&folder).unwrap();
        let path = folder.join("task.comment.txt");
        // Links planted at the file itself and at the old, predictable
        // temporary names (`tmp<pid>`), all pointing at the victim.
        std::os::unix::fs::symlink(&victim, &path).unwrap();
        let old_tmp = path.with_extension(format!("tmp{}", std::process::id()));
        std::os::unix::fs::symlink(&victim, &old_tmp).unwrap();
        write_private_file(&path, b"draft text").unwrap();
        assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious");
        let meta = std::fs::symlink_metadata(&path).unwrap();
        assert!(meta.is_file(), "the link was replaced by a file");
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "draft text");
        // Nothing but the file and the planted link is left behind.
        let names: Vec<_> = std::fs::read_dir(&folder).unwrap().collect();
        assert_eq!(names.len(), 2, "{names:?}");
    }

    #[test]
    fn a_config_path_that_is_not_a_regular_file_is_refused_at_once() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("fifo.toml");
        let made = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap();
        assert!(made.success());
        let started = Instant::now();
        let e = read_regular_file(&fifo, CONFIG_MAX_BYTES).unwrap_err();
        assert_eq!(e.to_string(), "not a regular file (a FIFO)");
        let e = read_regular_file(Path::new("/dev/zero"), CONFIG_MAX_BYTES).unwrap_err();
        assert_eq!(e.to_string(), "not a regular file (a character device)");
        let e = read_regular_file(dir.path(), CONFIG_MAX_BYTES).unwrap_err();
        assert_eq!(e.to_string(), "not a regular file (a directory)");
        assert!(started.elapsed() < Duration::from_secs(5));

        let big = dir.path().join("big.toml");
        std::fs::write(&big, vec![b'#'; CONFIG_MAX_BYTES as usize + 1]).unwrap();
        let e = read_regular_file(&big, CONFIG_MAX_BYTES).unwrap_err();
        assert_eq!(e.to_string(), "larger than 1 MiB");

        let ok = dir.path().join("ok.toml");
        std::fs::write(&ok, "a = 1\n").unwrap();
        let link = dir.path().join("link.toml");
        std::os::unix::fs::symlink(&ok, &link).unwrap();
        assert_eq!(
            read_regular_file(&link, CONFIG_MAX_BYTES).unwrap(),
            "a = 1\n"
        );
        let missing = read_regular_file(&dir.path().join("none"), CONFIG_MAX_BYTES);
        assert_eq!(missing.unwrap_err().kind(), std::io::ErrorKind::NotFound);
    }
}
