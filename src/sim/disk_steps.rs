//! The model disk's steps (issue 43): the world fails its store, frees
//! it, and checks what the client said; the faults and the invariant are
//! `disk`'s, which the world names — this file extends the world and is
//! named by nobody, so the arrows stay one way.

use super::disk::Fault;
use super::world::World;
use std::collections::BTreeSet;

impl World {
    /// A disk step: a fault starts (drawn from `r`) or the one there is
    /// ends.
    pub(super) fn disk_step(&mut self, r: u64) {
        if self.disk.fault.is_some() {
            self.disk_fine();
            return;
        }
        self.disk_fails(if r % 2 == 0 { Fault::Full } else { Fault::Busy });
    }

    /// The store is about to write a queued edit (`StoreCmd::OutboxAdd`):
    /// with the disk's faults on and the disk fine, another program takes
    /// the store's lock just then, one time in three (drawn from the run
    /// so far, so a seed is still a run) — the moment a store failing
    /// matters most, an edit to keep. Without it a failing store met a
    /// queued edit only when the rare disk step fell before one (the
    /// `silent-store` switch was caught on 1 seed in 12 at 600 steps).
    /// The fault lasts as any other: until a disk step frees it, or the
    /// client goes down.
    pub(super) fn disk_at_edit(&mut self) {
        if !self.faults.disk || self.disk.fault.is_some() || self.digest.0 % 3 != 0 {
            return;
        }
        self.disk_fails(Fault::Busy);
        self.count("stores locked as an edit is written");
    }

    fn disk_fine(&mut self) {
        self.disk.fault = None;
        self.disk.lock = None;
        if let Some((db, _)) = &self.db {
            self.disk.apply(db);
        }
        self.notes.push("the disk is fine again".into());
    }

    fn disk_fails(&mut self, fault: Fault) {
        let Some((db, _)) = &self.db else { return };
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
