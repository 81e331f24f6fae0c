//! The mouse (#33 §3): what a click lands on is where the frame drew it
//! (`Metrics::hits`): list rows, board cards, inbox items, a picker's
//! candidates, detail and view tabs, panes; the wheel over each pane;
//! motion changes nothing.

use super::*;
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers, MouseButton, MouseEvent, MouseEventKind};
use std::time::{Duration, Instant};

fn at(kind: MouseEventKind, column: u16, row: u16) -> MouseEvent {
    MouseEvent {
        kind,
        column,
        row,
        modifiers: KeyModifiers::NONE,
    }
}

const LEFT: MouseEventKind = MouseEventKind::Down(MouseButton::Left);

/// The cell where `text` is drawn on the screen.
pub(super) fn cell_of(b: &Buffer, text: &str) -> (u16, u16) {
    cell_below(b, "", text)
}

/// The cell where `text` is drawn below the line that shows `above`.
fn cell_below(b: &Buffer, above: &str, text: &str) -> (u16, u16) {
    let t = super::text(b);
    let from = t.lines().position(|l| l.contains(above)).unwrap_or(0);
    t.lines()
        .enumerate()
        .skip(from)
        .find_map(|(y, l)| {
            l.find(text)
                .map(|i| (l[..i].chars().count() as u16, y as u16))
        })
        .unwrap_or_else(|| panic!("{text:?} not on screen:\n{t}"))
}

pub(super) fn click(s: &mut State, (x, y): (u16, u16), now: Instant) -> bool {
    s.on_mouse(at(LEFT, x, y), now).1
}

#[test]
fn a_click_on_a_row_makes_it_current_and_a_double_click_opens_it() {
    let mut s = scene();
    let b = render(&mut s, 160, 45, &Theme::dark());
    let row = cell_of(&b, "#103");
    let t0 = Instant::now();
    assert!(click(&mut s, row, t0));
    assert_eq!(s.list.selected, 2);
    assert_eq!(s.focus, Focus::List, "one click: still the list");
    render(&mut s, 160, 45, &Theme::dark());
    assert!(click(&mut s, row, t0 + Duration::from_millis(200)));
    assert_eq!(s.focus, Focus::Detail, "a double click opens it");
    // Two clicks far apart are two single clicks.
    let mut s = scene();
    let b = render(&mut s, 160, 45, &Theme::dark());
    let row = cell_of(&b, "#102");
    click(&mut s, row, t0);
    render(&mut s, 160, 45, &Theme::dark());
    click(&mut s, row, t0 + Duration::from_secs(2));
    assert_eq!(s.focus, Focus::List);
}

#[test]
fn motion_and_clicks_on_nothing_change_nothing() {
    let mut s = scene();
    render(&mut s, 160, 45, &Theme::dark());
    let now = Instant::now();
    for x in 0..40 {
        let (fx, changed) = s.on_mouse(at(MouseEventKind::Moved, x, 5), now);
        assert!(fx.is_empty() && !changed, "motion changes nothing");
    }
    // A row is a target (the click below lands where the rows are)…
    let b = render(&mut s, 160, 45, &Theme::dark());
    assert!(click(&mut s, cell_of(&b, "#103"), now));
    assert_eq!(s.list.selected, 2);
    // …the header is not: the row chosen stays.
    render(&mut s, 160, 45, &Theme::dark());
    assert!(!click(&mut s, (3, 0), now + Duration::from_secs(2)));
    assert_eq!(s.list.selected, 2);
}

#[test]
fn a_click_on_a_detail_tab_or_a_view_tab_switches_to_it() {
    let mut s = scene();
    s.on_key(code(KeyCode::Enter));
    let b = render(&mut s, 160, 45, &Theme::dark());
    let now = Instant::now();
    click(&mut s, cell_of(&b, "Files"), now);
    assert_eq!(s.detail.as_ref().unwrap().tab, Tab::Files);
    assert_eq!(s.focus, Focus::Detail);
    let b = render(&mut s, 160, 45, &Theme::dark());
    let (x, y) = cell_of(&b, "2 Mine");
    click(&mut s, (x + 1, y), now);
    assert_eq!(s.view, Some(1), "the second view");
    let b = render(&mut s, 160, 45, &Theme::dark());
    let (x, y) = cell_of(&b, "i Inbox");
    click(&mut s, (x + 1, y), now);
    assert!(matches!(s.overlay, Overlay::Inbox(_)));
}

#[test]
fn a_click_on_an_inbox_item_chooses_it_and_a_double_click_opens_it() {
    let mut s = super::inbox::inbox_scene();
    s.on_key(key('i'));
    let b = render(&mut s, 120, 40, &Theme::dark());
    let t0 = Instant::now();
    // Its second line (why) chooses it too.
    let (x, y) = cell_below(&b, "Inbox —", "#102");
    click(&mut s, (x, y + 1), t0);
    match &s.overlay {
        Overlay::Inbox(l) => assert_eq!(l.selected, 1),
        _ => panic!("the inbox closed"),
    }
    render(&mut s, 120, 40, &Theme::dark());
    click(&mut s, (x, y), t0 + Duration::from_millis(100));
    assert!(matches!(s.overlay, Overlay::None), "opened");
    assert_eq!(
        s.detail.as_ref().map(|d| d.task_id.clone()),
        s.list.items.get(1).and_then(|i| i.id()).map(str::to_string)
    );
}

#[test]
fn a_click_on_a_pickers_candidate_chooses_it_and_the_panes_below_take_none() {
    let picker = super::screens::popups()
        .into_iter()
        .find(|(n, _)| *n == "picker")
        .unwrap()
        .1;
    let mut s = scene();
    picker(&mut s);
    let b = render(&mut s, 120, 40, &Theme::dark());
    let now = Instant::now();
    click(&mut s, cell_of(&b, "sam.taylor@"), now);
    match &s.overlay {
        Overlay::Picker(p) => assert_eq!(p.selected, 1),
        _ => panic!("the picker closed"),
    }
    // A list row left of the popup is not a target while it is open.
    assert!(!click(&mut s, (1, 6), now));
    assert_eq!(s.list.selected, 0);
    // The wheel moves the choice.
    s.on_mouse(at(MouseEventKind::ScrollUp, 40, 20), now);
    match &s.overlay {
        Overlay::Picker(p) => assert_eq!(p.selected, 0),
        _ => panic!("the picker closed"),
    }
}

#[test]
fn a_click_on_a_board_card_makes_it_current() {
    let mut s = scene();
    s.on_key(key('b'));
    let b = render(&mut s, 160, 45, &Theme::dark());
    click(&mut s, cell_of(&b, "#103"), Instant::now());
    assert_eq!(s.list.selected_id(), s.list.items[2].id());
    let b = render(&mut s, 160, 45, &Theme::dark());
    let t = super::text(&b);
    assert!(t.contains(">#103"), "{t}");
}

#[test]
fn the_wheel_over_the_detail_scrolls_it_and_over_the_list_moves_the_cursor() {
    let mut s = super::text::markdown_scene();
    s.focus = Focus::List;
    let b = render(&mut s, 160, 30, &Theme::dark());
    let (x, y) = cell_of(&b, "Overview |");
    let now = Instant::now();
    for _ in 0..3 {
        s.on_mouse(at(MouseEventKind::ScrollDown, x, y + 5), now);
        render(&mut s, 160, 30, &Theme::dark());
    }
    assert_eq!(s.focus, Focus::Detail);
    assert!(
        s.detail.as_ref().unwrap().scroll > 0,
        "the content scrolled"
    );
    assert_eq!(s.list.selected, 0, "the list did not move");
    s.on_mouse(at(MouseEventKind::ScrollDown, 5, 6), now);
    assert_eq!(s.focus, Focus::List);
}

#[test]
fn the_help_screen_lists_what_the_mouse_does_and_accessible_mode() {
    let s = scene();
    let lines = crate::ui::help_lines(&s, "");
    for what in ["double click", "wheel", "shift-drag", "accessible = true"] {
        assert!(
            lines.iter().any(|l| l.contains(what)),
            "{what:?} not in the help"
        );
    }
    let found = crate::ui::help_lines(&s, "double click");
    assert!(found[0].contains("double click"), "{found:?}");
}

#[test]
fn a_click_on_a_shown_board_column_leaves_the_columns_in_place() {
    // Before: the window of columns was worked out from the cursor's
    // column alone, the cursor's column always last: a click on a card of
    // the first shown column slid every column right under the pointer, so
    // the second click of a double click landed on another task.
    let mut s = scene();
    // #102 completed: a card in the fourth of five columns.
    if let Some(TaskItem::Task(t)) = s.list.items.get_mut(1) {
        t.status = crate::api::Status::Completed;
    }
    s.on_key(key('b'));
    let mut b = render(&mut s, 80, 24, &Theme::dark());
    for _ in 0..6 {
        s.on_key(key('l'));
        b = render(&mut s, 80, 24, &Theme::dark());
    }
    let t = super::text(&b);
    let window = t
        .lines()
        .find_map(|l| {
            l.find("| columns ")
                .map(|i| l[i..].chars().take(20).collect::<String>())
        })
        .unwrap_or_else(|| panic!("not all columns fit:\n{t}"));
    // A card in a shown column left of the cursor's (the last).
    let (card, i) = s
        .hits
        .iter()
        .filter_map(|(r, h)| match h {
            Hit::ListRow(i) if r.x < 50 => Some(((r.x + 3, r.y), *i)),
            _ => None,
        })
        .next()
        .unwrap_or_else(|| panic!("no card in the first shown column:\n{t}"));
    click(&mut s, card, Instant::now());
    assert_eq!(s.list.selected, i);
    let b = render(&mut s, 80, 24, &Theme::dark());
    let t = super::text(&b);
    assert!(t.contains(&window), "the columns moved:\n{t}");
    let under = s.hits.iter().find_map(|(r, h)| match h {
        Hit::ListRow(j) if r.contains(card.into()) => Some(*j),
        _ => None,
    });
    assert_eq!(under, Some(i), "the same card under the pointer:\n{t}");
}

#[test]
fn a_click_on_a_shown_inbox_item_leaves_the_items_in_place() {
    // Before: the window followed the selection alone, the selection last:
    // with the last item chosen, a click on the first shown item slid the
    // rows down under the pointer.
    let mut s = super::inbox::inbox_scene();
    // Six items, more than the popup shows at this height.
    let more = s.inbox.last.rows.clone();
    s.inbox.last.rows.extend(more.iter().chain(&more).cloned());
    s.on_key(key('i'));
    let (w, h) = (120, 12);
    render(&mut s, w, h, &Theme::dark());
    for _ in 0..6 {
        s.on_key(key('j'));
        render(&mut s, w, h, &Theme::dark());
    }
    let rows = |s: &State| -> Vec<(Rect, usize)> {
        s.hits
            .iter()
            .filter_map(|(r, h)| match h {
                Hit::Row(i) => Some((*r, *i)),
                _ => None,
            })
            .collect()
    };
    let before = rows(&s);
    assert!(before.len() >= 2, "{before:?}");
    assert_eq!(
        before.iter().map(|r| r.1).max(),
        Some(5),
        "the last is shown: {before:?}"
    );
    let (r, i) = before[0];
    assert!(i > 0, "scrolled: {before:?}");
    click(&mut s, (r.x + 2, r.y), Instant::now());
    match &s.overlay {
        Overlay::Inbox(l) => assert_eq!(l.selected, i),
        _ => panic!("the inbox closed"),
    }
    render(&mut s, w, h, &Theme::dark());
    assert_eq!(rows(&s), before, "the items moved under the pointer");
}

#[test]
fn a_click_on_a_shown_choosers_row_leaves_the_rows_in_place() {
    // Before: as in the inbox, the window followed the selection alone.
    use crate::app::popups::chooser::{Chooser, ChooserKind, Pick};
    let mut s = scene();
    let rows = (0..40)
        .map(|i| {
            let line = format!("row number {i}");
            Pick::new(format!("k{i}"), line.clone(), format!("#{i}"), line)
        })
        .collect();
    s.overlay = Overlay::Chooser(Chooser::new(ChooserKind::Recent, rows));
    let (w, h) = (80, 16);
    render(&mut s, w, h, &Theme::dark());
    for _ in 0..39 {
        // (A picker is typed into: a letter narrows it.)
        s.on_key(KeyEvent::new(KeyCode::Down, KeyModifiers::NONE));
        render(&mut s, w, h, &Theme::dark());
    }
    let hits = |s: &State| -> Vec<(Rect, usize)> {
        s.hits
            .iter()
            .filter_map(|(r, h)| match h {
                Hit::Row(i) => Some((*r, *i)),
                _ => None,
            })
            .collect()
    };
    let before = hits(&s);
    assert_eq!(before.iter().map(|r| r.1).max(), Some(39), "{before:?}");
    let (r, i) = before[0];
    assert!(i > 0, "scrolled: {before:?}");
    click(&mut s, (r.x + 2, r.y), Instant::now());
    match &s.overlay {
        Overlay::Chooser(c) => assert_eq!(c.selected, i),
        _ => panic!("the chooser closed"),
    }
    render(&mut s, w, h, &Theme::dark());
    assert_eq!(hits(&s), before, "the rows moved under the pointer");
}

#[test]
fn a_click_on_a_shown_card_of_a_scrolled_column_leaves_the_cards_in_place() {
    // Before: a column's first shown card was worked out from the selected
    // card alone (it always last): with the column scrolled, a click on a
    // card above slid the cards under the pointer, and the second click of
    // a double click opened another task.
    let mut s = crate::app::tests::loaded(40);
    s.on_key(key('b'));
    let mut b = render(&mut s, 80, 24, &Theme::dark());
    for _ in 0..25 {
        s.on_key(key('j'));
        b = render(&mut s, 80, 24, &Theme::dark());
    }
    let t = super::text(&b);
    let sel = s.list.selected;
    let sel_y = s
        .hits
        .iter()
        .find_map(|(r, h)| matches!(h, Hit::ListRow(i) if *i == sel).then_some(r.y))
        .unwrap_or_else(|| panic!("the selected card is not shown:\n{t}"));
    // The topmost shown card of the same column, well above the cursor.
    let (card, i) = s
        .hits
        .iter()
        .filter_map(|(r, h)| match h {
            Hit::ListRow(i) if r.y + 3 < sel_y => Some(((r.x + 3, r.y), *i)),
            _ => None,
        })
        .min_by_key(|((_, y), _)| *y)
        .unwrap_or_else(|| panic!("no card above the cursor:\n{t}"));
    assert!(i + 3 < sel, "the column is scrolled: {i} < {sel}\n{t}");
    let t0 = Instant::now();
    click(&mut s, card, t0);
    assert_eq!(s.list.selected, i);
    render(&mut s, 80, 24, &Theme::dark());
    let under = s.hits.iter().find_map(|(r, h)| match h {
        Hit::ListRow(j) if r.contains(card.into()) => Some(*j),
        _ => None,
    });
    assert_eq!(under, Some(i), "the same card under the pointer");
    // The second click of a double click opens that task.
    click(&mut s, card, t0 + Duration::from_millis(200));
    assert_eq!(
        s.detail.as_ref().map(|d| d.task_id.clone()),
        Some(crate::app::tests::tid(i as i64 + 1))
    );
}

#[test]
fn a_double_click_on_a_filter_value_runs_the_one_picked() {
    let mut s = loaded(1);
    s.on_key(key(':'));
    for c in "filter priority=".chars() {
        s.on_key(key(c));
    }
    let b = render(&mut s, 120, 40, &Theme::dark());
    let row = cell_of(&b, "filter priority=medium");
    let t0 = Instant::now();
    click(&mut s, row, t0);
    render(&mut s, 120, 40, &Theme::dark());
    let (fx, _) = s.on_mouse(at(LEFT, row.0, row.1), t0 + Duration::from_millis(200));
    let sent: Vec<_> = fx
        .iter()
        .filter_map(|e| match e {
            Effect::Api { req, .. } => match &**req {
                ApiRequest::ListPage { query, .. } => query.priority.clone(),
                _ => None,
            },
            _ => None,
        })
        .collect();
    assert_eq!(
        sent,
        vec!["medium".to_string()],
        "the value clicked, not what was typed"
    );
}
