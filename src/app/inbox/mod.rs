//! The inbox in the TUI: what the inbox task (`crate::inbox::link`) last
//! sent, the popup's outcomes, `:snooze`, `:follow-up` and `:snoozed`.
//! Everything that changes the inbox travels as `Effect::Inbox`; the
//! answer is the inbox as it then stands (`on_inbox`).

use crate::inbox::InboxUpdate;

mod handle;

/// The inbox as last sent: the update itself (`last`, its `read` taken
/// into `done`), and what the TUI adds to it.
#[derive(Clone, Debug, Default)]
pub struct InboxView {
    /// An inbox runs (the service named the user, the store is on); else
    /// why not.
    pub running: bool,
    pub off: Option<String>,
    /// The rows, unread tasks (the header counts them, the list marks
    /// them), marks, the last walk and whether read items are shown.
    pub last: InboxUpdate,
    /// What `d` and opening marked read, last first (`u` brings back).
    pub done: Vec<(String, Vec<String>)>,
    /// An update came at least once.
    pub loaded: bool,
    /// It walks by itself (`inbox_refresh_secs` > 0); else when asked.
    pub periodic: bool,
    /// The items already seen: what is new is told once
    /// (`crate::inbox::notify`).
    pub watch: crate::inbox::Watch,
}

impl InboxView {
    pub fn count(&self) -> usize {
        self.last.unread.len()
    }
}
