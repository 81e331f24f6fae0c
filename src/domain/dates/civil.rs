//! The calendar pieces every typed time is built from, below both the
//! grammar (`when`) and the readers (`mod.rs`): a leaf, so neither imports
//! the other.

use crate::api::parse_date;
use jiff::civil::{Date, DateTime};
use jiff::tz::TimeZone;
use jiff::{Span, Timestamp};

/// The furthest a relative due date (`+Nd`, `+Nw`) may reach.
pub const MAX_DAYS_AHEAD: i64 = 3650;

/// The local calendar date of an instant.
pub(crate) fn local_date(t: Timestamp, tz: &TimeZone) -> Date {
    tz.to_datetime(t).date()
}

/// A local wall-clock time as an instant. A time skipped by a DST change
/// moves forward; a repeated one takes the first (the "compatible" rule).
/// Whole seconds: a fraction typed is dropped.
pub(crate) fn from_local(t: DateTime, tz: &TimeZone) -> Option<Timestamp> {
    let t = t.with().subsec_nanosecond(0).build().ok()?;
    tz.to_timestamp(t).ok()
}

/// A typed text starts with a four-digit year and a dash. The patterns read
/// a year of any width (chrono's `%Y`), so `26-12-01` was year 26 and
/// `+2026-12-01` a signed year: sent as due dates two thousand years past,
/// or as bounds the service reads its own way. People mean 2026.
pub(crate) fn full_year(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() > 4 && b[..4].iter().all(u8::is_ascii_digit) && b[4] == b'-'
}

/// A date as typed (`2026-12-01`): a four-digit year (see [`full_year`]).
pub(crate) fn typed_date(s: &str) -> Option<Date> {
    full_year(s).then(|| parse_date(s, "%Y-%m-%d")).flatten()
}

/// `d` moved by `days` days (None past the calendar's ends).
pub(crate) fn add_days(d: Date, days: i64) -> Option<Date> {
    d.checked_add(Span::new().try_days(days).ok()?).ok()
}
