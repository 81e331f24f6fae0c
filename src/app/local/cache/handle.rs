//! What the state does for `cache` (its `impl State`): above the state,
//! which holds the data of `super` and never this module.

use super::super::known::Newest;
use super::*;
use crate::app::state::{ApiRequest, ApiResult, Reply, State};
use crate::store::worker::StoreCmd;
use crate::store::{DirEntry, StoredTask};

impl State {
    /// An answer arrives: what it says is known (and stored), whatever
    /// task it is about. Called before it is applied.
    pub(crate) fn record(&mut self, r: &ApiResult) {
        let now = now_secs();
        let gen = self.local.gen;
        self.index_answer(&r.result);
        let full = |t: &Task, l: &mut Local| {
            let k = l.known_mut(t.id.as_str());
            let newer = !k.has_task()
                || super::super::freshness::newer_or_same(k.version(), t.updated_at.as_deref());
            if newer {
                k.task = Newest::Here(Box::new(t.clone()));
                k.at = now;
                k.note_fetched("task", gen);
            }
            l.store(StoreCmd::PutTasks(vec![stored(t, true)]));
        };
        match (&r.req, &r.result) {
            (ApiRequest::ListPage { .. } | ApiRequest::RefreshPage { .. }, Ok(Reply::Page(p))) => {
                // A view is stored with its first rows only (what a start
                // shows): a walk of 10,000 tasks does not write them all.
                let first_rows = match &r.req {
                    ApiRequest::RefreshPage { page, limit, .. } => {
                        page * (*limit as usize) < VIEW_ROWS_STORED
                    }
                    _ => self.list.items.len() < VIEW_ROWS_STORED,
                };
                let rows: Vec<StoredTask> = if first_rows {
                    p.items
                        .iter()
                        .filter_map(TaskItem::task)
                        .map(|t| stored(t, false))
                        .collect()
                } else {
                    vec![]
                };
                // Each row is the version its known tabs are checked
                // against (see `Known::fresh`); memory keeps at most
                // KNOWN_MAX tasks. A row of this walk is held by the list
                // (only its version is noted here); the rows of a walk
                // left behind never reach the list and are kept here.
                let in_list = match &r.req {
                    ApiRequest::ListPage { gen, .. } | ApiRequest::RefreshPage { gen, .. } => {
                        *gen == self.list.gen
                    }
                    _ => false,
                };
                for t in p.items.iter().filter_map(TaskItem::task) {
                    let k = self.local.known_mut(t.id.as_str());
                    if !k.has_task()
                        || super::super::freshness::newer(k.version(), t.updated_at.as_deref())
                    {
                        k.task = if in_list {
                            Newest::Row(t.updated_at.as_deref().map(str::to_string))
                        } else {
                            Newest::Here(Box::new(t.clone()))
                        };
                    }
                    k.at = now;
                }
                if !rows.is_empty() {
                    self.local.store(StoreCmd::PutTasks(rows));
                }
            }
            (_, Ok(Reply::Task(t) | Reply::Found(Some(t), _))) => {
                full(t, &mut self.local);
                if !matches!(
                    r.req,
                    ApiRequest::GetTask { .. } | ApiRequest::FindByNumber { .. }
                ) {
                    // Our own edit: what the user saw moves with it.
                    if let Some(s) = self.local.seen.get_mut(t.id.as_str()) {
                        s.updated_at = t.updated_at.as_deref().map(str::to_string);
                        let s = s.clone();
                        self.local
                            .store(StoreCmd::Seen(t.id.as_str().to_string(), s));
                    }
                }
            }
            (ApiRequest::Comments { id }, Ok(Reply::Comments(v))) => {
                let json = serde_json::to_string(v).unwrap_or_default();
                let k = self.local.known_mut(id);
                k.comments = Some(v.clone());
                k.note_fetched("comments", gen);
                k.at = now;
                self.local.store(StoreCmd::PutTab {
                    task_id: id.clone(),
                    tab: "comments",
                    json,
                });
            }
            (ApiRequest::Thread { id }, Ok(Reply::Messages(v))) => {
                let json = serde_json::to_string(v).unwrap_or_default();
                let k = self.local.known_mut(id);
                k.thread = Some(v.clone());
                k.note_fetched("thread", gen);
                k.at = now;
                self.local.store(StoreCmd::PutTab {
                    task_id: id.clone(),
                    tab: "thread",
                    json,
                });
            }
            (ApiRequest::Subtasks { id }, Ok(Reply::Items(v))) => {
                let json = subtasks_json(v);
                let k = self.local.known_mut(id);
                k.subtasks = Some(v.clone());
                k.note_fetched("subtasks", gen);
                k.at = now;
                self.local.store(StoreCmd::PutTab {
                    task_id: id.clone(),
                    tab: "subtasks",
                    json,
                });
            }
            (
                ApiRequest::GetSharing { id } | ApiRequest::PutSharing { id, .. },
                Ok(Reply::Sharing(s)),
            ) => {
                let json = serde_json::to_string(s).unwrap_or_default();
                let k = self.local.known_mut(id);
                k.sharing = Some(s.clone());
                k.note_fetched("sharing", gen);
                k.at = now;
                self.local.store(StoreCmd::PutTab {
                    task_id: id.clone(),
                    tab: "sharing",
                    json,
                });
            }
            (
                ApiRequest::AddComment { id, .. }
                | ApiRequest::ReplyComment { id, .. }
                | ApiRequest::EditComment { id, .. },
                Ok(Reply::Comment(c)),
            ) => {
                let k = self.local.known_mut(id);
                if let Some(v) = &mut k.comments {
                    v.retain(|x| x.id != c.id);
                    v.push(c.clone());
                    let json = serde_json::to_string(v).unwrap_or_default();
                    self.local.store(StoreCmd::PutTab {
                        task_id: id.clone(),
                        tab: "comments",
                        json,
                    });
                }
            }
            _ => {}
        }
        // What was done, for `:recent`.
        if r.result.is_ok() {
            if let Some((id, action)) = self.action_words(r.ticket, &r.req) {
                self.note_recent(&id, &action);
            }
        }
    }

    /// After an answer was applied: the view's rows and the directory.
    pub(crate) fn record_after(&mut self, req: &ApiRequest) {
        match req {
            ApiRequest::ListPage { gen, .. } => {
                // Pages past the stored rows do not change what is stored.
                let grows_stored =
                    self.list.items.len() <= VIEW_ROWS_STORED + self.page_size as usize;
                if *gen == self.list.gen && !self.list.replacing && grows_stored {
                    self.store_view();
                }
            }
            ApiRequest::RefreshPage {
                gen, page, limit, ..
            } if *gen == self.list.gen && page * (*limit as usize) < VIEW_ROWS_STORED => {
                self.store_view();
            }
            _ => {}
        }
        if self.directory.changes != self.local.dir_written {
            self.local.dir_written = self.directory.changes;
            let mut d: Vec<DirEntry> = self
                .directory
                .people
                .values()
                .map(|p| DirEntry {
                    team: false,
                    id: p.id.clone(),
                    name: p.name.clone(),
                    email: p.email.clone(),
                    tasks: p.tasks.iter().cloned().collect(),
                })
                .collect();
            d.extend(self.directory.teams.values().map(|t| DirEntry {
                team: true,
                id: t.id.clone(),
                name: t.name.clone(),
                email: String::new(),
                tasks: t.tasks.iter().cloned().collect(),
            }));
            self.local.store(StoreCmd::Directory(d));
        }
    }

    /// The view as the next start restores it.
    pub fn view_json(&self) -> String {
        serde_json::json!({
            "view": self.view.map(|_| self.view_title()),
            "filters": self.filters,
            "search": self.search,
            // The words behind the filters and when each was read: a
            // view saved after a restart keeps its relative dates.
            "words": self.views.words.iter().zip(&self.views.words_at)
                .map(|(w, at)| serde_json::json!([w, crate::api::to_rfc3339(*at)]))
                .collect::<Vec<_>>(),
        })
        .to_string()
    }

    /// The key a view's rows are stored under: what was asked of the
    /// service.
    pub fn view_key(&self) -> String {
        let pairs: Vec<String> = self
            .effective_query()
            .pairs()
            .into_iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect();
        pairs.join("&")
    }

    fn store_view(&mut self) {
        if !self.local.on {
            return;
        }
        let ids: Vec<String> = self
            .list
            .items
            .iter()
            .filter_map(|i| i.id().map(str::to_string))
            .take(VIEW_ROWS_STORED)
            .collect();
        let cmd = StoreCmd::PutView {
            key: self.view_key(),
            view: self.view_json(),
            ids,
        };
        self.local.store(cmd);
    }

    /// Show what is known of the current task's tabs at once; the shown
    /// values are refreshed when the tab is looked at. Asks the store for
    /// what memory does not know.
    pub(crate) fn fill_from_known(&mut self) {
        let Some(d) = &mut self.detail else { return };
        let id = d.task_id.clone();
        let Some(k) = self.local.known.get(&id) else {
            if self.local.on
                && uuid::Uuid::parse_str(&id).is_ok()
                && self.local.asked.insert(id.clone())
            {
                self.local.out.push(StoreCmd::LoadTask(id));
            }
            return;
        };
        let gen = self.local.gen;
        let fresh = |tab: &str| k.fresh(tab, gen);
        if d.task.is_none() {
            d.task = match &k.task {
                Newest::Unknown => None,
                Newest::Here(t) => Some((**t).clone()),
                Newest::Row(_) => self
                    .list
                    .position(&id)
                    .and_then(|i| self.list.items[i].task().cloned()),
            };
            if d.task.is_some() && !fresh("task") {
                d.stale.insert("task");
            }
        } else if fresh("task") {
            // The full task answered for this version (a prefetch) over
            // the list's row of the same version.
            let same = |a: &Task, b: &Task| a.updated_at == b.updated_at;
            if let (Some(full), Some(row)) = (k.copy(), &d.task) {
                if same(full, row) {
                    d.task = Some(full.clone());
                }
            }
        }
        fill(
            &mut d.comments,
            &k.comments,
            &mut d.stale,
            "comments",
            fresh("comments"),
        );
        fill(
            &mut d.thread,
            &k.thread,
            &mut d.stale,
            "thread",
            fresh("thread"),
        );
        fill(
            &mut d.subtasks,
            &k.subtasks,
            &mut d.stale,
            "subtasks",
            fresh("subtasks"),
        );
        fill(
            &mut d.sharing,
            &k.sharing,
            &mut d.stale,
            "sharing",
            fresh("sharing"),
        );
        if d.cached_at.is_none() && !d.stale.is_empty() {
            d.cached_at = Some(k.at);
        }
        self.rebuild_comment_tree();
    }
}

impl State {
    /// A task by id from what is known (the detail, the list, the local
    /// copies), for the outbox and the pickers.
    pub fn known_task(&self, id: &str) -> Option<&Task> {
        self.detail
            .as_ref()
            .filter(|d| d.task_id == id)
            .and_then(|d| d.task.as_ref())
            .or_else(|| {
                self.list
                    .items
                    .iter()
                    .filter_map(TaskItem::task)
                    .find(|t| t.id == id)
            })
            .or_else(|| self.local.known.get(id).and_then(|k| k.copy()))
    }
}

impl State {
    /// `/` typed: the store's matches at once (the service's search runs
    /// after the pause).
    pub(crate) fn search_locally(&mut self) {
        if !self.local.on || self.search.trim().is_empty() {
            return;
        }
        self.local.search_gen += 1;
        let cmd = StoreCmd::Search {
            gen: self.local.search_gen,
            query: self.search.trim().to_string(),
        };
        self.local.out.push(cmd);
    }
}
