//! A conflict's rows: a leaf, so that the outbox (which names the
//! state's messages) and the conflict popup (which the state's overlay
//! names) share it without a cycle.

use crate::domain::task_field::TaskField;

/// One field of an edit that met a change on the service, three ways: a
/// row of the conflict popup (`popups/conflict.rs`), for a queued edit or
/// an undo.
#[derive(Clone, Debug, PartialEq)]
pub struct Three {
    /// The field (the PATCH's own key is its wire name).
    pub key: TaskField,
    /// In words, for the rows.
    pub field: String,
    pub saw: String,
    pub mine: String,
    pub theirs: String,
    /// Keep mine (else take theirs).
    pub keep_mine: bool,
    /// An undo or redo: the job and the change of the run it is.
    pub at: Option<(usize, usize)>,
}
