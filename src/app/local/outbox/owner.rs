//! An edit is sent only as the person who made it (issue 32, point 4):
//! what the state does when the key turns out to act as another user than
//! the one whose store is open (its `impl State`).
//!
//! An edit records the user it was made as: the one `GET /me` named in
//! this session, else the one whose store was open (what the screen
//! showed). When `/me` names someone else, that user's edits stay in
//! their store (the loop closes it, `tui/store_link.rs`), leave this
//! session with their pending marks, and the screen says so until a key
//! names them again. Only edits made with no user known at all (a key
//! never seen, no store open) go to the user the service names.

use super::{Away, OutItem, Waiting};
use crate::api::{ApiError, Identity};
use crate::app::state::{Effect, Level, State};
use crate::store::worker::StoreCmd;

/// The store switch's commands (`State::switch_store`): the last ones for
/// the store that closes, then those for the one that opens.
#[derive(Debug, Default)]
pub struct StoreSwitch {
    pub to_old: Vec<StoreCmd>,
    pub to_new: Vec<StoreCmd>,
}

impl State {
    /// `GET /me` answered: the user is known by name, the identity is
    /// confirmed, and the outbox may send (it waits for this, see
    /// `outbox_pump`).
    pub(crate) fn identity_known(&mut self, me: Identity) -> Vec<Effect> {
        self.directory
            .learn_person(&me.user_id, me.user_name.raw(), me.user_email.raw(), None);
        self.me = Some(me);
        self.me_error = None;
        self.owner.recheck = false;
        self.owner.asked = false;
        // Drafts follow the user too (issue 42, point 1).
        self.bind_drafts();
        self.outbox_pump()
    }

    /// The service answers again after it was away: who the key acts as
    /// is asked again (once), whatever brought it back — a probe, or a read
    /// retried — and whether or not anything is queued: a draft typed
    /// before is sent only as its typist (issue 42, point 1).
    pub(crate) fn recheck_identity(&mut self) -> Vec<Effect> {
        if !self.owner.recheck || self.owner.asked || self.me.is_none() {
            return vec![];
        }
        let describe = crate::app::state::ApiRequest::Me.describe();
        if self.inflight.values().any(|(w, _)| *w == describe) {
            return vec![];
        }
        self.owner.asked = true;
        vec![self.request(crate::app::state::ApiRequest::Me)]
    }

    /// `GET /me` failed: said, and nothing is sent meanwhile.
    pub(crate) fn identity_failed(&mut self, e: ApiError) -> Vec<Effect> {
        let msg = format!("identity lookup failed: {e}");
        self.me_error = Some(msg.clone());
        self.say(Level::Error, msg);
        vec![]
    }

    /// The user an edit made now is made as.
    pub(crate) fn edit_owner(&self) -> Option<String> {
        self.my_user().or_else(|| self.local.user.clone())
    }

    /// The store of `old` closes because the key acts as `me` now: its
    /// edits are split into those made with no user known (`mine`, they go
    /// to `me`) and `old`'s, which stay in `old`'s store. The pending
    /// marks of `old`'s edits go; the screen says they wait. Returns
    /// `mine`.
    pub fn leave_store_of(&mut self, old: &str, me: &str) -> Vec<OutItem> {
        let (mine, theirs): (Vec<OutItem>, Vec<OutItem>) =
            self.outbox.iter().cloned().partition(|i| {
                crate::broken::on(crate::broken::Rule::AsAnyone)
                    || (i.user_id.is_none() && i.pending_ticket.is_some())
            });
        let theirs: Vec<OutItem> = theirs
            .into_iter()
            .filter(|i| i.user_id.as_deref().is_none_or(|u| u == old))
            .collect();
        for t in theirs.iter().filter_map(|i| i.pending_ticket) {
            self.pending.retain(|p| p.ticket != t);
        }
        self.owner.away = None;
        if !theirs.is_empty() {
            let made_as = self.user_named(old);
            let now_as = self.user_named(me);
            let away = Away {
                what: Waiting::Edits,
                count: theirs.len(),
                user_id: old.to_string(),
                made_as: made_as.clone(),
                now_as,
                changed: true,
            };
            tracing::warn!(
                edits = theirs.len(),
                "the key acts as another user: the edits made as the last one wait in their store"
            );
            self.say(
                Level::Warn,
                format!(
                    "{} — kept in the store of {made_as}, sent once a key acts as {made_as} again",
                    away.words()
                ),
            );
            self.owner.away = Some(away);
        }
        mine
    }

    /// `/me` named `me` while the store of `old` is open (`None`: none
    /// was, no user known yet): the state's part of the store switch
    /// (`tui::store_link`'s `bind`, and the simulator's). `old`'s edits
    /// stay in its store ([`State::leave_store_of`]); what the reducer
    /// queued for it goes to it last, less the edits made with no user
    /// known, which leave it and come to `me` (kept once `me`'s store says
    /// so); `old`'s rows and marks are forgotten. The caller sends
    /// `to_old` to the old store, closes it, opens `me`'s and sends it
    /// `to_new`.
    pub fn switch_store(&mut self, old: Option<&str>, me: &str) -> StoreSwitch {
        let mut to_old = Vec::new();
        if let Some(old) = old {
            let mine = self.leave_store_of(old, me);
            // A composer or the sharing editor opened over `old`'s screen
            // closes (the composer's text kept as `old`'s draft): the
            // detail it acts on goes with `old`'s rows, and what it holds
            // would go out as `me` (simulator seeds 216, 131, 137).
            if let Some(closed) = self.park_popups_of(old) {
                let now_as = self.user_named(me);
                self.say(
                    Level::Warn,
                    format!("{closed}: this key now acts as {now_as}"),
                );
            }
            let carried: std::collections::BTreeSet<i64> = mine.iter().map(|i| i.seq).collect();
            to_old = std::mem::take(&mut self.local.out);
            to_old
                .retain(|c| !matches!(c, StoreCmd::OutboxAdd { seq, .. } if carried.contains(seq)));
            to_old.extend(carried.iter().map(|s| StoreCmd::OutboxRemove(*s)));
            self.forget_local();
            for mut item in mine {
                if let Some(cmd) = item.store_cmd() {
                    self.local.out.push(cmd);
                }
                item.pending_ticket = None;
                // This key's user made it; kept once the new store says so.
                item.user_id = Some(me.to_string());
                item.kept = super::Kept::Writing;
                self.outbox.push(item);
            }
        } else if self.owner.away.as_ref().is_some_and(|a| a.user_id == me) {
            self.owner.away = None;
        }
        StoreSwitch {
            to_old,
            to_new: std::mem::take(&mut self.local.out),
        }
    }

    /// How a user is named on screen: the name the service gave, else the
    /// e-mail, else "another user" (never an id alone).
    pub(super) fn user_named(&self, id: &str) -> String {
        if let Some(me) = self.me.as_ref().filter(|m| m.user_id == id) {
            let name = me.user_name.line();
            if !name.trim().is_empty() {
                return name.to_string();
            }
        }
        match self.directory.people.get(id) {
            Some(p) if !(p.name.is_empty() && p.email.is_empty()) => {
                crate::text::name_or_email(&p.name, &p.email).to_string()
            }
            _ => "another user".into(),
        }
    }

    /// The user's edits wait elsewhere: what the header says (`None`: none
    /// wait, or the key acts as their user again).
    pub fn away_words(&self) -> Option<String> {
        let away = self.owner.away.as_ref()?;
        (self.my_id() != Some(away.user_id.as_str())).then(|| away.words())
    }

    /// What waits for other users, in the header's short form (the name
    /// of who the key acts as is beside it): edits, then drafts.
    pub fn away_short(&self) -> Vec<String> {
        [&self.owner.away, &self.owner.drafts_away]
            .into_iter()
            .flatten()
            .filter(|a| self.my_id() != Some(a.user_id.as_str()))
            .map(|a| a.short())
            .collect()
    }

    /// Whether a queued edit may go out with this key now: its user is
    /// the one `/me` named (an edit of no recorded user is this store's).
    pub(crate) fn may_send(&self, item: &OutItem) -> bool {
        !self.owner.recheck
            && item
                .user_id
                .as_deref()
                .is_none_or(|u| self.my_id() == Some(u))
    }

    /// At a start (once `/me` named the user): edits made as other users
    /// that wait in their stores on this service, `(user id, name, count)`
    /// (`store::outbox::waiting_elsewhere`). The largest is said, as when
    /// the key changed user while running.
    pub fn note_waiting_elsewhere(&mut self, mut waiting: Vec<(String, String, usize)>) {
        let Some(me) = self.my_user() else { return };
        waiting.retain(|(u, _, n)| *u != me && *n > 0);
        waiting.sort_by_key(|(_, _, n)| std::cmp::Reverse(*n));
        let Some((user, name, count)) = waiting.into_iter().next() else {
            return;
        };
        if self.owner.away.is_some() {
            return;
        }
        let made_as = if name.trim().is_empty() {
            self.user_named(&user)
        } else {
            crate::text::clean(&name)
        };
        let away = Away {
            what: Waiting::Edits,
            count,
            user_id: user,
            made_as: made_as.clone(),
            now_as: self.user_named(&me),
            changed: false,
        };
        self.say(
            Level::Warn,
            format!(
                "{} — kept in the store of {made_as}, sent once a key acts as {made_as} again",
                away.words()
            ),
        );
        self.owner.away = Some(away);
    }
}
