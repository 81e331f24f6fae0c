//! Task commands with marks: every action that makes sense for many tasks
//! becomes one change per marked task, confirmed once (`12 tasks: status →
//! completed`) and run by the bulk engine. Also `z` / `Z` (undo and redo of
//! the last operation) and `:history`.

use super::super::bulk::{Job, JobState, RunKind};
use super::super::keymap::Action;
use super::super::state::{Confirmed, Effect, Level, Overlay, State};
use crate::api::*;
use crate::app::bulk::history::RecState;
use crate::app::edit::changes::{Change, ShareDelta};
use crate::app::state::command::{Command, ShareAdd};
use crate::app::state::directory::{names_one, Resolved};
use crate::domain::words::plural;

/// Tasks named in a confirmation (the rest are counted).
const NAMED: usize = 6;

/// Why a command stops before a change is prepared: a message, or effects
/// (a picker opened to choose between several people).
enum Stop {
    Say(String),
    Fx(Vec<Effect>),
}

impl From<String> for Stop {
    fn from(s: String) -> Stop {
        Stop::Say(s)
    }
}

impl State {
    /// With tasks marked, a task command acts on all of them: `Some` with
    /// the outcome (a confirmation opened, or why not); `None` when nothing
    /// is marked or the command is not a task edit.
    pub fn run_marked(&mut self, c: &Command) -> Option<Result<Vec<Effect>, String>> {
        if self.marks.is_empty() {
            return None;
        }
        let n = self.marks.len();
        let clear = self
            .keymap
            .hint_key(self.key_contexts(), Action::ClearMarks)
            .unwrap_or_else(|| "a key bound to clear_marks".into());
        let one = |what: &str| {
            Some(Err(format!(
                "{what} acts on one task, and {} marked: {clear} clears the marks",
                plural(n, "task is", "tasks are")
            )))
        };
        let change = match c {
            Command::Title(_) => return one("the title"),
            Command::Description(_) => return one("the description"),
            Command::Context(_) => return one("the additional context"),
            Command::Reject => return one("rejecting a draft"),
            Command::Comment => return one("a comment"),
            Command::Reply => return one("a reply to the requester"),
            Command::Role(_) | Command::Checks(_) | Command::Unlink => {
                return one("the selected link")
            }
            Command::Share => {
                return one("the sharing editor (:share add and :share team work on many)")
            }
            Command::Detach => return one("the selected file"),
            Command::Subtask(_) => return one("a new subtask"),
            other => match self.bulk_change(other) {
                Ok(Some(change)) => change,
                Ok(None) => return None,
                Err(Stop::Say(msg)) => return Some(Err(msg)),
                Err(Stop::Fx(fx)) => return Some(Ok(fx)),
            },
        };
        Some(self.prepare_bulk(change, matches!(c, Command::Accept)))
    }

    /// The one change a command makes to each task, or `None` when it is
    /// not a task edit.
    fn bulk_change(&mut self, c: &Command) -> Result<Option<Change>, Stop> {
        let patch = |p: TaskPatch| Ok(Some(Change::Patch(p)));
        let d = TaskPatch::default;
        match c {
            Command::Status(s) => patch(TaskPatch {
                status: Some(s.clone()),
                ..d()
            }),
            Command::Priority(p) => patch(TaskPatch {
                priority: Some(p.clone()),
                ..d()
            }),
            Command::Assign(who) => match self.resolve_person(who) {
                Ok((id, _)) => patch(TaskPatch {
                    assigned_to: Field::Set(id),
                    ..d()
                }),
                Err(Ok(candidates)) => Err(Stop::Fx(self.pick(
                    who,
                    false,
                    candidates,
                    "assign {}".into(),
                ))),
                Err(Err(msg)) => Err(msg.into()),
            },
            Command::Unassign => patch(TaskPatch {
                assigned_to: Field::Clear,
                ..d()
            }),
            Command::Due(arg) => {
                let due = super::super::dates::parse_due(arg, crate::clock::timestamp())?;
                patch(TaskPatch {
                    complete_by: match due {
                        Some(v) => Field::Set(v),
                        None => Field::Clear,
                    },
                    ..d()
                })
            }
            Command::Tags(arg) => {
                let arg = if arg == "none" { "" } else { arg.as_str() };
                match crate::domain::filters::tag_edit(arg)? {
                    crate::domain::filters::TagEdit::AddRemove { add, remove } => {
                        Ok(Some(Change::Tags { add, remove }))
                    }
                    crate::domain::filters::TagEdit::Replace(tags) => patch(TaskPatch {
                        tags: Some(tags),
                        ..d()
                    }),
                }
            }
            Command::Agent(f) => patch(TaskPatch {
                assigned_agent: f.clone(),
                ..d()
            }),
            Command::Team(f) => {
                let f = match f {
                    Field::Set(r) => match self.directory.resolve_team(r) {
                        Resolved::One(id, _) => Field::Set(id),
                        Resolved::Many(c) => {
                            return Err(Stop::Fx(self.pick(r, true, c, "team {}".into())))
                        }
                        Resolved::None if uuid::Uuid::parse_str(r).is_ok() => Field::Set(r.clone()),
                        Resolved::None => {
                            return Err(format!(
                                "no known team {r:?}: type its name as seen on a task, or its id (nothing sent)"
                            )
                            .into())
                        }
                    },
                    other => other.clone(),
                };
                patch(TaskPatch {
                    assigned_team_id: f,
                    ..d()
                })
            }
            Command::Matter(f) => patch(TaskPatch {
                matter_id: f.clone(),
                ..d()
            }),
            Command::Archive => patch(TaskPatch {
                archived: Some(true),
                ..d()
            }),
            Command::Restore => patch(TaskPatch {
                archived: Some(false),
                ..d()
            }),
            Command::Accept => patch(TaskPatch {
                draft: Some(false),
                ..d()
            }),
            Command::Link(pairs) => {
                let mut links = Vec::new();
                for (kind, item) in pairs {
                    let item = if item.starts_with('#') {
                        self.task_by_number(item)
                            .map(|t| t.id.as_str().to_string())
                            .ok_or(format!(
                                "{item} is not among the loaded tasks: give its uuid"
                            ))?
                    } else {
                        item.clone()
                    };
                    links.push((kind.clone(), item));
                }
                Ok(Some(Change::AddLinks(links)))
            }
            Command::Attach(ids) => Ok(Some(Change::Attach(ids.clone()))),
            Command::ShareAdd(add) => self.share_change(add).map(Some),
            _ => Ok(None),
        }
    }

    /// `:share add PERSON` / `:share team TEAM`: ids first (several
    /// matches open a picker), then the change.
    fn share_change(&mut self, add: &ShareAdd) -> Result<Change, Stop> {
        let access = add.access.as_wire().to_string();
        let (id, name) = if add.team {
            // An id, or a team as completed: its id. Several seen by that
            // name: asked now. Else the name goes as typed (#32 §3: the
            // service decides, never a local guess; its 400 asks).
            match self.directory.resolve_team(&add.who) {
                Resolved::One(id, label) if names_one(&add.who, &id) => (id, label),
                Resolved::Many(c) => {
                    let template = format!("share team {{}} {access}");
                    return Err(Stop::Fx(self.pick(&add.who, true, c, template)));
                }
                _ => (add.who.clone(), format!("team named {:?}", add.who)),
            }
        } else {
            match self.resolve_person(&add.who) {
                Ok(found) => found,
                Err(Ok(c)) => {
                    let template = format!("share add {{}} {access}");
                    return Err(Stop::Fx(self.pick(&add.who, false, c, template)));
                }
                Err(Err(msg)) => return Err(msg.into()),
            }
        };
        let entry = vec![(id, Some(add.access.clone()))];
        let mut d = ShareDelta {
            words: format!("shared with {name} ({access})"),
            ..Default::default()
        };
        if add.team {
            d.teams = entry;
        } else {
            d.users = entry;
        }
        Ok(Change::Share(d))
    }

    /// `:share add …` without marks: the current task, at once.
    pub fn share_add_current(&mut self, add: &ShareAdd) -> Result<Vec<Effect>, String> {
        let (id, label) = self.target()?;
        let change = match self.share_change(add) {
            Ok(c) => c,
            Err(Stop::Say(m)) => return Err(m),
            Err(Stop::Fx(fx)) => return Ok(fx),
        };
        let title = format!("{label}: {}", self.change_words(&change));
        let op = self.history.next_id();
        let run = self.engine.new_run(
            op,
            RunKind::Apply,
            title,
            vec![Job::new(id, label, vec![change])],
        );
        let rid = run.id;
        self.engine.prepared = Some(run);
        Ok(self.start_run(rid))
    }

    /// One confirmation for a change of every marked task.
    fn prepare_bulk(&mut self, change: Change, drafts_only: bool) -> Result<Vec<Effect>, String> {
        let tasks = self.marked_tasks();
        let mut jobs = Vec::new();
        let mut skipped = Vec::new();
        for t in &tasks {
            let mut job = Job::new(t.id.as_str().to_string(), t.label(), vec![change.clone()]);
            if drafts_only && !t.draft {
                job.state = JobState::Skipped("not a draft".into());
                skipped.push(t.label());
            }
            jobs.push(job);
        }
        let n = jobs.len() - skipped.len();
        if n == 0 {
            return Err(format!(
                "none of the {} is a draft: nothing to accept",
                plural(tasks.len(), "marked task", "marked tasks")
            ));
        }
        let words = self.change_words(&change);
        let title = format!("{}: {words}", plural(n, "task", "tasks"));
        let op = self.history.next_id();
        let mut run = self.engine.new_run(op, RunKind::Apply, title.clone(), jobs);
        run.from_marks = true;
        let mut lines = vec![title];
        let named: Vec<String> = tasks
            .iter()
            .filter(|t| !drafts_only || t.draft)
            .map(|t| format!("  {} {}", t.label(), t.title.line()))
            .collect();
        lines.extend(named.iter().take(NAMED).cloned());
        if named.len() > NAMED {
            lines.push(format!("  … and {} more", named.len() - NAMED));
        }
        if !skipped.is_empty() {
            lines.push(format!("Skipped, not drafts: {}", skipped.join(", ")));
        }
        let undo = self
            .keymap
            .hint_key(self.key_contexts(), Action::Undo)
            .unwrap_or_else(|| ":undo".into());
        lines.push(format!(
            "One request per task, {} at a time; {undo} undoes it all afterwards.",
            self.engine.limit
        ));
        let id = run.id;
        self.engine.prepared = Some(run);
        Ok(self.confirm(lines, Confirmed::Run(id)))
    }

    /// `x` with marks: restore them when every one is archived, else
    /// archive them.
    pub fn marked_archive_command(&self) -> Command {
        if self.marked_tasks().iter().all(|t| t.archived) {
            Command::Restore
        } else {
            Command::Archive
        }
    }

    /// `z`: undo the last operation still applied (every task of it), after
    /// reading each task back.
    pub fn undo_last(&mut self) -> Result<Vec<Effect>, String> {
        self.step_history(RunKind::Undo)
    }

    /// `Z`: apply again the operation undone last.
    pub fn redo_last(&mut self) -> Result<Vec<Effect>, String> {
        self.step_history(RunKind::Redo)
    }

    fn step_history(&mut self, kind: RunKind) -> Result<Vec<Effect>, String> {
        let undo = kind == RunKind::Undo;
        let verb = if undo { "undo" } else { "redo" };
        if let Some(r) = self.engine.applying() {
            let done = r.count(|s| s.finished());
            return Err(format!(
                "{} is still running ({done}/{}): {verb} once it has finished",
                r.title,
                r.jobs.len()
            ));
        }
        if let Some(what) = self.history.edit_in_flight() {
            return Err(format!(
                "{what} is still waiting for the service's answer: {verb} once it has come"
            ));
        }
        let stack = if undo {
            &self.history.undo_stack
        } else {
            &self.history.redo_stack
        };
        let Some(&op_id) = stack.last() else {
            return Err(if undo {
                "nothing to undo (:history lists what was done)".into()
            } else {
                "nothing to redo (:history lists what was done)".into()
            });
        };
        if let Some(r) = self.engine.runs.iter().find(|r| r.op == op_id) {
            return Err(format!("{} is already running", r.title));
        }
        let op = self
            .history
            .get(op_id)
            .cloned()
            .ok_or("the operation is no longer in the history")?;
        let mut jobs = Vec::new();
        for (i, rec) in op.records.iter().enumerate() {
            let changes = match (undo, &rec.state, &rec.backward) {
                (true, RecState::Applied, Ok(b)) if !b.is_empty() => b.clone(),
                // A macro's reply and comment are never sent again.
                (false, RecState::Undone, _) => rec
                    .forward
                    .iter()
                    .filter(|c| !c.is_message())
                    .cloned()
                    .collect(),
                _ => continue,
            };
            if changes.is_empty() {
                continue;
            }
            // An edit of the same field of this task waits in the outbox:
            // sent after the undo, it would land over it (soak seed
            // 10366710314734648864: an unassign undone while the unassign
            // made after it waited in the outbox, then sent over the undo).
            if self
                .outbox
                .iter()
                .any(|i| i.task_id == rec.task_id && overlaps(&i.req, &changes))
            {
                return Err(format!(
                    "{}: an edit of the same field waits in the outbox: {verb} once it is sent, or cancel it there (:outbox)",
                    rec.label
                ));
            }
            let mut job = Job::new(rec.task_id.clone(), rec.label.clone(), changes);
            job.record = i;
            job.expect = match self.history.ours.get(&rec.task_id) {
                Some(known) => known.clone(),
                None => rec
                    .after
                    .as_ref()
                    .and_then(|t| t.updated_at.as_deref().map(str::to_string)),
            };
            job.ours = rec.after.clone();
            jobs.push(job);
        }
        // A macro's follow-up and snooze go with its fields.
        let mut fx = self.macro_marks_step(op_id, undo);
        if jobs.is_empty() && !fx.is_empty() {
            let h = &mut self.history;
            let (from, to) = if undo {
                (&mut h.undo_stack, &mut h.redo_stack)
            } else {
                (&mut h.redo_stack, &mut h.undo_stack)
            };
            from.retain(|i| *i != op_id);
            to.push(op_id);
            let stays = if undo {
                self.macro_stays(op_id)
            } else {
                String::new()
            };
            self.say(Level::Success, format!("{verb}: {}{stays}", op.title));
            return Ok(fx);
        }
        if jobs.is_empty() {
            return Err(format!("nothing in {:?} can be {verb}ne", op.title));
        }
        let n = jobs.len();
        let title = format!("{verb}: {}", op.title);
        let run = self.engine.new_run(op_id, kind, title.clone(), jobs);
        self.engine.runs.push(run);
        let stays = if undo {
            self.macro_stays(op_id)
        } else {
            String::new()
        };
        self.say(
            Level::Info,
            format!(
                "{title} — reading {} back first…{stays}",
                plural(n, "task", "tasks")
            ),
        );
        fx.extend(self.pump());
        Ok(fx)
    }

    /// `:history`.
    pub fn show_history(&mut self) -> Vec<Effect> {
        self.overlay = Overlay::Text {
            title: "History (newest first)".into(),
            lines: self.history_lines(),
            scroll: 0,
        };
        vec![]
    }
}

/// Whether queued edit `req` writes what `changes` would: a field of a
/// PATCH (tags included) in both, or — links, files, sharing — the same
/// kind of thing.
fn overlaps(req: &crate::app::state::ApiRequest, changes: &[Change]) -> bool {
    use crate::app::state::ApiRequest;
    use crate::domain::task_field::TaskField;
    match req {
        ApiRequest::Patch { patch, .. } => {
            let queued = TaskField::in_patch(patch);
            changes
                .iter()
                .any(|c| c.field().is_some_and(|f| queued.contains(&f)))
        }
        ApiRequest::PutSharing { .. } => changes.iter().any(|c| matches!(c, Change::Share(_))),
        ApiRequest::UpdateLink { .. } | ApiRequest::RemoveLink { .. } => changes.iter().any(|c| {
            matches!(
                c,
                Change::AddLinks(_) | Change::RemoveLink(..) | Change::UpdateLink(..)
            )
        }),
        ApiRequest::Detach { .. } => changes
            .iter()
            .any(|c| matches!(c, Change::Attach(_) | Change::Detach(_))),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn share_add_parses_who_and_access() {
        assert_eq!(
            ShareAdd::parse("add Sam Taylor write"),
            Ok(ShareAdd {
                team: false,
                who: "Sam Taylor".into(),
                access: AccessLevel::Write
            })
        );
        assert_eq!(
            ShareAdd::parse("team Ops").unwrap().access,
            AccessLevel::Read
        );
        assert!(ShareAdd::parse("frob x").is_err());
        assert!(ShareAdd::parse("add").is_err());
    }
}
