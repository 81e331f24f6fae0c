//! The model terminal's hang-up, and a key reissued while the client
//! runs (issue 43).
//!
//! A hang-up: the terminal goes away at any moment (SIGHUP, EOF or EIO on
//! the tty): the real loop then ends the run through `Session::finish`,
//! as a quit does but unasked — a composer's text saved as a draft
//! whatever was saved before, the edits sent and not answered kept in the
//! outbox with their outcome unknown, the store's queue written and its
//! claims given back. The client is then started again from the store as
//! committed. Checked: the composer's text comes back as its draft, the
//! outbox after the start holds exactly what the store kept (queued, and
//! in flight with the outcome unknown), an edit not kept was said on the
//! way out; nothing is sent twice (the ledger, as ever).
//!
//! A key reissued while the client runs: the service starts acting as
//! the other user for the key while the client is offline (it knows the
//! service was away, and asks who the key acts as when it answers again:
//! the only moment a client can learn it — the service names no user on
//! a write). What was in flight is lost with the outage. Checked: no
//! edit or draft made as the first user goes out as the second (the
//! ledger's "as another user"), and the user is told when the key's user
//! changes with edits of the first user queued.

use super::check::{said, Broke, Said};
use crate::app::state::State;

/// Whose queued edits there are, before "who am I" is answered.
pub fn queued_by(s: &State, user: &str) -> bool {
    s.outbox.iter().any(|i| i.user_id.as_deref() == Some(user))
}

/// The key's user changed (`old` → the one now named) with edits of
/// `old` queued: the user was told.
pub fn told_of_switch(queued: bool, said_before: &Said, s: &State) -> Option<Broke> {
    (queued && said(s) == *said_before).then(|| {
        (
            "not told",
            "the key acts as another user now, edits of the first are queued, and nothing was said"
                .to_string(),
        )
    })
}
