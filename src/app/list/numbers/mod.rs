//! Opening a task by its number (`:open #N`) and the number index behind
//! it.
//!
//! - A row of the list opens at once (`dispatch/commands.rs`).
//! - Else the detail shows `#N (looking for it…)` at once — no action can
//!   land on the task current before — and what memory or the store's
//!   number index knows opens by id: the same path as `:open UUID`, one
//!   round trip, with what is stored of the task shown meanwhile. The
//!   service's answer for that id is checked: a task that no longer has
//!   that number (renumbered, or gone: 404) sends the search below.
//! - Else the service is searched and its list walked
//!   (`worker::find_by_number`).
//!
//! Every row any answer carries (list pages, searches, views, subtasks,
//! that walk, single tasks) is recorded in the index.

use crate::api::*;
use crate::store::Numbered;

mod handle;

/// `:open #N` opened `#N` through the index: checked against the
/// service's answer for the task; shown in the detail's title while the
/// task loads.
#[derive(Clone, Debug, PartialEq)]
pub struct ByNumber {
    pub number: i64,
    /// The task's `display_id` and title as last seen.
    pub label: String,
    pub title: String,
}

/// Whether `t` is `#number` (its number, or its display id).
pub fn has_number(t: &Task, number: i64) -> bool {
    t.task_number == Some(number) || t.display_id.raw() == format!("#{number}")
}

/// A task as the number index keeps it (`None`: it has no number).
pub fn numbered(t: &Task) -> Option<Numbered> {
    let number = t
        .task_number
        .or_else(|| t.display_id.raw().strip_prefix('#')?.parse().ok())?;
    let label = t.display_id.raw();
    Some(Numbered {
        number,
        display_id: if label.is_empty() {
            format!("#{number}")
        } else {
            label.to_string()
        },
        id: t.id.as_str().to_string(),
        title: t.title.raw().to_string(),
    })
}

/// The search and the walk did not find `#number`.
pub fn not_listed(number: i64) -> ApiError {
    ApiError::NotFound {
        what: format!("task #{number}"),
        message: "not among the tasks you can see in lists (archived and draft tasks open by id: :open UUID)".into(),
    }
}
