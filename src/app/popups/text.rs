//! A scrollable text overlay: the message log, a layout check's result.

use crate::app::keymap::{Action, Context};
use crate::app::state::*;
use crossterm::event::KeyEvent;

impl State {
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
            .map(|m| format!("{} {:?} {}", m.at.format("%H:%M:%S"), m.level, m.text))
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
