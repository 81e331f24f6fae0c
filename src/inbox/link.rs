//! The inbox beside a running TUI: a task that owns its own connection to
//! the user's store and walks every `inbox_refresh_secs`, and carries out
//! what the state asks (mark read, bring back, snooze, follow up, a write
//! of ours). After each it sends the inbox as it now stands. It never
//! touches the state: answers travel as [`InboxUpdate`] values.

use super::cycle::{cycle, off_runtime, CycleError, CycleReport, Plan};
use super::derive::Me;
use super::notify::{unread_items, UnreadItem};
use super::reads::Reads;
use super::rows::{group, InboxRow};
use super::snapshot::Snapshot;
use crate::api::{Client, Task};
use crate::store::{Db, InboxMark, MarkKind};
use std::collections::HashSet;
use std::path::PathBuf;
use std::time::Duration;
use tokio::sync::mpsc;

/// What the state asks of the inbox.
#[derive(Clone, Debug, PartialEq)]
pub enum InboxCmd {
    /// Walk now.
    Refresh,
    /// The service named the user: their name and e-mail (what a mention
    /// in a comment's text is read against).
    SetMe(Me),
    /// Mark the task's items read (`enter`, `d`); the update says which.
    Read(String),
    /// Bring items back (`u`).
    Unread(String, Vec<String>),
    Mark(InboxMark),
    Unmark(String, MarkKind),
    /// Show read items too.
    ShowAll(bool),
    /// A write of ours to the task went out: its changes are ours.
    OwnPending(String),
    /// … and was answered with this task.
    Own(Box<Task>),
    /// … and failed (nothing changed), or was answered without the task
    /// by a write that changes nothing the inbox compares (a comment, a
    /// link, a file).
    OwnFailed(String),
    /// … a sharing write was answered: the user's own access now (`None`:
    /// not among the people it is shared with).
    OwnShared(String, Option<String>),
    /// … a deletion (a draft rejected) was answered: the task is gone by
    /// the user's doing.
    OwnDeleted(String),
}

/// The inbox as it stands, sent after every walk and command.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct InboxUpdate {
    pub rows: Vec<InboxRow>,
    /// Tasks with unread items (the list marks them).
    pub unread: HashSet<String>,
    pub marks: Vec<InboxMark>,
    /// The last walk: when (seconds), what it did, or why it failed.
    pub walked_at: Option<i64>,
    pub report: Option<CycleReport>,
    pub error: Option<String>,
    /// The keys a `Read` marked (what `u` brings back).
    pub read: Option<(String, Vec<String>)>,
    pub all: bool,
    /// Every unread item, by its key (whatever `all` shows): what a
    /// notification is made of (`super::notify`).
    pub items: Vec<UnreadItem>,
    /// The unread items a snooze hides now (`notify::hidden_items`): what
    /// the store holds at start is never news, hidden or not.
    pub hidden: Vec<UnreadItem>,
    /// The store this inbox is read from: one service and one user (issue
    /// 42 §11: two profiles of the same service and user are one inbox).
    pub store: Option<PathBuf>,
}

pub struct InboxLink {
    user: String,
    tx: mpsc::UnboundedSender<InboxCmd>,
    task: tokio::task::JoinHandle<()>,
}

impl InboxLink {
    /// Start the inbox of `me` in the store at `path`; `every`: the walk's
    /// period, the first walk at once (`None`: only when asked). What the
    /// store holds is sent at once either way.
    pub fn start(
        client: Client,
        path: PathBuf,
        me: Me,
        every: Option<Duration>,
        send: impl Fn(InboxUpdate) -> bool + Send + 'static,
    ) -> InboxLink {
        let (tx, mut rx) = mpsc::unbounded_channel::<InboxCmd>();
        let user = me.id.clone();
        let task = tokio::spawn(async move {
            // Opening runs the migrations (and may rebuild the search
            // index): off the runtime's workers, as all the store's work.
            let mut db = match off_runtime(|| Db::open(&path)) {
                Ok((mut db, _)) => {
                    db.set_owner(&me.id);
                    db
                }
                Err(e) => {
                    send(InboxUpdate {
                        error: Some(format!("the inbox cannot open the local store: {e}")),
                        store: Some(path.clone()),
                        ..Default::default()
                    });
                    return;
                }
            };
            let mut me = me;
            // Walks wait for the service to name the user (offline, the
            // store's user id alone): a mention is read against the name.
            let mut named = !me.name.is_empty() || !me.email.is_empty();
            let mut state = InboxUpdate {
                store: Some(path.clone()),
                ..Default::default()
            };
            // What the store holds, at once (offline too).
            off_runtime(|| load(&db, &mut state));
            if !send(state.clone()) {
                return;
            }
            // The first walk at once: the inbox is what the user asks first.
            let mut next = tokio::time::Instant::now();
            loop {
                // The first walk at once when it walks by itself; with no
                // period, only when asked (`r`, or the inbox opened).
                let due = every.map(|_| next);
                let wait = due.unwrap_or_else(|| {
                    tokio::time::Instant::now() + Duration::from_secs(86_400 * 365)
                });
                let walk = tokio::select! {
                    cmd = rx.recv() => match cmd {
                        None => return,
                        Some(InboxCmd::Refresh) => named,
                        Some(InboxCmd::SetMe(m)) => {
                            me = m;
                            // The first walk once named, when periodic.
                            let first = !named && every.is_some();
                            named = true;
                            first
                        }
                        Some(cmd) => {
                            off_runtime(|| apply(&mut db, &me, cmd, &mut state));
                            false
                        }
                    },
                    _ = tokio::time::sleep_until(wait), if due.is_some() && named => true,
                };
                if walk {
                    walk_once(&client, &mut db, &me, &Plan::default(), &mut state).await;
                    if let Some(e) = every {
                        next = tokio::time::Instant::now() + e;
                    }
                }
                off_runtime(|| load(&db, &mut state));
                if !send(state.clone()) {
                    return;
                }
                state.read = None;
            }
        });
        InboxLink { user, tx, task }
    }

    /// The user whose inbox this is.
    pub fn user(&self) -> &str {
        &self.user
    }

    pub fn send(&self, cmd: InboxCmd) {
        let _ = self.tx.send(cmd);
    }
}

impl Drop for InboxLink {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// One walk of the loop's: the update says what it came to (its report,
/// or why it failed) and when it began (`crate::clock`). The simulator
/// polls it to its end on its own thread (`sim::inbox_steps`).
pub async fn walk_once(
    client: &impl Reads,
    db: &mut Db,
    me: &Me,
    plan: &Plan,
    state: &mut InboxUpdate,
) {
    let now = crate::clock::timestamp();
    match cycle(client, db, me, plan, now).await {
        Ok(r) => {
            state.report = Some(r);
            state.error = None;
        }
        Err(CycleError::Service(e)) => {
            state.error = Some(format!("the inbox could not be read: {e}"));
        }
        Err(e) => state.error = Some(e.to_string()),
    }
    state.walked_at = Some(now.as_second());
}

/// What the loop does with one command of the state's (its store's part:
/// run it off the runtime's workers, as `off_runtime` does).
pub fn apply(db: &mut Db, me: &Me, cmd: InboxCmd, state: &mut InboxUpdate) {
    let now = crate::clock::unix_secs();
    let r = match cmd {
        InboxCmd::Refresh | InboxCmd::SetMe(_) => Ok(()),
        InboxCmd::Read(id) => {
            // Answered even when the store failed (nothing marked): the
            // state waits for each read's answer (`InboxView::reading`).
            let r = db.inbox_read(&id, now);
            let keys = r.as_ref().map(Vec::clone).unwrap_or_default();
            state.read = Some((id, keys));
            r.map(|_| ())
        }
        InboxCmd::Unread(id, keys) => db.inbox_unread(&id, &keys),
        InboxCmd::Mark(m) => db.inbox_mark(&m),
        InboxCmd::Unmark(id, kind) => db.inbox_unmark(&id, kind).map(|_| ()),
        InboxCmd::ShowAll(all) => {
            state.all = all;
            Ok(())
        }
        InboxCmd::OwnPending(id) => db.inbox_own(&id, None, now),
        InboxCmd::OwnFailed(id) => db.inbox_own_done(&id),
        InboxCmd::Own(t) => {
            let mut s = Snapshot::of(&t, me);
            s.own = true;
            own_base(db, &t.id, &s, now)
        }
        InboxCmd::OwnShared(id, access) => own_change(db, &id, now, |s| s.shared_me = access),
        InboxCmd::OwnDeleted(id) => own_change(db, &id, now, |s| {
            s.mine = false;
            s.creator_me = false;
            s.shared_me = None;
        }),
    };
    if let Err(e) = r {
        state.error = Some(format!("the inbox's store: {e}"));
    }
}

/// The base after a write of ours was answered (nothing of it is news).
fn own_base(db: &mut Db, id: &str, s: &Snapshot, now: i64) -> rusqlite::Result<()> {
    let at = jiff::Timestamp::from_second(now).unwrap_or_default();
    db.inbox_own(id, Some(&super::cycle::new_base(id, s, None, now, at)), now)
}

/// A write of ours answered without the task (sharing, a deletion): what
/// the inbox knew of it, changed as the write did.
fn own_change(
    db: &mut Db,
    id: &str,
    now: i64,
    change: impl FnOnce(&mut Snapshot),
) -> rusqlite::Result<()> {
    let known = db
        .inbox_base(id)?
        .and_then(|b| serde_json::from_str::<Snapshot>(&b.snap).ok());
    match known {
        Some(mut s) => {
            change(&mut s);
            s.own = true;
            own_base(db, id, &s, now)
        }
        None => db.inbox_own_done(id),
    }
}

/// The inbox as the store holds it, into the update the loop sends.
pub fn load(db: &Db, state: &mut InboxUpdate) {
    let now = crate::clock::unix_secs();
    let items = db.inbox_items(state.all).unwrap_or_default();
    state.marks = db.inbox_marks().unwrap_or_default();
    state.rows = group(&items, &state.marks, now);
    state.items = unread_items(&items, &state.marks, now);
    state.hidden = super::notify::hidden_items(&items, &state.marks, now);
    let unread_rows: Vec<&InboxRow> = state.rows.iter().filter(|r| !r.read).collect();
    state.unread = unread_rows.iter().map(|r| r.task_id.clone()).collect();
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::inbox::derive::gone_item;
    use crate::inbox::sandboxed::{store, Store};
    use crate::inbox::tests::{me, now, snap, BOB, T1};
    use serde_json::json;

    fn followed(db: &mut Db, s: &Snapshot) {
        let b = super::super::cycle::new_base(T1, s, Some(&[]), 0, now());
        db.inbox_commit(&[b], &[], &[], 1).unwrap();
    }

    fn known(db: &Db) -> Snapshot {
        serde_json::from_str(&db.inbox_bases().unwrap()[T1].snap).unwrap()
    }

    /// An own sharing answer updates its task's base (own, the access
    /// given) and another task's damaged row does not stop it. (That only
    /// the one base is read is not what this shows: a damaged row no
    /// longer fails the reading of all bases, see `Db::inbox_bases`.)
    #[test]
    fn an_own_sharing_answer_updates_its_base_beside_a_damaged_row() {
        let Store { mut db, path, _dir } = store();
        let shared = snap(json!({
            "assigned_to": {"id": BOB, "name": "Bob"},
            "involved_people": [{"id": crate::inbox::tests::ME, "role": "shared", "access_level": "read"}]
        }));
        followed(&mut db, &shared);
        rusqlite::Connection::open(&path)
            .unwrap()
            .execute(
                "INSERT INTO inbox_base(task_id,snap,version,comment_ids,since)
                 VALUES('other','{}','not a number',NULL,0)",
                [],
            )
            .unwrap();
        let mut state = InboxUpdate::default();
        apply(&mut db, &me(), InboxCmd::OwnPending(T1.into()), &mut state);
        apply(
            &mut db,
            &me(),
            InboxCmd::OwnShared(T1.into(), Some("write".into())),
            &mut state,
        );
        assert_eq!(state.error, None);
        let b: Snapshot = serde_json::from_str(&db.inbox_base(T1).unwrap().unwrap().snap).unwrap();
        assert!(b.own);
        assert_eq!(b.shared_me.as_deref(), Some("write"));
        assert_eq!(db.inbox_base("unknown").unwrap(), None);
    }

    #[test]
    fn own_reassignment_sharing_and_deletion_make_a_task_leave_silently() {
        let mut state = InboxUpdate::default();
        let read = |v| Some(Some(v));
        // Reassigned to Bob by the user: the answer is the base.
        let mut db = Db::in_memory().unwrap();
        followed(&mut db, &snap(json!({})));
        let task: Task = serde_json::from_value(json!({
            "id": T1, "display_id": "#12", "title": "Quarterly report",
            "status": "in_progress", "priority": "medium",
            "assigned_to": {"id": BOB, "name": "Bob"},
            "creator": {"id": BOB, "name": "Bob"},
            "updated_at": "2026-11-25T09:00:00Z"
        }))
        .unwrap();
        apply(&mut db, &me(), InboxCmd::OwnPending(T1.into()), &mut state);
        apply(&mut db, &me(), InboxCmd::Own(Box::new(task)), &mut state);
        let b = known(&db);
        assert!(b.own && !b.mine);
        assert_eq!(gone_item(T1, &b, read(&b), now()), None);
        // The user took their own access away (shared, not assigned).
        let shared = snap(json!({
            "assigned_to": {"id": BOB, "name": "Bob"},
            "involved_people": [{"id": crate::inbox::tests::ME, "role": "shared", "access_level": "read"}]
        }));
        let mut db = Db::in_memory().unwrap();
        followed(&mut db, &shared);
        apply(&mut db, &me(), InboxCmd::OwnPending(T1.into()), &mut state);
        apply(
            &mut db,
            &me(),
            InboxCmd::OwnShared(T1.into(), None),
            &mut state,
        );
        assert_eq!(gone_item(T1, &known(&db), Some(None), now()), None);
        // Rejected a draft: gone by the user's doing.
        let mut db = Db::in_memory().unwrap();
        followed(&mut db, &snap(json!({"draft": true})));
        apply(&mut db, &me(), InboxCmd::OwnDeleted(T1.into()), &mut state);
        assert_eq!(gone_item(T1, &known(&db), Some(None), now()), None);
        // Someone else removing the user's access still says so.
        let mut db = Db::in_memory().unwrap();
        followed(&mut db, &shared);
        assert!(gone_item(T1, &known(&db), Some(None), now()).is_some());
        assert_eq!(state.error, None);
    }
}
