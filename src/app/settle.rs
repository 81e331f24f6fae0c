//! The cursor rests or passes rows. `G`, a held `j` or `ctrl-d`, and pages
//! arriving under a cursor that follows the bottom carry the cursor over
//! rows the user never meant to look at: each becomes current and is shown
//! at once from what is known (the list row, the store), but none is read
//! from the service, counted as opened (`:recent`) or marked seen. Once the
//! cursor rests ([`SETTLE`] without a move) the task under it is read and
//! opened as a deliberate move would have done, and read-ahead resumes.
//!
//! A move is deliberate when the cursor rested before it: one `j` after a
//! pause reads at once and keeps the read-ahead of its neighbours. Time is
//! only what the ticks say (`on_tick(now)`): a move is dated by the tick
//! after it, so the reducer is tested by feeding instants.

use super::requests::{ApiRequest, Effect};
use super::state::State;
use std::time::{Duration, Instant};

/// How long the cursor stays put before it counts as resting.
pub const SETTLE: Duration = Duration::from_millis(150);

#[derive(Debug, Default)]
pub struct Settle {
    /// The cursor moved since the last tick.
    moved: bool,
    /// When it last moved (the tick after the move), until it rests.
    since: Option<Instant>,
    /// The cursor is passing rows: reads and opening wait until it rests.
    pub passing: bool,
}

impl Settle {
    /// A move by a key or a click at `now`: a move so soon after the last
    /// one passes rows (a held key, a burst).
    pub fn key_move(&mut self, now: Instant) {
        self.moved = true;
        if self
            .since
            .is_some_and(|t| now.saturating_duration_since(t) < SETTLE)
        {
            self.passing = true;
        }
    }

    /// The cursor moves (or is about to) without the user choosing the
    /// row: `G` following pages as they arrive.
    pub fn carried(&mut self) {
        self.moved = true;
        self.passing = true;
    }

    /// When the cursor will count as resting, if it moved lately (the
    /// loop wakes then).
    pub fn due(&self) -> Option<Instant> {
        self.since.map(|t| t + SETTLE)
    }
}

impl State {
    /// Time passes: a move is dated; a cursor still for [`SETTLE`] rests,
    /// and the task it passed onto is read and opened.
    pub(super) fn settle_tick(&mut self, now: Instant) -> Vec<Effect> {
        if std::mem::take(&mut self.settle.moved) {
            self.settle.since = Some(now);
            return vec![];
        }
        if self.settle.due().is_none_or(|due| now < due) {
            return vec![];
        }
        self.settle.since = None;
        if !std::mem::take(&mut self.settle.passing) {
            return vec![];
        }
        self.open_passed()
    }

    /// The current task became current in passing: read it and count it
    /// as opened and seen now (the user rests on it, or pressed Enter).
    pub fn open_passed(&mut self) -> Vec<Effect> {
        let Some(d) = self.detail.as_mut().filter(|d| d.passing) else {
            return vec![];
        };
        d.passing = false;
        // Read ahead of it as well: the cursor stays on this task.
        self.settle.passing = false;
        let (id, tab) = (d.task_id.clone(), d.tab);
        // Read ahead while it was passed: what arrived is shown.
        self.fill_from_known();
        self.look_at_current();
        let mut fx = Vec::new();
        let known = self.detail.as_ref().is_some_and(|d| d.task.is_some());
        if !known && uuid::Uuid::parse_str(&id).is_ok() {
            fx.push(self.request(ApiRequest::GetTask { id }));
        }
        fx.extend(self.load_tab(tab));
        fx
    }
}
