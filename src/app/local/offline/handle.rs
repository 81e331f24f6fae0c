//! What the state does for `offline` (its `impl State`): above the state,
//! which holds the data of `super` and never this module.

use super::super::outbox::is_read;
use super::*;
use crate::app::state::{
    ApiRequest, ApiResult, Detail, Effect, Level, Load, Overlay, SendState, State,
};
use std::time::Instant;

impl State {
    /// Every answer says something of the link: a failure to connect puts
    /// taskdeck offline; any answer puts it back online.
    pub(crate) fn connectivity(&mut self, r: &ApiResult) -> Vec<Effect> {
        if let Some(o) = &mut self.offline {
            if o.probing == Some(r.ticket) {
                o.probing = None;
            }
        }
        // `GET /me` names the same user as before: whose edits may go out
        // is settled before the outbox is pumped.
        if let (ApiRequest::Me, Ok(crate::app::state::Reply::Me(me))) = (&r.req, &r.result) {
            if self.my_id() == Some(me.user_id.as_str()) {
                self.owner.recheck = false;
                self.owner.asked = false;
            }
        }
        // Away, the key may have been reissued to someone else (the
        // service names no user on a write): until `GET /me` answers,
        // taskdeck stays offline — the worker answers every other request
        // at once, so a write made meanwhile is queued, never sent as
        // whoever the key acts as now (simulator seed 515215864).
        if let (Some(o), true) = (&mut self.offline, self.owner.recheck) {
            match (&r.req, &r.result) {
                // Another answer: the service is back; `/me` asked now.
                (req, Ok(_)) if !matches!(req, ApiRequest::Me) => return self.probe_now(),
                // `/me` refused by a service that answers: still held,
                // asked again at the next probe.
                (ApiRequest::Me, Err(e)) if e.refused_by_the_service() => {
                    o.why = crate::text::clean(&format!(
                        "the service answers, but who the key acts as is not confirmed yet: {e}"
                    ));
                    return vec![];
                }
                _ => {}
            }
        }
        match &r.result {
            Ok(_) => self.back_online(),
            // A certificate or proxy refused: a setting to fix, shown as
            // the request's error; neither offline nor probed for again.
            Err(e) if e.is_setup() => {
                self.offline = None;
                vec![]
            }
            Err(e)
                if e.unreachable()
                    || (is_read(&r.req) && matches!(e, ApiError::Network { .. })) =>
            {
                self.go_offline(e.to_string());
                vec![]
            }
            // The service answered, if only to refuse.
            Err(e) if e.refused_by_the_service() => self.back_online(),
            Err(_) => vec![],
        }
    }

    fn go_offline(&mut self, why: String) {
        if self.offline.is_some() {
            return;
        }
        tracing::warn!(why = %why, "the service cannot be reached: offline");
        // Who the key acts as is asked again before anything is sent.
        self.owner.recheck = true;
        self.owner.asked = false;
        self.offline = Some(Offline {
            since: crate::clock::timestamp(),
            next_probe: crate::clock::instant() + PROBE_FIRST,
            backoff: PROBE_FIRST,
            probing: None,
            why: crate::text::clean(&why),
        });
        let nothing = self.local.on && self.local.user.is_none() && self.me.is_none();
        self.say(
            Level::Warn,
            if nothing {
                // A key never seen on this service: nothing of anyone else's
                // is shown (or queued) under it.
                "OFFLINE — nothing stored for this key yet: the service cannot be reached; retrying"
            } else if self.local.read_only.is_some() {
                // The store said its edits are NOT KEPT: the same words.
                "OFFLINE: the service cannot be reached — showing what is stored; edits made now are NOT KEPT (the local store is read-only): queued in memory only, sent if the service is back before you quit; retrying"
            } else {
                "OFFLINE: the service cannot be reached — showing what is stored; edits are queued; retrying"
            },
        );
    }

    fn back_online(&mut self) -> Vec<Effect> {
        let Some(o) = self.offline.take() else {
            return self.outbox_pump();
        };
        let away = crate::clock::timestamp().duration_since(o.since);
        tracing::info!(secs = away.as_secs(), "the service answers again: online");
        let queued = self.outbox.len();
        self.say(
            Level::Success,
            if queued > 0 {
                format!(
                    "back online — sending {} from the outbox",
                    crate::domain::words::plural(queued, "queued edit", "queued edits")
                )
            } else {
                "back online".to_string()
            },
        );
        if let Overlay::Compose(c) = &mut self.overlay {
            if matches!(c.state, SendState::Failed { .. }) {
                c.note = Some("the service is back — ctrl-s sends your text now".into());
            }
        }
        // The outbox reads its tasks first; the refresh does not read them
        // twice.
        let mut fx = self.outbox_pump();
        fx.extend(self.recheck_identity());
        fx.extend(self.refresh());
        fx
    }

    /// The service answered again while offline: `GET /me` asked now
    /// (once: a probe in flight is waited for), not at the next tick.
    fn probe_now(&mut self) -> Vec<Effect> {
        if self.offline.as_ref().is_none_or(|o| o.probing.is_some()) {
            return vec![];
        }
        let fx = self.request(ApiRequest::Me);
        if let (Some(o), Effect::Api { ticket, .. }) = (&mut self.offline, &fx) {
            o.probing = Some(*ticket);
        }
        vec![fx]
    }

    /// On every tick while offline: probe when due (backoff to 30 s).
    pub(crate) fn offline_tick(&mut self, now: Instant) -> Vec<Effect> {
        if self.offline.as_ref().is_none_or(|o| now < o.next_probe) {
            return vec![];
        }
        let fx = self.probe_now();
        if let (Some(o), false) = (&mut self.offline, fx.is_empty()) {
            o.backoff = (o.backoff * 2).min(PROBE_MAX);
            o.next_probe = now + o.backoff;
        }
        fx
    }

    /// Seconds until the next probe, for the header.
    pub fn offline_retry_in(&self, now: Instant) -> Option<u64> {
        self.offline
            .as_ref()
            .map(|o| o.next_probe.saturating_duration_since(now).as_secs())
    }
}

impl State {
    /// `:profile NAME`: leave this service and user for another profile's
    /// (drafts are saved and the store written first, as at quit).
    pub fn switch_profile(&mut self, name: &str) -> Result<Vec<Effect>, String> {
        self.may_switch(name)?;
        let names = crate::config::profile_names();
        if !names.iter().any(|n| n == name) {
            return Err(if names.is_empty() {
                format!("no profile {name:?}: the config file defines none (a connection at its top level, [profiles.NAME])")
            } else {
                format!("no profile {name:?} (profiles: {})", names.join(", "))
            });
        }
        self.switch_to_known(name)
    }

    /// Switch to a profile known to be configured (its inbox is shown):
    /// drafts saved and the store written first, as at quit.
    pub fn switch_to_known(&mut self, name: &str) -> Result<Vec<Effect>, String> {
        self.may_switch(name)?;
        self.switch_to = Some(name.to_string());
        self.quit = true;
        Ok(vec![])
    }

    /// What forbids leaving this profile for `name`, if anything.
    fn may_switch(&self, name: &str) -> Result<(), String> {
        if self.demo {
            return Err("the demo has no profiles: run taskdeck with a config file".into());
        }
        // By name: the top level's connection is the profile
        // `default_profile` names.
        if self.profile.as_deref().unwrap_or(&self.default_profile) == name {
            return Err(format!("profile {name:?} is the one in use"));
        }
        // Edits held only in memory would be lost with this session.
        let lost = self.outbox_lost().len();
        if lost > 0 {
            return Err(format!(
                "{} not kept by the store: switching would lose {} — wait for the service, or cancel {} in :outbox",
                crate::domain::words::plural(lost, "queued edit is", "queued edits are"),
                if lost == 1 { "it" } else { "them" },
                if lost == 1 { "it" } else { "them" },
            ));
        }
        Ok(())
    }
}

impl State {
    /// Offline, a read that could not go out leaves what is shown (from
    /// the store) as it is: no screen fills with errors.
    pub(crate) fn keeps_shown_offline(&mut self, r: &ApiResult) -> bool {
        let Err(e) = &r.result else { return false };
        if !(e.unreachable() || matches!(e, ApiError::Network { .. })) {
            return false;
        }
        let d = self.detail.as_ref();
        let shown =
            |id: &str, f: &dyn Fn(&Detail) -> bool| d.is_some_and(|d| d.task_id == id && f(d));
        match &r.req {
            ApiRequest::ListPage { gen, cursor, .. } if *gen == self.list.gen => {
                self.list_walk_failed(cursor.is_none());
                let l = &mut self.list;
                if l.items.is_empty() {
                    l.error = Some(format!("{e} — nothing stored for this view"));
                }
                true
            }
            ApiRequest::RefreshPage { gen, page, .. } => {
                // The rows stay; the page is asked again once back.
                if *gen == self.list.gen {
                    if let Some(p) = self.list.pages.get_mut(*page) {
                        p.asking = false;
                    }
                }
                true
            }
            ApiRequest::FindByNumber { number, .. } => {
                let n = *number;
                self.local
                    .store(crate::store::worker::StoreCmd::FindNumber {
                        number: n,
                        first: false,
                    });
                self.local.on
            }
            ApiRequest::GetTask { id } => shown(id, &|d| d.task.is_some()),
            ApiRequest::Comments { id } => shown(id, &|d| matches!(d.comments, Load::Loaded(_))),
            ApiRequest::Thread { id } => shown(id, &|d| matches!(d.thread, Load::Loaded(_))),
            ApiRequest::Subtasks { id } => shown(id, &|d| matches!(d.subtasks, Load::Loaded(_))),
            ApiRequest::GetSharing { id } => shown(id, &|d| matches!(d.sharing, Load::Loaded(_))),
            ApiRequest::Me => true,
            _ => false,
        }
    }
}
