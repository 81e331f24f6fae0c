//! Drafts of comments and replies, kept on disk so typed text survives
//! failed sends, hang-ups, crashes and kill -9 (up to the last save).
//!
//! Drafts belong to a service and a user: `<state dir>/drafts/<service>/
//! <user>/`, the user being the id the service answered for `GET /me`
//! (never anything derived from the API key). Per task and kind:
//!
//! - `<task>.<kind>.txt`: the text, mode 0600, written to a temporary
//!   file and renamed into place (and only when it changed, so that its
//!   time says when the text last changed);
//! - `<task>.<kind>.sent.json`: written just before a send, with exactly
//!   the text sent; removed when the service answers that it was or was
//!   not applied. Left behind (a quit, a crash, a timeout), it says that
//!   the send may have reached the service;
//! - `<task>.<kind>.editor.md`: the `$EDITOR`'s file while it runs. Left
//!   behind (the terminal went away, the editor failed), it is offered
//!   back the next time the same composer opens.
//!
//! A draft belongs to the user who typed it (issue 42, point 1): when the
//! key turns out to act as someone else, the folder in use becomes that
//! user's and the last one's drafts wait in theirs (`of`, `waiting`;
//! what the state does is `local/outbox/drafts.rs`). `owner.json` in a
//! user's folder names the user, for "1 draft of Alice Martin waits".

use std::path::{Path, PathBuf};

// Folder names are the store's: one service is its whole base URL, one
// user the id `GET /me` answered.
pub use crate::store::identity::{service_key, user_key};

/// A send of a draft that the service has not answered yet.
#[derive(Clone, Debug, PartialEq)]
pub struct InFlight {
    pub task_id: String,
    /// The draft's kind (`ComposeKind::draft_key`).
    pub key: String,
    pub label: String,
    /// Exactly the text sent.
    pub text: String,
    /// The kind adds new text (a comment, a reply), so text typed after
    /// the sent text is a new message; an edit replaces the whole text.
    pub appends: bool,
    /// What it is, for messages ("comment", "reply to the requester").
    pub what: String,
    /// The user who typed it: its answer changes that user's draft only.
    pub owner: Option<String>,
}

/// What the `.sent.json` file says.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct SentRecord {
    /// Exactly the text that was sent.
    pub text: String,
    /// `in_flight` (no answer yet) or `unknown` (the answer did not say).
    pub state: String,
    /// An earlier send of this draft had an unknown outcome.
    #[serde(default)]
    pub earlier_unknown: bool,
}

/// What the text left after a send that succeeded: `None` when nothing is
/// left to keep. Only the text that was sent goes: text added after it is
/// kept (as a new draft), and a text edited since is kept whole.
pub fn left_after_send(sent: &str, current: Option<&str>, appends: bool) -> Option<String> {
    let current = current?;
    if current.trim().is_empty() || current.trim_end() == sent.trim_end() {
        return None;
    }
    if appends {
        if let Some(rest) = current.strip_prefix(sent) {
            let rest = rest.trim_start();
            return (!rest.trim().is_empty()).then(|| rest.to_string());
        }
    }
    Some(current.to_string())
}

/// Text that came back from `$EDITOR` (or an editor file left behind):
/// CRLF and lone CR line ends become LF, the final newline editors add is
/// dropped; nothing else is changed.
pub fn from_editor(text: &str) -> String {
    text.replace("\r\n", "\n")
        .replace('\r', "\n")
        .trim_end_matches('\n')
        .to_string()
}

#[derive(Clone, Debug)]
pub struct Drafts {
    /// The service's folder, when drafts are kept per user inside it.
    service_dir: Option<PathBuf>,
    /// The folder drafts are read from and written to; `None` until the
    /// user is known (or when nothing is kept).
    dir: Option<PathBuf>,
    /// The user whose folder `dir` is (drafts kept per user only).
    user: Option<String>,
}

/// What binding the drafts to a user changed.
#[derive(Clone, Debug, PartialEq)]
pub enum Bound {
    /// The same user as before, or drafts not kept per user.
    Same,
    /// The first user of this run.
    First,
    /// The key acts as another user now: the last one's id.
    Changed(String),
}

/// What `owner.json` in a user's folder says.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
struct OwnerRecord {
    user_id: String,
    name: String,
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
    /// Drafts in `dir` exactly; `None` keeps nothing (tests that don't
    /// care).
    pub fn new(dir: Option<PathBuf>) -> Self {
        Drafts {
            service_dir: None,
            dir,
            user: None,
        }
    }

    /// Drafts of one service, kept per user: nothing is read or written
    /// until [`Drafts::bind_user`].
    pub fn per_user(service_dir: PathBuf) -> Self {
        Drafts {
            service_dir: Some(service_dir),
            dir: None,
            user: None,
        }
    }

    /// The identity is known: drafts go to that user's folder. When the
    /// key acts as another user than before, that user's folder is used
    /// from now on and the last one's drafts stay in theirs.
    pub fn bind_user(&mut self, user_id: &str) -> Bound {
        let Some(s) = &self.service_dir else {
            return Bound::Same;
        };
        if self.user.as_deref() == Some(user_id) {
            return Bound::Same;
        }
        self.dir = Some(s.join(user_key(user_id)));
        match self.user.replace(user_id.to_string()) {
            Some(old) => Bound::Changed(old),
            None => Bound::First,
        }
    }

    /// The user whose drafts are in use (drafts kept per user only).
    pub fn user(&self) -> Option<&str> {
        self.user.as_deref()
    }

    /// The drafts of `user` (`None`, or the user in use: these): where a
    /// draft typed by someone else than the key's user now is kept.
    pub fn of(&self, user: Option<&str>) -> Drafts {
        match (user, &self.service_dir) {
            (Some(u), Some(s)) if self.user.as_deref() != Some(u) => Drafts {
                service_dir: Some(s.clone()),
                dir: Some(s.join(user_key(u))),
                user: Some(u.to_string()),
            },
            _ => self.clone(),
        }
    }

    /// Name the user of the folder in use (`owner.json`), for the words
    /// said when their drafts wait. Written only when it changed.
    pub fn note_owner(&self, name: &str) {
        let (Some(dir), Some(user)) = (&self.dir, &self.user) else {
            return;
        };
        let rec = OwnerRecord {
            user_id: user.clone(),
            name: name.to_string(),
        };
        let path = dir.join("owner.json");
        let same = std::fs::read(&path)
            .ok()
            .and_then(|b| serde_json::from_slice::<OwnerRecord>(&b).ok())
            .is_some_and(|r| r == rec);
        if same {
            return;
        }
        if let Ok(json) = serde_json::to_vec(&rec) {
            if std::fs::create_dir_all(dir).is_ok() {
                let _ = crate::config::write_private_file(&path, &json);
            }
        }
    }

    /// Drafts of the other users of this service, kept in their folders:
    /// `(user id, name, count)`, the largest first (the name is empty
    /// when the folder does not say it).
    pub fn waiting(&self) -> Vec<(String, String, usize)> {
        let Some(service) = &self.service_dir else {
            return vec![];
        };
        let Ok(rd) = std::fs::read_dir(service) else {
            return vec![];
        };
        let mut out = Vec::new();
        for dir in rd.filter_map(|e| e.ok().map(|e| e.path())) {
            if self.dir.as_deref() == Some(dir.as_path()) || !dir.is_dir() {
                continue;
            }
            let rec = std::fs::read(dir.join("owner.json"))
                .ok()
                .and_then(|b| serde_json::from_slice::<OwnerRecord>(&b).ok());
            let folder = dir
                .file_name()
                .map(|f| f.to_string_lossy().into_owned())
                .unwrap_or_default();
            let (user, name) = match rec {
                Some(r) => (r.user_id, r.name),
                None => (
                    folder.strip_prefix("user-").unwrap_or(&folder).to_string(),
                    String::new(),
                ),
            };
            let n = Drafts {
                service_dir: None,
                dir: Some(dir),
                user: None,
            }
            .list()
            .len();
            if n > 0 && self.user.as_deref() != Some(user.as_str()) {
                out.push((user, name, n));
            }
        }
        out.sort_by(|a, b| b.2.cmp(&a.2).then_with(|| a.0.cmp(&b.0)));
        out
    }

    /// The folder in use, if any.
    pub fn dir(&self) -> Option<&Path> {
        self.dir.as_deref()
    }

    fn file(&self, task_id: &str, kind: &str, ext: &str) -> Option<PathBuf> {
        self.dir
            .as_ref()
            .map(|d| d.join(format!("{}.{}.{ext}", safe_name(task_id), safe_name(kind))))
    }

    pub fn path(&self, task_id: &str, kind: &str) -> Option<PathBuf> {
        self.file(task_id, kind, "txt")
    }

    /// Save the text (an empty text deletes the draft). A text equal to
    /// what is on disk is not written again.
    pub fn save(&self, task_id: &str, kind: &str, text: &str) -> std::io::Result<Option<PathBuf>> {
        let Some(path) = self.path(task_id, kind) else {
            return Ok(None);
        };
        if text.trim().is_empty() {
            self.delete(task_id, kind);
            return Ok(None);
        }
        if std::fs::read_to_string(&path).ok().as_deref() == Some(text) {
            return Ok(Some(path));
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

    /// Just before a send: record exactly the text sent.
    pub fn mark_sending(&self, task_id: &str, kind: &str, text: &str) -> std::io::Result<()> {
        let Some(path) = self.file(task_id, kind, "sent.json") else {
            return Ok(());
        };
        let earlier_unknown = self.sent_record(task_id, kind).is_some();
        let rec = SentRecord {
            text: text.to_string(),
            state: "in_flight".into(),
            earlier_unknown,
        };
        let json = serde_json::to_vec(&rec).map_err(std::io::Error::other)?;
        crate::config::write_private_file(&path, &json)
    }

    /// The send's outcome is unknown (a timeout, a dropped connection).
    pub fn mark_unknown(&self, task_id: &str, kind: &str) {
        let (Some(path), Some(mut rec)) = (
            self.file(task_id, kind, "sent.json"),
            self.sent_record(task_id, kind),
        ) else {
            return;
        };
        rec.state = "unknown".into();
        if let Ok(json) = serde_json::to_vec(&rec) {
            let _ = crate::config::write_private_file(&path, &json);
        }
    }

    /// The service said the send was not applied: the record goes, unless
    /// an earlier send of this draft may have reached the service.
    pub fn send_refused(&self, task_id: &str, kind: &str) {
        match self.sent_record(task_id, kind) {
            Some(rec) if rec.earlier_unknown => self.mark_unknown(task_id, kind),
            _ => self.clear_sent(task_id, kind),
        }
    }

    /// The record of a send of this draft not known to have been answered.
    pub fn sent_record(&self, task_id: &str, kind: &str) -> Option<SentRecord> {
        let path = self.file(task_id, kind, "sent.json")?;
        let bytes = std::fs::read(path).ok()?;
        serde_json::from_slice(&bytes).ok()
    }

    pub fn clear_sent(&self, task_id: &str, kind: &str) {
        if let Some(p) = self.file(task_id, kind, "sent.json") {
            let _ = std::fs::remove_file(p);
        }
    }

    /// Where `$EDITOR` edits this draft's text.
    pub fn editor_path(&self, task_id: &str, kind: &str) -> Option<PathBuf> {
        self.file(task_id, kind, "editor.md")
    }

    /// An editor file left behind (the terminal went away, the editor
    /// failed) that is newer than the draft and says something else:
    /// (its text, its path).
    pub fn editor_leftover(&self, task_id: &str, kind: &str) -> Option<(String, PathBuf)> {
        let path = self.editor_path(task_id, kind)?;
        let modified = |p: &Path| std::fs::metadata(p).and_then(|m| m.modified()).ok();
        let edited = modified(&path)?;
        let text = from_editor(&std::fs::read_to_string(&path).ok()?);
        if text.trim().is_empty() {
            return None;
        }
        let draft = self.load(task_id, kind);
        if draft.as_deref() == Some(text.as_str()) {
            return None;
        }
        let draft_time = self.path(task_id, kind).and_then(|p| modified(&p));
        match (draft, draft_time) {
            (Some(_), Some(t)) if t > edited => None,
            _ => Some((text, path)),
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
        use crate::store::identity::legacy_service_key;
        // Readable: host and port first (the folder name earlier versions
        // used, now followed by a hash of the whole base URL).
        assert_eq!(
            legacy_service_key("http://127.0.0.1:8080/"),
            "127.0.0.1_8080"
        );
        assert_eq!(
            legacy_service_key("https://tasks.example.com/api"),
            "tasks.example.com"
        );
        assert!(service_key("http://127.0.0.1:8080/", false).starts_with("127.0.0.1_8080-"));
        assert!(
            service_key("https://tasks.example.com/api", false).starts_with("tasks.example.com-")
        );
        assert_ne!(
            service_key("https://tasks.example.com/api", false),
            service_key("https://tasks.example.com/other", false)
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
