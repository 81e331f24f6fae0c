//! Offline: when the service cannot be reached, taskdeck says OFFLINE,
//! keeps showing what it knows, answers reads from the store, and probes
//! with backoff until the service answers; then it refreshes and sends
//! the outbox. Also `:profile` (leaving for another service or user).

use crate::api::*;
use std::time::{Duration, Instant};

mod handle;

const PROBE_FIRST: Duration = Duration::from_secs(1);
const PROBE_MAX: Duration = Duration::from_secs(30);

#[derive(Clone, Debug)]
pub struct Offline {
    pub since: jiff::Timestamp,
    pub next_probe: Instant,
    pub backoff: Duration,
    /// The ticket of the probe in flight.
    pub probing: Option<u64>,
    /// Why, in one line.
    pub why: String,
}
