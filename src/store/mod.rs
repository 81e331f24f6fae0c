//! The local store: one SQLite database per service and user, in the XDG
//! cache folder (mode 0600). It keeps what the service answered (tasks, the
//! rows of each view, the tabs of every task seen), which task each number
//! names (`numbers`), the directory of people and teams, what the user last
//! saw of each task, the tasks recently opened or acted on, and the outbox
//! of edits made while the service was unreachable. Never the API key; the
//! service folder beside the databases holds only a salted one-way
//! fingerprint of it, to know whose store a key may open ([`identity`]).
//!
//! [`Db`] is the synchronous layer (used by the store thread, the CLI and
//! tests); [`worker`] runs it off the UI loop.

mod db;
pub mod identity;
mod inbox;
mod numbers;
mod open;
pub mod outbox;
mod schema;
pub mod worker;

pub use db::{read_directory, Db};
pub use inbox::{InboxBase, InboxItem, InboxMark, MarkKind, OWN_WRITE_HOLD};
pub use numbers::{Numbered, NUMBERS_MAX};
pub use open::{move_aside, trouble, Trouble, OPEN_WAIT};

use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// The schema version this build writes; older databases are migrated.
pub const SCHEMA_VERSION: i64 = 4;

/// At most this many tasks are kept; old, unopened ones go first.
pub const DEFAULT_MAX_TASKS: usize = 5000;

/// Where stores live: `$XDG_CACHE_HOME/taskdeck`, else `~/.cache/taskdeck`.
pub fn cache_root() -> PathBuf {
    std::env::var_os("XDG_CACHE_HOME")
        .map(PathBuf::from)
        .filter(|p| p.is_absolute())
        .unwrap_or_else(|| {
            dirs::home_dir()
                .unwrap_or_else(|| PathBuf::from("."))
                .join(".cache")
        })
        .join("taskdeck")
}

/// The folder of one service's stores (one database per user inside):
/// one service is its whole base URL ([`identity::service_key`]).
pub fn service_dir(base_url: &str, demo: bool) -> PathBuf {
    identity::service_folder(&cache_root(), base_url, demo)
}

/// The folder of one service's stores, as it is (nothing is made or
/// taken over): what the scriptable commands read.
pub fn existing_service_dir(base_url: &str) -> PathBuf {
    cache_root().join(identity::service_key(base_url, false))
}

/// The database of one user of a service.
pub fn db_path(service_dir: &Path, user_id: &str) -> PathBuf {
    service_dir.join(format!("{}.sqlite3", identity::user_key(user_id)))
}

/// The database of the user `key` was last seen to belong to on this
/// service; `None` for a key never seen (nothing of anyone is opened).
pub fn db_path_for_key(service_dir: &Path, key: &str) -> Option<PathBuf> {
    let print = identity::KeyPrint::existing(service_dir, key)?;
    let user = identity::user_for(service_dir, &print)?;
    Some(db_path(service_dir, &user))
}

/// A task as stored: its JSON as the service sent it (re-serialised).
#[derive(Clone, Debug, PartialEq)]
pub struct StoredTask {
    pub id: String,
    pub number: Option<i64>,
    pub title: String,
    pub updated_at: Option<String>,
    pub json: String,
    /// The whole task (a GET or a PATCH answer), not only a list row.
    pub full: bool,
}

/// Which stored tasks a picker asks for ([`Db::scan`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scan {
    /// Draft tasks.
    Drafts,
    /// Tasks with input or output files.
    WithFiles,
}

/// What the user last saw of a task.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Seen {
    pub updated_at: Option<String>,
    /// `None`: the tab was never loaded while the task was open.
    pub comment_ids: Option<Vec<String>>,
    pub message_ids: Option<Vec<String>>,
    pub at: i64,
}

/// A task the user opened or acted on.
#[derive(Clone, Debug, PartialEq)]
pub struct Recent {
    pub task_id: String,
    pub label: String,
    pub title: String,
    pub action: String,
    pub at: i64,
}

/// An edit waiting for the service.
#[derive(Clone, Debug, PartialEq)]
pub struct OutboxRow {
    pub seq: i64,
    pub task_id: String,
    pub label: String,
    /// What it does, in words (`status → completed`).
    pub what: String,
    /// The request, in the store's JSON form (`app::outbox`).
    pub request: String,
    /// The version it is checked against before sending: the task's
    /// `updated_at` the user saw when making it, or what the service
    /// answered to the previous queued edit of the task (ours).
    pub base_updated_at: Option<String>,
    pub created_at: i64,
    /// The user who made it (`None`: recorded before rows named their
    /// user; then the store's user, stores being per user).
    pub user_id: Option<String>,
}

/// A person or team of the directory, as stored.
#[derive(Clone, Debug, PartialEq)]
pub struct DirEntry {
    pub team: bool,
    pub id: String,
    pub name: String,
    pub email: String,
    pub tasks: Vec<String>,
}

/// One cached tab of a task: its JSON and when it was fetched.
#[derive(Clone, Debug, PartialEq)]
pub struct StoredTab {
    pub tab: String,
    pub json: String,
    pub fetched_at: i64,
}

/// Everything stored about one task.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct StoredDetail {
    pub task: Option<StoredTask>,
    pub fetched_at: i64,
    pub tabs: Vec<StoredTab>,
}

/// What the start reads before the first frame.
#[derive(Clone, Debug, Default)]
pub struct Boot {
    /// The last view (its JSON, see `app::cache`) and its rows.
    pub view: Option<String>,
    pub rows: Vec<StoredTask>,
    pub rows_saved_at: i64,
    pub current: Option<StoredDetail>,
    pub directory: Vec<DirEntry>,
    pub seen: HashMap<String, Seen>,
    pub recent: Vec<Recent>,
    /// The outbox rows this process took for sending (`outbox_take`).
    pub outbox: Vec<OutboxRow>,
    /// Rows left to others: held by another taskdeck running now, or made
    /// by another user.
    pub outbox_elsewhere: usize,
}

pub fn now_secs() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs() as i64)
        .unwrap_or(0)
}

#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_outbox;
