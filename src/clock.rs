//! The one clock of the client's core (issue 43): the state, the
//! drawing and the shared words ask it the time instead of the system,
//! so that the simulator (`crate::sim`) can run them on a model clock —
//! time moves only when it says, and the same seed draws the same
//! frames. Without a model (everywhere but the simulator's thread) it is
//! the system's clock. A leaf: it imports nothing of the crate.

use std::cell::Cell;
use std::time::Instant;

thread_local! {
    static MODEL: Cell<Option<(Instant, jiff::Timestamp)>> = const { Cell::new(None) };
}

/// Now, for measuring (monotonic).
pub fn instant() -> Instant {
    MODEL.with(Cell::get).map_or_else(Instant::now, |(i, _)| i)
}

/// Now, on the calendar.
pub fn timestamp() -> jiff::Timestamp {
    MODEL
        .with(Cell::get)
        .map_or_else(jiff::Timestamp::now, |(_, t)| t)
}

/// Now, in seconds since the Unix epoch.
pub fn unix_secs() -> i64 {
    timestamp().as_second()
}

/// Set the model's time on this thread (`None`: the system's clock
/// again).
pub fn set_model(now: Option<(Instant, jiff::Timestamp)>) {
    MODEL.with(|m| m.set(now));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_model_time_until_it_is_taken_away() {
        let at = Instant::now();
        let ts = jiff::Timestamp::from_second(1_000).unwrap();
        set_model(Some((at, ts)));
        assert_eq!(instant(), at);
        assert_eq!(unix_secs(), 1_000);
        set_model(None);
        assert!(unix_secs() > 1_000);
        assert!(instant() >= at);
    }
}
