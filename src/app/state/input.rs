//! A one-line text input (palette, search, prompts).

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

#[derive(Clone, Debug, Default, PartialEq)]
pub struct LineInput {
    pub text: String,
    /// Cursor position in chars.
    pub cursor: usize,
}

/// A key that edits a picker's text (`j` is a letter there; the arrows
/// move): every picker one types into reads keys so.
pub fn edits_text(ev: &KeyEvent) -> bool {
    let ctrl = ev.modifiers.contains(KeyModifiers::CONTROL);
    match ev.code {
        KeyCode::Char('u' | 'w') if ctrl => true,
        KeyCode::Char(_) => !ctrl && !ev.modifiers.contains(KeyModifiers::ALT),
        KeyCode::Backspace | KeyCode::Delete | KeyCode::Left | KeyCode::Right => true,
        KeyCode::Home | KeyCode::End => true,
        _ => false,
    }
}

impl LineInput {
    pub fn with(text: &str) -> Self {
        LineInput {
            text: text.to_string(),
            cursor: text.chars().count(),
        }
    }

    fn byte_at(&self, char_idx: usize) -> usize {
        self.text
            .char_indices()
            .nth(char_idx)
            .map(|(b, _)| b)
            .unwrap_or(self.text.len())
    }

    pub fn insert_str(&mut self, s: &str) {
        for c in s.chars().filter(|c| !c.is_control()) {
            let b = self.byte_at(self.cursor);
            self.text.insert(b, c);
            self.cursor += 1;
        }
    }

    /// Apply an editing key; returns true when the text or cursor changed.
    pub fn handle(&mut self, ev: &KeyEvent) -> bool {
        let ctrl = ev.modifiers.contains(KeyModifiers::CONTROL);
        match ev.code {
            KeyCode::Char('u') if ctrl => {
                let b = self.byte_at(self.cursor);
                self.text.replace_range(..b, "");
                self.cursor = 0;
            }
            KeyCode::Char('w') if ctrl => {
                let chars: Vec<char> = self.text.chars().collect();
                let mut i = self.cursor;
                while i > 0 && chars[i - 1] == ' ' {
                    i -= 1;
                }
                while i > 0 && chars[i - 1] != ' ' {
                    i -= 1;
                }
                let (a, b) = (self.byte_at(i), self.byte_at(self.cursor));
                self.text.replace_range(a..b, "");
                self.cursor = i;
            }
            KeyCode::Char('a') if ctrl => self.cursor = 0,
            KeyCode::Char('e') if ctrl => self.cursor = self.text.chars().count(),
            KeyCode::Char(c) if !ctrl => self.insert_str(&c.to_string()),
            KeyCode::Backspace if self.cursor > 0 => {
                let a = self.byte_at(self.cursor - 1);
                let b = self.byte_at(self.cursor);
                self.text.replace_range(a..b, "");
                self.cursor -= 1;
            }
            KeyCode::Delete if self.cursor < self.text.chars().count() => {
                let a = self.byte_at(self.cursor);
                let b = self.byte_at(self.cursor + 1);
                self.text.replace_range(a..b, "");
            }
            KeyCode::Left if self.cursor > 0 => self.cursor -= 1,
            KeyCode::Right if self.cursor < self.text.chars().count() => self.cursor += 1,
            KeyCode::Home => self.cursor = 0,
            KeyCode::End => self.cursor = self.text.chars().count(),
            _ => return false,
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(c: KeyCode) -> KeyEvent {
        KeyEvent::new(c, KeyModifiers::NONE)
    }

    #[test]
    fn edits_unicode_safely() {
        let mut i = LineInput::with("héllo");
        i.handle(&key(KeyCode::Backspace));
        assert_eq!(i.text, "héll");
        i.handle(&key(KeyCode::Home));
        i.handle(&key(KeyCode::Right));
        i.handle(&key(KeyCode::Delete));
        assert_eq!(i.text, "hll");
        i.insert_str("\u{1b}é");
        assert_eq!(i.text, "héll");
        i.handle(&KeyEvent::new(KeyCode::Char('w'), KeyModifiers::CONTROL));
        assert_eq!(i.text, "ll");
    }
}
