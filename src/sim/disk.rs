//! The model disk's failures (issue 43): the store's file cannot grow (a
//! disk full: `SQLITE_FULL`), or another program holds the store's lock
//! longer than the store waits (`SQLITE_BUSY`). Both reach the real store
//! (`Db`, served by the store thread's own `Server`) through SQLite
//! itself — a page limit, a second connection's write transaction — so
//! what the client does with them is the product's own path: the store
//! says once that it failed and goes on without it for the session; an
//! edit it could not keep is named NOT KEPT. The disk is freed (the lock
//! let go, space found) by a later step; the next start opens the store
//! as last committed. A start never waits on the lock: the other program
//! lets go while the client is down (a start under a held lock, and a
//! disk full at the open, are not modelled).
//!
//! The invariant it brings: an edit the store could not keep is sent
//! once or the user is told plainly it was not kept — never left as
//! "being written" with nothing said ([`check`]).

use super::check::{said, Broke, Said};
use crate::app::local::outbox::Kept;
use crate::app::state::State;
use std::collections::BTreeSet;

/// What is wrong with the disk.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fault {
    /// The file may not grow.
    Full,
    /// Another program holds the store's write lock.
    Busy,
}

#[derive(Default)]
pub struct Disk {
    pub fault: Option<Fault>,
    /// The other program's connection, in a write transaction.
    pub(super) lock: Option<rusqlite::Connection>,
}

impl Disk {
    /// The store's connection under the fault (at a fault's start, and at
    /// each open while the disk is still full).
    pub(super) fn apply(&self, db: &crate::store::Db) {
        let _ = db.sim_disk(
            self.fault == Some(Fault::Full),
            self.fault == Some(Fault::Busy),
        );
    }
}

/// The queued edits the store said it could not keep, before a step.
pub fn not_kept(s: &State) -> BTreeSet<i64> {
    s.outbox
        .iter()
        .filter(|i| matches!(i.kept, Kept::Not(_)))
        .map(|i| i.seq)
        .collect()
}

/// After a step, the store open and served everything asked of it: no
/// queued edit is still "being written" (the store answered each: kept,
/// or not kept), and an edit that became not kept in this step was said.
/// `failed`: the store's server has failed this session (a write refused:
/// the disk full, locked) — the state knows it is without its store
/// (`local.on` off), as the product says it once and goes on without it.
pub fn check(
    s: &State,
    before: &BTreeSet<i64>,
    said_before: &Said,
    served: bool,
    failed: bool,
) -> Vec<Broke> {
    let mut out = Vec::new();
    if served && failed && s.local.on {
        out.push((
            "store failed without a word",
            "the store refused a write and the client goes on as if it kept everything".into(),
        ));
    }
    if served {
        if let Some(i) = s.outbox.iter().find(|i| i.kept == Kept::Writing) {
            out.push((
                "not kept without a word",
                format!(
                    "queued edit {} ({} {}) neither kept by the store nor said not kept",
                    i.seq, i.label, i.what
                ),
            ));
        }
    }
    let new: Vec<i64> = not_kept(s).difference(before).copied().collect();
    if !new.is_empty() && said(s) == *said_before {
        out.push((
            "not kept without a word",
            format!("queued edits {new:?} not kept by the store, and nothing said"),
        ));
    }
    out
}
