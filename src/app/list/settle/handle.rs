//! What the state does for `settle` (its `impl State`): above the state,
//! which holds the data of `super` and never this module.

use crate::app::state::requests::{ApiRequest, Effect};
use crate::app::state::State;
use std::time::Instant;

impl State {
    /// Time passes: a move is dated; a cursor still for [`SETTLE`] rests,
    /// and the task it passed onto is read and opened.
    pub(crate) fn settle_tick(&mut self, now: Instant) -> Vec<Effect> {
        if std::mem::take(&mut self.settle.moved) {
            self.settle.since = Some(now);
            return vec![];
        }
        if self.settle.due().is_none_or(|due| now < due) {
            return vec![];
        }
        // `G` follows a page still on its way: the cursor is carried, not
        // resting, however slow the page (each slow page read one row's
        // details in passing, issue 42 §2). It rests once the page is in
        // (`carried` dates that move) or failed (no longer loading).
        if self.settle.passing && self.list.to_bottom && self.list.loading {
            return vec![];
        }
        self.settle.since = None;
        if !std::mem::take(&mut self.settle.passing) {
            return vec![];
        }
        self.open_passed()
    }

    /// The current task became current in passing: read it and count it
    /// as opened and seen now (the user rests on it, or pressed Enter).
    pub fn open_passed(&mut self) -> Vec<Effect> {
        let Some(d) = self.detail.as_mut().filter(|d| d.passing) else {
            return vec![];
        };
        d.passing = false;
        // Read ahead of it as well: the cursor stays on this task.
        self.settle.passing = false;
        let (id, tab) = (d.task_id.clone(), d.tab);
        // Read ahead while it was passed: what arrived is shown.
        self.fill_from_known();
        self.look_at_current();
        let mut fx = Vec::new();
        let known = self.detail.as_ref().is_some_and(|d| d.task.is_some());
        if !known && uuid::Uuid::parse_str(&id).is_ok() {
            fx.push(self.request(ApiRequest::GetTask { id }));
        }
        fx.extend(self.load_tab(tab));
        fx
    }
}
