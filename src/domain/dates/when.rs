//! One grammar for every time a person types: `:due`, a filter's bounds,
//! `:snooze` and `:follow-up` all read through [`parse_when`], and differ
//! only in what a day without a clock time means (the end of that day for
//! a due date, its start or end for a bound, 09:00 for a snooze).
//!
//! The forms, in the user's zone:
//! - a day: `today`, `tomorrow`, a weekday (`fri`, `friday`, `next fri`:
//!   the next one after today), a date (`2026-12-01`);
//! - a day and a clock time: `fri 17:00`, `next friday 5pm`,
//!   `tomorrow at 9:30`, `2026-12-01 14:00`, `2026-12-01T14:00[:00]`;
//! - a clock time alone (`16:00`, `4pm`): the next time the clock says so;
//! - a span from now: `30m`, `2h` (an instant), `3d`, `2w`, `+3d` (a day);
//! - an instant with a zone: `2026-12-01T14:00:00Z`, `…+01:00`.

use super::civil::{add_days, from_local, full_year, local_date, typed_date, MAX_DAYS_AHEAD};
use crate::api::{parse_datetime, parse_rfc3339, utc};
use jiff::civil::{Date, DateTime, Time};
use jiff::tz::TimeZone;
use jiff::{SignedDuration, Timestamp};

/// Every form, once, for messages and help.
pub const FORMS: &str =
    "2026-12-01, 2026-12-01 14:00, today, tomorrow 16:00, fri, next fri 17:00, 16:00, 5pm, +3d, 2w, 2h";

/// What a typed time says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum When {
    /// A local day, no clock time said.
    Day(Date),
    /// An instant.
    At(Timestamp),
    /// Whole days ahead (`3d`, `+2w`): the day that many days from today,
    /// or that long from now, as the reader wants.
    Days(i64),
}

/// The first day any typed time may fall on (issue 42, point 8): no
/// earlier year reaches the service as year 0000 in any zone.
pub const EARLIEST: &str = "1970-01-01";

/// The one range every typed time falls in, in one sentence: the days
/// from [`EARLIEST`] to ten years (`MAX_DAYS_AHEAD` days) from today.
pub fn range_words(now: Timestamp, tz: &TimeZone) -> String {
    let last = add_days(local_date(now, tz), MAX_DAYS_AHEAD)
        .map(crate::api::ymd)
        .unwrap_or_default();
    format!("a time is taken from {EARLIEST} to ten years from today ({last})")
}

/// `raw` refused for falling outside the range, saying the range.
pub(crate) fn out_of_range(raw: &str, now: Timestamp, tz: &TimeZone) -> String {
    format!(
        "{:?} is out of range: {}",
        crate::text::clean(raw.trim()),
        range_words(now, tz)
    )
}

/// Whether the local day `d` is in the one range.
pub(crate) fn day_in_range(d: Date, now: Timestamp, tz: &TimeZone) -> bool {
    let first = typed_date(EARLIEST);
    let last = add_days(local_date(now, tz), MAX_DAYS_AHEAD);
    first.is_some_and(|f| d >= f) && last.is_some_and(|l| d <= l)
}

/// `w`, if it falls in the one range (an instant by its local day).
pub(crate) fn in_range(w: When, raw: &str, now: Timestamp, tz: &TimeZone) -> Result<When, String> {
    let ok = match w {
        When::Day(d) => day_in_range(d, now, tz),
        When::At(t) => day_in_range(local_date(t, tz), now, tz),
        When::Days(n) => (0..=MAX_DAYS_AHEAD).contains(&n),
    };
    if ok {
        Ok(w)
    } else {
        Err(out_of_range(raw, now, tz))
    }
}

/// Read `input` at `now` in `tz`. Case and spacing do not matter. Every
/// answer falls in the one range ([`range_words`]).
pub fn parse_when(input: &str, now: Timestamp, tz: &TimeZone) -> Result<When, String> {
    let w = parse_any_when(input, now, tz)?;
    in_range(w, input, now, tz)
}

fn parse_any_when(input: &str, now: Timestamp, tz: &TimeZone) -> Result<When, String> {
    let raw = input.trim();
    let s = raw.to_ascii_lowercase();
    let bad = || {
        format!(
            "{:?} is not a date or time: use {FORMS}",
            crate::text::clean(raw)
        )
    };
    if s.is_empty() {
        return Err(format!("say when: {FORMS}"));
    }
    if let Some(t) = parse_rfc3339(raw) {
        return Ok(When::At(t));
    }
    if let Some(span) = span(&spelled(&s).unwrap_or_else(|| s.clone()), now, tz)? {
        return Ok(span);
    }
    let words: Vec<&str> = s.split_whitespace().collect();
    // `next fri`, `fri at 17:00`: the words that only join.
    let words: Vec<&str> = match words.as_slice() {
        ["next", day, rest @ ..] if weekday(day).is_some() => {
            std::iter::once(*day).chain(rest.iter().copied()).collect()
        }
        _ => words,
    };
    let (day_word, clock_words): (&str, &[&str]) = match words.as_slice() {
        [one] => (one, &[]),
        [day, "at", clock] => (day, std::slice::from_ref(clock)),
        [day, clock] => (day, std::slice::from_ref(clock)),
        _ => return Err(bad()),
    };
    let today = local_date(now, tz);
    // A clock time alone: the next time the clock says so.
    if clock_words.is_empty() {
        if let Some(c) = clock(day_word) {
            let at = local(today, c, tz).ok_or_else(bad)?;
            if at > now {
                return Ok(When::At(at));
            }
            let tomorrow = add_days(today, 1).ok_or_else(bad)?;
            return local(tomorrow, c, tz).map(When::At).ok_or_else(bad);
        }
        // `2026-12-01T14:00` (a `T` or a trailing `Z` joins date and time).
        if let Some(t) = joined(&s, tz) {
            return Ok(When::At(t));
        }
    }
    let day = day_of(day_word, today).ok_or_else(bad)?;
    match clock_words {
        [] => Ok(When::Day(day)),
        [c] => {
            let c = clock(c).ok_or_else(bad)?;
            local(day, c, tz).map(When::At).ok_or_else(bad)
        }
        _ => Err(bad()),
    }
}

/// `day` at the clock time `(h, m, s)` in `tz` (a skipped time moves
/// forward, a repeated one is the first).
fn local(day: Date, (h, m, s): (i8, i8, i8), tz: &TimeZone) -> Option<Timestamp> {
    from_local(DateTime::from_parts(day, Time::new(h, m, s, 0).ok()?), tz)
}

/// `today`, `tomorrow`, a weekday, a date.
fn day_of(w: &str, today: Date) -> Option<Date> {
    match w {
        "today" => Some(today),
        "tomorrow" => add_days(today, 1),
        _ => match weekday(w) {
            Some(wd) => {
                let ahead = (wd + 7 - today.weekday().to_monday_zero_offset()) % 7;
                add_days(today, if ahead == 0 { 7 } else { ahead }.into())
            }
            None => typed_date(w),
        },
    }
}

/// `2026-12-01t14:00[:00][z]`: a date and time written as one word.
fn joined(s: &str, tz: &TimeZone) -> Option<Timestamp> {
    let (body, zulu) = match s.strip_suffix('z') {
        Some(b) => (b, true),
        None => (s, false),
    };
    if !full_year(body) {
        return None;
    }
    ["%Y-%m-%dt%H:%M:%S", "%Y-%m-%dt%H:%M"]
        .iter()
        .find_map(|f| parse_datetime(body, f))
        .and_then(|t| if zulu { utc(t) } else { from_local(t, tz) })
}

/// `30m`, `2h` (from now), `3d`, `2w` (days ahead), with or without `+`.
/// `Ok(None)`: not a span. A span too far or of nothing is refused.
fn span(s: &str, now: Timestamp, tz: &TimeZone) -> Result<Option<When>, String> {
    let signed = s.starts_with('+');
    let body = s.strip_prefix('+').unwrap_or(s);
    let Some((i, unit)) = body.char_indices().last() else {
        return Err(format!("{s:?}: use +Nd or +Nw, e.g. +3d"));
    };
    let num = &body[..i];
    let digits = !num.is_empty() && num.bytes().all(|b| b.is_ascii_digit());
    if !digits || !matches!(unit, 'm' | 'h' | 'd' | 'w') {
        // `+x`, `+3é`: a plus starts only a span.
        return if signed {
            Err(format!("{s:?}: use +Nd or +Nw, e.g. +3d"))
        } else {
            Ok(None)
        };
    }
    let too_far = || out_of_range(s, now, tz);
    let n: i64 = num.parse().map_err(|_| too_far())?;
    let minutes = match unit {
        'm' => Some(n),
        'h' => n.checked_mul(60),
        'd' => n.checked_mul(24 * 60),
        _ => n.checked_mul(7 * 24 * 60),
    }
    .filter(|m| *m <= MAX_DAYS_AHEAD * 24 * 60)
    .ok_or_else(too_far)?;
    Ok(Some(match unit {
        'd' | 'w' => When::Days(minutes / (24 * 60)),
        _ if minutes == 0 => return Err(format!("{s:?} is now: say a time ahead")),
        _ => When::At(now + SignedDuration::from_mins(minutes)),
    }))
}

/// `in 3 days`, `in 2 hours`, `in 1 week`, `in 30 minutes`: the span
/// written out (`3d`, `2h`, `1w`, `30m`), read as one.
fn spelled(s: &str) -> Option<String> {
    let words: Vec<&str> = s.split_whitespace().collect();
    let ["in", n, unit] = words.as_slice() else {
        return None;
    };
    let unit = match unit.trim_end_matches('s') {
        "minute" | "min" => 'm',
        "hour" => 'h',
        "day" => 'd',
        "week" => 'w',
        _ => return None,
    };
    n.bytes()
        .all(|b| b.is_ascii_digit())
        .then(|| format!("{n}{unit}"))
}

/// A clock time: `16:00`, `9:30`, `16:00:30`, `4pm`, `4:30pm`, `12am`.
/// A bare number is not one (`9` reads as a number).
fn clock(s: &str) -> Option<(i8, i8, i8)> {
    let (body, half) = if let Some(b) = s.strip_suffix("am") {
        (b, Some(false))
    } else if let Some(b) = s.strip_suffix("pm") {
        (b, Some(true))
    } else {
        (s, None)
    };
    let mut parts = body.split(':');
    let h = parts.next()?;
    let m = parts.next();
    let sec = parts.next();
    if parts.next().is_some() || (m.is_none() && half.is_none()) {
        return None;
    }
    let num = |p: &str, max: u32| -> Option<u32> {
        (!p.is_empty() && p.len() <= 2 && p.bytes().all(|b| b.is_ascii_digit()))
            .then(|| p.parse().ok())
            .flatten()
            .filter(|v| *v < max)
    };
    let m = match m {
        Some(m) if m.len() == 2 => num(m, 60)?,
        Some(_) => return None,
        None => 0,
    };
    let sec = match sec {
        Some(x) if x.len() == 2 => num(x, 60)?,
        Some(_) => return None,
        None => 0,
    };
    let h = match half {
        None => num(h, 24)?,
        Some(pm) => {
            let h = num(h, 13).filter(|h| *h >= 1)?;
            (h % 12) + if pm { 12 } else { 0 }
        }
    };
    Some((h as i8, m as i8, sec as i8))
}

/// `mon`, `tues`, `friday`: a day's name cut after three letters or more
/// (`mondaytue`, `monx` are not days). Monday is 0.
fn weekday(w: &str) -> Option<i8> {
    const NAMES: [&str; 7] = [
        "monday",
        "tuesday",
        "wednesday",
        "thursday",
        "friday",
        "saturday",
        "sunday",
    ];
    if w.len() < 3 {
        return None;
    }
    NAMES.iter().position(|d| d.starts_with(w)).map(|i| i as i8)
}
