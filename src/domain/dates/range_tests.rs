//! The one range of every typed time (issue 42, point 8), beside the
//! grammar's tests (`tests.rs`).

use super::*;

/// The range's one sentence at `now()` (2026-11-22) in UTC.
pub(super) const RANGE: &str =
    "a time is taken from 1970-01-01 to ten years from today (2036-11-19)";

/// Issue 42, point 8: one range for every form, said in one sentence —
/// `:due`, `:snooze`/`:follow-up` (`later`), a filter's bounds, dates,
/// instants and spans alike; its last day is taken, the next refused.
#[test]
fn every_form_takes_one_range_and_says_it() {
    let n = super::tests::now();
    let utc = TimeZone::UTC;
    let berlin = TimeZone::get("Europe/Berlin").unwrap();
    assert_eq!(super::when::range_words(n, &utc), RANGE);
    let refused = |e: Result<String, String>, what: &str| {
        let e = e.expect_err(what);
        assert!(e.contains("is out of range"), "{what}: {e}");
        assert!(e.contains(RANGE), "{what}: {e}");
    };
    for far in [
        "2999-01-01",
        "9999-12-30",
        "2036-11-20",
        "2036-11-20 10:00",
        "2036-11-20T10:00",
        "2036-11-20T10:00:00Z",
        "+3651d",
    ] {
        refused(parse_due_in(far, n, &utc).map(|_| String::new()), far);
        refused(parse_bound_in(far, n, true, &utc), far);
        refused(parse_bound_in(far, n, false, &utc), far);
        refused(
            crate::domain::later::parse_later_in(far, n, &utc).map(|_| String::new()),
            far,
        );
    }
    for early in ["0001-01-01", "1969-12-31", "1969-12-31T22:00:00Z"] {
        refused(parse_bound_in(early, n, true, &berlin), early);
        refused(parse_bound_in(early, n, false, &utc), early);
        refused(parse_due_in(early, n, &utc).map(|_| String::new()), early);
    }
    // The ends are taken: never a year 0000 sent, never "is not a date".
    assert_eq!(
        parse_bound_in("1970-01-01", n, true, &berlin).unwrap(),
        "1969-12-31T23:00:00Z"
    );
    assert_eq!(
        parse_due_in("2036-11-19", n, &utc).unwrap().unwrap(),
        "2036-11-19T23:59:59Z"
    );
    assert_eq!(
        parse_bound_in("2036-11-19", n, false, &utc).unwrap(),
        "2036-11-19"
    );
}
