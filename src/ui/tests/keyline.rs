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

/// The key a hint names, as the terminal sends it.
fn event_of(label: &str) -> crossterm::event::KeyEvent {
    use crossterm::event::{KeyEvent, KeyModifiers};
    let (mods, rest) = match label.strip_prefix("ctrl-") {
        Some(r) => (KeyModifiers::CONTROL, r),
        None => (KeyModifiers::NONE, label),
    };
    let code = match rest {
        "space" => KeyCode::Char(' '),
        "esc" => KeyCode::Esc,
        "enter" => KeyCode::Enter,
        "up" => KeyCode::Up,
        "down" => KeyCode::Down,
        "left" => KeyCode::Left,
        "right" => KeyCode::Right,
        "tab" => KeyCode::Tab,
        "backtab" => KeyCode::BackTab,
        "shift-tab" => return KeyEvent::new(KeyCode::BackTab, KeyModifiers::SHIFT),
        "pageup" => KeyCode::PageUp,
        "pagedown" => KeyCode::PageDown,
        one if one.chars().count() == 1 => KeyCode::Char(one.chars().next().unwrap()),
        other => panic!("a key the test cannot press: {other:?}"),
    };
    KeyEvent::new(code, mods)
}

/// The keys `line` names for `label` (`j/k move` → `["j", "k"]`), if it
/// names it.
fn keys_named(line: &str, label: &str) -> Option<Vec<String>> {
    let body = line.trim().split_once("] ").map_or(line.trim(), |(_, b)| b);
    body.split("  ").find_map(|part| {
        let keys = part.trim().strip_suffix(label)?.strip_suffix(' ')?;
        // `/` alone is the search key, not a separator.
        (!keys.is_empty() && !keys.contains(' ')).then(|| match keys {
            "/" => vec!["/".to_string()],
            _ => keys.split('/').map(str::to_string).collect(),
        })
    })
}

/// Each key a hint line names, pressed where the line is shown, runs the
/// action the line says (issue 40 §4): the panes (list, detail, marks,
/// board) and every popup with keys in the keymap. Every entry of the line
/// that a key runs there is named and checked, not only some: an entry
/// the line leaves out, or names with a key that runs something else,
/// fails. Before, the Links tab said `i check ids` (`i` opens the inbox),
/// and this test passed with help and quit alone found on a line.
#[test]
fn every_key_a_hint_names_runs_what_the_hint_says() {
    use crate::app::keymap::{Action, Context};
    fn check(
        s: &State,
        what: &str,
        contexts: &[Context],
        entries: &[(&[Action], &str)],
        typing: bool,
    ) {
        let line = crate::ui::hint_text(s, 400);
        for entry in entries {
            let (actions, label) = *entry;
            // Some key runs it here (one that types no character, in a
            // popup typed into): the line must name it.
            let runs = match typing {
                true => s.keymap.hints_typing(contexts, &[*entry]),
                false => s.keymap.hints(contexts, &[*entry]),
            };
            if runs.is_empty() {
                continue;
            }
            let keys = keys_named(&line, label)
                .unwrap_or_else(|| panic!("{what}: `{label}` left out of {line:?}"));
            assert_eq!(keys.len(), actions.len(), "{what}: {line:?}");
            for (k, a) in keys.iter().zip(actions.iter()) {
                let got = s.keymap.lookup(contexts, &event_of(k));
                assert_eq!(got, Some(*a), "{what}: `{k} {label}` in {line:?}");
            }
        }
    }
    /// A popup that reads its keys in code: the line names each entry of
    /// its table with the key the handler reads for it.
    fn check_fixed<K: Copy + PartialEq + std::fmt::Debug>(
        what: &str,
        line: &str,
        table: crate::domain::fixed_keys::FixedKeys<K>,
    ) {
        for (does, _, words) in table {
            let keys = keys_named(line, words)
                .unwrap_or_else(|| panic!("{what}: `{words}` left out of {line:?}"));
            let runs: Vec<K> = keys
                .iter()
                .filter_map(|k| crate::domain::fixed_keys::key_of(table, &event_of(k)))
                .collect();
            assert_eq!(runs.len(), keys.len(), "{what}: {line:?}");
            assert!(runs.contains(does), "{what}: `{words}` in {line:?}");
        }
    }
    // The panes: the reducer reads `key_contexts`.
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
        let _ = render(s, 120, 40, &Theme::dark());
        let mut entries: Vec<(&[Action], &str)> =
            vec![(&[Action::Help], "help"), (&[Action::Quit], "quit")];
        let pane: Vec<([Action; 1], &str)> = crate::ui::pane_keys(s)
            .iter()
            .map(|(a, l)| ([*a], *l))
            .collect();
        entries.extend(pane.iter().map(|(a, l)| (&a[..], *l)));
        check(s, what, s.key_contexts(), &entries, false);
    }
    // Every popup: its handler reads its context, or its table.
    use crate::app::popups::{compose, help, search};
    use crate::ui::hints::{Fixed, PopupKeys};
    let mut fixed_seen = Vec::new();
    for (name, setup) in super::screens::popups() {
        let mut s = scene();
        s.on_key(code(KeyCode::Enter));
        for _ in 0..3 {
            s.on_key(key(']'));
        }
        s.on_key(code(KeyCode::Esc));
        setup(&mut s);
        match crate::ui::popup_keys(&s) {
            Some((
                _,
                PopupKeys::Mapped {
                    context,
                    entries,
                    typing,
                },
            )) => check(&s, name, &[context], entries, typing),
            Some((_, PopupKeys::Fixed(fixed))) => {
                // Keys read in code: their table is what the handler
                // reads; every entry is named, and pressed below.
                let line = crate::ui::hint_text(&s, 400);
                match fixed {
                    Fixed::Help => check_fixed(name, &line, help::HELP_KEYS),
                    Fixed::Search => check_fixed(name, &line, search::SEARCH_KEYS),
                    Fixed::Compose => check_fixed(name, &line, compose::COMPOSER_KEYS),
                }
                fixed_seen.push(fixed);
            }
            None => panic!("{name}: no popup open"),
        }
    }
    assert_eq!(
        fixed_seen,
        [Fixed::Help, Fixed::Search, Fixed::Compose],
        "every popup that reads its keys in code is checked"
    );
    // What the help screen's and search's keys do, pressed: what their
    // lines say (the composer's: `the_composer_keys_are_named_once…`).
    let mut s = scene();
    let scroll = |s: &State| match &s.overlay {
        Overlay::Help { scroll, .. } => Some(*scroll),
        _ => None,
    };
    s.on_key(key('?'));
    let line = crate::ui::hint_text(&s, 400);
    assert!(
        line.trim_start().starts_with("[help] type to filter  "),
        "{line}"
    );
    let press = |s: &mut State, label: &str| {
        let k = keys_named(&line, label).unwrap_or_else(|| panic!("{label}: {line:?}"));
        for k in k {
            s.on_key(event_of(&k));
        }
    };
    press(&mut s, "page"); // pageup, then pagedown: one page down from the top
    assert_eq!(scroll(&s), Some(10), "page");
    for k in keys_named(&line, "scroll").unwrap() {
        let before = scroll(&s).unwrap();
        s.on_key(event_of(&k));
        let step = if k == "up" { before - 1 } else { before + 1 };
        assert_eq!(scroll(&s), Some(step), "{k} scroll");
    }
    press(&mut s, "close");
    assert!(matches!(s.overlay, Overlay::None), "close");
    let mut s = scene();
    s.on_key(key('/'));
    let line = crate::ui::hint_text(&s, 400);
    assert!(
        line.trim_start().starts_with("[search] type to narrow  "),
        "{line}"
    );
    for c in "contoso".chars() {
        s.on_key(key(c));
    }
    let [k] = &keys_named(&line, "keep").unwrap()[..] else {
        panic!("{line}")
    };
    s.on_key(event_of(k));
    assert!(
        matches!(s.overlay, Overlay::None) && s.search == "contoso",
        "keep"
    );
    s.on_key(key('/'));
    s.on_key(key('x'));
    let [k] = &keys_named(&line, "restore the list").unwrap()[..] else {
        panic!("{line}")
    };
    s.on_key(event_of(k));
    assert!(matches!(s.overlay, Overlay::None), "restore");
    assert_eq!(s.search, "contoso", "restore the list as it was");
    // The Links tab's line: `C check ids`, the key that edits them.
    let mut s = scene();
    s.on_key(code(KeyCode::Enter));
    for _ in 0..3 {
        s.on_key(key(']'));
    }
    let t = text(&render(&mut s, 120, 40, &Theme::dark()));
    assert!(t.contains("C check ids (reviews)"), "{t}");
    let contexts = [Context::Task, Context::Detail, Context::Global];
    assert_eq!(
        s.keymap.lookup(&contexts, &event_of("C")),
        Some(Action::EditCheckIds)
    );
}

/// A rebinding in the config is what the hints say: the Links tab, the
/// inbox's line, the pane's line and the first start's hint.
#[test]
fn a_rebinding_in_the_config_changes_the_hints() {
    use crate::app::keymap::Keymap;
    use std::collections::BTreeMap;
    let mut o: BTreeMap<String, BTreeMap<String, String>> = BTreeMap::new();
    let mut bind = |ctx: &str, k: &str, a: &str| {
        o.entry(ctx.into()).or_default().insert(k.into(), a.into());
    };
    bind("task", "K", "edit_check_ids");
    bind("task", "C", "none");
    bind("inbox", "x", "inbox_done");
    bind("inbox", "d", "none");
    bind("global", "Q", "quit");
    bind("global", "q", "none");
    bind("global", "h", "help");
    bind("global", "?", "none");
    let (km, w) = Keymap::load(&o);
    assert!(w.is_empty(), "{w:?}");
    let mut s = scene();
    s.keymap = km.clone();
    s.welcome = true;
    let line = key_line(&mut s, 80, 24);
    assert!(
        line.contains("Press h for help") && line.contains("Q to quit"),
        "{line:?}"
    );
    s.on_key(code(KeyCode::Enter));
    for _ in 0..3 {
        s.on_key(key(']'));
    }
    let t = text(&render(&mut s, 120, 40, &Theme::dark()));
    assert!(
        t.contains("K check ids (reviews)") && !t.contains("C check ids"),
        "{t}"
    );
    let line = t.lines().last().unwrap();
    assert!(
        line.contains("h help") && line.trim_end().ends_with("Q quit"),
        "{line:?}"
    );
    let mut s = super::inbox::inbox_scene();
    s.keymap = km;
    s.on_key(key('i'));
    let t = text(&render(&mut s, 120, 40, &Theme::dark()));
    assert!(t.contains("x done") && !t.contains("d done"), "{t}");
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

/// Issue 40 §4: the sharing editor's key line and title and the Files
/// tab's line come from the keymap (they were written by hand): keys
/// rebound in the config show rebound.
#[test]
fn the_sharing_editor_and_the_files_tab_name_the_keys_rebound() {
    use crate::app::keymap::Keymap;
    use std::collections::BTreeMap;
    let mut o: BTreeMap<String, BTreeMap<String, String>> = BTreeMap::new();
    let mut bind = |ctx: &str, k: &str, a: &str| {
        o.entry(ctx.into()).or_default().insert(k.into(), a.into());
    };
    bind("sharing", "r", "review");
    bind("sharing", "enter", "none");
    bind("sharing", "v", "none");
    bind("sharing", "o", "toggle_visibility");
    bind("task", "F", "none");
    bind("task", "B", "attach");
    let (km, w) = Keymap::load(&o);
    assert!(w.is_empty(), "{w:?}");
    // The Files tab (the sixth).
    let mut s = scene();
    s.keymap = km.clone();
    s.on_key(code(KeyCode::Enter));
    for _ in 0..5 {
        s.on_key(key(']'));
    }
    let t = text(&render(&mut s, 160, 40, &Theme::dark()));
    assert!(
        t.contains("B attach a file (pick one; type to narrow)") && !t.contains("F attach"),
        "{t}"
    );
    // The sharing editor.
    let sharing = crate::app::tests::sharing_state(serde_json::json!([]));
    if let Some(d) = s.detail.as_mut() {
        d.sharing = crate::app::state::Load::Loaded(sharing);
    }
    s.on_key(key('S'));
    assert!(matches!(s.overlay, Overlay::Sharing(_)));
    let t = text(&render(&mut s, 160, 40, &Theme::dark()));
    // The editor's own line (the hint line below says `t team`).
    let line = t
        .lines()
        .find(|l| l.contains("add team"))
        .unwrap_or_else(|| panic!("{t}"));
    assert!(line.contains("o visibility"), "{line:?}");
    assert!(!t.to_lowercase().contains("enter review"), "{t}");
    assert!(t.contains("r reviews before saving"), "{t}");
}

/// Issue 46 §4: a popup's key line too wide for the terminal drops
/// entries by their order (the last kept: how the popup ends) instead of
/// being cut mid-word (`esc clo`).
#[test]
fn a_popup_key_line_too_wide_keeps_its_name_and_how_it_ends() {
    let hint = "[inbox] j/k move  enter open  d done  u undo  s snooze  f follow-up  a all  r now  esc close";
    let fit = crate::ui::hints::fit_popup_hint(hint, 60);
    assert!(crate::cut::width(&fit) <= 60, "{fit}");
    assert!(fit.starts_with("[inbox] j/k move  enter open"), "{fit}");
    assert!(fit.ends_with("  esc close"), "{fit}");
    assert!(!fit.contains('…'), "{fit}");
    assert_eq!(crate::ui::hints::fit_popup_hint(hint, 200), hint);
}

/// A confirmation's answers are the bottom line's, from the keymap in
/// effect: rebound, the popup says the new key (it said `y yes · n / Esc
/// no` whatever the config).
#[test]
fn a_confirmations_answers_are_the_keys_in_effect() {
    use crate::app::keymap::Keymap;
    use std::collections::BTreeMap;
    let mut o: BTreeMap<String, BTreeMap<String, String>> = BTreeMap::new();
    let confirm = o.entry("confirm".into()).or_default();
    confirm.insert("o".into(), "yes".into());
    confirm.insert("y".into(), "none".into());
    let (km, w) = Keymap::load(&o);
    assert!(w.is_empty(), "{w:?}");
    // A link to ask about (the Links tab), as the popups' screens have it.
    let mut s = super::access::opened();
    s.keymap = km;
    s.command("unlink");
    assert!(matches!(s.overlay, Overlay::Confirm { .. }));
    let t = text(&render(&mut s, 100, 30, &Theme::dark()));
    let bottom = t.lines().last().unwrap();
    assert!(bottom.contains("[confirm] o yes  esc no"), "{bottom:?}");
    let answers = t
        .lines()
        .find(|l| l.contains("· esc no"))
        .unwrap_or_else(|| panic!("{t}"));
    assert!(answers.contains("o yes · esc no"), "{t}");
    assert!(!t.contains("y yes"), "{t}");
}
