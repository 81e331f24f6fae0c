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

    /// Inserts at the cursor, control characters left out, in one pass:
    /// a 100 KB paste is one insertion, not one per character (each of
    /// which walked the text to find the cursor's byte).
    pub fn insert_str(&mut self, s: &str) {
        let kept: String = s.chars().filter(|c| !c.is_control()).collect();
        let b = self.byte_at(self.cursor);
        self.text.insert_str(b, &kept);
        self.cursor += kept.chars().count();
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

    /// The adversarial pass, point 2: a 100 KB bracketed paste into the
    /// palette, the search or a picker froze taskdeck for half a minute
    /// (each character found the cursor's byte from the start and moved
    /// the rest of the text: quadratic). Now one insertion: a megabyte,
    /// with controls, in the middle of the text, at once. (Without the
    /// fix this test does not finish: about 10^12 steps.)
    #[test]
    fn a_megabyte_pasted_is_one_insertion_at_the_cursor() {
        let mut i = LineInput::with("héad tail");
        i.cursor = 5;
        let chunk = "é\u{1b}[2Jx\u{7}\n";
        let pasted = chunk.repeat((1 << 20) / chunk.len());
        i.insert_str(&pasted);
        let kept = "é[2Jx".repeat((1 << 20) / chunk.len());
        assert_eq!(i.text, format!("héad {kept}tail"));
        assert_eq!(i.cursor, 5 + kept.chars().count());
        i.handle(&key(KeyCode::Char('!')));
        assert!(i.text.ends_with("é[2Jx!tail"));
    }
}
