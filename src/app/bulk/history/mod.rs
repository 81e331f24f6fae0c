//! History: every edit made from taskdeck, single or bulk, with its inverse
//! computed from what the service answered before and after it. `z` undoes
//! the last operation, `Z` redoes it (a bulk edit is one operation), with no
//! time limit while taskdeck runs; `:history` lists them. Comments, replies
//! and other edits the API cannot reverse are listed as such.

use crate::api::*;
use crate::app::edit::changes::Change;
use jiff::Timestamp;
use std::collections::{BTreeMap, HashMap};

mod handle;

/// Operations kept (the oldest go first).
pub const MAX_OPS: usize = 500;

/// Where one task of an operation stands.
#[derive(Clone, Debug, PartialEq)]
pub enum RecState {
    /// The change is on the service: undo can take it back.
    Applied,
    /// Undone: redo can apply it again.
    Undone,
    Failed(String),
    /// The request may or may not have reached the service.
    Unknown(String),
    Skipped(String),
}

/// One task of an operation.
#[derive(Clone, Debug)]
pub struct Record {
    pub task_id: String,
    pub label: String,
    /// What applies it (again).
    pub forward: Vec<Change>,
    /// What takes it back, or why nothing can.
    pub backward: Result<Vec<Change>, String>,
    /// The task as our last write of it in this operation left it.
    pub after: Option<Task>,
    pub state: RecState,
    /// The last undo or redo of this task failed: why.
    pub error: Option<String>,
}

impl Record {
    pub fn undoable(&self) -> bool {
        self.state == RecState::Applied && matches!(&self.backward, Ok(b) if !b.is_empty())
    }
}

#[derive(Clone, Debug)]
pub struct Op {
    pub id: u64,
    pub at: Timestamp,
    /// `3 tasks: status → completed`, `#12: archived`.
    pub title: String,
    pub records: Vec<Record>,
    /// Why this operation cannot be undone at all (comments, replies…).
    pub never: Option<String>,
}

impl Op {
    pub fn count(&self, f: impl Fn(&RecState) -> bool) -> usize {
        self.records.iter().filter(|r| f(&r.state)).count()
    }

    /// `11 done, 1 failed`, `undone`, `2 undone, 1 still applied`.
    pub fn outcome(&self) -> String {
        let applied = self.count(|s| *s == RecState::Applied);
        let undone = self.count(|s| *s == RecState::Undone);
        let failed = self.count(|s| matches!(s, RecState::Failed(_)));
        let unknown = self.count(|s| matches!(s, RecState::Unknown(_)));
        let skipped = self.count(|s| matches!(s, RecState::Skipped(_)));
        let mut parts = Vec::new();
        if undone > 0 && applied == 0 {
            parts.push("undone".to_string());
        } else if undone > 0 {
            parts.push(format!("{undone} undone, {applied} still applied"));
        } else if applied > 0 {
            parts.push(format!("{applied} done"));
        }
        if failed > 0 {
            parts.push(format!("{failed} failed"));
        }
        if unknown > 0 {
            parts.push(format!("{unknown} outcome unknown"));
        }
        if skipped > 0 {
            parts.push(format!("{skipped} skipped"));
        }
        parts.join(", ")
    }
}

/// What a macro's operation holds besides its field changes (issue 44 §4):
/// `z` takes back its follow-up and snooze with the fields, and says that
/// its reply and comment stay.
#[derive(Clone, Debug, Default)]
pub struct MacroUndo {
    /// Each mark stored, with the one of the same task and kind it
    /// replaced (put back by undo).
    pub marks: Vec<(crate::store::InboxMark, Option<crate::store::InboxMark>)>,
    /// Replies and comments sent: they stay.
    pub messages: usize,
}

/// A write sent outside the bulk engine: the task as known before it.
#[derive(Clone, Debug)]
struct Sent {
    before: Option<Task>,
    sharing_before: Option<SharingState>,
    /// An edit undo could take back once answered (`#12 updating status`).
    edit: Option<String>,
}

#[derive(Debug, Default)]
pub struct History {
    /// Oldest first.
    pub ops: Vec<Op>,
    /// Operations `z` takes back, last on top.
    pub undo_stack: Vec<u64>,
    /// Operations `Z` applies again, last undone on top.
    pub redo_stack: Vec<u64>,
    next: u64,
    /// By ticket: in the order sent, so that the edit undo waits for is
    /// always the oldest (a hash map's order differs from run to run).
    sent: BTreeMap<u64, Sent>,
    /// Per task: the `updated_at` our last write of it produced (`None`
    /// until read back, after a sharing change).
    pub ours: HashMap<String, Option<String>>,
    /// Per operation of a macro: its marks and messages.
    pub macros: HashMap<u64, MacroUndo>,
}

impl History {
    pub fn next_id(&mut self) -> u64 {
        self.next += 1;
        self.next
    }

    pub fn get(&self, id: u64) -> Option<&Op> {
        self.ops.iter().find(|o| o.id == id)
    }

    pub fn get_mut(&mut self, id: u64) -> Option<&mut Op> {
        self.ops.iter_mut().find(|o| o.id == id)
    }

    /// Forget a write the bulk engine owns (it records its own outcome).
    pub fn forget_sent(&mut self, ticket: u64) {
        self.sent.remove(&ticket);
    }

    /// An edit sent and not answered yet: undo waits for it (else `z`
    /// would take back the edit before it).
    pub fn edit_in_flight(&self) -> Option<&str> {
        self.sent.values().find_map(|s| s.edit.as_deref())
    }

    /// Our write of a task answered with this version.
    pub fn wrote(&mut self, t: &Task) {
        self.ours.insert(
            t.id.as_str().to_string(),
            t.updated_at.as_deref().map(str::to_string),
        );
    }

    /// Record a finished operation: one that can be undone goes on top of
    /// the undo stack, and what was undone before can no longer be redone.
    pub fn push(&mut self, op: Op) {
        let marks = self.macros.get(&op.id).is_some_and(|m| !m.marks.is_empty());
        if op.never.is_none() && (marks || op.records.iter().any(Record::undoable)) {
            self.undo_stack.push(op.id);
            self.redo_stack.clear();
        }
        let at = self.ops.partition_point(|o| o.id < op.id);
        self.ops.insert(at, op);
        while self.ops.len() > MAX_OPS {
            let gone = self.ops.remove(0).id;
            self.macros.remove(&gone);
            self.undo_stack.retain(|i| *i != gone);
            self.redo_stack.retain(|i| *i != gone);
        }
    }
}
