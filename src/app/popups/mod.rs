//! Overlays, one module each: its state, its keys, its help. `overlay_key`
//! hands a key to the open one.

pub mod compose;
pub mod confirm;
pub mod filter_form;
pub mod help;
pub mod palette;
pub mod search;
pub mod sharing;
pub mod text;

use super::state::*;
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

impl State {
    pub fn overlay_key(&mut self, ev: KeyEvent) -> Vec<Effect> {
        let ctrl = ev.modifiers.contains(KeyModifiers::CONTROL);
        if ctrl && ev.code == KeyCode::Char('c') && !matches!(self.overlay, Overlay::Compose(_)) {
            if let Overlay::Confirm {
                back_to: Some(b), ..
            } = std::mem::replace(&mut self.overlay, Overlay::None)
            {
                self.overlay = *b;
            }
            return vec![];
        }
        let overlay = std::mem::replace(&mut self.overlay, Overlay::None);
        match overlay {
            Overlay::None => vec![],
            Overlay::Help { filter, scroll } => self.help_key(filter, scroll, ev),
            Overlay::Text {
                title,
                lines,
                scroll,
            } => self.text_key(title, lines, scroll, ev),
            Overlay::Search(input) => self.search_key(input, ev),
            Overlay::Palette(p) => self.palette_key(p, ev),
            Overlay::Confirm {
                lines,
                on_yes,
                back_to,
            } => self.confirm_key(lines, on_yes, back_to, ev),
            Overlay::Compose(c) => self.compose_key(c, ev),
            Overlay::Picker(p) => self.picker_key(p, ev),
            Overlay::Sharing(s) => self.sharing_key(s, ev),
            Overlay::Filter(f) => self.filter_key(f, ev),
        }
    }
}
