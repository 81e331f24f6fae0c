//! What the state does for `outbox` (its `impl State`): above the state,
//! which holds the data of `super` and never this module.

use super::stored::{from_stored, to_stored};
use super::*;
use crate::app::state::{ApiRequest, ApiResult, Effect, Level, Reply, State};
use crate::store::worker::StoreCmd;
use crate::store::OutboxRow;
use stored::{already_applied, only_its_fields_moved, sharing_holds};

impl State {
    /// The outbox is reading this task before sending an edit of it.
    pub fn outbox_checking(&self, id: &str) -> bool {
        self.outbox
            .iter()
            .any(|i| i.task_id == id && matches!(i.state, OutState::Checking(_)))
    }
    /// A queueable edit made while offline (or whose connection failed):
    /// into the outbox. Its pending marks stay until it is sent.
    ///
    /// `made`: the version of the task shown when the edit was made, and
    /// the task as then seen (`State::edit_bases`, recorded when the
    /// request was made): the check before sending compares with it,
    /// never with a copy that arrived since; both are kept in the store.
    /// `quiet`: a bulk edit says it in its summary.
    pub(crate) fn queue_write(
        &mut self,
        ticket: u64,
        req: ApiRequest,
        unknown: bool,
        made: Option<Made>,
        quiet: bool,
    ) {
        let Some((label, what)) = self.enqueue(ticket, req, unknown, made) else {
            return;
        };
        // The service could not be reached: it may act as someone else
        // for this key when it answers again (asked before sending).
        self.owner.recheck = true;
        self.owner.asked = false;
        if quiet {
            return;
        }
        let n = self.outbox.len();
        // Not kept comes first: the line may be cut at the screen's edge.
        let text = match (unknown, self.not_kept_why()) {
            (true, None) => format!("{label}: {what}: the connection was lost — outcome unknown; reading the task back: sent again only if it did not arrive ({n} in the outbox, :outbox)"),
            (false, None) => format!("{label}: {what} queued — offline; sent when the service is back ({n} in the outbox, :outbox)"),
            (false, Some(why)) => format!("{label}: {what} NOT KEPT ({why}): queued in memory only, sent if the service is back before you quit ({n} in the outbox, :outbox)"),
            (true, Some(why)) => format!("{label}: {what} NOT KEPT ({why}): the connection was lost — outcome unknown; reading the task back: sent again only if it did not arrive ({n} in the outbox, :outbox)"),
        };
        self.say(Level::Warn, text);
    }

    /// Into the outbox and the store (`queue_write`, `hold_write`): the
    /// task's label and the edit in words, `None` when it is not an edit
    /// the outbox can hold.
    pub(crate) fn enqueue(
        &mut self,
        ticket: u64,
        req: ApiRequest,
        unknown: bool,
        made: Option<Made>,
    ) -> Option<(String, String)> {
        // Only an edit the store can hold is queued.
        to_stored(&req)?;
        let id = match &req {
            ApiRequest::Patch { id, .. }
            | ApiRequest::PutSharing { id, .. }
            | ApiRequest::UpdateLink { id, .. }
            | ApiRequest::RemoveLink { id, .. }
            | ApiRequest::Detach { id, .. } => id.clone(),
            _ => return None,
        };
        let fields: Vec<String> = self
            .pending
            .iter()
            .filter(|p| p.ticket == ticket)
            .map(|p| p.words())
            .collect();
        let what = crate::text::clean(&if fields.is_empty() {
            req.describe()
        } else {
            fields.join(", ")
        });
        let label = self.label_of(&id);
        // Not a write this session recorded: what is shown now.
        let made = made.unwrap_or_else(|| Made {
            version: self.shown_version(&id),
            saw: self
                .known_copy(&id)
                .or_else(|| self.current_task().filter(|t| t.id == id))
                .cloned()
                .map(Box::new),
        });
        let (base, saw) = (made.version, made.saw);
        let seq = next_seq(
            self.outbox.iter().map(|i| i.seq).max().unwrap_or(0),
            self.outbox_seq,
            crate::store::now_secs(),
        );
        self.outbox_seq = seq;
        let created_at = crate::store::now_secs();
        let item = OutItem {
            seq,
            task_id: id,
            label: label.clone(),
            what: what.clone(),
            req,
            base_updated_at: base,
            created_at,
            state: OutState::Queued,
            unknown,
            left_in_flight: false,
            pending_ticket: Some(ticket),
            user_id: self.edit_owner(),
            kept: match self.not_kept_why() {
                None => Kept::Writing,
                Some(why) => Kept::Not(why.into()),
            },
            checked: None,
            three: Vec::new(),
            saw,
        };
        if let Some(cmd) = item.store_cmd() {
            self.local.store(cmd);
        }
        self.outbox.push(item);
        Some((label, what))
    }

    /// Why an edit queued now is not kept (`None`: the store keeps it):
    /// no store, or one opened read-only (issue 42, point 11).
    pub(crate) fn not_kept_why(&self) -> Option<&'static str> {
        if !self.local.on {
            Some(NO_STORE)
        } else if self.local.read_only.is_some() {
            Some(READ_ONLY)
        } else {
            None
        }
    }

    pub(crate) fn outbox_from_store(&mut self, rows: Vec<OutboxRow>) {
        for r in rows {
            if self.outbox.iter().any(|i| i.seq == r.seq) {
                continue;
            }
            let Some(req) = from_stored(&r.request) else {
                self.say(
                    Level::Warn,
                    format!(
                        "an outbox entry ({} {}) is not readable by this taskdeck: left in the store",
                        r.label, r.what
                    ),
                );
                continue;
            };
            // The task as seen when the edit was made, kept with it; a row
            // of an older store (none kept): the stored copy now.
            let saw = r
                .saw
                .as_deref()
                .and_then(|j| serde_json::from_str::<Task>(j).ok())
                .map(Box::new)
                .or_else(|| self.known_copy(&r.task_id).cloned().map(Box::new));
            self.outbox.push(OutItem {
                seq: r.seq,
                task_id: r.task_id,
                label: r.label,
                what: r.what,
                req,
                base_updated_at: r.base_updated_at,
                created_at: r.created_at,
                state: OutState::Queued,
                // Sent before a crash or not, it is checked first anyway.
                unknown: true,
                left_in_flight: false,
                pending_ticket: None,
                user_id: r.user_id,
                kept: Kept::Kept,
                checked: None,
                three: Vec::new(),
                saw,
            });
        }
    }

    /// Send the next queued edit (one at a time, in order; an edit waiting
    /// for the user holds back the later ones of its task only).
    pub fn outbox_pump(&mut self) -> Vec<Effect> {
        // Only with the identity confirmed: this session's `GET /me` named
        // the user whose store holds the edits (a queued edit is sent with
        // a key of the user who made it, never another's).
        let confirmed = self
            .me
            .as_ref()
            .is_some_and(|me| self.local.user.as_ref().is_none_or(|u| *u == me.user_id));
        if self.owner.recheck && confirmed && self.offline.is_none() && !self.outbox.is_empty() {
            // An edit could not go out: who the key acts as is asked again
            // before anything queued is sent.
            // Asked already, or being answered now (the probe's answer
            // brings the service back before it names the user).
            let describe = ApiRequest::Me.describe();
            if self.owner.asked || self.inflight.values().any(|(w, _)| *w == describe) {
                return vec![];
            }
            self.owner.asked = true;
            return vec![self.request(ApiRequest::Me)];
        }
        if !confirmed
            || self.owner.recheck
            || self.offline.is_some()
            || self
                .outbox
                .iter()
                .any(|i| matches!(i.state, OutState::Checking(_) | OutState::Sending(_)))
        {
            return vec![];
        }
        let waiting: Vec<String> = self
            .outbox
            .iter()
            .filter(|i| matches!(i.state, OutState::Waiting(_)))
            .map(|i| i.task_id.clone())
            .collect();
        self.drop_other_users_edits();
        let Some(i) = self
            .outbox
            .iter()
            .position(|i| i.state == OutState::Queued && !waiting.contains(&i.task_id))
        else {
            return vec![];
        };
        let id = self.outbox[i].task_id.clone();
        let fx = self.request(ApiRequest::GetTask { id });
        if let Effect::Api { ticket, .. } = &fx {
            self.outbox[i].state = OutState::Checking(*ticket);
        }
        vec![fx]
    }

    /// The outbox's own answers (its checks and sends), and queueable
    /// edits that could not go out. Returns whether the answer was fully
    /// handled here (else it is applied as any other), what to send, and
    /// what to say once the answer is applied.
    pub(crate) fn outbox_answer(&mut self, r: &ApiResult) -> Outboxed {
        let ticket = r.ticket;
        let base = self.take_edit_base(r);
        // A queueable edit that could not go out (or lost its connection).
        let lost = match &r.result {
            Err(e) if e.unreachable() => Some(false),
            Err(ApiError::Network { .. }) => Some(true),
            _ => None,
        };
        let from_outbox = self.outbox.iter().any(
            |i| matches!(i.state, OutState::Checking(t) | OutState::Sending(t) if t == ticket),
        );
        if let (Some(unknown), false) = (lost, from_outbox) {
            if queueable(&r.req) && !self.sending.contains_key(&ticket) {
                self.inflight.remove(&ticket);
                self.queue_write(ticket, r.req.clone(), unknown, base, false);
                return Outboxed::handled(if unknown { self.outbox_pump() } else { vec![] });
            }
        }
        let Some(i) = self.outbox.iter().position(
            |i| matches!(i.state, OutState::Checking(t) | OutState::Sending(t) if t == ticket),
        ) else {
            return Outboxed::pass();
        };
        match (&self.outbox[i].state, &r.result) {
            (OutState::Checking(_), Ok(Reply::Task(t))) => {
                let item = &self.outbox[i];
                // An edit whose version is not known (the task was not
                // shown with one) cannot be told from someone else's
                // change: it waits for the user rather than overwrite.
                let moved = match (&item.base_updated_at, &t.updated_at) {
                    // The same instant written otherwise (the task read
                    // alone, the row listed) has not moved.
                    (Some(base), Some(now)) => !super::super::freshness::same_version(
                        Some(base.as_str()),
                        Some(now.as_str()),
                    ),
                    (None, _) => true,
                    (Some(_), None) => false,
                };
                if item.unknown && already_applied(&item.req, t) {
                    let mut item = self.outbox_reached(i);
                    // It had landed: the task read is its answer. The
                    // edits of the task chained behind it (made against
                    // the same version, before its answer: two quick
                    // edits, then a quit) are checked against it — unless
                    // the task moved otherwise than by this edit's fields
                    // since the user saw it (someone else's change holds
                    // them).
                    if only_its_fields_moved(&item.req, item.saw.as_deref(), t) {
                        item.checked = item.base_updated_at.clone();
                        self.rebase_after(&item, t.updated_at.as_deref());
                    }
                    self.inflight.remove(&ticket);
                    self.replace_task((**t).clone(), ticket);
                    return Outboxed::handled(self.outbox_pump());
                }
                // A sharing change that may have landed (sent before a
                // crash whose removal the store could not write, or its
                // connection lost): the task's version tells nothing of it
                // (a service need not move `updated_at` for sharing, and
                // someone else may have moved it since), so the sharing
                // itself is read first; the edit is dropped if it holds
                // already, else checked again as one that did not land
                // (simulator seed 14789920118052397930: sent again after
                // its success was heard).
                if let (true, ApiRequest::PutSharing { id, .. }) = (item.unknown, &item.req) {
                    let read = self.request(ApiRequest::SharingForEdit { id: id.clone() });
                    if let Effect::Api { ticket: t2, .. } = &read {
                        self.outbox[i].state = OutState::Checking(*t2);
                    }
                    self.inflight.remove(&ticket);
                    self.replace_task((**t).clone(), ticket);
                    return Outboxed::handled(vec![read]);
                }
                if moved {
                    let why = if item.base_updated_at.is_some() {
                        format!(
                            "{} changed on the service since this edit was made",
                            item.label
                        )
                    } else {
                        format!(
                            "the version of {} this edit was made against is not known",
                            item.label
                        )
                    };
                    if let ApiRequest::Patch { patch, .. } = &self.outbox[i].req {
                        let saw = self.outbox[i].saw.as_deref();
                        let three = self.three_way(patch, saw, t);
                        self.outbox[i].three = three;
                    }
                    self.outbox[i].state = OutState::Waiting(why.clone());
                    self.say(
                        Level::Warn,
                        format!(
                            "{why}: {} waits for you (:outbox, enter: yours and theirs side by side)",
                            self.outbox[i].what
                        ),
                    );
                    // The read itself is applied as any other.
                    return Outboxed::pass();
                }
                // The key may act as someone else since the check went
                // out: only the user who made it sends it.
                if !self.may_send(&self.outbox[i]) {
                    self.outbox[i].state = OutState::Queued;
                    return Outboxed::pass();
                }
                // Accepted: the version the edit was made against (or our
                // previous edit's answer).
                self.outbox[i].checked = t.updated_at.as_deref().map(str::to_string);
                let fx = self.outbox_send(i);
                // Apply the read too, then send.
                let mut all = vec![fx];
                self.inflight.remove(&ticket);
                self.replace_task((**t).clone(), ticket);
                all.extend(self.outbox_pump());
                Outboxed::handled(all)
            }
            (OutState::Checking(_), Ok(Reply::Sharing(now))) => {
                let holds = match &self.outbox[i].req {
                    ApiRequest::PutSharing { update, .. } => sharing_holds(update, now),
                    _ => false,
                };
                self.inflight.remove(&ticket);
                if !holds {
                    // It did not land: checked again as any other edit
                    // (the task's version, then sent or held for the user).
                    self.outbox[i].unknown = false;
                    self.outbox[i].state = OutState::Queued;
                    return Outboxed::handled(self.outbox_pump());
                }
                self.outbox_reached(i);
                Outboxed::handled(self.outbox_pump())
            }
            (OutState::Checking(_), Err(e)) => {
                if e.unreachable()
                    || matches!(e, ApiError::Network { .. } | ApiError::Timeout { .. })
                {
                    self.outbox[i].state = OutState::Queued;
                    return Outboxed::pass();
                }
                let label = &self.outbox[i].label;
                let why = match e {
                    // Deleted, or its sharing changed: said as such (#32 §12).
                    ApiError::NotFound { .. } | ApiError::Forbidden { .. } => format!(
                        "{}: the service no longer shows {label} to you ({e})",
                        crate::domain::words::ACCESS_LOST
                    ),
                    _ => format!("reading {label} before sending failed: {e}"),
                };
                self.outbox[i].state = OutState::Waiting(why);
                Outboxed::pass()
            }
            (OutState::Checking(_), Ok(_)) => {
                self.outbox[i].state = OutState::Waiting("unexpected answer".into());
                Outboxed::pass()
            }
            (OutState::Sending(_), Ok(reply)) => {
                let item = self.outbox.remove(i);
                self.outbox_forget_stored(&item);
                if let Reply::Task(t) = reply {
                    self.rebase_after(&item, t.updated_at.as_deref());
                }
                let left = self.outbox.len();
                let note = Some((
                    Level::Success,
                    format!(
                        "{}: {} — sent from the outbox{}",
                        item.label,
                        item.what,
                        if left > 0 {
                            format!(" ({left} left)")
                        } else {
                            String::new()
                        }
                    ),
                ));
                // The answer is applied as any other (after this).
                Outboxed {
                    handled: false,
                    fx: self.outbox_pump(),
                    note,
                }
            }
            (OutState::Sending(_), Err(e)) if e.unreachable() => {
                self.outbox[i].state = OutState::Queued;
                self.inflight.remove(&ticket);
                Outboxed::handled(vec![])
            }
            // Never reached the service, and not the edit's fault: a
            // certificate or a proxy refused the connection, or the key was
            // refused. The edit stays, waiting for the user (`:outbox`
            // sends it again once that is mended), instead of being dropped
            // as if the service had refused it.
            (OutState::Sending(_), Err(e)) if e.is_setup() || e.is_auth() => {
                let why = format!("could not be sent: {e}");
                self.outbox[i].state = OutState::Waiting(why);
                self.inflight.remove(&ticket);
                Outboxed::pass()
            }
            (OutState::Sending(_), Err(e)) if e.outcome_unknown() => {
                self.outbox[i].unknown = true;
                self.outbox[i].state =
                    OutState::Waiting(format!("sending failed: {e} — outcome unknown"));
                Outboxed::pass()
            }
            (OutState::Sending(_), Err(e)) => {
                let item = self.outbox.remove(i);
                self.outbox_forget_stored(&item);
                tracing::info!(error = %e, "queued edit refused");
                let note = Some((
                    Level::Error,
                    format!(
                        "{}: {} from the outbox was refused: {e}",
                        item.label, item.what
                    ),
                ));
                Outboxed {
                    handled: false,
                    fx: self.outbox_pump(),
                    note,
                }
            }
            (OutState::Queued | OutState::Waiting(_), _) => Outboxed::pass(),
        }
    }

    /// Queued edit `i` had reached the service (its check found it
    /// applied): it leaves the outbox and the store, its pending mark
    /// goes, and the status line says it was not sent again.
    fn outbox_reached(&mut self, i: usize) -> OutItem {
        let item = self.outbox.remove(i);
        self.outbox_forget_stored(&item);
        if let Some(pt) = item.pending_ticket {
            self.pending.retain(|p| p.ticket != pt);
        }
        self.say(
            Level::Success,
            format!(
                "{}: {} — it had reached the service (not sent again)",
                item.label, item.what
            ),
        );
        item
    }

    /// Send queued edit `i`, its pending mark following the request.
    fn outbox_send(&mut self, i: usize) -> Effect {
        let req = self.outbox[i].req.clone();
        let fx = self.request(req);
        if let Effect::Api { ticket: t2, .. } = &fx {
            self.outbox[i].state = OutState::Sending(*t2);
            if let Some(pt) = self.outbox[i].pending_ticket {
                for p in self.pending.iter_mut().filter(|p| p.ticket == pt) {
                    p.ticket = *t2;
                }
            }
        }
        fx
    }

    /// `:outbox` — cancel one (`x`) or send one that waits (`enter`).
    pub fn outbox_cancel(&mut self, seq: i64) {
        if let Some(i) = self.outbox.iter().position(|i| i.seq == seq) {
            if matches!(self.outbox[i].state, OutState::Sending(_)) {
                self.say(
                    Level::Warn,
                    "already being sent: it cannot be cancelled now",
                );
                return;
            }
            let item = self.outbox.remove(i);
            if !matches!(item.kept, Kept::Not(_)) {
                // The store holds it (or is writing it): the cancel goes
                // to the store's thread even when the store failed (it is
                // tried, else marked beside the store) and is answered;
                // until then it could come back at the next start.
                self.local.out.push(StoreCmd::OutboxCancel(item.seq));
                self.cancels.push(Cancel {
                    seq: item.seq,
                    label: item.label.clone(),
                    what: item.what.clone(),
                    not_kept: None,
                });
            }
            if let Some(pt) = item.pending_ticket {
                self.pending.retain(|p| p.ticket != pt);
            }
            self.say(
                Level::Info,
                format!("{}: {} cancelled (not sent)", item.label, item.what),
            );
        }
    }

    pub fn outbox_send_anyway(&mut self, seq: i64) -> Vec<Effect> {
        let Some(i) = self.outbox.iter().position(|i| i.seq == seq) else {
            return vec![];
        };
        if !matches!(self.outbox[i].state, OutState::Waiting(_)) {
            return self.outbox_pump();
        }
        if self.offline.is_some() {
            self.say(Level::Warn, "offline: it is sent once the service is back");
            self.outbox[i].state = OutState::Queued;
            return vec![];
        }
        // Sent over a change by someone else: the next edits of the task
        // are not checked against its answer (they were not accepted
        // over that change).
        self.outbox[i].checked = None;
        let req = self.outbox[i].req.clone();
        let fx = self.request(req);
        if let Effect::Api { ticket, .. } = &fx {
            self.outbox[i].state = OutState::Sending(*ticket);
        }
        vec![fx]
    }
}

/// The place in the queue of an edit queued now: after every edit queued
/// (`queued`, the highest in the outbox), after every place given in this
/// run (`given`: an edit cancelled or sent is no longer in the outbox,
/// and its number — named by a cancel marked beside the store — is never
/// given to another edit), and after the time (a later run's places come
/// after this one's).
pub(crate) fn next_seq(queued: i64, given: i64, now_secs: i64) -> i64 {
    queued.max(given).max(now_secs * 1000) + 1
}
