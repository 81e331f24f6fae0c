//! The inbox: what needs the user, and why. The service sends no events,
//! so the inbox is derived from what taskdeck reads: a periodic walk of
//! the tasks involving the user (`involving=me`, pages of 100) compared
//! with what the inbox last knew of each (its *base*, in the store), and
//! the comments of the tasks that need a look. Each change becomes an
//! item with a reason in words; items are keyed by the change itself, so
//! a change found twice (two instances, two walks) is one item.
//!
//! - [`snapshot`]: the fields of a task the inbox compares.
//! - [`change`]: one changed field: the service's values, and in words.
//! - [`derive`]: items from a base and what the service has now (pure).
//! - [`cycle`]: one walk against the service and the store.
//! - [`drafts`]: the drafts a walk finds through its tasks' links (no
//!   list gives one).
//! - [`archived`]: the archived tasks whose comments a walk still reads
//!   for mentions (no list gives one).
//! - [`rotation`]: a share of a list read in turn across walks (the
//!   drafts', the archived tasks', the walk's own comment reads).
//! - [`rows`]: items grouped one row per task, for the screen and the CLI.
//! - [`link`]: the inbox beside a running TUI (its own store connection).
//! - [`notify`]: which unread items are news, and the words (pure).
//! - [`reads`]: the four reads a walk makes (`Reads`: the client, or the
//!   simulator's model service).
//! - [`snooze`]: what a snooze hides and when a follow-up brings a task
//!   back: one rule for the rows and the notifications.
//!
//! Below `app`, `ui` and `cli` (they use it); above `api`, `store` and
//! `domain`.

pub mod archived;
pub mod change;
pub mod cycle;
pub mod derive;
pub mod drafts;
pub mod link;
pub mod notify;
pub mod reads;
pub mod rotation;
pub mod rows;
pub mod snapshot;
pub mod snooze;

pub use cycle::{cycle, CycleError, CycleReport, Plan};
pub use derive::{Change, Kind, Me};
pub use link::{InboxCmd, InboxLink, InboxUpdate};
pub use notify::{Notice, UnreadItem, Watch};
pub use rows::{group, json_items, InboxRow, JsonItem};
pub use snapshot::Snapshot;

#[cfg(test)]
mod archived_tests;
#[cfg(test)]
mod sandboxed;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod truth_tests;
#[cfg(test)]
mod walk_tests;
