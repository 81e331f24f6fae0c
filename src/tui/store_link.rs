//! The loop's side of the local store: which database is open (the
//! service's, for the user the service says you are), its thread, and the
//! commands the reducer queued for it.
//!
//! Before the service answers, only the store of the user this key was
//! last seen to belong to opens (`store::identity`): a key never seen
//! opens nothing, so another user's list, tasks and outbox are never
//! shown, nor used, under it.

use super::msg::Msg;
use crate::app::state::{Level, State};
use crate::store::worker::StoreCmd;
use std::time::Instant;
use tokio::sync::mpsc;

/// The loop's link to the store: which database (service and user), its
/// thread, and the commands the reducer queued.
pub(super) struct StoreLink {
    dir: std::path::PathBuf,
    /// The key's fingerprint in this service's folder (`None`: it could
    /// not be made, and the key counts as never seen).
    key: Option<crate::store::identity::KeyPrint>,
    enabled: bool,
    user: Option<String>,
    thread: Option<crate::store::worker::StoreThread>,
    tx: mpsc::UnboundedSender<Msg>,
}

impl StoreLink {
    pub(super) fn new(
        dir: std::path::PathBuf,
        key: Option<crate::store::identity::KeyPrint>,
        enabled: bool,
        tx: mpsc::UnboundedSender<Msg>,
    ) -> Self {
        StoreLink {
            dir,
            key,
            enabled,
            user: None,
            thread: None,
            tx,
        }
    }

    /// Open the store of the user this key was last seen to belong to;
    /// nothing for a key never seen.
    pub(super) fn open_for_key(&mut self, state: &mut State) {
        if !self.enabled {
            return;
        }
        // What is learnt before the service says who the user is waits
        // for that user's store.
        state.local.on = true;
        let user = self
            .key
            .as_ref()
            .and_then(|k| crate::store::identity::user_for(&self.dir, k));
        if let Some(user) = user {
            self.open(&user, state, true);
        }
    }

    fn open(&mut self, user: &str, state: &mut State, rows: bool) {
        let path = crate::store::db_path(&self.dir, user);
        let started = Instant::now();
        let opened = crate::store::Db::open_for(&path, user);
        match opened {
            Ok((db, note, boot)) => {
                if let Some(n) = note {
                    tracing::warn!("{n}");
                    state.say(Level::Warn, n);
                }
                if let Some(mut boot) = boot {
                    if !rows {
                        boot.rows.clear();
                        boot.current = None;
                    }
                    state.apply_boot(boot);
                }
                tracing::info!(
                    path = %path.display(),
                    ms = started.elapsed().as_millis() as u64,
                    "local store opened"
                );
                let tx = self.tx.clone();
                self.thread = Some(crate::store::worker::StoreThread::start(
                    db,
                    crate::store::DEFAULT_MAX_TASKS,
                    move |a| {
                        let _ = tx.send(Msg::Store(a));
                    },
                ));
                state.local.on = true;
                state.local.user = Some(user.to_string());
                self.user = Some(user.to_string());
            }
            Err(e) => {
                tracing::warn!(error = %e, "no local store");
                state.say(Level::Warn, format!("running without a local store: {e}"));
                state.local.on = false;
                state.local.out.clear();
                self.enabled = false;
            }
        }
    }

    /// The service said who the user is: that user's store (another
    /// user's rows are never shown).
    pub(super) fn bind(&mut self, state: &mut State) {
        if !self.enabled {
            return;
        }
        let Some(me) = state.me.as_ref().map(|m| m.user_id.clone()) else {
            return;
        };
        if self.user.as_deref() == Some(me.as_str()) {
            return;
        }
        if let Some(k) = &self.key {
            if let Err(e) = crate::store::identity::remember(&self.dir, k, &me) {
                tracing::warn!(error = %e, "cannot remember whose key this is");
            }
        }
        if let Some(old) = self.user.clone() {
            // Another user's store was open (the key acts as someone else
            // now): their edits stay in their store, never sent with this
            // key, and the screen says they wait. Only edits made with no
            // user known go to this key's user.
            let mine = state.leave_store_of(&old, &me);
            let carried: std::collections::HashSet<i64> = mine.iter().map(|i| i.seq).collect();
            if let Some(t) = self.thread.take() {
                for cmd in std::mem::take(&mut state.local.out) {
                    match &cmd {
                        StoreCmd::OutboxAdd { seq, .. } if carried.contains(seq) => {}
                        _ => t.send(cmd),
                    }
                }
                for seq in &carried {
                    t.send(StoreCmd::OutboxRemove(*seq));
                }
                t.finish();
            }
            state.forget_local();
            state.outbox.extend(mine.into_iter().map(|mut item| {
                if let Some(cmd) = item.store_cmd() {
                    state.local.out.push(cmd);
                }
                item.pending_ticket = None;
                // This key's user made it; kept once the new store says so.
                item.user_id = Some(me.clone());
                item.kept = crate::app::local::outbox::Kept::Writing;
                item
            }));
        } else if state.owner.away.as_ref().is_some_and(|a| a.user_id == me) {
            state.owner.away = None;
        }
        let pending = std::mem::take(&mut state.local.out);
        self.open(&me, state, false);
        if let Some(t) = &self.thread {
            for cmd in pending {
                t.send(cmd);
            }
        }
    }

    pub(super) fn drain(&mut self, state: &mut State) {
        match &self.thread {
            Some(t) => {
                for cmd in std::mem::take(&mut state.local.out) {
                    t.send(cmd);
                }
            }
            // Not bound to a user yet: kept until then (within reason).
            None if self.enabled => {
                let out = &mut state.local.out;
                if out.len() > 20_000 {
                    out.drain(..out.len() - 20_000);
                }
            }
            None => state.local.out.clear(),
        }
    }

    pub(super) fn finish(mut self) {
        if let Some(t) = self.thread.take() {
            t.finish();
        }
    }
}
