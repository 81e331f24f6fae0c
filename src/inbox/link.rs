//! The inbox beside a running TUI: a task that owns its own connection to
//! the user's store and walks every `inbox_refresh_secs`, and carries out
//! what the state asks (mark read, bring back, snooze, follow up, a write
//! of ours). After each it sends the inbox as it now stands. It never
//! touches the state: answers travel as [`InboxUpdate`] values.

use super::cycle::{cycle, CycleError, CycleReport, Plan};
use super::derive::Me;
use super::notify::{unread_items, UnreadItem};
use super::rows::{group, InboxRow};
use super::snapshot::Snapshot;
use crate::api::{Client, Task};
use crate::store::{Db, InboxBase, InboxMark, MarkKind};
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
    /// … and failed (nothing changed).
    OwnFailed(String),
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
            let mut db = match Db::open(&path) {
                Ok((mut db, _)) => {
                    db.set_owner(&me.id);
                    db
                }
                Err(e) => {
                    send(InboxUpdate {
                        error: Some(format!("the inbox cannot open the local store: {e}")),
                        ..Default::default()
                    });
                    return;
                }
            };
            let mut me = me;
            // Walks wait for the service to name the user (offline, the
            // store's user id alone): a mention is read against the name.
            let mut named = !me.name.is_empty() || !me.email.is_empty();
            let mut state = InboxUpdate::default();
            // What the store holds, at once (offline too).
            load(&db, &mut state);
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
                            apply(&mut db, &me, cmd, &mut state);
                            false
                        }
                    },
                    _ = tokio::time::sleep_until(wait), if due.is_some() && named => true,
                };
                if walk {
                    let now = jiff::Timestamp::now();
                    match cycle(&client, &mut db, &me, &Plan::default(), now).await {
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
                    if let Some(e) = every {
                        next = tokio::time::Instant::now() + e;
                    }
                }
                load(&db, &mut state);
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

fn apply(db: &mut Db, me: &Me, cmd: InboxCmd, state: &mut InboxUpdate) {
    let now = jiff::Timestamp::now().as_second();
    let r = match cmd {
        InboxCmd::Refresh | InboxCmd::SetMe(_) => Ok(()),
        InboxCmd::Read(id) => db.inbox_read(&id, now).map(|keys| {
            state.read = Some((id, keys));
        }),
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
            let s = Snapshot::of(&t, me);
            let base = InboxBase {
                task_id: t.id.to_string(),
                snap: serde_json::to_string(&s).unwrap_or_default(),
                version: s.version(),
                comment_ids: None,
                since: now,
                reminds: true,
            };
            db.inbox_own(&t.id, Some(&base), now)
        }
    };
    if let Err(e) = r {
        state.error = Some(format!("the inbox's store: {e}"));
    }
}

fn load(db: &Db, state: &mut InboxUpdate) {
    let now = jiff::Timestamp::now().as_second();
    let items = db.inbox_items(state.all).unwrap_or_default();
    state.marks = db.inbox_marks().unwrap_or_default();
    state.rows = group(&items, &state.marks, now);
    state.items = unread_items(&items, &state.marks, now);
    let unread_rows: Vec<&InboxRow> = state.rows.iter().filter(|r| !r.read).collect();
    state.unread = unread_rows.iter().map(|r| r.task_id.clone()).collect();
}
