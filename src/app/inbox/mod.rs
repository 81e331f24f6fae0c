//! The inbox in the TUI: what the inbox task (`crate::inbox::link`) last
//! sent, the popup's outcomes, `:snooze`, `:follow-up` and `:snoozed`.
//! Everything that changes the inbox travels as `Effect::Inbox`; the
//! answer is the inbox as it then stands (`on_inbox`).

use crate::inbox::{CycleReport, InboxRow};
use crate::store::InboxMark;
use std::collections::HashSet;

mod handle;

/// The inbox as last sent.
#[derive(Clone, Debug, Default)]
pub struct InboxView {
    /// An inbox runs (the service named the user, the store is on); else
    /// why not.
    pub running: bool,
    pub off: Option<String>,
    pub rows: Vec<InboxRow>,
    /// Tasks with unread items: the header counts them, the list marks
    /// them.
    pub unread: HashSet<String>,
    pub marks: Vec<InboxMark>,
    pub walked_at: Option<i64>,
    pub report: Option<CycleReport>,
    pub error: Option<String>,
    /// Read items shown too.
    pub all: bool,
    /// What `d` and opening marked read, last first (`u` brings back).
    pub done: Vec<(String, Vec<String>)>,
    /// An update came at least once.
    pub loaded: bool,
    /// It walks by itself (`inbox_refresh_secs` > 0); else when asked.
    pub periodic: bool,
}

impl InboxView {
    pub fn count(&self) -> usize {
        self.unread.len()
    }
}
