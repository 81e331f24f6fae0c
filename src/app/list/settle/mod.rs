//! The cursor rests or passes rows. `G`, a held `j` or `ctrl-d`, and pages
//! arriving under a cursor that follows the bottom carry the cursor over
//! rows the user never meant to look at: each becomes current and is shown
//! at once from what is known (the list row, the store), but none is read
//! from the service, counted as opened (`:recent`) or marked seen. Once the
//! cursor rests ([`SETTLE`] without a move) the task under it is read and
//! opened as a deliberate move would have done, and read-ahead resumes.
//! While `G` follows a page still on its way the cursor does not rest,
//! however slow the page: it rests on the row the last page left it on.
//!
//! A move is deliberate when the cursor rested before it: one `j` after a
//! pause reads at once and keeps the read-ahead of its neighbours. Time is
//! only what the ticks say (`on_tick(now)`): a move is dated by the tick
//! after it, so the reducer is tested by feeding instants.

use std::time::{Duration, Instant};

mod handle;

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
