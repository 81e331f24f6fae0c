//! Times ahead as people say them, for snoozes and follow-ups
//! (`2h`, `tomorrow`, `mon 9:00`, `fri`, `2026-12-01 14:00`), and the
//! short local forms the inbox shows (`Fri`, `Mon 09:00`, `today 14:00`).

use super::dates::when::{parse_when, When};
use super::dates::{days_between, from_local, local_date, local_time_in, zone};
use jiff::civil::Time;
use jiff::tz::TimeZone;
use jiff::{SignedDuration, Timestamp};

/// The clock time a day without one means (the start of a working day).
const MORNING: (i8, i8) = (9, 0);

/// When `input` says, after `now`, in the user's zone, in the grammar
/// every typed time shares ([`crate::domain::dates::when`]): `30m`, `2h`,
/// `3d`, `1w` (from now); `today 17:00`, `tomorrow` (09:00), `mon`
/// (the next Monday, 09:00), `next fri 5pm`; a clock time alone (`16:00`:
/// today, or tomorrow once passed); a date (`2026-12-01`, 09:00) with an
/// optional time. Anything not ahead of `now` is refused.
pub fn parse_later(input: &str, now: Timestamp) -> Result<Timestamp, String> {
    parse_later_in(input, now, &zone())
}

pub fn parse_later_in(input: &str, now: Timestamp, tz: &TimeZone) -> Result<Timestamp, String> {
    let bad = || format!("{:?} is not a time", crate::text::clean(input.trim()));
    let at = match parse_when(input, now, tz)? {
        When::At(t) => t,
        When::Days(n) => now + SignedDuration::from_hours(n * 24),
        When::Day(d) => {
            let morning = Time::new(MORNING.0, MORNING.1, 0, 0).map_err(|_| bad())?;
            from_local(d.to_datetime(morning), tz).ok_or_else(bad)?
        }
    };
    if at <= now {
        return Err(format!(
            "{} has passed: say a time ahead",
            local_time_in(at, tz)
        ));
    }
    Ok(at)
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
            "tomorrow tomorrow",
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
