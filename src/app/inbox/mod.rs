//! The inbox in the TUI: what the inbox task (`crate::inbox::link`) last
//! sent, the popup's outcomes, `:snooze`, `:follow-up` and `:snoozed`.
//! Everything that changes the inbox travels as `Effect::Inbox`; the
//! answer is the inbox as it then stands (`on_inbox`).

use crate::inbox::{InboxRow, InboxUpdate};

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
    /// What `d` and opening marked read, last first (`u` brings back);
    /// whose (`None`: the current profile's).
    pub done: Vec<(Option<String>, String, Vec<String>)>,
    /// Reads sent whose answer has not come (whose, task id, and whether
    /// `u` asked for it back meanwhile): a `u` pressed before the answer
    /// brings back THAT task, never the one marked done before it.
    pub reading: Vec<(Option<String>, String, bool)>,
    /// An update came at least once.
    pub loaded: bool,
    /// It walks by itself (`inbox_refresh_secs` > 0); else when asked.
    pub periodic: bool,
    /// The items already seen: what is new is told once
    /// (`crate::inbox::notify`).
    pub watch: crate::inbox::Watch,
    /// The other profiles' inboxes (`inbox_profiles = "all"`, issue 36),
    /// in the config's order: each sent by its own walker.
    pub others: Vec<OtherInbox>,
    /// The current profile's label when others are shown.
    pub here: String,
    /// Enter on another profile's row: the profile is switched to, then
    /// this row opened there (carried across the switch by the loop).
    pub open_next: Option<InboxRow>,
}

/// Another profile's inbox as its walker last sent it (its `error`: its
/// service could not be reached or read).
#[derive(Clone, Debug, Default)]
pub struct OtherInbox {
    pub profile: String,
    pub last: InboxUpdate,
    pub loaded: bool,
    /// Its items already seen (its notifications name it).
    pub watch: crate::inbox::Watch,
    /// It reads the same store (service and user) as this profile, named
    /// here, whose inbox is shown: it is shown once, as that one's, and
    /// its walker stopped (issue 42 §11).
    pub same_as: Option<String>,
}

/// A row as the inbox shows it: whose (`None`: the current profile's).
#[derive(Clone, Copy, Debug)]
pub struct Shown<'a> {
    pub profile: Option<&'a str>,
    pub row: &'a InboxRow,
}

impl InboxView {
    /// Tasks with unread items, every profile's.
    pub fn count(&self) -> usize {
        self.last.unread.len()
            + self
                .others
                .iter()
                .map(|o| o.last.unread.len())
                .sum::<usize>()
    }

    /// How many rows [`Self::rows`] shows, without merging them.
    pub fn row_count(&self) -> usize {
        self.last.rows.len() + self.others.iter().map(|o| o.last.rows.len()).sum::<usize>()
    }

    /// The rows shown, every profile's: the current profile's first
    /// (issue 46 §1), then the others', each part in the inbox's order
    /// (mentions first, then newest).
    pub fn rows(&self) -> Vec<Shown<'_>> {
        let mut rows: Vec<Shown> = self
            .last
            .rows
            .iter()
            .map(|row| Shown { profile: None, row })
            .collect();
        if self.others.is_empty() {
            return rows;
        }
        for o in &self.others {
            rows.extend(o.last.rows.iter().map(|row| Shown {
                profile: Some(o.profile.as_str()),
                row,
            }));
        }
        rows.sort_by(|a, b| {
            (a.profile.is_some().cmp(&b.profile.is_some()))
                .then_with(|| crate::inbox::rows::row_order(a.row, b.row))
        });
        rows
    }

    /// The label a row carries (`[work]`), when several profiles are shown.
    pub fn label(&self, s: &Shown) -> Option<String> {
        if self.others.is_empty() {
            return None;
        }
        Some(format!("[{}]", s.profile.unwrap_or(&self.here)))
    }
}

/// What a write of ours, answered (`r`), tells `user`'s inbox (`None`: not
/// a write): the task as it now is (nothing of it is news), our sharing
/// or deletion (the task leaves by our doing), or the write forgotten.
/// The loop sends it (`tui/effects.rs`); the simulator carries it out.
pub fn own_answer(
    user: &str,
    r: &crate::app::state::requests::ApiResult,
) -> Option<crate::inbox::InboxCmd> {
    use crate::app::state::requests::Reply;
    use crate::inbox::InboxCmd;
    let id = r.req.written_task()?;
    Some(match &r.result {
        Ok(Reply::Task(t)) => InboxCmd::Own(t.clone()),
        // Own sharing and deletions are no news either (the user's own
        // access removed, a draft rejected: the task leaves by their doing).
        Ok(Reply::Sharing(s)) => {
            let access = s
                .users
                .iter()
                .find(|m| m.id == user && m.role.as_ref().is_none_or(|r| r.raw() != "assignee"))
                .map(|m| {
                    m.access_level
                        .as_ref()
                        .map(|a| a.to_string())
                        .unwrap_or_default()
                });
            InboxCmd::OwnShared(id.to_string(), access)
        }
        Ok(Reply::Deleted) => InboxCmd::OwnDeleted(id.to_string()),
        Ok(_) | Err(_) => InboxCmd::OwnFailed(id.to_string()),
    })
}
