//! What the state does for `prefetch` (its `impl State`): above the state,
//! which holds the data of `super` and never this module.

use super::*;
use crate::app::state::{ApiRequest, ApiResult, Effect, Load, Reply, State, Tab};
use std::time::Instant;

impl State {
    /// The tasks whose detail is read ahead, nearest first: the current
    /// task, then the rows after the cursor and before it.
    pub fn prefetch_window(&self) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        let mut add = |id: Option<&str>| {
            if let Some(id) = id {
                if uuid::Uuid::parse_str(id).is_ok() && !out.iter().any(|x| x == id) {
                    out.push(id.to_string());
                }
            }
        };
        add(self.detail.as_ref().map(|d| d.task_id.as_str()));
        let sel = self.list.selected;
        let row = |i: usize| self.list.items.get(i).and_then(TaskItem::id);
        for step in 1..=AHEAD.max(BEHIND) {
            if step <= AHEAD {
                add(row(sel + step));
            }
            if step <= BEHIND && sel >= step {
                add(row(sel - step));
            }
        }
        out
    }

    /// The tabs read ahead for a task: the full task, comments, the
    /// requester thread (where the service lists it), subtasks; sharing
    /// when that tab is open or next.
    fn prefetch_tabs(&self) -> Vec<&'static str> {
        let mut tabs = vec!["task"];
        if !self.prefetch.no_comments {
            tabs.push("comments");
        }
        if !self.prefetch.no_thread {
            tabs.push("thread");
        }
        tabs.push("subtasks");
        if matches!(
            self.detail.as_ref().map(|d| d.tab),
            Some(Tab::Sharing | Tab::Links)
        ) {
            tabs.push("sharing");
        }
        tabs
    }

    /// What the current task's detail already has or is getting from the
    /// user's own requests (nothing to read ahead for it).
    fn current_has(&self, tab: &str) -> bool {
        let Some(d) = &self.detail else { return false };
        let waits_or_loaded = |l: bool, name: &str| l && !d.stale.contains(name);
        match tab {
            // Asked by the user (`show` when it was unknown, the
            // Requester tab).
            "task" => {
                d.task.is_none()
                    || self
                        .inflight
                        .values()
                        .any(|(what, _)| what == "loading task")
            }
            "comments" => waits_or_loaded(!matches!(d.comments, Load::NotLoaded), "comments"),
            "thread" => waits_or_loaded(!matches!(d.thread, Load::NotLoaded), "thread"),
            "subtasks" => waits_or_loaded(!matches!(d.subtasks, Load::NotLoaded), "subtasks"),
            "sharing" => waits_or_loaded(!matches!(d.sharing, Load::NotLoaded), "sharing"),
            _ => true,
        }
    }

    /// Plan prefetches: cancel those whose task left the window, then read
    /// what the window lacks, nearest first. Called by the loop after
    /// every batch (navigation, answers, ticks).
    pub fn plan_prefetch(&mut self) -> Vec<Effect> {
        self.plan_prefetch_at(crate::clock::instant())
    }

    /// [`State::plan_prefetch`] at `now` (the loop's clock; tests pass
    /// their own).
    pub fn plan_prefetch_at(&mut self, now: Instant) -> Vec<Effect> {
        let gen = self.local.gen;
        // Failures answered since the last plan are dated now; those of an
        // earlier refresh generation are forgotten (a refresh asks again).
        self.prefetch.failed.retain(|_, f| f.gen == gen);
        for f in self.prefetch.failed.values_mut() {
            f.at.get_or_insert(now);
        }
        // Back on a task that answered 404: the detail says so again,
        // without asking.
        if let Some(d) = self.detail.as_mut().filter(|d| d.error.is_none()) {
            let key = (d.task_id.clone(), "task");
            if self.prefetch.failed.get(&key).is_some_and(|f| f.gone) {
                d.error = Some(crate::domain::words::GONE.into());
            }
        }
        let mut fx = Vec::new();
        if !self.prefetch.on || self.offline.is_some() {
            return self.cancel_prefetches(|_| true);
        }
        let window = self.prefetch_window();
        fx.extend(self.cancel_prefetches(|id| !window.iter().any(|w| w == id)));
        // Rows passed in transit are read once the cursor rests on one.
        if self.settle.passing {
            return fx;
        }
        // The user's reads go first: neighbours wait until they are answered.
        let user_busy = !self.inflight.is_empty();
        let current = self.detail.as_ref().map(|d| d.task_id.clone());
        let tabs = self.prefetch_tabs();
        for id in &window {
            let is_current = current.as_deref() == Some(id.as_str());
            if !is_current && (user_busy || self.prefetch.inflight.len() >= BUDGET) {
                break;
            }
            for &tab in &tabs {
                if self.prefetch.has(id, tab)
                    || self.local.known.get(id).is_some_and(|k| k.fresh(tab, gen))
                    || self
                        .prefetch
                        .failed
                        .get(&(id.clone(), tab))
                        .is_some_and(|f| !f.due(now, gen))
                    || (is_current && self.current_has(tab))
                {
                    continue;
                }
                if !is_current && self.prefetch.inflight.len() >= BUDGET {
                    break;
                }
                let ticket = self.next_ticket;
                self.next_ticket += 1;
                self.prefetch.inflight.insert(ticket, (id.clone(), tab));
                fx.push(Effect::Api {
                    ticket,
                    req: Box::new(ApiRequest::Prefetch(Box::new(read_for(id, tab)))),
                });
            }
        }
        fx
    }

    /// Keep track of a read that failed (to wait before asking again) or
    /// succeeded (the wait is over).
    pub(crate) fn note_read(&mut self, req: &ApiRequest, result: &Result<Reply, ApiError>) {
        let Some((id, tab)) = tab_of(req) else { return };
        let key = (id.to_string(), tab);
        match result {
            Ok(_) => {
                self.prefetch.failed.remove(&key);
            }
            // Known already: that tab is not asked for this session.
            Err(ApiError::NotAvailable { .. }) => {}
            Err(e) => {
                let gen = self.local.gen;
                let f = self.prefetch.failed.entry(key).or_insert(Failed {
                    times: 0,
                    gone: false,
                    at: None,
                    gen,
                });
                f.times += 1;
                f.gone = matches!(
                    e,
                    ApiError::NotFound { .. } | ApiError::FeatureDisabled { .. }
                );
                f.at = None;
                f.gen = gen;
            }
        }
    }

    /// Cancel the prefetches in flight whose task `gone` says.
    pub(crate) fn cancel_prefetches(&mut self, gone: impl Fn(&str) -> bool) -> Vec<Effect> {
        let mut tickets: Vec<u64> = self
            .prefetch
            .inflight
            .iter()
            .filter(|(_, (id, _))| gone(id))
            .map(|(t, _)| *t)
            .collect();
        tickets.sort_unstable();
        for t in &tickets {
            self.prefetch.inflight.remove(t);
        }
        tickets
            .into_iter()
            .map(|ticket| Effect::Cancel { ticket })
            .collect()
    }

    /// A prefetch answered: what it says is known (memory, the store); the
    /// screen changes only if its task is current and the tab still waits
    /// for it (then it is applied as the user's own answer would be).
    pub(crate) fn on_prefetched(
        &mut self,
        ticket: u64,
        inner: ApiRequest,
        result: Result<Reply, ApiError>,
    ) -> Vec<Effect> {
        // Gone already if it was cancelled (or a refresh started): what it
        // says is still true of that version, so it is kept all the same.
        self.prefetch.inflight.remove(&ticket);
        match (&inner, &result) {
            (ApiRequest::Comments { .. }, Err(ApiError::NotAvailable { .. })) => {
                self.prefetch.no_comments = true
            }
            (ApiRequest::Thread { .. }, Err(ApiError::NotAvailable { .. })) => {
                self.prefetch.no_thread = true
            }
            _ => {}
        }
        let r = ApiResult {
            ticket,
            req: inner,
            result,
        };
        let waits = tab_of(&r.req).is_some_and(|(id, tab)| {
            let Some(d) = self.detail.as_ref().filter(|d| d.task_id == id) else {
                return false;
            };
            let open = |l: bool| l || d.stale.contains(tab);
            match tab {
                "task" => true,
                "comments" => open(!matches!(d.comments, Load::Loaded(_))),
                "thread" => open(!matches!(d.thread, Load::Loaded(_))),
                "subtasks" => open(!matches!(d.subtasks, Load::Loaded(_))),
                _ => open(!matches!(d.sharing, Load::Loaded(_))),
            }
        });
        if waits {
            return self.on_api(r);
        }
        let fx = self.connectivity(&r);
        self.note_read(&r.req, &r.result);
        if r.result.is_ok() {
            self.record(&r);
        }
        fx
    }
}
