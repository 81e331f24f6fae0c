//! The help overlay (`?`): every binding of the effective keymap and every
//! palette command, filtered fuzzily as you type.

use crate::app::state::input::LineInput;
use crate::app::state::{Effect, Overlay, State};
use crate::domain::fixed_keys::{self, FixedKeys};
use crossterm::event::KeyEvent;

/// What a key of the help screen does. It reads its keys in code, not in
/// the keymap (every letter filters there): they are named once, in
/// [`HELP_KEYS`], for its handler, the hint line and the help screen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HelpKey {
    Up,
    Down,
    PageUp,
    PageDown,
    Close,
}

/// The help screen's keys (the first of each is the one lines name).
pub const HELP_KEYS: FixedKeys<HelpKey> = &[
    (HelpKey::Up, &["up"], "scroll"),
    (HelpKey::Down, &["down"], "scroll"),
    (HelpKey::PageUp, &["pageup"], "page"),
    (HelpKey::PageDown, &["pagedown"], "page"),
    (HelpKey::Close, &["esc"], "close"),
];

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
        match fixed_keys::key_of(HELP_KEYS, &ev) {
            Some(HelpKey::Close) => return vec![],
            Some(HelpKey::Down) => scroll = scroll.saturating_add(1),
            Some(HelpKey::Up) => scroll = scroll.saturating_sub(1),
            Some(HelpKey::PageDown) => scroll = scroll.saturating_add(10),
            Some(HelpKey::PageUp) => scroll = scroll.saturating_sub(10),
            None => {
                if filter.handle(&ev) {
                    scroll = 0;
                }
            }
        }
        self.overlay = Overlay::Help { filter, scroll };
        vec![]
    }
}
