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
pub fn write_private_file(path: &Path, contents: &[u8]) -> std::io::Result<()> {
    use std::io::Write;
    if let Some(parent) = path.parent() {
        ensure_private_dir(parent)?;
    }
    let tmp = path.with_extension(format!("tmp{}", std::process::id()));
    {
        let mut o = std::fs::OpenOptions::new();
        o.write(true).create(true).truncate(true);
        #[cfg(unix)]
        {
            use std::os::unix::fs::OpenOptionsExt;
            o.mode(0o600);
        }
        let mut f = o.open(&tmp)?;
        f.write_all(contents)?;
        f.sync_all()?;
    }
    std::fs::rename(&tmp, path)
}
