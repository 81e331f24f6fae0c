//! Sharing: open the editor on the current state, review before the PUT,
//! and resolve ambiguous names the service refused through a picker.

use crate::api::*;
use crate::app::popups::sharing::*;
use crate::app::state::{ApiRequest, Effect, Focus, Level, Load, Overlay, State, Tab};

/// What `loading the current sharing…` is about: cleared when it loads.
const SHARING_LOAD: &str = "sharing-load";

impl State {
    /// The sharing of task `id` read: shown in its tab, and the editor
    /// opened if `S` asked for it while it loaded.
    pub(crate) fn sharing_loaded(
        &mut self,
        id: String,
        result: Result<crate::app::state::Reply, ApiError>,
    ) -> Vec<Effect> {
        let mut edit = false;
        if let Some(d) = self.detail.as_mut().filter(|d| d.task_id == id) {
            d.sharing = match result {
                Ok(crate::app::state::Reply::Sharing(s)) => Load::Loaded(s),
                Ok(_) => Load::Failed("unexpected answer".into()),
                Err(e) => Load::Failed(e.to_string()),
            };
            edit = std::mem::take(&mut d.edit_sharing_when_loaded)
                && matches!(d.sharing, Load::Loaded(_))
                && matches!(self.overlay, Overlay::None);
        }
        // `loading the current sharing…` is over (an error says its own).
        self.cleared(SHARING_LOAD);
        if edit {
            if let Err(e) = self.open_sharing() {
                self.say(Level::Error, e);
            }
        }
        vec![]
    }

    pub fn open_sharing(&mut self) -> Result<Vec<Effect>, String> {
        // Sharing is the current task's, like every other task action.
        let mut fx = Vec::new();
        self.target()?;
        let d = self.detail.as_mut().ok_or("no task selected")?;
        match &d.sharing {
            Load::Loaded(s) => {
                let mut ed = SharingEditor::from_state(d.task_id.clone(), s);
                ed.task_label = d.task.as_ref().map(|t| t.label()).unwrap_or_default();
                ed.directory = self.directory.clone();
                self.overlay = Overlay::Sharing(Box::new(ed));
                Ok(fx)
            }
            _ => {
                // Open the editor as soon as the current state arrives.
                d.tab = Tab::Sharing;
                d.edit_sharing_when_loaded = true;
                self.focus = Focus::Detail;
                if matches!(d.sharing, Load::Failed(_)) {
                    d.sharing = Load::NotLoaded;
                }
                // A transient word: it leaves once the sharing is read.
                self.say_about(SHARING_LOAD, Level::Info, "loading the current sharing…");
                fx.extend(self.load_tab(Tab::Sharing));
                Ok(fx)
            }
        }
    }

    /// A sharing PUT answered 400: offer the candidates if the body has any.
    pub fn sharing_refused(&mut self, id: String, update: SharingUpdate, err: &ApiError) -> bool {
        let Some(body) = err.bad_request_body() else {
            return false;
        };
        let candidates = candidates_in(body);
        if candidates.is_empty() {
            return false;
        }
        let lower = |s: &str| s.to_lowercase();
        // Which reference was ambiguous: one the candidates' labels match,
        // else the first that is not an id.
        let refs: Vec<(bool, String)> = update
            .users
            .iter()
            .map(|u| (false, u.user_id.clone()))
            .chain(update.teams.iter().map(|t| (true, t.team_id.clone())))
            .collect();
        let hit = refs
            .iter()
            .find(|(_, r)| candidates.iter().any(|(_, l)| lower(l).contains(&lower(r))))
            .or_else(|| refs.iter().find(|(_, r)| uuid::Uuid::parse_str(r).is_err()))
            .cloned();
        let Some((team, reference)) = hit else {
            return false;
        };
        // Picking adds someone: one already in the update is not offered
        // (choosing them would replace the new row with an existing one).
        let present: Vec<&str> = if team {
            update.teams.iter().map(|t| t.team_id.as_str()).collect()
        } else {
            update.users.iter().map(|u| u.user_id.as_str()).collect()
        };
        let candidates: Vec<(String, String)> = candidates
            .into_iter()
            .filter(|(id, _)| !present.contains(&id.as_str()))
            .collect();
        if candidates.is_empty() {
            return false;
        }
        self.overlay = Overlay::Picker(Picker::new(
            reference,
            team,
            candidates,
            PickThen::PutSharing {
                task_id: id,
                update,
            },
        ));
        true
    }

    /// A sharing 400 listed candidates for the entry `ed` had typed: the
    /// picker asks which, saying the text typed; the chosen id replaces
    /// that entry alone and the review follows (`PickThen::Editor`).
    fn ask_for_typed(
        &mut self,
        ed: Box<SharingEditor>,
        err: &ApiError,
    ) -> Result<(), Box<SharingEditor>> {
        let Some(candidates) = err.bad_request_body().map(candidates_in) else {
            return Err(ed);
        };
        let Some((team, index)) = ed.refused_entry(&candidates) else {
            return Err(ed);
        };
        let candidates = ed.not_listed(team, candidates);
        if candidates.is_empty() {
            return Err(ed);
        }
        let list = if team { &ed.teams } else { &ed.users };
        let reference = list[index].reference.clone();
        self.say(
            Level::Warn,
            format!("the service found more than one {reference:?} — pick one"),
        );
        self.overlay = Overlay::Picker(Picker::new(
            reference,
            team,
            candidates,
            PickThen::Editor { editor: ed, index },
        ));
        Ok(())
    }

    /// The sharing PUT answered: say who was just added, what the service
    /// kept that the change left out (the creator, the assignee), or that
    /// you lost access.
    pub(crate) fn sharing_saved(
        &mut self,
        ticket: u64,
        id: String,
        update: &SharingUpdate,
        s: SharingState,
    ) -> Vec<Effect> {
        self.sharing_sent.take_if(|(t, _)| *t == ticket);
        // Who had access before this change (the sharing shown), to tell a
        // person just added (sent by name or e-mail, so not by id) from
        // one the service kept against the change.
        let before: Option<Vec<String>> = self
            .detail
            .as_ref()
            .filter(|d| d.task_id == id)
            .and_then(|d| match &d.sharing {
                Load::Loaded(b) => Some(b.users.iter().map(|u| u.id.to_string()).collect()),
                _ => None,
            });
        let said = |u: &crate::api::Member| match &u.role {
            Some(r) => format!("{} ({})", u.name.line(), r.line()),
            None => u.name.line().into_owned(),
        };
        let (mut added, mut kept) = (Vec::new(), Vec::new());
        for u in &s.users {
            let sent_by_id = update.users.iter().any(|x| x.user_id == u.id.as_str());
            let sent_by_reference = update.users.iter().any(|x| {
                x.user_id.eq_ignore_ascii_case(u.email.line().as_ref())
                    || x.user_id.eq_ignore_ascii_case(u.name.line().as_ref())
            });
            let new = match &before {
                Some(b) => !b.iter().any(|b| b == u.id.as_str()),
                None => sent_by_reference && !sent_by_id,
            };
            if new {
                added.push(said(u));
            } else if !sent_by_id && !sent_by_reference {
                kept.push(said(u));
            }
        }
        let me = self.my_id().unwrap_or_default().to_string();
        let lost = s.visibility != Visibility::Customer && !s.users.iter().any(|u| u.id == me);
        if lost {
            // Reading the task again would only answer "not found".
            self.say(
                Level::Warn,
                "sharing saved — you no longer have access to this task (unless a team of yours does)",
            );
            if let Some(d) = self.detail.as_mut().filter(|d| d.task_id == id) {
                d.sharing = Load::Loaded(s);
            }
            return vec![];
        }
        let mut words = "sharing saved".to_string();
        if !added.is_empty() {
            words.push_str(&format!("; added {}", added.join(", ")));
        }
        if kept.is_empty() {
            self.say(Level::Success, words);
        } else {
            words.push_str(&format!(
                "; the service kept access for {}",
                kept.join(", ")
            ));
            self.say(Level::Warn, words);
        }
        let mut fx = Vec::new();
        if let Some(d) = self.detail.as_mut().filter(|d| d.task_id == id) {
            d.sharing = Load::Loaded(s);
            // The task's visibility and people follow: reload it.
            fx.push(self.request(ApiRequest::GetTask { id }));
        }
        fx
    }

    /// The sharing PUT was refused: a picker when the service named
    /// candidates, else the editor back with its edits and the reason.
    pub(crate) fn sharing_save_failed(
        &mut self,
        ticket: u64,
        id: String,
        update: SharingUpdate,
        e: &ApiError,
    ) -> Vec<Effect> {
        let editor = self
            .sharing_sent
            .take_if(|(t, _)| *t == ticket)
            .map(|(_, ed)| ed);
        // The editor's copy knows which entry was typed: the candidates
        // are about that one, and every other entry stays as it is.
        let editor = match editor {
            Some(ed) => match self.ask_for_typed(ed, e) {
                Ok(()) => return vec![],
                Err(ed) => Some(ed),
            },
            None if self.sharing_refused(id, update, e) => {
                self.say(Level::Warn, format!("{e} — pick one"));
                return vec![];
            }
            None => None,
        };
        self.say(Level::Error, format!("saving sharing failed: {e}"));
        // Unless another popup opened meanwhile.
        if let (Some(mut ed), true) = (editor, matches!(self.overlay, Overlay::None)) {
            ed.note = Some(e.to_string());
            // The editor comes back on its task: a user who moved on while
            // the save was on its way is taken back to it, never shown the
            // editor over another task (found by the simulator, seed
            // 727590415).
            let fx = self.jump_to(ed.task_id.clone(), None);
            self.overlay = Overlay::Sharing(ed);
            return fx;
        }
        vec![]
    }
}
