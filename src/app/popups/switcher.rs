//! The view switcher (`0`, `:view`): every view with its key, its filter
//! and its count (the rows of its first page, `+` when there are more),
//! asked for each time it opens and filled in as the answers come.

use crate::app::keymap::{Action, Context, Key};
use crate::app::state::{Effect, Overlay, State};
use crossterm::event::KeyEvent;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Switcher {
    pub selected: usize,
}

impl State {
    pub(super) fn switcher_key(&mut self, mut sw: Switcher, ev: KeyEvent) -> Vec<Effect> {
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
