//! The bulk engine: an edit of many tasks (or an undo, or a redo) is a run
//! of one job per task. Requests go out a few at a time (`limit`), fed as
//! answers arrive; each task's outcome is recorded, failures stay marked
//! with their error, and the summary says `11 done, 1 failed`. Undo and
//! redo first read each task back and ask before overwriting one that
//! changed on the service since.

pub mod commands;
mod conflict;
mod finish;
pub mod history;
mod macros;

use crate::api::*;
use crate::app::edit::changes::Change;
use std::collections::HashMap;
use std::time::{Duration, Instant};

mod handle;

/// Requests of bulk edits, undo and redo in flight at once.
pub const CONCURRENCY: usize = 4;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RunKind {
    Apply,
    Undo,
    Redo,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Undo and redo: each task is read back to see whether it changed.
    Checking,
    Applying,
}

/// Where one change stands within a job (a sharing change takes three
/// requests: read the sharing, PUT it, read the task's new version).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    Send,
    ReadSharing,
    PutSharing,
    ReadBack,
}

#[derive(Clone, Debug, PartialEq)]
pub enum JobState {
    Waiting,
    InFlight,
    Checked,
    Done,
    Failed(String),
    Unknown(String),
    Skipped(String),
    /// The service could not be reached: its edit waits in the outbox,
    /// sent (after a check) when the service is back.
    Queued,
}

impl JobState {
    pub fn finished(&self) -> bool {
        matches!(
            self,
            JobState::Done
                | JobState::Failed(_)
                | JobState::Unknown(_)
                | JobState::Skipped(_)
                | JobState::Queued
        )
    }
}

/// One task of a run.
#[derive(Clone, Debug)]
pub struct Job {
    pub task_id: String,
    pub label: String,
    /// Index of the history record this job undoes or redoes.
    pub record: usize,
    pub changes: Vec<Change>,
    pub next: usize,
    pub step: Step,
    /// The changes the service confirmed.
    pub sent: Vec<Change>,
    /// The task as the service answered it before the first change.
    pub before: Option<Task>,
    /// The task as the service answered it last.
    pub latest: Option<Task>,
    pub sharing_before: Option<SharingState>,
    pub sharing_now: Option<SharingState>,
    pub sharing_after: Option<SharingState>,
    /// Undo/redo: the `updated_at` our last write left, and the task as it
    /// left it; a task that moved since is named before anything is sent.
    pub expect: Option<String>,
    pub ours: Option<Task>,
    pub changed: Option<String>,
    /// Undo/redo: the fields the service already holds at the value the
    /// undo sets (`priority high`): not sent, not asked about.
    pub held: Vec<String>,
    pub state: JobState,
    /// A change of it went to the outbox (offline).
    pub queued: bool,
    /// Why it went to the outbox though the service answers: older edits
    /// of the task wait there (`State::engine_held`); `None`: offline.
    pub behind: Option<String>,
    /// What the service said of a macro's messages (`reply sent`).
    pub said: Vec<String>,
    /// A macro's messages not sent because the service could not be
    /// reached: each kept as the task's composer draft, said as such.
    pub drafted: Vec<String>,
    /// A macro's reply: its `delivery_status` as the service answered it.
    pub delivery: Option<DeliveryStatus>,
    /// A macro's follow-up and snooze: stored once every change is sent
    /// (or queued); each with the mark it replaces, for undo.
    pub marks: Vec<crate::store::InboxMark>,
}

impl Job {
    pub fn new(task_id: String, label: String, changes: Vec<Change>) -> Job {
        Job {
            task_id,
            label,
            record: 0,
            changes,
            next: 0,
            step: Step::Send,
            sent: vec![],
            before: None,
            latest: None,
            sharing_before: None,
            sharing_now: None,
            sharing_after: None,
            expect: None,
            ours: None,
            changed: None,
            held: vec![],
            state: JobState::Waiting,
            queued: false,
            behind: None,
            said: vec![],
            drafted: vec![],
            delivery: None,
            marks: vec![],
        }
    }

    pub fn error(&self) -> Option<&str> {
        match &self.state {
            JobState::Failed(e) | JobState::Unknown(e) => Some(e),
            _ => None,
        }
    }
}

#[derive(Clone, Debug)]
pub struct Run {
    pub id: u64,
    /// The history operation it applies, undoes or redoes.
    pub op: u64,
    pub kind: RunKind,
    /// `3 tasks: status → completed`, `undo: #12: archived`.
    pub title: String,
    pub phase: Phase,
    pub jobs: Vec<Job>,
    /// Applies to the marked tasks: successes are unmarked after, failures
    /// stay marked with their error.
    pub from_marks: bool,
    pub started: Instant,
    pub max_in_flight: usize,
    /// The macro this run is (its summary names every step per task).
    pub macro_name: Option<String>,
}

impl Run {
    pub fn count(&self, f: impl Fn(&JobState) -> bool) -> usize {
        self.jobs.iter().filter(|j| f(&j.state)).count()
    }
    pub fn in_flight(&self) -> usize {
        self.count(|s| *s == JobState::InFlight)
    }
}

/// What the last finished run took: for the status line and benchmarks.
#[derive(Clone, Debug)]
pub struct RunStats {
    pub title: String,
    pub tasks: usize,
    pub done: usize,
    pub failed: usize,
    pub elapsed: Duration,
    pub max_in_flight: usize,
}

#[derive(Debug)]
pub struct Engine {
    pub runs: Vec<Run>,
    /// A run waiting for its confirmation.
    pub prepared: Option<Run>,
    tickets: HashMap<u64, (u64, usize)>,
    next: u64,
    /// Requests in flight at most.
    pub limit: usize,
    pub last: Option<RunStats>,
    /// The last macro run over: per task, per step, what became of it
    /// (`taskdeck macro --json`), and its summary as the status line said
    /// it (`taskdeck macro`'s text, whatever is said after it).
    pub last_macro: Option<(Vec<crate::domain::macros::MacroTask>, String)>,
}

impl Default for Engine {
    fn default() -> Self {
        Engine {
            runs: vec![],
            prepared: None,
            tickets: HashMap::new(),
            next: 0,
            limit: CONCURRENCY,
            last: None,
            last_macro: None,
        }
    }
}

impl Engine {
    pub fn new_run(&mut self, op: u64, kind: RunKind, title: String, jobs: Vec<Job>) -> Run {
        self.next += 1;
        Run {
            id: self.next,
            op,
            kind,
            title,
            phase: if kind == RunKind::Apply {
                Phase::Applying
            } else {
                Phase::Checking
            },
            jobs,
            from_marks: false,
            started: crate::clock::instant(),
            max_in_flight: 0,
            macro_name: None,
        }
    }

    /// Requests of runs in flight.
    pub fn in_flight(&self) -> usize {
        self.tickets.len()
    }

    pub fn owns(&self, ticket: u64) -> bool {
        self.tickets.contains_key(&ticket)
    }

    /// An edit of many tasks is running (undo waits for it).
    pub fn applying(&self) -> Option<&Run> {
        self.runs.iter().find(|r| r.kind == RunKind::Apply)
    }
}

/// The value a pending mark shows (`completed`, `a, b`).
fn pending_value(c: &Change, words: String) -> String {
    match c {
        Change::Patch(p) => match c.field().and_then(|f| f.sent(p)) {
            None | Some(serde_json::Value::Null) => "none".into(),
            Some(serde_json::Value::String(s)) => s,
            Some(v) => v.to_string(),
        },
        _ => words,
    }
}
