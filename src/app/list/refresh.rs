//! A refresh that does not grow with what is loaded.
//!
//! The list remembers the pages of its walk (`TaskList::pages`): the cursor
//! that asks for each again and when the service last answered it. The
//! periodic refresh asks again ONE page: of the first page (new tasks) and
//! the pages in view, the one checked longest ago — one request whatever
//! the number of rows loaded. A page in view that was not checked for a
//! refresh period is asked again when it comes into view. Rows not checked
//! for a while are marked (`·`); `r` still walks the whole list anew.
//!
//! A page's answer replaces its rows in place (a newer version already
//! shown wins, as everywhere), new tasks are inserted where the page has
//! them, a task listed here that sat elsewhere in the list moves here, and
//! a row the page no longer lists stays where it is, marked, with no page:
//! it may have moved to a page not asked again, or left the view; `r`
//! tells which. The cursor stays on the same task and on the same line.

use crate::api::*;
use crate::app::local::freshness::same_version;
use crate::app::state::panes::{PageMark, TaskList};
use crate::app::state::{ApiRequest, Effect, Level, Reply, State};
use std::collections::HashSet;
use std::time::Instant;

/// A row is marked not recently checked when its page was last answered
/// more than this many refresh periods ago (the periodic refresh takes the
/// first page and the pages in view in turn: at most three of them).
pub const UNCHECKED_PERIODS: u32 = 4;

impl TaskList {
    /// Page `k` asked again has its rows in place (either way
    /// `apply_refreshed` puts them): the last page says where the walk
    /// goes on (`cursor`), and the cursor stays on the task it was on
    /// (`selected_id`), on the same line of the screen (`line`).
    fn settle_page(
        &mut self,
        k: usize,
        cursor: Option<String>,
        selected_id: Option<String>,
        line: usize,
    ) {
        if k + 1 == self.pages.len() && !self.loading {
            self.cursor = cursor;
            self.end_reached = self.cursor.is_none();
        }
        if let Some(i) = selected_id.and_then(|id| self.position(&id)) {
            self.selected = i;
            self.offset = i.saturating_sub(line);
        }
        self.selected = self.selected.min(self.items.len().saturating_sub(1));
    }

    /// A page of the walk arrived (asked with `asked`): its rows belong to it.
    pub(crate) fn note_page(&mut self, asked: Option<String>, rows: &[TaskItem]) {
        let k = self.pages.len();
        self.pages.push(PageMark {
            cursor: asked,
            checked: crate::clock::instant(),
            asking: false,
        });
        for id in rows.iter().filter_map(TaskItem::id) {
            self.page_of.insert(Id::new(id), k);
        }
    }

    /// The pages with a row among the `rows` lines shown, in order.
    pub fn pages_in_view(&self, rows: usize) -> Vec<usize> {
        let from = self.first_shown(rows);
        let mut pages: Vec<usize> = self
            .items
            .iter()
            .skip(from)
            .take(rows.max(1))
            .filter_map(|i| i.id().and_then(|id| self.page_of.get(id)).copied())
            .collect();
        pages.sort_unstable();
        pages.dedup();
        pages
    }

    /// Page `k`'s block found in O(page) through the index: every row the
    /// answer lists that is in the list sits in the block (none elsewhere),
    /// and at least one is there. `None`: not that case (a row moved in
    /// from another page, the index not covering the list, or no row to
    /// start from): the caller scans.
    fn block_by_index(&self, k: usize, here: &HashSet<String>) -> Option<(usize, usize)> {
        if !self.index_covers() {
            return None;
        }
        let in_k = |i: usize| {
            self.items
                .get(i)
                .and_then(TaskItem::id)
                .and_then(|id| self.page_of.get(id))
                == Some(&k)
        };
        let mut seed = None;
        let mut at = Vec::with_capacity(here.len());
        for id in here {
            if let Some(i) = self.position(id) {
                if !in_k(i) {
                    return None;
                }
                seed.get_or_insert(i);
                at.push(i);
            }
        }
        let seed = seed?;
        let (mut a, mut b) = (seed, seed + 1);
        while a > 0 && in_k(a - 1) {
            a -= 1;
        }
        while b < self.items.len() && in_k(b) {
            b += 1;
        }
        // Every listed row inside the one block (a page's rows are
        // contiguous; if not, scan).
        at.iter().all(|i| (a..b).contains(i)).then_some((a, b))
    }

    /// Where page `k`'s rows are in `items`: from its first row to its
    /// last; a page with no row left starts after the rows of the pages
    /// before it.
    fn block_of(&self, k: usize) -> (usize, usize) {
        let page = |i: &TaskItem| i.id().and_then(|id| self.page_of.get(id)).copied();
        let mut first = None;
        let mut last = None;
        let mut after_before = 0;
        for (i, item) in self.items.iter().enumerate() {
            match page(item) {
                Some(p) if p == k => {
                    first.get_or_insert(i);
                    last = Some(i);
                }
                Some(p) if p < k => after_before = i + 1,
                _ => {}
            }
        }
        match (first, last) {
            (Some(a), Some(b)) => (a, b + 1),
            _ => (after_before, after_before),
        }
    }
}

impl State {
    /// Rows the periodic refresh has not checked for a while (`·`): their
    /// page was answered long ago, or no longer lists them.
    pub fn row_unchecked(&self, id: &str, now: Instant) -> bool {
        let Some(every) = self.refresh_every else {
            return false;
        };
        let l = &self.list;
        if l.pages.is_empty() || l.cached_at.is_some() || l.replacing {
            return false;
        }
        match l.page_of.get(id).and_then(|k| l.pages.get(*k)) {
            Some(p) => now.duration_since(p.checked) > every * UNCHECKED_PERIODS,
            None => true,
        }
    }

    /// Every `refresh_secs`: one request. Before any page was answered (rows
    /// from the store, a failed walk) the list is walked as at start.
    pub(crate) fn periodic_refresh(&mut self, now: Instant) -> Vec<Effect> {
        self.last_refresh = now;
        if self.list.pages.is_empty() {
            return self.reload_list(true);
        }
        let mut candidates = self.list.pages_in_view(self.list_height);
        candidates.push(0);
        let stalest = candidates
            .into_iter()
            .filter(|k| self.list.pages.get(*k).is_some_and(|p| !p.asking))
            .min_by_key(|k| (self.list.pages[*k].checked, *k));
        match stalest {
            Some(k) => vec![self.refresh_page(k)],
            None => vec![],
        }
    }

    /// Pages in view not checked for a refresh period are asked again (the
    /// rows came into view after the user moved). Nothing with the
    /// periodic refresh off, offline, or while the list is being walked.
    pub(crate) fn refresh_in_view(&mut self) -> Vec<Effect> {
        let Some(every) = self.refresh_every else {
            return vec![];
        };
        if self.offline.is_some() || self.list.loading || self.list.replacing {
            return vec![];
        }
        let now = crate::clock::instant();
        let due: Vec<usize> = self
            .list
            .pages_in_view(self.list_height)
            .into_iter()
            .filter(|k| {
                let p = &self.list.pages[*k];
                !p.asking && now.duration_since(p.checked) >= every
            })
            .collect();
        due.into_iter().map(|k| self.refresh_page(k)).collect()
    }

    /// Ask page `k` of the walk again.
    pub(crate) fn refresh_page(&mut self, k: usize) -> Effect {
        self.list.pages[k].asking = true;
        let req = ApiRequest::RefreshPage {
            gen: self.list.gen,
            page: k,
            query: self.effective_query(),
            limit: self.page_size,
            cursor: self.list.pages[k].cursor.clone(),
        };
        self.request(req)
    }

    /// The answer to a page asked again.
    pub(crate) fn on_refreshed_page(
        &mut self,
        ticket: u64,
        gen: u64,
        k: usize,
        result: Result<Reply, ApiError>,
    ) -> Vec<Effect> {
        if gen != self.list.gen || k >= self.list.pages.len() {
            return vec![];
        }
        self.list.pages[k].asking = false;
        match result {
            Ok(Reply::Page(page)) => {
                self.list.pages[k].checked = crate::clock::instant();
                self.apply_refreshed(ticket, k, page);
            }
            Ok(_) => {}
            Err(e) => {
                // The rows stay; they read as not recently checked in time.
                self.say_about(
                    "list",
                    Level::Warn,
                    format!("checking the list failed (rows kept): {e}"),
                );
            }
        }
        vec![]
    }

    fn apply_refreshed(&mut self, ticket: u64, k: usize, page: TaskPage) {
        let selected_id = self.list.selected_id().map(str::to_string);
        let line = self.list.selected.saturating_sub(self.list.offset);
        // The page's rows in its order, each the newest version known.
        let mut rows: Vec<TaskItem> = Vec::new();
        let mut here: HashSet<String> = HashSet::new();
        for item in page.items {
            let Some(t) = item.task() else { continue };
            let id = t.id.as_str().to_string();
            if !here.insert(id.clone()) {
                continue;
            }
            self.learn_people(t);
            let shown = self.list.position(&id).map(|i| self.list.items[i].clone());
            let row = match shown {
                Some(old) if self.is_stale(t, ticket) => old,
                Some(old) => {
                    let was = old.task().map(|o| o.updated_at.as_deref());
                    if was.is_none_or(|w| !same_version(w, t.updated_at.as_deref())) {
                        self.list.changed.insert(id.clone());
                    }
                    item
                }
                None => item,
            };
            rows.push(row);
        }
        let l = &mut self.list;
        // The common case, in O(page): the page's rows are all in its own
        // block (none moved in from elsewhere); the block is found from
        // them through the index, and replaced in place.
        if let Some((start, end)) = l.block_by_index(k, &here) {
            let mut kept = Vec::new();
            for item in &l.items[start..end] {
                if item.id().is_some_and(|id| here.contains(id)) {
                    continue;
                }
                if let Some(id) = item.id() {
                    if l.page_of.get(id) == Some(&k) {
                        l.page_of.remove(id);
                    }
                }
                kept.push(item.clone());
            }
            for id in &here {
                l.page_of.insert(Id::new(id), k);
            }
            let block = rows.len() + kept.len();
            let same = block == end - start;
            l.items.splice(start..end, rows.into_iter().chain(kept));
            if same {
                l.reindex_range(start..end);
            } else {
                l.reindex_range(start..l.items.len());
            }
            l.settle_page(k, page.cursor, selected_id, line);
            return;
        }
        let (start, end) = l.block_of(k);
        let listed_here = |i: &TaskItem| i.id().is_some_and(|id| here.contains(id));
        // Rows listed here that sat elsewhere move here; rows of the block
        // the page no longer lists stay, after its rows, with no page.
        let mut before = Vec::with_capacity(start);
        let mut kept = Vec::new();
        let mut after = Vec::with_capacity(l.items.len().saturating_sub(end));
        // The first row whose place changes (rows moved in from elsewhere
        // shift those after them): the index is redone from there only.
        let mut first_moved = None;
        let covered = l.index_covers();
        for (i, item) in std::mem::take(&mut l.items).into_iter().enumerate() {
            if listed_here(&item) {
                if !(start..end).contains(&i) {
                    first_moved.get_or_insert(i);
                }
                continue;
            }
            if i < start {
                before.push(item);
            } else if i < end {
                if let Some(id) = item.id() {
                    if l.page_of.get(id) == Some(&k) {
                        l.page_of.remove(id);
                    }
                }
                kept.push(item);
            } else {
                after.push(item);
            }
        }
        for id in &here {
            l.page_of.insert(Id::new(id), k);
        }
        let block = rows.len() + kept.len();
        let mut items = before;
        items.extend(rows);
        items.extend(kept);
        items.extend(after);
        l.items = items;
        // No row leaves the list here: only the places that changed are
        // indexed again (the block alone when it kept its size).
        match first_moved {
            _ if !covered => l.reindex(),
            None if block == end - start => l.reindex_range(start..end),
            moved => l.reindex_range(moved.unwrap_or(start).min(start)..l.items.len()),
        }
        l.settle_page(k, page.cursor, selected_id, line);
    }
}
