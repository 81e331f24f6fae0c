//! The inbox's steps in the simulator (issue 43): the world starts the
//! inbox of the store's user, carries out what the state asks of it and
//! what our own writes tell it, walks it every `inbox_refresh_secs` of
//! the model clock (or when asked), hands each update to the state, and
//! checks what came of it; the model and the invariants are `inbox`'s,
//! which the world names — this file extends the world and is named by
//! nobody, so the arrows stay one way.

use super::disk::Fault;
use super::inbox::{self, Awaited, Inbox, Reader};
use super::rng::Rng;
use super::world::World;
use crate::inbox::link::{apply, load, walk_once};
use crate::inbox::{InboxCmd, InboxUpdate, Me, Plan};
use crate::store::Db;
use std::time::Duration;

/// The walk's period: the smallest `inbox_refresh_secs` a user may set
/// (30 s; 120 s by default), so that a run walks, and checks, often.
const EVERY: Duration = Duration::from_secs(30);

impl World {
    /// After a step: the inbox runs for the store's user (started, or
    /// started again for another user; named once the service named the
    /// user), walks when its time came, and what others did since is
    /// awaited in it.
    pub(super) fn inbox_after_step(&mut self) {
        self.inbox_up();
        self.inbox_acts();
        let due = self
            .inbox
            .as_ref()
            .is_some_and(|i| named(&i.me) && self.clock >= i.next_walk);
        if due {
            self.inbox_walk();
        }
    }

    /// `Session::start_inbox` / `me_answered`: the inbox of the store's
    /// user, with their name once the service gave it.
    fn inbox_up(&mut self) {
        let Some(user) = self.state.local.user.clone().filter(|_| self.db.is_some()) else {
            self.inbox = None;
            return;
        };
        let me = self
            .state
            .me
            .as_ref()
            .filter(|m| m.user_id == user)
            .map(Me::of);
        if let Some(i) = self.inbox.as_mut().filter(|i| i.user == user) {
            if let Some(me) = me.filter(|m| *m != i.me) {
                // `SetMe`: the first walk once named.
                if !named(&i.me) {
                    i.next_walk = self.clock;
                }
                i.me = me;
            }
            return;
        }
        // Opening waits for another program's lock: the model starts the
        // inbox once the disk lets go (a start under a lock is not
        // modelled, `disk.rs`).
        if self.disk.fault == Some(Fault::Busy) {
            return;
        }
        let path = crate::store::db_path(&self.dir.join("store"), &user);
        let mut db = match Db::open(&path) {
            Ok((db, _)) => db,
            Err(e) => {
                self.violation("store", format!("the inbox's store did not open: {e}"));
                return;
            }
        };
        db.set_owner(&user);
        self.disk.apply(&db);
        let mut update = InboxUpdate {
            store: Some(path),
            ..Default::default()
        };
        load(&db, &mut update);
        if self.inbox.is_some() {
            // Another user's: what the view knew of the last is forgotten.
            let old = std::mem::take(&mut self.state.inbox);
            self.state.inbox.periodic = old.periodic;
        }
        self.state.inbox.running = true;
        self.inbox = Some(Inbox {
            me: me.unwrap_or(Me {
                id: user.clone(),
                ..Default::default()
            }),
            user,
            db,
            update,
            next_walk: self.clock,
        });
        self.count("inboxes started");
        self.inbox_send();
    }

    /// The update as it stands reaches the state (`Msg::Inbox`).
    fn inbox_send(&mut self) {
        let Some(i) = self.inbox.as_mut() else { return };
        let u = i.update.clone();
        i.update.read = None;
        let fx = self.state.on_inbox(u);
        self.carry(fx);
    }

    /// A command of the state's (`Effect::Inbox`) or of our own writes,
    /// as the inbox's task carries it out: then the update is sent.
    pub(super) fn inbox_cmd(&mut self, cmd: InboxCmd) {
        let Some(i) = self.inbox.as_mut() else { return };
        self.disk.apply(&i.db);
        match cmd {
            InboxCmd::Refresh if named(&i.me) => return self.inbox_walk(),
            InboxCmd::SetMe(m) => {
                i.me = m;
            }
            cmd => apply(&mut i.db, &i.me, cmd, &mut i.update),
        }
        load(&i.db, &mut i.update);
        self.inbox_send();
    }

    /// One walk, polled to its end here (its reads are the model
    /// service's, answered at once); a whole one counts for what is
    /// awaited, which is then checked.
    fn inbox_walk(&mut self) {
        let Some(i) = self.inbox.as_mut() else { return };
        self.disk.apply(&i.db);
        let rng = std::mem::replace(&mut self.walk_rng, Rng::new(0));
        let held = self
            .expect
            .held_back(&i.user, &i.db, &self.svc, crate::clock::unix_secs());
        self.expect.began(&i.user, &i.db, &self.svc);
        let reader = Reader::new(&self.svc, self.outage, Some(&self.faults), rng);
        let plan = Plan {
            page: inbox::PAGE,
            ..Plan::default()
        };
        futures::executor::block_on(walk_once(&reader, &mut i.db, &i.me, &plan, &mut i.update));
        let drawn = reader.into_parts();
        self.walk_rng = drawn.rng;
        load(&i.db, &mut i.update);
        i.next_walk = self.clock + EVERY;
        let user = i.user.clone();
        let whole = inbox::whole(&i.update);
        let counted = self
            .expect
            .walked(&user, inbox::listed(&i.update), &drawn.spoilt, &held);
        // Deleted by another user while the walk ran: gone from now on.
        for id in drawn.deleted {
            self.notes
                .push(format!("task {id} deleted during the walk"));
            self.count("tasks deleted during a walk");
            self.svc.delete(&id);
        }
        let Some(i) = self.inbox.as_ref() else { return };
        let note = format!("inbox walk: {}", i.update.error.as_deref().unwrap_or("ok"));
        let (mut found, checked) = self.expect.check(&user, &i.db, &self.svc);
        let (false_news, looked) = self.expect.false_news(&user, &i.db, &self.svc);
        found.extend(false_news);
        if looked > 0 {
            self.count("inbox walks checked for false news");
        }
        self.notes.push(note);
        self.count("inbox walks");
        if whole {
            self.count("whole inbox walks");
        }
        for _ in 0..checked {
            self.count("inbox acts found once");
        }
        for _ in 0..counted {
            self.count("inbox walks counted for an act");
        }
        for why in std::mem::take(&mut self.expect.let_go) {
            self.count(why);
        }
        for _ in 0..drawn.failed {
            self.count("inbox reads failed");
        }
        for _ in 0..drawn.odd {
            self.count("inbox comments that did not read");
        }
        self.broke(found);
        self.inbox_send();
    }

    /// What others did since the last step, awaited in the inbox of the
    /// user it is for when that inbox follows the task.
    fn inbox_acts(&mut self) {
        let new: Vec<_> = self.svc.acts[self.acts_seen..].to_vec();
        self.acts_seen = self.svc.acts.len();
        let Some(i) = self.inbox.as_ref() else {
            for _ in &new {
                self.count("inbox acts not awaited: no inbox running");
            }
            return;
        };
        let mut awaited = Vec::new();
        let mut not = Vec::new();
        for act in new {
            if act.user != i.user {
                not.push("inbox acts not awaited: for another user");
                continue;
            }
            if let Some(why) = inbox::why_not(&i.db, &act, &self.svc) {
                not.push(why);
                continue;
            }
            let moves = self.svc.assignee_moves.get(&act.task).copied().unwrap_or(0);
            awaited.push(Awaited {
                before: inbox::count(&i.db, &act, &self.svc),
                walks: 0,
                moves,
                set_backs: self.svc.set_backs,
                writes: self.svc.writes_to(&act.task),
                act,
            });
        }
        for why in not {
            self.count(why);
        }
        for a in awaited {
            self.count("inbox acts awaited");
            self.expect.awaited.push(a);
        }
    }
}

/// The service named the user: walks may begin (a mention is read
/// against the name).
fn named(me: &Me) -> bool {
    !me.name.is_empty() || !me.email.is_empty()
}
