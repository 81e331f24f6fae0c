//! A write of a task whose older edits wait in the outbox joins them
//! (`State::send_or_hold`): the outbox sends a task's edits one at a
//! time, in the order they were made, each after reading the task. An
//! edit sent past them would land before them, and they after it —
//! undoing it (simulator seed 1245223388597411134: an archive made while
//! a restore waited in the outbox, the restore then sent over it).

use super::*;
use crate::app::state::State;

impl State {
    /// A request about to go out (the loop's last look before it leaves):
    /// `None` sends it; `Some(fx)` means it joined the outbox behind the
    /// older edits of its task, and `fx` runs in its place.
    pub fn send_or_hold(&mut self, ticket: u64, req: &ApiRequest) -> Option<Vec<Effect>> {
        let id = req.written_task().filter(|_| queueable(req))?;
        // Only an edit the store can hold can wait there (`enqueue`).
        to_stored(req)?;
        // The outbox's own send, or no older edit of the task waits.
        let own = |i: &OutItem| matches!(i.state, OutState::Checking(t) | OutState::Sending(t) if t == ticket);
        if self.outbox.iter().any(own) {
            return None;
        }
        let ahead: Vec<&OutItem> = self.outbox.iter().filter(|i| i.task_id == id).collect();
        if ahead.is_empty() {
            return None;
        }
        let waits = ahead
            .iter()
            .any(|i| matches!(i.state, OutState::Waiting(_)));
        let n = ahead.len();
        let why = behind_words(n, waits);
        if self.engine.owns(ticket) {
            return self.engine_held(ticket, req, why);
        }
        self.hold(ticket, req, &why, false)?;
        Some(vec![])
    }

    /// Write `ticket` joins the outbox without going out, `why` said
    /// (`quiet`: a run's summary says it, unless the store cannot keep
    /// it — then at once, as for a single edit).
    pub(crate) fn hold(
        &mut self,
        ticket: u64,
        req: &ApiRequest,
        why: &str,
        quiet: bool,
    ) -> Option<()> {
        // It never went out: nothing of it is in flight or answered.
        self.inflight.remove(&ticket);
        self.history.forget_sent(ticket);
        let made = self
            .edit_bases
            .remove(&ticket)
            .map(|(_, version, saw)| Made { version, saw });
        let (label, what) = self.enqueue(ticket, req.clone(), false, made)?;
        let kept = match self.not_kept_why() {
            None if quiet => return Some(()),
            None => String::new(),
            Some(no) => format!(" — NOT KEPT ({no}): lost if you quit before it is sent"),
        };
        self.say(
            Level::Warn,
            format!("{label}: {what} {}{kept}", queued_behind(why)),
        );
        Some(())
    }
}
