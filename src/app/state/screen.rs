//! What the screen holds around the panes: where the focus is, the popup
//! over them (`Overlay`) and what `y` confirms there, the messages and how
//! loud they are, the marks of field edits in flight. Data only: `State`
//! (`mod.rs`) holds these, the handlers change them.

use super::input::LineInput;
use super::panes::SearchBox;
use crate::api::*;
use crate::app::state::composer::Compose;
use jiff::Timestamp;

/// The messages kept (`ctrl-l`).
pub const MAX_MESSAGES: usize = 200;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Focus {
    List,
    Detail,
}

/// What a mouse click can land on. The drawing records where it drew
/// each (`ui::Metrics::hits`); the mouse handler looks the click up there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hit {
    /// A list row or a board card: the list's row `i`.
    ListRow(usize),
    /// The detail's tab `i` (`Tab::ALL`).
    DetailTab(usize),
    /// The views' tab `i`: 0 the inbox, then the views in order.
    ViewTab(usize),
    /// A pane: a click focuses it.
    Pane(Focus),
    /// Row `i` of the open popup (an inbox item, a picker's candidate).
    Row(usize),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Level {
    Info,
    Success,
    Warn,
    Error,
}

#[derive(Clone, Debug)]
pub struct Message {
    pub at: Timestamp,
    pub level: Level,
    pub text: String,
}

/// What a confirmation does when accepted.
#[derive(Clone, Debug, PartialEq)]
pub enum Confirmed {
    RejectDraft {
        id: String,
    },
    RemoveLink {
        id: String,
        kind: LinkType,
        item: String,
    },
    Detach {
        id: String,
        file_id: String,
    },
    PutSharing {
        id: String,
        update: SharingUpdate,
    },
    /// Start the bulk run (edit, undo or redo) prepared with this id.
    Run(u64),
    /// Send what a conflict view keeps (asked: the task is archived).
    Conflict(Box<crate::app::popups::conflict::ConflictView>),
    Quit,
}

pub enum Overlay {
    None,
    Help {
        filter: LineInput,
        scroll: u16,
    },
    Palette(crate::app::popups::palette::Palette),
    Search(Box<SearchBox>),
    Confirm {
        lines: Vec<String>,
        on_yes: Confirmed,
        /// Where `n` returns to (the sharing editor, with its edits).
        back_to: Option<Box<Overlay>>,
        /// The first line shown when the lines are taller than the
        /// popup (a macro's review of 100 tasks); scrolled as `Text` is.
        scroll: u16,
    },
    Compose(Box<Compose>),
    Text {
        title: String,
        lines: Vec<String>,
        scroll: u16,
    },
    Picker(crate::app::popups::sharing::Picker),
    Sharing(Box<crate::app::popups::sharing::SharingEditor>),
    Filter(Box<crate::app::popups::filter_form::FilterForm>),
    /// `:recent`, `:changed`, `:outbox`.
    Chooser(crate::app::popups::chooser::Chooser),
    /// The view switcher, with counts.
    Views(crate::app::popups::switcher::Switcher),
    /// The inbox (`i`).
    Inbox(crate::app::popups::inbox::InboxList),
    /// A queued edit three ways: saw, mine, theirs (`:outbox`, enter).
    Conflict(crate::app::popups::conflict::ConflictView),
}

/// What closes when the key acts as another user (`Overlay::last_users`).
const COMPOSER_CLOSED: &str = "the composer closed";
const SHARING_CLOSED: &str = "the sharing editor closed, its changes not sent";
const SEARCH_CLOSED: &str = "the search closed (the list it would put back was the last user's)";
const PICKER_CLOSED: &str =
    "the picker closed, nothing done (it was opened on the last user's task)";
const CONFIRM_CLOSED: &str =
    "the confirmation closed, nothing sent (it was asked on the last user's screen)";
const LIST_CLOSED: &str = "the list closed (it was the last user's)";
const INBOX_CLOSED: &str = "the inbox closed (it was the last user's)";
const CONFLICT_CLOSED: &str =
    "the side-by-side view closed, nothing sent (its edit is the last user's)";

impl Overlay {
    /// Whether this popup holds the last user's data when the key comes
    /// to act as someone else (the store switched, issue 42 §1): `Some`,
    /// it closes, said in these words — it shows that user's rows, inbox,
    /// outbox or drafts, or would send what was chosen on their screen
    /// as the new user; `None`, it holds nothing of theirs (help, the
    /// palette, a text, the filter form, the view switcher, the quit
    /// question) and stays. The composer's text is kept as its typist's
    /// draft (`State::park_popups_of`).
    pub fn last_users(&self) -> Option<&'static str> {
        match self {
            Overlay::None
            | Overlay::Help { .. }
            | Overlay::Palette(_)
            | Overlay::Text { .. }
            | Overlay::Filter(_)
            | Overlay::Views(_)
            | Overlay::Confirm {
                on_yes: Confirmed::Quit,
                ..
            } => None,
            Overlay::Search(_) => Some(SEARCH_CLOSED),
            Overlay::Compose(_) => Some(COMPOSER_CLOSED),
            Overlay::Sharing(_) => Some(SHARING_CLOSED),
            // A confirmation or a picker that returns to the editor.
            _ if self.bound_task().is_some() => Some(SHARING_CLOSED),
            Overlay::Picker(_) => Some(PICKER_CLOSED),
            Overlay::Confirm { .. } => Some(CONFIRM_CLOSED),
            Overlay::Chooser(_) => Some(LIST_CLOSED),
            Overlay::Inbox(_) => Some(INBOX_CLOSED),
            Overlay::Conflict(_) => Some(CONFLICT_CLOSED),
        }
    }

    /// The task a composer or the sharing editor acts on, when this
    /// popup is one or returns to one (a confirmation's `n`, a name
    /// picker's choice): rows arriving meanwhile must not move the detail
    /// from under it (`freshness::after_list_change`).
    pub fn bound_task(&self) -> Option<&str> {
        use crate::app::popups::sharing::PickThen;
        match self {
            Overlay::Compose(c) => Some(&c.task_id),
            Overlay::Sharing(e) => Some(&e.task_id),
            Overlay::Confirm {
                back_to: Some(b), ..
            } => b.bound_task(),
            Overlay::Picker(p) => match &p.then {
                PickThen::Editor { editor, .. } => Some(&editor.task_id),
                PickThen::PutSharing { task_id, .. } => Some(task_id),
                PickThen::Command { .. } => None,
            },
            _ => None,
        }
    }
}

/// A field edit in flight: shown as a pending mark until answered.
#[derive(Clone, Debug)]
pub struct Pending {
    pub ticket: u64,
    pub task_id: String,
    pub field: String,
    pub value: String,
}

impl Pending {
    /// A pending edit as the outbox says it while it waits:
    /// `due → Fri 28 Nov 17:00`, `archived`, `priority → high`; what is not
    /// a task field (links, files, sharing) as `field → value`.
    pub fn words(&self) -> String {
        use crate::domain::task_field::TaskField;
        match TaskField::from_wire(&self.field) {
            Some(f @ (TaskField::Archived | TaskField::Draft)) => f.done_words(&self.value),
            Some(f) => format!("{} → {}", f.label(), f.shown(&self.value)),
            None => format!("{} → {}", self.field.replace('_', " "), self.value),
        }
    }

    /// What the edit did once confirmed (`:recent`, the message that says
    /// it was sent): `due → Fri 28 Nov 17:00`, `unassigned`, `archived`.
    pub fn done_words(&self) -> String {
        use crate::domain::task_field::TaskField;
        let v = crate::text::clean(&self.value);
        match TaskField::from_wire(&self.field) {
            Some(f) => f.done_words(&v),
            // Not a field of the task: links, files, sharing.
            None if v == "none" => format!("{} cleared", self.field.replace('_', " ")),
            None => format!("{} → {v}", self.field.replace('_', " ")),
        }
    }

    /// What is being changed, without the value: `due`, `priority`.
    pub fn name(&self) -> String {
        use crate::domain::task_field::TaskField;
        TaskField::from_wire(&self.field)
            .map(|f| f.label().to_string())
            .unwrap_or_else(|| self.field.replace('_', " "))
    }
}
