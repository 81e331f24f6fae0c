//! Macros (issue 44): `:macro NAME`, its key, or `taskdeck macro` (the
//! CLI drives this same code without a screen). A macro is one bulk
//! run: per task a job whose changes are, in this order, the reply, the comment and one change per field — the same requests as
//! `:reply`, `:comment`, `:status`… (the engine sends them, queues the
//! fields in the outbox when offline — a reply or comment is never queued:
//! kept as the task's draft — and stops a task at its first failure,
//! never resending) — then, once every change of the task went
//! out, its follow-up and snooze (the marks of `:follow-up`, `:snooze`).
//! First a review lists every step per task, the texts rendered; `y` runs
//! it. `z` takes back the fields and the marks together; the reply and the
//! comment stay, and the undo says so.

use super::super::bulk::{Job, JobState, Run, RunKind};
use super::super::keymap::Action;
use super::super::state::{ApiRequest, Confirmed, Effect, State};
use crate::api::*;
use crate::app::bulk::history::MacroUndo;
use crate::app::edit::changes::Change;
use crate::domain::macros::{render, tags_arg, Macro, MacroStep, MacroTask, Vars};
use crate::domain::words::plural;
use crate::inbox::InboxCmd;
use crate::store::{InboxMark, MarkKind};
use jiff::Timestamp;

impl State {
    /// `:macro NAME` (or its key): the review of every step on each target
    /// (the marked tasks, else the current one); `y` runs it.
    pub fn run_macro(&mut self, name: &str) -> Result<Vec<Effect>, String> {
        let (run, review) = self.prepare_macro(name, crate::clock::timestamp())?;
        let mut lines = vec![format!("{}?", run.title)];
        lines.extend(review);
        let undo = self
            .keymap
            .key_for(Action::Undo)
            .unwrap_or_else(|| ":undo".into());
        lines.push(format!(
            "y: run it · n: cancel, nothing is sent · {undo} afterwards takes back the fields, follow-up and snooze (a reply or comment sent stays)"
        ));
        let id = run.id;
        self.engine.prepared = Some(run);
        Ok(self.confirm(lines, Confirmed::Run(id)))
    }

    /// The macro named, for the targets, as a run waiting to start, and
    /// its review: every step of every task.
    pub fn prepare_macro(
        &mut self,
        name: &str,
        now: Timestamp,
    ) -> Result<(Run, Vec<String>), String> {
        let name = name.trim();
        if name.is_empty() {
            let names: Vec<&str> = self.macros.iter().map(|m| m.name.as_str()).collect();
            return Err(if names.is_empty() {
                "no macros: add [[macros]] to the config (docs/macros.md)".into()
            } else {
                format!("which macro? {}", names.join(", "))
            });
        }
        let m = self.find_macro(name)?;
        let from_marks = !self.marks.is_empty();
        let tasks: Vec<Task> = if from_marks {
            self.marked_tasks()
        } else {
            let (id, _) = self.target()?;
            vec![self.best_copy(&id).ok_or("the task is not loaded yet")?]
        };
        self.prepare_macro_on(m, tasks, from_marks, now)
    }

    /// The macro found by name (exactly, else ignoring case) among those
    /// offered (without a fault).
    pub fn find_macro(&self, name: &str) -> Result<Macro, String> {
        let name = name.trim();
        self.macros
            .iter()
            .find(|m| m.name == name)
            .or_else(|| {
                self.macros
                    .iter()
                    .find(|m| m.name.eq_ignore_ascii_case(name))
            })
            .cloned()
            .ok_or_else(|| {
                format!(
                    "no macro {:?} (those without a fault: taskdeck config check names the rest)",
                    crate::text::clean(name)
                )
            })
    }

    /// The run of macro `m` on `tasks` and its review: shared by the TUI
    /// (the marked tasks, else the current one) and `taskdeck macro`
    /// (the tasks named by number).
    pub fn prepare_macro_on(
        &mut self,
        m: Macro,
        tasks: Vec<Task>,
        from_marks: bool,
        now: Timestamp,
    ) -> Result<(Run, Vec<String>), String> {
        if (m.follow_up.is_some() || m.snooze.is_some()) && !self.inbox.running {
            return Err(self.inbox.off.clone().unwrap_or_else(|| {
                "its follow-up and snooze need the inbox, which starts once the service has said who you are: nothing sent".into()
            }));
        }
        let fields = self.macro_fields(&m, now)?;
        // What is the same for every task is read and said once.
        let field_words: Vec<String> = fields
            .iter()
            .map(|f| format!("  {}", self.change_words(f)))
            .collect();
        let mut marks = Vec::new();
        for (kind, when) in [
            (MarkKind::FollowUp, &m.follow_up),
            (MarkKind::Snooze, &m.snooze),
        ] {
            if let Some(w) = when {
                let at = crate::domain::later::parse_later(w, now)?;
                marks.push((kind, at, mark_words(kind, at)));
            }
        }
        let mut jobs = Vec::new();
        let mut review = Vec::new();
        for t in &tasks {
            let job = self.plan(&m, t, &fields, &marks, now);
            review.push(crate::text::clean(&format!(
                "{} {}",
                t.label(),
                t.title.line()
            )));
            for c in job.changes.iter().filter(|c| c.is_message()) {
                let (what, body) = match c {
                    Change::Reply(b) => ("reply", b),
                    Change::Comment(b) => ("comment", b),
                    _ => continue,
                };
                let mut it = body.lines();
                review.push(format!("  {what}: {}", it.next().unwrap_or_default()));
                review.extend(it.map(|l| format!("  {:w$}  {l}", "", w = what.len())));
            }
            review.extend(field_words.iter().cloned());
            review.extend(marks.iter().map(|(_, _, shown)| format!("  {shown}")));
            jobs.push(job);
        }
        let op = self.history.next_id();
        let title = format!("macro {} on {}", m.name, self.on_what(&tasks));
        let mut run = self.engine.new_run(op, RunKind::Apply, title, jobs);
        run.from_marks = from_marks;
        run.macro_name = Some(m.name.clone());
        Ok((run, review))
    }

    fn on_what(&self, tasks: &[Task]) -> String {
        match tasks {
            [one] => one.label(),
            _ => plural(tasks.len(), "task", "tasks"),
        }
    }

    /// The field changes, the same for every task: each read as its
    /// command reads it (the person through the one name matcher).
    fn macro_fields(&mut self, m: &Macro, now: Timestamp) -> Result<Vec<Change>, String> {
        let d = TaskPatch::default;
        let mut out = Vec::new();
        if let Some(s) = &m.status {
            let v = crate::domain::filters::status_value(s)?;
            out.push(Change::Patch(TaskPatch {
                status: Some(Status::parse(v)),
                ..d()
            }));
        }
        if let Some(p) = &m.priority {
            let v = crate::domain::filters::priority_value(p)?;
            out.push(Change::Patch(TaskPatch {
                priority: Some(Priority::parse(v)),
                ..d()
            }));
        }
        if let Some(due) = &m.due {
            let at = crate::domain::dates::parse_due(due, now)?;
            out.push(Change::Patch(TaskPatch {
                complete_by: match at {
                    Some(v) => Field::Set(v),
                    None => Field::Clear,
                },
                ..d()
            }));
        }
        if let Some(who) = &m.assign {
            let id = match self.resolve_person(who) {
                Ok((id, _)) => id,
                Err(Ok(c)) => {
                    return Err(format!(
                        "`assign = {:?}` matches {} people: write the name or e-mail in full (nothing sent)",
                        crate::text::clean(who),
                        c.len()
                    ))
                }
                Err(Err(msg)) => return Err(format!("`assign`: {msg}")),
            };
            out.push(Change::Patch(TaskPatch {
                assigned_to: Field::Set(id),
                ..d()
            }));
        }
        if !m.tags.is_empty() {
            out.push(
                match crate::domain::filters::tag_edit(&tags_arg(&m.tags))? {
                    crate::domain::filters::TagEdit::AddRemove { add, remove } => {
                        Change::Tags { add, remove }
                    }
                    crate::domain::filters::TagEdit::Replace(tags) => Change::Patch(TaskPatch {
                        tags: Some(tags),
                        ..d()
                    }),
                },
            );
        }
        Ok(out)
    }

    /// One task's job: the texts rendered with its own variables, then
    /// the fields, then its marks.
    fn plan(
        &self,
        m: &Macro,
        t: &Task,
        fields: &[Change],
        marks: &[(MarkKind, Timestamp, String)],
        now: Timestamp,
    ) -> Job {
        let vars = self.macro_vars(t);
        let mut changes = Vec::new();
        if let Some(r) = &m.reply {
            changes.push(Change::Reply(render(r, &vars)));
        }
        if let Some(c) = &m.comment {
            changes.push(Change::Comment(render(c, &vars)));
        }
        changes.extend(fields.iter().cloned());
        let mut job = Job::new(t.id.as_str().to_string(), t.label(), changes);
        for (kind, at, _) in marks {
            job.marks.push(InboxMark {
                task_id: t.id.as_str().to_string(),
                kind: *kind,
                at: at.as_second(),
                since: now.as_second(),
                label: t.label(),
                title: crate::text::clean(&t.title.line()),
            });
        }
        job
    }

    /// A macro's reply or comment that could not go out (the service
    /// unreachable: nothing was sent): its text kept as the task's draft
    /// of that kind (after a draft already there), so that `R` or `c` on
    /// the task opens it to send. What to say of it; `None` for another
    /// request.
    pub(crate) fn macro_message_offline(
        &mut self,
        ri: usize,
        ji: usize,
        req: &ApiRequest,
    ) -> Option<String> {
        let (what, key, text, action) = match req {
            ApiRequest::ReplyRequester { content, .. } => {
                ("reply", "requester", content, Action::ReplyRequester)
            }
            ApiRequest::AddComment { content, .. } => {
                ("comment", "comment", content, Action::Comment)
            }
            _ => return None,
        };
        let run = self.engine.runs.get(ri)?;
        run.macro_name.as_ref()?;
        let task_id = run.jobs.get(ji)?.task_id.clone();
        let open = self
            .keymap
            .hint_key(self.key_contexts(), action)
            .unwrap_or_else(|| format!(":{what}"));
        let text = match self.drafts.load(&task_id, key) {
            Some(before) if before.trim() != text.trim() => format!("{before}\n\n{text}"),
            _ => text.clone(),
        };
        Some(match self.drafts.save(&task_id, key, &text) {
            Ok(Some(_)) => {
                format!("{what} NOT SENT (offline): kept as its draft, {open} on the task sends it")
            }
            Ok(None) => format!("{what} NOT SENT (offline), and no drafts folder to keep it"),
            Err(e) => format!("{what} NOT SENT (offline), and its draft not kept: {e}"),
        })
    }

    /// A task's values for a macro's templates.
    pub fn macro_vars(&self, t: &Task) -> Vars {
        let person =
            |p: &Person| crate::text::name_or_email(p.name.raw(), p.email.raw()).to_string();
        // The requester: the last sender of the requester thread who is
        // not us (an inbound message), else the task's creator.
        let requester = self
            .replies
            .get(t.id.as_str())
            .and_then(|v| {
                v.iter().rev().find_map(|m| {
                    let inbound = m.direction.as_ref().is_some_and(|d| d.raw() != "outbound");
                    let name = m
                        .sender_display_name
                        .as_ref()
                        .map(|n| n.raw().to_string())
                        .filter(|n| !n.trim().is_empty())
                        .or_else(|| m.sender.as_ref().map(person));
                    name.filter(|_| inbound)
                })
            })
            .or_else(|| t.creator.as_deref().map(person))
            .unwrap_or_default();
        Vars {
            number: t.label(),
            title: t.title.raw().to_string(),
            requester,
            assignee: t.assigned_to.as_deref().map(person).unwrap_or_default(),
            me: self
                .me
                .as_ref()
                .map(|m| {
                    crate::text::name_or_email(m.user_name.raw(), m.user_email.raw()).to_string()
                })
                .unwrap_or_default(),
            due: t
                .complete_by
                .as_ref()
                .map(|d| crate::domain::dates::when(Some(d.as_str())))
                .unwrap_or_default(),
        }
    }

    /// A macro run is over: the marks of the tasks whose every change went
    /// out (or waits in the outbox), recorded for undo with the marks they
    /// replace.
    pub(crate) fn macro_marks(&mut self, run: &Run) -> Vec<Effect> {
        if run.macro_name.is_none() {
            return vec![];
        }
        let mut undo = MacroUndo::default();
        let mut fx = Vec::new();
        for j in &run.jobs {
            undo.messages += j.sent.iter().filter(|c| c.is_message()).count();
            if !matches!(j.state, JobState::Done | JobState::Queued) {
                continue;
            }
            for m in &j.marks {
                let before = self
                    .inbox
                    .last
                    .marks
                    .iter()
                    .find(|x| x.task_id == m.task_id && x.kind == m.kind)
                    .cloned();
                undo.marks.push((m.clone(), before));
                fx.push(Effect::Inbox(InboxCmd::Mark(m.clone())));
            }
        }
        self.history.macros.insert(run.op, undo);
        fx
    }

    /// Undo (`undo`) or redo of a macro's marks: the marks it replaced put
    /// back (or removed), or its own stored again.
    pub(crate) fn macro_marks_step(&mut self, op: u64, undo: bool) -> Vec<Effect> {
        let Some(m) = self.history.macros.get(&op) else {
            return vec![];
        };
        m.marks
            .iter()
            .map(|(new, before)| match (undo, before) {
                (true, Some(b)) => InboxCmd::Mark(b.clone()),
                (true, None) => InboxCmd::Unmark(new.task_id.clone(), new.kind),
                (false, _) => InboxCmd::Mark(new.clone()),
            })
            .map(Effect::Inbox)
            .collect()
    }

    /// What an undo of a macro says beside what it took back.
    pub(crate) fn macro_stays(&self, op: u64) -> String {
        match self.history.macros.get(&op) {
            Some(m) if m.messages > 0 => {
                let marks = if m.marks.is_empty() {
                    ""
                } else {
                    "; follow-up and snooze taken back"
                };
                format!("{marks} — the reply and the comment, once sent, stay")
            }
            Some(m) if !m.marks.is_empty() => "; follow-up and snooze taken back".into(),
            _ => String::new(),
        }
    }

    /// The summary of a macro run: per task, every step done, and for a
    /// task that failed, the step by name and what was not done.
    pub(crate) fn macro_summary(&self, name: &str, run: &Run) -> String {
        let mut parts = Vec::new();
        let mut failed = 0;
        for j in &run.jobs {
            let mut done: Vec<String> = j.said.clone();
            done.extend(
                j.sent
                    .iter()
                    .filter(|c| !c.is_message())
                    .map(|c| self.change_words(c)),
            );
            done.extend(j.drafted.iter().cloned());
            let mark_words = |m: &InboxMark| {
                mark_words(m.kind, Timestamp::from_second(m.at).unwrap_or_default())
            };
            match &j.state {
                JobState::Done => {
                    done.extend(j.marks.iter().map(mark_words));
                    parts.push(format!("{}: {}", j.label, done.join(", ")));
                }
                JobState::Queued => {
                    done.extend(j.marks.iter().map(mark_words));
                    parts.push(format!(
                        "{}: {} (fields queued — offline; sent when the service is back: :outbox)",
                        j.label,
                        done.join(", ")
                    ));
                }
                JobState::Failed(e) | JobState::Unknown(e) => {
                    failed += 1;
                    let step = j
                        .changes
                        .get(j.next)
                        .map(|c| c.pending_field())
                        .unwrap_or_default();
                    let mut not: Vec<String> = j
                        .changes
                        .iter()
                        .skip(j.next + 1)
                        .map(|c| c.pending_field())
                        .collect();
                    not.extend(j.marks.iter().map(|m| match m.kind {
                        MarkKind::FollowUp => "follow-up".to_string(),
                        MarkKind::Snooze => "snooze".to_string(),
                    }));
                    let outcome = if matches!(j.state, JobState::Unknown(_)) {
                        "outcome unknown (not sent again)"
                    } else {
                        "failed"
                    };
                    parts.push(format!(
                        "{}: {step} {outcome}: {e} — done: {}; not done: {}",
                        j.label,
                        if done.is_empty() {
                            "nothing".to_string()
                        } else {
                            done.join(", ")
                        },
                        if not.is_empty() {
                            "nothing else".to_string()
                        } else {
                            not.join(", ")
                        }
                    ));
                }
                JobState::Skipped(w) => parts.push(format!("{}: skipped ({w})", j.label)),
                _ => parts.push(format!("{}: not sent", j.label)),
            }
        }
        let head = if failed > 0 {
            format!(
                "macro {name}: {} of {} failed",
                failed,
                plural(run.jobs.len(), "task", "tasks")
            )
        } else {
            format!("macro {name}")
        };
        crate::text::clean(&format!("{head} — {}", parts.join(" · ")))
    }

    /// The macro a key runs, if any (config data, after the keymap).
    pub fn macro_by_key(&self, key: &crate::domain::keymap::Key) -> Option<String> {
        self.macros
            .iter()
            .find(|m| {
                m.key
                    .as_deref()
                    .and_then(|k| crate::domain::keymap::Key::parse(k).ok())
                    .as_ref()
                    == Some(key)
            })
            .map(|m| m.name.clone())
    }
}

/// A follow-up or snooze in words: `follow-up Mon 1 Dec 09:00`.
fn mark_words(kind: MarkKind, at: Timestamp) -> String {
    let shown = crate::domain::dates::local_time(at);
    match kind {
        MarkKind::FollowUp => format!("follow-up {shown}"),
        MarkKind::Snooze => format!("snoozed until {shown}"),
    }
}

/// Per task, per step, what a macro run did.
pub fn macro_outcomes(run: &Run) -> Vec<MacroTask> {
    run.jobs
        .iter()
        .map(|j| {
            let mut steps = Vec::new();
            let stopped = matches!(j.state, JobState::Failed(_) | JobState::Unknown(_));
            for (i, c) in j.changes.iter().enumerate() {
                let step = c.pending_field();
                let (outcome, reason) = if i < j.next {
                    if j.sent.contains(c) {
                        ("done", None)
                    } else if c.is_message() {
                        (
                            "not_sent",
                            Some(
                                "the service could not be reached: kept as the task's draft"
                                    .to_string(),
                            ),
                        )
                    } else {
                        (
                            "queued",
                            Some(
                                "the service could not be reached: waits in the outbox".to_string(),
                            ),
                        )
                    }
                } else if i == j.next && stopped {
                    match &j.state {
                        JobState::Unknown(e) => ("unknown", Some(e.clone())),
                        JobState::Failed(e) => ("failed", Some(e.clone())),
                        _ => ("not_run", None),
                    }
                } else {
                    ("not_run", None)
                };
                let delivery_status = match c {
                    Change::Reply(_) if outcome == "done" => Some(match j.delivery {
                        Some(DeliveryStatus::Sent) => "Sent",
                        Some(DeliveryStatus::Draft) => "DRAFT",
                        _ => "unknown",
                    }),
                    _ => None,
                };
                steps.push(MacroStep {
                    step,
                    outcome,
                    reason,
                    delivery_status,
                });
            }
            let marked = matches!(j.state, JobState::Done | JobState::Queued);
            for m in &j.marks {
                steps.push(MacroStep {
                    step: match m.kind {
                        MarkKind::FollowUp => "follow_up".into(),
                        MarkKind::Snooze => "snooze".into(),
                    },
                    outcome: if marked { "done" } else { "not_run" },
                    reason: None,
                    delivery_status: None,
                });
            }
            MacroTask {
                task: j.label.clone(),
                task_id: j.task_id.clone(),
                steps,
            }
        })
        .collect()
}
