//! Offline and the outbox. When the service cannot be reached, taskdeck
//! says OFFLINE, keeps showing what it knows, and probes with backoff until
//! the service answers. Edits that are safe to repeat (a PATCH of fields,
//! the sharing replacement, a link's role or context, removing a link or a
//! file) are queued in the outbox (and the store) and sent in order once
//! the service is back — each after reading the task: if it changed on the
//! service since the version the edit was made against (recorded when the
//! edit was made, `State::edit_bases`), the edit waits for the user. The
//! service's answer to our own queued edit becomes the version the next
//! queued edit of the task is checked against (`rebase_after`), so only a
//! change by someone else holds one. Likewise a write chained behind an
//! earlier write of its task (made before that one's answer, both against
//! one version) moves onto that answer when it comes
//! (`State::take_edit_base`), and a queued edit behind one found already
//! arrived (after a quit) moves onto the task read back when only that
//! edit's fields moved since the user saw the task when making it (the
//! copy seen then is kept in the store with the edit, never the copy a
//! refresh stored since: `stored::only_its_fields_moved`): a quit between
//! two quick edits never shows the first as a conflict with the second.
//! A task's edits never overtake the outbox: one made while older edits
//! of its task wait there joins them (`behind.rs`). An edit is sent only for the user who
//! made it; whether the store kept it is tracked (`outbox/keep.rs`).
//! Comments and requester replies are never queued: they stay drafts.

use crate::api::*;
use crate::app::state::requests::{ApiRequest, Effect};
use crate::app::state::screen::Level;
use crate::store::worker::StoreCmd;

mod behind;
pub mod drafts;
mod handle;

mod keep;
pub mod owner;
mod stored;
pub mod three;

#[cfg(test)]
pub(crate) use handle::next_seq;
pub use stored::{from_stored, to_stored};
pub use three::Three;

#[derive(Clone, Debug, PartialEq)]
pub enum OutState {
    Queued,
    /// Reading the task before sending (ticket of the read).
    Checking(u64),
    Sending(u64),
    /// The task changed on the service since the edit was made (or the
    /// first attempt's outcome is unknown and it changed): the user decides.
    Waiting(String),
}

#[derive(Clone, Debug)]
pub struct OutItem {
    pub seq: i64,
    pub task_id: String,
    pub label: String,
    pub what: String,
    pub req: ApiRequest,
    pub base_updated_at: Option<String>,
    pub created_at: i64,
    pub state: OutState,
    /// A first attempt was sent and its outcome is unknown.
    pub unknown: bool,
    /// Sent and not answered when taskdeck ended (a quit or a signal):
    /// kept so the next start reads the task back and sends it only if
    /// it did not arrive (`State::keep_writes_in_flight`).
    pub left_in_flight: bool,
    /// The pending marks of the edit (shown until it is sent).
    pub pending_ticket: Option<u64>,
    /// The user who made it: it is only ever sent for that user.
    pub user_id: Option<String>,
    /// Whether the store holds it (what quitting says depends on it).
    pub kept: Kept,
    /// The version the check before sending found and accepted (it was
    /// the one the edit was made against): the next queued edit of the
    /// task made against it is checked against our answer instead.
    pub checked: Option<String>,
    /// A field edit that met a change on the service: its fields three
    /// ways (`popups/conflict.rs`), for the user to choose.
    pub three: Vec<Three>,
    /// The task as the user saw it when making the edit (kept in the
    /// store with it; for a row of an older store, the stored copy at
    /// the start): "you saw" of a conflict, and what a restart compares
    /// the task read back with (`stored::only_its_fields_moved`).
    pub saw: Option<Box<Task>>,
}

/// Whose edits may go out now (issue 32, point 4): an edit is sent only
/// while `GET /me` for the key names the user who made it.
#[derive(Clone, Debug, Default)]
pub struct Owner {
    /// The service was away: who the key acts as is asked again (`GET
    /// /me`) before anything queued is sent.
    pub recheck: bool,
    /// `GET /me` was asked for that recheck (once, until it is answered
    /// or the service is found away again).
    pub asked: bool,
    /// Edits made as another user, left waiting in that user's store.
    pub away: Option<Away>,
    /// Drafts typed as another user, waiting in that user's folder.
    pub drafts_away: Option<Away>,
}

/// What waits for the user who made it while the key acts as another.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Waiting {
    /// Edits queued in that user's store.
    Edits,
    /// Drafts typed as that user, in their folder (issue 42, point 1).
    Drafts,
}

/// Edits or drafts made as one user that wait for that user while the key
/// acts as another: one shape, one sentence for both.
#[derive(Clone, Debug, PartialEq)]
pub struct Away {
    pub what: Waiting,
    pub count: usize,
    /// The user who made them: their id and how they are named.
    pub user_id: String,
    pub made_as: String,
    /// Who the key acts as now.
    pub now_as: String,
    /// Seen to change in this session (the key acted as the one who made
    /// them before): "now acts as".
    pub changed: bool,
}

impl Away {
    /// `2 edits made as Alice Martin wait: this key now acts as Bob Okafor`,
    /// `1 draft of Alice Martin waits: this key now acts as Bob Okafor`.
    pub fn words(&self) -> String {
        crate::text::clean(&format!(
            "{}: this key {}acts as {}",
            self.short(),
            if self.changed { "now " } else { "" },
            self.now_as
        ))
    }

    /// The header's form, beside the name of who the key acts as now:
    /// `2 edits made as Alice Martin wait`, `1 draft of Alice Martin waits`.
    pub fn short(&self) -> String {
        let (things, of) = match self.what {
            Waiting::Edits => (
                crate::domain::words::plural(self.count, "edit", "edits"),
                "made as",
            ),
            Waiting::Drafts => (
                crate::domain::words::plural(self.count, "draft", "drafts"),
                "of",
            ),
        };
        crate::text::clean(&format!(
            "{things} {of} {} {}",
            self.made_as,
            if self.count == 1 { "waits" } else { "wait" },
        ))
    }
}

/// What the user saw when making a queueable write (`State::edit_bases`):
/// the task's version, and the task itself (kept with the queued edit).
#[derive(Clone, Debug, Default)]
pub struct Made {
    pub version: Option<String>,
    pub saw: Option<Box<Task>>,
}

/// A queued edit cancelled in `:outbox` that the store holds: until the
/// store says the cancel is kept, it could come back at the next start
/// and be sent. A cancel the store could not keep is said (`cancel NOT
/// KEPT`), tried again by the store's thread, and named at quit (exit 1).
#[derive(Clone, Debug, PartialEq)]
pub struct Cancel {
    pub seq: i64,
    pub label: String,
    pub what: String,
    /// The store could not keep it (why); `None`: not answered yet.
    pub not_kept: Option<String>,
}

/// Whether a queued edit is in the store (it survives a quit) or only in
/// memory.
#[derive(Clone, Debug, PartialEq)]
pub enum Kept {
    /// Written to the store's thread, not confirmed yet.
    Writing,
    Kept,
    /// The store could not keep it (why): it is lost at quit.
    Not(String),
}

impl OutItem {
    /// The store's command that keeps this edit (`None`: not an edit the
    /// store can hold).
    pub fn store_cmd(&self) -> Option<StoreCmd> {
        Some(StoreCmd::OutboxAdd {
            local: self.seq as u64,
            seq: self.seq,
            task_id: self.task_id.clone(),
            label: self.label.clone(),
            what: self.what.clone(),
            request: to_stored(&self.req)?,
            base_updated_at: self.base_updated_at.clone(),
            saw: self
                .saw
                .as_deref()
                .and_then(|t| serde_json::to_string(t).ok()),
            created_at: self.created_at,
        })
    }
}

/// What the outbox made of an answer.
pub(crate) struct Outboxed {
    /// Fully handled here; else it is applied as any other answer.
    pub handled: bool,
    /// Requests it sends next.
    pub fx: Vec<Effect>,
    /// What to say once the answer is applied.
    pub note: Option<(Level, String)>,
}

impl Outboxed {
    fn handled(fx: Vec<Effect>) -> Outboxed {
        Outboxed {
            handled: true,
            fx,
            note: None,
        }
    }
    fn pass() -> Outboxed {
        Outboxed {
            handled: false,
            fx: vec![],
            note: None,
        }
    }
}

/// Edits the outbox may hold: those safe to send again.
pub fn queueable(req: &ApiRequest) -> bool {
    matches!(
        req,
        ApiRequest::Patch { .. }
            | ApiRequest::PutSharing { .. }
            | ApiRequest::UpdateLink { .. }
            | ApiRequest::RemoveLink { .. }
            | ApiRequest::Detach { .. }
    )
}

/// A read: may be answered "offline" without going out.
pub fn is_read(req: &ApiRequest) -> bool {
    req.written_task().is_none()
}

/// Why an edit is not kept when there is no store at all.
pub(crate) const NO_STORE: &str = "no local store in use";
/// Why an edit is not kept when the store was opened read-only.
pub(crate) const READ_ONLY: &str = "the local store is read-only";

/// Why an edit joined the outbox rather than go out: the older edits of
/// its task there, one of them waiting for the user (`waits`).
pub(crate) fn behind_words(n: usize, waits: bool) -> String {
    let edits = if n == 1 {
        "an older edit".to_string()
    } else {
        format!("{n} older edits")
    };
    if waits {
        format!("behind {edits} of it in the outbox, one waiting for you")
    } else {
        format!("behind {edits} of it in the outbox")
    }
}

/// An edit that joined the outbox behind older edits of its task, in
/// words (`why`: `behind_words`): said for a single edit, and by a bulk
/// edit's summary.
pub(crate) fn queued_behind(why: &str) -> String {
    format!("queued {why}; sent after them, in order (:outbox)")
}
