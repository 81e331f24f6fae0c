//! Dates and times as people say them: in their own time zone.
//!
//! The service speaks UTC; people do not. Everything typed is read in the
//! user's zone (`today` ends at local 23:59:59, `2026-11-30T09:00` is nine
//! in the morning here) and sent as UTC; everything shown is local, with the
//! zone named where a clock time is shown (`2026-11-30 09:00 EST`).
//!
//! The zone is process-wide: `time_zone` in the config file, else `TZ`,
//! else the system's (see [`zone`]). Unit tests run in UTC unless a test
//! picks a zone with [`with_zone`], so they read the same on every machine.

use chrono::{DateTime, Datelike, Duration, NaiveDate, NaiveDateTime, NaiveTime, Utc};
use jiff::tz::TimeZone;
use std::sync::OnceLock;

/// The furthest a relative due date (`+Nd`, `+Nw`) may reach.
pub const MAX_DAYS_AHEAD: i64 = 3650;

static ZONE: OnceLock<TimeZone> = OnceLock::new();

#[cfg(test)]
thread_local! {
    static TEST_ZONE: std::cell::RefCell<Option<TimeZone>> = const { std::cell::RefCell::new(None) };
}

/// Run `f` with `tz` as the zone on this thread (tests only; tests run on
/// threads of their own, so they never see each other's zone).
#[cfg(test)]
pub fn with_zone<R>(tz: TimeZone, f: impl FnOnce() -> R) -> R {
    struct Reset(Option<TimeZone>);
    impl Drop for Reset {
        fn drop(&mut self) {
            TEST_ZONE.with(|z| *z.borrow_mut() = self.0.take());
        }
    }
    let _reset = Reset(TEST_ZONE.with(|z| z.borrow_mut().replace(tz)));
    f()
}

/// The user's time zone. Set once with [`set_zone`]; otherwise found on
/// first use: `time_zone` in the config file, else `TZ`, else the system's.
pub fn zone() -> TimeZone {
    #[cfg(test)]
    {
        if let Some(tz) = TEST_ZONE.with(|z| z.borrow().clone()) {
            return tz;
        }
        TimeZone::UTC
    }
    #[cfg(not(test))]
    ZONE.get_or_init(|| {
        let configured = crate::config::load(None).settings.time_zone;
        configured
            .as_deref()
            .and_then(|name| resolve_zone(name).ok())
            .unwrap_or_else(TimeZone::system)
    })
    .clone()
}

/// Fix the zone for the rest of the process (before any date is read or
/// shown); false when it was already fixed.
pub fn set_zone(tz: TimeZone) -> bool {
    ZONE.set(tz).is_ok()
}

/// A `time_zone` setting: an IANA name (`America/New_York`), `utc`, or
/// `system` (`TZ`, else the system's zone).
pub fn resolve_zone(name: &str) -> Result<TimeZone, String> {
    let n = name.trim();
    match n.to_ascii_lowercase().as_str() {
        "utc" | "z" | "zulu" => Ok(TimeZone::UTC),
        "system" | "local" => Ok(TimeZone::system()),
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

/// The zone's name for people: `America/New_York`, `UTC`.
pub fn zone_name(tz: &TimeZone) -> String {
    tz.iana_name().unwrap_or("local time").to_string()
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

fn to_jiff(t: DateTime<Utc>) -> Option<jiff::Timestamp> {
    jiff::Timestamp::new(t.timestamp(), t.timestamp_subsec_nanos() as i32).ok()
}

/// The local calendar date of an instant (UTC's when out of range).
fn local_date(t: DateTime<Utc>, tz: &TimeZone) -> NaiveDate {
    to_jiff(t)
        .map(|ts| tz.to_datetime(ts).date())
        .and_then(|d| NaiveDate::from_ymd_opt(d.year().into(), d.month() as u32, d.day() as u32))
        .unwrap_or_else(|| t.date_naive())
}

/// A local wall-clock time as an instant. A time skipped by a DST change
/// moves forward; a repeated one takes the first (the "compatible" rule).
fn from_local(t: NaiveDateTime, tz: &TimeZone) -> Option<DateTime<Utc>> {
    let year = i16::try_from(t.year()).ok()?;
    let dt = jiff::civil::DateTime::new(
        year,
        t.month() as i8,
        t.day() as i8,
        t.hour() as i8,
        t.minute() as i8,
        t.second() as i8,
        0,
    )
    .ok()?;
    let ts = tz.to_timestamp(dt).ok()?;
    DateTime::from_timestamp(ts.as_second(), 0)
}

use chrono::Timelike;

fn start_of(d: NaiveDate, tz: &TimeZone) -> Option<DateTime<Utc>> {
    from_local(d.and_time(NaiveTime::MIN), tz)
}

fn end_of(d: NaiveDate, tz: &TimeZone) -> Option<DateTime<Utc>> {
    from_local(d.and_hms_opt(23, 59, 59)?, tz)
}

fn iso(t: DateTime<Utc>) -> String {
    t.format("%Y-%m-%dT%H:%M:%SZ").to_string()
}

/// Parse a due date as typed: `none`, `today`, `tomorrow`, `+3d`, `+2w`,
/// `2026-12-01`, `2026-12-01T14:00[:00]`, or with a zone (`…Z`,
/// `…+01:00`). Read in the user's zone: a date alone means the end of that
/// local day, a time without a zone is a local time. The answer is UTC.
/// `Ok(None)` clears the due date.
pub fn parse_due(input: &str, now: DateTime<Utc>) -> Result<Option<String>, String> {
    parse_due_in(input, now, &zone())
}

/// [`parse_due`] in the zone `tz`.
pub fn parse_due_in(
    input: &str,
    now: DateTime<Utc>,
    tz: &TimeZone,
) -> Result<Option<String>, String> {
    let s = input.trim().to_ascii_lowercase();
    let today = local_date(now, tz);
    let at = match s.as_str() {
        "none" | "clear" | "-" => return Ok(None),
        "" => return Err("type a date: 2026-12-01, today, tomorrow, +3d, +2w or none".into()),
        "today" => end_of(today, tz),
        "tomorrow" => today
            .checked_add_signed(Duration::days(1))
            .and_then(|d| end_of(d, tz)),
        _ if s.starts_with('+') => {
            let days = plus_days(input, &s[1..])?;
            today
                .checked_add_signed(Duration::days(days))
                .and_then(|d| end_of(d, tz))
        }
        _ => {
            if let Ok(d) = NaiveDate::parse_from_str(&s, "%Y-%m-%d") {
                end_of(d, tz)
            } else if let Ok(t) = DateTime::parse_from_rfc3339(input.trim()) {
                Some(t.with_timezone(&Utc))
            } else {
                // A trailing Z means UTC; without it the time is local.
                let (body, utc) = match s.strip_suffix('z') {
                    Some(b) => (b, true),
                    None => (s.as_str(), false),
                };
                ["%Y-%m-%dt%H:%M:%S", "%Y-%m-%dt%H:%M", "%Y-%m-%d %H:%M"]
                    .iter()
                    .find_map(|f| NaiveDateTime::parse_from_str(body, f).ok())
                    .and_then(|t| {
                        if utc {
                            Some(t.and_utc())
                        } else {
                            from_local(t, tz)
                        }
                    })
            }
        }
    };
    at.map(|t| Some(iso(t))).ok_or_else(|| {
        format!("{input:?} is not a date: use 2026-12-01, today, tomorrow, +3d, +2w or none")
    })
}

/// The number of days in `+3d` / `+2w` (`body` is what follows the `+`).
fn plus_days(input: &str, body: &str) -> Result<i64, String> {
    // By characters: "+", "+3é" are errors, never a panic.
    let (num, unit) = match body.char_indices().last() {
        Some((i, u)) => (&body[..i], u),
        None => ("", ' '),
    };
    let bad = || format!("{input:?}: use +Nd or +Nw, e.g. +3d");
    // Digits only: no sign, no space ("+-3d", "++3d" are errors).
    if num.is_empty() || !num.bytes().all(|b| b.is_ascii_digit()) {
        return Err(bad());
    }
    let per_unit = match unit {
        'd' => 1,
        'w' => 7,
        _ => return Err(bad()),
    };
    let too_far = || {
        format!(
            "{input:?} is too far away: at most {MAX_DAYS_AHEAD} days (+{}w)",
            MAX_DAYS_AHEAD / 7
        )
    };
    // Only digits, so parsing fails only when the number overflows; the
    // product is checked too (it used to wrap around).
    num.parse::<i64>()
        .ok()
        .and_then(|n| n.checked_mul(per_unit))
        .filter(|d| *d <= MAX_DAYS_AHEAD)
        .ok_or_else(too_far)
}

/// One end of a due-date range, as typed, in the user's zone: a date or a
/// word (`today`, `tomorrow`, `+3d`) is the start of that local day for
/// the lower bound (so "from today" includes this morning) and its end
/// (23:59:59) for the upper one; a time without a zone is local; a time
/// with a zone is sent as given. The answer is UTC.
pub fn parse_bound(input: &str, now: DateTime<Utc>, lower: bool) -> Result<String, String> {
    parse_bound_in(input, now, lower, &zone())
}

/// [`parse_bound`] in the zone `tz`.
pub fn parse_bound_in(
    input: &str,
    now: DateTime<Utc>,
    lower: bool,
    tz: &TimeZone,
) -> Result<String, String> {
    let v = input.trim();
    if DateTime::parse_from_rfc3339(v).is_ok() {
        return Ok(v.to_string());
    }
    if let Ok(d) = NaiveDate::parse_from_str(v, "%Y-%m-%d") {
        // The service reads a date alone as that UTC day: in UTC the date
        // is sent as typed.
        if is_utc(tz) {
            return Ok(v.to_string());
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
    let at = parse_due_in(v, now, tz)?
        .ok_or_else(|| format!("{input:?} means no date; a range needs one"))?;
    let word = {
        let w = v.to_ascii_lowercase();
        matches!(w.as_str(), "today" | "tomorrow") || w.starts_with('+')
    };
    if !(lower && word) {
        return Ok(at);
    }
    // The start of the same local day as the end `parse_due` found.
    let end = crate::api::parse_timestamp(&at).ok_or_else(|| format!("{input:?} is not a date"))?;
    start_of(local_date(end, tz), tz)
        .map(iso)
        .ok_or_else(|| format!("{input:?} is not a date"))
}

/// "today", "tomorrow", "in 3d", "2d overdue"; the bool says overdue. Days
/// are counted between local calendar dates.
pub fn relative(due: DateTime<Utc>, now: DateTime<Utc>) -> (String, bool) {
    relative_in(due, now, &zone())
}

/// [`relative`] in the zone `tz`.
pub fn relative_in(due: DateTime<Utc>, now: DateTime<Utc>, tz: &TimeZone) -> (String, bool) {
    let overdue = due < now;
    let due_day = local_date(due, tz);
    let days = (due_day - local_date(now, tz)).num_days();
    let text = match days {
        0 if overdue => "overdue today".to_string(),
        0 => "today".to_string(),
        1 => "tomorrow".to_string(),
        -1 => "1d overdue".to_string(),
        d if d < 0 && d > -60 => format!("{}d overdue", -d),
        d if d < 0 => format!("{}w overdue", -d / 7),
        d if d < 14 => format!("in {d}d"),
        d if d < 120 => format!("in {}w", d / 7),
        _ => due_day.format("%Y-%m-%d").to_string(),
    };
    (text, overdue)
}

/// A due date as a row shows it; the bool says the task is late. A
/// completed task is never late: a past date reads "due 3d ago".
pub fn due_text(due: DateTime<Utc>, now: DateTime<Utc>, completed: bool) -> (String, bool) {
    due_text_in(due, now, completed, &zone())
}

/// [`due_text`] in the zone `tz`.
pub fn due_text_in(
    due: DateTime<Utc>,
    now: DateTime<Utc>,
    completed: bool,
    tz: &TimeZone,
) -> (String, bool) {
    let (text, overdue) = relative_in(due, now, tz);
    if !overdue {
        return (text, false);
    }
    if completed {
        let days = (local_date(now, tz) - local_date(due, tz)).num_days();
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
pub fn this_week(now: DateTime<Utc>) -> (String, String) {
    this_week_in(now, &zone())
}

/// [`this_week`] in the zone `tz`.
pub fn this_week_in(now: DateTime<Utc>, tz: &TimeZone) -> (String, String) {
    let today = local_date(now, tz);
    let monday = today - Duration::days(today.weekday().num_days_from_monday() as i64);
    let sunday = monday + Duration::days(6);
    let or_utc = |t: Option<DateTime<Utc>>, d: NaiveDate, clock: &str| {
        t.map(iso)
            .unwrap_or_else(|| format!("{}T{clock}Z", d.format("%Y-%m-%d")))
    };
    (
        or_utc(start_of(monday, tz), monday, "00:00:00"),
        or_utc(end_of(sunday, tz), sunday, "23:59:59"),
    )
}

/// An instant as a local clock time with its zone: `2026-11-30 09:00 EST`.
pub fn local_time(t: DateTime<Utc>) -> String {
    local_time_in(t, &zone())
}

/// [`local_time`] in the zone `tz`.
pub fn local_time_in(t: DateTime<Utc>, tz: &TimeZone) -> String {
    match to_jiff(t) {
        Some(ts) => {
            let z = ts.to_zoned_datetime(tz.clone());
            let abbr = z.strftime("%Z").to_string();
            // Zones without a letter abbreviation show their offset.
            let abbr = if abbr.is_empty() {
                z.strftime("%:z").to_string()
            } else {
                abbr
            };
            format!("{} {abbr}", z.strftime("%Y-%m-%d %H:%M"))
        }
        None => t.format("%Y-%m-%d %H:%M UTC").to_string(),
    }
}

/// A timestamp from the service as a local clock time (see
/// [`local_time`]); an unreadable one is shown as received, sanitised.
pub fn when(raw: Option<&str>) -> String {
    match raw {
        Some(raw) => crate::api::parse_timestamp(raw)
            .map(local_time)
            .unwrap_or_else(|| crate::text::clean(raw)),
        None => "-".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn now() -> DateTime<Utc> {
        DateTime::parse_from_rfc3339("2026-11-22T10:00:00Z")
            .unwrap()
            .with_timezone(&Utc)
    }

    fn at(s: &str) -> DateTime<Utc> {
        DateTime::parse_from_rfc3339(s).unwrap().with_timezone(&Utc)
    }

    fn ny() -> TimeZone {
        TimeZone::get("America/New_York").unwrap()
    }

    #[test]
    fn parses_every_form() {
        let n = now();
        assert_eq!(parse_due("none", n), Ok(None));
        assert_eq!(
            parse_due("today", n).unwrap().unwrap(),
            "2026-11-22T23:59:59Z"
        );
        assert_eq!(
            parse_due("tomorrow", n).unwrap().unwrap(),
            "2026-11-23T23:59:59Z"
        );
        assert_eq!(
            parse_due("+3d", n).unwrap().unwrap(),
            "2026-11-25T23:59:59Z"
        );
        assert_eq!(
            parse_due("+2w", n).unwrap().unwrap(),
            "2026-12-06T23:59:59Z"
        );
        assert_eq!(
            parse_due("2026-12-01", n).unwrap().unwrap(),
            "2026-12-01T23:59:59Z"
        );
        assert_eq!(
            parse_due("2026-12-01T14:30", n).unwrap().unwrap(),
            "2026-12-01T14:30:00Z"
        );
        assert_eq!(
            parse_due("2026-12-01T14:30:00Z", n).unwrap().unwrap(),
            "2026-12-01T14:30:00Z"
        );
        assert!(parse_due("next blue moon", n).is_err());
        assert!(parse_due("+3x", n).is_err());
        assert!(parse_due("2026-13-40", n).is_err());
        for bad in ["+", "+3é", "+é", "+d"] {
            assert!(parse_due(bad, n).is_err(), "{bad:?}");
        }
        assert_eq!(
            parse_bound("today", n, true).unwrap(),
            "2026-11-22T00:00:00Z"
        );
        assert_eq!(
            parse_bound("today", n, false).unwrap(),
            "2026-11-22T23:59:59Z"
        );
        // In UTC a date alone is sent as typed (the service reads it as that
        // UTC day).
        assert_eq!(parse_bound("2026-12-01", n, true).unwrap(), "2026-12-01");
        assert!(parse_bound("none", n, true).is_err());
    }

    #[test]
    fn relative_dates_never_wrap_or_panic() {
        let n = now();
        assert_eq!(
            parse_due("+0d", n).unwrap().unwrap(),
            "2026-11-22T23:59:59Z"
        );
        assert_eq!(
            parse_due("+3650d", n).unwrap().unwrap(),
            "2036-11-19T23:59:59Z"
        );
        // Used to wrap around to "+5 days" (and to panic in debug builds).
        for far in [
            "+2635249153387078803w",
            "+99999999999d",
            "+99999999999999999999999d",
            "+3651d",
            "+522w",
            "+9223372036854775807d",
            "+1317624576693539402w",
        ] {
            let e = parse_due(far, n).unwrap_err();
            assert!(e.contains("too far away"), "{far}: {e}");
            assert!(e.contains(&format!("{far:?}")), "{far}: {e}");
        }
        for bad in ["-3d", "+-3d", "++3d", "+ 3d", "+3 d", "+3dd", "+w"] {
            let e = parse_due(bad, n).unwrap_err();
            assert!(!e.contains("too far"), "{bad}: {e}");
        }
    }

    proptest::proptest! {
        #[test]
        fn parse_due_never_panics(s in "\\PC{0,24}", n in proptest::num::u64::ANY, unit in "[dwx]") {
            let now = now();
            for tz in [TimeZone::UTC, ny()] {
                let _ = parse_due_in(&s, now, &tz);
                let _ = parse_bound_in(&s, now, true, &tz);
                let _ = parse_bound_in(&s, now, false, &tz);
                let _ = parse_due_in(&format!("+{n}{unit}"), now, &tz);
                let _ = parse_due_in(&format!("+{}{unit}", n as i64), now, &tz);
            }
        }

        #[test]
        fn display_never_panics(secs in proptest::num::i64::ANY) {
            if let Some(t) = DateTime::from_timestamp(secs / 1000, 0) {
                let _ = local_time_in(t, &ny());
                let _ = relative_in(t, now(), &ny());
                let _ = this_week_in(t, &ny());
            }
        }
    }

    #[test]
    fn relative_reads_naturally() {
        let n = now();
        assert_eq!(
            relative(at("2026-11-20T00:00:00Z"), n),
            ("2d overdue".into(), true)
        );
        assert_eq!(
            relative(at("2026-11-22T23:00:00Z"), n),
            ("today".into(), false)
        );
        assert_eq!(
            relative(at("2026-11-22T09:00:00Z"), n),
            ("overdue today".into(), true)
        );
        assert_eq!(
            relative(at("2026-11-25T00:00:00Z"), n),
            ("in 3d".into(), false)
        );
    }

    #[test]
    fn completed_tasks_are_never_late() {
        let n = now();
        assert_eq!(
            due_text(at("2026-11-20T00:00:00Z"), n, false),
            ("!2d overdue".into(), true)
        );
        assert_eq!(
            due_text(at("2026-11-20T00:00:00Z"), n, true),
            ("due 2d ago".into(), false)
        );
        assert_eq!(
            due_text(at("2026-11-25T00:00:00Z"), n, true),
            ("in 3d".into(), false)
        );
    }

    #[test]
    fn week_runs_monday_to_sunday() {
        assert_eq!(
            this_week(now()),
            ("2026-11-16T00:00:00Z".into(), "2026-11-22T23:59:59Z".into())
        );
    }

    // ---- local time: America/New_York, around the end of DST on
    // 2026-11-01 (02:00 EDT, UTC-4, becomes 01:00 EST, UTC-5). ----

    #[test]
    fn a_local_time_typed_in_new_york_is_sent_as_utc() {
        let tz = ny();
        let n = now();
        assert_eq!(
            parse_due_in("2026-11-30T09:00", n, &tz).unwrap().unwrap(),
            "2026-11-30T14:00:00Z"
        );
        // Summer time: four hours behind.
        assert_eq!(
            parse_due_in("2026-07-01 09:00", n, &tz).unwrap().unwrap(),
            "2026-07-01T13:00:00Z"
        );
        // A zone given with the time wins.
        assert_eq!(
            parse_due_in("2026-11-30T09:00Z", n, &tz).unwrap().unwrap(),
            "2026-11-30T09:00:00Z"
        );
        assert_eq!(
            parse_due_in("2026-11-30T09:00:00+01:00", n, &tz)
                .unwrap()
                .unwrap(),
            "2026-11-30T08:00:00Z"
        );
    }

    #[test]
    fn the_palette_due_command_sends_new_york_nine_am_as_utc() {
        use crate::app::tests::{loaded, palette};
        with_zone(ny(), || {
            let mut s = loaded(1);
            let fx = palette(&mut s, "due 2026-11-30T09:00");
            let (_, body) = crate::app::tests::only_patch(&fx);
            assert_eq!(
                body,
                serde_json::json!({"complete_by": "2026-11-30T14:00:00Z"})
            );
        });
    }

    #[test]
    fn day_words_end_at_local_midnight_across_the_dst_change() {
        let tz = ny();
        // Saturday 2026-10-31 23:30 EDT.
        let n = at("2026-11-01T03:30:00Z");
        assert_eq!(
            parse_due_in("today", n, &tz).unwrap().unwrap(),
            "2026-11-01T03:59:59Z",
            "the end of Oct 31 in EDT (UTC-4)"
        );
        assert_eq!(
            parse_due_in("tomorrow", n, &tz).unwrap().unwrap(),
            "2026-11-02T04:59:59Z",
            "the end of Nov 1 in EST (UTC-5)"
        );
        assert_eq!(
            parse_due_in("+1d", n, &tz).unwrap().unwrap(),
            "2026-11-02T04:59:59Z"
        );
        assert_eq!(
            parse_due_in("2026-11-01", n, &tz).unwrap().unwrap(),
            "2026-11-02T04:59:59Z"
        );
        // 01:30 happens twice that night: the first (EDT) is taken.
        assert_eq!(
            parse_due_in("2026-11-01T01:30", n, &tz).unwrap().unwrap(),
            "2026-11-01T05:30:00Z"
        );
        // The filter's day is 25 hours long: midnight EDT to 23:59:59 EST.
        let sunday = at("2026-11-01T12:00:00Z");
        assert_eq!(
            parse_bound_in("today", sunday, true, &tz).unwrap(),
            "2026-11-01T04:00:00Z"
        );
        assert_eq!(
            parse_bound_in("today", sunday, false, &tz).unwrap(),
            "2026-11-02T04:59:59Z"
        );
        assert_eq!(
            parse_bound_in("2026-11-01", sunday, true, &tz).unwrap(),
            "2026-11-01T04:00:00Z"
        );
        assert_eq!(
            parse_bound_in("2026-11-01", sunday, false, &tz).unwrap(),
            "2026-11-02T04:59:59Z"
        );
        assert_eq!(
            parse_bound_in("+2d", sunday, true, &tz).unwrap(),
            "2026-11-03T05:00:00Z"
        );
        assert_eq!(
            parse_bound_in("2026-11-01T09:00", sunday, true, &tz).unwrap(),
            "2026-11-01T14:00:00Z"
        );
        assert_eq!(
            parse_bound_in("2026-11-01T09:00:00Z", sunday, true, &tz).unwrap(),
            "2026-11-01T09:00:00Z"
        );
        // The week of Sunday Nov 1 began on Monday Oct 26 in EDT and ends
        // on Sunday Nov 1 in EST.
        assert_eq!(
            this_week_in(sunday, &tz),
            ("2026-10-26T04:00:00Z".into(), "2026-11-02T04:59:59Z".into())
        );
    }

    #[test]
    fn times_show_in_new_york_with_the_zone_named() {
        let tz = ny();
        assert_eq!(
            local_time_in(at("2026-11-01T05:30:00Z"), &tz),
            "2026-11-01 01:30 EDT"
        );
        assert_eq!(
            local_time_in(at("2026-11-01T06:30:00Z"), &tz),
            "2026-11-01 01:30 EST"
        );
        assert_eq!(
            local_time_in(at("2026-11-30T14:00:00Z"), &tz),
            "2026-11-30 09:00 EST"
        );
        assert_eq!(
            local_time_in(at("2026-11-30T14:00:00Z"), &TimeZone::UTC),
            "2026-11-30 14:00 UTC"
        );
        with_zone(tz, || {
            assert_eq!(when(Some("2026-11-30T14:00:00Z")), "2026-11-30 09:00 EST");
            assert_eq!(when(Some("soon\u{1b}[2J")), "soon\u{241b}[2J");
            assert_eq!(when(None), "-");
        });
    }

    #[test]
    fn overdue_and_due_in_count_local_days() {
        let tz = ny();
        // Saturday Oct 31, 23:30 EDT; in UTC it is already Sunday.
        let n = at("2026-11-01T03:30:00Z");
        // 00:30 EDT on Nov 1 is tomorrow here, today in UTC.
        assert_eq!(
            relative_in(at("2026-11-01T04:30:00Z"), n, &tz),
            ("tomorrow".into(), false)
        );
        assert_eq!(
            relative_in(at("2026-11-01T04:30:00Z"), n, &TimeZone::UTC),
            ("today".into(), false)
        );
        // 20:00 EDT on Oct 30 was yesterday here (Oct 31 in UTC).
        assert_eq!(
            due_text_in(at("2026-10-31T00:00:00Z"), n, false, &tz),
            ("!1d overdue".into(), true)
        );
        assert_eq!(
            due_text_in(at("2026-10-31T00:00:00Z"), n, true, &tz),
            ("due 1d ago".into(), false)
        );
        // Sunday Nov 1 12:00 EST: due Monday 09:00 EST is tomorrow.
        let sunday = at("2026-11-01T17:00:00Z");
        assert_eq!(
            relative_in(at("2026-11-02T14:00:00Z"), sunday, &tz),
            ("tomorrow".into(), false)
        );
        // And the default zone is the one tests choose.
        with_zone(ny(), || {
            assert_eq!(
                relative(at("2026-11-01T04:30:00Z"), n),
                ("tomorrow".into(), false)
            );
            assert_eq!(
                parse_bound("2026-12-01", now(), true).unwrap(),
                "2026-12-01T05:00:00Z"
            );
        });
    }

    #[test]
    fn zone_settings_resolve() {
        assert_eq!(resolve_zone("utc").unwrap(), TimeZone::UTC);
        assert_eq!(resolve_zone(" UTC ").unwrap(), TimeZone::UTC);
        assert_eq!(
            resolve_zone("America/New_York").unwrap().iana_name(),
            Some("America/New_York")
        );
        assert!(resolve_zone("system").is_ok());
        let e = resolve_zone("Mars/Olympus_Mons\u{1b}[2J").unwrap_err();
        assert!(e.contains("unknown time zone"), "{e}");
        assert!(!e.contains('\u{1b}'), "{e}");
        assert!(resolve_zone("").is_err());
        for utc in ["UTC", "Etc/UTC", "Etc/Zulu", "GMT"] {
            assert!(is_utc(&TimeZone::get(utc).unwrap()), "{utc}");
        }
        assert!(!is_utc(&ny()));
        assert!(!is_utc(&TimeZone::get("Europe/London").unwrap()));
    }
}
