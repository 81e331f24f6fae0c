//! A queued or undone edit that met a change made on the service, field
//! by field, three ways: what you last saw, what you wanted, what the
//! service has now — keep mine or take theirs per field (`conflict`
//! context: `m` keeps mine, `t` takes theirs, `enter` applies, `esc` goes
//! back, nothing sent).

use crate::app::keymap::Action;
use crate::app::local::outbox::three::Three;

/// What the choice applies to.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ConflictOf {
    /// An outbox entry (its `seq`).
    Outbox(i64),
    /// An undo or redo prepared (the run's id).
    Run(u64),
}

#[derive(Clone, Debug, PartialEq)]
pub struct ConflictView {
    pub of: ConflictOf,
    pub label: String,
    pub rows: Vec<Three>,
    pub selected: usize,
    /// What else is true of the task on the service (#32 §12): archived,
    /// a draft, access lost — said above the fields.
    pub about: Vec<String>,
    /// The task is archived: sending asks first (`asked` once yes).
    pub archived: bool,
    pub asked: bool,
}

#[derive(Debug, PartialEq)]
pub enum ConflictOutcome {
    Stay,
    /// Back to the outbox, nothing sent.
    Back,
    Apply,
}

impl ConflictView {
    pub fn on_key(&mut self, action: Option<Action>) -> ConflictOutcome {
        let last = self.rows.len().saturating_sub(1);
        match action {
            Some(Action::Close) => ConflictOutcome::Back,
            Some(Action::Down) => {
                self.selected = (self.selected + 1).min(last);
                ConflictOutcome::Stay
            }
            Some(Action::Up) => {
                self.selected = self.selected.saturating_sub(1);
                ConflictOutcome::Stay
            }
            Some(Action::KeepMine) | Some(Action::TakeTheirs) => {
                if let Some(r) = self.rows.get_mut(self.selected) {
                    r.keep_mine = action == Some(Action::KeepMine);
                }
                self.selected = (self.selected + 1).min(last);
                ConflictOutcome::Stay
            }
            Some(Action::Toggle) => {
                if let Some(r) = self.rows.get_mut(self.selected) {
                    r.keep_mine = !r.keep_mine;
                }
                ConflictOutcome::Stay
            }
            Some(Action::Apply | Action::Choose | Action::Run) => ConflictOutcome::Apply,
            _ => ConflictOutcome::Stay,
        }
    }
}
