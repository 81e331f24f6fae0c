//! What quitting leaves to say: sends and other changes still in flight
//! (their outcome unknown), those never sent (stopped while they waited
//! for an earlier change of their task: kept in the outbox, or NOT KEPT),
//! and where unsent text was kept.

use crate::app::local::outbox::{self, OutState};
use crate::app::state::drafts;
use crate::app::state::{self, Effect, State};

impl State {
    /// `q` / `:quit`: the loop saves the drafts and leaves.
    pub fn quit_now(&mut self) -> Vec<Effect> {
        self.quit = true;
        vec![Effect::Quit]
    }
}

/// Writes sent and not answered yet, by ticket, in words ("#12 status →
/// completed"): what quitting leaves in doubt.
#[derive(Debug, Default)]
pub struct WritesInFlight(
    std::collections::BTreeMap<u64, String>,
    /// The edits among them the outbox can hold, as sent, with the user
    /// they were made as (`State::edit_owner` when sent): kept at the end
    /// (`State::keep_writes_in_flight`), only for that user.
    std::collections::BTreeMap<u64, (state::ApiRequest, Option<String>)>,
    /// Those that never went out: the session ended while they waited for
    /// an earlier write of their task (the worker stopped them). Not in
    /// doubt: not sent.
    std::collections::BTreeSet<u64>,
);

impl WritesInFlight {
    /// A request goes out (reads are not tracked).
    pub fn started(&mut self, ticket: u64, req: &state::ApiRequest, state: &State) {
        if let Some(what) = describe_write(ticket, req, state) {
            self.0.insert(ticket, what);
            if outbox::queueable(req) {
                self.1.insert(ticket, (req.clone(), state.edit_owner()));
            }
        }
    }

    pub fn answered(&mut self, ticket: u64) {
        self.0.remove(&ticket);
        self.1.remove(&ticket);
        self.2.remove(&ticket);
    }

    /// The session ended and the worker stopped these before they went
    /// out (`tui::worker::Worker::stop_unsent`): never sent.
    pub fn never_sent(&mut self, tickets: &[u64]) {
        self.2
            .extend(tickets.iter().filter(|t| self.0.contains_key(t)).copied());
    }

    /// Whether this write never went out.
    pub fn was_stopped(&self, ticket: u64) -> bool {
        self.2.contains(&ticket)
    }

    /// Writes never sent that nothing keeps (not an edit the outbox holds,
    /// no store, or made as another user), in words: lost, said at quit
    /// (and the exit status says so).
    pub fn lost<'a>(&'a self, state: &State) -> Vec<&'a String> {
        self.0
            .iter()
            .filter(|(t, _)| {
                self.2.contains(t) && !state.sending.contains_key(t) && !outboxed(state, **t)
            })
            .map(|(_, w)| w)
            .collect()
    }
}

/// This write's edit is in the outbox: what quitting says of the outbox
/// names it.
fn outboxed(state: &State, ticket: u64) -> bool {
    state.outbox.iter().any(|i| holds(i, ticket))
}

/// The outbox item that holds this write: its own check or send, or the
/// edit queued from it.
fn holds(i: &outbox::OutItem, ticket: u64) -> bool {
    matches!(i.state, OutState::Checking(t) | OutState::Sending(t) if t == ticket)
        || i.pending_ticket == Some(ticket)
}

impl State {
    /// Leaving (a quit, a signal, a hang-up) with edits sent and not
    /// answered: each the outbox can hold goes into it as one whose
    /// outcome is unknown, so the next start reads the task back and sends
    /// it only if it did not arrive — never lost with a line on a stderr
    /// that may be gone (a hang-up), never sent twice. Edits the outbox
    /// sends itself are in the store already. Only with a store that
    /// keeps it; else quitting names it as before. Called before the store
    /// is drained for the last time. An edit made as another user than the
    /// one the store now open belongs to (the key was reissued meanwhile)
    /// is not kept here — it would be sent as this user — and quitting
    /// names it as in flight.
    ///
    /// An edit never sent (it waited for an earlier write of its task when
    /// the session ended) is kept as a plain queued edit: not in doubt, it
    /// goes out at the next start as its user's. A composer's send never
    /// made leaves no record of a send (its text stays a draft).
    pub fn keep_writes_in_flight(&mut self, writes: &WritesInFlight) {
        for t in &writes.2 {
            if let Some(s) = self.sending.get(t) {
                self.drafts
                    .of(s.owner.as_deref())
                    .clear_sent(&s.task_id, &s.key);
            }
        }
        if self.not_kept_why().is_some() {
            return;
        }
        let now = self.edit_owner();
        for (ticket, (req, made_as)) in &writes.1 {
            if let (Some(made_as), Some(now)) = (made_as, &now) {
                if made_as != now {
                    continue;
                }
            }
            let sent = !writes.was_stopped(*ticket);
            if let Some(item) = self.outbox.iter_mut().find(|i| holds(i, *ticket)) {
                // The outbox's own send: in the store already; one that
                // went out is in doubt, said as such at quit.
                if sent && matches!(item.state, OutState::Sending(_)) {
                    item.left_in_flight = true;
                }
                continue;
            }
            if self.sending.contains_key(ticket) {
                continue;
            }
            let base = self
                .edit_bases
                .remove(ticket)
                .map(|(_, version, saw)| crate::app::local::outbox::Made { version, saw });
            self.queue_write(*ticket, req.clone(), sent, base, true);
            if !sent {
                continue;
            }
            if let Some(item) = self
                .outbox
                .iter_mut()
                .find(|i| i.pending_ticket == Some(*ticket))
            {
                item.left_in_flight = true;
            }
        }
    }
}

/// A write in words, or `None` for a read.
fn describe_write(ticket: u64, req: &state::ApiRequest, state: &State) -> Option<String> {
    let id = req.written_task()?;
    let fields: Vec<String> = state
        .pending
        .iter()
        .filter(|p| p.ticket == ticket)
        .map(|p| format!("{} → {}", p.field.replace('_', " "), p.value))
        .collect();
    let what = if fields.is_empty() {
        req.describe()
    } else {
        fields.join(", ")
    };
    Some(crate::text::clean(&format!(
        "{} {what}",
        state.label_of(id)
    )))
}

/// What is said on stderr after the terminal is restored: sends and other
/// changes whose outcome the quit left unknown, and where text was kept.
pub fn quit_lines(
    state: &State,
    writes: &WritesInFlight,
    kept: Option<&std::path::Path>,
) -> Vec<String> {
    let mut out = Vec::new();
    let mut sends: Vec<(&u64, &drafts::InFlight)> = state.sending.iter().collect();
    sends.sort_by_key(|(t, _)| **t);
    for (t, s) in &sends {
        let path = state
            .drafts
            .path(&s.task_id, &s.key)
            .map(|p| format!(" (the text is kept in {})", p.display()))
            .unwrap_or_default();
        if writes.was_stopped(**t) {
            out.push(crate::text::clean(&format!(
                "taskdeck: your {} on {} was not sent: it waited for an earlier change of the task when you quit{path}",
                s.what, s.label
            )));
            continue;
        }
        out.push(crate::text::clean(&format!(
            "taskdeck: your {} on {} was still being sent when you quit — its outcome is unknown: check the task before sending it again{path}",
            s.what, s.label
        )));
    }
    // Kept by the store for the next start: said with the outbox below.
    let kept_for_next_start = |t: &u64| {
        state
            .outbox
            .iter()
            .any(|i| i.left_in_flight && holds(i, *t) && i.kept == outbox::Kept::Kept)
    };
    // Never sent and in the outbox: said with the outbox below; never sent
    // and not kept: lost, said after the ones in flight.
    let others: Vec<&String> = writes
        .0
        .iter()
        .filter(|(t, _)| {
            !state.sending.contains_key(t) && !kept_for_next_start(t) && !writes.was_stopped(**t)
        })
        .map(|(_, w)| w)
        .collect();
    if !others.is_empty() {
        let list: Vec<&str> = others.iter().map(|s| s.as_str()).collect();
        let (n, verb, its, it) = if others.len() == 1 {
            ("1 change".to_string(), "was", "its", "it")
        } else {
            (format!("{} changes", others.len()), "were", "their", "them")
        };
        out.push(format!(
            "taskdeck: {n} {verb} still in flight when you quit: {} — {its} outcome is unknown; check {it}",
            list.join("; ")
        ));
    }
    let lost = writes.lost(state);
    if !lost.is_empty() {
        let list: Vec<&str> = lost.iter().map(|s| s.as_str()).collect();
        out.push(crate::text::clean(&format!(
            "taskdeck: {} NOT sent and NOT KEPT (each waited for an earlier change of its task when you quit) — lost: {}; make {} again",
            crate::domain::words::plural(lost.len(), "change was", "changes were"),
            list.join("; "),
            if lost.len() == 1 { "it" } else { "them" },
        )));
    }
    // A bulk edit, undo or redo cut short: the tasks it did not reach.
    out.extend(state.unsent_lines());
    // Queued edits: lost (not kept by the store) or kept for next time.
    out.extend(state.outbox_quit_lines());
    let in_flight = |p: &std::path::Path| {
        sends
            .iter()
            .any(|(_, s)| state.drafts.path(&s.task_id, &s.key).as_deref() == Some(p))
    };
    let in_doubt = |p: &std::path::Path| p.with_extension("sent.json").exists() || in_flight(p);
    match kept {
        // Named with its send just above: once is enough.
        Some(p) if in_flight(p) => {}
        Some(p) if in_doubt(p) => out.push(format!(
            "taskdeck: the composer's text is kept in {} (a send of it may have reached the service)",
            p.display()
        )),
        Some(p) => out.push(format!(
            "taskdeck: your unsent text is kept in {}",
            p.display()
        )),
        None => {
            let all = state.drafts.list();
            let doubtful = all.iter().filter(|p| in_doubt(p)).count();
            let unsent = all.len() - doubtful;
            let dir = state
                .drafts
                .dir()
                .map(|d| d.display().to_string())
                .unwrap_or_default();
            if unsent > 0 {
                out.push(format!("taskdeck: {unsent} unsent draft(s) kept in {dir}"));
            }
            if doubtful > sends.len() {
                out.push(format!(
                    "taskdeck: {} draft(s) in {dir} were sent with an unknown outcome: check before sending them again",
                    doubtful - sends.len()
                ));
            }
        }
    }
    out
}
