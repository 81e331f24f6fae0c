//! Confirmations: `y` does it, `n`/Esc cancels (and returns to the editor
//! the question came from, with its edits, or to `:drafts`); one taller
//! than the screen scrolls with the `[view]` keys and the wheel.

use crate::app::keymap::{Action, Context};
use crate::app::state::{ApiRequest, Confirmed, Effect, Level, Overlay, State};
use crossterm::event::KeyEvent;

impl State {
    pub fn confirm(&mut self, lines: Vec<String>, on_yes: Confirmed) -> Vec<Effect> {
        self.overlay = Overlay::Confirm {
            lines,
            on_yes,
            back_to: None,
            scroll: 0,
        };
        vec![]
    }

    pub(super) fn confirm_key(
        &mut self,
        lines: Vec<String>,
        on_yes: Confirmed,
        back_to: Option<Box<Overlay>>,
        mut scroll: u16,
        ev: KeyEvent,
    ) -> Vec<Effect> {
        match self.keymap.lookup(&[Context::Confirm], &ev) {
            Some(Action::Yes) => {
                // `:drafts` stays open on the next draft.
                let rejected = match &on_yes {
                    Confirmed::RejectDraft { id } => Some(id.clone()),
                    _ => None,
                };
                let fx = self.confirmed(on_yes);
                let back_to = match (rejected, back_to) {
                    (Some(id), Some(b)) if matches!(*b, Overlay::Chooser(_)) => {
                        if let Overlay::Chooser(mut c) = *b {
                            c.remove(&id);
                            self.overlay = Overlay::Chooser(c);
                        }
                        return fx;
                    }
                    (_, b) => b,
                };
                // The editor's copy waits for the answer: a refused save
                // brings it back with its edits.
                if let (Some(b), Some(Effect::Api { ticket, req })) = (back_to, fx.first()) {
                    if let (Overlay::Sharing(ed), ApiRequest::PutSharing { .. }) = (*b, &**req) {
                        self.sharing_sent = Some((*ticket, ed));
                    }
                }
                fx
            }
            Some(Action::No | Action::Close) => {
                match back_to {
                    Some(b) if matches!(*b, Overlay::Chooser(_)) => {
                        self.overlay = *b;
                        self.say(Level::Info, "cancelled: nothing rejected");
                    }
                    Some(b) => {
                        self.overlay = *b;
                        self.say(Level::Info, "not saved: back to the editor");
                    }
                    None => self.say(Level::Info, "cancelled"),
                }
                vec![]
            }
            _ => {
                // A question taller than the screen (a macro's review)
                // scrolls with the text overlay's keys and the wheel.
                let action = self.keymap.lookup(&[Context::View], &ev);
                if let Some(to) = super::text::scrolled(action, scroll, lines.len()) {
                    scroll = to;
                }
                self.overlay = Overlay::Confirm {
                    lines,
                    on_yes,
                    back_to,
                    scroll,
                };
                vec![]
            }
        }
    }

    fn confirmed(&mut self, c: Confirmed) -> Vec<Effect> {
        let req = match c {
            Confirmed::RejectDraft { id } => ApiRequest::Delete { id },
            Confirmed::RemoveLink { id, kind, item } => ApiRequest::RemoveLink { id, kind, item },
            Confirmed::Detach { id, file_id } => ApiRequest::Detach { id, file_id },
            Confirmed::PutSharing { id, update } => ApiRequest::PutSharing { id, update },
            Confirmed::Run(id) => return self.start_run(id),
            Confirmed::Conflict(v) => {
                return self.conflict_outcome(*v, super::conflict::ConflictOutcome::Apply)
            }
            Confirmed::Quit => {
                self.quit = true;
                return vec![Effect::Quit];
            }
        };
        vec![self.request(req)]
    }
}
