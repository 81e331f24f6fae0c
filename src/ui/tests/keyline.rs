//! The key line at the bottom (issue 34 §6): where help is and how to
//! leave always fit, at 80 columns too, whatever the pane; the first
//! start's hint says the same until the first key.

use super::*;
use crate::app::tests::views::board::board_state;

/// The last row of the screen.
fn key_line(s: &mut State, w: u16, h: u16) -> String {
    let b = render(s, w, h, &Theme::dark());
    text(&b).lines().last().unwrap().to_string()
}

#[test]
fn help_and_quit_always_fit_in_the_key_line() {
    let mut list = scene();
    let mut detail = scene();
    detail.on_key(code(KeyCode::Enter));
    let mut marked = scene();
    marked.on_key(key(' '));
    let mut board = board_state();
    board.on_key(key('b'));
    for (what, s) in [
        ("list", &mut list),
        ("detail", &mut detail),
        ("marks", &mut marked),
        ("board", &mut board),
    ] {
        for w in [60, 80, 100, 120] {
            let line = key_line(s, w, 24);
            assert!(
                line.contains("? help") && line.trim_end().ends_with("q quit"),
                "{what} at {w} columns: {line:?}"
            );
        }
    }
    // At 80 columns the list keeps the search key too.
    let line = key_line(&mut list, 80, 24);
    assert!(line.contains("/ search"), "{line:?}");
}

#[test]
fn the_first_start_says_where_help_is_and_how_to_leave_until_a_key() {
    let mut s = scene();
    s.welcome = true;
    let line = key_line(&mut s, 80, 24);
    assert_eq!(
        line.trim_end(),
        " New here? Press ? for help, : for commands, q to quit (this hint shows once)"
    );
    assert_eq!(
        key_line(&mut s, 60, 24).trim_end(),
        " New here? ? help, q quit (shown once)"
    );
    s.on_key(key('j'));
    assert!(!s.welcome);
    let line = key_line(&mut s, 80, 24);
    assert!(line.starts_with(" [list]  ? help"), "{line:?}");
}

#[test]
fn the_demos_first_start_hint_says_it_shows_at_each_demo_start_not_once() {
    // The demo keeps nothing between runs (issue 46 point 5): "once" would be
    // untrue there.
    let mut s = scene();
    s.welcome = true;
    s.demo = true;
    for w in [60, 80, 100] {
        let line = key_line(&mut s, w, 24);
        assert!(line.contains("New here?"), "{line:?}");
        assert!(!line.contains("once"), "at {w} columns: {line:?}");
        assert!(line.contains("each demo start"), "at {w} columns: {line:?}");
    }
}
