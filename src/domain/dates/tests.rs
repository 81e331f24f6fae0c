//! Tests of dates: the forms people type, how dates read, and local time
//! across the end of DST in America/New_York (2026-11-01).
use super::range_tests::RANGE;
use super::*;

/// The due date's wire name, from the field table.
const DUE: &str = crate::domain::task_field::TaskField::Due.wire();

pub(super) fn now() -> Timestamp {
    parse_rfc3339("2026-11-22T10:00:00Z").unwrap()
}

fn at(s: &str) -> Timestamp {
    parse_rfc3339(s).unwrap()
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
fn a_typed_date_needs_a_four_digit_year_and_is_sent_written_out() {
    let n = now();
    // chrono's %Y read any width: `26-12-01` was year 26, sent as a due
    // date two thousand years past; a signed year was sent as typed.
    for bad in [
        "26-12-01",
        "0026-12-01x",
        "+2026-12-01",
        "-0001-12-01",
        "26-12-01T10:00",
        "26-12-01 10:00",
        "26-12-01t10:00z",
    ] {
        assert!(parse_due(bad, n).is_err(), "due {bad:?}");
        assert!(parse_bound(bad, n, true).is_err(), "bound {bad:?}");
        assert!(parse_bound_in(bad, n, false, &ny()).is_err(), "ny {bad:?}");
    }
    // In UTC a date alone goes as a date, but as ISO 8601 writes it.
    assert_eq!(parse_bound("2026-1-5", n, true).unwrap(), "2026-01-05");
    assert_eq!(parse_bound(" 2026-12-01 ", n, false).unwrap(), "2026-12-01");
    assert_eq!(
        parse_due("2026-1-5", n).unwrap().unwrap(),
        "2026-01-05T23:59:59Z"
    );
}

#[test]
fn a_year_before_1_shows_as_chrono_wrote_it() {
    // The service's date alone reads with a signed year.
    let t = crate::api::parse_timestamp("-0001-12-01").unwrap();
    assert_eq!(local_time_in(t, &TimeZone::UTC), "-0001-12-01 00:00 UTC");
    assert_eq!(when(Some("0000-01-01")), "0000-01-01 00:00 UTC");
    assert_eq!(
        local_time_in(at("0001-01-01T00:00:00Z"), &ny()),
        "0000-12-31 19:03 LMT"
    );
}

#[test]
fn a_due_date_received_without_a_time_is_that_local_day() {
    let n = now();
    let due = |raw: &str| {
        let t: crate::api::Task =
            serde_json::from_value(serde_json::json!({"id": "x", DUE: raw})).unwrap();
        t.due().unwrap()
    };
    // In New York, 2026-12-01 is still 2026-12-01 (not 19:00 the evening
    // before), and Sunday's due date is not overdue on Sunday afternoon.
    with_zone(ny(), || {
        assert_eq!(local_time(due("2026-12-01")), "2026-12-01 23:59 EST");
        assert_eq!(relative(due("2026-11-22"), n), ("today".into(), false));
    });
    // East of Greenwich, not overdue from the start of its day.
    let tokyo = TimeZone::get("Asia/Tokyo").unwrap();
    with_zone(tokyo, || {
        assert_eq!(relative(due("2026-11-22"), n), ("today".into(), false));
    });
    // A date-time is read as it says.
    assert_eq!(
        local_time_in(due("2026-12-01T00:00:00Z"), &ny()),
        "2026-11-30 19:00 EST"
    );
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
        assert!(e.contains("is out of range"), "{far}: {e}");
        assert!(e.contains(RANGE), "{far}: {e}");
        assert!(e.contains(&format!("{far:?}")), "{far}: {e}");
    }
    for bad in ["-3d", "+-3d", "++3d", "+ 3d", "+3 d", "+3dd", "+w"] {
        let e = parse_due(bad, n).unwrap_err();
        assert!(!e.contains("out of range"), "{bad}: {e}");
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
        if let Ok(t) = Timestamp::from_second(secs / 1000) {
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

#[test]
fn range_words_now_and_week() {
    let n = now();
    assert_eq!(
        parse_bound("now", n, false).unwrap(),
        "2026-11-22T10:00:00Z"
    );
    assert_eq!(parse_bound("NOW", n, true).unwrap(), "2026-11-22T10:00:00Z");
    assert_eq!(
        (
            parse_bound("week", n, true).unwrap(),
            parse_bound("week", n, false).unwrap()
        ),
        this_week(n)
    );
    // In New York the week's ends are local midnights.
    let sunday = at("2026-11-01T12:00:00Z");
    assert_eq!(
        parse_bound_in("week", sunday, true, &ny()).unwrap(),
        "2026-10-26T04:00:00Z"
    );
    assert_eq!(
        parse_bound_in("week", sunday, false, &ny()).unwrap(),
        "2026-11-02T04:59:59Z"
    );
    // Not due dates: `:due now` is still refused.
    assert!(parse_due("now", n).is_err());
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
        assert_eq!(body, serde_json::json!({DUE: "2026-11-30T14:00:00Z"}));
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
    // 02:30 never happens on 2026-03-08 (02:00 EST becomes 03:00 EDT): it
    // moves forward by the gap, for a due date, a bound and a snooze alike.
    assert_eq!(
        parse_due_in("2026-03-08 02:30", n, &tz).unwrap().unwrap(),
        "2026-03-08T07:30:00Z"
    );
    assert_eq!(
        parse_bound_in("2026-03-08T02:30", n, true, &tz).unwrap(),
        "2026-03-08T07:30:00Z"
    );
    let march = at("2026-03-07T12:00:00Z");
    let snooze = crate::domain::later::parse_later_in("2026-03-08 02:30", march, &tz);
    assert_eq!(local_time_in(snooze.unwrap(), &tz), "2026-03-08 03:30 EDT");
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

#[test]
fn one_grammar_reads_every_form_for_due_bounds_and_snoozes() {
    use super::when::{parse_when, When};
    // Sunday 2026-11-22 10:00 UTC.
    let n = now();
    let tz = TimeZone::UTC;
    let w = |s: &str| parse_when(s, n, &tz);
    let day = |s: &str| When::Day(typed_date(s).unwrap());
    let at = |s: &str| When::At(parse_rfc3339(s).unwrap());
    assert_eq!(w("fri"), Ok(day("2026-11-27")));
    assert_eq!(w("Next Friday"), Ok(day("2026-11-27")));
    // The same weekday is next week's.
    assert_eq!(w("sun"), Ok(day("2026-11-29")));
    assert_eq!(w("fri 17:00"), Ok(at("2026-11-27T17:00:00Z")));
    assert_eq!(w("next fri 17:00"), Ok(at("2026-11-27T17:00:00Z")));
    assert_eq!(w("fri at 5pm"), Ok(at("2026-11-27T17:00:00Z")));
    assert_eq!(w("tomorrow 16:00"), Ok(at("2026-11-23T16:00:00Z")));
    assert_eq!(w("2026-12-01 14:00"), Ok(at("2026-12-01T14:00:00Z")));
    assert_eq!(w("2026-12-01T14:00"), Ok(at("2026-12-01T14:00:00Z")));
    assert_eq!(w("2026-12-01 14:00:30"), Ok(at("2026-12-01T14:00:30Z")));
    assert_eq!(w("2026-12-01"), Ok(day("2026-12-01")));
    assert_eq!(w("16:00"), Ok(at("2026-11-22T16:00:00Z")));
    // A clock time passed today is tomorrow's.
    assert_eq!(w("9:00"), Ok(at("2026-11-23T09:00:00Z")));
    assert_eq!(w("12am"), Ok(at("2026-11-23T00:00:00Z")));
    assert_eq!(w("12pm"), Ok(at("2026-11-22T12:00:00Z")));
    assert_eq!(w("4:30pm"), Ok(at("2026-11-22T16:30:00Z")));
    assert_eq!(w("2h"), Ok(at("2026-11-22T12:00:00Z")));
    assert_eq!(w("+3d"), Ok(When::Days(3)));
    assert_eq!(w("2w"), Ok(When::Days(14)));
    // Written out (a macro's `follow_up = "in 3 days"`, issue 44).
    assert_eq!(w("in 3 days"), Ok(When::Days(3)));
    assert_eq!(w("in 1 week"), Ok(When::Days(7)));
    assert_eq!(w("in 2 hours"), Ok(at("2026-11-22T12:00:00Z")));
    for bad in [
        "in 3 fortnights",
        "in three days",
        "",
        "tomorrow tomorrow",
        "fri fri",
        "next",
        "next 17:00",
        "next tomorrow",
        "fri 25:00",
        "fri 9",
        "13pm",
        "0am",
        "9",
        "16:0",
        "fri 17:00 extra",
        "soon",
        "-1d",
        "+99999d",
        "0h",
        "26-12-01 10:00",
    ] {
        assert!(w(bad).is_err(), "{bad:?} must be refused");
    }
    // Each reader gives a day its own meaning; a time is a time for all.
    assert_eq!(
        parse_due("fri", n).unwrap().unwrap(),
        "2026-11-27T23:59:59Z"
    );
    assert_eq!(
        parse_due("fri 17:00", n).unwrap().unwrap(),
        "2026-11-27T17:00:00Z"
    );
    assert_eq!(parse_bound("fri", n, true).unwrap(), "2026-11-27T00:00:00Z");
    assert_eq!(
        parse_bound("fri", n, false).unwrap(),
        "2026-11-27T23:59:59Z"
    );
    assert_eq!(
        parse_bound("fri 17:00", n, false).unwrap(),
        "2026-11-27T17:00:00Z"
    );
    let later = |s: &str| crate::domain::later::parse_later_in(s, n, &tz).map(to_utc_seconds);
    assert_eq!(later("fri").unwrap(), "2026-11-27T09:00:00Z");
    assert_eq!(later("fri 17:00").unwrap(), "2026-11-27T17:00:00Z");
    // Every form one reader takes, the others take (bar a time passed).
    for form in super::when::FORMS.split(", ") {
        assert!(parse_due(form, n).is_ok(), "due {form}");
        assert!(parse_bound(form, n, true).is_ok(), "bound {form}");
        // `today` is 09:00 for a snooze, passed at 10:00.
        assert!(later(form).is_ok() || form == "today", "later {form}");
    }
}

#[test]
fn typed_times_in_new_york_are_local() {
    use super::when::{parse_when, When};
    let n = now();
    // 17:00 on Friday in New York is 22:00 UTC (EST).
    assert_eq!(
        parse_when("next friday 17:00", n, &ny()),
        Ok(When::At(at("2026-11-27T22:00:00Z")))
    );
    assert_eq!(
        parse_due_in("fri", n, &ny()).unwrap().unwrap(),
        "2026-11-28T04:59:59Z"
    );
}
