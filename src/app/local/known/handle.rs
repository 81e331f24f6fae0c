//! What the state does for `known` (its `impl State`): above the state,
//! which holds the data of `super` and never this module.

use super::*;
use crate::app::state::State;

impl State {
    /// The newest copy of task `id` known in memory: kept, or its row in
    /// the list.
    pub fn known_copy(&self, id: &str) -> Option<&Task> {
        match &self.local.known.get(id)?.task {
            Newest::Unknown => None,
            Newest::Here(t) => Some(t),
            Newest::Row(_) => self
                .list
                .position(id)
                .and_then(|i| self.list.items[i].task()),
        }
    }

    /// Rows leave the list: a task whose newest copy known was its row
    /// keeps it here (moved, not copied).
    pub(crate) fn rows_leave(&mut self, rows: impl IntoIterator<Item = TaskItem>) {
        for item in rows {
            let TaskItem::Task(t) = item else { continue };
            if let Some(k) = self.local.known.get_mut(t.id.as_str()) {
                if matches!(&k.task, Newest::Row(v) if v.as_deref() == t.updated_at.as_deref()) {
                    k.task = Newest::Here(t);
                }
            }
        }
    }
}
