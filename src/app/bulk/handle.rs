//! What the state does for `bulk` (its `impl State`): above the state,
//! which holds the data of `super` and never this module.

use super::super::state::{ApiRequest, ApiResult, Effect, Level, Pending, Reply, State};
use super::*;
use crate::app::edit::changes::{apply_tags, changed_since, share_update, tag_list, Change};
use std::collections::HashSet;

impl State {
    /// Start the run the confirmation was about.
    pub fn start_run(&mut self, id: u64) -> Vec<Effect> {
        let Some(mut run) = self.engine.prepared.take_if(|r| r.id == id) else {
            self.say(Level::Warn, "that edit is no longer waiting to be sent");
            return vec![];
        };
        run.phase = Phase::Applying;
        run.started = crate::clock::instant();
        for j in &mut run.jobs {
            if j.state == JobState::Checked {
                j.state = JobState::Waiting;
            }
            if run.from_marks {
                self.marks.failed.remove(&j.task_id);
            }
        }
        self.engine.runs.push(run);
        let mut fx = self.pump();
        if let Some(ri) = self.engine.runs.iter().position(|r| r.id == id) {
            fx.extend(self.settle(ri));
        }
        fx
    }

    /// Send what the limit allows: the next change of each waiting job, one
    /// request per task at a time.
    pub fn pump(&mut self) -> Vec<Effect> {
        let mut fx = Vec::new();
        while self.engine.in_flight() < self.engine.limit {
            let Some((ri, ji)) = self.next_job() else {
                break;
            };
            if let Some(why) = self.cannot_send(ri, ji) {
                // Said in the summary; the run ends when its last job does.
                self.engine.runs[ri].jobs[ji].state = JobState::Failed(why);
                if self.engine.runs[ri].jobs.iter().all(|j| j.state.finished()) {
                    fx.extend(self.finish(ri));
                }
                continue;
            }
            fx.push(self.issue(ri, ji));
        }
        fx
    }

    /// A change that would be computed from a task this session does not
    /// hold (tags added and removed need the tags as they are): refused.
    fn cannot_send(&self, ri: usize, ji: usize) -> Option<String> {
        let run = &self.engine.runs[ri];
        let job = &run.jobs[ji];
        let needs_task = run.phase == Phase::Applying
            && matches!(job.changes.get(job.next), Some(Change::Tags { .. }));
        // A copy whose tags a listing's row cut (issue 42 §2) is no ground
        // for a new tag list: the tags cut off would be removed.
        let whole = |t: &Task| !crate::app::edit::task::is_cut(t, "tags");
        let known = job.latest.as_ref().is_some_and(whole)
            || job.before.as_ref().is_some_and(whole)
            || (job.latest.is_none()
                && job.before.is_none()
                && self.best_copy(&job.task_id).as_ref().is_some_and(whole));
        (needs_task && !known).then(|| {
            "its tags are not known whole here (it could not be read, or the list cut them): nothing sent"
                .into()
        })
    }

    fn next_job(&self) -> Option<(usize, usize)> {
        let busy: HashSet<&str> = self
            .engine
            .runs
            .iter()
            .flat_map(|r| r.jobs.iter())
            .filter(|j| j.state == JobState::InFlight)
            .map(|j| j.task_id.as_str())
            .collect();
        self.engine.runs.iter().enumerate().find_map(|(ri, run)| {
            run.jobs
                .iter()
                .position(|j| {
                    let ready = match run.phase {
                        Phase::Checking => j.state == JobState::Waiting,
                        Phase::Applying => {
                            matches!(j.state, JobState::Waiting | JobState::Checked)
                                && j.next < j.changes.len()
                        }
                    };
                    ready && !busy.contains(j.task_id.as_str())
                })
                .map(|ji| (ri, ji))
        })
    }

    /// The next request of job `ji` of run `ri`.
    fn issue(&mut self, ri: usize, ji: usize) -> Effect {
        let phase = self.engine.runs[ri].phase;
        let id = self.engine.runs[ri].jobs[ji].task_id.clone();
        if phase == Phase::Applying && self.engine.runs[ri].jobs[ji].before.is_none() {
            let known = self.engine.runs[ri].jobs[ji]
                .latest
                .clone()
                .or_else(|| self.best_copy(&id));
            let job = &mut self.engine.runs[ri].jobs[ji];
            job.before = known.clone();
            job.latest = known;
        }
        let job = &self.engine.runs[ri].jobs[ji];
        let mut pending = None;
        let req = match phase {
            Phase::Checking => ApiRequest::GetTask { id: id.clone() },
            Phase::Applying => {
                let change = job.changes[job.next].clone();
                let words = self.change_words(&change);
                pending = Some((change.pending_field(), pending_value(&change, words)));
                match (&change, job.step) {
                    (Change::Share(_), Step::Send | Step::ReadSharing) => {
                        pending = None;
                        ApiRequest::SharingForEdit { id: id.clone() }
                    }
                    (Change::Share(d), Step::PutSharing) => ApiRequest::PutSharing {
                        id: id.clone(),
                        update: share_update(
                            job.sharing_now.as_ref().unwrap_or(&Default::default()),
                            d,
                        ),
                    },
                    (_, Step::ReadBack) => {
                        pending = None;
                        ApiRequest::GetTask { id: id.clone() }
                    }
                    (Change::Patch(p), _) => ApiRequest::Patch {
                        id: id.clone(),
                        patch: p.clone(),
                    },
                    (Change::Tags { add, remove }, _) => {
                        let current = job
                            .latest
                            .as_ref()
                            .or(job.before.as_ref())
                            .map(tag_list)
                            .unwrap_or_default();
                        let tags = apply_tags(&current, add, remove);
                        pending = Some(("tags".into(), tags.join(", ")));
                        ApiRequest::Patch {
                            id: id.clone(),
                            patch: TaskPatch {
                                tags: Some(tags),
                                ..Default::default()
                            },
                        }
                    }
                    (Change::AddLinks(links), _) => ApiRequest::AddLinks {
                        id: id.clone(),
                        links: links.clone(),
                    },
                    (Change::RemoveLink(kind, item), _) => ApiRequest::RemoveLink {
                        id: id.clone(),
                        kind: kind.clone(),
                        item: item.clone(),
                    },
                    (Change::UpdateLink(kind, item, update), _) => ApiRequest::UpdateLink {
                        id: id.clone(),
                        kind: kind.clone(),
                        item: item.clone(),
                        update: update.clone(),
                    },
                    (Change::Attach(file_ids), _) => ApiRequest::Attach {
                        id: id.clone(),
                        file_ids: file_ids.clone(),
                    },
                    (Change::Detach(file_id), _) => ApiRequest::Detach {
                        id: id.clone(),
                        file_id: file_id.clone(),
                    },
                    // A macro's messages: the paths of `:reply` and `:comment`.
                    (Change::Reply(text), _) => {
                        pending = None;
                        ApiRequest::ReplyRequester {
                            id: id.clone(),
                            content: text.clone(),
                            file_ids: vec![],
                        }
                    }
                    (Change::Comment(text), _) => {
                        pending = None;
                        ApiRequest::AddComment {
                            id: id.clone(),
                            content: text.clone(),
                            file_ids: vec![],
                        }
                    }
                }
            }
        };
        let fx = self.request(req);
        let Effect::Api { ticket, .. } = &fx else {
            return fx;
        };
        let ticket = *ticket;
        // The engine records this write's outcome itself.
        self.history.forget_sent(ticket);
        if let Some((field, value)) = pending {
            self.pending.push(Pending {
                ticket,
                task_id: id,
                field,
                value,
            });
        }
        let run = &mut self.engine.runs[ri];
        run.jobs[ji].state = JobState::InFlight;
        self.engine.tickets.insert(ticket, (run.id, ji));
        let n = run.in_flight();
        run.max_in_flight = run.max_in_flight.max(n);
        fx
    }

    /// An answer to one of the engine's requests (`Engine::owns`).
    pub fn engine_answer(&mut self, r: ApiResult) -> Vec<Effect> {
        let base = self.take_edit_base(&r);
        let Some((run_id, ji)) = self.engine.tickets.remove(&r.ticket) else {
            return vec![];
        };
        self.inflight.remove(&r.ticket);
        let Some(ri) = self.engine.runs.iter().position(|x| x.id == run_id) else {
            self.pending.retain(|p| p.ticket != r.ticket);
            return vec![];
        };
        let run = &self.engine.runs[ri];
        let offline = matches!(&r.result, Err(e) if e.unreachable());
        if offline
            && run.kind == RunKind::Apply
            && run.phase == Phase::Applying
            && crate::app::local::outbox::queueable(&r.req)
        {
            // Queued like a single edit (its pending mark stays until it is
            // sent); the summary says which tasks wait in the outbox. One
            // the store cannot keep is said at once, as a single edit is:
            // it is lost if the user quits before the run ends.
            let quiet = self.not_kept_why().is_none();
            self.queue_write(r.ticket, r.req.clone(), false, base, quiet);
            return self.job_queued(ri, ji);
        }
        if offline && run.kind == RunKind::Apply && run.phase == Phase::Applying {
            if let Some(said) = self.macro_message_offline(ri, ji, &r.req) {
                // A reply or comment is never queued (a POST lost after the
                // service applied it would be posted twice): kept as the
                // task's draft, said not sent; the later steps go on (the
                // fields to the outbox).
                self.pending.retain(|p| p.ticket != r.ticket);
                let job = &mut self.engine.runs[ri].jobs[ji];
                job.drafted.push(said);
                job.next += 1;
                job.step = Step::Send;
                job.state = if job.next < job.changes.len() {
                    JobState::Waiting
                } else if job.queued {
                    JobState::Queued
                } else {
                    JobState::Done
                };
                let mut fx = self.settle(ri);
                fx.extend(self.pump());
                return fx;
            }
        }
        self.pending.retain(|p| p.ticket != r.ticket);
        let mut fx = match self.engine.runs[ri].phase {
            Phase::Checking => {
                self.checked(ri, ji, r);
                vec![]
            }
            Phase::Applying => self.applied(ri, ji, r),
        };
        fx.extend(self.settle(ri));
        fx.extend(self.pump());
        fx
    }

    /// Job `ji` of run `ri` left its change in the outbox: its next
    /// change (or the run's end) follows.
    fn job_queued(&mut self, ri: usize, ji: usize) -> Vec<Effect> {
        let job = &mut self.engine.runs[ri].jobs[ji];
        job.queued = true;
        job.next += 1;
        job.step = Step::Send;
        job.state = if job.next >= job.changes.len() {
            JobState::Queued
        } else {
            JobState::Waiting
        };
        let mut fx = self.settle(ri);
        fx.extend(self.pump());
        fx
    }

    /// One of the engine's writes is of a task whose older edits wait in
    /// the outbox (`State::send_or_hold`): an edit of many tasks joins
    /// them, as it would offline, and its summary says why (`behind`).
    /// Undo and redo go out: they are checked against the task read back,
    /// and say what they found. `None`: it is sent.
    pub(crate) fn engine_held(
        &mut self,
        ticket: u64,
        req: &ApiRequest,
        why: String,
    ) -> Option<Vec<Effect>> {
        let (run_id, ji) = *self.engine.tickets.get(&ticket)?;
        let ri = self.engine.runs.iter().position(|x| x.id == run_id)?;
        let run = &self.engine.runs[ri];
        if run.kind != RunKind::Apply || run.phase != Phase::Applying {
            return None;
        }
        self.engine.tickets.remove(&ticket);
        self.hold(ticket, req, &why, true)?;
        self.engine.runs[ri].jobs[ji].behind = Some(why);
        Some(self.job_queued(ri, ji))
    }

    /// Undo/redo: a task read back (or not: then the copy shown decides).
    fn checked(&mut self, ri: usize, ji: usize, r: ApiResult) {
        let id = self.engine.runs[ri].jobs[ji].task_id.clone();
        let current = match r.result {
            Ok(Reply::Task(t)) => {
                self.replace_task((*t).clone(), r.ticket);
                Some(*t)
            }
            Ok(_) => self.best_copy(&id),
            Err(e) => {
                tracing::info!(error = %e, "reading a task back before undo failed; the copy shown decides");
                self.best_copy(&id)
            }
        };
        let job = &mut self.engine.runs[ri].jobs[ji];
        job.changed = current
            .as_ref()
            .and_then(|c| changed_since(&job.changes, job.expect.as_deref(), job.ours.as_ref(), c));
        job.latest = current;
        job.state = JobState::Checked;
    }

    /// `:share team NAME` sent the name as typed and the service found
    /// several (its 400 lists them): the picker asks which, and the
    /// command runs again with the id chosen (#32 §3).
    fn share_name_refused(
        &mut self,
        change: Option<Change>,
        e: &crate::api::ApiError,
    ) -> Vec<Effect> {
        let Some(Change::Share(d)) = change else {
            return vec![];
        };
        let candidates = e
            .bad_request_body()
            .map(crate::app::popups::sharing::candidates_in)
            .unwrap_or_default();
        let typed = d
            .teams
            .iter()
            .map(|x| (true, x))
            .chain(d.users.iter().map(|x| (false, x)))
            .find(|(_, (r, a))| a.is_some() && uuid::Uuid::parse_str(r).is_err());
        match (typed, candidates.is_empty()) {
            (Some((team, (r, Some(a)))), false) => {
                let kind = if team { "team" } else { "add" };
                let template = format!("share {kind} {{}} {}", a.as_wire());
                self.pick(&r.clone(), team, candidates, template)
            }
            _ => vec![],
        }
    }

    fn applied(&mut self, ri: usize, ji: usize, r: ApiResult) -> Vec<Effect> {
        let mut fx = Vec::new();
        let (id, label, step) = {
            let j = &self.engine.runs[ri].jobs[ji];
            (j.task_id.clone(), j.label.clone(), j.step)
        };
        match r.result {
            Ok(Reply::Task(t)) => {
                fx.extend(self.write_answered((*t).clone(), r.ticket));
                self.history.wrote(&t);
                let job = &mut self.engine.runs[ri].jobs[ji];
                if step != Step::ReadBack {
                    job.sent.push(job.changes[job.next].clone());
                }
                job.latest = Some(*t);
                job.next += 1;
                job.step = Step::Send;
            }
            Ok(Reply::Sharing(s)) => {
                self.directory.learn_sharing(&s, Some(&label));
                let job = &mut self.engine.runs[ri].jobs[ji];
                if matches!(r.req, ApiRequest::PutSharing { .. }) {
                    job.sent.push(job.changes[job.next].clone());
                    job.sharing_after = Some(s);
                    job.step = Step::ReadBack;
                    // Its version is known once the task is read back.
                    self.history.ours.insert(id.clone(), None);
                } else {
                    if job.sharing_before.is_none() {
                        job.sharing_before = Some(s.clone());
                    }
                    job.sharing_now = Some(s);
                    job.step = Step::PutSharing;
                }
            }
            // A macro's reply: its delivery as the service says it.
            Ok(Reply::Message(m)) => {
                let job = &mut self.engine.runs[ri].jobs[ji];
                job.delivery = m.delivery_status.clone();
                job.said
                    .push(crate::domain::words::reply_said(m.delivery_status.as_ref()));
                job.sent.push(job.changes[job.next].clone());
                job.next += 1;
                self.replies.entry(id).or_default().push(m);
            }
            Ok(Reply::Comment(_)) => {
                let job = &mut self.engine.runs[ri].jobs[ji];
                job.said.push("comment added".into());
                job.sent.push(job.changes[job.next].clone());
                job.next += 1;
                if self.detail.as_ref().is_some_and(|d| d.task_id == id) {
                    fx.push(self.request(ApiRequest::Comments { id }));
                }
            }
            Err(_) if step == Step::ReadBack => {
                // The change is made; only its version stays unknown.
                let job = &mut self.engine.runs[ri].jobs[ji];
                job.next += 1;
                job.step = Step::Send;
            }
            Err(e) => {
                let job = &mut self.engine.runs[ri].jobs[ji];
                if e.outcome_unknown() {
                    job.state = JobState::Unknown(e.to_string());
                    // Never resent: read back so the screen shows what the
                    // service has.
                    fx.push(self.request(ApiRequest::GetTask { id }));
                } else {
                    job.state = JobState::Failed(e.to_string());
                    let change = job.changes.get(job.next).cloned();
                    if !self.engine.runs[ri].from_marks {
                        fx.extend(self.share_name_refused(change, &e));
                    }
                }
                return fx;
            }
            Ok(_) => {
                self.engine.runs[ri].jobs[ji].state =
                    JobState::Failed("the service answered something unexpected".into());
                return fx;
            }
        }
        let job = &mut self.engine.runs[ri].jobs[ji];
        job.state = if job.next >= job.changes.len() && job.queued {
            JobState::Queued
        } else if job.next >= job.changes.len() {
            JobState::Done
        } else {
            JobState::Waiting
        };
        fx
    }
}
