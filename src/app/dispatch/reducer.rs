//! Keys become commands and navigation; time passes.

use crate::api::*;
use crate::app::keymap::{Action, Context};
use crate::app::state::command::{Command, TextEdit};
use crate::app::state::{
    AfterWhole, ApiRequest, Effect, Focus, Level, Overlay, Pending, State, Tab,
};
use crossterm::event::KeyEvent;
use std::time::{Duration, Instant};

impl State {
    pub fn on_paste(&mut self, text: &str) {
        // Terminals send pasted newlines as CR: one line ending, LF.
        let text = text.replace("\r\n", "\n").replace('\r', "\n");
        match &mut self.overlay {
            Overlay::Compose(c) => c.paste(&text),
            Overlay::Palette(p) => p.input.insert_str(&one_line(&text)),
            Overlay::Search(b) => {
                b.input.insert_str(&one_line(&text));
                let b = std::mem::replace(&mut self.overlay, Overlay::None);
                if let Overlay::Search(mut b) = b {
                    self.search_typed(&mut b);
                    self.overlay = Overlay::Search(b);
                }
            }
            Overlay::Filter(f) => f.paste(&one_line(&text)),
            Overlay::Sharing(s) => s.paste(&one_line(&text)),
            // A picker narrows as by keys (the service is asked once
            // typing rests).
            Overlay::Chooser(c) => {
                c.typed.input.insert_str(&one_line(&text));
                let o = std::mem::replace(&mut self.overlay, Overlay::None);
                if let Overlay::Chooser(mut c) = o {
                    self.picker_typed(&mut c);
                    self.overlay = Overlay::Chooser(c);
                }
            }
            _ => {}
        }
    }

    /// The contexts whose bindings apply now, most specific first.
    pub fn key_contexts(&self) -> &'static [Context] {
        if self.board.is_some() {
            return &[
                Context::Board,
                Context::Task,
                Context::List,
                Context::Global,
            ];
        }
        match self.focus {
            Focus::List => &[Context::Task, Context::List, Context::Global],
            Focus::Detail => &[Context::Task, Context::Detail, Context::Global],
        }
    }

    /// A key pressed: what is said while it is handled answers it
    /// (`keying`, see `State::say_about`).
    pub fn on_key(&mut self, ev: KeyEvent) -> Vec<Effect> {
        self.keying = true;
        let fx = self.key_pressed(ev);
        self.keying = false;
        fx
    }

    fn key_pressed(&mut self, ev: KeyEvent) -> Vec<Effect> {
        // The first start's hint has done its work once a key is pressed.
        self.welcome = false;
        // Suspending works everywhere, popups and the composer included, as
        // ctrl-z does in any terminal program; what is open stays open.
        if self.keymap.lookup(&[Context::Global], &ev) == Some(Action::Suspend) {
            return vec![Effect::Suspend];
        }
        if !matches!(self.overlay, Overlay::None) {
            let mut fx = self.overlay_key(ev);
            if matches!(self.overlay, Overlay::None) {
                fx.extend(self.leave_deleted_detail());
            }
            return fx;
        }
        match self.keymap.lookup(self.key_contexts(), &ev) {
            Some(a) => self.act(a),
            // A view's or custom command's own key (config data).
            None => self.config_key(&ev),
        }
    }

    pub fn act(&mut self, a: Action) -> Vec<Effect> {
        if let Some(fx) = self.board_act(a) {
            return fx;
        }
        let c = match a {
            Action::Help => Command::Help,
            Action::Palette => return self.open_palette(""),
            Action::Quit => Command::Quit,
            Action::Suspend => return vec![Effect::Suspend],
            Action::Refresh => Command::Refresh,
            Action::Search => return self.open_search(),
            Action::Filter => return self.open_filter_form(),
            Action::FocusNext | Action::FocusPrev => return self.toggle_focus(),
            Action::Views => return self.open_switcher(),
            Action::Board => Command::Board,
            Action::ColumnLeft | Action::ColumnRight | Action::MoveLeft | Action::MoveRight => {
                self.say(
                    Level::Warn,
                    format!("{} works on the board only (b)", a.name()),
                );
                return vec![];
            }
            Action::MessageLog => Command::Log,
            Action::Drafts => Command::Drafts,
            Action::Down => return self.move_by(1),
            Action::Up => return self.move_by(-1),
            Action::HalfPageDown => return self.move_by(self.half_page()),
            Action::HalfPageUp => return self.move_by(-self.half_page()),
            Action::Top => return self.move_by(i64::MIN / 2),
            Action::Bottom => {
                if self.focus == Focus::List && !self.list.end_reached {
                    // The cursor follows the pages to come: every row it
                    // lands on until the end is passed, not opened.
                    self.settle.carried();
                }
                let fx = self.move_by(i64::MAX / 2);
                // Keep going to the bottom as the following pages arrive.
                self.list.to_bottom = self.focus == Focus::List && !self.list.end_reached;
                return fx;
            }
            Action::Open => return self.open(),
            Action::Back => return self.back(),
            Action::HistoryBack => Command::Back,
            Action::HistoryForward => Command::Forward,
            Action::Zoom => Command::Zoom,
            Action::ToggleMarkdown => Command::Raw,
            Action::PrevTab => return self.switch_tab(-1),
            Action::NextTab => return self.switch_tab(1),
            Action::SetStatus => return self.open_palette("status "),
            Action::SetPriority => return self.open_palette("priority "),
            Action::Assign => return self.open_palette("assign "),
            Action::SetDue => return self.open_palette("due "),
            Action::SetTags => {
                // Adding and removing is what one usually wants: `+new -old`.
                return self.open_palette("tags +");
            }
            Action::EditTitle => {
                if let Some(fx) = self.whole_first("title", AfterWhole::EditTitle) {
                    return fx.unwrap_or_else(|e| {
                        self.say(Level::Error, e);
                        vec![]
                    });
                }
                let title = self
                    .current_task()
                    .map(|t| t.title.line().into_owned())
                    .unwrap_or_default();
                return self.open_palette(&format!("title {title}"));
            }
            Action::EditDescription => Command::Description(TextEdit::Editor),
            Action::Comment => Command::Comment,
            Action::ReplyRequester => Command::Reply,
            Action::CopyDisplayId => Command::Copy { id: false },
            Action::CopyId => Command::Copy { id: true },
            Action::ArchiveToggle if !self.marks.is_empty() => self.marked_archive_command(),
            Action::ArchiveToggle => match self.current_task().map(|t| t.archived) {
                Some(true) => Command::Restore,
                Some(false) => Command::Archive,
                None => return self.no_task(),
            },
            Action::AcceptDraft => Command::Accept,
            Action::RejectDraft => Command::Reject,
            Action::NewSubtask => return self.open_palette("subtask "),
            Action::OpenParent => Command::Parent,
            Action::AddLink => return self.open_palette("link "),
            // A key acting on the selected link, with none selected (not
            // the Links tab, or no link there), says so at once rather than
            // opening a prompt that refuses whatever is typed.
            Action::ChangeRole | Action::EditCheckIds if self.selected_link().is_none() => {
                self.say(Level::Warn, crate::app::edit::links::NO_LINK);
                return vec![];
            }
            Action::ChangeRole => return self.open_palette("role "),
            Action::EditCheckIds => {
                let current = self
                    .selected_link()
                    .and_then(|l| l.context.as_ref())
                    .map(|c| {
                        c.check_ids
                            .iter()
                            .map(|i| i.raw().to_string())
                            .collect::<Vec<_>>()
                            .join(",")
                    });
                return self.open_palette(&format!("checks {}", current.unwrap_or_default()));
            }
            Action::ReplyComment => return self.compose_comment_action(false),
            Action::EditComment => return self.compose_comment_action(true),
            Action::Share => Command::Share,
            Action::Undo => Command::Undo,
            Action::Redo => Command::Redo,
            Action::ToggleMark => return self.toggle_mark(),
            Action::MarkRange => return self.mark_range(),
            Action::MarkAll => return self.mark_all(),
            Action::ClearMarks => return self.clear_marks(),
            Action::Attach => Command::AttachPick,
            Action::Inbox => Command::Inbox,
            Action::Snooze => return self.open_palette("snooze "),
            Action::FollowUp => return self.open_palette("follow-up "),
            // Popup actions: bound in popup contexts only; bound elsewhere
            // by a user, they do nothing.
            Action::Close
            | Action::Yes
            | Action::No
            | Action::Choose
            | Action::CancelItem
            | Action::Complete
            | Action::Run
            | Action::ClearArgument
            | Action::ToggleVisibility
            | Action::ToggleAccess
            | Action::AddPerson
            | Action::AddTeam
            | Action::RemoveEntry
            | Action::Review
            | Action::NextField
            | Action::PrevField
            | Action::Toggle
            | Action::PriorityPrev
            | Action::ClearFilters
            | Action::InboxDone
            | Action::InboxUndo
            | Action::InboxAll
            | Action::KeepMine
            | Action::TakeTheirs
            | Action::Apply => {
                self.say(Level::Warn, format!("{} works in a popup only", a.name()));
                return vec![];
            }
            Action::RemoveItem => match self.detail.as_ref().map(|d| d.tab) {
                Some(Tab::Links) => Command::Unlink,
                Some(Tab::Files) => Command::Detach,
                _ => {
                    self.say(
                        Level::Warn,
                        "select a link (Links tab) or a file (Files tab) to remove",
                    );
                    return vec![];
                }
            },
        };
        self.run_or_say(c)
    }

    fn half_page(&self) -> i64 {
        let h = match self.focus {
            Focus::List => self.list_height,
            Focus::Detail => self.detail_view.0,
        };
        (h / 2).max(1) as i64
    }

    pub fn no_task(&mut self) -> Vec<Effect> {
        let why = self.no_task_reason();
        self.say(Level::Warn, why);
        vec![]
    }

    /// People as completed: `Name <e-mail>` (folded already).
    pub fn people_labels(&self) -> Vec<crate::domain::names::Label> {
        self.directory
            .person_labels()
            .into_iter()
            .cloned()
            .collect()
    }

    /// A PATCH of task `id`; `field` shows `shown` as pending until answered.
    pub fn patch_task(
        &mut self,
        id: String,
        field: &str,
        shown: String,
        patch: TaskPatch,
    ) -> Effect {
        let fx = self.request(ApiRequest::Patch {
            id: id.clone(),
            patch,
        });
        if let Effect::Api { ticket, .. } = &fx {
            self.pending.push(Pending {
                ticket: *ticket,
                task_id: id,
                field: field.to_string(),
                value: shown,
            });
        }
        fx
    }

    /// Time-based work: debounced search, periodic refresh, spinners.
    pub fn on_tick(&mut self, now: Instant) -> (Vec<Effect>, bool) {
        let mut fx = self.settle_tick(now);
        // Typing in `:link task` rested: the service is asked.
        fx.extend(self.link_picker_tick(now));
        let mut dirty = !fx.is_empty();
        if self.search_due.is_some_and(|t| now >= t) {
            self.search_due = None;
            fx.extend(self.reload_list(false));
            dirty = true;
        }
        if let Some(every) = self.refresh_every {
            if now.duration_since(self.last_refresh) >= every
                && matches!(self.overlay, Overlay::None)
                && !self.list.loading
                && self.offline.is_none()
            {
                fx.extend(self.periodic_refresh(now));
            }
        }
        // Accessible mode has no spinner: a still word.
        if !self.inflight.is_empty() && !self.accessible {
            self.spinner = self.spinner.wrapping_add(1);
            dirty = true;
        }
        if self.offline.is_some() {
            fx.extend(self.offline_tick(now));
            // The header counts down to the next try (not in accessible
            // mode: no clock).
            dirty |= !self.accessible;
        }
        // Accessible mode: a message stays until the next one.
        if let Some((_, _, at)) = self.status.as_ref().filter(|_| !self.accessible) {
            if now.duration_since(*at) > Duration::from_secs(10) {
                self.status = None;
                self.status_about = None;
                dirty = true;
            }
        }
        let dirty = dirty || !fx.is_empty();
        (fx, dirty)
    }
}

/// Pasted text for a one-line input: line breaks become spaces.
fn one_line(text: &str) -> String {
    text.replace('\n', " ")
}
