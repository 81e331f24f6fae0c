//! What is known of one task in memory (`Local::known`, see `cache/mod.rs`).
//!
//! A row of the list is not copied here: the list holds it. Its entry
//! keeps only the row's version ([`Newest::Row`]), which is what the
//! answers kept for the task (comments, thread…) are checked against
//! ([`Known::fresh`]). When the row leaves the list (a new walk, a
//! deletion) while it is the newest copy known, it moves here
//! ([`State::rows_leave`]), so what was seen in an earlier view still
//! opens at once.

use crate::api::*;
use std::collections::HashMap;

mod handle;

/// Where the newest copy of a task known is.
#[derive(Clone, Debug, Default)]
pub enum Newest {
    #[default]
    Unknown,
    /// Kept here: answered in full, read from the store, or a row that
    /// left the list.
    Here(Box<Task>),
    /// A row of the list (of this `updated_at`): the list holds it.
    Row(Option<String>),
}

/// Everything known of one task, from answers or the store.
#[derive(Clone, Debug, Default)]
pub struct Known {
    pub task: Newest,
    pub comments: Option<Vec<Comment>>,
    pub thread: Option<Vec<RequesterMessage>>,
    pub subtasks: Option<Vec<TaskItem>>,
    pub sharing: Option<SharingState>,
    /// When the newest of these was fetched (seconds since the epoch).
    pub at: i64,
    /// Which answers came from the service this session (`task`,
    /// `comments`, `thread`, `subtasks`, `sharing`), and for which version
    /// of the task: see [`Known::fresh`].
    pub fetched: HashMap<&'static str, Fetched>,
}

/// A tab as fetched: the task's `updated_at` then, and the refresh
/// generation (`Local::gen`).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Fetched {
    pub updated_at: Option<String>,
    pub gen: u64,
}

impl Known {
    /// `tab` was answered by the service for the version of the task known
    /// now, and the user has not refreshed since: shown as it is and not
    /// asked again. (What the store kept is never fresh: it is shown and
    /// asked again once per look.)
    pub fn fresh(&self, tab: &str, gen: u64) -> bool {
        let now = self.version();
        self.fetched.get(tab).is_some_and(|f| {
            f.gen == gen && super::freshness::same_version(f.updated_at.as_deref(), now)
        })
    }

    pub(crate) fn note_fetched(&mut self, tab: &'static str, gen: u64) {
        let updated_at = self.version().map(str::to_string);
        self.fetched.insert(tab, Fetched { updated_at, gen });
    }

    /// The `updated_at` of the newest copy known.
    pub fn version(&self) -> Option<&str> {
        match &self.task {
            Newest::Unknown => None,
            Newest::Here(t) => t.updated_at.as_deref(),
            Newest::Row(v) => v.as_deref(),
        }
    }

    /// A copy of the task is known (here or as a row of the list).
    pub fn has_task(&self) -> bool {
        !matches!(self.task, Newest::Unknown)
    }

    /// The copy kept here (not a row of the list).
    pub fn copy(&self) -> Option<&Task> {
        match &self.task {
            Newest::Here(t) => Some(t),
            _ => None,
        }
    }
}
