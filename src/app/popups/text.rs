//! A scrollable text overlay: the message log, a layout check's result.

use crate::app::state::*;
use crossterm::event::{KeyCode, KeyEvent};

impl State {
    pub(super) fn text_key(
        &mut self,
        title: String,
        lines: Vec<String>,
        mut scroll: u16,
        ev: KeyEvent,
    ) -> Vec<Effect> {
        let last = lines.len().saturating_sub(1).min(u16::MAX as usize) as u16;
        match ev.code {
            KeyCode::Esc | KeyCode::Char('q') | KeyCode::Enter => return vec![],
            KeyCode::Down | KeyCode::Char('j') => scroll = scroll.saturating_add(1),
            KeyCode::Up | KeyCode::Char('k') => scroll = scroll.saturating_sub(1),
            KeyCode::PageDown | KeyCode::Char(' ') => scroll = scroll.saturating_add(10),
            KeyCode::PageUp => scroll = scroll.saturating_sub(10),
            KeyCode::Char('g') | KeyCode::Home => scroll = 0,
            KeyCode::Char('G') | KeyCode::End => scroll = last,
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
