//! The help overlay (`?`): every binding of the effective keymap and every
//! palette command, filtered fuzzily as you type.

use crate::app::state::input::LineInput;
use crate::app::state::{Effect, Overlay, State};
use crossterm::event::{KeyCode, KeyEvent};

impl State {
    /// `?` / `:help`: the help, unfiltered, at its top.
    pub fn open_help(&mut self) -> Vec<Effect> {
        self.overlay = Overlay::Help {
            filter: LineInput::default(),
            scroll: 0,
        };
        vec![]
    }

    pub(super) fn help_key(
        &mut self,
        mut filter: LineInput,
        mut scroll: u16,
        ev: KeyEvent,
    ) -> Vec<Effect> {
        match ev.code {
            KeyCode::Esc => return vec![],
            KeyCode::Down => scroll = scroll.saturating_add(1),
            KeyCode::Up => scroll = scroll.saturating_sub(1),
            KeyCode::PageDown => scroll = scroll.saturating_add(10),
            KeyCode::PageUp => scroll = scroll.saturating_sub(10),
            _ => {
                if filter.handle(&ev) {
                    scroll = 0;
                }
            }
        }
        self.overlay = Overlay::Help { filter, scroll };
        vec![]
    }
}
