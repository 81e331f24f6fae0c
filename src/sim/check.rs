//! The invariants, checked after every step (and around every crash and
//! every answer to a write). Each broken one is a [`super::Violation`]
//! with its kind (the shrinker keeps a run failing the same way).

use super::service::Applied;
use crate::app::local::outbox::{Kept, OutState};
use crate::app::state::{ApiRequest, State, MAX_MESSAGES};
use std::collections::{BTreeMap, BTreeSet};

/// A broken invariant: at which step, which, and what was seen.
#[derive(Clone, Debug, PartialEq)]
pub struct Violation {
    pub step: usize,
    pub kind: &'static str,
    pub detail: String,
}

/// A broken invariant before its step is known: which, and what was seen.
pub type Broke = (&'static str, String);

/// An open composer: its task and draft key, its text, whose it is, and
/// whether that text was saved (nothing typed since the last save).
pub struct Composing {
    pub task: String,
    pub key: String,
    pub text: String,
    pub owner: Option<String>,
    pub kept: bool,
}

/// The most requests in flight at once, edits queued, rows held.
const MAX_PENDING: usize = 512;
const MAX_OUTBOX: usize = 5_000;
const MAX_ROWS: usize = 10_000;

/// What the service did with the client's writes, and who made each.
#[derive(Default)]
pub struct Ledger {
    /// The process's number: tickets start again at each start.
    epoch: u64,
    writes: BTreeMap<u64, Write>,
    applied: BTreeMap<u64, usize>,
    /// Queued edits (by `seq`) the service applied, and those whose
    /// success the client heard.
    seq_applied: BTreeSet<i64>,
    seq_heard: BTreeSet<i64>,
    /// Who made each queued edit: the user it was first seen queued as
    /// (by its `seq`, task and request: a store's `seq` is its time of
    /// making, which another user's store may share). What the outbox
    /// says when it goes may have been changed since (the store switch
    /// takes an edit made with no user known as the new user's, and no
    /// other).
    makers: BTreeMap<(i64, String, String), String>,
}

struct Write {
    seq: Option<i64>,
    maker: Option<String>,
}

impl Ledger {
    /// A ticket of this process as the service knows it.
    pub fn id(&self, ticket: u64) -> u64 {
        (self.epoch << 40) | ticket
    }

    pub fn booted(&mut self) {
        self.epoch += 1;
    }

    fn edit_key(i: &crate::app::local::outbox::OutItem) -> (i64, String, String) {
        (i.seq, i.task_id.clone(), format!("{:?}", i.req))
    }

    /// The queued edits as the state holds them: each one's maker is
    /// the first user it is seen queued as.
    pub fn observe(&mut self, state: &State) {
        for i in &state.outbox {
            if let Some(u) = &i.user_id {
                self.makers
                    .entry(Self::edit_key(i))
                    .or_insert_with(|| u.clone());
            }
        }
    }

    /// A request went out: a write is recorded with who made it (a
    /// queued edit's maker, else the user the state knows). Answers the
    /// queued edit's `seq` when it is one (for the replay's trace).
    pub fn sent(&mut self, ticket: u64, req: &ApiRequest, state: &State) -> Option<i64> {
        req.written_task()?;
        let item = state
            .outbox
            .iter()
            .find(|i| i.state == OutState::Sending(ticket));
        let maker = match item {
            Some(i) => self
                .makers
                .get(&Self::edit_key(i))
                .cloned()
                .or_else(|| i.user_id.clone()),
            None => state.me.as_ref().map(|m| m.user_id.clone()),
        };
        let id = self.id(ticket);
        let seq = item.map(|i| i.seq);
        self.writes.insert(id, Write { seq, maker });
        seq
    }

    /// The client heard the answer to `ticket` (`ok`: a success).
    /// Answers the queued edit's `seq` whose success it was.
    pub fn heard(&mut self, ticket: u64, ok: bool) -> Option<i64> {
        let seq = self
            .writes
            .get(&self.id(ticket))
            .and_then(|w| w.seq)
            .filter(|_| ok)?;
        self.seq_heard.insert(seq);
        Some(seq)
    }

    /// The service applied a write: never twice, always as its maker.
    pub fn applied(&mut self, a: &Applied) -> Vec<(&'static str, String)> {
        let mut out = Vec::new();
        let n = self.applied.entry(a.ticket).or_default();
        *n += 1;
        if *n > 1 {
            out.push((
                "sent twice",
                format!("{} applied {n} times on {}", a.what, a.task),
            ));
        }
        if let Some(w) = self.writes.get(&a.ticket) {
            if let Some(m) = w.maker.as_deref().filter(|m| *m != a.user) {
                out.push((
                    "as another user",
                    format!("{} made by {m} applied as {}", a.what, a.user),
                ));
            }
            if let Some(seq) = w.seq {
                if self.seq_heard.contains(&seq) {
                    out.push((
                        "sent twice",
                        format!("queued edit {seq} sent again after its success was heard"),
                    ));
                }
                self.seq_applied.insert(seq);
            }
        }
        out
    }

    /// A write failed: the user must be told (a message), or the edit
    /// must wait in the outbox.
    pub fn failed(
        &self,
        _ticket: u64,
        task: &str,
        said_before: &Said,
        state: &State,
    ) -> Option<(&'static str, String)> {
        let queued = state.outbox.iter().any(|i| i.task_id == task);
        (!queued && said(state) == *said_before).then(|| {
            (
                "lost without a word",
                format!("a write to {task} failed and nothing was said"),
            )
        })
    }
}

/// What the user was last told: compared before and after, it says
/// whether something was said.
#[derive(Clone, Debug, PartialEq)]
pub struct Said(usize, Option<String>, Option<String>);

pub fn said(s: &State) -> Said {
    Said(
        s.messages.len(),
        s.messages.back().map(|m| m.text.clone()),
        s.status.as_ref().map(|(_, t, _)| t.clone()),
    )
}

/// What a step is compared with.
pub struct Before {
    seqs: BTreeSet<i64>,
    said: Said,
}

impl Before {
    pub fn of(state: &State) -> Before {
        Before {
            seqs: state.outbox.iter().map(|i| i.seq).collect(),
            said: said(state),
        }
    }
}

/// What must come back after a crash: the queued edits the store
/// confirmed keeping and not yet sent, the draft saved.
pub struct CrashExpect {
    seqs: BTreeSet<i64>,
    draft: Option<Composing>,
    /// Queued edits that left the outbox after the store failed (the disk
    /// full, locked: their removal never written): they may come back,
    /// and are checked by the next start, never sent twice (the ledger).
    pub may_return: BTreeSet<i64>,
}

impl CrashExpect {
    pub fn of(state: &State, composing: Option<Composing>) -> CrashExpect {
        CrashExpect {
            seqs: state
                .outbox
                .iter()
                .filter(|i| i.kept == Kept::Kept)
                .map(|i| i.seq)
                .collect(),
            draft: composing.filter(|c| c.kept),
            may_return: BTreeSet::new(),
        }
    }

    /// Compared with the state the next start made.
    pub fn check(self, state: &State) -> Vec<Broke> {
        let mut out = Vec::new();
        out.extend(outbox_back(
            "outbox after a crash",
            &self.seqs,
            &self.may_return,
            state,
        ));
        if let Some(d) = self.draft {
            let drafts = state.drafts.of(d.owner.as_deref());
            let back = drafts.load(&d.task, &d.key);
            if back.as_deref().map(str::trim_end) != Some(d.text.trim_end()) {
                out.push((
                    "draft lost in a crash",
                    format!("{:?} on {} came back as {back:?}", d.text, d.task),
                ));
            }
        }
        out
    }
}

/// A control character, an escape or a bidi override: never shown.
fn bad(c: char) -> bool {
    crate::text::is_dangerous(c) || crate::text::is_invisible(c)
}

pub fn no_controls(what: &str, text: &str) -> Option<Broke> {
    text.chars()
        .find(|c| bad(*c))
        .map(|c| ("control character", format!("{c:?} in {what}: {text:?}")))
}

/// No cell of the frame holds a character that must not reach the
/// terminal.
pub fn frame(buf: &ratatui::buffer::Buffer) -> Option<Broke> {
    let width = buf.area.width.max(1) as usize;
    let (i, cell) = buf
        .content
        .iter()
        .enumerate()
        .find(|(_, c)| c.symbol().chars().any(bad))?;
    let (x, y) = (i % width, i / width);
    Some((
        "control character",
        format!("{:?} in the frame's cell ({x}, {y})", cell.symbol()),
    ))
}

/// The detail, the composer and the sharing editor are on the task the
/// screen shows as current: the detail's task is the one its header
/// names (`Detail::task_id`); opened from the list, the list's cursor is
/// on that row; a composer or a sharing editor open acts on that task.
pub fn current_task(s: &State) -> Option<Broke> {
    use crate::app::state::{Origin, Overlay};
    let d = s.detail.as_ref()?;
    let wrong = |what: &str, id: &str| {
        (
            "current task",
            format!("{what} is on {id}, the current task is {}", d.task_id),
        )
    };
    if let Some(t) = d.task.as_ref().filter(|t| t.id != d.task_id) {
        return Some(wrong("the detail's content", t.id.as_str()));
    }
    // While a popup is open or a search narrows the list as it is typed
    // the cursor may run ahead; the detail follows once it is kept.
    let narrowing = !matches!(s.overlay, Overlay::None) || !s.search.is_empty();
    if d.origin == Origin::List && !d.task_id.is_empty() && !narrowing {
        if let Some(sel) = s.list.selected_id().filter(|sel| *sel != d.task_id) {
            return Some(wrong("the list's cursor", sel));
        }
    }
    match &s.overlay {
        Overlay::Compose(c) if c.task_id != d.task_id => Some(wrong("the composer", &c.task_id)),
        Overlay::Sharing(e) if e.task_id != d.task_id => {
            Some(wrong("the sharing editor", &e.task_id))
        }
        _ => None,
    }
}

/// What a step is checked with besides the state.
pub struct StepFacts<'a> {
    pub before: &'a Before,
    pub ledger: &'a Ledger,
    /// Requests the service has not answered.
    pub pending: usize,
    /// The user acted (a key, a command, a paste, a click).
    pub user_step: bool,
    /// The process crashed or restarted in this step.
    pub restarted: bool,
}

/// The invariants every step keeps.
pub fn after_step(s: &State, f: &StepFacts<'_>) -> Vec<Broke> {
    let mut out = Vec::new();
    if let Some((_, text, _)) = &s.status {
        out.extend(no_controls("the status line", text));
    }
    if let Some(m) = s.messages.back() {
        out.extend(no_controls("a message", &m.text));
    }
    out.extend(current_task(s));
    let bounds = [
        ("requests in flight", f.pending, MAX_PENDING),
        ("requests the state tracks", s.inflight.len(), MAX_PENDING),
        ("queued edits", s.outbox.len(), MAX_OUTBOX),
        ("messages", s.messages.len(), MAX_MESSAGES),
        ("rows held", s.list.items.len(), MAX_ROWS),
        ("store commands waiting", s.local.out.len(), 20_000),
    ];
    for (what, n, max) in bounds {
        if n > max {
            out.push(("unbounded", format!("{n} {what} (at most {max})")));
        }
    }
    // A queued edit that left the outbox was applied, or the user did it
    // (cancelled it), or was told.
    let now: BTreeSet<i64> = s.outbox.iter().map(|i| i.seq).collect();
    if !f.user_step && !f.restarted && said(s) == f.before.said {
        let gone: Vec<i64> = f
            .before
            .seqs
            .difference(&now)
            .filter(|q| !f.ledger.seq_applied.contains(*q))
            .copied()
            .collect();
        if !gone.is_empty() {
            out.push((
                "lost without a word",
                format!("queued edits {gone:?} left the outbox unsent and unsaid"),
            ));
        }
    }
    out
}

/// An undo under way (`z`, `:undo`): the operation, the field changes
/// that take each of its tasks back, and what the user had been told
/// when it started.
pub struct UndoWatch {
    op: u64,
    /// Per record (its index in the operation): its task and the PATCHes
    /// that take it back.
    records: Vec<(usize, String, Vec<crate::api::TaskPatch>)>,
    said: Said,
    /// Records undone whose check waits for a read of their task (by
    /// index): the other users' changes of the task when it began to.
    waits: BTreeMap<usize, u64>,
    /// Records let go that way, counted in the run's stats.
    pub let_go: usize,
}

impl UndoWatch {
    /// A user's step started an undo of the operation on top of the undo
    /// stack (`top`, before the step): watched, with the records it takes
    /// back.
    pub fn started(s: &State, top: Option<u64>, said_before: &Said) -> Option<UndoWatch> {
        use crate::app::bulk::RunKind;
        use crate::app::edit::changes::Change;
        let op = top?;
        // Under way, or over already (it left the undo stack in the step).
        let running = s
            .engine
            .runs
            .iter()
            .any(|r| r.op == op && r.kind == RunKind::Undo);
        if !running && s.history.undo_stack.last() == Some(&op) {
            return None;
        }
        let o = s.history.get(op)?;
        let records = o
            .records
            .iter()
            .enumerate()
            .filter(|(_, r)| r.undoable())
            .map(|(i, r)| {
                let patches = match &r.backward {
                    Ok(b) => b
                        .iter()
                        .filter_map(|c| match c {
                            Change::Patch(p) => Some(p.clone()),
                            _ => None,
                        })
                        .collect(),
                    Err(_) => Vec::new(),
                };
                (i, r.task_id.clone(), patches)
            })
            .collect();
        Some(UndoWatch {
            op,
            records,
            said: said_before.clone(),
            waits: BTreeMap::new(),
            let_go: 0,
        })
    }

    /// The operation this undo takes back.
    pub fn op(&self) -> u64 {
        self.op
    }

    /// A write went out while the undo runs: a PATCH of a task it takes
    /// back that sets one of the fields it takes back to another value
    /// is the user's later edit (the undo's own set them back), and what
    /// the task shows is then that edit's — the record is let go (seed
    /// 26, `others,garbage`: an archive undone, then archived again by
    /// hand before the undo's run ended, was called not undone). Answers
    /// how many records it let go.
    pub fn wrote(&mut self, req: &ApiRequest) -> usize {
        let ApiRequest::Patch { id, patch } = req else {
            return 0;
        };
        let sets = patch.to_json();
        let before = self.records.len();
        self.records.retain(|(_, task, patches)| {
            task != id
                || !patches.iter().any(|p| {
                    let back = p.to_json();
                    back.as_object()
                        .is_some_and(|m| m.iter().any(|(k, v)| sets.get(k).is_some_and(|w| w != v)))
                })
        });
        before - self.records.len()
    }

    /// After a step: each record the undo took back shows its field as
    /// it was before the undone edit (in the copy the user sees); once
    /// the undo has finished, a record it did not take back was said.
    /// Returns what broke, the number of fields checked, and whether
    /// the watch is over.
    /// `others`: the other users' changes of a task so far
    /// (`Service::others_changes`).
    pub fn check(
        &mut self,
        s: &State,
        pending: &[(u64, ApiRequest)],
        others: &dyn Fn(&str) -> u64,
    ) -> (Vec<Broke>, u64, bool) {
        use crate::app::bulk::history::RecState;
        // A read of the task on its way decides what it shows: an answer
        // of ours dated before what is shown has the task read again
        // (`State::write_answered`, a plain read: the prefetch's reads
        // follow one another as the cursor rests, never the decider), and
        // the record is checked once that read is in — let go if another
        // user changed the task meanwhile (the read shows theirs).
        let reading = |id: &str| {
            pending
                .iter()
                .any(|(_, r)| matches!(r, ApiRequest::GetTask { id: i } if i == id))
        };
        let mut out = Vec::new();
        let mut checked = 0;
        let Some(op) = s.history.get(self.op) else {
            return (out, 0, true);
        };
        let running = s.engine.runs.iter().any(|r| r.op == self.op);
        let mut left = Vec::new();
        for (i, id, patches) in std::mem::take(&mut self.records) {
            let Some(rec) = op.records.get(i) else {
                continue;
            };
            if rec.state == RecState::Undone && reading(&id) {
                self.waits.entry(i).or_insert_with(|| others(&id));
                left.push((i, id, patches));
            } else if rec.state == RecState::Undone
                && self.waits.get(&i).is_some_and(|n| *n != others(&id))
            {
                self.let_go += 1;
            } else if rec.state == RecState::Undone {
                if let Some(t) = seen_copy(s, &id) {
                    for p in &patches {
                        checked += 1;
                        if !holds(p, t) {
                            out.push((
                                "undo",
                                format!(
                                    "{} undone to {}, but {} shows {}",
                                    op.title,
                                    p.to_json(),
                                    t.label(),
                                    shown(p, t)
                                ),
                            ));
                        }
                    }
                }
            } else if !running {
                checked += 1;
                if said(s) == self.said {
                    out.push((
                        "undo",
                        format!("{}: {} not undone and nothing said", op.title, id),
                    ));
                }
            } else {
                left.push((i, id, patches));
            }
        }
        let waiting = left.iter().any(|(_, id, _)| reading(id));
        self.records = left;
        (
            out,
            checked,
            self.records.is_empty() || (!running && !waiting),
        )
    }
}

/// The copy of a task the user sees: the detail's, else its row's.
fn seen_copy<'a>(s: &'a State, id: &str) -> Option<&'a crate::api::Task> {
    s.detail
        .as_ref()
        .and_then(|d| d.task.as_ref())
        .filter(|t| t.id == id)
        .or_else(|| s.list.position(id).and_then(|i| s.list.items[i].task()))
}

/// What the task holds of the fields the PATCH sets (as its body names
/// them): said with a violation.
fn shown(p: &crate::api::TaskPatch, t: &crate::api::Task) -> serde_json::Value {
    use crate::domain::task_field::TaskField;
    let m = TaskField::in_patch(p)
        .into_iter()
        .map(|f| (f.wire().to_string(), f.read(t)))
        .collect();
    serde_json::Value::Object(m)
}

/// The task holds what the PATCH sets, each field read as the PATCH
/// body names it (`TaskField::read`: an open-shape field's id, the due
/// date as the service wrote it). Not `TaskField::holds`: that is the
/// outbox's "did a first attempt land" test, which never takes a due
/// date or an agent, team or matter as landed (the real service may
/// rewrite them), and so would call every undo of them wrong.
fn holds(p: &crate::api::TaskPatch, t: &crate::api::Task) -> bool {
    use crate::domain::task_field::TaskField;
    let body = p.to_json();
    body.as_object().is_some_and(|m| {
        m.iter().all(|(k, v)| {
            TaskField::from_wire(k).is_some_and(|f| match f {
                TaskField::AssignedTo => f.holds(v, t),
                _ => f.read(t) == *v,
            })
        })
    })
}

/// The outbox the next start made (`kind`: after a crash, a hang-up):
/// everything `kept` is back, and nothing else but what `may_return` (the
/// store still held it as committed: its removal not written).
pub(super) fn outbox_back(
    kind: &'static str,
    kept: &BTreeSet<i64>,
    may_return: &BTreeSet<i64>,
    state: &State,
) -> Option<Broke> {
    let now: BTreeSet<i64> = state.outbox.iter().map(|i| i.seq).collect();
    let back = now.difference(kept).all(|q| may_return.contains(q));
    (!kept.is_subset(&now) || !back).then(|| (kind, format!("kept {kept:?} before, {now:?} after")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::Task;
    use crate::domain::task_field::TaskField;
    use serde_json::{json, Value};

    fn task_with(field: &str, v: Value) -> Task {
        let mut j = crate::app::tests::task_json(1);
        j[field] = v;
        serde_json::from_value(j).unwrap()
    }

    fn sets(f: TaskField, v: Value) -> crate::api::TaskPatch {
        f.write(v).unwrap()
    }

    /// While an undo runs, the user's own later PATCH that sets one of
    /// the fields it takes back to another value lets that task's record
    /// go (what shows is the later edit); the undo's own PATCH, another
    /// field, another task or another kind of write let nothing go.
    #[test]
    fn a_field_set_again_by_the_user_while_the_undo_runs_lets_its_record_go() {
        let back = |v: bool| sets(TaskField::Archived, json!(v));
        let mut w = UndoWatch {
            op: 1,
            records: vec![
                (0, "t3".to_string(), vec![back(false)]),
                (1, "t4".to_string(), vec![back(false)]),
            ],
            said: Said(0, None, None),
            waits: BTreeMap::new(),
            let_go: 0,
        };
        let patch = |id: &str, p| ApiRequest::Patch {
            id: id.into(),
            patch: p,
        };
        assert_eq!(w.wrote(&patch("t4", back(false))), 0, "the undo's own");
        assert_eq!(
            w.wrote(&patch("t4", sets(TaskField::Priority, json!("low")))),
            0
        );
        assert_eq!(w.wrote(&patch("t9", back(true))), 0, "another task");
        let unlink = ApiRequest::RemoveLink {
            id: "t4".into(),
            kind: crate::api::LinkType::Chat,
            item: "c".into(),
        };
        assert_eq!(w.wrote(&unlink), 0, "not a PATCH");
        assert_eq!(w.records.len(), 2);
        assert_eq!(
            w.wrote(&patch("t4", back(true))),
            1,
            "archived again by hand"
        );
        let left: Vec<&str> = w.records.iter().map(|(_, t, _)| t.as_str()).collect();
        assert_eq!(left, vec!["t3"]);
    }

    /// An undo that took a due date, an agent, a team or a matter back
    /// is compared as the task holds the field, not with the outbox's
    /// "landed" test (which never takes them as landed): seeds
    /// 3909963496 (an agent), 1460298940 (a due date) and 11585966 (a
    /// matter) were each an undo done right and called wrong.
    #[test]
    fn an_undone_due_date_agent_team_or_matter_is_compared_as_the_task_holds_it() {
        let none = task_with("assigned_agent", Value::Null);
        for f in [
            TaskField::Due,
            TaskField::AssignedAgent,
            TaskField::AssignedTeam,
            TaskField::Matter,
        ] {
            assert!(holds(&sets(f, Value::Null), &none), "{f:?} back to none");
        }
        let due = task_with("complete_by", json!("2026-11-04T23:59:00Z"));
        assert!(holds(
            &sets(TaskField::Due, json!("2026-11-04T23:59:00Z")),
            &due
        ));
        assert!(!holds(&sets(TaskField::Due, Value::Null), &due));
        assert!(!holds(
            &sets(TaskField::Due, json!("2026-11-05T23:59:00Z")),
            &due
        ));
        let agent = task_with("assigned_agent", json!({"id": "ag-1", "name": "A"}));
        assert!(holds(
            &sets(TaskField::AssignedAgent, json!("ag-1")),
            &agent
        ));
        assert!(!holds(&sets(TaskField::AssignedAgent, Value::Null), &agent));
        let matter = task_with("matter", json!("m-1"));
        assert!(holds(&sets(TaskField::Matter, json!("m-1")), &matter));
        assert!(!holds(&sets(TaskField::Matter, json!("m-2")), &matter));
        // A title compared as written, never as shown.
        let tab = task_with("title", json!("tab\tand\u{2028}separator"));
        assert!(holds(
            &sets(TaskField::Title, json!("tab\tand\u{2028}separator")),
            &tab
        ));
        assert!(!holds(
            &sets(TaskField::Title, json!("tab and separator")),
            &tab
        ));
    }
}
