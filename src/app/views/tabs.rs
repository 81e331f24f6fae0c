//! The views as tabs over the list (#26 §3): each with the key that
//! switches to it and the rows known for it. Read by `ui/list.rs`;
//! `list/navigation.rs` keeps a count when a view is left. Nothing the state
//! names lives here, so it joins no module cycle.

use super::super::state::State;
use super::super::views::{key_taken, Count};

/// One tab: the key that switches to it, the view's name, its count.
#[derive(Clone, Debug, PartialEq)]
pub struct Tab {
    pub key: Option<String>,
    pub name: String,
    /// Rows known for the view (`12`, `50+`), `…` while asked; `None`
    /// when nothing is known — never a guess.
    pub count: Option<String>,
    pub current: bool,
}

impl State {
    /// Every view as a tab, in the views' order.
    pub fn tabs(&self) -> Vec<Tab> {
        (0..self.views.list.len())
            .map(|i| Tab {
                key: self.tab_key(i),
                name: self.views.list[i].name.clone(),
                count: self.tab_count(i),
                current: self.view == Some(i),
            })
            .collect()
    }

    /// The key that switches to tab `i` here (see `Views::tab_key`); a
    /// digit the keymap or a custom command takes is theirs.
    pub fn tab_key(&self, i: usize) -> Option<String> {
        self.views.tab_key(i, |k| {
            self.custom.by_key(k).is_some() || key_taken(&self.keymap, k).is_some()
        })
    }

    /// Leaving the current view for another: the rows its list knew stay
    /// its tab's count (the switcher asks again when it opens).
    pub fn keep_tab_count(&mut self) {
        let Some(i) = self.view else { return };
        let l = &self.list;
        if !self.list_is_view(i) || (l.loading && l.items.is_empty()) || l.error.is_some() {
            return;
        }
        if matches!(self.views.counts.get(&i), Some(Count::Asking(_))) {
            return;
        }
        let c = Count::Rows {
            n: self.list.items.len(),
            more: !self.list.end_reached,
        };
        self.views.counts.insert(i, c);
    }

    /// The list shows exactly view `i`: no search, no filter added, not
    /// narrowed.
    fn list_is_view(&self, i: usize) -> bool {
        let l = &self.list;
        self.view == Some(i)
            && self.search.trim().is_empty()
            && l.narrowed.is_none()
            && !l.local_search
            && match &self.views.base {
                Some(base) => *base == self.filters,
                None => self.filters.is_empty(),
            }
    }

    /// The rows known for view `i`: the list's own while it shows exactly
    /// that view, else what was counted (the switcher's first page, or
    /// the rows its list had when it was left).
    pub fn tab_count(&self, i: usize) -> Option<String> {
        let l = &self.list;
        if self.list_is_view(i) && l.error.is_none() {
            if l.items.is_empty() && (l.loading || l.cached_at.is_some()) {
                return Some("…".into());
            }
            let more = if l.end_reached { "" } else { "+" };
            return Some(format!("{}{more}", l.items.len()));
        }
        match self.views.counts.get(&i)? {
            c @ (Count::Asking(_) | Count::Rows { .. }) => Some(c.text()),
            Count::Failed(_) | Count::NeedsIdentity => None,
        }
    }
}
