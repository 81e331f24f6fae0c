//! The live filter (`/`, #26 §2): each key narrows the rows on screen at
//! once (`domain/narrow.rs`), the store's matches join them, then the service is
//! asked after a pause in typing (a newer query supersedes the older).
//! `enter` keeps the search; `esc` puts back the list as it was when `/`
//! opened, with the cursor's task.

use crate::app::state::input::LineInput;
use crate::app::state::{Effect, Level, Overlay, SearchBox, State};
use crate::domain::fixed_keys::{self, FixedKeys};
use crossterm::event::KeyEvent;
use std::time::Duration;

/// How long a quiet pause in typing waits before the search is sent.
pub const SEARCH_DEBOUNCE: Duration = Duration::from_millis(250);

/// What a key of the search box does. It reads its keys in code, not in
/// the keymap (every letter types there): they are named once, in
/// [`SEARCH_KEYS`], for its handler, the hint line and the help screen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SearchKey {
    Keep,
    Restore,
}

/// The search box's keys (the first of each is the one lines name).
pub const SEARCH_KEYS: FixedKeys<SearchKey> = &[
    (SearchKey::Keep, &["enter"], "keep"),
    (SearchKey::Restore, &["esc"], "restore the list"),
];

impl State {
    /// `/`: the box opens over the list as it is.
    pub fn open_search(&mut self) -> Vec<Effect> {
        let mut b = SearchBox::over(&self.list, &self.search);
        b.task_before = self
            .cursor_on_current()
            .then(|| self.detail.as_ref().map(|d| d.task_id.clone()))
            .flatten();
        self.overlay = Overlay::Search(Box::new(b));
        vec![]
    }

    pub(super) fn search_key(&mut self, mut b: Box<SearchBox>, ev: KeyEvent) -> Vec<Effect> {
        match fixed_keys::key_of(SEARCH_KEYS, &ev) {
            Some(SearchKey::Restore) => return self.search_restore(*b),
            Some(SearchKey::Keep) => {
                // The debounce may have walked this very query already.
                let walked = self.search == b.input.text && self.search_due.is_none();
                self.search = b.input.text.clone();
                self.search_due = None;
                // (Its first page replaces the narrowed rows.)
                let mut fx = if walked {
                    vec![]
                } else {
                    self.reload_list(false)
                };
                fx.extend(self.cursor_meets_the_detail());
                return fx;
            }
            None => {
                if b.input.handle(&ev) && self.search != b.input.text {
                    self.search_typed(&mut b);
                }
            }
        }
        self.overlay = Overlay::Search(b);
        vec![]
    }

    /// The text changed (a key, a paste): the rows on screen narrow now,
    /// the store and then the service are asked.
    /// A query longer than search reads (`store::bound_query`: 32 words,
    /// 512 bytes) is cut in the box itself, and said.
    pub(crate) fn search_typed(&mut self, b: &mut SearchBox) {
        let (kept, cut) = crate::store::bound_query(&b.input.text);
        if cut {
            b.input = LineInput::with(kept);
            self.say(Level::Warn, crate::store::query_cut_words());
        }
        self.search = b.input.text.clone();
        self.search_due = Some(crate::clock::instant() + SEARCH_DEBOUNCE);
        self.search_locally();
        let rows = crate::domain::narrow::narrow(&b.before.items, &b.folded, &b.input.text);
        // The cursor stays on its task while that still matches.
        let keep = b.before.selected_id().map(str::to_string);
        let gone = std::mem::replace(&mut self.list.items, rows);
        self.list.reindex();
        self.rows_leave(gone);
        let l = &mut self.list;
        l.narrowed = Some(b.before.items.len());
        l.local_search = false;
        l.selected = keep.and_then(|id| l.position(&id)).unwrap_or(0);
        l.offset = 0;
    }

    /// `esc`: the list as it was when `/` opened (a page it was waiting
    /// for is asked again), the search then, and the cursor's task.
    fn search_restore(&mut self, b: SearchBox) -> Vec<Effect> {
        let task_before = b.task_before.clone();
        let Some(waiting) = self.put_back_list(b) else {
            return vec![];
        };
        let mut fx = Vec::new();
        if waiting {
            // Its answer was dropped with the search's: walk it again,
            // keeping its rows and the cursor's task meanwhile.
            fx = self.reload_list(!self.list.items.is_empty());
        }
        let current = self.detail.as_ref().map(|d| d.task_id.as_str());
        if let Some(id) = task_before {
            if current != Some(id.as_str()) || !self.cursor_on_current() {
                if let Some(i) = self.list.position(&id) {
                    fx.extend(self.select_row(i));
                    return fx;
                }
            }
        }
        // A detail that came while the box was open (a start's read of
        // the last task, a jump) keeps its place in the list put back: the
        // cursor on its row, or shown as outside the list (simulator seed
        // 4657749241091727073: the cursor put back on the row it had at
        // `/` while the detail showed the task read meanwhile).
        self.cursor_on_detail();
        fx
    }

    /// The search box closed without `esc`: the key acts as another user
    /// now (`park_popups_of`), and the store switch walks the list again.
    /// The list and the search are put back as at `/`, the detail kept in
    /// its place (simulator seed 9903231299603462073: closed with the
    /// narrowed rows left as the list, the cursor on the one row that
    /// matched while the detail stayed on the task current at `/`).
    pub(crate) fn search_box_closed(&mut self, b: SearchBox) {
        if self.put_back_list(b).is_some() {
            self.cursor_on_detail();
        }
    }

    /// The list and the search as when `/` opened; `None` when neither
    /// changed since, else whether the list then was waiting for a page
    /// (its answer is dropped with the search's: to be walked again).
    fn put_back_list(&mut self, b: SearchBox) -> Option<bool> {
        self.search_due = None;
        let changed = self.search != b.search_before || self.list.narrowed.is_some();
        self.search = b.search_before;
        if !changed {
            return None;
        }
        let waiting = b.before.loading;
        // Answers to the search's walk belong to no list now.
        let gen = self.list.gen + 1;
        let gone = std::mem::replace(&mut self.list, *b.before);
        self.list.gen = gen;
        self.list.loading = false;
        self.rows_leave(gone.items);
        Some(waiting)
    }
}
