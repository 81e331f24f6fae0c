//! Moving around: the list walk, the list cursor, the one current task,
//! history, detail tabs and scrolling.
//!
//! The rule: the detail shows the current task, and the current task is
//! the row under the list cursor unless the user opened one from elsewhere
//! (`:open`, a link, a subtask, history). Only the user's navigation
//! changes it; answers never do.

use crate::api::*;
use crate::app::state::{ApiRequest, Detail, Effect, Focus, Level, Load, Origin, State, Tab};

impl State {
    /// First requests at start-up.
    pub fn start(&mut self) -> Vec<Effect> {
        let mut fx = vec![self.request(ApiRequest::Me)];
        // Rows from the store stay, the cursor on the same task, until the
        // service's answers replace them; the stored current task is
        // asked again.
        let cached = self.list.cached_at.is_some();
        fx.extend(self.reload_list(cached));
        if let Some(d) = &self.detail {
            let (id, tab) = (d.task_id.clone(), d.tab);
            if uuid::Uuid::parse_str(&id).is_ok() {
                fx.push(self.request(ApiRequest::GetTask { id }));
            }
            fx.extend(self.load_tab(tab));
        }
        fx
    }

    /// Start a new walk of the list. With `keep`, rows already loaded stay
    /// until the new rows arrive and the walk refills as many.
    pub fn reload_list(&mut self, keep: bool) -> Vec<Effect> {
        let l = &mut self.list;
        l.gen += 1;
        l.before_refresh = keep.then(|| (l.cursor.clone(), l.end_reached));
        l.cursor = None;
        l.end_reached = false;
        l.loading = true;
        l.error = None;
        l.replacing = true;
        l.seen_cursors.clear();
        l.previous = if keep {
            l.items
                .iter()
                .filter_map(|i| {
                    i.task().map(|t| {
                        (
                            t.id.as_str().to_string(),
                            t.updated_at.as_deref().map(str::to_string),
                        )
                    })
                })
                .collect()
        } else {
            Default::default()
        };
        l.refill_to = if keep {
            l.items.len().max(l.selected + 1)
        } else {
            0
        };
        l.keep_selected = if keep {
            l.selected_id().map(str::to_string)
        } else {
            None
        };
        l.follow_on_load = !keep;
        if !keep {
            // The store's matches for a search, or the rows it narrowed,
            // stay until the service's first page replaces them.
            if !l.local_search && l.narrowed.is_none() {
                let gone = std::mem::take(&mut l.items);
                l.reindex();
                self.rows_leave(gone);
            }
            let l = &mut self.list;
            l.selected = 0;
            l.offset = 0;
            l.changed.clear();
            // The old walk's pages are not this walk's: never asked again.
            l.pages.clear();
            l.page_of.clear();
        }
        self.last_refresh = crate::clock::instant();
        let req = ApiRequest::ListPage {
            gen: self.list.gen,
            query: self.effective_query(),
            limit: self.page_size,
            cursor: None,
        };
        let mut fx = vec![self.request(req)];
        // The rows a search narrowed stay until the first page: the
        // cursor put at the top of them meets the detail (simulator seed
        // 13681637696034102247: a view chosen after a search kept). Not
        // while the search box is open (its enter does it) nor under a
        // popup bound to the detail's task (a composer).
        let open = matches!(self.overlay, crate::app::state::Overlay::Search(_))
            || self.overlay.bound_task().is_some();
        if !keep && !open {
            fx.extend(self.cursor_meets_the_detail());
        }
        fx
    }

    /// The cursor may have left the detail's task (a search walked, a
    /// view chosen, with the narrowed rows kept until the first page: the
    /// cursor at their top): it goes back to that task when the list holds
    /// it, else the detail follows the cursor — never a cursor on one task
    /// and the detail, where actions go, on another (simulator seeds
    /// 4578940496896613642 and 13681637696034102247).
    pub(crate) fn cursor_meets_the_detail(&mut self) -> Vec<Effect> {
        if self.list.items.is_empty() || self.cursor_on_current() {
            return vec![];
        }
        let on = self.detail.as_ref().map(|d| d.task_id.clone());
        match on.and_then(|id| self.list.position(&id)) {
            Some(i) => {
                self.list.selected = i;
                vec![]
            }
            None => self.select_row(self.list.selected),
        }
    }

    /// Fetch the next page when the selection nears the end of what is
    /// loaded; pages that came into view unchecked for a refresh period
    /// are asked again (`list/refresh.rs`).
    pub fn fetch_ahead(&mut self) -> Vec<Effect> {
        let l = &self.list;
        let near_end =
            l.selected + (self.page_size as usize / 2).max(self.list_height) >= l.items.len();
        let mut fx = Vec::new();
        if !(l.loading || l.end_reached || l.cursor.is_none() || !near_end) {
            fx.push(self.next_page());
        }
        fx.extend(self.refresh_in_view());
        fx
    }

    /// Ask for the page after the loaded ones (same walk, same limit).
    pub fn next_page(&mut self) -> Effect {
        self.list.loading = true;
        let req = ApiRequest::ListPage {
            gen: self.list.gen,
            query: self.effective_query(),
            limit: self.page_size,
            cursor: self.list.cursor.clone(),
        };
        self.request(req)
    }

    pub fn refresh(&mut self) -> Vec<Effect> {
        // Everything fetched before is asked again, prefetches included.
        self.local.gen += 1;
        let mut fx = self.cancel_prefetches(|_| true);
        fx.extend(self.reload_list(true));
        // A failed identity lookup is retried too (drafts and `me` need it).
        let asking = self.inflight.values().any(|(what, _)| what == "identity");
        if self.me.is_none() && !asking {
            fx.push(self.request(ApiRequest::Me));
        }
        if let Some(d) = &mut self.detail {
            let id = d.task_id.clone();
            let tab = d.tab;
            d.comments = Load::NotLoaded;
            d.thread = Load::NotLoaded;
            d.subtasks = Load::NotLoaded;
            d.sharing = Load::NotLoaded;
            self.rebuild_comment_tree();
            let tab_fx = self.load_tab(tab);
            // The tab may read the task itself (the Requester tab does): once.
            let reads_task = tab_fx.iter().any(|e| {
                matches!(e, Effect::Api { req, .. } if matches!(**req, ApiRequest::GetTask { .. }))
            });
            if uuid::Uuid::parse_str(&id).is_ok() && !reads_task && !self.outbox_checking(&id) {
                fx.push(self.request(ApiRequest::GetTask { id }));
            }
            fx.extend(tab_fx);
        }
        fx
    }

    /// Move the list cursor (list focus) or within the detail tab.
    pub fn move_by(&mut self, delta: i64) -> Vec<Effect> {
        self.list.to_bottom = false;
        match self.focus {
            Focus::List => self.move_list_cursor(delta),
            Focus::Detail => {
                self.move_in_detail(delta);
                vec![]
            }
        }
    }

    /// Move the list cursor; the current task follows it.
    pub fn move_list_cursor(&mut self, delta: i64) -> Vec<Effect> {
        let n = self.list.items.len();
        if n == 0 {
            return vec![];
        }
        // The first move after a task was opened from elsewhere starts at
        // the (inactive) cursor, and the task left goes into history.
        let cur = self.list.selected as i64;
        self.list.selected = (cur.saturating_add(delta)).clamp(0, n as i64 - 1) as usize;
        self.settle.key_move(crate::clock::instant());
        self.keep_moved_selection();
        let mut fx = self.follow_cursor();
        fx.extend(self.fetch_ahead());
        fx
    }

    /// Select list row `i` (a click); the current task follows.
    pub fn select_row(&mut self, i: usize) -> Vec<Effect> {
        if i >= self.list.items.len() {
            return vec![];
        }
        self.list.selected = i;
        self.settle.key_move(crate::clock::instant());
        self.keep_moved_selection();
        self.focus = Focus::List;
        let mut fx = self.follow_cursor();
        fx.extend(self.fetch_ahead());
        fx
    }

    fn move_in_detail(&mut self, delta: i64) {
        let rows = self.tab_rows();
        let (height, content) = self.detail_view;
        let Some(d) = &mut self.detail else { return };
        if rows == 0 {
            // Scroll within the content: never past its last line.
            let max = content.saturating_sub(height.max(1)) as i64;
            let s = (d.scroll as i64).saturating_add(delta);
            d.scroll = s.clamp(0, max.min(u16::MAX as i64)) as u16;
        } else {
            let c = (d.cursor as i64).saturating_add(delta);
            d.cursor = c.clamp(0, rows as i64 - 1) as usize;
        }
    }

    /// During a refresh's refill, the task to keep under the cursor is the
    /// one the user moved to, not the one selected when it started.
    fn keep_moved_selection(&mut self) {
        if self.list.keep_selected.is_some() {
            self.list.keep_selected = self.list.selected_id().map(str::to_string);
        }
    }

    /// Make the row under the list cursor the current task, unless it is.
    pub fn follow_cursor(&mut self) -> Vec<Effect> {
        let Some(item) = self.list.items.get(self.list.selected).cloned() else {
            return vec![];
        };
        if let Some(d) = &mut self.detail {
            if Some(d.task_id.as_str()) == item.id() {
                d.origin = Origin::List;
                return vec![];
            }
            if d.origin == Origin::Elsewhere {
                // Leaving a task opened from elsewhere: keep it in history.
                let left = d.task_id.clone();
                self.remember(left);
            }
        }
        let passing = self.settle.passing;
        match item {
            TaskItem::Task(t) => self.show_as(t.id.as_str().to_string(), Some(*t), passing),
            TaskItem::Unreadable(u) => match u.id.clone() {
                Some(id) => {
                    let reason = &u.reason;
                    self.say(
                        Level::Warn,
                        format!("this item could not be read ({reason}); loading it by id"),
                    );
                    self.show_as(id, None, passing)
                }
                None => {
                    let mut d = Detail::new(String::new(), None);
                    d.origin = Origin::List;
                    d.error = Some(format!("this item could not be read: {}", u.reason));
                    self.detail = Some(d);
                    vec![]
                }
            },
        }
    }

    /// Put `id` in the back history (a jump leaves it).
    fn remember(&mut self, id: String) {
        // Only real tasks: a placeholder (`#N` being looked for, an
        // unreadable row) could never be shown again.
        if !is_task_id(&id) || self.back_stack.last() == Some(&id) {
            return;
        }
        self.back_stack.push(id);
        if self.back_stack.len() > 100 {
            self.back_stack.remove(0);
        }
        self.forward_stack.clear();
    }

    /// Jump to a task from elsewhere: it becomes current and the one left
    /// goes into history.
    pub fn jump_to(&mut self, id: String, task: Option<Task>) -> Vec<Effect> {
        if let Some(cur) = self.detail.as_ref().map(|d| d.task_id.clone()) {
            if cur == id {
                return vec![];
            }
            self.remember(cur);
        }
        self.show(id, task)
    }

    /// Show `id` as the current task, keeping the tab. When the task is a
    /// row of the list the cursor moves onto it; else it is marked as
    /// opened from elsewhere.
    pub fn show(&mut self, id: String, task: Option<Task>) -> Vec<Effect> {
        let fx = self.show_as(id, task, false);
        self.note_opened();
        fx
    }

    /// `show`; `passing`: the cursor only passes the row (`list/settle/`), so
    /// it is shown from what is known and neither read nor opened yet.
    fn show_as(&mut self, id: String, task: Option<Task>, passing: bool) -> Vec<Effect> {
        let in_list = self.list.position(&id);
        if let Some(i) = in_list {
            self.list.selected = i;
        }
        // A row of the list is the freshest copy we have when none is given.
        let task = task.or_else(|| in_list.and_then(|i| self.list.items[i].task().cloned()));
        let tab = self.detail.as_ref().map(|d| d.tab).unwrap_or(Tab::Overview);
        let known = task.is_some();
        if let Some(t) = &task {
            self.learn_people(t);
        }
        let mut d = Detail::new(id.clone(), task);
        d.tab = tab;
        d.origin = if in_list.is_some() {
            Origin::List
        } else {
            Origin::Elsewhere
        };
        d.passing = passing;
        self.detail = Some(d);
        self.fill_from_known();
        self.rebuild_comment_tree();
        if passing {
            return vec![];
        }
        self.look_at_current();
        let mut fx = Vec::new();
        let known = known || self.detail.as_ref().is_some_and(|d| d.task.is_some());
        if !known && uuid::Uuid::parse_str(&id).is_ok() {
            fx.push(self.request(ApiRequest::GetTask { id }));
        }
        fx.extend(self.load_tab(tab));
        fx
    }

    /// History back (`<`): the task current before the last jump.
    pub fn history_back(&mut self) -> Vec<Effect> {
        let Some(prev) = self.back_stack.pop() else {
            self.say(Level::Info, "no earlier task in history");
            return vec![];
        };
        if let Some(cur) = self.detail.as_ref().map(|d| d.task_id.clone()) {
            if is_task_id(&cur) {
                self.forward_stack.push(cur);
            }
        }
        self.show(prev, None)
    }

    /// History forward (`>`).
    pub fn history_forward(&mut self) -> Vec<Effect> {
        let Some(next) = self.forward_stack.pop() else {
            self.say(Level::Info, "no later task in history");
            return vec![];
        };
        if let Some(cur) = self.detail.as_ref().map(|d| d.task_id.clone()) {
            if is_task_id(&cur) {
                self.back_stack.push(cur);
            }
        }
        self.show(next, None)
    }

    /// Enter in the list focuses the detail of the current task; in the
    /// detail it opens the selected subtask or linked task.
    pub fn open(&mut self) -> Vec<Effect> {
        match self.focus {
            Focus::List => {
                let mut fx = self.follow_cursor();
                // Enter opens a task passed on the way at once.
                fx.extend(self.open_passed());
                if self.detail.is_some() {
                    self.focus = Focus::Detail;
                    self.note_opened();
                }
                fx
            }
            Focus::Detail => self.open_in_detail(),
        }
    }

    fn open_in_detail(&mut self) -> Vec<Effect> {
        let Some(d) = &self.detail else { return vec![] };
        let cursor = d.cursor;
        let target = match d.tab {
            Tab::Subtasks => match &d.subtasks {
                Load::Loaded(v) => v
                    .get(cursor)
                    .and_then(|i| i.id().map(|id| (id.to_string(), i.task().cloned()))),
                _ => None,
            },
            Tab::Links => d
                .task
                .as_ref()
                .and_then(|t| t.linked_items.get(cursor))
                .filter(|l| l.kind == LinkType::Task)
                .map(|l| (l.id.as_str().to_string(), None)),
            _ => None,
        };
        match target {
            Some((id, task)) => {
                if let Some(dd) = &mut self.detail {
                    dd.tab = Tab::Overview;
                }
                self.jump_to(id, task)
            }
            None => {
                if d.tab == Tab::Links {
                    self.say(Level::Info, "only task links can be opened here");
                }
                vec![]
            }
        }
    }

    /// Esc in the detail returns focus to the list and changes nothing else.
    pub fn back(&mut self) -> Vec<Effect> {
        if self.focus == Focus::Detail {
            self.focus = Focus::List;
        }
        vec![]
    }

    pub fn toggle_focus(&mut self) -> Vec<Effect> {
        if self.detail.is_none() {
            let fx = self.follow_cursor();
            if self.detail.is_some() {
                self.focus = Focus::Detail;
            }
            return fx;
        }
        self.focus = match self.focus {
            Focus::List => Focus::Detail,
            Focus::Detail => Focus::List,
        };
        vec![]
    }

    pub fn switch_tab(&mut self, delta: i64) -> Vec<Effect> {
        let Some(d) = &mut self.detail else {
            return vec![];
        };
        let i = Tab::ALL.iter().position(|t| *t == d.tab).unwrap_or(0) as i64;
        let n = Tab::ALL.len() as i64;
        d.tab = Tab::ALL[((i + delta).rem_euclid(n)) as usize];
        d.cursor = 0;
        d.scroll = 0;
        self.focus = Focus::Detail;
        let tab = d.tab;
        self.load_tab(tab)
    }

    /// Load what the tab shows, if not loaded yet.
    pub fn load_tab(&mut self, tab: Tab) -> Vec<Effect> {
        // A prefetch of this tab is on its way: it fills the tab (it is
        // current and waits), not a second request.
        let name = match tab {
            Tab::Comments => "comments",
            Tab::Subtasks => "subtasks",
            Tab::Requester => "thread",
            Tab::Sharing => "sharing",
            _ => "",
        };
        let coming = self
            .detail
            .as_ref()
            .is_some_and(|d| !name.is_empty() && self.prefetch.has(&d.task_id, name));
        let Some(d) = &mut self.detail else {
            return vec![];
        };
        if coming {
            match tab {
                Tab::Comments if matches!(d.comments, Load::NotLoaded) => {
                    d.comments = Load::Loading
                }
                Tab::Subtasks if matches!(d.subtasks, Load::NotLoaded) => {
                    d.subtasks = Load::Loading
                }
                Tab::Requester if matches!(d.thread, Load::NotLoaded) => d.thread = Load::Loading,
                Tab::Sharing if matches!(d.sharing, Load::NotLoaded) => d.sharing = Load::Loading,
                _ => {}
            }
            return vec![];
        }
        let id = d.task_id.clone();
        if uuid::Uuid::parse_str(&id).is_err() {
            // A placeholder (`#N` being looked for, an unreadable row).
            return vec![];
        }
        // A tab shown from what was known is asked again once per look
        // (offline, what is stored is all there is).
        let online = self.offline.is_none();
        let mut again = |name: &'static str| online && d.stale.remove(name);
        let req = match tab {
            Tab::Comments if matches!(d.comments, Load::NotLoaded) || again("comments") => {
                if !matches!(d.comments, Load::Loaded(_)) {
                    d.comments = Load::Loading;
                }
                ApiRequest::Comments { id }
            }
            Tab::Subtasks if matches!(d.subtasks, Load::NotLoaded) || again("subtasks") => {
                if !matches!(d.subtasks, Load::Loaded(_)) {
                    d.subtasks = Load::Loading;
                }
                ApiRequest::Subtasks { id }
            }
            Tab::Requester if matches!(d.thread, Load::NotLoaded) || again("thread") => {
                if !matches!(d.thread, Load::Loaded(_)) {
                    d.thread = Load::Loading;
                }
                // Lists may leave out `source_channel`; the single-task read
                // has it, and the composer warns by it before a reply.
                let needs_channel = d.task.as_ref().is_some_and(|t| t.source_channel.is_none());
                let mut fx = vec![self.request(ApiRequest::Thread { id: id.clone() })];
                if needs_channel {
                    fx.push(self.request(ApiRequest::GetTask { id }));
                }
                return fx;
            }
            Tab::Sharing if matches!(d.sharing, Load::NotLoaded) || again("sharing") => {
                if !matches!(d.sharing, Load::Loaded(_)) {
                    d.sharing = Load::Loading;
                }
                ApiRequest::GetSharing { id }
            }
            _ => return vec![],
        };
        vec![self.request(req)]
    }

    /// How many selectable rows the current tab has (0: it scrolls).
    pub fn tab_rows(&self) -> usize {
        let Some(d) = &self.detail else { return 0 };
        match d.tab {
            Tab::Overview | Tab::Sharing | Tab::Requester => 0,
            Tab::Comments => self.comment_rows().len(),
            Tab::Links => d.task.as_ref().map_or(0, |t| t.linked_items.len()),
            Tab::Files => d
                .task
                .as_ref()
                .map_or(0, |t| crate::app::state::fields::file_entries(t).len()),
            Tab::Subtasks => match &d.subtasks {
                Load::Loaded(v) => v.len(),
                _ => 0,
            },
        }
    }

    pub fn selected_link(&self) -> Option<&LinkedItem> {
        let d = self.detail.as_ref()?;
        if d.tab != Tab::Links {
            return None;
        }
        d.task.as_ref()?.linked_items.get(d.cursor)
    }

    pub fn set_view(&mut self, i: usize) -> Vec<Effect> {
        // A view is a named filter: the title, the filter form and the
        // request all read the same `filters`, read from the view's words
        // now (relative dates, `me`).
        let q = match self.view_query(i) {
            Ok(q) => q,
            Err(e) => {
                self.say(Level::Warn, e);
                return vec![];
            }
        };
        self.views.words =
            crate::app::state::fields::filter_words(&self.views.list[i].filter).unwrap_or_default();
        self.views.words_at = vec![crate::clock::timestamp(); self.views.words.len()];
        if self.view != Some(i) {
            self.keep_tab_count();
        }
        self.views.base = Some(q.clone());
        self.filters = q;
        self.view = Some(i);
        self.focus = Focus::List;
        self.reload_list(false)
    }
}

/// A real task id (a placeholder such as `#12` or an unreadable row is not).
fn is_task_id(id: &str) -> bool {
    uuid::Uuid::parse_str(id).is_ok()
}
