//! The fault injection settings (a leaf: the middleware that applies them
//! is `middleware.rs`).

use std::str::FromStr;

/// Fault injection settings. Every counter is over all requests received;
/// `0` switches a fault off.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Faults {
    /// Sleep this long before answering every request.
    pub delay_ms: u64,
    /// Every N-th request answers `status` with an error body.
    pub fail_every: u64,
    /// Status of the injected failures (default 503).
    pub status: u16,
    /// `Retry-After` seconds sent with injected failures.
    pub retry_after: Option<u64>,
    /// Every N-th request answers 200 with a body that is not valid JSON.
    pub garbage_every: u64,
    /// Every N-th request has its connection dropped mid-response.
    pub reset_every: u64,
    /// The service is away: every request's connection is dropped before
    /// it is handled (nothing is applied, nothing recorded).
    pub down: bool,
}

impl Default for Faults {
    fn default() -> Self {
        Faults {
            delay_ms: 0,
            fail_every: 0,
            status: 503,
            retry_after: None,
            garbage_every: 0,
            reset_every: 0,
            down: false,
        }
    }
}

impl FromStr for Faults {
    type Err = String;

    /// Parses `delay=MS,fail_every=N,status=S,retry_after=SECS,garbage_every=N,reset_every=N,down=1`
    /// (any subset, any order; `delay_ms` is accepted for `delay`).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let mut f = Faults::default();
        for part in s.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let (k, v) = part
                .split_once('=')
                .ok_or_else(|| format!("fault setting {part:?} is not of the form key=value"))?;
            let (k, v) = (k.trim(), v.trim());
            let num = || {
                v.parse::<u64>()
                    .map_err(|_| format!("fault setting {k}: {v:?} is not a non-negative integer"))
            };
            match k {
                "delay" | "delay_ms" => f.delay_ms = num()?,
                "fail_every" => f.fail_every = num()?,
                "status" => {
                    let s = num()?;
                    if !(100..=599).contains(&s) {
                        return Err(format!(
                            "fault setting status: {s} is not an HTTP status (100-599)"
                        ));
                    }
                    f.status = s as u16;
                }
                "retry_after" => f.retry_after = Some(num()?),
                "garbage_every" => f.garbage_every = num()?,
                "reset_every" => f.reset_every = num()?,
                "down" => f.down = num()? != 0,
                other => {
                    return Err(format!(
                        "unknown fault setting {other:?} (expected delay, fail_every, status, \
                         retry_after, garbage_every, reset_every or down)"
                    ))
                }
            }
        }
        Ok(f)
    }
}
