//! The last place for the composer's text that no draft could keep (the
//! drafts' folder unwritable, the disk full) at a quit or a hang-up, when
//! stderr may be a terminal that is gone: a private folder of the user's,
//! usually a tmpfs — `$XDG_RUNTIME_DIR/taskdeck/`, else
//! `$TMPDIR/taskdeck-$UID/`, else `/tmp/taskdeck-$UID/`.
//!
//! The folder is created 0700 and refused when it is a link, not a folder,
//! not owned by the user, or open to the group or others (a shared `/tmp`
//! where another user made it first); the file is created 0600, new
//! (`O_EXCL`) and never through a link (`O_NOFOLLOW`). The caller cleans
//! the text first. The next start lists what is there ([`found`]).

use std::fs::{self, OpenOptions};
use std::io::{self, Write};
use std::os::unix::fs::{DirBuilderExt, MetadataExt, OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};

/// The files' extension: what [`found`] lists.
const EXT: &str = "txt";

/// The folders tried, in order: from the environment.
pub fn folders() -> Vec<PathBuf> {
    let uid = super::ffi::geteuid();
    let mut out = Vec::new();
    if let Some(run) = std::env::var_os("XDG_RUNTIME_DIR").filter(|v| !v.is_empty()) {
        out.push(PathBuf::from(run).join("taskdeck"));
    }
    if let Some(tmp) = std::env::var_os("TMPDIR").filter(|v| !v.is_empty()) {
        out.push(PathBuf::from(tmp).join(format!("taskdeck-{uid}")));
    }
    out.push(PathBuf::from(format!("/tmp/taskdeck-{uid}")));
    out
}

/// `dir` as a private folder of the user's: created 0700 when missing
/// (its parent must exist); refused when a link, not a folder, another's,
/// or open to the group or others.
pub fn private_folder(dir: &Path) -> io::Result<()> {
    match fs::symlink_metadata(dir) {
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            match fs::DirBuilder::new().mode(0o700).create(dir) {
                Ok(()) => {}
                // Made meanwhile by another: checked below as any other.
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {}
                Err(e) => return Err(e),
            }
        }
        Err(e) => return Err(e),
        Ok(_) => {}
    }
    let m = fs::symlink_metadata(dir)?;
    let refuse = |why: &str| Err(io::Error::other(format!("{}: {why}", dir.display())));
    if m.file_type().is_symlink() {
        return refuse("a link, refused");
    }
    if !m.is_dir() {
        return refuse("not a folder");
    }
    if m.uid() != super::ffi::geteuid() {
        return refuse("owned by another user, refused");
    }
    if m.permissions().mode() & 0o077 != 0 {
        return refuse("open to the group or others, refused");
    }
    Ok(())
}

/// Writes `text` in a new file of the private folder `dir`, named by the
/// time and `stem` (a task's label, made safe as a file name): its path.
pub fn write_in(dir: &Path, stem: &str, text: &str) -> io::Result<PathBuf> {
    private_folder(dir)?;
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    let stem: String = stem
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' {
                c
            } else {
                '_'
            }
        })
        .take(40)
        .collect();
    let mut n = 0u32;
    loop {
        let name = match n {
            0 => format!("{secs}-{stem}.{EXT}"),
            _ => format!("{secs}-{stem}-{n}.{EXT}"),
        };
        let path = dir.join(name);
        let open = OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(0o600)
            .custom_flags(libc::O_NOFOLLOW)
            .open(&path);
        match open {
            Ok(mut f) => {
                f.write_all(text.as_bytes())?;
                f.sync_all()?;
                return Ok(path);
            }
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists && n < 100 => n += 1,
            Err(e) => return Err(e),
        }
    }
}

/// Writes `text` in the first of [`folders`] that takes it: its path, or
/// why none did.
pub fn write(stem: &str, text: &str) -> Result<PathBuf, String> {
    let mut why = Vec::new();
    for dir in folders() {
        match write_in(&dir, stem, text) {
            Ok(p) => return Ok(p),
            Err(e) => why.push(format!("{}: {e}", dir.display())),
        }
    }
    Err(why.join("; "))
}

/// The texts left in the private folders (never read: only listed), the
/// folders refused skipped.
pub fn found() -> Vec<PathBuf> {
    let mut out = Vec::new();
    for dir in folders() {
        let Ok(m) = fs::symlink_metadata(&dir) else {
            continue;
        };
        let mine =
            m.is_dir() && m.uid() == super::ffi::geteuid() && m.permissions().mode() & 0o077 == 0;
        if !mine {
            continue;
        }
        if let Ok(rd) = fs::read_dir(&dir) {
            for e in rd.flatten() {
                let p = e.path();
                if p.extension().is_some_and(|x| x == EXT)
                    && e.file_type().is_ok_and(|t| t.is_file())
                {
                    out.push(p);
                }
            }
        }
    }
    out.sort();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mode(p: &Path) -> u32 {
        fs::symlink_metadata(p).unwrap().permissions().mode() & 0o777
    }

    #[test]
    fn writes_a_new_0600_file_in_a_0700_folder_it_makes() {
        let t = tempfile::tempdir().unwrap();
        let dir = t.path().join("taskdeck");
        let p = write_in(&dir, "#12 comment", "the text\nkept").unwrap();
        assert_eq!(mode(&dir), 0o700);
        assert_eq!(mode(&p), 0o600);
        assert_eq!(fs::read_to_string(&p).unwrap(), "the text\nkept");
        let name = p.file_name().unwrap().to_str().unwrap();
        assert!(name.ends_with("-_12_comment.txt"), "{name}");
        // A second one at the same second is a new file, never the first.
        let q = write_in(&dir, "#12 comment", "again").unwrap();
        assert_ne!(p, q);
        assert_eq!(fs::read_to_string(&p).unwrap(), "the text\nkept");
    }

    #[test]
    fn refuses_a_folder_that_is_a_link() {
        let t = tempfile::tempdir().unwrap();
        let real = t.path().join("real");
        fs::DirBuilder::new().mode(0o700).create(&real).unwrap();
        let link = t.path().join("taskdeck");
        std::os::unix::fs::symlink(&real, &link).unwrap();
        let e = write_in(&link, "x", "secret").unwrap_err();
        assert!(e.to_string().contains("a link"), "{e}");
        assert_eq!(fs::read_dir(&real).unwrap().count(), 0);
    }

    #[test]
    fn refuses_a_folder_open_to_others() {
        let t = tempfile::tempdir().unwrap();
        let dir = t.path().join("taskdeck");
        fs::DirBuilder::new().mode(0o777).create(&dir).unwrap();
        fs::set_permissions(&dir, fs::Permissions::from_mode(0o777)).unwrap();
        let e = write_in(&dir, "x", "secret").unwrap_err();
        assert!(e.to_string().contains("open to the group"), "{e}");
        fs::set_permissions(&dir, fs::Permissions::from_mode(0o750)).unwrap();
        assert!(write_in(&dir, "x", "secret").is_err());
        assert_eq!(fs::read_dir(&dir).unwrap().count(), 0);
    }

    #[test]
    fn refuses_a_folder_of_another_user() {
        // A folder owned by root (when the tests do not run as root).
        if super::super::ffi::geteuid() == 0 {
            return;
        }
        let e = private_folder(Path::new("/")).unwrap_err();
        assert!(e.to_string().contains("another user"), "{e}");
    }

    #[test]
    fn never_writes_through_a_link_in_the_folder() {
        let t = tempfile::tempdir().unwrap();
        let dir = t.path().join("taskdeck");
        private_folder(&dir).unwrap();
        let target = t.path().join("elsewhere");
        // A link planted where the next file would go: left alone.
        let secs = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_secs();
        for s in [secs, secs + 1] {
            std::os::unix::fs::symlink(&target, dir.join(format!("{s}-x.txt"))).unwrap();
        }
        let p = write_in(&dir, "x", "secret").unwrap();
        assert!(!target.exists());
        assert_eq!(mode(&p), 0o600);
        assert_eq!(fs::read_to_string(&p).unwrap(), "secret");
    }
}
