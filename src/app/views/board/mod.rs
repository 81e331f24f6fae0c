//! The board (`:board`, `b`): the current view's loaded tasks in one column
//! per status — the API's four in their order, then any other status a
//! task has, in its own column. The card under the cursor is the current
//! task, so every task key (and custom command) acts on it; `H`/`L` move it
//! to the neighbouring status with the same PATCH as `:status` (pending
//! mark, the service's answer, one staleness rule).

use crate::api::{Status, TaskItem};

mod handle;

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Board {
    /// The column the cursor is in while the current task is not on the
    /// board (opened from elsewhere, or not loaded).
    pub col: usize,
    /// The first column the last frame showed, when not all fit: the
    /// window moves only when the cursor's column leaves it (a click on a
    /// shown column must not slide the columns under the pointer).
    pub first: usize,
    /// Each column's first shown card, likewise: a click on a shown card
    /// of a scrolled column leaves the cards where they are.
    pub offsets: Vec<usize>,
}

/// The columns: the API's statuses in order, then the others the loaded
/// tasks have, in the order first seen.
pub fn columns(items: &[TaskItem]) -> Vec<Status> {
    let mut cols: Vec<Status> = Status::KNOWN.to_vec();
    for t in items.iter().filter_map(TaskItem::task) {
        if !cols.contains(&t.status) {
            cols.push(t.status.clone());
        }
    }
    cols
}

/// Each column's cards, as indices into the list's rows (list order).
pub fn cards(items: &[TaskItem], cols: &[Status]) -> Vec<Vec<usize>> {
    let mut out = vec![Vec::new(); cols.len()];
    for (i, t) in items.iter().enumerate() {
        if let Some(t) = t.task() {
            if let Some(c) = cols.iter().position(|s| *s == t.status) {
                out[c].push(i);
            }
        }
    }
    out
}
