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
use super::world::World;
use crate::app::local::outbox::Kept;
use crate::app::state::{ApiResult, Overlay, State};
use std::collections::BTreeSet;

/// What must come back after a hang-up.
struct HangupExpect {
    seqs: BTreeSet<i64>,
    /// The composer's task, draft key, owner and text (changed, not blank).
    draft: Option<(String, String, Option<String>, String)>,
    /// As for a crash (`CrashExpect::may_return`).
    may_return: BTreeSet<i64>,
}

impl World {
    /// The terminal goes away: the run ends as `Session::finish` ends it,
    /// and the client starts again.
    pub(super) fn hang_up(&mut self) {
        let draft = match &self.state.overlay {
            Overlay::Compose(c) if c.text() != c.initial && !c.text().trim().is_empty() => Some((
                c.task_id.clone(),
                c.kind.draft_key(),
                c.owner.clone(),
                c.text(),
            )),
            _ => None,
        };
        let may_return = self.may_return();
        self.quit();
        // What the store confirmed keeping, once the last answers are in.
        let expect = HangupExpect {
            seqs: self
                .state
                .outbox
                .iter()
                .filter(|i| i.kept == Kept::Kept)
                .map(|i| i.seq)
                .collect(),
            draft,
            may_return,
        };
        let lost = !self.state.outbox_lost().is_empty();
        let lines = self.state.outbox_quit_lines();
        if lost && !lines.iter().any(|l| l.contains("NOT kept")) {
            self.violation(
                "lost without a word",
                "a hang-up lost queued edits the store did not keep, and the way out said nothing",
            );
        }
        self.notes.push("hang-up".into());
        self.count("hang-ups");
        self.boot();
        let found = expect.check(&self.state);
        self.broke(found);
    }

    /// The key acts as the other user from now on, while the client is
    /// offline; what was in flight is lost with the outage.
    pub(super) fn key_reissued_live(&mut self) {
        if self.state.offline.is_none() {
            return;
        }
        self.outage = true;
        while !self.pending.is_empty() {
            let (ticket, req) = self.pending.remove(0);
            let fx = self.answered(ApiResult {
                ticket,
                req,
                result: Err(crate::api::ApiError::Unreachable {
                    message: "connection refused".into(),
                }),
            });
            self.carry(fx);
        }
        self.svc.key_owner = if self.svc.key_owner == super::service::ME {
            super::service::OTHER.into()
        } else {
            super::service::ME.into()
        };
        self.notes.push(format!(
            "the key reissued to {} while the client runs",
            self.svc.key_owner
        ));
        self.count("keys reissued while running");
    }
}

impl HangupExpect {
    fn check(self, state: &State) -> Vec<Broke> {
        let mut out = Vec::new();
        let now: BTreeSet<i64> = state.outbox.iter().map(|i| i.seq).collect();
        let back = now
            .difference(&self.seqs)
            .all(|q| self.may_return.contains(q));
        if !self.seqs.is_subset(&now) || !back {
            out.push((
                "outbox after a hang-up",
                format!("kept {:?} at the hang-up, {:?} after", self.seqs, now),
            ));
        }
        if let Some((task, key, owner, text)) = self.draft {
            let back = state.drafts.of(owner.as_deref()).load(&task, &key);
            if back.as_deref().map(str::trim_end) != Some(text.trim_end()) {
                out.push((
                    "draft lost in a hang-up",
                    format!("{text:?} on {task} came back as {back:?}"),
                ));
            }
        }
        out
    }
}

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
