//! A scrollable text overlay: the message log, a layout check's result.

use crate::app::keymap::{Action, Context};
use crate::app::state::{Effect, Overlay, State};
use crossterm::event::KeyEvent;

impl State {
    /// `:validate FILE` answered: the layout's check, or why there is
    /// none, in a text overlay.
    pub(crate) fn layout_checked(
        &mut self,
        path: &str,
        result: Result<crate::app::state::Reply, crate::api::ApiError>,
    ) -> Vec<Effect> {
        let lines = match result {
            Ok(crate::app::state::Reply::Layout(l, _)) => layout_lines(&l),
            Ok(_) => vec!["unexpected answer".into()],
            Err(e) => vec![e.to_string()],
        };
        self.overlay = Overlay::Text {
            title: format!("Layout check: {}", crate::text::clean(path)),
            lines,
            scroll: 0,
        };
        vec![]
    }

    pub(super) fn text_key(
        &mut self,
        title: String,
        lines: Vec<String>,
        mut scroll: u16,
        ev: KeyEvent,
    ) -> Vec<Effect> {
        let last = lines.len().saturating_sub(1).min(u16::MAX as usize) as u16;
        match self.keymap.lookup(&[Context::View], &ev) {
            Some(Action::Close) => return vec![],
            Some(Action::Down) => scroll = scroll.saturating_add(1),
            Some(Action::Up) => scroll = scroll.saturating_sub(1),
            Some(Action::HalfPageDown) => scroll = scroll.saturating_add(10),
            Some(Action::HalfPageUp) => scroll = scroll.saturating_sub(10),
            Some(Action::Top) => scroll = 0,
            Some(Action::Bottom) => scroll = last,
            _ => {}
        }
        self.overlay = Overlay::Text {
            title,
            lines,
            scroll: scroll.min(last),
        };
        vec![]
    }

    /// The message overlay: this session's messages, newest first, then the
    /// tail of the log file when there is one.
    pub fn show_log(&mut self, file: Option<(String, Vec<String>)>) {
        let mut lines: Vec<String> = self
            .messages
            .iter()
            .rev()
            .map(|m| format!("{} {:?} {}", m.at.strftime("%H:%M:%S"), m.level, m.text))
            .collect();
        if lines.is_empty() {
            lines.push("no messages yet".into());
        }
        if let Some((path, tail)) = file {
            lines.push(String::new());
            lines.push(format!("— the end of the log file {path} —"));
            lines.extend(tail.into_iter().rev());
        }
        self.overlay = Overlay::Text {
            title: "Messages (newest first)".into(),
            lines,
            scroll: 0,
        };
    }
}

/// A layout check's answer as the lines of its text overlay.
pub fn layout_lines(l: &crate::api::LayoutResult) -> Vec<String> {
    let mut out = vec![if l.valid {
        "VALID: the layout would be accepted".into()
    } else {
        "INVALID: the layout would be refused".into()
    }];
    out.push(String::new());
    for (title, list, omitted) in [
        ("Errors", &l.errors, l.omitted_errors),
        ("Warnings", &l.warnings, l.omitted_warnings),
    ] {
        out.push(format!("{title} ({}):", list.len() as u64 + omitted));
        for i in list {
            out.push(format!("  {}  [{}]  {}", i.path, i.code, i.message));
        }
        if omitted > 0 {
            out.push(format!(
                "  … and {omitted} more not listed (the service lists at most 50)"
            ));
        }
    }
    out.push(String::new());
    out.push("Normalised layout:".into());
    if l.layout.is_null() {
        out.push("  (none: the layout could not be parsed)".into());
    } else {
        let pretty = serde_json::to_string_pretty(&l.layout).unwrap_or_default();
        out.extend(
            pretty
                .lines()
                .map(|s| format!("  {}", crate::text::clean(s))),
        );
    }
    out
}
