//! Whole screens: every popup at two sizes, narrow layouts, zoom, not found.

use super::*;

/// A popup's setup: opens it on the scene, the way a user does.
pub(super) type Setup = Box<dyn Fn(&mut State)>;

/// Every popup, by name, with how a user opens it.
pub(super) fn popups() -> Vec<(&'static str, Setup)> {
    use crate::api::SharingState;
    use crate::app::popups::sharing::Picker;
    let sharing: SharingState = serde_json::from_value(serde_json::json!({
        "visibility": "private",
        "users": [{"id": "u-me", "name": "Me Myself", "email": "me@acme.test", "access_level": "write"}],
        "teams": [{"id": "t-1", "name": "Ops", "access_level": "read"}]
    }))
    .unwrap();
    let typed = |s: &mut State, text: &str| {
        for c in text.chars() {
            s.on_key(key(c));
        }
    };
    vec![
        (
            "help",
            Box::new(|s: &mut State| {
                s.on_key(key('?'));
            }),
        ),
        (
            "palette",
            Box::new(move |s: &mut State| {
                s.on_key(key('s'));
                typed(s, "in");
            }),
        ),
        (
            "search",
            Box::new(move |s: &mut State| {
                s.on_key(key('/'));
                typed(s, "contoso");
            }),
        ),
        (
            "confirm",
            Box::new(|s: &mut State| {
                s.command("unlink");
            }),
        ),
        (
            "text",
            Box::new(|s: &mut State| {
                s.show_log(None);
            }),
        ),
        (
            "compose",
            Box::new(move |s: &mut State| {
                s.on_key(key('c'));
                typed(s, "Looks good: sending the redlines today.");
            }),
        ),
        (
            "filter",
            Box::new(|s: &mut State| {
                s.on_key(key('f'));
            }),
        ),
        (
            "sharing",
            Box::new(move |s: &mut State| {
                if let Some(d) = s.detail.as_mut() {
                    d.sharing = crate::app::state::Load::Loaded(sharing.clone());
                }
                s.on_key(key('S'));
            }),
        ),
        (
            "picker",
            Box::new(|s: &mut State| {
                s.overlay = Overlay::Picker(Picker::new(
                    "Sam".into(),
                    false,
                    vec![
                        ("u-1".into(), "Sam Taylor sam.t@acme.test".into()),
                        ("u-2".into(), "Sam Taylor sam.taylor@acme.test".into()),
                    ],
                    crate::app::popups::sharing::PickThen::Command {
                        template: "assign {}".into(),
                        target: None,
                    },
                ));
            }),
        ),
        (
            // #26 §1: the pickers that spare typing an id.
            "drafts",
            Box::new(|s: &mut State| {
                s.on_key(key('W'));
            }),
        ),
        (
            "link_task",
            Box::new(move |s: &mut State| {
                s.on_key(key(':'));
                typed(s, "link task");
                s.on_key(code(KeyCode::Enter));
            }),
        ),
        (
            "attach",
            Box::new(|s: &mut State| {
                let mut v = task_json(104);
                v["title"] = "Board minutes".into();
                v["input_files"] = serde_json::json!([
                    {"id": "44444444-4444-4444-8444-444444444444", "name": "minutes-2026-11.docx", "size": 48213},
                    {"id": "55555555-5555-4555-8555-555555555555", "name": "evil\u{1b}[2J.pdf", "size_bytes": 3}
                ]);
                let t: Task = serde_json::from_value(v).unwrap();
                s.list.items.push(TaskItem::Task(Box::new(t)));
                s.on_key(key('F'));
            }),
        ),
    ]
}

/// Every popup, opened the way a user opens it, at 80×24 and 120×40.
#[test]
fn every_popup_at_80x24_and_120x40() {
    let popups = popups();
    for (name, setup) in &popups {
        for (w, h) in [(80, 24), (120, 40)] {
            let mut s = scene();
            // Links tab selected for the confirmation of an unlink.
            s.on_key(code(KeyCode::Enter));
            for _ in 0..3 {
                s.on_key(key(']'));
            }
            s.on_key(code(KeyCode::Esc));
            setup(&mut s);
            assert!(
                !matches!(s.overlay, Overlay::None),
                "{name} did not open: {:?}",
                s.status
            );
            let b = render(&mut s, w, h, &Theme::dark());
            snap(&format!("popup_{name}_{w}x{h}"), &b);
        }
    }
}

#[test]
fn at_80x24_an_opened_tasks_full_title_is_readable_and_zoom_works_at_any_width() {
    let mut s = scene();
    let long = "Assess review findings for the Fabrikam share purchase agreement before signing";
    if let Some(TaskItem::Task(t)) = s.list.items.get_mut(0) {
        t.title = long.into();
    }
    s.detail = None;
    s.follow_cursor();
    // The list shows titles at 80 columns.
    let t = text(&render(&mut s, 80, 24, &Theme::dark()));
    assert!(t.contains("Assess review findings"), "{t}");
    // Enter: the detail fills the screen and the whole title is there.
    s.on_key(code(KeyCode::Enter));
    let t = text(&render(&mut s, 80, 24, &Theme::dark()));
    let flat: String = t
        .replace(['┃', '│'], " ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    assert!(flat.contains(&format!("title: {long}")), "{t}");
    assert!(
        !t.contains("TITLE  [tags]"),
        "the list is not beside it:\n{t}"
    );
    // Esc: back to the list, full width.
    s.on_key(code(KeyCode::Esc));
    let t = text(&render(&mut s, 80, 24, &Theme::dark()));
    assert!(t.contains("TITLE  [tags]"), "{t}");
    // At 160 columns both panes; + zooms the focused one, + again restores.
    let t = text(&render(&mut s, 160, 45, &Theme::dark()));
    assert!(
        t.contains("TITLE  [tags]") && t.contains("Overview | "),
        "{t}"
    );
    s.on_key(key('+'));
    let t = text(&render(&mut s, 160, 45, &Theme::dark()));
    assert!(
        t.contains("TITLE  [tags]") && !t.contains("Overview | "),
        "{t}"
    );
    s.on_key(key('+'));
    let t = text(&render(&mut s, 160, 45, &Theme::dark()));
    assert!(t.contains("Overview | "), "{t}");
}

/// The detail's tabs are whole whenever they fit, shortened only when
/// they do not (at 160 columns they were shortened with room to spare:
/// the width asked counted a divider after the last tab).
#[test]
fn the_detail_tabs_are_whole_whenever_they_fit() {
    let whole = "Overview | Comments | Requester | Links | Sharing | Files | Subtasks";
    let mut s = scene();
    s.on_key(code(KeyCode::Enter));
    // 160 columns: the detail's inside is 70 columns, the tabs take 70.
    for theme in [Theme::dark(), super::access::accessible()] {
        let b = render(&mut s, 160, 45, &theme);
        let t = text(&b);
        let tabs = t.lines().find(|l| l.contains("Overview")).unwrap_or("");
        if theme.accessible {
            assert!(tabs.contains("[Overview]  Comments   Requester"), "{t}");
            assert!(tabs.contains("Subtasks"), "{t}");
        } else {
            assert!(t.contains(whole), "{t}");
        }
        // Each whole name is where a click finds it.
        let now = std::time::Instant::now();
        super::mouse::click(&mut s, super::mouse::cell_of(&b, "Subtasks"), now);
        assert_eq!(s.detail.as_ref().unwrap().tab, Tab::Subtasks, "{t}");
        s.detail.as_mut().unwrap().tab = Tab::Overview;
    }
    // A column less: short names, every tab still there.
    let t = text(&render(&mut s, 158, 45, &Theme::dark()));
    assert!(
        !t.contains("Overview |") && t.contains("Info | Cmts"),
        "{t}"
    );
}

#[test]
fn a_task_looked_for_and_not_found_says_so_in_full() {
    let mut s = scene();
    let fx = s.command("open #4040");
    let (ticket, req) = fx
        .iter()
        .find_map(|e| match e {
            Effect::Api { ticket, req } if matches!(**req, ApiRequest::FindByNumber { .. }) => {
                Some((*ticket, (**req).clone()))
            }
            _ => None,
        })
        .unwrap();
    s.on_api(ApiResult {
        ticket,
        req,
        result: Err(crate::api::ApiError::Status {
            status: 404,
            message: "task #4040 not found: not among the tasks you can see in lists (archived and draft tasks open by id)".into(),
        }),
    });
    let t = text(&render(&mut s, 80, 24, &Theme::dark()));
    assert!(t.contains("#4040 (not found)"), "{t}");
    let flat: String = t
        .replace(['┃', '│'], " ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    assert!(
        flat.contains("archived and draft tasks open by id"),
        "wrapped, not cut: {t}"
    );
}

/// At 80×24 a long line in the composer wraps softly: its start stays on
/// screen beside its end, and the text keeps the line as typed.
#[test]
fn the_composer_wraps_a_long_line_softly_at_80x24() {
    let mut s = scene();
    s.on_key(key('c'));
    let line = format!("BEGINNING {} FINISHING", "word ".repeat(30).trim_end());
    for c in line.chars() {
        s.on_key(key(c));
    }
    let shown = text(&render(&mut s, 80, 24, &Theme::dark()));
    assert!(shown.contains("BEGINNING"), "{shown}");
    assert!(shown.contains("FINISHING"), "{shown}");
    match &s.overlay {
        Overlay::Compose(c) => assert_eq!(c.text(), line, "sent as typed: one line"),
        _ => panic!("the composer is open"),
    }
}

/// A row of the screen as the popup holds it: the frames around it gone.
fn inside(l: &str) -> String {
    l.trim_start_matches(['┃', ' '])
        .trim_start_matches('│')
        .trim_end_matches(['┃', '│', ' '])
        .to_string()
}

/// A help row too long for the popup goes on under its description, not
/// at the frame's edge where the keys are read (seen at 80 columns:
/// `(toggle_markdown)` alone in the key column, read as a key).
#[test]
fn a_help_row_too_long_goes_on_under_its_description() {
    let mut s = scene();
    s.on_key(key('?'));
    for c in "markdown".chars() {
        s.on_key(key(c));
    }
    let t = text(&render(&mut s, 80, 24, &Theme::dark()));
    let rows: Vec<String> = t.lines().map(inside).collect();
    let at = rows
        .iter()
        .position(|l| l.starts_with("  m ") && l.contains("show text as written"))
        .unwrap_or_else(|| panic!("{t}"));
    let next = &rows[at + 1];
    assert!(next.contains("(toggle_markdown)"), "{t}");
    let desc = rows[at].find("show").unwrap();
    assert_eq!(next.len() - next.trim_start().len(), desc, "{t}");
}

/// A help row goes on under its description from the rows' data, not
/// from reading the row's text again: a macro without a key (its key
/// column blank) went on two columns past its description, and a key
/// longer than the column at the frame's edge.
#[test]
fn a_help_row_goes_on_under_its_description_whatever_its_key() {
    let mut s = scene();
    let long = "Ask the requester for the countersigned statement of work and the purchase order";
    s.macros = vec![
        crate::domain::macros::Macro {
            name: "signoff".into(),
            description: long.into(),
            ..Default::default()
        },
        crate::domain::macros::Macro {
            name: "signoff2".into(),
            key: Some("ctrl-alt-shift-f12".into()),
            description: long.into(),
            ..Default::default()
        },
    ];
    s.on_key(key('?'));
    for c in "countersigned".chars() {
        s.on_key(key(c));
    }
    let t = text(&render(&mut s, 80, 24, &Theme::dark()));
    let rows: Vec<String> = t.lines().map(inside).collect();
    let starts: Vec<usize> = rows
        .iter()
        .enumerate()
        .filter(|(_, l)| l.contains("Ask the requester"))
        .map(|(i, _)| i)
        .collect();
    assert_eq!(starts.len(), 2, "{t}");
    for at in starts {
        let desc = rows[at].find("Ask the").unwrap();
        let next = &rows[at + 1];
        assert_eq!(next.len() - next.trim_start().len(), desc, "{t}");
    }
}

/// A confirmation's line too long goes on under its value (`reply: …`),
/// as it does when the popup scrolls (seen in `:macro`'s review at 80
/// columns: the reply went on at the frame's edge, under `reply:`).
#[test]
fn a_confirmation_line_too_long_goes_on_under_its_value() {
    let mut s = scene();
    s.overlay = Overlay::Confirm {
        lines: vec![
            "macro await-signature on #270?".into(),
            "  reply: Hello Frank Li, could you send the signed copy of Schedule kickoff call with Litware (#270)?"
                .into(),
        ],
        on_yes: crate::app::state::Confirmed::RejectDraft { id: "t".into() },
        back_to: None,
        scroll: 0,
    };
    let t = text(&render(&mut s, 80, 24, &Theme::dark()));
    let rows: Vec<&str> = t
        .lines()
        .map(|l| l.trim_start_matches(['┃', ' ']).trim_start_matches('│'))
        .collect();
    let at = rows
        .iter()
        .position(|l| l.starts_with("  reply: Hello"))
        .unwrap_or_else(|| panic!("{t}"));
    let next = rows[at + 1];
    assert!(
        next.trim_start().starts_with("call with") || next.contains("(#270)"),
        "{t}"
    );
    assert_eq!(
        next.len() - next.trim_start().len(),
        "  reply: ".len(),
        "{t}"
    );
}
