//! The rows the store reads and writes, shared by its parts (`db`,
//! `outbox`, `inbox`, `worker`…): a leaf they import, `mod.rs` re-exports.

use std::collections::HashMap;

/// A task as stored: its JSON as the service sent it (re-serialised).
#[derive(Clone, Debug, PartialEq)]
pub struct StoredTask {
    pub id: String,
    pub number: Option<i64>,
    pub title: String,
    pub updated_at: Option<String>,
    pub json: String,
    /// The whole task (a GET or a PATCH answer), not only a list row.
    pub full: bool,
}

/// Which stored tasks a picker asks for ([`Db::scan`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scan {
    /// Draft tasks.
    Drafts,
    /// Tasks with input or output files.
    WithFiles,
}

/// What the user last saw of a task.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Seen {
    pub updated_at: Option<String>,
    /// `None`: the tab was never loaded while the task was open.
    pub comment_ids: Option<Vec<String>>,
    pub message_ids: Option<Vec<String>>,
    pub at: i64,
}

/// A task the user opened or acted on.
#[derive(Clone, Debug, PartialEq)]
pub struct Recent {
    pub task_id: String,
    pub label: String,
    pub title: String,
    pub action: String,
    pub at: i64,
}

/// An edit waiting for the service.
#[derive(Clone, Debug, PartialEq)]
pub struct OutboxRow {
    pub seq: i64,
    pub task_id: String,
    pub label: String,
    /// What it does, in words (`status → completed`).
    pub what: String,
    /// The request, in the store's JSON form (`app::outbox`).
    pub request: String,
    /// The version it is checked against before sending: the task's
    /// `updated_at` the user saw when making it, or what the service
    /// answered to the previous queued edit of the task (ours).
    pub base_updated_at: Option<String>,
    pub created_at: i64,
    /// The user who made it (`None`: recorded before rows named their
    /// user; then the store's user, stores being per user).
    pub user_id: Option<String>,
    /// The task as the user saw it when making the edit, as JSON (`None`:
    /// not known, or a row of a store before schema 7).
    pub saw: Option<String>,
}

/// A person or team of the directory, as stored.
#[derive(Clone, Debug, PartialEq)]
pub struct DirEntry {
    pub team: bool,
    pub id: String,
    pub name: String,
    pub email: String,
    pub tasks: Vec<String>,
}

/// One cached tab of a task: its JSON and when it was fetched.
#[derive(Clone, Debug, PartialEq)]
pub struct StoredTab {
    pub tab: String,
    pub json: String,
    pub fetched_at: i64,
}

/// Everything stored about one task.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct StoredDetail {
    pub task: Option<StoredTask>,
    pub fetched_at: i64,
    pub tabs: Vec<StoredTab>,
}

/// What the start reads before the first frame.
#[derive(Clone, Debug, Default)]
pub struct Boot {
    /// The last view (its JSON, see `app::cache`) and its rows.
    pub view: Option<String>,
    pub rows: Vec<StoredTask>,
    pub rows_saved_at: i64,
    pub current: Option<StoredDetail>,
    pub directory: Vec<DirEntry>,
    pub seen: HashMap<String, Seen>,
    pub recent: Vec<Recent>,
    /// The outbox rows this process took for sending (`outbox_take`).
    pub outbox: Vec<OutboxRow>,
    /// Rows left to others: held by another taskdeck running now, or made
    /// by another user.
    pub outbox_elsewhere: usize,
}

pub fn now_secs() -> i64 {
    crate::clock::unix_secs()
}

/// Where a stored task matched a search ([`Db::find`](super::Db::find)).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Place {
    Number,
    Title,
    Description,
    Context,
    Tags,
    Assignee(String),
    Creator(String),
    /// A comment, by its author.
    Comment(String),
    /// A requester message, from its sender.
    Message(String),
}

impl Place {
    /// In words: `title`, `comment by Bob`, `message from Carol`.
    pub fn words(&self) -> String {
        match self {
            Place::Number => "number".into(),
            Place::Title => "title".into(),
            Place::Description => "description".into(),
            Place::Context => "additional context".into(),
            Place::Tags => "tags".into(),
            Place::Assignee(w) => format!("assignee {w}"),
            Place::Creator(w) => format!("creator {w}"),
            Place::Comment(w) => format!("comment by {w}"),
            Place::Message(w) => format!("message from {w}"),
        }
    }

    /// Its name in `--json` (`comment`, `title`…).
    pub fn key(&self) -> &'static str {
        match self {
            Place::Number => "number",
            Place::Title => "title",
            Place::Description => "description",
            Place::Context => "additional_context",
            Place::Tags => "tags",
            Place::Assignee(_) => "assignee",
            Place::Creator(_) => "creator",
            Place::Comment(_) => "comment",
            Place::Message(_) => "message",
        }
    }
}

/// One place a task matched, with the words around the match
/// (`…the zebra memo…`; untrusted text, sanitised when shown).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hit {
    pub place: Place,
    pub snippet: String,
}

/// A stored task a search found, and where (best first).
#[derive(Clone, Debug, PartialEq)]
pub struct Found {
    pub task: StoredTask,
    pub hits: Vec<Hit>,
}

/// A row of `SELECT id,number,title,updated_at,json,full,fetched_at FROM
/// tasks`: the task and when it was fetched (one mapping for every reader).
pub(crate) fn task_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<(StoredTask, i64)> {
    Ok((
        StoredTask {
            id: r.get(0)?,
            number: r.get(1)?,
            title: r.get(2)?,
            updated_at: r.get(3)?,
            json: r.get(4)?,
            full: r.get(5)?,
        },
        r.get(6)?,
    ))
}
