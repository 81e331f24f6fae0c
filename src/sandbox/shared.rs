//! What the server's parts share: the state behind every handler and the
//! [`Sandbox`](super::Sandbox) handle (`Shared`), the request record and
//! the demo keys. A leaf below the routes and handlers; `mod.rs`
//! re-exports the public types.

use std::collections::{HashMap, VecDeque};
use std::sync::atomic::AtomicU64;
use std::sync::{Arc, Mutex};

use super::listing::ListingShape;
use super::store::Store;
use crate::sandbox::odd::faults::Faults;

/// A seeded API key and who it acts as.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DemoKey {
    pub key: String,
    pub user_name: String,
    pub user_email: String,
    pub org_name: String,
    pub note: String,
}

/// One request as received by the sandbox.
#[derive(Debug, Clone, PartialEq)]
pub struct RecordedRequest {
    pub method: String,
    pub path: String,
    pub query: Option<String>,
    pub body: Option<serde_json::Value>,
    /// Who the request's key acts as (the demo user's e-mail), if a known
    /// key: tests check that an edit is sent as the user who made it.
    pub caller: Option<String>,
}

/// Requests kept in the sandbox's record ([`Sandbox::requests`](super::Sandbox::requests)).
pub const LOG_KEPT: usize = 100_000;

/// Record `r`, keeping the last `kept` requests.
pub(crate) fn record(log: &mut VecDeque<RecordedRequest>, r: RecordedRequest, kept: usize) {
    while log.len() >= kept.max(1) {
        log.pop_front();
    }
    log.push_back(r);
}

/// State shared by the server tasks and the [`Sandbox`](super::Sandbox) handle.
pub(crate) struct Shared {
    pub(crate) store: Mutex<Store>,
    /// The last [`LOG_KEPT`] requests (the oldest go first): a sandbox
    /// serving for days keeps a bounded record.
    pub(crate) log: Mutex<VecDeque<RecordedRequest>>,
    pub(crate) faults: Mutex<Faults>,
    pub(crate) listing: Mutex<ListingShape>,
    pub(crate) counter: AtomicU64,
    /// Which user each key acts as (a test may reissue a key to another
    /// user: [`Sandbox::reissue_key`](super::Sandbox::reissue_key)).
    pub(crate) keys: Mutex<HashMap<String, usize>>,
    /// Which user each demo key was seeded for (never changes).
    pub(crate) seeded: HashMap<String, usize>,
    /// The e-mail of the user each key acts as (for
    /// [`RecordedRequest::caller`]).
    pub(crate) callers: Mutex<HashMap<String, String>>,
}

pub(crate) type AppState = Arc<Shared>;

#[cfg(test)]
mod tests {
    use super::*;

    fn req(n: usize) -> RecordedRequest {
        RecordedRequest {
            method: "GET".into(),
            path: format!("/{n}"),
            query: None,
            body: None,
            caller: None,
        }
    }

    #[test]
    fn the_request_record_keeps_the_last_ones() {
        let mut log = VecDeque::new();
        for n in 0..25 {
            record(&mut log, req(n), 10);
        }
        assert_eq!(log.len(), 10);
        assert_eq!(log.front().unwrap().path, "/15");
        assert_eq!(log.back().unwrap().path, "/24");
    }
}
