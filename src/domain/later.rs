//! Times ahead as people say them, for snoozes and follow-ups
//! (`2h`, `tomorrow`, `mon 9:00`, `fri`, `2026-12-01 14:00`), and the
//! short local forms the inbox shows (`Fri`, `Mon 09:00`, `today 14:00`).

use super::dates::{
    add_days, days_between, from_local, local_date, local_time_in, typed_date, zone, MAX_DAYS_AHEAD,
};
use jiff::civil::{Date, DateTime, Time};
use jiff::tz::TimeZone;
use jiff::{SignedDuration, Timestamp};

/// The clock time a day without one means (the start of a working day).
const MORNING: (i8, i8) = (9, 0);

/// When `input` says, after `now`, in the user's zone: `30m`, `2h`, `3d`,
/// `1w` (also with a `+`); `today 17:00`, `tomorrow` (09:00), `mon`
/// (the next Monday, 09:00) or `monday 14:30`; a clock time alone (`16:00`:
/// today, or tomorrow once passed); a date (`2026-12-01`, 09:00) with an
/// optional time. Anything not ahead of `now` is refused.
pub fn parse_later(input: &str, now: Timestamp) -> Result<Timestamp, String> {
    parse_later_in(input, now, &zone())
}

pub fn parse_later_in(input: &str, now: Timestamp, tz: &TimeZone) -> Result<Timestamp, String> {
    let s = input.trim().to_ascii_lowercase();
    let bad = || {
        format!(
            "{:?} is not a time ahead: use 2h, 30m, 3d, tomorrow, mon 9:00, 16:00 or 2026-12-01",
            crate::text::clean(input.trim())
        )
    };
    if s.is_empty() {
        return Err("say when: 2h, tomorrow, mon 9:00, 2026-12-01".into());
    }
    let body = s.strip_prefix('+').unwrap_or(&s);
    if let Some(at) = duration(body).map(|d| now + d) {
        return Ok(at);
    }
    let mut words = s.split_whitespace();
    let day_word = words.next().unwrap_or_default();
    let clock = words.next();
    if words.next().is_some() {
        return Err(bad());
    }
    let today = local_date(now, tz);
    let (day, clock) = if let Some(c) = parse_clock(day_word) {
        // A clock time alone: today, or tomorrow once it has passed.
        let at = from_local(at_clock(today, c).ok_or_else(bad)?, tz).ok_or_else(bad)?;
        if at > now {
            return Ok(at);
        }
        (add_days(today, 1).ok_or_else(bad)?, Some(c))
    } else {
        let day = match day_word {
            "today" => today,
            "tomorrow" => add_days(today, 1).ok_or_else(bad)?,
            w => match weekday(w) {
                Some(wd) => {
                    let ahead = (wd + 7 - today.weekday().to_monday_zero_offset()) % 7;
                    add_days(today, if ahead == 0 { 7 } else { ahead }.into()).ok_or_else(bad)?
                }
                None => typed_date(w).ok_or_else(bad)?,
            },
        };
        let clock = match clock {
            Some(c) => Some(parse_clock(c).ok_or_else(bad)?),
            None => None,
        };
        (day, clock)
    };
    let (h, m) = clock.unwrap_or(MORNING);
    let at = from_local(at_clock(day, (h, m)).ok_or_else(bad)?, tz).ok_or_else(bad)?;
    if at <= now {
        return Err(format!(
            "{} has passed: say a time ahead",
            local_time_in(at, tz)
        ));
    }
    Ok(at)
}

/// `day` at the clock time `(hour, minute)`.
fn at_clock(day: Date, (h, m): (i8, i8)) -> Option<DateTime> {
    Some(day.to_datetime(Time::new(h, m, 0, 0).ok()?))
}

fn duration(s: &str) -> Option<SignedDuration> {
    let (i, unit) = s.char_indices().last()?;
    let num = &s[..i];
    if num.is_empty() || !num.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let n: i64 = num.parse().ok()?;
    let minutes = match unit {
        'm' => n,
        'h' => n.checked_mul(60)?,
        'd' => n.checked_mul(24 * 60)?,
        'w' => n.checked_mul(7 * 24 * 60)?,
        _ => return None,
    };
    (minutes > 0 && minutes <= MAX_DAYS_AHEAD * 24 * 60).then(|| SignedDuration::from_mins(minutes))
}

fn parse_clock(s: &str) -> Option<(i8, i8)> {
    let (h, m) = s.split_once(':').unwrap_or((s, "0"));
    if h.is_empty() || h.len() > 2 || m.len() > 2 || !s.contains(':') && s.len() > 2 {
        return None;
    }
    if !s.contains(':') {
        // "9" alone is not a clock (it reads as a number): "9:00" is.
        return None;
    }
    let (h, m): (u32, u32) = (h.parse().ok()?, m.parse().ok()?);
    (h < 24 && m < 60).then_some((h as i8, m as i8))
}

/// `mon`, `tues`, `friday`: a day's name cut after three letters or more
/// (`mondaytue`, `monx` are not days).
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

/// The local calendar day of `t` (`2026-11-25`): "once per local day".
pub fn day_key(t: Timestamp) -> String {
    crate::api::ymd(local_date(t, &zone()))
}

/// A time near `now` in few characters, local: `today 14:00`,
/// `tomorrow 09:00`, `Fri 09:00` within a week, else `2026-12-01 09:00`.
/// `with_clock: false` drops the clock (a due date: `Fri`, `today`).
pub fn short_when(t: Timestamp, now: Timestamp, with_clock: bool) -> String {
    let tz = zone();
    let day = local_date(t, &tz);
    let days = days_between(local_date(now, &tz), day);
    let name = match days {
        0 => "today".to_string(),
        1 => "tomorrow".to_string(),
        -1 => "yesterday".to_string(),
        d if (-6..=6).contains(&d) => day.strftime("%a").to_string(),
        _ => crate::api::ymd(day),
    };
    if !with_clock {
        return name;
    }
    let clock = t
        .to_zoned_datetime(tz.clone())
        .strftime("%H:%M")
        .to_string();
    format!("{name} {clock}")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(s: &str) -> Timestamp {
        crate::api::parse_timestamp(s).unwrap()
    }

    #[test]
    fn durations_weekdays_and_clocks_read_ahead_of_now() {
        // Wednesday 2026-11-25 10:00 UTC (tests run in UTC).
        let now = at("2026-11-25T10:00:00Z");
        let tz = TimeZone::UTC;
        let p = |s: &str| parse_later_in(s, now, &tz).map(crate::api::to_rfc3339);
        assert_eq!(p("2h").unwrap(), "2026-11-25T12:00:00+00:00");
        assert_eq!(p("+30m").unwrap(), "2026-11-25T10:30:00+00:00");
        assert_eq!(p("tomorrow").unwrap(), "2026-11-26T09:00:00+00:00");
        assert_eq!(p("mon 9:00").unwrap(), "2026-11-30T09:00:00+00:00");
        assert_eq!(p("friday").unwrap(), "2026-11-27T09:00:00+00:00");
        // The same weekday is next week's.
        assert_eq!(p("wed").unwrap(), "2026-12-02T09:00:00+00:00");
        assert_eq!(p("16:00").unwrap(), "2026-11-25T16:00:00+00:00");
        // A clock time already passed today is tomorrow's.
        assert_eq!(p("08:00").unwrap(), "2026-11-26T08:00:00+00:00");
        assert_eq!(p("2026-12-01 14:30").unwrap(), "2026-12-01T14:30:00+00:00");
        assert!(p("today 08:00").unwrap_err().contains("has passed"));
        for bad in [
            "",
            "soon",
            "0h",
            "-2h",
            "mon 25:00",
            "2026-13-01",
            "fr",
            "9",
            // Not a day's name, though made of them.
            "mondaytue",
            "wednesdaythursday",
            // A year is four digits: 26-12-01 is not 2026.
            "26-12-01",
            "+2026-12-01",
        ] {
            assert!(p(bad).is_err(), "{bad:?} must be refused");
        }
    }

    #[test]
    fn a_zone_east_of_utc_reads_tomorrow_in_its_own_day() {
        let now = at("2026-11-25T23:30:00Z");
        let tz = crate::domain::dates::resolve_zone("Europe/Berlin").unwrap();
        // 00:30 on Thursday in Berlin: tomorrow is Friday 09:00 CET.
        let t = parse_later_in("tomorrow", now, &tz).unwrap();
        assert_eq!(crate::api::to_rfc3339(t), "2026-11-27T08:00:00+00:00");
    }

    #[test]
    fn short_forms_name_the_day() {
        let now = at("2026-11-25T10:00:00Z");
        assert_eq!(
            short_when(at("2026-11-25T14:00:00Z"), now, true),
            "today 14:00"
        );
        assert_eq!(short_when(at("2026-11-27T09:00:00Z"), now, false), "Fri");
        assert_eq!(short_when(at("2026-11-23T09:00:00Z"), now, false), "Mon");
        assert_eq!(
            short_when(at("2027-01-05T09:00:00Z"), now, false),
            "2027-01-05"
        );
    }
}
