//! How a run ends: after each answer the engine settles — the check of an
//! undo/redo is over (go on, or ask first), the run is over (its outcome
//! goes into the history, marks follow, the summary says `11 done, 1
//! failed`), or the status line shows the progress.

use super::super::bulk::{Job, JobState, Phase, RunKind, RunStats};
use super::super::state::{Confirmed, Effect, Level, Overlay, State};
use super::macros::macro_outcomes;
use crate::app::bulk::history::{Op, RecState, Record};
use crate::app::edit::changes::{inverse, Change};
use crate::domain::words::plural;

impl State {
    /// After an answer: the check is over (go on, or ask), the run is over
    /// (record it), or the status line shows the progress.
    pub(crate) fn settle(&mut self, ri: usize) -> Vec<Effect> {
        let Some(run) = self.engine.runs.get(ri) else {
            return vec![];
        };
        if run.phase == Phase::Checking {
            if run.jobs.iter().all(|j| j.state == JobState::Checked) {
                return self.checks_done(ri);
            }
            let n = run.count(|s| *s == JobState::Checked);
            let text = format!(
                "{} — checking for changes on the service: {n}/{}",
                run.title,
                run.jobs.len()
            );
            self.progress(text);
            return vec![];
        }
        if run.jobs.iter().all(|j| j.state.finished()) {
            return self.finish(ri);
        }
        let done = run.count(|s| *s == JobState::Done);
        let failed = run.count(|s| matches!(s, JobState::Failed(_) | JobState::Unknown(_)));
        let todo = run.count(|s| !matches!(s, JobState::Skipped(_)));
        let mut text = format!("{} — {done}/{todo} done", run.title);
        if failed > 0 {
            text.push_str(&format!(", {failed} failed"));
        }
        text.push_str(&format!(", {} in flight…", run.in_flight()));
        self.progress(text);
        vec![]
    }

    /// The status line follows a run without filling the message log.
    fn progress(&mut self, text: String) {
        self.say_passing(Level::Info, text);
    }

    /// Every task of an undo/redo was read back: go on, or ask first about
    /// those that changed on the service since the edit.
    fn checks_done(&mut self, ri: usize) -> Vec<Effect> {
        self.drop_held(ri);
        let changed: Vec<(String, String)> = self.engine.runs[ri]
            .jobs
            .iter()
            .filter_map(|j| j.changed.clone().map(|c| (j.label.clone(), c)))
            .collect();
        if changed.is_empty() {
            self.engine.runs[ri].phase = Phase::Applying;
            // Every task already holds what the undo sets: nothing to send.
            if self.engine.runs[ri].jobs.iter().all(|j| j.state.finished()) {
                return self.finish(ri);
            }
            return vec![];
        }
        let mut run = self.engine.runs.remove(ri);
        let n = run.jobs.len();
        if !matches!(self.overlay, Overlay::None) {
            self.say(
                Level::Warn,
                format!(
                    "{}: {} changed on the service since — nothing sent; run it again to review",
                    run.title,
                    plural(changed.len(), "task", "tasks")
                ),
            );
            return vec![];
        }
        run.phase = Phase::Applying;
        // Fields only: each three ways, keep mine or take theirs.
        if let Some(rows) = self.run_three_way(&run) {
            let (id, label) = (run.id, run.title.clone());
            self.progress(format!(
                "{} — {} changed on the service since: yours and theirs side by side",
                run.title,
                plural(changed.len(), "task", "tasks")
            ));
            self.engine.prepared = Some(run);
            self.overlay = Overlay::Conflict(super::super::popups::conflict::ConflictView {
                of: super::super::popups::conflict::ConflictOf::Run(id),
                label,
                rows,
                selected: 0,
                about: vec![],
                archived: false,
                asked: false,
            });
            return vec![];
        }
        let verb = if run.kind == RunKind::Redo {
            "redo"
        } else {
            "undo"
        };
        let mut lines = vec![
            format!("{}?", capitalise(&run.title)),
            format!(
                "!! {} of {} changed on the service since the edit:",
                changed.len(),
                plural(n, "task", "tasks")
            ),
        ];
        for (label, why) in changed.iter().take(6) {
            lines.push(format!("!!   {label}: {why}"));
        }
        if changed.len() > 6 {
            lines.push(format!("!!   … and {} more", changed.len() - 6));
        }
        lines.push(format!(
            "y: {verb} all {n} anyway (overwriting those changes) · n: cancel, nothing is sent"
        ));
        let id = run.id;
        self.progress(format!(
            "{} — {} changed on the service since: y overwrites, n cancels",
            run.title,
            plural(changed.len(), "task", "tasks")
        ));
        self.engine.prepared = Some(run);
        self.confirm(lines, Confirmed::Run(id))
    }

    /// What quitting leaves undone: tasks of a run not sent yet.
    pub fn unsent_lines(&self) -> Vec<String> {
        self.engine
            .runs
            .iter()
            .filter_map(|r| {
                let unsent: Vec<&str> = r
                    .jobs
                    .iter()
                    .filter(|j| {
                        j.next == 0 && matches!(j.state, JobState::Waiting | JobState::Checked)
                    })
                    .map(|j| j.label.as_str())
                    .collect();
                (!unsent.is_empty()).then(|| {
                    crate::text::clean(&format!(
                        "taskdeck: {}: {} of {} not sent when you quit: {}",
                        r.title,
                        unsent.len(),
                        plural(r.jobs.len(), "task", "tasks"),
                        unsent.join(", ")
                    ))
                })
            })
            .collect()
    }

    /// A run is over: its outcome goes into the history and the status
    /// line; marks follow (successes unmarked, failures kept with their
    /// error).
    pub(crate) fn finish(&mut self, ri: usize) -> Vec<Effect> {
        let run = self.engine.runs.remove(ri);
        // A macro's follow-up and snooze, for the tasks whose every change
        // went out (or waits in the outbox).
        if run.macro_name.is_some() {
            self.engine.last_macro = Some((macro_outcomes(&run), String::new()));
        }
        let fx = if run.kind == RunKind::Apply {
            self.macro_marks(&run)
        } else {
            vec![]
        };
        let done = run.count(|s| *s == JobState::Done);
        let failed = run.count(|s| matches!(s, JobState::Failed(_)));
        let unknown = run.count(|s| matches!(s, JobState::Unknown(_)));
        let skipped = run.count(|s| matches!(s, JobState::Skipped(_)));
        let queued = run.count(|s| *s == JobState::Queued);
        self.engine.last = Some(RunStats {
            title: run.title.clone(),
            tasks: run.jobs.len(),
            done,
            failed: failed + unknown,
            elapsed: run.started.elapsed(),
            max_in_flight: run.max_in_flight,
        });
        let inverse_of = |j: &Job| -> Result<Vec<Change>, String> {
            match (&j.before, &j.latest) {
                (Some(b), Some(a)) => inverse(
                    &j.sent,
                    b,
                    a,
                    j.sharing_before.as_ref().zip(j.sharing_after.as_ref()),
                ),
                _ => Err("the task was not known before the change".into()),
            }
        };
        match run.kind {
            RunKind::Apply => {
                let records = run
                    .jobs
                    .iter()
                    .map(|j| Record {
                        task_id: j.task_id.clone(),
                        label: j.label.clone(),
                        forward: j.changes.clone(),
                        backward: inverse_of(j),
                        after: j.latest.clone(),
                        state: match &j.state {
                            JobState::Done => RecState::Applied,
                            JobState::Failed(e) => RecState::Failed(e.clone()),
                            JobState::Unknown(e) => RecState::Unknown(e.clone()),
                            JobState::Skipped(w) => RecState::Skipped(w.clone()),
                            JobState::Queued => RecState::Skipped(QUEUED.into()),
                            _ => RecState::Failed("not sent".into()),
                        },
                        error: None,
                    })
                    .collect();
                self.history.push(Op {
                    id: run.op,
                    at: crate::clock::timestamp(),
                    title: run.title.clone(),
                    records,
                    never: None,
                });
                if run.from_marks {
                    for j in &run.jobs {
                        match j.error() {
                            Some(e) if self.marks.contains(&j.task_id) => {
                                self.marks.failed.insert(j.task_id.clone(), e.to_string());
                            }
                            Some(_) => {}
                            None => self.marks.remove(&j.task_id),
                        }
                    }
                }
            }
            RunKind::Undo | RunKind::Redo => {
                let undo = run.kind == RunKind::Undo;
                let verb = if undo { "undo" } else { "redo" };
                if let Some(op) = self.history.get_mut(run.op) {
                    for j in &run.jobs {
                        let Some(rec) = op.records.get_mut(j.record) else {
                            continue;
                        };
                        match &j.state {
                            _ if undo
                                && crate::broken::on(crate::broken::Rule::UndoClaimed)
                                && j.state.finished() =>
                            {
                                rec.error = None;
                                rec.state = RecState::Undone;
                            }
                            JobState::Done => {
                                rec.error = None;
                                rec.after = j.latest.clone();
                                if undo {
                                    rec.state = RecState::Undone;
                                } else {
                                    rec.state = RecState::Applied;
                                    rec.backward = inverse_of(j);
                                }
                            }
                            JobState::Failed(e) => rec.error = Some(format!("{verb} failed: {e}")),
                            JobState::Unknown(e) => {
                                rec.error =
                                    Some(format!("{verb}: outcome unknown ({e}) — check it"))
                            }
                            _ => {}
                        }
                    }
                    let left = if undo {
                        op.records.iter().any(|r| r.undoable())
                    } else {
                        op.records.iter().any(|r| r.state == RecState::Undone)
                    };
                    if !left {
                        let h = &mut self.history;
                        let (from, to) = if undo {
                            (&mut h.undo_stack, &mut h.redo_stack)
                        } else {
                            (&mut h.redo_stack, &mut h.undo_stack)
                        };
                        from.retain(|i| *i != run.op);
                        to.push(run.op);
                    }
                }
            }
        }
        // The summary: what happened to every task, nothing silent.
        // Undo and redo say what they took back or did again (#26 §9):
        // `undone: #12 status back to in progress`.
        let (prefix, sep, arrow) = match run.kind {
            RunKind::Apply => ("", ": ", " → "),
            RunKind::Undo => ("undone: ", " ", " back to "),
            RunKind::Redo => ("redone: ", " ", " to "),
        };
        let bad = failed + unknown;
        let text = if run.jobs.len() == 1 && queued == 1 {
            let j = &run.jobs[0];
            format!("{prefix}{}: {}", j.label, queued_words(j))
        } else if run.jobs.len() == 1
            && done == 1
            && run.jobs[0].sent.is_empty()
            && !run.jobs[0].held.is_empty()
        {
            // Changed on the service since, to the value the undo sets.
            let j = &run.jobs[0];
            let verb = if run.kind == RunKind::Redo {
                "redo"
            } else {
                "undo"
            };
            format!(
                "{verb}: {} already holds {} (changed on the service since) — nothing sent",
                j.label,
                j.held.join(", ")
            )
        } else if run.jobs.len() == 1 && done == 1 {
            let j = &run.jobs[0];
            let words: Vec<String> = j
                .sent
                .iter()
                .map(|c| self.change_words(c).replace(" → ", arrow))
                .collect();
            format!("{prefix}{}{sep}{}", j.label, words.join(", "))
        } else {
            let mut parts = vec![format!("{done} done")];
            if failed > 0 {
                parts.push(format!("{failed} failed"));
            }
            if unknown > 0 {
                parts.push(format!("{unknown} outcome unknown (check them)"));
            }
            if skipped > 0 {
                parts.push(format!("{skipped} skipped"));
            }
            let held: Vec<String> = run
                .jobs
                .iter()
                .filter(|j| !j.held.is_empty())
                .map(|j| format!("{} {}", j.label, j.held.join(", ")))
                .collect();
            if !held.is_empty() {
                parts.push(format!("already held, not sent: {}", held.join("; ")));
            }
            if queued > 0 {
                let kept = if self.local.on {
                    ""
                } else {
                    " — NOT KEPT (no local store): lost if you quit before the service is back"
                };
                // Offline, and behind older edits of their task.
                for behind in [false, true] {
                    let which: Vec<&str> = run
                        .jobs
                        .iter()
                        .filter(|j| j.state == JobState::Queued && j.behind.is_some() == behind)
                        .map(|j| j.label.as_str())
                        .collect();
                    if which.is_empty() {
                        continue;
                    }
                    let what = if behind { BEHIND } else { QUEUED };
                    parts.push(format!(
                        "{} {what} ({}){kept}",
                        which.len(),
                        which.join(", ")
                    ));
                }
            }
            // An undo's title is `undo: <what was done>`.
            let what = match run.kind {
                RunKind::Apply => run.title.clone(),
                _ => format!(
                    "{prefix}{:?}",
                    run.title.split_once(": ").map_or(&*run.title, |t| t.1)
                ),
            };
            let mut text = format!("{what} — {}", parts.join(", "));
            if let Some(j) = run.jobs.iter().find(|j| j.error().is_some()) {
                text.push_str(&format!(
                    " — {}: {}",
                    j.label,
                    j.error().unwrap_or_default()
                ));
                if bad > 1 {
                    text.push_str(" (:history lists every failure)");
                }
            }
            text
        };
        let text = match (&run.macro_name, run.kind) {
            (Some(name), RunKind::Apply) => {
                let summary = self.macro_summary(name, &run);
                if let Some((_, said)) = self.engine.last_macro.as_mut() {
                    said.clone_from(&summary);
                }
                summary
            }
            _ if run.kind == RunKind::Undo => format!("{text}{}", self.macro_stays(run.op)),
            _ => text,
        };
        let level = if bad > 0 {
            Level::Error
        } else if queued > 0 {
            Level::Warn
        } else {
            Level::Success
        };
        self.say(level, text);
        fx
    }
}

/// A task whose edit waits in the outbox, in words.
const QUEUED: &str = "queued — offline; sent when the service is back (:outbox)";
/// Tasks whose edit joined older edits of theirs in the outbox.
const BEHIND: &str = "queued behind older edits of theirs in the outbox; sent after them (:outbox)";

/// Why job `j`'s edit waits in the outbox, in words.
fn queued_words(j: &super::Job) -> String {
    match &j.behind {
        Some(why) => crate::app::local::outbox::queued_behind(why),
        None => QUEUED.to_string(),
    }
}

fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}
