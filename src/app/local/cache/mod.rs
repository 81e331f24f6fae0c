//! What taskdeck knows locally: every answer is kept per task in memory
//! (`Local::known`) and, with a store, on disk (`crate::store`). The detail
//! of a task shows what is known at once; the service's answers replace it
//! as they arrive. What the user last saw of each task, the tasks recently
//! opened or acted on and the directory live here too.
//!
//! The reducer never touches the database: it queues [`StoreCmd`]s in
//! `Local::out`, which the loop hands to the store's thread.

use crate::api::*;
use crate::app::state::panes::Load;
use crate::store::worker::StoreCmd;
use crate::store::{Recent, Seen, StoredTask};
use std::collections::{BTreeSet, HashMap};

mod handle;

pub use super::known::{Fetched, Known, Newest};

/// At most this many tasks are known in memory (the store keeps more).
const KNOWN_MAX: usize = 2000;

/// The rows of a view the store keeps (and a start shows).
pub const VIEW_ROWS_STORED: usize = 1000;

#[derive(Default)]
pub struct Local {
    /// A store is in use (`cache = false` or no store: nothing is queued).
    pub on: bool,
    /// The store is held by another program: tried again in the
    /// background; what is queued for it waits in memory meanwhile.
    pub busy: bool,
    /// The store was opened read-only (why): nothing queued is kept.
    pub read_only: Option<String>,
    /// The user whose store is open (the one the key was last seen to
    /// belong to, then the one `GET /me` names); `None`: nothing of anyone
    /// is open (a key never seen, or no store).
    pub user: Option<String>,
    /// Commands for the store's thread, drained by the loop.
    pub out: Vec<StoreCmd>,
    /// Boxed: most entries are rows (a version and little else), and the
    /// table (up to KNOWN_MAX entries, 4,096 buckets) stays small.
    pub known: HashMap<String, Box<Known>>,
    /// What the user last saw of each task.
    pub seen: HashMap<String, Seen>,
    /// Newest first.
    pub recent: Vec<Recent>,
    /// The directory's change count last written.
    pub dir_written: u64,
    /// Tasks asked of the store (once each).
    pub asked: BTreeSet<String>,
    /// `/` typed: the stored rows matching are shown until the service's
    /// search answers (`gen` of the walk they belong to).
    pub search_gen: u64,
    /// The refresh generation: `r` moves it, and every tab fetched before
    /// is asked again.
    pub gen: u64,
    /// Queued edits the store held at start that belong to another
    /// taskdeck running now (or another user): not sent from here, and
    /// said by `:outbox`, not only once at start.
    pub outbox_elsewhere: usize,
    /// Tasks deleted (drafts rejected) this session: their copies stay
    /// known (undo, `:recent`), but no picker offers them again.
    pub deleted: std::collections::HashSet<String>,
}

impl Local {
    pub fn store(&mut self, cmd: StoreCmd) {
        if self.on {
            self.out.push(cmd);
        }
    }

    fn known_mut(&mut self, id: &str) -> &mut Known {
        if self.known.len() >= KNOWN_MAX && !self.known.contains_key(id) {
            // Crude but bounded: forget the oldest half.
            let mut ages: Vec<(i64, String)> =
                self.known.iter().map(|(k, v)| (v.at, k.clone())).collect();
            ages.sort();
            for (_, k) in ages.into_iter().take(KNOWN_MAX / 2) {
                self.known.remove(&k);
            }
        }
        self.known.entry(id.to_string()).or_default()
    }
}

pub fn now_secs() -> i64 {
    crate::store::now_secs()
}

/// A task as the store keeps it.
pub fn stored(t: &Task, full: bool) -> StoredTask {
    StoredTask {
        id: t.id.as_str().to_string(),
        number: t.task_number,
        title: t.title.raw().to_string(),
        updated_at: t.updated_at.as_deref().map(str::to_string),
        json: serde_json::to_string(t).unwrap_or_default(),
        full,
    }
}

/// A stored task read back (`None` if it no longer reads as a task).
pub fn from_stored(s: &StoredTask) -> Option<Task> {
    match TaskItem::from_json(&s.json) {
        TaskItem::Task(t) => Some(*t),
        TaskItem::Unreadable(_) => None,
    }
}

fn subtasks_json(v: &[TaskItem]) -> String {
    let items: Vec<serde_json::Value> = v
        .iter()
        .map(|i| match i {
            TaskItem::Task(t) => serde_json::to_value(t).unwrap_or_default(),
            TaskItem::Unreadable(u) => serde_json::from_str(&u.raw).unwrap_or_default(),
        })
        .collect();
    serde_json::to_string(&items).unwrap_or_default()
}

pub(crate) fn subtasks_from(json: &str) -> Option<Vec<TaskItem>> {
    let raw: Vec<Box<serde_json::value::RawValue>> = serde_json::from_str(json).ok()?;
    Some(raw.iter().map(|r| TaskItem::from_json(r.get())).collect())
}

pub use crate::domain::words::age;

fn fill<T: Clone>(
    slot: &mut Load<T>,
    known: &Option<T>,
    stale: &mut BTreeSet<&'static str>,
    name: &'static str,
    fresh: bool,
) {
    if let Some(v) = known {
        if !matches!(slot, Load::Loaded(_)) {
            *slot = Load::Loaded(v.clone());
            if !fresh {
                stale.insert(name);
            }
        }
    }
}
