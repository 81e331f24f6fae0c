//! The screens of views, custom commands and the board, at 80×24 and
//! 120×40: the board, the view switcher with its counts, a command's output.

use super::*;
use crate::app::custom::run::{Done, Exit, Outcome};
use crate::app::tests::views::board::board_state;
use crate::app::views::Count;

/// The board over five tasks, one of them hostile, a move in flight.
fn board() -> State {
    let mut s = board_state();
    if let Some(TaskItem::Task(t)) = s.list.items.get_mut(2) {
        t.title = "Evil \u{1b}[2J\u{1b}]0;pwned\u{7} title \u{202e}gnp.exe".into();
        t.priority = crate::api::Priority::Urgent;
    }
    s.on_key(key('b'));
    s.on_key(key('l'));
    s.on_key(key('j'));
    s.on_key(key('j'));
    // #3 hostile and current; #2 on its way to `waiting`.
    s.on_key(key('k'));
    s.on_key(key('L'));
    s.on_key(key('j'));
    s
}

#[test]
fn the_board_at_80x24_and_120x40() {
    for (w, h) in [(80, 24), (120, 40)] {
        let mut s = board();
        let b = render(&mut s, w, h, &Theme::dark());
        snap(&format!("board_{w}x{h}"), &b);
        let t = text(&b);
        assert!(t.contains("Board: All"), "{t}");
        assert!(t.contains("#2 → waiting…"), "the pending mark: {t}");
        for cell in b.content() {
            assert!(!cell.symbol().chars().any(crate::text::is_dangerous));
        }
        assert!(t.contains("[board]"), "the board's keys in the hint line");
        // A card's title reads, not eight letters of it.
        assert!(t.contains("#1 ↑ Task number 1 "), "{t}");
    }
}

#[test]
fn the_current_card_shows_without_colour() {
    let mut s = board();
    let b = render(&mut s, 120, 40, &Theme::mono());
    let (x, y) = find(&b, ">#3");
    assert!(b[(x + 1, y)]
        .modifier
        .contains(ratatui::style::Modifier::REVERSED));
}

#[test]
fn a_narrow_board_scrolls_to_the_cursors_column() {
    let mut s = board();
    for _ in 0..3 {
        s.on_key(key('l'));
    }
    let t = text(&render(&mut s, 80, 24, &Theme::dark()));
    assert!(t.contains("blocked? (1)"), "{t}");
    assert!(!t.contains("not started ("), "scrolled: {t}");
}

fn switcher() -> State {
    let mut s = scene();
    s.on_key(key('0'));
    s.views.counts.insert(0, Count::Rows { n: 50, more: true });
    s.views.counts.insert(1, Count::Rows { n: 3, more: false });
    s.views.counts.insert(2, Count::Failed("500".into()));
    s.views.counts.insert(4, Count::Rows { n: 0, more: false });
    s.views.counts.insert(5, Count::NeedsIdentity);
    s.on_key(key('j'));
    s
}

#[test]
fn the_switcher_at_80x24_and_120x40() {
    for (w, h) in [(80, 24), (120, 40)] {
        let mut s = switcher();
        let b = render(&mut s, w, h, &Theme::dark());
        snap(&format!("switcher_{w}x{h}"), &b);
        let t = text(&b);
        assert!(t.contains("50+"), "{t}");
        assert!(t.contains("Mine, open"), "{t}");
    }
}

#[test]
fn a_commands_output_at_80x24_and_120x40() {
    for (w, h) in [(80, 24), (120, 40)] {
        let mut s = scene();
        s.custom_done(Done {
            name: "deploy-notes".into(),
            description: "Publish the release notes".into(),
            interactive: false,
            outcomes: vec![Outcome {
                label: "#101".into(),
                exit: Exit::Code(2),
                stdout: b"uploading notes.md\n\x1b]0;pwned\x07done?\n".to_vec(),
                stderr: b"error: the bucket refused the upload (403)\n".to_vec(),
                truncated: false,
            }],
        });
        let b = render(&mut s, w, h, &Theme::dark());
        snap(&format!("command_output_{w}x{h}"), &b);
        let t = text(&b);
        assert!(t.contains("#101: failed: exit status 2"), "{t}");
        assert!(t.contains("403"), "{t}");
        for cell in b.content() {
            assert!(!cell.symbol().chars().any(crate::text::is_dangerous));
        }
    }
}

#[test]
fn a_marked_card_carries_the_mark() {
    let mut s = board();
    // #3 is current: mark it.
    s.on_key(key(' '));
    let t = text(&render(&mut s, 120, 40, &Theme::mono()));
    assert!(t.contains(">#3●"), "{t}");
    assert!(t.contains("#1 "), "an unmarked card has no mark: {t}");
}

/// #26 §3: the views as tabs over the list with their keys and the rows
/// known for each; at 80 columns the strip scrolls to the current tab.
#[test]
fn the_views_tabs_at_80x24_and_200x50() {
    for (w, h) in [(80, 24), (200, 50)] {
        let mut s = scene();
        // Mine, open: a filter without a date, so the snapshot holds.
        let fx = s.on_key(key('6'));
        crate::app::tests::answer(
            &mut s,
            &fx,
            Ok(Reply::Page(crate::api::TaskPage {
                items: (1..=2)
                    .map(|i| TaskItem::Task(Box::new(crate::app::tests::task(i))))
                    .collect(),
                cursor: Some("more".into()),
            })),
        );
        s.views.counts.insert(0, Count::Rows { n: 50, more: true });
        s.views.counts.insert(1, Count::Asking(99));
        s.views.counts.insert(2, Count::Failed("500".into()));
        s.views.counts.insert(3, Count::Rows { n: 0, more: false });
        let b = render(&mut s, w, h, &Theme::dark());
        snap(&format!("tabs_{w}x{h}"), &b);
        let t = text(&b);
        let tabs = t.lines().nth(1).unwrap();
        assert!(
            tabs.contains("6 Mine, open 2+ │ 7 Mine, overdue"),
            "the current tab: {tabs}"
        );
        // The current tab shows without colour too.
        let mono = render(&mut s, w, h, &Theme::mono());
        let (x, y) = find(&mono, "6 Mine, open 2+");
        assert_eq!(y, 1);
        assert!(mono[(x, y)]
            .modifier
            .contains(ratatui::style::Modifier::REVERSED));
        if w == 80 {
            assert!(tabs.starts_with('‹'), "more to the left: {tabs}");
            assert!(!tabs.contains("1 All"), "{tabs}");
        } else {
            for shown in [
                "1 All 50+ ",
                "2 Mine … ",
                "3 Involving me │",
                "4 Due this week 0 ",
            ] {
                assert!(tabs.contains(shown), "{shown}: {tabs}");
            }
            assert!(!tabs.contains("error") && !tabs.contains('›'), "{tabs}");
        }
    }
}

/// #26 §9: `!` means one thing in the list and on the board: overdue.
/// Priority on a card is `↑↑`/`↑`; a marked task whose bulk edit failed
/// is `✗` in both.
#[test]
fn bang_means_overdue_in_the_list_and_on_the_board() {
    let mut s = board_state();
    let late =
        crate::api::to_rfc3339(jiff::Timestamp::now() - jiff::SignedDuration::from_hours(3 * 24));
    for (i, item) in s.list.items.iter_mut().enumerate() {
        if let TaskItem::Task(t) = item {
            t.priority = crate::api::Priority::Medium;
            if i == 0 {
                t.complete_by = Some(late.clone().into());
            }
            if i == 1 {
                t.priority = crate::api::Priority::Urgent;
            }
        }
    }
    // #2 marked, its bulk edit failed.
    let t2 = s.list.items[1].task().unwrap().clone();
    s.marks.insert(&t2);
    s.marks
        .failed
        .insert(t2.id.as_str().to_string(), "422: locked".into());
    let list = text(&render(&mut s, 120, 40, &Theme::mono()));
    let row = |t: &str, n: &str| {
        t.lines()
            .find(|l| l.starts_with('┃') && l.contains(&format!(" {n}  ")))
            .unwrap_or_else(|| panic!("{n}: {t}"))
            .to_string()
    };
    assert!(row(&list, "#1").contains("!3d overdue"), "{list}");
    assert!(
        row(&list, "#2").contains("✗") && !row(&list, "#2").contains('!'),
        "{list}"
    );
    s.on_key(key('b'));
    let board = text(&render(&mut s, 120, 40, &Theme::mono()));
    assert!(board.contains("#1   !Task number 1"), "overdue: {board}");
    assert!(
        board.contains("#2✗↑↑Task number 2"),
        "failed mark, urgent: {board}"
    );
    for l in board.lines().filter(|l| l.contains("Task number")) {
        let bangs = l.matches('!').count();
        assert!(
            bangs <= 1 && (bangs == 0 || l.contains("!Task number 1")),
            "{l}"
        );
    }
    // A warning on the status line says so in a word.
    s.say(Level::Warn, "careful");
    let t = text(&render(&mut s, 120, 40, &Theme::mono()));
    assert!(t.contains(" warning: careful"), "{t}");
}

#[test]
fn filter_suggestions_show_the_word_completed_not_the_words_before() {
    let mut s = loaded(1);
    s.on_key(key(':'));
    for c in "filter assigned=me priority=urgent tags=a status=in_progress,".chars() {
        s.on_key(key(c));
    }
    let t = text(&render(&mut s, 80, 24, &Theme::dark()));
    // Each suggestion is the value completed, in full at 80 columns.
    for v in ["not_started", "waiting_on_external", "completed"] {
        assert!(
            t.contains(&format!("filter …status=in_progress,{v}")),
            "{v}:\n{t}"
        );
    }
    // The first word is shown as it is.
    s.on_key(code(KeyCode::Esc));
    s.on_key(key(':'));
    for c in "filter st".chars() {
        s.on_key(key(c));
    }
    let t = text(&render(&mut s, 80, 24, &Theme::dark()));
    assert!(t.contains("filter status="), "{t}");
}

/// A message longer than the status line is cut with the cut mark (issue
/// 40: every cut says so); it was cut at the edge with nothing saying
/// more was there. The whole message stays in `:log`.
#[test]
fn a_message_longer_than_the_status_line_ends_in_the_cut_mark() {
    let mut s = loaded(1);
    let long = "macro await-signature — #1: reply sent, comment added, status → waiting, tags +awaiting-signature, follow-up set";
    s.say(Level::Success, long);
    let t = text(&render(&mut s, 80, 24, &Theme::mono()));
    let line = t
        .lines()
        .find(|l| l.contains("ok: macro await-signature"))
        .unwrap_or_else(|| panic!("{t}"));
    assert!(line.trim_end().ends_with('…'), "{line:?}");
    assert!(crate::cut::width(line) <= 80, "{line:?}");
    // A message that fits is whole, with no mark.
    s.say(Level::Success, "saved");
    let t = text(&render(&mut s, 80, 24, &Theme::mono()));
    assert!(t.lines().any(|l| l.trim_end() == " ok: saved"), "{t}");
}
