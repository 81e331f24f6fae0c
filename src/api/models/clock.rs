//! Reading and writing timestamps with jiff, byte for byte as before.
//!
//! The client used to read timestamps with chrono; jiff's own parsers are
//! stricter in some places and looser in others (it reads `+0100` offsets,
//! `T10Z`, bracketed zone names). What the service may send, what a user may
//! type and what is stored must read exactly as before, so the few forms in
//! use are read here the way chrono read them: RFC 3339 (`T`, `t` or a space
//! between date and time, `Z`/`z` or `±hh:mm`, any number of fraction
//! digits, a leap second as :59), and the `strftime` patterns with `%Y %m %d
//! %H %M %S %.f` (a number of up to its width in digits after optional
//! blanks, a year of up to four digits or signed, seconds optional).

use jiff::civil::{Date, DateTime, Time};
use jiff::tz::{Offset, TimeZone};
use jiff::Timestamp;
use std::sync::OnceLock;

// The user's time zone (`domain::dates` sets and reads it): here, because
// a due date received without a time is read in it.
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

/// The user's time zone. Set once at start with [`set_zone`] (the command
/// line does it from `time_zone` in the config file, else from
/// [`system_zone`]); otherwise `TZ`, else the system's, read as
/// [`system_zone`] reads them.
pub fn zone() -> TimeZone {
    #[cfg(test)]
    {
        if let Some(tz) = TEST_ZONE.with(|z| z.borrow().clone()) {
            return tz;
        }
        TimeZone::UTC
    }
    #[cfg(not(test))]
    ZONE.get_or_init(|| system_zone().0).clone()
}

/// The most a time zone file may hold (a TZif file is a few KiB).
pub const ZONE_FILE_CAP: u64 = 1024 * 1024;

/// The system's time zone, read as jiff's `TimeZone::system` reads it —
/// `TZ` as a POSIX rule or a name of the bundled database (`:` in front
/// optional, anything up to `zoneinfo/` ignored), else the file it names;
/// without `TZ`, `/etc/localtime` — except that a file is read only if it
/// is a regular file of at most [`ZONE_FILE_CAP`], through
/// [`crate::files::read_regular_bytes`]: a FIFO would block every command,
/// `/dev/zero` would be read until memory ran out. What cannot be read is
/// UTC, with the reason in one line (the caller says it). An empty `TZ` is
/// UTC, as everywhere on Unix.
pub fn system_zone() -> (TimeZone, Option<String>) {
    let Some(env) = std::env::var_os("TZ") else {
        return match zone_file("/etc/localtime") {
            Ok(tz) => (tz, None),
            // No /etc/localtime (a container): UTC, nothing to say.
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => (TimeZone::UTC, None),
            Err(e) => (
                TimeZone::UTC,
                Some(format!(
                    "the time zone file /etc/localtime cannot be read ({e}): times are in UTC"
                )),
            ),
        };
    };
    if env.is_empty() {
        return (TimeZone::UTC, None);
    }
    let Some(value) = env.to_str() else {
        return (
            TimeZone::UTC,
            Some("TZ is not UTF-8 text: times are in UTC".to_string()),
        );
    };
    if !value.starts_with(':') {
        if let Ok(tz) = TimeZone::posix(value) {
            return (tz, None);
        }
    }
    let name = value.strip_prefix(':').unwrap_or(value);
    if let Ok(tz) = TimeZone::get(iana_part(name)) {
        return (tz, None);
    }
    match zone_file(name) {
        Ok(tz) => (tz, None),
        Err(e) => (
            TimeZone::UTC,
            Some(format!(
                "TZ={:?} is neither a known time zone nor a readable time zone file ({e}): \
                 times are in UTC",
                crate::text::clean(value)
            )),
        ),
    }
}

/// The IANA name in a path such as `/usr/share/zoneinfo/Europe/Paris`
/// (what follows the last `zoneinfo/`), else the whole.
fn iana_part(path: &str) -> &str {
    path.rfind("zoneinfo/")
        .map_or(path, |at| &path[at + "zoneinfo/".len()..])
}

/// A zone from a file: a symlink into a zoneinfo folder by its name in
/// the bundled database, else the file's TZif data, read bounded.
fn zone_file(path: &str) -> std::io::Result<TimeZone> {
    if let Ok(target) = std::fs::read_link(path) {
        if let Some(t) = target.to_str().filter(|t| t.contains("zoneinfo/")) {
            if let Ok(tz) = TimeZone::get(iana_part(t)) {
                return Ok(tz);
            }
        }
    }
    let bytes = crate::files::read_regular_bytes(std::path::Path::new(path), ZONE_FILE_CAP)?;
    TimeZone::tzif(iana_part(path), &bytes).map_err(|e| {
        std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!("not a time zone file: {e}"),
        )
    })
}

/// Fix the zone for the rest of the process (before any date is read or
/// shown); false when it was already fixed.
pub fn set_zone(tz: TimeZone) -> bool {
    ZONE.set(tz).is_ok()
}

/// The end of the local day `d` (23:59:59 in the user's zone): what a
/// date alone means as a due date, typed or received.
pub fn end_of_local_day(d: Date) -> Option<Timestamp> {
    zone()
        .to_timestamp(d.to_datetime(Time::new(23, 59, 59, 0).ok()?))
        .ok()
}

/// An RFC 3339 date-time with an offset, as UTC (chrono's
/// `DateTime::parse_from_rfc3339`).
pub fn parse_rfc3339(s: &str) -> Option<Timestamp> {
    let b = s.as_bytes();
    if b.len() < 19 {
        return None;
    }
    let digits = |from: usize, n: usize| -> Option<i32> {
        b[from..from + n].iter().try_fold(0i32, |acc, c| {
            c.is_ascii_digit().then(|| acc * 10 + i32::from(c - b'0'))
        })
    };
    let year = digits(0, 4)?;
    let month = digits(5, 2)?;
    let day = digits(8, 2)?;
    let (hour, minute, second) = (digits(11, 2)?, digits(14, 2)?, digits(17, 2)?);
    if b[4] != b'-' || b[7] != b'-' || !matches!(b[10], b'T' | b't' | b' ') {
        return None;
    }
    if b[13] != b':' || b[16] != b':' {
        return None;
    }
    let mut rest = &s[19..];
    let mut nano = 0;
    if let Some(frac) = rest.strip_prefix('.') {
        let (n, after) = fraction(frac)?;
        nano = n;
        rest = after;
    }
    let offset = offset(rest)?;
    let date = Date::new(year as i16, month as i8, day as i8).ok()?;
    let civil = date.to_datetime(clock(hour, minute, second, nano)?);
    Offset::from_seconds(offset).ok()?.to_timestamp(civil).ok()
}

/// `Z`, `z` or `±hh:mm` (under a day, as RFC 3339 says; chrono also took
/// U+2212 MINUS SIGN) as seconds east of UTC, ending the text.
fn offset(s: &str) -> Option<i32> {
    if matches!(s, "Z" | "z") {
        return Some(0);
    }
    let (west, hm) = if let Some(r) = s.strip_prefix('+') {
        (false, r)
    } else if let Some(r) = s.strip_prefix('-').or_else(|| s.strip_prefix('\u{2212}')) {
        (true, r)
    } else {
        return None;
    };
    let b = hm.as_bytes();
    if b.len() != 5 || b[2] != b':' || !b[..2].iter().chain(&b[3..]).all(u8::is_ascii_digit) {
        return None;
    }
    let (h, m) = (hm[..2].parse::<i32>().ok()?, hm[3..].parse::<i32>().ok()?);
    if h > 23 || m > 59 {
        return None;
    }
    let secs = h * 3600 + m * 60;
    Some(if west { -secs } else { secs })
}

/// A wall-clock time; second 60 (a leap second) reads as :59, as chrono's
/// `second()` and `timestamp()` gave it.
fn clock(hour: i32, minute: i32, second: i32, nano: i32) -> Option<Time> {
    let second = if second == 60 { 59 } else { second };
    Time::new(
        i8::try_from(hour).ok()?,
        i8::try_from(minute).ok()?,
        i8::try_from(second).ok()?,
        nano,
    )
    .ok()
}

/// The digits of a fraction of a second (at least one; past nine ignored)
/// as nanoseconds, and what follows them.
fn fraction(s: &str) -> Option<(i32, &str)> {
    let end = s.bytes().take_while(u8::is_ascii_digit).count();
    if end == 0 {
        return None;
    }
    let kept = &s[..end.min(9)];
    let n: i32 = kept.parse().ok()?;
    Some((n * 10i32.pow(9 - kept.len() as u32), &s[end..]))
}

/// What a `strftime` pattern found, field by field.
#[derive(Default)]
struct Fields {
    year: Option<i64>,
    month: Option<i64>,
    day: Option<i64>,
    hour: Option<i64>,
    minute: Option<i64>,
    second: Option<i64>,
    nano: Option<i64>,
}

/// Up to `max` digits (at least one) and what follows them.
fn number(s: &str, max: usize) -> Option<(i64, &str)> {
    let end = s.bytes().take(max).take_while(u8::is_ascii_digit).count();
    if end == 0 {
        return None;
    }
    Some((s[..end].parse().ok()?, &s[end..]))
}

/// Read `s` with a pattern of `%Y %m %d %H %M %S %.f`, blanks and literal
/// characters, the way chrono's `parse_from_str` did.
fn fields(mut s: &str, pattern: &str) -> Option<Fields> {
    let mut f = Fields::default();
    let mut p = pattern.chars();
    while let Some(c) = p.next() {
        if c.is_whitespace() {
            s = s.trim_start();
            continue;
        }
        if c != '%' {
            s = s.strip_prefix(c)?;
            continue;
        }
        let spec = p.next()?;
        if spec == '.' {
            // `%.f`: an optional fraction.
            if p.next()? != 'f' {
                return None;
            }
            if let Some(frac) = s.strip_prefix('.') {
                let (n, rest) = fraction(frac)?;
                f.nano = Some(n.into());
                s = rest;
            }
            continue;
        }
        s = s.trim_start();
        let (slot, width, range) = match spec {
            'Y' => (&mut f.year, 4, i64::from(i32::MIN)..=i64::from(i32::MAX)),
            'm' => (&mut f.month, 2, 1..=12),
            'd' => (&mut f.day, 2, 1..=31),
            'H' => (&mut f.hour, 2, 0..=23),
            'M' => (&mut f.minute, 2, 0..=59),
            'S' => (&mut f.second, 2, 0..=60),
            _ => return None,
        };
        let (v, rest) = match (spec, s.as_bytes().first()) {
            ('Y', Some(b'-')) => {
                let (v, rest) = number(&s[1..], usize::MAX)?;
                (-v, rest)
            }
            ('Y', Some(b'+')) => number(&s[1..], usize::MAX)?,
            _ => number(s, width)?,
        };
        if !range.contains(&v) {
            return None;
        }
        *slot = Some(v);
        s = rest;
    }
    s.is_empty().then_some(f)
}

impl Fields {
    fn date(&self) -> Option<Date> {
        let year = i16::try_from(self.year?).ok()?;
        Date::new(year, self.month? as i8, self.day? as i8).ok()
    }

    fn datetime(&self) -> Option<DateTime> {
        let date = self.date()?;
        // Seconds may be left out, a fraction only after them.
        if self.second.is_none() && self.nano.is_some() {
            return None;
        }
        let time = clock(
            self.hour? as i32,
            self.minute? as i32,
            self.second.unwrap_or(0) as i32,
            self.nano.unwrap_or(0) as i32,
        )?;
        Some(date.to_datetime(time))
    }
}

/// A date read with a `strftime` pattern (chrono's `NaiveDate::parse_from_str`).
pub fn parse_date(s: &str, pattern: &str) -> Option<Date> {
    fields(s, pattern)?.date()
}

/// A date and time read with a `strftime` pattern (chrono's
/// `NaiveDateTime::parse_from_str`).
pub fn parse_datetime(s: &str, pattern: &str) -> Option<DateTime> {
    fields(s, pattern)?.datetime()
}

/// Whole seconds since 1970, rounded down as chrono's `timestamp()` was
/// (jiff's `as_second` rounds toward zero: they differ before 1970 with a
/// fraction); the inbox stores them.
pub fn unix_seconds(t: Timestamp) -> i64 {
    t.as_nanosecond().div_euclid(1_000_000_000) as i64
}

/// Milliseconds since 1970, rounded down as chrono's `timestamp_millis()`
/// was; the inbox stores them.
pub fn unix_millis(t: Timestamp) -> i64 {
    t.as_nanosecond().div_euclid(1_000_000) as i64
}

/// A wall-clock time read as UTC (chrono's `and_utc`).
pub fn utc(t: DateTime) -> Option<Timestamp> {
    Offset::UTC.to_timestamp(t).ok()
}

/// An instant as RFC 3339 the way chrono's `to_rfc3339` wrote it (kept in
/// the cache file): `+00:00`, and a fraction of 3, 6 or 9 digits only when
/// there is one.
pub fn to_rfc3339(t: Timestamp) -> String {
    // The fraction of the UTC clock time (jiff's is negative before 1970).
    let nano = t.subsec_nanosecond().rem_euclid(1_000_000_000);
    let frac = if nano == 0 {
        String::new()
    } else if nano % 1_000_000 == 0 {
        format!(".{:03}", nano / 1_000_000)
    } else if nano % 1_000 == 0 {
        format!(".{:06}", nano / 1_000)
    } else {
        format!(".{nano:09}")
    };
    format!("{}{frac}+00:00", utc_clock(t))
}

/// An instant as the service's timestamps read: `2026-11-30T09:00:00Z`.
pub fn to_utc_seconds(t: Timestamp) -> String {
    format!("{}Z", utc_clock(t))
}

fn utc_clock(t: Timestamp) -> String {
    let dt = Offset::UTC.to_datetime(t);
    format!("{}T{}", ymd(dt.date()), dt.strftime("%H:%M:%S"))
}

/// A date as `2026-12-01`; a year before 1 as chrono wrote it (`-0326`,
/// where jiff's `%Y` writes `-326`).
pub fn ymd(d: Date) -> String {
    let y = d.year();
    if y >= 0 {
        format!("{y:04}-{}", d.strftime("%m-%d"))
    } else {
        format!("{y:05}-{}", d.strftime("%m-%d"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rfc(s: &str) -> Option<String> {
        parse_rfc3339(s).map(to_rfc3339)
    }

    #[test]
    fn rfc3339_reads_what_chrono_read() {
        assert_eq!(
            rfc("2026-12-01T10:00:00Z").as_deref(),
            Some("2026-12-01T10:00:00+00:00")
        );
        assert_eq!(
            rfc("2026-12-01t10:00:00.5+01:30").as_deref(),
            Some("2026-12-01T08:30:00.500+00:00")
        );
        assert_eq!(
            rfc("2026-12-01 10:00:00.1234567891234z").as_deref(),
            Some("2026-12-01T10:00:00.123456789+00:00")
        );
        assert_eq!(
            rfc("2026-12-01T10:00:00.000001-23:59").as_deref(),
            Some("2026-12-02T09:59:00.000001+00:00")
        );
        assert_eq!(
            rfc("2026-12-31T23:59:60Z").as_deref(),
            Some("2026-12-31T23:59:59+00:00")
        );
        for bad in [
            "2026-12-01",
            "2026-12-01T10:00:00",
            "2026-12-01T10:00Z",
            "2026-12-01T10:00:00+0100",
            "2026-12-01T10:00:00+01",
            "2026-12-01T10:00:00+24:00",
            "2026-12-01T10:00:00+01:60",
            "2026-12-01T10:00:00.Z",
            "2026-12-01T10:00:00Z ",
            "2026-12-01T10:00:00Z[UTC]",
            "2026-02-30T10:00:00Z",
            "2026-12-01T24:00:00Z",
            "+2026-12-01T10:00:00Z",
            "soon",
        ] {
            assert_eq!(parse_rfc3339(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn patterns_read_what_chrono_read() {
        let d = |s: &str| parse_date(s, "%Y-%m-%d").map(|d| d.to_string());
        assert_eq!(d("2026-12-01").as_deref(), Some("2026-12-01"));
        // Unpadded numbers, blanks before a number, a short year.
        assert_eq!(d("2026-1-5").as_deref(), Some("2026-01-05"));
        assert_eq!(d("2026- 12- 01").as_deref(), Some("2026-12-01"));
        assert_eq!(d("26-12-01").as_deref(), Some("0026-12-01"));
        for bad in [
            "2026-13-01",
            "2026-02-29",
            "2026-12-01x",
            "2026-12",
            "20261-12-01",
        ] {
            assert_eq!(d(bad), None, "{bad:?}");
        }
        let t = |s: &str, p: &str| parse_datetime(s, p).map(|d| d.to_string());
        let full = "%Y-%m-%dT%H:%M:%S%.f";
        assert_eq!(
            t("2026-12-01T10:20:30.25", full).as_deref(),
            Some("2026-12-01T10:20:30.25")
        );
        assert_eq!(
            t("2026-12-01T10:20:30", full).as_deref(),
            Some("2026-12-01T10:20:30")
        );
        assert_eq!(t("2026-12-01t10:20", full), None);
        assert_eq!(
            t("2026-12-01t10:20", "%Y-%m-%dt%H:%M").as_deref(),
            Some("2026-12-01T10:20:00")
        );
        assert_eq!(
            t("2026-12-01   9:05", "%Y-%m-%d %H:%M").as_deref(),
            Some("2026-12-01T09:05:00")
        );
        assert_eq!(
            t("2026-12-0110:05", "%Y-%m-%d %H:%M").as_deref(),
            Some("2026-12-01T10:05:00")
        );
        assert_eq!(t("2026-12-01T10:20:30Z", full), None);
        assert_eq!(t("2026-12-01T24:00:00", full), None);
    }

    #[test]
    fn seconds_round_down_as_chrono_did() {
        assert_eq!(unix_seconds(Timestamp::new(-2, 500_000_000).unwrap()), -2);
        assert_eq!(unix_seconds(Timestamp::new(-1, -500_000_000).unwrap()), -2);
        assert_eq!(unix_seconds(Timestamp::new(1, 500_000_000).unwrap()), 1);
        assert_eq!(unix_millis(Timestamp::new(-1, -500_000).unwrap()), -1001);
        assert_eq!(unix_millis(Timestamp::new(1, 2_500_000).unwrap()), 1002);
    }

    #[test]
    fn written_as_chrono_wrote() {
        let t = |s: i64, n: i32| to_rfc3339(Timestamp::new(s, n).unwrap());
        assert_eq!(t(1_800_000_000, 0), "2027-01-15T08:00:00+00:00");
        assert_eq!(
            t(1_800_000_000, 120_000_000),
            "2027-01-15T08:00:00.120+00:00"
        );
        assert_eq!(
            t(1_800_000_000, 120_000),
            "2027-01-15T08:00:00.000120+00:00"
        );
        assert_eq!(t(1_800_000_000, 7), "2027-01-15T08:00:00.000000007+00:00");
        assert_eq!(
            to_utc_seconds(Timestamp::new(1_800_000_000, 5).unwrap()),
            "2027-01-15T08:00:00Z"
        );
        // Before 1970 and before year 1, as chrono wrote them.
        assert_eq!(t(-1, -500_000_000), "1969-12-31T23:59:58.500+00:00");
        let old = Timestamp::from_second(-72_377_366_400).unwrap();
        assert_eq!(to_utc_seconds(old), "-0324-06-14T00:00:00Z");
        assert_eq!(ymd(jiff::civil::date(26, 1, 5)), "0026-01-05");
    }
}
