//! The loop's side of the local store: which database is open (the
//! service's, for the user the service says you are), its thread, and the
//! commands the reducer queued for it.

use super::state::{Level, State};
use super::Msg;
use std::time::Instant;
use tokio::sync::mpsc;

/// The loop's link to the store: which database (service and user), its
/// thread, and the commands the reducer queued.
pub(super) struct StoreLink {
    dir: std::path::PathBuf,
    enabled: bool,
    user: Option<String>,
    thread: Option<crate::store::worker::StoreThread>,
    tx: mpsc::UnboundedSender<Msg>,
}

impl StoreLink {
    pub(super) fn new(
        dir: std::path::PathBuf,
        enabled: bool,
        tx: mpsc::UnboundedSender<Msg>,
    ) -> Self {
        StoreLink {
            dir,
            enabled,
            user: None,
            thread: None,
            tx,
        }
    }

    /// Open the store of the user last seen on this service.
    pub(super) fn open_last(&mut self, state: &mut State) {
        if !self.enabled {
            return;
        }
        // What is learnt before the service says who the user is waits
        // for that user's store.
        state.local.on = true;
        if let Some(user) = crate::store::last_user(&self.dir) {
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
        if let Err(e) = crate::store::set_last_user(&self.dir, &me) {
            tracing::warn!(error = %e, "cannot remember the last user");
        }
        if self.user.is_some() {
            // Another user's store was open: nothing of it stays.
            if let Some(t) = self.thread.take() {
                t.finish();
            }
            state.forget_local();
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
