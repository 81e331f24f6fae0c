//! Due dates: what the user types, and how a due date reads in a row.

use chrono::{DateTime, Datelike, Duration, NaiveDate, NaiveDateTime, Utc};

/// The furthest a relative due date (`+Nd`, `+Nw`) may reach.
pub const MAX_DAYS_AHEAD: i64 = 3650;

/// Parse a due date as typed: `none`, `today`, `tomorrow`, `+3d`, `+2w`,
/// `2026-12-01`, `2026-12-01T14:00[:00][Z]`. A date alone means the end of
/// that day (UTC). `Ok(None)` clears the due date.
pub fn parse_due(input: &str, now: DateTime<Utc>) -> Result<Option<String>, String> {
    let s = input.trim().to_ascii_lowercase();
    let end_of = |d: NaiveDate| d.and_hms_opt(23, 59, 59).map(|t| t.and_utc());
    let at = match s.as_str() {
        "none" | "clear" | "-" => return Ok(None),
        "" => return Err("type a date: 2026-12-01, today, tomorrow, +3d, +2w or none".into()),
        "today" => end_of(now.date_naive()),
        "tomorrow" => end_of(now.date_naive() + Duration::days(1)),
        _ if s.starts_with('+') => {
            // By characters: "+", "+3é" are errors, never a panic.
            let body = &s[1..];
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
            // Only digits, so parsing fails only when the number overflows;
            // the product is checked too (it used to wrap around).
            let days = num
                .parse::<i64>()
                .ok()
                .and_then(|n| n.checked_mul(per_unit))
                .filter(|d| *d <= MAX_DAYS_AHEAD)
                .ok_or_else(too_far)?;
            now.date_naive()
                .checked_add_signed(Duration::days(days))
                .and_then(end_of)
        }
        _ => {
            if let Ok(d) = NaiveDate::parse_from_str(&s, "%Y-%m-%d") {
                end_of(d)
            } else if let Ok(t) = DateTime::parse_from_rfc3339(input.trim()) {
                Some(t.with_timezone(&Utc))
            } else {
                let trimmed = s.trim_end_matches('z');
                ["%Y-%m-%dt%H:%M:%S", "%Y-%m-%dt%H:%M", "%Y-%m-%d %H:%M"]
                    .iter()
                    .find_map(|f| NaiveDateTime::parse_from_str(trimmed, f).ok())
                    .map(|t| t.and_utc())
            }
        }
    };
    at.map(|t| Some(t.format("%Y-%m-%dT%H:%M:%SZ").to_string()))
        .ok_or_else(|| {
            format!("{input:?} is not a date: use 2026-12-01, today, tomorrow, +3d, +2w or none")
        })
}

/// One end of a due-date range, as typed: a date or date-time as given; a
/// word or `+N` resolved like [`parse_due`], at the start of that day for
/// the lower bound (so "from today" includes this morning) and at its end
/// for the upper one.
pub fn parse_bound(input: &str, now: DateTime<Utc>, lower: bool) -> Result<String, String> {
    let v = input.trim();
    if NaiveDate::parse_from_str(v, "%Y-%m-%d").is_ok() || crate::api::parse_timestamp(v).is_some()
    {
        return Ok(v.to_string());
    }
    let at =
        parse_due(v, now)?.ok_or_else(|| format!("{input:?} means no date; a range needs one"))?;
    Ok(if lower {
        at.replace("T23:59:59Z", "T00:00:00Z")
    } else {
        at
    })
}

/// "today", "tomorrow", "in 3d", "2d overdue"; the bool says overdue.
pub fn relative(due: DateTime<Utc>, now: DateTime<Utc>) -> (String, bool) {
    let overdue = due < now;
    let days = (due.date_naive() - now.date_naive()).num_days();
    let text = match days {
        0 if overdue => "overdue today".to_string(),
        0 => "today".to_string(),
        1 => "tomorrow".to_string(),
        -1 => "1d overdue".to_string(),
        d if d < 0 && d > -60 => format!("{}d overdue", -d),
        d if d < 0 => format!("{}w overdue", -d / 7),
        d if d < 14 => format!("in {d}d"),
        d if d < 120 => format!("in {}w", d / 7),
        _ => due.format("%Y-%m-%d").to_string(),
    };
    (text, overdue)
}

/// A due date as a row shows it; the bool says the task is late. A
/// completed task is never late: a past date reads "due 3d ago".
pub fn due_text(due: DateTime<Utc>, now: DateTime<Utc>, completed: bool) -> (String, bool) {
    let (text, overdue) = relative(due, now);
    if !overdue {
        return (text, false);
    }
    if completed {
        let days = (now.date_naive() - due.date_naive()).num_days();
        let t = match days {
            0 => "due today".to_string(),
            d if d < 60 => format!("due {d}d ago"),
            d => format!("due {}w ago", d / 7),
        };
        return (t, false);
    }
    (format!("!{text}"), true)
}

/// Monday 00:00 to Sunday 23:59:59 of the week of `now`, as timestamps.
pub fn this_week(now: DateTime<Utc>) -> (String, String) {
    let today = now.date_naive();
    let monday = today - Duration::days(today.weekday().num_days_from_monday() as i64);
    let sunday = monday + Duration::days(6);
    (
        format!("{}T00:00:00Z", monday.format("%Y-%m-%d")),
        format!("{}T23:59:59Z", sunday.format("%Y-%m-%d")),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn now() -> DateTime<Utc> {
        DateTime::parse_from_rfc3339("2026-11-22T10:00:00Z")
            .unwrap()
            .with_timezone(&Utc)
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
            let _ = parse_due(&s, now);
            let _ = parse_bound(&s, now, true);
            let _ = parse_due(&format!("+{n}{unit}"), now);
            let _ = parse_due(&format!("+{}{unit}", n as i64), now);
        }
    }

    #[test]
    fn relative_reads_naturally() {
        let n = now();
        let at = |s: &str| DateTime::parse_from_rfc3339(s).unwrap().with_timezone(&Utc);
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
        let at = |s: &str| DateTime::parse_from_rfc3339(s).unwrap().with_timezone(&Utc);
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
}
