//! The inbox in the simulator (issue 43): the product's own walk
//! (`inbox::link::walk_once`, `inbox::cycle`) and its commands
//! (`inbox::link::apply`, `load`) on a connection of their own to the
//! user's store, as `InboxLink` holds one, polled to their end on the
//! simulator's thread against the model service ([`Reader`], the walk's
//! four reads). The notifications are the state's own decisions
//! (`State::on_inbox`, `inbox::notify::Watch`).
//!
//! The invariants it brings ([`Expect`], [`Told`]): every mention, reply
//! to the user's comment and assignment by another user on a task the
//! user's inbox follows appears in that inbox exactly once — by the time
//! enough whole walks have passed for the inbox's own rotation to read it
//! (not dropped, not doubled); each notification is decided at most once
//! per item; and no control character reaches a notification's words
//! (`check::no_controls`, in `world.rs`).

use super::check::Broke;
use super::service::{Act, Service};
use crate::api::{ApiError, Comment, Task, TaskPage, TaskQuery};
use crate::inbox::{InboxUpdate, Me};
use crate::store::Db;
use std::collections::{BTreeMap, BTreeSet};
use std::future::{ready, Future};

/// The walk's page in the simulator: small, so that a walk has several
/// pages (the model has a dozen tasks or so).
pub const PAGE: u32 = 5;

/// Whole walks after which an act must be in the inbox: the inbox reads
/// a moved task's comments at once, an open task's within two walks, a
/// finished one's within three; one more for a walk that began before
/// the act and ended after.
pub const WALKS: u64 = 4;

/// The inbox beside the client: its own connection to the user's store.
pub struct Inbox {
    pub user: String,
    pub db: Db,
    pub me: Me,
    pub update: InboxUpdate,
    /// When the next periodic walk is due (the model clock).
    pub next_walk: std::time::Duration,
}

/// The model service as the walk reads it: unreachable during an outage.
pub struct Reader<'a> {
    pub svc: &'a Service,
    pub outage: bool,
}

impl Reader<'_> {
    fn or_down<T>(&self, f: impl FnOnce() -> Result<T, ApiError>) -> Result<T, ApiError> {
        if self.outage {
            return Err(ApiError::Unreachable {
                message: "the model service is down".into(),
            });
        }
        f()
    }
}

impl crate::inbox::reads::Reads for Reader<'_> {
    fn list_tasks(
        &self,
        _q: &TaskQuery,
        limit: u32,
        cursor: Option<&str>,
    ) -> impl Future<Output = Result<TaskPage, ApiError>> + Send {
        ready(self.or_down(|| self.svc.list(limit, cursor)))
    }

    fn get_task(&self, id: &str) -> impl Future<Output = Result<Task, ApiError>> + Send {
        ready(self.or_down(|| self.svc.task(id)))
    }

    fn list_comments_counted(
        &self,
        id: &str,
    ) -> impl Future<Output = Result<(Vec<Comment>, Vec<String>), ApiError>> + Send {
        ready(self.or_down(|| self.svc.comments_of(id).map(|c| (c, Vec::new()))))
    }

    fn list_task_comments_counted(
        &self,
        id: &str,
    ) -> impl Future<Output = Result<(Vec<Comment>, Vec<String>), ApiError>> + Send {
        ready(self.or_down(|| self.svc.comments_of(id).map(|c| (c, Vec::new()))))
    }
}

/// A walk that read everything it meant to.
pub fn whole(u: &InboxUpdate) -> bool {
    u.error.is_none()
        && u.report.as_ref().is_some_and(|r| {
            r.complete && r.comments_failed == 0 && !r.comments_unavailable && r.gone_failed == 0
        })
}

/// One act awaited in one user's inbox.
#[derive(Clone, Debug)]
pub struct Awaited {
    pub act: Act,
    /// The user's whole walks when it happened.
    pub walks: u64,
    /// The items of its kind the task had then (an assignment's key is
    /// the task's version: counted, not named).
    pub before: usize,
    /// The task's assignee moves then (an assignment only).
    pub moves: u64,
    /// The service's clock set backs then.
    pub set_backs: u64,
    /// The writes applied to the task then.
    pub writes: usize,
}

/// The acts awaited, and each user's whole walks.
#[derive(Default)]
pub struct Expect {
    pub awaited: Vec<Awaited>,
    pub walks: BTreeMap<String, u64>,
}

/// Whether the inbox follows `task` so that `act` must become its item:
/// the inbox has begun (its first walk learns only), knows the task in a
/// version older than the task's now (an older version never replaces a
/// newer one: `derive::moved`, the walk's commit), and (a comment) has
/// read its comments before, or (an assignment) knew it as not the
/// user's.
pub fn follows(db: &Db, act: &Act, svc: &Service) -> bool {
    if !db.inbox_started() {
        return false;
    }
    let Ok(Some(base)) = db.inbox_base(&act.task) else {
        return false;
    };
    if svc.version(&act.task).is_none_or(|v| v <= base.version) {
        return false;
    }
    if act.key == "assigned" {
        serde_json::from_str::<crate::inbox::snapshot::Snapshot>(&base.snap).is_ok_and(|s| !s.mine)
    } else {
        base.comment_ids.is_some()
    }
}

/// The items of `act`'s kind on its task in `db` (read or not).
pub fn count(db: &Db, act: &Act) -> usize {
    let items = db.inbox_items(true).unwrap_or_default();
    items
        .iter()
        .filter(|i| i.task_id == act.task)
        .filter(|i| {
            if act.key == "assigned" {
                i.kind == "assigned"
            } else {
                i.key == act.key
            }
        })
        .count()
}

impl Expect {
    /// After a whole walk of `user`'s inbox: each act awaited there long
    /// enough is one item — while its task stayed in the user's tasks (not
    /// archived, not gone), the service's clock was not set back (a task
    /// read in a version older than the inbox's is left alone until its
    /// clock passes it: the walk's commit, `derive::moved`) and, an
    /// assignment, nobody moved the assignee again and the user wrote
    /// nothing to the task (the answer to a write of ours becomes what the
    /// inbox knows, docs/inbox.md: another's change before it is folded
    /// in); then it is no longer awaited.
    /// Also answers how many were checked.
    pub fn check(&mut self, user: &str, db: &Db, svc: &Service) -> (Vec<Broke>, usize) {
        let walks = self.walks.get(user).copied().unwrap_or(0);
        let mut out = Vec::new();
        let mut checked = 0;
        self.awaited.retain(|a| {
            if a.act.user != user {
                return true;
            }
            let assigned = a.act.key == "assigned";
            if svc.archived(&a.act.task) != Some(false)
                || svc.set_backs != a.set_backs
                || (assigned
                    && (svc.assignee_moves.get(&a.act.task).copied().unwrap_or(0) != a.moves
                        || svc.writes_to(&a.act.task) != a.writes))
            {
                return false;
            }
            if walks < a.walks + WALKS {
                return true;
            }
            checked += 1;
            let n = count(db, &a.act);
            let want = if a.act.key == "assigned" {
                a.before + 1
            } else {
                1
            };
            if n < want {
                out.push((
                    "inbox dropped",
                    format!(
                        "{} on task {} is not in the inbox after {WALKS} whole walks",
                        a.act.key, a.act.task
                    ),
                ));
            } else if n > want {
                out.push((
                    "inbox doubled",
                    format!(
                        "{} on task {} is in the inbox {n} times",
                        a.act.key, a.act.task
                    ),
                ));
            }
            false
        });
        (out, checked)
    }
}

/// The notifications decided: each item (user, task, key) once.
#[derive(Default)]
pub struct Told {
    seen: BTreeSet<(String, String, String)>,
}

impl Told {
    /// A notice decided for `user`: an item in it told before is a
    /// violation.
    pub fn notice(&mut self, user: &str, n: &crate::inbox::Notice) -> Vec<Broke> {
        let mut out = Vec::new();
        for i in &n.items {
            let k = (user.to_string(), i.task_id.clone(), i.key.clone());
            if !self.seen.insert(k) {
                out.push((
                    "notified twice",
                    format!("item {} of task {} notified again", i.key, i.task_id),
                ));
            }
        }
        out
    }
}
