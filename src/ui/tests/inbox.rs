//! The inbox on screen: the popup at 80×24 and 200×50 (two lines a task:
//! what, then why), the header's count and the list's `»`.

use super::*;
use crate::inbox::{InboxRow, InboxUpdate, Kind};

pub(super) fn inbox_scene() -> State {
    let mut s = scene();
    s.inbox.running = true;
    let ids: Vec<String> = s
        .list
        .items
        .iter()
        .map(|i| i.id().unwrap().to_string())
        .collect();
    let now = jiff::Timestamp::now().as_second();
    let row = |i: usize, title: &str, reasons: Vec<(Kind, &str)>, ago: i64| InboxRow {
        task_id: ids[i].clone(),
        label: format!("#{}", 101 + i),
        title: title.into(),
        at: now - ago,
        reasons: reasons
            .into_iter()
            .map(|(k, w)| (k, w.to_string()))
            .collect(),
        target: None,
        snoozed_until: None,
        read: false,
    };
    s.on_inbox(InboxUpdate {
        rows: vec![
            row(
                0,
                "Renew the Contoso NDA",
                vec![(
                    Kind::Mention,
                    "Bob Okafor mentioned you: “can you check clause 4 before Friday?”",
                )],
                300,
            ),
            row(
                1,
                "Draft engagement letter",
                vec![
                    (
                        Kind::Fields,
                        "status in progress → completed; due Fri → Mon",
                    ),
                    (Kind::Comment, "new comment by Carol: “sent”"),
                ],
                7200,
            ),
        ],
        unread: [ids[0].clone(), ids[1].clone()].into_iter().collect(),
        ..Default::default()
    });
    s
}

#[test]
fn the_inbox_popup_at_80x24_and_200x50() {
    for (w, h) in [(80, 24), (200, 50)] {
        let mut s = inbox_scene();
        s.on_key(key('i'));
        let b = render(&mut s, w, h, &Theme::dark());
        let t = text(&b);
        assert!(t.contains("Inbox — 2 need you"), "{t}");
        // The inbox's tab stays in sight at any width.
        assert!(t.lines().nth(1).unwrap().contains("i Inbox 2"), "{t}");
        assert!(t.contains("Bob Okafor mentioned you"), "{t}");
        assert!(t.contains("status in progress → completed"), "{t}");
        snap(&format!("inbox_{w}x{h}"), &b);
    }
}

#[test]
fn the_header_counts_the_inbox_and_the_rows_are_marked() {
    let mut s = inbox_scene();
    let t = text(&render(&mut s, 120, 40, &Theme::dark()));
    assert!(t.lines().next().unwrap().contains("inbox 2"), "{t}");
    // The inbox is the first tab, with its count.
    assert!(
        t.lines().nth(1).unwrap().contains("i Inbox 2 │ 1 All"),
        "{t}"
    );
    // The cursor's row shows `>`; the other of the two carries `»`.
    let marked: Vec<&str> = t.lines().filter(|l| l.contains('»')).collect();
    assert_eq!(marked.len(), 1, "{t}");
    assert!(marked[0].contains("#102"), "{t}");
    s.on_key(key('j'));
    let t = text(&render(&mut s, 120, 40, &Theme::dark()));
    assert!(t.lines().any(|l| l.contains("» #101")), "{t}");
    // Nothing in the inbox: no count, no mark.
    s.on_inbox(InboxUpdate::default());
    let t = text(&render(&mut s, 120, 40, &Theme::dark()));
    assert!(!t.contains("inbox "), "{t}");
    assert!(!t.contains('»'), "{t}");
}

#[test]
fn an_empty_inbox_says_so_or_says_why_it_is_off() {
    let mut s = scene();
    s.inbox.running = true;
    s.on_inbox(InboxUpdate::default());
    s.on_key(key('i'));
    let t = text(&render(&mut s, 80, 24, &Theme::dark()));
    assert!(t.contains("Nothing needs you."), "{t}");
    let mut s = scene();
    s.inbox.off =
        Some("the inbox is kept in the local store, and `cache = false` turns it off".into());
    s.on_key(key('i'));
    let t = text(&render(&mut s, 80, 24, &Theme::dark()));
    assert!(t.contains("cache = false"), "{t}");
}

#[test]
fn a_conflict_three_ways_at_80x24_and_200x50() {
    use crate::app::local::outbox::three::Three;
    use crate::app::popups::conflict::{ConflictOf, ConflictView};
    for (w, h) in [(80, 24), (200, 50)] {
        let mut s = scene();
        use crate::domain::task_field::TaskField;
        let row = |key: TaskField, saw: &str, mine: &str, theirs: &str, keep_mine| Three {
            key,
            field: key.label().into(),
            saw: saw.into(),
            mine: mine.into(),
            theirs: theirs.into(),
            keep_mine,
            at: None,
        };
        s.overlay = Overlay::Conflict(ConflictView {
            of: ConflictOf::Outbox(1),
            label: "#101".into(),
            rows: vec![
                row(
                    TaskField::Status,
                    "in progress",
                    "completed",
                    "waiting",
                    true,
                ),
                row(
                    TaskField::Due,
                    "2026-11-27 17:00 UTC",
                    "2026-11-30 17:00 UTC",
                    "none",
                    false,
                ),
            ],
            selected: 0,
            about: vec![crate::app::edit::conflict::changed_besides_words(&[
                TaskField::Title,
                TaskField::AssignedTo,
            ])],
            archived: false,
            asked: false,
        });
        let b = render(&mut s, w, h, &Theme::dark());
        let t = text(&b);
        // The other fields the service changed, said whole (wrapped), and
        // every key of the view's own line (it was cut at 80 columns:
        // `esc b`), from the keymap in effect.
        let flat = t
            .lines()
            .filter(|l| l.contains('│'))
            .map(|l| l.trim_matches(|c: char| c == '│' || c == '┃' || c == ' '))
            .collect::<Vec<_>>()
            .join(" ");
        assert!(
            flat.contains("also changed on the service, not part of your edit (kept as the service has them): title, assigned to"),
            "{t}"
        );
        for k in s.keymap.hints(
            &[crate::app::keymap::Context::Conflict],
            &crate::ui::hints::CONFLICT_KEYS,
        ) {
            assert!(t.contains(&k), "{k:?} at {w}:\n{t}");
        }
        assert!(t.contains("you saw"), "{t}");
        assert!(t.contains("the service has"), "{t}");
        assert!(t.contains("in progress") && t.contains("waiting"), "{t}");
        assert!(t.contains("theirs"), "{t}");
        snap(&format!("conflict_{w}x{h}"), &b);
    }
}

#[test]
fn a_service_without_a_comment_listing_is_said_in_the_inbox() {
    let mut s = inbox_scene();
    s.inbox.last.report = Some(crate::inbox::CycleReport {
        comments_unavailable: true,
        ..Default::default()
    });
    s.inbox.last.walked_at = Some(jiff::Timestamp::now().as_second());
    s.on_key(key('i'));
    let t = text(&render(&mut s, 120, 40, &Theme::dark()));
    assert!(t.contains("this service does not list comments"), "{t}");
}

#[test]
fn a_field_change_opens_with_the_field_marked() {
    let mut s = inbox_scene();
    if let Some(r) = s.inbox.last.rows.get_mut(1) {
        r.target = Some("field:status".into());
    }
    s.on_key(key('i'));
    s.on_key(key('j'));
    s.on_key(code(KeyCode::Enter));
    let t = text(&render(&mut s, 120, 40, &Theme::dark()));
    let line = t
        .lines()
        .find(|l| l.contains("status:"))
        .unwrap_or_default();
    assert!(line.contains("◀ changed (inbox)"), "{t}");
}

/// Every key the inbox popup lists is readable at 80 columns: after a
/// walk its foot said `read 5m ago · 3 requests · enter open … a all  r n`
/// cut at the frame; now the keys take a line of their own when both do
/// not fit (and follow a warning or an error, which used to hide them).
#[test]
fn at_80_columns_every_key_of_the_inbox_popup_is_readable() {
    use crate::app::keymap::Context;
    let keys = |s: &State| {
        s.keymap
            .hints(&[Context::Inbox], &crate::ui::hints::INBOX_KEYS)
    };
    let walked = |s: &mut State, report: crate::inbox::CycleReport| {
        s.inbox.last.report = Some(report);
        s.inbox.last.walked_at = Some(jiff::Timestamp::now().as_second() - 300);
    };
    let reports = [
        crate::inbox::CycleReport {
            pages: 2,
            comment_reads: 1,
            complete: true,
            ..Default::default()
        },
        crate::inbox::CycleReport {
            comments_unavailable: true,
            ..Default::default()
        },
    ];
    for report in reports {
        for (w, h) in [(80, 24), (200, 50)] {
            let mut s = inbox_scene();
            walked(&mut s, report.clone());
            s.on_key(key('i'));
            let t = text(&render(&mut s, w, h, &Theme::dark()));
            // Inside the popup's frame (the screen's key line aside).
            let popup: String = t
                .lines()
                .filter(|l| l.contains('│'))
                .collect::<Vec<_>>()
                .join("\n");
            for k in keys(&s) {
                assert!(popup.contains(&k), "{k:?} at {w}:\n{t}");
            }
            if report.comments_unavailable {
                assert!(popup.contains("this service does not list comments"), "{t}");
            } else {
                assert!(popup.contains("read 5m ago · 3 requests"), "{t}");
            }
            // Both rows of the inbox are still shown.
            assert!(popup.contains("#101") && popup.contains("#102"), "{t}");
        }
    }
}
