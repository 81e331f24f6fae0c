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
use super::world::World;
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
    lock: Option<rusqlite::Connection>,
}

impl Disk {
    /// The store's connection under the fault (at a fault's start, and at
    /// each open while the disk is still full).
    fn apply(&self, db: &crate::store::Db) {
        let _ = db.sim_disk(
            self.fault == Some(Fault::Full),
            self.fault == Some(Fault::Busy),
        );
    }
}

impl World {
    /// A disk step: a fault starts (drawn from `r`) or the one there is
    /// ends.
    pub(super) fn disk_step(&mut self, r: u64) {
        if self.disk.fault.is_some() {
            self.disk.fault = None;
            self.disk.lock = None;
            if let Some((db, _)) = &self.db {
                self.disk.apply(db);
            }
            self.notes.push("the disk is fine again".into());
            return;
        }
        let Some((db, _)) = &self.db else { return };
        let fault = if r % 2 == 0 { Fault::Full } else { Fault::Busy };
        if fault == Fault::Busy {
            let lock = rusqlite::Connection::open(db.path()).and_then(|c| {
                c.execute_batch("BEGIN IMMEDIATE")?;
                Ok(c)
            });
            match lock {
                Ok(c) => self.disk.lock = Some(c),
                Err(e) => {
                    self.violation("store", format!("the model disk could not lock: {e}"));
                    return;
                }
            }
        }
        self.disk.fault = Some(fault);
        self.disk.apply(db);
        self.notes.push(format!("the disk: {fault:?}"));
        self.count(match fault {
            Fault::Full => "disks full",
            Fault::Busy => "stores locked by another program",
        });
    }

    /// The client goes down (a crash, a quit, a hang-up): the other
    /// program lets go of the lock before the next start, so the claims
    /// of the process that went away are free for it (the simulator is
    /// one process: its pid never dies, `free_claims_of_the_dead` would
    /// not find them); a disk still full stays full for the store opened
    /// next.
    pub(super) fn disk_down(&mut self) {
        if self.disk.fault == Some(Fault::Busy) {
            self.disk.fault = None;
            self.disk.lock = None;
            if let Some((db, _)) = &self.db {
                self.disk.apply(db);
            }
        }
    }

    /// A start: no lock is held (see [`World::disk_down`]).
    pub(super) fn disk_at_start(&mut self) {
        self.disk_down();
        self.disk.lock = None;
    }

    /// The store was opened: the disk's fault holds for it too.
    pub(super) fn disk_opened(&mut self) {
        if let (Some(_), Some((db, _))) = (self.disk.fault, &self.db) {
            self.disk.apply(db);
        }
    }

    /// Queued edits that may come back at the next start: after the store
    /// failed (the disk full, locked) nothing more was written, so what
    /// left the outbox since — sent and heard done, found landed by its
    /// check, cancelled — is still in the store as last committed.
    pub(super) fn may_return(&self) -> BTreeSet<i64> {
        match &self.db {
            Some((db, server)) if server.failed.is_some() => db
                .outbox()
                .unwrap_or_default()
                .iter()
                .map(|r| r.seq)
                .collect(),
            _ => BTreeSet::new(),
        }
    }

    /// What the store answers reaches the state; with the rule broken
    /// on purpose (`Break::SilentStore`) a store that could not keep a
    /// write says nothing of it.
    pub(super) fn disk_answers(
        &mut self,
        answers: Vec<crate::store::worker::StoreAnswer>,
    ) -> Vec<crate::store::worker::StoreAnswer> {
        use crate::store::worker::StoreAnswer;
        for a in &answers {
            match a {
                StoreAnswer::Failed(_) => self.count("store failures"),
                StoreAnswer::OutboxNotKept { .. } => self.count("edits the store did not keep"),
                _ => {}
            }
        }
        if self.broken != Some(super::faults::Break::SilentStore) {
            return answers;
        }
        answers
            .into_iter()
            .filter(|a| {
                !matches!(
                    a,
                    StoreAnswer::OutboxNotKept { .. } | StoreAnswer::Failed(_)
                )
            })
            .collect()
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
pub fn check(s: &State, before: &BTreeSet<i64>, said_before: &Said, served: bool) -> Vec<Broke> {
    let mut out = Vec::new();
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
