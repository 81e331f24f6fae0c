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
        let action = self.keymap.lookup(&[Context::View], &ev);
        if action == Some(Action::Close) {
            return vec![];
        }
        if let Some(to) = scrolled(action, scroll, lines.len()) {
            scroll = to;
        }
        self.overlay = Overlay::Text {
            title,
            lines,
            scroll,
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

/// Where a scroll key of the `[view]` keys (the wheel comes as Down/Up)
/// moves a page of `len` lines shown from `scroll`: the text overlay's and
/// a long confirmation's one scroller. `None` for any other action.
pub(crate) fn scrolled(action: Option<Action>, scroll: u16, len: usize) -> Option<u16> {
    let last = len.saturating_sub(1).min(u16::MAX as usize) as u16;
    let to = match action? {
        Action::Down => scroll.saturating_add(1),
        Action::Up => scroll.saturating_sub(1),
        Action::HalfPageDown => scroll.saturating_add(10),
        Action::HalfPageUp => scroll.saturating_sub(10),
        Action::Top => 0,
        Action::Bottom => last,
        _ => return None,
    };
    Some(to.min(last))
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
