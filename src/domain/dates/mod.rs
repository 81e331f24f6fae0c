//! Dates and times as people say them: in their own time zone.
//!
//! The service speaks UTC; people do not. Everything typed is read in the
//! user's zone (`today` ends at local 23:59:59, `2026-11-30T09:00` is nine
//! in the morning here) and sent as UTC; everything shown is local, with the
//! zone named where a clock time is shown (`2026-11-30 09:00 EST`).
//!
//! The zone is process-wide: `time_zone` in the config file (applied at
//! start, [`set_zone`]), else `TZ`, else the system's (see [`zone`]). Unit tests run in UTC unless a test
//! picks a zone with [`with_zone`], so they read the same on every machine.

use crate::api::{parse_rfc3339, to_utc_seconds, ymd};
use jiff::civil::{Date, Time};
use jiff::tz::TimeZone;
use jiff::{Span, Timestamp};

mod civil;
pub mod when;
pub use civil::MAX_DAYS_AHEAD;
pub(crate) use civil::{add_days, from_local, local_date, typed_date};
pub use when::When;

// The zone lives beside the timestamp reading (`api`), which needs it for a
// due date received without a time; it is set and read from here.
#[cfg(test)]
pub use crate::api::with_zone;
pub use crate::api::{set_zone, system_zone, zone};

/// A `time_zone` setting: an IANA name (`America/New_York`), `utc`, or
/// `system` (`TZ`, else the system's zone).
pub fn resolve_zone(name: &str) -> Result<TimeZone, String> {
    let n = name.trim();
    match n.to_ascii_lowercase().as_str() {
        "utc" | "z" | "zulu" => Ok(TimeZone::UTC),
        "system" | "local" => Ok(system_zone().0),
        "" => {
            Err("an empty time zone: use an IANA name such as Europe/Paris, utc or system".into())
        }
        _ => TimeZone::get(n).map_err(|_| {
            format!(
                "unknown time zone {:?}: use an IANA name such as America/New_York, utc or system",
                crate::text::clean(n)
            )
        }),
    }
}

/// UTC under any of its names (`UTC`, `Etc/UTC`, `Zulu`, `GMT`…).
fn is_utc(tz: &TimeZone) -> bool {
    if tz.to_fixed_offset().is_ok_and(|o| o.seconds() == 0) {
        return true;
    }
    let name = tz.iana_name().unwrap_or("").to_ascii_lowercase();
    let name = name.strip_prefix("etc/").unwrap_or(&name);
    matches!(
        name,
        "utc" | "uct" | "universal" | "zulu" | "gmt" | "gmt0" | "gmt+0" | "gmt-0" | "greenwich"
    )
}

fn start_of(d: Date, tz: &TimeZone) -> Option<Timestamp> {
    from_local(d.to_datetime(Time::midnight()), tz)
}

fn end_of(d: Date, tz: &TimeZone) -> Option<Timestamp> {
    from_local(d.to_datetime(Time::new(23, 59, 59, 0).ok()?), tz)
}

fn iso(t: Timestamp) -> String {
    to_utc_seconds(t)
}

/// Whole days from `from` to `to`.
pub(crate) fn days_between(from: Date, to: Date) -> i64 {
    (to - from).get_days().into()
}

/// Parse a due date as typed, in the grammar every typed time shares
/// ([`when`]): `none` clears it; a day without a clock time (`today`,
/// `fri`, `+3d`, `2026-12-01`) means the end of that local day; a time
/// without a zone is local (`fri 17:00`, `next friday 5pm`,
/// `2026-12-01 14:00`). The answer is UTC. `Ok(None)` clears the due date.
pub fn parse_due(input: &str, now: Timestamp) -> Result<Option<String>, String> {
    parse_due_in(input, now, &zone())
}

/// [`parse_due`] in the zone `tz`.
pub fn parse_due_in(input: &str, now: Timestamp, tz: &TimeZone) -> Result<Option<String>, String> {
    let s = input.trim().to_ascii_lowercase();
    match s.as_str() {
        "none" | "clear" | "-" => return Ok(None),
        "" => return Err(format!("type a date: {}, or none", when::FORMS)),
        _ => {}
    }
    let at = match when::parse_when(input, now, tz).map_err(|e| format!("{e}, or none"))? {
        When::Day(d) => end_of(d, tz),
        When::Days(n) => add_days(local_date(now, tz), n).and_then(|d| end_of(d, tz)),
        When::At(t) => Some(t),
    };
    at.map(|t| Some(iso(t)))
        .ok_or_else(|| format!("{:?} is not a date", crate::text::clean(input.trim())))
}

/// One end of a due-date range, as typed, in the user's zone: a date or a
/// word (`today`, `tomorrow`, `+3d`) is the start of that local day for
/// the lower bound (so "from today" includes this morning) and its end
/// (23:59:59) for the upper one; `week` is this local week's Monday 00:00
/// (lower) or Sunday 23:59:59 (upper); `now` is this instant (saved views
/// such as Overdue read `to=now`); a time without a zone is local; a time
/// with a zone is sent as given. The answer is UTC.
pub fn parse_bound(input: &str, now: Timestamp, lower: bool) -> Result<String, String> {
    parse_bound_in(input, now, lower, &zone())
}

/// [`parse_bound`] in the zone `tz`.
pub fn parse_bound_in(
    input: &str,
    now: Timestamp,
    lower: bool,
    tz: &TimeZone,
) -> Result<String, String> {
    let v = input.trim();
    match v.to_ascii_lowercase().as_str() {
        "now" => return Ok(iso(now)),
        "week" => {
            let (monday, sunday) = this_week_in(now, tz);
            return Ok(if lower { monday } else { sunday });
        }
        _ => {}
    }
    if let Some(t) = parse_rfc3339(v) {
        when::in_range(When::At(t), v, now, tz)?;
        return Ok(v.to_string());
    }
    if let Some(d) = typed_date(v) {
        when::in_range(When::Day(d), v, now, tz)?;
        // The service reads a date alone as that UTC day: in UTC the date
        // is sent as a date, written out (`2026-1-5` is not ISO 8601).
        if is_utc(tz) {
            return Ok(ymd(d));
        }
        let at = if lower {
            start_of(d, tz)
        } else {
            end_of(d, tz)
        };
        return at
            .map(iso)
            .ok_or_else(|| format!("{input:?} is not a date"));
    }
    let day = match when::parse_when(v, now, tz)? {
        When::At(t) => return Ok(iso(t)),
        When::Day(d) => Some(d),
        When::Days(n) => add_days(local_date(now, tz), n),
    };
    day.and_then(|d| {
        if lower {
            start_of(d, tz)
        } else {
            end_of(d, tz)
        }
    })
    .map(iso)
    .ok_or_else(|| format!("{input:?} is not a date"))
}

/// "today", "tomorrow", "in 3d", "2d overdue"; the bool says overdue. Days
/// are counted between local calendar dates.
pub fn relative(due: Timestamp, now: Timestamp) -> (String, bool) {
    relative_in(due, now, &zone())
}

/// [`relative`] in the zone `tz`.
pub fn relative_in(due: Timestamp, now: Timestamp, tz: &TimeZone) -> (String, bool) {
    let overdue = due < now;
    let due_day = local_date(due, tz);
    let days = days_between(local_date(now, tz), due_day);
    let text = match days {
        0 if overdue => "overdue today".to_string(),
        0 => "today".to_string(),
        1 => "tomorrow".to_string(),
        -1 => "1d overdue".to_string(),
        d if d < 0 && d > -60 => format!("{}d overdue", -d),
        d if d < 0 => format!("{}w overdue", -d / 7),
        d if d < 14 => format!("in {d}d"),
        d if d < 120 => format!("in {}w", d / 7),
        _ => ymd(due_day),
    };
    (text, overdue)
}

/// A due date as a row shows it; the bool says the task is late. A
/// completed task is never late: a past date reads "due 3d ago".
pub fn due_text(due: Timestamp, now: Timestamp, completed: bool) -> (String, bool) {
    due_text_in(due, now, completed, &zone())
}

/// [`due_text`] in the zone `tz`.
pub fn due_text_in(
    due: Timestamp,
    now: Timestamp,
    completed: bool,
    tz: &TimeZone,
) -> (String, bool) {
    let (text, overdue) = relative_in(due, now, tz);
    if !overdue {
        return (text, false);
    }
    if completed {
        let days = days_between(local_date(due, tz), local_date(now, tz));
        let t = match days {
            0 => "due today".to_string(),
            d if d < 60 => format!("due {d}d ago"),
            d => format!("due {}w ago", d / 7),
        };
        return (t, false);
    }
    (format!("!{text}"), true)
}

/// Monday 00:00 to Sunday 23:59:59 (local) of the week of `now`, as UTC
/// timestamps.
pub fn this_week(now: Timestamp) -> (String, String) {
    this_week_in(now, &zone())
}

/// [`this_week`] in the zone `tz`.
pub fn this_week_in(now: Timestamp, tz: &TimeZone) -> (String, String) {
    let today = local_date(now, tz);
    // Saturating: only the calendar's first and last weeks are cut short.
    let monday = today.saturating_add(Span::new().days(-today.weekday().to_monday_zero_offset()));
    let sunday = monday.saturating_add(Span::new().days(6));
    let or_utc = |t: Option<Timestamp>, d: Date, clock: &str| {
        t.map(iso).unwrap_or_else(|| format!("{}T{clock}Z", ymd(d)))
    };
    (
        or_utc(start_of(monday, tz), monday, "00:00:00"),
        or_utc(end_of(sunday, tz), sunday, "23:59:59"),
    )
}

/// An instant as a local clock time with its zone: `2026-11-30 09:00 EST`.
pub fn local_time(t: Timestamp) -> String {
    local_time_in(t, &zone())
}

/// [`local_time`] in the zone `tz`.
pub fn local_time_in(t: Timestamp, tz: &TimeZone) -> String {
    let z = t.to_zoned_datetime(tz.clone());
    let abbr = z.strftime("%Z").to_string();
    // Zones without a letter abbreviation show their offset.
    let abbr = if abbr.is_empty() {
        z.strftime("%:z").to_string()
    } else {
        abbr
    };
    // The date as `ymd` writes it (a year before 1 as `-0001`, as chrono
    // did; jiff's `%Y` writes `-001`).
    format!("{} {} {abbr}", ymd(z.date()), z.strftime("%H:%M"))
}

/// A timestamp from the service as a local clock time (see
/// [`local_time`]); an unreadable one is shown as received, sanitised; an
/// empty one as none.
pub fn when(raw: Option<&str>) -> String {
    match raw.filter(|r| !r.trim().is_empty()) {
        Some(raw) => crate::api::parse_timestamp(raw)
            .map(local_time)
            .unwrap_or_else(|| crate::text::clean(raw)),
        None => "-".into(),
    }
}

#[cfg(test)]
mod range_tests;
#[cfg(test)]
mod tests;
