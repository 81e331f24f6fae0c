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
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
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
    /// The store was busy: the background retry's stop flag.
    retry: Option<Arc<AtomicBool>>,
    /// The user whose waiting edits of others were last looked for.
    noted: Option<String>,
}

use super::msg::Opened;

/// How long the retry rests between two tries (each waits `OPEN_WAIT`
/// for the lock itself).
const RETRY_REST: std::time::Duration = std::time::Duration::from_millis(500);

/// Try to open a busy store again and again, off the loop, until it opens,
/// fails otherwise, or the flag says stop; the loop hears it as
/// `Msg::StoreRetried`.
fn retry(
    path: std::path::PathBuf,
    user: String,
    tx: mpsc::UnboundedSender<Msg>,
) -> Arc<AtomicBool> {
    let stop = Arc::new(AtomicBool::new(false));
    let flag = stop.clone();
    let spawned = std::thread::Builder::new()
        .name("taskdeck-store-retry".into())
        .spawn(move || loop {
            if flag.load(Ordering::SeqCst) || tx.is_closed() {
                return;
            }
            let opened = match crate::store::Db::open_for(&path, &user) {
                Err(e) if e == crate::store::busy_words(&path) => {
                    std::thread::sleep(RETRY_REST);
                    continue;
                }
                other => other,
            };
            if flag.load(Ordering::SeqCst) {
                // Given up meanwhile: the claims it took go back.
                if let Ok((db, _, _)) = &opened {
                    let _ = db.outbox_release();
                }
                return;
            }
            let _ = tx.send(Msg::StoreRetried(user, Box::new(opened)));
            return;
        });
    if let Err(e) = spawned {
        tracing::warn!(error = %e, "cannot start the store's retry");
    }
    stop
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
            retry: None,
            noted: None,
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
        self.stop_retry();
        let path = crate::store::db_path(&self.dir, user);
        let started = Instant::now();
        match crate::store::Db::open_for(&path, user) {
            Ok(opened) => {
                tracing::info!(
                    path = %path.display(),
                    ms = started.elapsed().as_millis() as u64,
                    "local store opened"
                );
                self.adopt(user, opened, state, rows);
            }
            Err(e) if e == crate::store::busy_words(&path) => {
                // Held by another program: tried again in the background
                // (issue 32, point 14); what is learnt and queued waits in
                // memory for it, and the header says so.
                tracing::warn!(error = %e, "the local store is busy; trying again in the background");
                state.say(Level::Warn, e);
                state.local.on = true;
                state.local.busy = true;
                self.user = Some(user.to_string());
                self.retry = Some(retry(path, user.to_string(), self.tx.clone()));
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

    /// A store opened (at once, or by the retry): its thread starts and
    /// what it holds is shown (`rows`: its last view and task too).
    fn adopt(&mut self, user: &str, opened: Opened, state: &mut State, rows: bool) {
        let (db, note, boot) = opened;
        state.local.read_only = db.read_only().map(str::to_string);
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
        let tx = self.tx.clone();
        self.thread = Some(crate::store::worker::StoreThread::start(
            db,
            crate::store::DEFAULT_MAX_TASKS,
            move |a| {
                let _ = tx.send(Msg::Store(a));
            },
        ));
        state.local.on = true;
        state.local.busy = false;
        state.local.user = Some(user.to_string());
        self.user = Some(user.to_string());
    }

    /// The retry opened the store (`Ok`), or gave up (`Err`, why): the
    /// store is used from now on, with what was queued meanwhile. Returns
    /// whether a store was opened (the loop then starts its inbox).
    pub(super) fn retried(
        &mut self,
        user: String,
        opened: Result<Opened, String>,
        state: &mut State,
    ) -> bool {
        if self.retry.take().is_none() || self.user.as_deref() != Some(user.as_str()) {
            // Given up meanwhile (another user, or quitting).
            return false;
        }
        match opened {
            Ok(opened) => {
                tracing::info!("the local store is free: opened");
                // The list on screen came from the service: the store's
                // last view is not put back over it.
                self.adopt(&user, opened, state, false);
                state.say(
                    Level::Success,
                    "the local store is free again: opened — queued edits are kept and sent from here",
                );
                self.drain(state);
                true
            }
            Err(e) => {
                tracing::warn!(error = %e, "no local store");
                state.say(Level::Warn, format!("running without a local store: {e}"));
                state.local.on = false;
                state.local.busy = false;
                state.local.out.clear();
                state.outbox_store_failed(&e);
                self.enabled = false;
                false
            }
        }
    }

    /// Once per user named: edits made as other users that wait in their
    /// stores on this service are said (issue 32, point 4).
    pub(super) fn note_waiting(&mut self, state: &mut State) {
        let Some(me) = state.my_user() else { return };
        if !self.enabled || self.noted.as_deref() == Some(me.as_str()) {
            return;
        }
        self.noted = Some(me.clone());
        let mine = crate::store::db_path(&self.dir, &me);
        state.note_waiting_elsewhere(crate::store::outbox::waiting_elsewhere(&self.dir, &mine));
    }

    fn stop_retry(&mut self) {
        if let Some(stop) = self.retry.take() {
            stop.store(true, std::sync::atomic::Ordering::SeqCst);
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
        // Another user's store was open (the key acts as someone else
        // now): their edits stay in their store, never sent with this
        // key, and the screen says they wait. Only edits made with no
        // user known go to this key's user (`State::switch_store`, which
        // the simulator calls too).
        let old = self.user.clone();
        let switch = state.switch_store(old.as_deref(), &me);
        if old.is_some() {
            if let Some(t) = self.thread.take() {
                for cmd in switch.to_old {
                    t.send(cmd);
                }
                t.finish();
            }
        }
        self.open(&me, state, false);
        if let Some(t) = &self.thread {
            for cmd in switch.to_new {
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
        self.stop_retry();
        if let Some(t) = self.thread.take() {
            t.finish();
        }
    }
}
