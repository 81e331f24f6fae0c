//! Free-text search (`/`): debounced; a newer query supersedes the older.

use crate::app::input::LineInput;
use crate::app::reducer::SEARCH_DEBOUNCE;
use crate::app::state::*;
use crossterm::event::{KeyCode, KeyEvent};
use std::time::Instant;

impl State {
    pub(super) fn search_key(&mut self, mut input: LineInput, ev: KeyEvent) -> Vec<Effect> {
        match ev.code {
            KeyCode::Esc => {
                let changed = !self.search.is_empty();
                self.search.clear();
                self.search_due = None;
                if changed {
                    return self.reload_list(false);
                }
                return vec![];
            }
            KeyCode::Enter => {
                // The debounce may have walked this very query already.
                let walked = self.search == input.text && self.search_due.is_none();
                self.search = input.text.clone();
                self.search_due = None;
                return if walked {
                    vec![]
                } else {
                    self.reload_list(false)
                };
            }
            _ => {
                if input.handle(&ev) && self.search != input.text {
                    self.search = input.text.clone();
                    self.search_due = Some(Instant::now() + SEARCH_DEBOUNCE);
                    self.search_locally();
                }
            }
        }
        self.overlay = Overlay::Search(input);
        vec![]
    }
}
