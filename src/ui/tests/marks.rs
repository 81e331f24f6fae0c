//! Marks on screen: the mark column, the count (header and list title), a
//! failed bulk edit's error on its row, the bulk confirmation and the
//! history, at 80×24 and 120×40.

use super::*;
use crate::api::ApiError;

/// The scene with #101 and #103 marked, #103's last bulk edit failed.
fn marked_scene() -> State {
    let mut s = scene();
    s.on_key(key(' ')); // #101, the cursor moves to #102
    s.on_key(key('j'));
    s.on_key(key(' ')); // #103
    s.marks.failed.insert(
        s.list.items[2].id().unwrap().to_string(),
        "422: locked".into(),
    );
    s
}

#[test]
fn the_mark_column_and_the_count_at_80x24_and_120x40() {
    for (w, h) in [(80, 24), (120, 40)] {
        let mut s = marked_scene();
        let b = render(&mut s, w, h, &Theme::dark());
        let t = text(&b);
        assert!(t.contains("[2 marked, 1 failed]"), "the header: {t}");
        assert!(t.contains("[FAILED: 422: locked]"), "{t}");
        snap(&format!("marks_{w}x{h}"), &b);
    }
    // Without marks, no mark column: the rows are as before.
    let mut s = scene();
    let before = text(&render(&mut s, 120, 40, &Theme::dark()));
    s.on_key(key(' '));
    s.on_key(key('k'));
    s.on_key(key(' '));
    s.on_key(key('g'));
    s.status = None;
    assert!(s.marks.is_empty());
    assert_eq!(text(&render(&mut s, 120, 40, &Theme::dark())), before);
}

#[test]
fn the_count_stays_in_view_when_the_detail_fills_the_screen() {
    let mut s = marked_scene();
    s.on_key(code(KeyCode::Enter));
    let t = text(&render(&mut s, 80, 24, &Theme::dark()));
    assert!(!t.contains("TITLE  [tags]"), "the detail fills the screen");
    assert!(
        t.lines().next().unwrap().contains("[2 marked, 1 failed]"),
        "{t}"
    );
}

#[test]
fn the_bulk_confirmation_and_the_history_at_80x24_and_120x40() {
    for (w, h) in [(80, 24), (120, 40)] {
        let mut s = marked_scene();
        s.command("priority low");
        assert!(matches!(s.overlay, Overlay::Confirm { .. }));
        let b = render(&mut s, w, h, &Theme::dark());
        snap(&format!("bulk_confirm_{w}x{h}"), &b);

        // Run it: one answer fails, the other succeeds; then :history.
        let fx = s.on_key(key('y'));
        let mut queue: Vec<Effect> = fx;
        while let Some(Effect::Api { ticket, req }) = queue.pop() {
            let result = match &*req {
                ApiRequest::Patch { id, .. } if id.ends_with("103") => Err(ApiError::BadRequest {
                    message: "priority is locked".into(),
                    body: serde_json::Value::Null,
                }),
                ApiRequest::Patch { id, .. } => {
                    let mut t = s.best_copy(id).unwrap();
                    t.priority = crate::api::Priority::Low;
                    Ok(Reply::Task(Box::new(t)))
                }
                other => panic!("{other:?}"),
            };
            queue.extend(s.on_api(ApiResult {
                ticket,
                req: *req,
                result,
            }));
        }
        s.command("history");
        let b = render(&mut s, w, h, &Theme::dark());
        let t = text(&b);
        assert!(t.contains("1 done, 1 failed"), "{t}");
        let mut settings = insta::Settings::clone_current();
        // The history's clock times.
        settings.add_filter(r"\d{4}-\d\d-\d\d \d\d:\d\d [A-Z+:0-9-]+", "[time]");
        settings.bind(|| snap(&format!("history_{w}x{h}"), &b));
    }
}

#[test]
fn rows_not_recently_checked_read_with_a_dot() {
    let mut s = scene();
    let row_of = |t: &str, n: &str| {
        t.lines()
            .find(|l| l.contains(n) && l.starts_with('┃'))
            .map(str::to_string)
            .unwrap_or_else(|| panic!("{n} in\n{t}"))
    };
    let before = text(&render(&mut s, 120, 40, &Theme::dark()));
    let label = s.list.items[2].task().unwrap().label();
    assert!(!row_of(&before, &label).contains('·'), "checked just now");
    // The page that listed it was answered long ago.
    let id = s.list.items[2].id().unwrap().to_string();
    s.list.page_of.remove(id.as_str());
    let after = text(&render(&mut s, 120, 40, &Theme::dark()));
    assert!(row_of(&after, &label).starts_with("┃·"), "{after}");
    // The help screen says what the dot means.
    assert!(crate::ui::help_lines(&s, "")
        .iter()
        .any(|l| l.contains("·  not checked by a recent refresh")));
}

#[test]
fn a_macro_review_taller_than_the_screen_scrolls_says_where_it_is_and_keeps_the_answers() {
    let mut s = crate::app::tests::macros::review_of_100();
    let n = match &s.overlay {
        Overlay::Confirm { lines, .. } => lines.len(),
        _ => panic!("the review expected"),
    };
    let t = text(&render(&mut s, 120, 40, &Theme::dark()));
    assert!(t.contains("macro await-signature on 100 tasks?"), "{t}");
    assert!(t.contains("lines 1–"), "{t}");
    assert!(t.contains(&format!(" of {n} · j/k scroll")), "{t}");
    assert!(t.contains("y yes · esc no"), "{t}");
    assert!(!t.contains("y: run it"), "the end is below: {t}");

    s.on_key(key('G'));
    let t = text(&render(&mut s, 120, 40, &Theme::dark()));
    assert!(t.contains("y: run it"), "the last page: {t}");
    assert!(t.contains(&format!("–{n} of {n}")), "{t}");
    assert!(t.contains("y yes · esc no"), "{t}");
    assert!(!t.contains("on 100 tasks?"), "{t}");

    // Down one line from the top: the position says so.
    s.on_key(key('g'));
    s.on_key(key('j'));
    let t = text(&render(&mut s, 80, 24, &Theme::dark()));
    assert!(t.contains("lines 2–"), "{t}");
    assert!(t.contains("y yes · esc no"), "{t}");
}
