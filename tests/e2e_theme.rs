//! `theme = "auto"` with the real binary in a pty (issue 45 §3): the
//! terminal is asked its background (OSC 11); a light answer gives the
//! light theme's colours, a dark one the dark theme's; a terminal that
//! does not answer gets the first frame at once, dark (or what
//! `COLORFGBG` says); keys typed while the answer is awaited, or right
//! after it, are read as keys.

mod support;

use std::time::Instant;
use support::*;

/// Cyan (the dark theme's accent and focused border) and blue (the light
/// theme's), as vt100 names them.
const CYAN: &str = "Idx(6)";
const BLUE: &str = "Idx(4)";

const QUERY: &[u8] = b"\x1b]11;?\x07";

fn start(svc: &Service, home: &Home, extra: &[(&str, &str)], answer: Option<&str>) -> Tui {
    let mut env = svc.env();
    for (k, v) in extra {
        env = env_with(env, k, v);
    }
    Tui::spawn_answering(
        home,
        env!("CARGO_BIN_EXE_taskdeck"),
        &[],
        &env,
        120,
        40,
        answer.map(str::to_string),
    )
}

fn ready(tui: &Tui) {
    tui.wait_for("Alice Martin", WAIT);
    tui.wait_until("the first page", WAIT, |s| {
        s.contains("(more below)") || s.contains("(all)")
    });
}

/// A light answer and a dark one give different colours; a key sent
/// right after the answer (`?`, help) is read as the key it is.
#[test]
fn the_terminals_answer_picks_the_light_or_the_dark_theme() {
    let svc = Service::small();
    let home = Home::new();
    let light = start(&svc, &home, &[], Some("\x1b]11;rgb:ffff/ffff/ffff\x07?"));
    ready(&light);
    light.wait_for("type to filter", WAIT);
    let light_colours = light.colours();
    assert!(light.raw().windows(QUERY.len()).any(|w| w == QUERY));
    drop(light);

    let home = Home::new();
    let dark = start(&svc, &home, &[], Some("\x1b]11;rgb:1e1e/1e1e/1e1e\x1b\\"));
    ready(&dark);
    let dark_colours = dark.colours();
    drop(dark);
    assert_ne!(light_colours, dark_colours);
    assert!(
        light_colours.contains(BLUE) && !light_colours.contains(CYAN),
        "light: {light_colours:?}"
    );
    assert!(
        dark_colours.contains(CYAN) && !dark_colours.contains(BLUE),
        "dark: {dark_colours:?}"
    );
}

/// No answer: the first frame comes without waiting for one (well under
/// a second after the question; the wait is 100 ms), dark; a key typed
/// while the answer is awaited is not lost. With `COLORFGBG` saying a
/// light background, light.
#[test]
fn no_answer_falls_back_at_once_to_colorfgbg_then_dark() {
    let svc = Service::small();
    let home = Home::new();
    let tui = start(&svc, &home, &[], None);
    let asked = wait_for_query(&tui);
    // Typed while taskdeck waits for an answer that never comes.
    tui.send("?");
    tui.wait_until("a first frame", WAIT, |s| !s.trim().is_empty());
    let first = asked.elapsed();
    assert!(
        first < std::time::Duration::from_secs(2),
        "the first frame took {first:?} after the question"
    );
    tui.wait_for("type to filter", WAIT);
    let colours = tui.colours();
    assert!(
        colours.contains(CYAN) && !colours.contains(BLUE),
        "{colours:?}"
    );
    drop(tui);

    let home = Home::new();
    let tui = start(&svc, &home, &[("COLORFGBG", "0;15")], None);
    ready(&tui);
    let colours = tui.colours();
    assert!(
        colours.contains(BLUE) && !colours.contains(CYAN),
        "{colours:?}"
    );
}

/// When the question was written (the raw output holds it).
fn wait_for_query(tui: &Tui) -> Instant {
    let start = Instant::now();
    while !tui.raw().windows(QUERY.len()).any(|w| w == QUERY) {
        assert!(start.elapsed() < WAIT, "the terminal was never asked");
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    Instant::now()
}
