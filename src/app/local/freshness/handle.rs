//! What the state does for `freshness` (its `impl State`): above the state,
//! which holds the data of `super` and never this module.

use super::*;
use crate::app::state::{ApiRequest, ApiResult, Effect, Focus, Level, Origin, ShownVersion, State};

impl State {
    pub(crate) fn apply_page(
        &mut self,
        ticket: u64,
        asked: Option<String>,
        page: TaskPage,
    ) -> Vec<Effect> {
        let first = asked.is_none();
        // A new walk's first page (a search, a view, a filter) puts the
        // cursor on its first row: the row the cursor had among the rows
        // shown meanwhile (a search's narrowed rows) may be anywhere in
        // the service's answer (issue 46: row 19, not the first match).
        let new_walk = first && self.list.replacing && self.list.follow_on_load;
        let keep_id = self.list.keep_selected.clone().or_else(|| {
            (!new_walk)
                .then(|| self.list.selected_id().map(str::to_string))
                .flatten()
        });
        if new_walk && self.list.keep_selected.is_none() {
            self.list.selected = 0;
            self.list.offset = 0;
        }
        // A service that repeats a cursor would make the walk endless.
        if let Some(c) = &page.cursor {
            if !self.list.seen_cursors.insert(c.clone()) {
                self.list.loading = false;
                self.list.end_reached = true;
                let msg = "the service repeated a page cursor: the list stops here (it may be incomplete)";
                self.list.error = Some(msg.into());
                self.say_about("list", Level::Error, msg);
                return vec![];
            }
        }
        let mut incoming = page.items;
        // Rows answered individually since this page was asked for (a
        // PATCH, a read) are newer than the page's copy: keep them.
        for item in incoming.iter_mut() {
            let Some(t) = item.task() else { continue };
            if self.is_stale(t, ticket) {
                if let Some(newer) = self
                    .list
                    .position(&t.id)
                    .map(|i| self.list.items[i].clone())
                {
                    *item = newer;
                }
            }
        }
        if first {
            self.list.before_refresh = None;
            // A new walk: its pages are counted afresh.
            self.list.pages.clear();
            self.list.page_of.clear();
        }
        if first && self.list.replacing {
            let gone = std::mem::take(&mut self.list.items);
            self.list.reindex();
            self.rows_leave(gone);
            self.list.replacing = false;
            self.list.changed.clear();
            self.list.cached_at = None;
            self.list.local_search = false;
            self.list.narrowed = None;
        }
        for item in &incoming {
            if let Some(t) = item.task() {
                if let Some(prev) = self.list.previous.get(t.id.as_str()) {
                    if !super::same_version(prev.as_deref(), t.updated_at.as_deref()) {
                        self.list.changed.insert(t.id.as_str().to_string());
                    }
                }
            }
        }
        for t in incoming.iter().filter_map(TaskItem::task) {
            self.learn_people(t);
        }
        // The same task never shows twice in one list.
        incoming.retain(|i| i.id().is_none_or(|id| self.list.position(id).is_none()));
        self.list.note_page(asked, &incoming);
        self.list.extend_rows(incoming);
        self.list.cursor = page.cursor;
        self.list.end_reached = self.list.cursor.is_none();
        self.list.loading = false;
        self.list.error = None;
        // Selection stays on the same task across refreshes.
        if let Some(id) = keep_id {
            if let Some(i) = self.list.position(&id) {
                self.list.selected = i;
                self.list.keep_selected = None;
            }
        }
        self.list.selected = self
            .list
            .selected
            .min(self.list.items.len().saturating_sub(1));
        // `G` follows pages down only while the user stays in the list: the
        // current task never moves under a user reading the detail.
        if self.focus != Focus::List {
            self.list.to_bottom = false;
        }
        let followed_bottom = self.list.to_bottom && self.list.keep_selected.is_none();
        if followed_bottom {
            self.settle.carried();
            self.list.selected = self.list.items.len().saturating_sub(1);
            self.list.to_bottom = !self.list.end_reached;
        }
        let mut fx = Vec::new();
        if self.list.items.len() < self.list.refill_to && !self.list.end_reached {
            fx.push(self.next_page());
        } else {
            self.list.refill_to = 0;
            self.list.keep_selected = None;
            self.list.previous.clear();
            fx.extend(self.fetch_ahead());
        }
        fx.extend(self.after_list_change(followed_bottom));
        fx
    }

    /// After rows arrive: with no current task yet, or a new walk (a view,
    /// a filter, a search), the row under the cursor becomes current; on a
    /// refresh a current task that left the list stays current, marked as
    /// not in this list: a refresh never changes the target.
    fn after_list_change(&mut self, followed_bottom: bool) -> Vec<Effect> {
        if self.list.keep_selected.is_some() {
            return vec![];
        }
        // A composer or the sharing editor acts on the detail's task: rows
        // arriving while one is open (or a popup that returns to one) never
        // move the detail from under it
        // (found by the simulator: a comment begun on #2 sat over #1's
        // detail once a filter's first page came). The new walk's row is
        // followed once it closes, at the next move.
        let bound = self.overlay.bound_task().is_some();
        let new_walk = std::mem::take(&mut self.list.follow_on_load) && !bound;
        let Some(d) = &mut self.detail else {
            return self.follow_cursor();
        };
        if d.origin == Origin::List && !bound && (followed_bottom || new_walk) {
            return self.follow_cursor();
        }
        self.cursor_on_detail();
        vec![]
    }

    /// The rows changed under a detail opened from the list: the cursor
    /// goes to its row, or — gone from the list — it is shown as opened
    /// from elsewhere (the cursor inactive until the user moves it).
    pub(crate) fn cursor_on_detail(&mut self) {
        let Some(d) = &mut self.detail else {
            return;
        };
        if d.origin == Origin::List {
            match self.list.position(&d.task_id) {
                Some(i) => self.list.selected = i,
                None => d.origin = Origin::Elsewhere,
            }
        }
    }

    /// The answer `t` (ticket `ticket`) describes an older version than
    /// what is shown. A request sent after the version shown was applied
    /// is answered from a service that had that version already: its
    /// answer is never older, whatever its `updated_at` says (a service
    /// whose clock was set back dates it earlier: found by the simulator,
    /// seed 727590415, an undo's answer dropped so the row went on
    /// showing the undone edit). Otherwise `updated_at` decides when both
    /// are readable (the service's order, whatever order answers travel
    /// in); when they are equal or unreadable, an answer sent before the
    /// one applied last is the older.
    pub fn is_stale(&self, t: &Task, ticket: u64) -> bool {
        let Some(shown) = self.versions.get(t.id.as_str()) else {
            return false;
        };
        if ticket >= shown.issued {
            return false;
        }
        let parse = |s: Option<&str>| s.and_then(crate::api::parse_timestamp);
        match (
            parse(t.updated_at.as_deref()),
            parse(shown.updated_at.as_deref()),
        ) {
            (Some(a), Some(b)) if a != b => a < b,
            _ => ticket < shown.ticket,
        }
    }

    /// Remember that the answer with `ticket` showed this version of `t`
    /// (callers apply only answers that are not stale), and which
    /// requests were sent after it (`next_ticket` on).
    pub fn note_version(&mut self, t: &Task, ticket: u64) {
        let issued = self.next_ticket;
        let e = self.versions.entry(t.id.as_str().to_string()).or_default();
        *e = ShownVersion {
            ticket: ticket.max(e.ticket),
            updated_at: t.updated_at.as_deref().map(str::to_string),
            issued,
        };
    }

    /// The service's answer replaces the row and the detail, unless it is
    /// older than what they show (one staleness rule for every answer).
    pub fn replace_task(&mut self, t: Task, ticket: u64) {
        if self.is_stale(&t, ticket) {
            tracing::debug!(ticket, "an older answer about a task arrived late: dropped");
            return;
        }
        self.note_version(&t, ticket);
        self.learn_people(&t);
        if let Some(i) = self.list.position(&t.id) {
            self.list.items[i] = TaskItem::Task(Box::new(t.clone()));
        }
        if let Some(d) = self
            .detail
            .as_mut()
            .filter(|d| crate::broken::on(crate::broken::Rule::OtherTask) || d.task_id == t.id)
        {
            d.task = Some(t);
            d.error = None;
        }
    }

    /// The service's answer to a write of ours: applied as any answer
    /// (`replace_task`), unless it looks older than what is shown. Then
    /// which is newer cannot be told: a read sent after the write may
    /// have been answered before the service applied it, and a service
    /// whose clock was set back dates the write's answer before that read
    /// (simulator seed 2375017898292695287, on older code: an assignee
    /// undone to none while the screen went on showing Bob, the service
    /// holding none). The task is read again: that read, sent after both,
    /// decides; if it fails, the write's answer is shown (`read_decided`).
    /// Answers the read.
    pub fn write_answered(&mut self, t: Task, ticket: u64) -> Vec<Effect> {
        if self.is_stale(&t, ticket) {
            tracing::debug!(
                ticket,
                "our write's answer is dated before what is shown: read again"
            );
            let id = t.id.as_str().to_string();
            let fx = self.request(ApiRequest::GetTask { id });
            if let Effect::Api { ticket: read, .. } = &fx {
                self.deciding.insert(*read, t);
            }
            return vec![fx];
        }
        self.replace_task(t, ticket);
        vec![]
    }

    /// The read that was to decide (`write_answered`) was answered. Read
    /// whole, it decides as any answer; failed, the write's answer is
    /// shown, as of that read: it holds our own change, the one the
    /// status line said was done, while the copy shown may be one read
    /// before the service applied it (simulator seed
    /// 4746902339336240514: an undo said done, the read after it
    /// unreadable, the row went on showing the archive taken back).
    pub(crate) fn read_decided(&mut self, r: &ApiResult) {
        let Some(t) = self.deciding.remove(&r.ticket) else {
            return;
        };
        if r.result.is_err() {
            self.replace_task(t, r.ticket);
        }
    }

    /// `#12` for a task we know, else a short id.
    pub fn label_of(&self, id: &str) -> String {
        self.detail
            .as_ref()
            .and_then(|d| d.task.as_ref())
            .filter(|t| t.id == id)
            .or_else(|| {
                self.list
                    .position(id)
                    .and_then(|i| self.list.items[i].task())
            })
            .map(|t| t.label())
            .unwrap_or_else(|| crate::api::short_id(id))
    }
}
