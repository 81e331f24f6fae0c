//! The fuzz entry point (used by `fuzz/` with cargo-fuzz and by a proptest
//! in CI): arbitrary bytes as a task page, parsed, sanitised and rendered at
//! a size taken from the input. Any control character in a cell is a bug.

use crate::api::TaskItem;
use crate::app::state::{Focus, State};
use ratatui::backend::TestBackend;
use ratatui::Terminal;

/// Bytes → a page as the client reads it: a JSON array of items when it is
/// one, else one task whose every text field holds the bytes.
pub fn page_from_bytes(bytes: &[u8]) -> Vec<TaskItem> {
    let text = String::from_utf8_lossy(bytes);
    if let Ok(items) = serde_json::from_str::<Vec<Box<serde_json::value::RawValue>>>(&text) {
        return items.iter().map(|r| TaskItem::from_json(r.get())).collect();
    }
    let t = text.to_string();
    let due = crate::domain::task_field::TaskField::Due.wire();
    let v = serde_json::json!({
        "id": "00000000-0000-4000-8000-000000000001", "display_id": t, "title": t,
        "description": t, "additional_context": t, "status": t, "priority": t,
        "team": {"id": "x", "name": t}, "creator": {"id": "u", "name": t, "email": t},
        "assigned_to": {"id": "u", "name": t, "email": t}, "assigned_agent": {"name": t},
        "matter": t, due: t, "tags": [t], "source_channel": t, "visibility": t,
        "involved_people": [{"id": "u", "name": t, "email": t, "role": t, "access_level": t}],
        "linked_items": [{"type": t, "id": t, "display_name": t, "role": t, "context": {"check_ids": [t]}}],
        "input_files": [{"id": t, "name": t}], "output_files": t, "x_unknown": {t.clone(): t},
    });
    vec![TaskItem::from_json(&v.to_string())]
}

/// Render the page at `w`×`h` with the detail open on `tab`; `Err` names
/// the first control character found in a cell.
pub fn render_page(items: Vec<TaskItem>, w: u16, h: u16, tab: usize) -> Result<(), String> {
    let mut s: State =
        crate::app::new_state("fuzz".into(), &crate::config::Settings::default(), false);
    s.list.items = items;
    s.list.end_reached = true;
    if !s.list.items.is_empty() {
        let _ = s.follow_cursor();
        s.focus = Focus::Detail;
        for _ in 0..tab % 7 {
            let _ = s.act(crate::app::keymap::Action::NextTab);
        }
    }
    let mut term = Terminal::new(TestBackend::new(w, h)).map_err(|e| e.to_string())?;
    term.draw(|f| super::draw(f, &mut s, &super::Theme::dark()))
        .map_err(|e| e.to_string())?;
    for cell in term.backend().buffer().content() {
        if let Some(c) = cell
            .symbol()
            .chars()
            .find(|c| crate::text::is_dangerous(*c))
        {
            return Err(format!("control character U+{:04X} in a cell", c as u32));
        }
    }
    Ok(())
}

/// The whole target: the first three bytes pick the size and tab.
pub fn fuzz_one(data: &[u8]) -> Result<(), String> {
    let (w, h, tab, rest) = match data {
        [a, b, c, rest @ ..] => (*a as u16 + 40, *b as u16 / 2, *c as usize, rest),
        _ => (80, 24, 0, data),
    };
    render_page(page_from_bytes(rest), w, h, tab)
}
