//! The HTTP client's own tries (`api::client::again`, the product's
//! rule): each attempt of a request meets a fault drawn here, and the
//! client's rule decides whether it is tried again — a read after a 429,
//! a 5xx, a lost connection, a timeout or a refusal, a write never (the
//! service keeps no idempotency key: a write whose answer was lost may
//! have been applied). What the last attempt came to is what the state
//! is answered. The transport itself (reqwest, sockets, the real waits)
//! is not run: only the decisions.

use super::faults::Faults;
use super::rng::Rng;
use crate::api::{again, ApiError, ClientConfig, Tried};
use std::time::Duration;

/// What one attempt meets.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Fault {
    /// The service answers.
    None,
    /// The service cannot be reached (an outage).
    Refused,
    Status(u16),
    /// 429 with its Retry-After.
    TooMany,
    /// An undecodable body.
    Garbage,
    /// The connection is lost after the service applied a write.
    Dropped,
    /// No answer in time; the write was applied (`true`) or not.
    TimedOut(bool),
}

impl Fault {
    /// Whether the service applied the write before this fault.
    pub fn applies(self) -> bool {
        matches!(self, Fault::None | Fault::Dropped | Fault::TimedOut(true))
    }

    /// The error the client gets (`None`: the service's answer).
    pub fn error(self) -> Option<ApiError> {
        Some(match self {
            Fault::None => return None,
            Fault::Refused => ApiError::Unreachable {
                message: "connection refused".into(),
            },
            Fault::Status(status) => ApiError::Status {
                status,
                message: "the service failed \u{1b}[31m".into(),
            },
            Fault::TooMany => ApiError::Status {
                status: 429,
                message: "too many requests; Retry-After: 2".into(),
            },
            Fault::Garbage => ApiError::Decode {
                message: "expected value at line 1 column 1".into(),
                excerpt: "<html>\u{1b}]0;owned\u{7}</html>".into(),
            },
            Fault::Dropped => ApiError::Network {
                message: "connection reset by peer".into(),
            },
            Fault::TimedOut(_) => ApiError::Timeout {
                what: "the answer".into(),
            },
        })
    }
}

/// The client's settings as shipped (`ClientConfig::new`): how many
/// times a read is tried again, the Retry-After's cap.
pub fn config() -> ClientConfig {
    ClientConfig::new("http://sim.test", crate::api::ApiKey::new(""))
}

/// The fault an attempt meets, drawn among those asked for. After the
/// first, an attempt meets the fault before it again half the time: a
/// service down for a while fails every try, so that a read's failure
/// still reaches the state now and then.
pub fn draw(rng: &mut Rng, f: &Faults, write: bool, outage: bool, before: Option<Fault>) -> Fault {
    if outage {
        return Fault::Refused;
    }
    if let Some(b) = before {
        if rng.chance(50) {
            return b;
        }
    }
    let roll = rng.below(100);
    if f.e5xx && roll < 4 {
        Fault::Status([500, 502, 503][rng.below(3) as usize])
    } else if f.e429 && roll < 7 {
        Fault::TooMany
    } else if f.garbage && roll < 9 {
        Fault::Garbage
    } else if f.dropped && roll < 14 {
        if write && roll < 12 {
            Fault::Dropped
        } else {
            Fault::TimedOut(write && rng.chance(50))
        }
    } else {
        Fault::None
    }
}

/// Whether the client tries again after an attempt that came to
/// `result` (its rule, `api::client::again`), and after how long.
pub fn tried_again<T>(
    cfg: &ClientConfig,
    write: bool,
    result: &Result<T, ApiError>,
    attempt: u32,
) -> Option<Duration> {
    let tried = match result {
        Ok(_) => return None,
        Err(ApiError::Status { status, message }) => Tried::Status(
            *status,
            message
                .contains("Retry-After: 2")
                .then_some(Duration::from_secs(2)),
        ),
        Err(e) => Tried::Failed(e),
    };
    again(!write, &tried, attempt, cfg)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_read_is_tried_again_and_a_write_never() {
        let cfg = config();
        let e: Result<(), ApiError> = Err(Fault::Dropped.error().unwrap());
        assert!(tried_again(&cfg, false, &e, 0).is_some());
        assert!(tried_again(&cfg, false, &e, cfg.get_retries).is_none());
        assert!(tried_again(&cfg, true, &e, 0).is_none());
        let busy: Result<(), ApiError> = Err(Fault::TooMany.error().unwrap());
        assert_eq!(
            tried_again(&cfg, false, &busy, 0),
            Some(Duration::from_secs(2))
        );
        let garbage: Result<(), ApiError> = Err(Fault::Garbage.error().unwrap());
        assert!(tried_again(&cfg, false, &garbage, 0).is_none());
    }
}
