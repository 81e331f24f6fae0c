//! Prefetch: while the user rests on a task, what the detail of the tasks
//! around the cursor needs is read before it is asked for, nearest first,
//! within a small budget of requests in flight.
//!
//! - The plan runs after the user's requests of a batch went out (the loop
//!   calls [`State::plan_prefetch`] last), so user requests go first; the
//!   neighbours are read only while no user request is in flight.
//! - The current task's other tabs go out at once with its own request:
//!   opening a task completes within one round trip.
//! - A prefetch is an [`ApiRequest::Prefetch`] around a read: it has no
//!   slot (it never aborts the user's Comments, nor is aborted by it), and
//!   a cursor move cancels those whose task left the window.
//! - Nothing is read twice: answers are kept per task (`Local::known`)
//!   and are fresh until the task's `updated_at` moves or the user
//!   refreshes ([`crate::app::local::cache::Known::fresh`]).
//! - Never a write, never while offline, and `prefetch = false` turns it
//!   off.
//! - A read that failed is not asked again at once: the plan runs after
//!   every batch, up to ~30 times a second. It waits 1 s, then 2, 4… up to
//!   a minute; a 404 (the task is gone, or no longer visible to this user)
//!   is not asked again until the user refreshes.

use crate::api::*;
use crate::app::state::requests::ApiRequest;
use std::collections::HashMap;
use std::time::{Duration, Instant};

mod handle;

/// Prefetches in flight at most (the current task's tabs aside).
pub const BUDGET: usize = 4;
/// Rows read ahead of the cursor and behind it.
pub const AHEAD: usize = 2;
pub const BEHIND: usize = 1;

#[derive(Debug)]
pub struct Prefetch {
    /// `prefetch` in the config (default on).
    pub on: bool,
    /// In flight: ticket -> (task id, tab).
    pub inflight: HashMap<u64, (String, &'static str)>,
    /// The service answered that it lists no comments / no requester
    /// thread (`NotAvailable`): not asked again this session.
    pub no_comments: bool,
    pub no_thread: bool,
    /// Reads that failed, by task id and tab: held back until
    /// [`Failed::due`].
    pub failed: HashMap<(String, &'static str), Failed>,
}

/// A read of one tab of one task that failed, and when to try it again.
#[derive(Debug, Clone)]
pub struct Failed {
    /// Failures in a row.
    pub times: u32,
    /// A 404 (or a feature that is off): not asked again until a refresh.
    pub gone: bool,
    /// When the failure was noted: by the first plan after the answer, so
    /// that the wait is measured on the loop's clock.
    pub at: Option<Instant>,
    /// The refresh generation it failed in: a refresh asks again.
    pub gen: u64,
}

/// The longest wait before a failed read is tried again.
const RETRY_MAX: Duration = Duration::from_secs(60);

impl Failed {
    /// The wait after `times` failures in a row: 1 s, doubling to a minute.
    pub fn wait(times: u32) -> Duration {
        Duration::from_secs(1 << times.saturating_sub(1).min(6)).min(RETRY_MAX)
    }

    /// May the read be asked again at `now` in refresh generation `gen`?
    fn due(&self, now: Instant, gen: u64) -> bool {
        if self.gen != gen {
            return true;
        }
        match self.at {
            _ if self.gone => false,
            Some(at) => now >= at + Failed::wait(self.times),
            None => false,
        }
    }
}

impl Default for Prefetch {
    fn default() -> Self {
        Prefetch {
            on: true,
            inflight: HashMap::new(),
            no_comments: false,
            no_thread: false,
            failed: HashMap::new(),
        }
    }
}

impl Prefetch {
    /// A prefetch of `tab` of task `id` is in flight.
    pub fn has(&self, id: &str, tab: &str) -> bool {
        self.inflight.values().any(|(i, t)| i == id && *t == tab)
    }
}

/// The read behind each tab name.
fn read_for(id: &str, tab: &str) -> ApiRequest {
    let id = id.to_string();
    match tab {
        "task" => ApiRequest::GetTask { id },
        "comments" => ApiRequest::Comments { id },
        "thread" => ApiRequest::Thread { id },
        "subtasks" => ApiRequest::Subtasks { id },
        _ => ApiRequest::GetSharing { id },
    }
}

/// The task and tab a read is about (`None`: not one prefetch makes).
pub fn tab_of(req: &ApiRequest) -> Option<(&str, &'static str)> {
    match req {
        ApiRequest::GetTask { id } => Some((id, "task")),
        ApiRequest::Comments { id } => Some((id, "comments")),
        ApiRequest::Thread { id } => Some((id, "thread")),
        ApiRequest::Subtasks { id } => Some((id, "subtasks")),
        ApiRequest::GetSharing { id } => Some((id, "sharing")),
        _ => None,
    }
}
