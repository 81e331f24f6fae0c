//! The hang-up's and the live reissue's steps (issue 43): the world ends
//! the run unasked and starts it again, or reissues the key; the checks
//! the world names are `hangup`'s — this file extends the world and is
//! named by nobody, so the arrows stay one way.

use super::check::{outbox_back, Broke};
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
        let mut may_return = self.may_return();
        may_return.extend(self.quit());
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
        out.extend(outbox_back(
            "outbox after a hang-up",
            &self.seqs,
            &self.may_return,
            state,
        ));
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
