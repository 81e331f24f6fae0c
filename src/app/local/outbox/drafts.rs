//! A draft belongs to the user who typed it (issue 42, point 1), exactly as
//! a queued edit belongs to the user who made it (`owner.rs`): it is
//! offered, sent and deleted only while the key acts as that user. When
//! `GET /me` names someone else, the drafts in use become that user's
//! folder; the last user's drafts wait in theirs, and the screen says so
//! ("1 draft of Alice Martin waits: this key now acts as Bob Okafor") until
//! a key names them again. A composer open across the switch is closed,
//! its text kept as its typist's draft.

use super::{Away, Waiting};
use crate::app::state::drafts::Bound;
use crate::app::state::{Compose, Effect, Level, Overlay, SendState, State};

/// Said when the composer's typist is not who the key acts as.
pub const NOT_YOURS: &str =
    "not sent: this text was typed as another user than the key acts as now";

/// Said when ctrl-s comes after the service was away and before `GET /me`
/// named the user again (issue 42 §1: the key may act as someone else now).
pub const WHO_FIRST: &str = "not sent yet: the service was away, and who this key acts as is asked first — your text is kept; ctrl-s again once it answers";

impl State {
    /// The drafts in use follow the user `GET /me` named: bound to their
    /// folder, and what waits elsewhere said.
    pub(crate) fn bind_drafts(&mut self) {
        let Some(me) = self.my_id().map(str::to_string) else {
            return;
        };
        let now_as = self.user_named(&me);
        let bound = self.drafts.bind_user(&me);
        if bound == Bound::Same {
            return;
        }
        self.drafts.note_owner(&now_as);
        if self
            .owner
            .drafts_away
            .as_ref()
            .is_some_and(|a| a.user_id == me)
        {
            self.owner.drafts_away = None;
        }
        let parked = match &bound {
            Bound::Changed(old) => self.park_popups_of(old),
            _ => None,
        };
        let waiting = self.drafts.waiting();
        let changed_from = match &bound {
            Bound::Changed(old) => Some(old.clone()),
            _ => None,
        };
        // The last user's first (the one the screen just showed), else the
        // user with the most drafts waiting.
        let pick = changed_from
            .as_ref()
            .and_then(|old| waiting.iter().find(|(u, _, _)| u == old))
            .or_else(|| waiting.first())
            .cloned();
        let Some((user, name, count)) = pick.map(|(u, n, c)| (u.to_string(), n.to_string(), c))
        else {
            if let Some(closed) = parked {
                self.say(
                    Level::Warn,
                    format!("{closed}: this key now acts as {now_as}"),
                );
            }
            return;
        };
        let made_as = if name.trim().is_empty() {
            self.user_named(&user)
        } else {
            crate::text::clean(&name)
        };
        let away = Away {
            what: Waiting::Drafts,
            count,
            user_id: user.clone(),
            made_as: made_as.clone(),
            now_as,
            changed: changed_from.as_deref() == Some(user.as_str()),
        };
        tracing::warn!(
            drafts = count,
            "drafts typed as another user wait in their folder"
        );
        self.say(
            Level::Warn,
            format!(
                "{}{} — kept as {made_as}'s, offered and sent once a key acts as {made_as} again",
                away.words(),
                parked.map(|c| format!(" ({c})")).unwrap_or_default()
            ),
        );
        self.owner.drafts_away = Some(away);
    }

    /// The key acts as another user than `old` now: a popup holding
    /// `old`'s data closes (`Overlay::last_users` says which, and in
    /// what words — answered here). A composer `old` opened is closed,
    /// its text kept in `old`'s drafts (never offered, sent or deleted
    /// under the new user); the sharing editor's changes are not sent —
    /// they would go as the new user (simulator seed 216: an editor
    /// opened over `old`'s store sat over the detail the switch dropped);
    /// the search box's `esc` would put back the list as it was at `/`,
    /// the last user's rows (simulator seed 12425129857736577809: the
    /// cursor put back on their row, the detail on the new user's task),
    /// so it closes with the search as it was before `/`.
    pub(super) fn park_popups_of(&mut self, old: &str) -> Option<&'static str> {
        let closed = self.overlay.last_users()?;
        if let Overlay::Compose(c) = &self.overlay {
            // Typed as someone else than `old`: not theirs to park.
            if c.owner.as_deref().is_some_and(|o| o != old) {
                return None;
            }
        }
        match std::mem::replace(&mut self.overlay, Overlay::None) {
            Overlay::Search(b) => self.search_box_closed(*b),
            Overlay::Compose(c) => {
                let text = c.text();
                let sending = matches!(c.state, SendState::Sending(_));
                // A send in flight keeps its draft until it is answered
                // (the answer is `old`'s); an unchanged composer holds
                // nothing.
                if !sending && text != c.initial {
                    let theirs = self.drafts.of(Some(old));
                    if let Err(e) = theirs.save(&c.task_id, &c.kind.draft_key(), &text) {
                        self.say(
                            Level::Error,
                            format!("the composer closed; could not keep its text: {e}"),
                        );
                    }
                }
            }
            _ => {}
        }
        Some(closed)
    }

    /// Whether the composer's text may go out now: typed as the user the
    /// key acts as (once the service is back after it was away, `GET /me`
    /// is asked again at once: `recheck_identity`). `Err`: not now, said.
    pub(crate) fn composer_may_send(&mut self, c: &mut Compose) -> Result<(), Vec<Effect>> {
        if self.owner.recheck && self.me.is_some() {
            // The service was away: until `GET /me` answers again, the
            // user named before may no longer be the key's (a reconnect,
            // the answer not in yet). Refused, the text kept, `/me` asked.
            c.set_banner(Some(WHO_FIRST.into()));
            // Not sent, as a send that failed: "back online" offers it.
            c.state = SendState::Failed {
                message: WHO_FIRST.into(),
                outcome_unknown: false,
            };
            self.say(Level::Warn, WHO_FIRST);
            return Err(self.recheck_identity());
        }
        if c.owner.is_some() && c.owner.as_deref() != self.my_id() {
            // Typed as another user than the key acts as now: theirs.
            c.set_banner(Some(NOT_YOURS.into()));
            self.say(Level::Warn, NOT_YOURS);
            return Err(vec![]);
        }
        Ok(())
    }

    /// Drafts typed as another user wait: what the header says (`None`:
    /// none wait, or the key acts as their user again).
    pub fn drafts_away_words(&self) -> Option<String> {
        let away = self.owner.drafts_away.as_ref()?;
        (self.my_id() != Some(away.user_id.as_str())).then(|| away.words())
    }
}
