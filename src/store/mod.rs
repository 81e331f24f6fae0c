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

mod claims;
mod db;
pub mod identity;
mod inbox;
mod numbers;
mod open;
pub mod outbox;
mod repair;
mod rows;
mod schema;
mod search;
mod walk;
pub mod worker;

pub use db::{read_directory, Db};
#[cfg(test)]
pub(crate) use inbox::WHOLE_READS;
pub use inbox::{
    InboxBase, InboxItem, InboxMark, MarkKind, ARCHIVED_KEPT, CLOCK_SKEW_SECS, OWN_WRITE_HOLD,
};
pub use numbers::{Numbered, NUMBERS_MAX};
pub use open::{busy_words, inspect, move_aside, trouble, Inspection, Trouble, OPEN_WAIT};
pub use rows::{
    now_secs, Boot, DirEntry, Found, Hit, OutboxRow, Place, Recent, Scan, Seen, StoredDetail,
    StoredTab, StoredTask,
};
pub use schema::SCHEMA_VERSION;
pub use search::{bound_query, query_cut_words, QUERY_BYTES, QUERY_WORDS};
pub use walk::{WalkRow, Walked, WALK_CHUNK};

use std::path::{Path, PathBuf};

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

#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_outbox;
#[cfg(test)]
mod tests_repair;
