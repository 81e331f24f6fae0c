//! Rendering untrusted text: whatever the service sends (titles, tags,
//! names, comments, error messages full of control characters, escape
//! sequences and bidi controls) and whatever the terminal size, drawing
//! never panics and no cell ever holds ESC, the 8-bit CSI or a bidi control.

use proptest::prelude::*;
use ratatui::backend::TestBackend;
use ratatui::Terminal;
use serde_json::json;
use taskdeck::api::{ApiError, TaskItem, TaskPage};
use taskdeck::app::state::input::LineInput;
use taskdeck::app::state::*;
use taskdeck::config::Settings;
use taskdeck::ui::Theme;

fn forbidden(c: char) -> bool {
    matches!(c, '\u{1b}' | '\u{9b}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

/// Draw at `w`×`h` and check every cell.
fn render(s: &mut State, w: u16, h: u16) -> Result<String, String> {
    let mut term = Terminal::new(TestBackend::new(w, h)).unwrap();
    term.draw(|f| taskdeck::ui::draw(f, s, &Theme::dark()))
        .map_err(|e| e.to_string())?;
    let buf = term.backend().buffer();
    let mut text = String::new();
    for (i, cell) in buf.content().iter().enumerate() {
        if let Some(c) = cell.symbol().chars().find(|&c| forbidden(c)) {
            let row = i / w as usize;
            let line: String = buf.content()[row * w as usize..(row + 1) * w as usize]
                .iter()
                .map(|c| c.symbol())
                .collect();
            return Err(format!(
                "cell {i} ({w}x{h}) holds U+{:04X}: {:?} in row {row}: {line:?}",
                c as u32,
                cell.symbol()
            ));
        }
        text.push_str(cell.symbol());
        if w > 0 && (i + 1) % w as usize == 0 {
            text.push('\n');
        }
    }
    Ok(text)
}

/// Strings the service might send, one per field.
#[derive(Clone, Debug)]
struct Hostile {
    texts: Vec<String>,
}

impl Hostile {
    fn get(&self, i: usize) -> String {
        if self.texts.is_empty() {
            String::new()
        } else {
            self.texts[i % self.texts.len()].clone()
        }
    }
}

fn task_json(h: &Hostile, n: usize) -> serde_json::Value {
    let id = format!("00000000-0000-4000-8000-{n:012}");
    let person = |k: usize| json!({"id": format!("p{k}"), "name": h.get(k), "email": h.get(k + 1)});
    json!({
        "id": id,
        "display_id": format!("#{n}"),
        "task_number": n,
        "title": h.get(n),
        "description": h.get(n + 1),
        "additional_context": h.get(n + 2),
        "status": if n % 3 == 0 { h.get(n + 3) } else { "in_progress".into() },
        "priority": if n % 2 == 0 { h.get(n + 4) } else { "high".into() },
        "team": {"id": "t1", "name": h.get(n + 5)},
        "creator": person(n + 6),
        "assigned_to": person(n + 7),
        "assigned_agent": h.get(n + 8),
        "assigned_team": {"id": "t2", "name": h.get(n + 9)},
        "matter": {"id": "m1", "name": h.get(n + 10), "reference": h.get(n + 11)},
        "complete_by": if n % 2 == 0 { json!(h.get(n + 12)) } else { json!("2026-12-01T17:00:00Z") },
        "tags": [h.get(n + 13), h.get(n + 14)],
        "source_channel": h.get(n + 15),
        "visibility": "customer",
        "archived": n % 4 == 1,
        "draft": n % 5 == 2,
        "involved_people": [
            {"id": "p1", "name": h.get(n + 16), "email": h.get(n + 17), "role": h.get(n + 18), "access_level": "write"}
        ],
        "linked_items": [
            {"type": "review", "id": "r1", "display_name": h.get(n + 19), "role": "subject",
             "context": {"check_ids": [h.get(n + 20)]}}
        ],
        "input_files": [{"id": "f1", "name": h.get(n + 21), "size_bytes": 10, "content_type": h.get(n + 22)}],
        "x_unknown": {"nested": h.get(n + 23)},
        "created_at": h.get(n + 24),
        "updated_at": "2026-11-01T00:00:00Z",
    })
}

/// A state fed with hostile tasks, identity, comments and errors, the first
/// task open in the detail.
fn hostile_state(h: &Hostile) -> State {
    let mut s = taskdeck::app::new_state("host".into(), &Settings::default(), false);
    let items: Vec<TaskItem> = (1..=6)
        .map(|n| TaskItem::from_json(&task_json(h, n).to_string()))
        .chain([TaskItem::from_json(
            &json!({"id": h.get(3), "title": 42}).to_string(),
        )])
        .collect();
    for fx in s.start() {
        let Effect::Api { ticket, req } = fx else {
            continue;
        };
        let result = match &*req {
            ApiRequest::Me => Ok(Reply::Me(
                serde_json::from_value(json!({
                    "user_id": "p0", "customer_id": "c0",
                    "user_name": h.get(30), "user_email": h.get(31), "customer_name": h.get(32),
                }))
                .unwrap(),
            )),
            ApiRequest::ListPage { .. } => Ok(Reply::Page(TaskPage {
                items: items.clone(),
                cursor: None,
            })),
            _ => continue,
        };
        s.on_api(ApiResult {
            ticket,
            req: *req,
            result,
        });
    }
    assert!(!s.list.items.is_empty(), "the page was applied");
    let task = s.list.items[0].task().cloned();
    let id = s.list.items[0].id().unwrap_or_default().to_string();
    let _ = s.show(id.clone(), task);
    s.focus = Focus::Detail;
    let comments: Vec<taskdeck::api::Comment> = (0..3)
        .map(|k| {
            serde_json::from_value(json!({
                "id": format!("c{k}"), "task_id": id, "content": h.get(40 + k),
                "author": {"id": "p1", "name": h.get(43 + k), "email": h.get(46 + k)},
                "parent_comment_id": if k == 2 { json!("c0") } else { json!(null) },
                "created_at": format!("2026-11-0{}T00:00:00Z", k + 1),
            }))
            .unwrap()
        })
        .collect();
    if let Some(d) = s.detail.as_mut() {
        d.comments = Load::Loaded(comments);
        d.subtasks = Load::Loaded(items[1..].to_vec());
        d.sharing = Load::Failed(h.get(50));
        d.error = Some(h.get(51));
    }
    s.rebuild_comment_tree();
    // An error from the service, as the status line and the log show it.
    let err = ApiError::Status {
        status: 500,
        message: h.get(52),
    };
    s.say(Level::Error, format!("changing the title failed: {err}"));
    s.list.error = Some(h.get(53));
    s
}

fn id_of(s: &State) -> String {
    s.detail
        .as_ref()
        .map(|d| d.task_id.clone())
        .unwrap_or_default()
}

/// Every tab, then every overlay, drawn at `w`×`h`.
fn render_all(s: &mut State, w: u16, h: u16, hostile: &Hostile) -> Result<Vec<String>, String> {
    let mut screens = Vec::new();
    for tab in Tab::ALL {
        if let Some(d) = s.detail.as_mut() {
            d.tab = tab;
            d.cursor = 1;
        }
        screens.push(render(s, w, h)?);
    }
    let overlays = [
        Overlay::Help {
            filter: LineInput::default(),
            scroll: 0,
        },
        Overlay::Palette(taskdeck::app::popups::palette::Palette {
            input: LineInput::with("assign "),
            selected: 0,
            chose: false,
            target: Some((id_of(s), hostile.get(62))),
        }),
        Overlay::Search(Box::new(taskdeck::app::state::SearchBox::over(
            &s.list,
            &hostile.get(60),
        ))),
        Overlay::Confirm {
            lines: vec![hostile.get(61)],
            on_yes: Confirmed::Quit,
            back_to: None,
            scroll: 0,
        },
        // Taller than any screen, scrolled: the macro review's drawing.
        Overlay::Confirm {
            lines: vec![hostile.get(61); 80],
            on_yes: Confirmed::Quit,
            back_to: None,
            scroll: 7,
        },
        Overlay::Text {
            title: hostile.get(69),
            lines: vec![hostile.get(63), hostile.get(64)],
            scroll: 0,
        },
    ];
    for o in overlays {
        s.overlay = o;
        screens.push(render(s, w, h)?);
    }
    // The pickers (#26 §1), their rows built from the hostile tasks, their
    // note from a hostile store error.
    s.overlay = Overlay::None;
    let _ = s.command("link task");
    screens.push(render(s, w, h)?);
    let _ = s.command("drafts");
    s.on_store(taskdeck::store::worker::StoreAnswer::Scanned(
        taskdeck::store::Scan::Drafts,
        Err(hostile.get(70)),
    ));
    screens.push(render(s, w, h)?);
    s.overlay = Overlay::None;
    for kind in [ComposeKind::Comment, ComposeKind::Requester] {
        s.open_compose(kind).map_err(|e| e.to_string())?;
        s.on_paste(&hostile.get(65));
        screens.push(render(s, w, h)?);
        if let Overlay::Compose(c) = &mut s.overlay {
            c.state = SendState::Failed {
                message: hostile.get(66),
                outcome_unknown: true,
            };
        }
        screens.push(render(s, w, h)?);
        s.overlay = Overlay::None;
    }
    Ok(screens)
}

/// The board (hostile titles, unknown statuses as column titles) and the
/// view switcher (a count that failed with the service's text).
fn render_board_and_switcher(
    s: &mut State,
    w: u16,
    h: u16,
    hostile: &Hostile,
) -> Result<Vec<String>, String> {
    let mut screens = Vec::new();
    s.board = Some(Default::default());
    screens.push(render(s, w, h)?);
    s.board = None;
    s.views
        .counts
        .insert(0, taskdeck::app::views::Count::Failed(hostile.get(67)));
    s.overlay = Overlay::Views(taskdeck::app::popups::switcher::Switcher { selected: 0 });
    screens.push(render(s, w, h)?);
    s.overlay = Overlay::None;
    Ok(screens)
}

fn hostile_char() -> impl Strategy<Value = char> {
    prop_oneof![
        3 => any::<char>(),
        1 => prop::sample::select(vec![
            '\u{1b}', '\u{9b}', '\u{7}', '\u{8}', '\r', '\n', '\t', '\u{7f}', '\u{85}', '\u{90}',
            '\u{9c}', '\u{202a}', '\u{202e}', '\u{2066}', '\u{2069}', '\u{200f}', '\u{0}',
        ]),
        2 => prop::sample::select(vec!['[', ']', ';', '2', 'J', 'a', ' ', '\u{4e2d}', '\u{1f600}']),
    ]
}

fn hostile() -> impl Strategy<Value = Hostile> {
    prop::collection::vec(
        prop::collection::vec(hostile_char(), 0..60).prop_map(|v| v.into_iter().collect()),
        1..12,
    )
    .prop_map(|texts| Hostile { texts })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn hostile_text_at_any_size_never_panics_nor_leaks_controls(
        h in hostile(),
        w in 0u16..=300,
        ht in 0u16..=100,
    ) {
        let mut s = hostile_state(&h);
        if let Err(e) = render_all(&mut s, w, ht, &h) {
            prop_assert!(false, "{}", e);
        }
        if let Err(e) = render_board_and_switcher(&mut s, w, ht, &h) {
            prop_assert!(false, "{}", e);
        }
    }
}

/// The classic payloads, at the usual size and the smallest.
fn payloads() -> Hostile {
    Hostile {
        texts: vec![
            "clear \u{1b}[2J screen".into(),
            "title \u{1b}]0;pwned\u{7} osc0".into(),
            "link \u{1b}]8;;http://evil\u{1b}\\click\u{1b}]8;;\u{1b}\\".into(),
            "clip \u{1b}]52;c;aGk=\u{7} osc52".into(),
            "dcs \u{1b}Pq#0;2;0;0;0\u{1b}\\ end".into(),
            "innocent\rEVIL overwrite".into(),
            "bidi \u{202e}fdp.exe \u{2066}iso\u{2069}".into(),
            "csi8 \u{9b}31m red".into(),
            "tab\there".into(),
        ],
    }
}

#[test]
fn every_tab_and_overlay_at_80x24_and_1x1() {
    let h = payloads();
    let mut s = hostile_state(&h);
    let screens = render_all(&mut s, 80, 24, &h).unwrap();
    // The overlays: help, palette, search, two confirmations (one taller
    // than the screen, scrolled), text.
    assert_eq!(screens.len(), Tab::ALL.len() + 6 + 2 + 4);
    // The pickers show their rows and note (cleaned, checked below).
    let pickers = &screens[Tab::ALL.len() + 6..Tab::ALL.len() + 8];
    assert!(pickers[0].contains("Link which task?"), "{}", pickers[0]);
    assert!(pickers[1].contains("could not be read"), "{}", pickers[1]);
    // The stand-ins are visible: the user sees that something was there.
    assert!(
        screens.iter().any(|sc| sc.contains("\u{241b}[2J")),
        "ESC shows as ␛:\n{}",
        screens[0]
    );
    let help = &screens[Tab::ALL.len()];
    assert!(help.contains("Help"), "{help}");
    // Every screen but the full-width palette and search bars shows the
    // detail's title.
    let with_title = screens.iter().filter(|sc| sc.contains("▶ #1")).count();
    assert!(
        with_title >= screens.len() - 2,
        "{with_title} of {}",
        screens.len()
    );
    // The overlays drew their hostile titles and lines as stand-ins.
    assert!(
        screens.iter().any(|sc| sc.contains("\u{241b}Pq#0")),
        "DCS shown"
    );
    assert!(
        screens
            .iter()
            .any(|sc| sc.contains("\u{241b}]52;c;aGk=\u{2407}")),
        "OSC 52 shown"
    );
    let tiny = render_all(&mut s, 1, 1, &h).unwrap();
    assert!(tiny.iter().all(|sc| sc.chars().count() <= 2));
    let small = render(&mut s, 40, 8).unwrap();
    assert!(
        small.contains("too"),
        "below the minimum a note says so:\n{small}"
    );
}

#[test]
fn the_board_and_the_switcher_show_hostile_text_as_stand_ins() {
    let h = payloads();
    let mut s = hostile_state(&h);
    let screens = render_board_and_switcher(&mut s, 80, 24, &h).unwrap();
    assert!(screens[0].contains("Board: "), "{}", screens[0]);
    assert!(
        screens.iter().any(|sc| sc.contains("\u{241b}")),
        "ESC shows as ␛:\n{}",
        screens[0]
    );
    assert!(screens[1].contains("Views"), "{}", screens[1]);
    for (w, ht) in [(1, 1), (200, 60)] {
        render_board_and_switcher(&mut s, w, ht, &h).unwrap();
    }
}
