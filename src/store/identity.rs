//! Whose is what is stored: a service is its whole base URL, a user is
//! the id the service answered for `GET /me`, and which user a key belongs
//! to is remembered without keeping the key.
//!
//! Everything local (the store and its outbox, drafts, the directory,
//! seen marks, recent tasks, the last view) lives under one folder per
//! service and, inside it, one per user. A start opens only the store of
//! the user its key was last seen to belong to: the service folder keeps
//! `identities`, a map from a key's *fingerprint* to a user id. The
//! fingerprint is SHA-256 over a random salt of that folder (`salt`,
//! 32 bytes, 0600, never leaving the machine) and the key: one-way, and
//! useless on another machine. A key never seen opens nothing until the
//! service says who it is.

use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// A base URL as one service: lower-case scheme and host, the port only
/// when it is not the scheme's default, the path without its final `/`.
/// Credentials, query and fragment are not part of it (and are refused
/// elsewhere).
pub fn normalized_base(base_url: &str) -> String {
    match reqwest::Url::parse(base_url.trim()) {
        Ok(u) => {
            let host = u.host_str().unwrap_or("").to_ascii_lowercase();
            let port = u.port().map(|p| format!(":{p}")).unwrap_or_default();
            let path = u.path().trim_end_matches('/');
            format!("{}://{host}{port}{path}", u.scheme())
        }
        Err(_) => base_url.trim().trim_end_matches('/').to_string(),
    }
}

/// The folder name of a service: readable (host and port) and exact (a
/// hash of the whole normalised base URL), so that `https://h/a` and
/// `https://h/b` — or `http` and `https` on one host — never share a
/// store, an outbox or drafts. The demo's sandbox moves port at every
/// start, so it has one folder of its own.
pub fn service_key(base_url: &str, demo: bool) -> String {
    if demo {
        return "demo".into();
    }
    let base = normalized_base(base_url);
    let hash = hex(&Sha256::digest(base.as_bytes()))[..16].to_string();
    format!("{}-{hash}", legacy_service_key(base_url))
}

/// The folder name earlier versions used: host and port only.
pub fn legacy_service_key(base_url: &str) -> String {
    let host = reqwest::Url::parse(base_url)
        .ok()
        .map(|u| match (u.host_str(), u.port()) {
            (Some(h), Some(p)) => format!("{h}_{p}"),
            (Some(h), None) => h.to_string(),
            _ => "service".into(),
        })
        .unwrap_or_else(|| "service".into());
    let key: String = host
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '.' {
                c
            } else {
                '_'
            }
        })
        .collect();
    // Never a bare "." or "..": this is a folder name.
    if key.chars().all(|c| c == '.') {
        "service".into()
    } else {
        key
    }
}

/// The folder of `base_url` under `root`. A folder an earlier version
/// made for the same host and port (which did not tell base paths apart)
/// is taken over by the first service of that host that starts with this
/// version, and marked with that service's base URL: its queued edits and
/// drafts are not lost, and a second base path on the host starts anew.
pub fn service_folder(root: &Path, base_url: &str, demo: bool) -> PathBuf {
    let dir = root.join(service_key(base_url, demo));
    if demo || dir.exists() {
        return dir;
    }
    let legacy = root.join(legacy_service_key(base_url));
    let unclaimed = legacy.is_dir()
        && !legacy.join(SERVICE_FILE).exists()
        && std::fs::symlink_metadata(&legacy).is_ok_and(|m| m.is_dir());
    if unclaimed && std::fs::rename(&legacy, &dir).is_ok() {
        tracing::info!(from = %legacy.display(), to = %dir.display(), "adopted an earlier version's folder");
    }
    if dir.is_dir() {
        let _ = crate::config::write_private_file(
            &dir.join(SERVICE_FILE),
            normalized_base(base_url).as_bytes(),
        );
    }
    dir
}

/// The folder name of one user within a service's folder. User ids are
/// usually uuids; anything else is made safe, and a hash of the exact id
/// keeps two ids that read alike apart.
pub fn user_key(user_id: &str) -> String {
    let safe: String = user_id
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    if !safe.is_empty() && safe == user_id && safe.len() <= 64 {
        return format!("user-{safe}");
    }
    // FNV-1a: stable across versions and platforms (not a secret).
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in user_id.as_bytes() {
        h ^= u64::from(*b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    let short: String = safe.chars().take(40).collect();
    format!("user-{short}-{h:016x}")
}

const SALT_FILE: &str = "salt";
const IDENTITIES_FILE: &str = "identities";
/// The base URL a service folder belongs to (a legacy folder has none).
const SERVICE_FILE: &str = "service";
/// Fingerprints remembered per service (the oldest go first).
const IDENTITIES_MAX: usize = 64;

/// A key's fingerprint within one service folder (see the module's text).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KeyPrint(String);

impl KeyPrint {
    /// The fingerprint of `key` with the salt of `service_dir` (made,
    /// 0600, when there is none). `None` when the folder cannot hold one:
    /// the key is then a key never seen.
    pub fn of(service_dir: &Path, key: &str) -> Option<KeyPrint> {
        Self::with_salt(salt(service_dir)?, key)
    }

    /// The fingerprint with the folder's salt as it is: nothing is
    /// written (`None` when there is no salt yet: no key was ever seen).
    pub fn existing(service_dir: &Path, key: &str) -> Option<KeyPrint> {
        let salt = read_small(&service_dir.join(SALT_FILE))
            .filter(|s| s.len() == 64)
            .and_then(|s| unhex(s.trim()))?;
        Self::with_salt(salt, key)
    }

    fn with_salt(salt: Vec<u8>, key: &str) -> Option<KeyPrint> {
        let mut h = Sha256::new();
        h.update(b"taskdeck key fingerprint v1\0");
        h.update(&salt);
        h.update(key.trim().as_bytes());
        Some(KeyPrint(hex(&h.finalize())))
    }

    #[cfg(test)]
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

fn salt(dir: &Path) -> Option<Vec<u8>> {
    let path = dir.join(SALT_FILE);
    if let Some(s) = read_small(&path).filter(|s| s.len() == 64) {
        return unhex(s.trim());
    }
    let mut bytes = [0u8; 32];
    // No salt rather than a predictable one.
    getrandom::fill(&mut bytes).ok()?;
    crate::config::ensure_private_dir(dir).ok()?;
    // Exclusive: two starts at once agree on the first salt written.
    let mut o = std::fs::OpenOptions::new();
    o.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        o.mode(0o600);
    }
    match o.open(&path) {
        Ok(mut f) => {
            use std::io::Write;
            f.write_all(hex(&bytes).as_bytes()).ok()?;
            f.sync_all().ok()?;
            Some(bytes.to_vec())
        }
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
            read_small(&path).and_then(|s| unhex(s.trim()))
        }
        Err(_) => None,
    }
}

/// A small regular file's text (never a FIFO, a device or a symlink).
fn read_small(path: &Path) -> Option<String> {
    if std::fs::symlink_metadata(path)
        .ok()?
        .file_type()
        .is_symlink()
    {
        return None;
    }
    crate::config::read_regular_file(path, 64 * 1024).ok()
}

type Identities = BTreeMap<String, (String, i64)>;

fn identities(dir: &Path) -> Identities {
    read_small(&dir.join(IDENTITIES_FILE))
        .and_then(|s| serde_json::from_str::<Identities>(&s).ok())
        .unwrap_or_default()
}

/// The user `key` was last seen to belong to on this service.
pub fn user_for(service_dir: &Path, key: &KeyPrint) -> Option<String> {
    identities(service_dir).remove(&key.0).map(|(u, _)| u)
}

/// The service said `key` belongs to `user_id`.
pub fn remember(service_dir: &Path, key: &KeyPrint, user_id: &str) -> std::io::Result<()> {
    let mut ids = identities(service_dir);
    if ids.get(&key.0).is_some_and(|(u, _)| u == user_id) {
        return Ok(());
    }
    ids.insert(
        key.0.clone(),
        (user_id.to_string(), super::rows::now_secs()),
    );
    while ids.len() > IDENTITIES_MAX {
        let oldest = ids
            .iter()
            .min_by_key(|(_, (_, at))| *at)
            .map(|(k, _)| k.clone());
        match oldest {
            Some(k) => ids.remove(&k),
            None => break,
        };
    }
    let text = serde_json::to_string(&ids).unwrap_or_else(|_| "{}".into());
    crate::config::write_private_file(&service_dir.join(IDENTITIES_FILE), text.as_bytes())
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn unhex(s: &str) -> Option<Vec<u8>> {
    if s.len() % 2 != 0 {
        return None;
    }
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(s.get(i..i + 2)?, 16).ok())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_service_is_its_whole_base_url() {
        let a = service_key("https://h.example/a", false);
        let b = service_key("https://h.example/b", false);
        assert_ne!(a, b, "two base paths on one host are two services");
        assert_ne!(
            service_key("http://h.example/a", false),
            a,
            "http and https are two services"
        );
        assert_ne!(service_key("https://h.example:8443/a", false), a);
        // The same service however it is written.
        assert_eq!(service_key("https://H.example/a/", false), a);
        assert_eq!(service_key("https://h.example:443/a", false), a);
        assert!(a.starts_with("h.example-"), "{a}");
        assert_eq!(service_key("http://127.0.0.1:9/", true), "demo");
    }

    #[test]
    fn a_key_maps_to_the_user_the_service_named_and_is_not_kept() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path();
        let alice = KeyPrint::of(dir, "alice-secret-key-123").unwrap();
        let bob = KeyPrint::of(dir, "bob-secret-key-456").unwrap();
        assert_ne!(alice, bob);
        assert_eq!(KeyPrint::of(dir, "alice-secret-key-123").unwrap(), alice);
        assert_eq!(user_for(dir, &alice), None, "a key never seen is nobody");
        remember(dir, &alice, "u-alice").unwrap();
        assert_eq!(user_for(dir, &alice).as_deref(), Some("u-alice"));
        assert_eq!(user_for(dir, &bob), None, "Bob's key is not Alice's");
        remember(dir, &bob, "u-bob").unwrap();
        assert_eq!(user_for(dir, &alice).as_deref(), Some("u-alice"));
        assert_eq!(user_for(dir, &bob).as_deref(), Some("u-bob"));
        // Nothing written holds the key.
        for e in std::fs::read_dir(dir).unwrap() {
            let text = std::fs::read_to_string(e.unwrap().path()).unwrap();
            assert!(!text.contains("alice-secret"), "{text}");
            assert!(!text.contains("bob-secret"), "{text}");
        }
        // The fingerprint depends on the folder's salt: another folder
        // (another machine, another service) gives another one.
        let other = tempfile::tempdir().unwrap();
        assert_ne!(
            KeyPrint::of(other.path(), "alice-secret-key-123").unwrap(),
            alice
        );
        assert_eq!(alice.as_str().len(), 64);
    }

    #[test]
    fn an_earlier_versions_folder_is_taken_over_once() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path();
        std::fs::create_dir_all(root.join("h.example_8443")).unwrap();
        std::fs::write(root.join("h.example_8443/x.sqlite3"), "x").unwrap();
        let a = service_folder(root, "https://h.example:8443/a", false);
        assert!(a.join("x.sqlite3").exists(), "the first service takes it");
        let b = service_folder(root, "https://h.example:8443/b", false);
        assert_ne!(a, b);
        assert!(!b.join("x.sqlite3").exists(), "the second starts anew");
        assert_eq!(service_folder(root, "https://h.example:8443/a/", false), a);
    }
}
