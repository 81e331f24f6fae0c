//! `:link task` asks the service once typing rests, not at every key:
//! the rows narrow at once from what is held, the question waits
//! `TYPING_PAUSE` after the tick that followed the last key (time is what
//! `on_tick` is fed), and Enter on a row not yet there asks at once.

use super::*;
use crate::app::popups::chooser::{Chooser, ChooserKind, TYPING_PAUSE};
use std::time::{Duration, Instant};

fn chooser(s: &State) -> &Chooser {
    match &s.overlay {
        Overlay::Chooser(c) if c.kind == ChooserKind::LinkTask => c,
        _ => panic!("the link picker is open"),
    }
}

fn rows(s: &State) -> Vec<String> {
    chooser(s).rows.iter().map(|r| r.0.clone()).collect()
}

/// `:link task` on task #1, its first search ("") answered empty.
fn picker_open(n: i64) -> State {
    let mut s = loaded(n);
    let fx = palette(&mut s, "link task");
    assert_eq!(reqs(&fx).len(), 1, "opening asks once: {fx:?}");
    answer(&mut s, &fx, whole_page([]));
    assert_eq!(chooser(&s).note, None);
    s
}

fn words(q: &str) -> ApiRequest {
    ApiRequest::PickTasks {
        query: TaskQuery {
            query: Some(q.into()),
            ..Default::default()
        },
        number: None,
    }
}

#[test]
fn the_pickers_pause_is_the_live_filters() {
    assert_eq!(TYPING_PAUSE, crate::app::popups::search::SEARCH_DEBOUNCE);
}

/// Eight characters typed quickly (the loop ticks after each key, 40 ms
/// apart): the rows narrow at every key, nothing is asked nor said to be
/// searched; once typing rests the service is asked exactly once, with
/// the whole text.
#[test]
fn eight_keys_typed_quickly_ask_the_service_once_with_the_whole_text() {
    let mut s = picker_open(12);
    let t0 = Instant::now();
    let mut fx = Vec::new();
    let mut last = t0;
    let mut narrowed = Vec::new();
    for (i, ch) in "number 1".chars().enumerate() {
        fx.extend(s.on_key(key(ch)));
        last = t0 + Duration::from_millis(40 * i as u64);
        fx.extend(s.on_tick(last).0);
        narrowed.push(rows(&s).len());
        assert_eq!(chooser(&s).note, None, "no search is out after {ch:?}");
    }
    assert!(reqs(&fx).is_empty(), "nothing asked while typing: {fx:?}");
    // (The current task, #1, is never offered.)
    assert_eq!(rows(&s), [10, 11, 12].map(tid).to_vec(), "narrowed at once");
    assert_eq!(narrowed[..7], [11; 7], "every task seen matches `number`");
    // Not yet rested.
    let early = s.on_tick(last + TYPING_PAUSE - Duration::from_millis(1)).0;
    assert!(reqs(&early).is_empty(), "{early:?}");
    let fx = s.on_tick(last + TYPING_PAUSE).0;
    assert_eq!(reqs(&fx), vec![words("number 1")]);
    assert_eq!(chooser(&s).note.as_deref(), Some("searching the service…"));
    // Asked once: later ticks ask nothing more.
    let later = s.on_tick(last + Duration::from_secs(5)).0;
    assert!(reqs(&later).is_empty(), "{later:?}");
    // Its answer settles the note and adds its rows.
    answer(&mut s, &fx, whole_page([19]));
    assert_eq!(chooser(&s).note, None);
    assert_eq!(rows(&s), [10, 11, 12, 19].map(tid).to_vec());
}

/// Typing on while a search is out: the answer to the older text adds its
/// rows but does not settle the note of what is typed now; the newer
/// text is asked once typing rests. Text typed back to what was asked is
/// not asked again.
#[test]
fn typing_on_while_a_search_is_out_asks_the_newer_text_after_the_pause() {
    let mut s = picker_open(3);
    let t0 = Instant::now();
    type_str(&mut s, "task");
    s.on_tick(t0);
    let first = s.on_tick(t0 + TYPING_PAUSE).0;
    assert_eq!(reqs(&first), vec![words("task")]);
    type_str(&mut s, " 2");
    s.on_tick(t0 + TYPING_PAUSE * 2);
    assert_eq!(
        chooser(&s).note.as_deref(),
        Some("searching the service…"),
        "the older search is still out"
    );
    answer(&mut s, &first, whole_page([2]));
    assert_eq!(chooser(&s).note, None, "nothing out until typing rests");
    let fx = s.on_tick(t0 + TYPING_PAUSE * 3).0;
    assert_eq!(reqs(&fx), vec![words("task 2")]);
    // Back to a text asked already: not again.
    s.on_key(code(KeyCode::Backspace));
    s.on_key(code(KeyCode::Backspace));
    s.on_key(key(' '));
    s.on_key(key('2'));
    s.on_tick(t0 + TYPING_PAUSE * 4);
    let fx = s.on_tick(t0 + TYPING_PAUSE * 6).0;
    assert!(reqs(&fx).is_empty(), "{fx:?}");
}

/// Enter before the pause: on a row that is there it links that row and
/// asks nothing; on no row (words matching nothing held) it asks at once,
/// and the tick after asks nothing more. A paste waits for the pause too.
#[test]
fn enter_before_the_pause_asks_at_once_only_for_a_row_not_there() {
    let mut s = picker_open(3);
    type_str(&mut s, "zebra");
    assert!(rows(&s).is_empty());
    let fx = s.on_key(code(KeyCode::Enter));
    assert_eq!(reqs(&fx), vec![words("zebra")]);
    assert_eq!(chooser(&s).note.as_deref(), Some("searching the service…"));
    let t0 = Instant::now();
    s.on_tick(t0);
    assert!(reqs(&s.on_tick(t0 + TYPING_PAUSE).0).is_empty());
    // A paste narrows at once and is asked after the pause.
    for _ in 0..5 {
        s.on_key(code(KeyCode::Backspace));
    }
    s.on_paste("number 3");
    assert_eq!(rows(&s), vec![tid(3)]);
    s.on_tick(t0 + TYPING_PAUSE * 2);
    let fx = s.on_tick(t0 + TYPING_PAUSE * 3).0;
    assert_eq!(reqs(&fx), vec![words("number 3")]);
    // Words typed, a row highlighted: Enter links it, nothing is searched.
    s.on_key(code(KeyCode::Esc));
    palette(&mut s, "link task");
    type_str(&mut s, "number 2");
    let fx = s.on_key(code(KeyCode::Enter));
    assert_eq!(
        reqs(&fx),
        vec![ApiRequest::AddLinks {
            id: tid(1),
            links: vec![(LinkType::Task, tid(2))]
        }]
    );
}
