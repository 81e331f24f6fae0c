//! Drafts of comments and replies, kept on disk so typed text survives
//! failed sends, hang-ups, crashes and kill -9 (up to the last save).
//!
//! One file per task and kind under `<state dir>/drafts/`, mode 0600,
//! written to a temporary file and renamed into place.

use std::path::PathBuf;

/// The drafts folder of one service: drafts written against one service
/// are never offered (or sent) against another. The demo's sandbox moves
/// port at every start, so it has one folder of its own.
pub fn service_key(base_url: &str, demo: bool) -> String {
    if demo {
        return "demo".into();
    }
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

#[derive(Clone, Debug)]
pub struct Drafts {
    dir: Option<PathBuf>,
}

fn safe_name(s: &str) -> String {
    s.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

impl Drafts {
    /// Drafts under `dir`; `None` keeps nothing (tests that don't care).
    pub fn new(dir: Option<PathBuf>) -> Self {
        Drafts { dir }
    }

    pub fn path(&self, task_id: &str, kind: &str) -> Option<PathBuf> {
        self.dir
            .as_ref()
            .map(|d| d.join(format!("{}.{}.txt", safe_name(task_id), safe_name(kind))))
    }

    pub fn save(&self, task_id: &str, kind: &str, text: &str) -> std::io::Result<Option<PathBuf>> {
        let Some(path) = self.path(task_id, kind) else {
            return Ok(None);
        };
        if text.trim().is_empty() {
            self.delete(task_id, kind);
            return Ok(None);
        }
        crate::config::write_private_file(&path, text.as_bytes())?;
        Ok(Some(path))
    }

    pub fn load(&self, task_id: &str, kind: &str) -> Option<String> {
        let path = self.path(task_id, kind)?;
        std::fs::read_to_string(path)
            .ok()
            .filter(|s| !s.trim().is_empty())
    }

    pub fn delete(&self, task_id: &str, kind: &str) {
        if let Some(p) = self.path(task_id, kind) {
            let _ = std::fs::remove_file(p);
        }
    }

    /// Every draft kept, as (path, first line).
    pub fn list(&self) -> Vec<PathBuf> {
        let Some(dir) = &self.dir else { return vec![] };
        let Ok(rd) = std::fs::read_dir(dir) else {
            return vec![];
        };
        let mut v: Vec<PathBuf> = rd
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|e| e == "txt"))
            .collect();
        v.sort();
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_folder_per_service() {
        assert_eq!(
            service_key("http://127.0.0.1:8080/", false),
            "127.0.0.1_8080"
        );
        assert_eq!(
            service_key("https://tasks.example.com/api", false),
            "tasks.example.com"
        );
        assert_eq!(service_key("http://127.0.0.1:9/", true), "demo");
    }

    #[test]
    fn save_load_delete_private() {
        let dir = tempfile::tempdir().unwrap();
        let d = Drafts::new(Some(dir.path().join("drafts")));
        let p = d.save("t-1", "comment", "hello\nworld").unwrap().unwrap();
        assert_eq!(d.load("t-1", "comment").as_deref(), Some("hello\nworld"));
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&p).unwrap().permissions().mode() & 0o777;
            assert_eq!(mode, 0o600);
        }
        assert_eq!(d.list(), vec![p]);
        d.delete("t-1", "comment");
        assert_eq!(d.load("t-1", "comment"), None);
        assert!(d
            .save("../../etc/x", "a/b", "x")
            .unwrap()
            .unwrap()
            .starts_with(dir.path()));
    }
}
