//! An undo or redo whose tasks changed on the service since the edit:
//! its fields three ways for the conflict popup (`popups/conflict.rs`),
//! and the run trimmed to what the user kept. The popup's keys and a
//! queued edit's conflict are `edit/conflict.rs`.

use super::{JobState, Run};
use crate::app::edit::changes::Change;
use crate::app::local::outbox::three::Three;
use crate::app::popups::conflict::ConflictView;
use crate::app::state::{Effect, Level, State};
use crate::domain::task_field::TaskField;
use serde_json::Value;

impl State {
    /// Undo/redo, every task read back: a field moved on the service to
    /// the very value the undo sets is no conflict — dropped from its job
    /// (nothing sent, nothing asked) and kept in `held` to be said. A task
    /// left with nothing to send is done: it already holds what the undo
    /// wanted.
    pub(crate) fn drop_held(&mut self, ri: usize) {
        let Some(run) = self.engine.runs.get_mut(ri) else {
            return;
        };
        for j in run.jobs.iter_mut().filter(|j| j.changed.is_some()) {
            let Some(now) = j.latest.as_ref() else {
                continue;
            };
            let held = &mut j.held;
            j.changes.retain(|c| {
                let Change::Patch(p) = c else { return true };
                let Some(key) = TaskField::of_patch(p) else {
                    return true;
                };
                let has = key.sent(p).is_some_and(|v| key.holds(&v, now));
                if has {
                    held.push(format!("{} {}", key.label(), key.words(now)));
                }
                !has
            });
            if j.changes.is_empty() && !j.held.is_empty() {
                j.changed = None;
                j.state = JobState::Done;
            }
        }
    }

    /// An undo or redo whose tasks changed on the service since the edit,
    /// when every change of theirs is a field: each field three ways (what
    /// our edit left, what the undo sets, what the service has). `None`:
    /// not that kind (the run asks yes or no).
    pub(crate) fn run_three_way(&self, run: &Run) -> Option<Vec<Three>> {
        let mut rows = Vec::new();
        for (ji, j) in run
            .jobs
            .iter()
            .enumerate()
            .filter(|(_, j)| j.changed.is_some())
        {
            for (ci, c) in j.changes.iter().enumerate() {
                let Change::Patch(p) = c else { return None };
                let key = TaskField::of_patch(p)?;
                let mine = key.sent(p).unwrap_or(Value::Null);
                rows.push(Three {
                    field: format!("{} {}", j.label, key.label()),
                    saw: j
                        .ours
                        .as_ref()
                        .map_or_else(|| "(not known)".into(), |t| key.words(t)),
                    mine: self.words(key, &mine),
                    theirs: j
                        .latest
                        .as_ref()
                        .map_or_else(|| "(not read)".into(), |t| key.words(t)),
                    key,
                    keep_mine: true,
                    at: Some((ji, ci)),
                });
            }
        }
        (!rows.is_empty()).then_some(rows)
    }

    /// Drop from the prepared run the fields whose service value is kept
    /// (a task left with nothing to do is skipped), then run it.
    pub(crate) fn resolve_run(&mut self, id: u64, v: &ConflictView) -> Vec<Effect> {
        let Some(run) = self.engine.prepared.as_mut().filter(|r| r.id == id) else {
            return vec![];
        };
        let mut drop: Vec<(usize, usize)> = v
            .rows
            .iter()
            .filter(|r| !r.keep_mine)
            .filter_map(|r| r.at)
            .collect();
        drop.sort_unstable_by(|a, b| b.cmp(a));
        for (ji, ci) in &drop {
            if let Some(j) = run.jobs.get_mut(*ji) {
                if *ci < j.changes.len() {
                    j.changes.remove(*ci);
                }
            }
        }
        for j in run.jobs.iter_mut().filter(|j| j.changes.is_empty()) {
            j.state = JobState::Skipped("kept the service's value".into());
        }
        if run
            .jobs
            .iter()
            .all(|j| matches!(j.state, JobState::Skipped(_)))
        {
            let title = run.title.clone();
            self.engine.prepared = None;
            self.say(
                Level::Success,
                format!("{title}: kept the service's values, nothing sent"),
            );
            return vec![];
        }
        self.start_run(id)
    }
}
