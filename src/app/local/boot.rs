//! The store's side of what is known: what a start reads before the
//! first frame (`apply_boot`), the store's answers (a task's stored
//! tabs, a number, local search matches), and forgetting another user's.

use super::cache::{from_stored, subtasks_from, Local};
use crate::api::*;
use crate::app::state::{Detail, Effect, Level, Origin, State};
use crate::store::worker::StoreAnswer;
use crate::store::{Boot, StoredDetail};

impl State {
    /// The store answered.
    pub fn on_store(&mut self, a: StoreAnswer) -> Vec<Effect> {
        match a {
            StoreAnswer::Task(id, d) => {
                self.learn_stored(&id, &d);
                if self.detail.as_ref().is_some_and(|x| x.task_id == id) {
                    let had_task = self.detail.as_ref().is_some_and(|d| d.task.is_some());
                    self.fill_from_known();
                    let tab = self.detail.as_ref().map(|d| d.tab);
                    if !had_task && self.detail.as_ref().is_some_and(|d| d.task.is_some()) {
                        self.rebuild_comment_tree();
                    }
                    // Offline, the stored tab is all there is.
                    if let (Some(tab), true) = (tab, self.offline.is_some()) {
                        return self.load_tab(tab);
                    }
                }
                vec![]
            }
            StoreAnswer::Number {
                number,
                first,
                found,
            } => self.on_stored_number(number, first, found),
            StoreAnswer::Search { gen, rows } => {
                self.on_local_search(gen, rows);
                vec![]
            }
            StoreAnswer::Scanned(scan, rows) => {
                self.on_scanned(scan, rows);
                vec![]
            }
            StoreAnswer::OutboxAdded { local, .. } => {
                self.outbox_kept(local);
                vec![]
            }
            StoreAnswer::OutboxNotKept { local, why } => {
                self.outbox_not_kept(local, &why);
                vec![]
            }
            StoreAnswer::OutboxCancelled { seq, kept } => {
                self.outbox_cancel_answered(seq, kept);
                vec![]
            }
            StoreAnswer::Flushed => vec![],
            StoreAnswer::Taken(rows) => {
                let n = rows.len();
                self.outbox_from_store(rows);
                // In the order made, whoever queued them.
                self.outbox.sort_by_key(|i| i.seq);
                self.say(
                    Level::Info,
                    format!(
                        "{} left by a taskdeck that stopped: sent from here (:outbox)",
                        crate::domain::words::plural(n, "queued edit", "queued edits")
                    ),
                );
                self.outbox_pump()
            }
            StoreAnswer::SetAside(note) => {
                self.say(Level::Warn, note);
                vec![]
            }
            StoreAnswer::Failed(msg) => {
                self.local.on = false;
                self.local.out.clear();
                self.scan_failed(&msg);
                self.say(Level::Warn, msg.clone());
                // Said after: the edits lost are what matters most.
                self.outbox_store_failed(&msg);
                // A number asked of the store is asked of the service.
                match self.number_waiting() {
                    Some(n) => self.on_stored_number(n, true, None),
                    None => vec![],
                }
            }
        }
    }

    pub(crate) fn learn_stored(&mut self, id: &str, d: &StoredDetail) {
        let task = d.task.as_ref().and_then(from_stored);
        let mut k = self.local.known.remove(id).unwrap_or_default();
        if let (false, Some(t)) = (k.has_task(), task) {
            k.task = super::known::Newest::Here(Box::new(t));
        }
        for t in &d.tabs {
            match t.tab.as_str() {
                "comments" if k.comments.is_none() => {
                    k.comments = serde_json::from_str(&t.json).ok()
                }
                "thread" if k.thread.is_none() => k.thread = serde_json::from_str(&t.json).ok(),
                "subtasks" if k.subtasks.is_none() => k.subtasks = subtasks_from(&t.json),
                "sharing" if k.sharing.is_none() => k.sharing = serde_json::from_str(&t.json).ok(),
                _ => {}
            }
        }
        k.at =
            k.at.max(d.fetched_at)
                .max(d.tabs.iter().map(|t| t.fetched_at).max().unwrap_or(0));
        self.local.known.insert(id.to_string(), k);
    }

    /// The queued edits of another taskdeck (or another user) the store
    /// held at start, in words: said at start and above `:outbox`.
    pub(crate) fn outbox_elsewhere_words(&self) -> Option<String> {
        (self.local.outbox_elsewhere > 0).then(|| {
            format!(
                "{} in the store belong to another taskdeck running now (or another user): not sent from here",
                crate::domain::words::plural(self.local.outbox_elsewhere, "queued edit", "queued edits")
            )
        })
    }

    /// Before the first frame: the last view's rows and the last current
    /// task from the store, marked as cached; the directory, what was
    /// seen, the recent tasks and the outbox.
    pub fn apply_boot(&mut self, boot: Boot) {
        self.local.seen = boot.seen;
        self.local.recent = boot.recent;
        for e in &boot.directory {
            let first = e.tasks.first().map(String::as_str);
            if e.team {
                self.directory.learn_team(&e.id, &e.name, first);
            } else {
                self.directory.learn_person(&e.id, &e.name, &e.email, first);
            }
            for t in e.tasks.iter().skip(1) {
                self.directory.note_task(e.team, &e.id, t);
            }
        }
        self.local.dir_written = self.directory.changes;
        self.outbox_from_store(boot.outbox);
        self.local.outbox_elsewhere = boot.outbox_elsewhere;
        if let Some(words) = self.outbox_elsewhere_words() {
            self.say(Level::Info, words);
        }
        if let Some(v) = boot
            .view
            .as_deref()
            .and_then(|v| serde_json::from_str::<serde_json::Value>(v).ok())
        {
            if let Ok(f) = serde_json::from_value::<TaskQuery>(v["filters"].clone()) {
                self.filters = f;
            }
            self.search = v["search"].as_str().unwrap_or("").to_string();
            self.restore_view(v["view"].as_str());
            let words = v["words"].as_array().cloned().unwrap_or_default();
            for pair in &words {
                let word = pair[0].as_str();
                let at = pair[1].as_str().and_then(crate::api::parse_rfc3339);
                if let (Some(w), Some(at)) = (word, at) {
                    self.views.words.push(w.to_string());
                    self.views.words_at.push(at);
                }
            }
        }
        let rows: Vec<TaskItem> = boot
            .rows
            .iter()
            .filter_map(from_stored)
            .map(|t| TaskItem::Task(Box::new(t)))
            .collect();
        if !rows.is_empty() {
            self.list.items = rows;
            self.list.reindex();
            self.list.cached_at = Some(boot.rows_saved_at);
            self.list.end_reached = true;
        }
        if let Some(cur) = boot.current {
            let id = cur.task.as_ref().map(|t| t.id.clone()).unwrap_or_default();
            self.learn_stored(&id, &cur);
            let task = self.known_copy(&id).cloned();
            let mut d = Detail::new(id.clone(), task);
            if let Some(i) = self.list.position(&id) {
                d.origin = Origin::List;
                self.list.selected = i;
            }
            d.seen_before = self.local.seen.get(&id).cloned();
            self.detail = Some(d);
            self.fill_from_known();
        }
    }
}

impl State {
    /// Another user's store was open: its rows, marks, recent tasks and
    /// outbox go.
    pub fn forget_local(&mut self) {
        if self.list.cached_at.is_some() {
            self.list.items.clear();
            self.list.reindex();
            self.list.cached_at = None;
            self.list.selected = 0;
        }
        if self.detail.as_ref().is_some_and(|d| d.cached_at.is_some()) {
            self.detail = None;
        }
        let on = self.local.on;
        self.local = Local::default();
        self.local.on = on;
        self.outbox.clear();
        self.pending.retain(|p| p.ticket != 0);
        // A number asked of the other store is asked of this one.
        if let Some(number) = self.number_waiting() {
            self.local
                .store(crate::store::worker::StoreCmd::FindNumber {
                    number,
                    first: true,
                });
        }
    }
}

impl State {
    /// The store's matches for the search being typed: shown until the
    /// service's answer replaces them.
    pub(crate) fn on_local_search(&mut self, gen: u64, found: Vec<crate::store::Found>) {
        if gen != self.local.search_gen || self.search.trim().is_empty() {
            return;
        }
        // Where each was found, kept for the rows the service lists too.
        self.list.found = found
            .iter()
            .filter_map(|f| Some((f.task.id.clone(), found_words(f)?)))
            .collect();
        self.list.found_for = self.search.clone();
        let rows: Vec<&crate::store::StoredTask> = found.iter().map(|f| &f.task).collect();
        let l = &self.list;
        let waiting =
            l.local_search || l.items.is_empty() || self.search_due.is_some() || l.replacing;
        if !waiting {
            return;
        }
        // Rows the live filter kept from the screen come first; the store
        // adds the ones it knows beside them.
        let mut items: Vec<TaskItem> = match l.narrowed {
            Some(_) => l.items.clone(),
            None => Vec::new(),
        };
        let stored: Vec<TaskItem> = rows
            .iter()
            .filter_map(|s| super::cache::from_stored(s))
            .filter(|t| l.narrowed.is_none() || l.position(t.id.as_str()).is_none())
            .map(|t| TaskItem::Task(Box::new(t)))
            .collect();
        items.extend(stored);
        let gone = std::mem::replace(&mut self.list.items, items);
        self.list.reindex();
        self.rows_leave(gone);
        let l = &mut self.list;
        l.local_search = true;
        l.cached_at = None;
        l.selected = 0;
        l.offset = 0;
    }
}

/// Where a stored match was found, when the row does not show it (its
/// number, title and tags are on the row): `comment by Bob: "…memo…"`.
fn found_words(f: &crate::store::Found) -> Option<String> {
    use crate::store::Place;
    let h = f
        .hits
        .iter()
        .find(|h| !matches!(h.place, Place::Number | Place::Title | Place::Tags))?;
    Some(format!("{}: \"{}\"", h.place.words(), h.snippet))
}
