//! The inbox popup (`i`, `:inbox`): one row per task that needs the user,
//! with why. Keys of the `inbox` context: move, `enter` opens the task at
//! the place that matters (and marks it read), `d` marks it done without
//! opening, `u` brings back the last done, `a` shows read items too,
//! `s` snoozes, `f` sets a follow-up, `r` walks now.

use crate::app::keymap::Action;

#[derive(Clone, Debug, Default, PartialEq)]
pub struct InboxList {
    pub selected: usize,
    /// The first row the last frame showed: the window moves only when
    /// the selection leaves it (a click must not slide the rows).
    pub offset: usize,
}

#[derive(Debug, PartialEq)]
pub enum InboxOutcome {
    Stay,
    Close,
    /// Open the highlighted task (row index).
    Open(usize),
    Done(usize),
    Undo,
    ToggleAll,
    Snooze(usize),
    FollowUp(usize),
    Refresh,
}

impl InboxList {
    pub fn on_key(&mut self, action: Option<Action>, rows: usize) -> InboxOutcome {
        let last = rows.saturating_sub(1);
        let at = |o: fn(usize) -> InboxOutcome, sel: usize| {
            if rows == 0 {
                InboxOutcome::Stay
            } else {
                o(sel)
            }
        };
        match action {
            Some(Action::Close | Action::Back) => InboxOutcome::Close,
            Some(Action::Down) => {
                self.selected = (self.selected + 1).min(last);
                InboxOutcome::Stay
            }
            Some(Action::Up) => {
                self.selected = self.selected.saturating_sub(1);
                InboxOutcome::Stay
            }
            Some(Action::Top) => {
                self.selected = 0;
                InboxOutcome::Stay
            }
            Some(Action::Bottom) => {
                self.selected = last;
                InboxOutcome::Stay
            }
            Some(Action::Choose | Action::Open) => at(InboxOutcome::Open, self.selected),
            Some(Action::InboxDone) => at(InboxOutcome::Done, self.selected),
            Some(Action::InboxUndo) => InboxOutcome::Undo,
            Some(Action::InboxAll) => InboxOutcome::ToggleAll,
            Some(Action::Snooze) => at(InboxOutcome::Snooze, self.selected),
            Some(Action::FollowUp) => at(InboxOutcome::FollowUp, self.selected),
            Some(Action::Refresh) => InboxOutcome::Refresh,
            _ => InboxOutcome::Stay,
        }
    }
}
