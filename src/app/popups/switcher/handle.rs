//! What the state does for `switcher` (its `impl State`): above the state,
//! which holds the data of `super` and never this module.

use super::*;
use crate::app::keymap::{Action, Context, Key};
use crate::app::state::{Effect, Overlay, State};
use crossterm::event::KeyEvent;

impl State {
    pub(crate) fn switcher_key(&mut self, mut sw: Switcher, ev: KeyEvent) -> Vec<Effect> {
        let n = self.views.list.len();
        match self.keymap.lookup(&[Context::Switcher], &ev) {
            Some(Action::Close) => return vec![],
            Some(Action::Choose) => return self.set_view(sw.selected),
            Some(Action::Down) => sw.selected = (sw.selected + 1).min(n.saturating_sub(1)),
            Some(Action::Up) => sw.selected = sw.selected.saturating_sub(1),
            _ => {
                // A view's own key (or its tab's digit) chooses it here too.
                if let Some(i) = Key::from_event(&ev).and_then(|k| self.views.tab_for_key(&k)) {
                    return self.set_view(i);
                }
            }
        }
        self.overlay = Overlay::Views(sw);
        vec![]
    }
}
