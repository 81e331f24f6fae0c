//! The sharing editor: edit a copy, preview who gains and who loses access,
//! and resolve ambiguous references through a picker.

use crate::api::*;
use crate::app::keymap::Action;
use crate::app::state::input::LineInput;
use crossterm::event::{KeyCode, KeyEvent};
use serde_json::Value;

#[derive(Clone, Debug, PartialEq)]
pub struct Grant {
    /// What is sent: an id, or what the user typed (e-mail or name).
    pub reference: String,
    pub label: String,
    pub access: AccessLevel,
    /// `reference` is a name as the user typed it: the service finds who
    /// (or answers 400 with the candidates, then asked here).
    pub typed: bool,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Adding {
    Person,
    Team,
}

pub struct SharingEditor {
    pub task_id: String,
    /// `#12`, named in the title and the confirmation.
    pub task_label: String,
    pub original: SharingState,
    pub visibility: Visibility,
    pub users: Vec<Grant>,
    pub teams: Vec<Grant>,
    /// 0 = visibility, then users, then teams.
    pub cursor: usize,
    pub adding: Option<(Adding, LineInput)>,
    /// People and teams taskdeck has seen: a name or an e-mail typed here
    /// that names exactly one of them is sent as its id.
    pub directory: crate::app::state::directory::Directory,
    /// Why the last save was refused (the editor came back with its edits).
    pub note: Option<String>,
}

impl SharingEditor {
    /// What an entry typed in the editor sends: an e-mail, an id or a
    /// completion's label (`Name <e-mail>`, `Team (1a2b3c4d…)`) the
    /// directory knows goes as the id it names; a bare name goes as typed
    /// (#32 §3: never a silent local guess between same names — the
    /// service answers, or the review asks first when the directory knows
    /// several).
    pub fn grant_for(&self, kind: &Adding, reference: &str, access: AccessLevel) -> Grant {
        use crate::app::state::directory::{names_one, Resolved};
        let known = match kind {
            Adding::Person => self.directory.resolve_person(reference),
            Adding::Team => self.directory.resolve_team(reference),
        };
        match known {
            Resolved::One(id, label) if names_one(reference, &id) => Grant {
                reference: id,
                label,
                access,
                typed: false,
            },
            _ => Grant {
                reference: reference.to_string(),
                label: reference.to_string(),
                access,
                typed: uuid::Uuid::parse_str(reference).is_err(),
            },
        }
    }

    /// The first entry typed as a name the directory knows several of:
    /// asked before the review (`team`, its index, the candidates but
    /// those already listed).
    pub fn ambiguous_typed(&self) -> Option<(bool, usize, Candidates)> {
        use crate::app::state::directory::Resolved;
        for (team, list) in [(false, &self.users), (true, &self.teams)] {
            for (i, g) in list.iter().enumerate().filter(|(_, g)| g.typed) {
                let found = if team {
                    self.directory.resolve_team(&g.reference)
                } else {
                    self.directory.resolve_person(&g.reference)
                };
                if let Resolved::Many(c) = found {
                    let c = self.not_listed(team, c);
                    if !c.is_empty() {
                        return Some((team, i, c));
                    }
                }
            }
        }
        None
    }

    /// The candidates that are not already an entry of the list.
    pub fn not_listed(&self, team: bool, c: Vec<(String, String)>) -> Vec<(String, String)> {
        let list = if team { &self.teams } else { &self.users };
        c.into_iter()
            .filter(|(id, _)| !list.iter().any(|g| !g.typed && g.reference == *id))
            .collect()
    }

    /// Which entry a sharing 400 with `candidates` is about: one typed as
    /// a name (an entry already shared, sent by its id, never is) — the
    /// one the candidates' names or e-mails match, else the only one.
    pub fn refused_entry(&self, candidates: &[(String, String)]) -> Option<(bool, usize)> {
        let typed: Vec<(bool, usize, &Grant)> = self
            .users
            .iter()
            .enumerate()
            .map(|(i, g)| (false, i, g))
            .chain(self.teams.iter().enumerate().map(|(i, g)| (true, i, g)))
            .filter(|(_, _, g)| g.typed)
            .collect();
        let named = |g: &Grant| {
            let r = g.reference.to_lowercase();
            candidates
                .iter()
                .any(|(_, l)| l.to_lowercase().contains(&r))
        };
        typed
            .iter()
            .find(|(_, _, g)| named(g))
            .or(typed.first())
            .map(|(team, i, _)| (*team, *i))
    }

    /// The entry `i` is the one chosen: its id is sent from now on.
    pub fn resolve(&mut self, team: bool, i: usize, id: String, label: String) {
        let list = if team {
            &mut self.teams
        } else {
            &mut self.users
        };
        if let Some(g) = list.get_mut(i) {
            g.reference = id;
            g.label = label;
            g.typed = false;
        }
    }

    /// The people or teams the line being added may name, best first (at
    /// most five): the one name matcher (`domain::names`), as the palette
    /// suggests them for `:share add` and `:share team`. Tab takes the
    /// first.
    pub fn suggestions(&self) -> Vec<String> {
        let Some((kind, input)) = &self.adding else {
            return vec![];
        };
        let (typed, _) = split_access(&input.text);
        if typed.is_empty() {
            return vec![];
        }
        let labels = match kind {
            Adding::Person => self.directory.person_labels(),
            Adding::Team => self.directory.team_labels(),
        };
        crate::domain::names::suggest(&typed, &labels)
            .into_iter()
            .take(5)
            .map(|i| labels[i].shown.clone())
            .collect()
    }

    /// Pasted text goes into the name being added, if any.
    pub fn paste(&mut self, text: &str) {
        if let Some((_, input)) = &mut self.adding {
            input.insert_str(text);
        }
    }

    pub fn from_state(task_id: String, s: &SharingState) -> Self {
        let grant = |id: &str, label: String, a: &Option<AccessLevel>| Grant {
            reference: id.to_string(),
            label,
            access: a.clone().unwrap_or(AccessLevel::Read),
            typed: false,
        };
        SharingEditor {
            task_id,
            task_label: String::new(),
            original: s.clone(),
            visibility: s.visibility.clone(),
            users: s
                .users
                .iter()
                .map(|u| {
                    let label = format!("{} <{}>", u.name.line(), u.email.line());
                    grant(&u.id, label, &u.access_level)
                })
                .collect(),
            teams: s
                .teams
                .iter()
                .map(|t| grant(&t.id, t.name.line().into_owned(), &t.access_level))
                .collect(),
            cursor: 0,
            adding: None,
            directory: Default::default(),
            note: None,
        }
    }

    pub fn rows(&self) -> usize {
        1 + self.users.len() + self.teams.len()
    }

    pub fn update(&self) -> SharingUpdate {
        let mut u = SharingUpdate::new(&self.visibility);
        for g in &self.users {
            u = u.user(&g.reference, &g.access);
        }
        for g in &self.teams {
            u = u.team(&g.reference, &g.access);
        }
        u
    }

    /// Exactly who gains, loses or changes access, in words.
    pub fn diff(&self, me: Option<&str>) -> Vec<String> {
        let mut out = Vec::new();
        if self.visibility != self.original.visibility {
            out.push(format!(
                "visibility: {} -> {}{}",
                self.original.visibility,
                self.visibility,
                if self.visibility == Visibility::Customer {
                    " (anyone in the organisation can see it)"
                } else {
                    " (only the people and teams listed)"
                }
            ));
        }
        for (kind, orig, now) in [
            (
                "person",
                self.original
                    .users
                    .iter()
                    .map(|u| {
                        let you = if Some(u.id.as_str()) == me {
                            " (you)"
                        } else {
                            ""
                        };
                        let role = u.role.as_ref().map(|r| r.line().into_owned());
                        let note = match role.as_deref() {
                            Some(r @ ("creator" | "assignee")) => {
                                format!(
                                    " — note: the task's {r}; the service may keep their access"
                                )
                            }
                            _ => String::new(),
                        };
                        (
                            u.id.as_str().to_string(),
                            format!("{} <{}>{you}", u.name.line(), u.email.line()),
                            u.access_level.clone(),
                            note,
                        )
                    })
                    .collect::<Vec<_>>(),
                &self.users,
            ),
            (
                "team",
                self.original
                    .teams
                    .iter()
                    .map(|t| {
                        (
                            t.id.as_str().to_string(),
                            t.name.line().into_owned(),
                            t.access_level.clone(),
                            String::new(),
                        )
                    })
                    .collect(),
                &self.teams,
            ),
        ] {
            for g in now.iter() {
                match orig.iter().find(|(id, _, _, _)| *id == g.reference) {
                    // A name as typed: the service finds who, or refuses.
                    None if g.typed => out.push(format!(
                        "+ {kind} named {:?} gains {} access (if the service finds exactly one)",
                        g.label, g.access
                    )),
                    None => out.push(format!("+ {kind} {} gains {} access", g.label, g.access)),
                    Some((_, _, a, _)) if a.as_ref() != Some(&g.access) => out.push(format!(
                        "~ {kind} {}: {} -> {}",
                        g.label,
                        a.as_ref()
                            .map(|a| a.to_string())
                            .unwrap_or_else(|| "?".into()),
                        g.access
                    )),
                    _ => {}
                }
            }
            for (id, label, _, note) in &orig {
                if !now.iter().any(|g| &g.reference == id) {
                    out.push(format!("- {kind} {label} loses access{note}"));
                }
            }
        }
        if let Some(me) = me {
            let mine = self.original.users.iter().find(|u| u.id == me);
            let keeps = self.users.iter().any(|g| g.reference == me);
            if let (Some(u), false) = (mine, keeps || self.visibility == Visibility::Customer) {
                // What the result will say, said beforehand: the service
                // may keep the creator's or the assignee's access.
                let role = u.role.as_ref().map(|r| r.line().into_owned());
                out.push(match role.as_deref() {
                    Some(r @ ("creator" | "assignee")) => format!(
                        "!! YOU WILL LOSE ACCESS TO THIS TASK unless the service keeps the \
                         task's {r} (you; it may) or one of your teams keeps it"
                    ),
                    _ => "!! YOU WILL LOSE ACCESS TO THIS TASK (unless one of your teams keeps it)"
                        .into(),
                });
            }
        }
        if out.is_empty() {
            out.push("no change".into());
        }
        out
    }
}

/// People or teams a name may mean: (id, label).
pub type Candidates = Vec<(String, String)>;

/// Choose among the candidates for an ambiguous name: those a sharing 400
/// listed, or those the directory knows.
pub struct Picker {
    pub reference: String,
    pub team: bool,
    /// (id, label)
    pub candidates: Vec<(String, String)>,
    /// The candidates as shown (`names::told_apart`) with their folded
    /// form, made once when the picker opens (`Picker::new`), not at each
    /// key.
    pub listed: Vec<crate::domain::names::Label>,
    /// Which of `rows()` Enter takes.
    pub selected: usize,
    /// The first row the last frame showed (as a chooser's: the window
    /// moves only when the mark leaves it).
    pub offset: usize,
    pub then: PickThen,
    /// What is typed to narrow the candidates (the `find:` line), as in
    /// every picker one types into (`popups/chooser/`).
    pub find: LineInput,
}

/// What the chosen id is for.
pub enum PickThen {
    /// Resend the sharing PUT with the chosen id in place of `reference`.
    PutSharing {
        task_id: String,
        update: SharingUpdate,
    },
    /// The entry `index` (of the teams if the picker's `team`) of this
    /// editor was the ambiguous one: it takes the chosen id, and the
    /// review follows.
    Editor {
        editor: Box<SharingEditor>,
        index: usize,
    },
    /// Run this palette command with `{}` replaced by the chosen id, on
    /// the task that was current when the picker opened (never another).
    Command {
        template: String,
        target: Option<(String, String)>,
    },
}

/// Find the candidate list in a 400 body of unknown shape: any array of
/// objects (with an id) or strings, under any key, at any depth.
pub fn candidates_in(body: &Value) -> Vec<(String, String)> {
    fn walk(v: &Value, out: &mut Vec<(String, String)>) {
        match v {
            Value::Array(a) if !a.is_empty() => {
                let mut found = Vec::new();
                for e in a {
                    match e {
                        Value::Object(m) => {
                            if let Some(id) = m
                                .get("id")
                                .or_else(|| m.get("user_id"))
                                .or_else(|| m.get("team_id"))
                                .and_then(|v| v.as_str())
                            {
                                let mut label: Vec<String> = Vec::new();
                                for k in ["name", "email", "display_name"] {
                                    if let Some(s) = m.get(k).and_then(|v| v.as_str()) {
                                        label.push(crate::text::clean(s));
                                    }
                                }
                                if label.is_empty() {
                                    label.push(crate::api::json_lines(e).join(", "));
                                }
                                found.push((id.to_string(), label.join(" ")));
                            }
                        }
                        Value::String(s) => found.push((s.clone(), crate::text::clean(s))),
                        _ => {}
                    }
                }
                if found.is_empty() {
                    a.iter().for_each(|e| walk(e, out));
                } else if out.is_empty() {
                    *out = found;
                }
            }
            Value::Object(m) => m.values().for_each(|v| walk(v, out)),
            _ => {}
        }
    }
    let mut out = Vec::new();
    walk(body, &mut out);
    out
}

/// A line typed in the editor: the reference, and the access its last
/// word gives (`read`, `write`; read when none).
fn split_access(text: &str) -> (String, AccessLevel) {
    let text = text.trim();
    match text.rsplit_once(' ') {
        Some((r, "write")) => (r.trim().to_string(), AccessLevel::Write),
        Some((r, "read")) => (r.trim().to_string(), AccessLevel::Read),
        _ => (text.to_string(), AccessLevel::Read),
    }
}

/// What a key did in the sharing editor.
#[derive(Debug, PartialEq)]
pub enum SharingOutcome {
    Stay,
    Cancel,
    /// Show what would change before the PUT.
    Review,
}

/// What a key did in a picker.
#[derive(Debug, PartialEq)]
pub enum PickerOutcome {
    Stay,
    Cancel,
    Chosen(String),
}

impl SharingEditor {
    /// A key, and the action the `sharing` keymap context binds it to
    /// (while a name is being typed, keys go to it).
    pub fn on_key(&mut self, ev: &KeyEvent, action: Option<Action>) -> SharingOutcome {
        let ed = self;
        if let Some((kind, mut input)) = ed.adding.take() {
            match ev.code {
                KeyCode::Esc => {}
                KeyCode::Enter => {
                    let (reference, access) = split_access(&input.text);
                    if !reference.is_empty() {
                        let g = ed.grant_for(&kind, &reference, access);
                        match kind {
                            Adding::Person => ed.users.push(g),
                            Adding::Team => ed.teams.push(g),
                        }
                    }
                }
                KeyCode::Tab => {
                    // The first suggestion, the access typed kept.
                    ed.adding = Some((kind, input));
                    if let Some(first) = ed.suggestions().into_iter().next() {
                        if let Some((_, input)) = ed.adding.as_mut() {
                            let t = input.text.trim_end();
                            let access = [" write", " read"]
                                .into_iter()
                                .find(|w| t.ends_with(w))
                                .unwrap_or("");
                            *input = LineInput::with(&format!("{first}{access}"));
                        }
                    }
                }
                _ => {
                    input.handle(ev);
                    ed.adding = Some((kind, input));
                }
            }
            return SharingOutcome::Stay;
        }
        let row = ed.cursor;
        let nu = ed.users.len();
        match action {
            Some(Action::Close) => return SharingOutcome::Cancel,
            Some(Action::Down) => ed.cursor = (ed.cursor + 1).min(ed.rows() - 1),
            Some(Action::Up) => ed.cursor = ed.cursor.saturating_sub(1),
            Some(Action::ToggleVisibility) => {
                ed.visibility = match ed.visibility {
                    Visibility::Customer => Visibility::Private,
                    _ => Visibility::Customer,
                }
            }
            Some(Action::ToggleAccess) => {
                if row == 0 {
                    ed.visibility = match ed.visibility {
                        Visibility::Customer => Visibility::Private,
                        _ => Visibility::Customer,
                    };
                } else {
                    let g = if row <= nu {
                        &mut ed.users[row - 1]
                    } else {
                        &mut ed.teams[row - 1 - nu]
                    };
                    g.access = if g.access == AccessLevel::Write {
                        AccessLevel::Read
                    } else {
                        AccessLevel::Write
                    };
                }
            }
            Some(Action::RemoveEntry) if row > 0 => {
                if row <= nu {
                    ed.users.remove(row - 1);
                } else {
                    ed.teams.remove(row - 1 - nu);
                }
                ed.cursor = ed.cursor.min(ed.rows() - 1);
            }
            Some(Action::AddPerson) => ed.adding = Some((Adding::Person, LineInput::default())),
            Some(Action::AddTeam) => ed.adding = Some((Adding::Team, LineInput::default())),
            Some(Action::Review) => return SharingOutcome::Review,
            _ => {}
        }
        SharingOutcome::Stay
    }
}

impl Picker {
    /// A picker of `candidates` (id, label), nothing typed, the first
    /// chosen: their labels told apart and folded here, once.
    pub fn new(
        reference: String,
        team: bool,
        candidates: Vec<(String, String)>,
        then: PickThen,
    ) -> Picker {
        let listed = crate::domain::names::told_apart(&candidates)
            .into_iter()
            .map(crate::domain::names::Label::new)
            .collect();
        Picker {
            reference,
            team,
            candidates,
            listed,
            selected: 0,
            offset: 0,
            then,
            find: LineInput::default(),
        }
    }

    /// The candidates left by what is typed (indices into `candidates`),
    /// by the one name matcher; all of them while nothing is typed.
    pub fn rows(&self) -> Vec<usize> {
        crate::domain::names::suggest(&self.find.text, &self.listed)
    }

    /// A key, and the action the `picker` keymap context binds it to: a
    /// text key goes to the `find:` line (letters are letters, as in
    /// every picker one types into; the arrows move). The moves, Enter
    /// and Esc, and where the mark goes as the rows narrow, are every
    /// picker's (`chooser::step`, `chooser::kept`).
    pub fn on_key(&mut self, ev: &KeyEvent, action: Option<Action>) -> PickerOutcome {
        use super::chooser::{kept, step, Step};
        if crate::app::state::input::edits_text(ev) {
            let was = self.rows().get(self.selected).copied();
            if self.find.handle(ev) {
                self.selected = kept(was, self.rows());
            }
            return PickerOutcome::Stay;
        }
        let rows = self.rows();
        match step(&mut self.selected, rows.len(), action) {
            Step::Close => PickerOutcome::Cancel,
            Step::Choose(i) => PickerOutcome::Chosen(self.candidates[rows[i]].0.clone()),
            Step::Stay | Step::Other(_) => PickerOutcome::Stay,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn candidates_found_under_any_key() {
        let b = json!({"error": "ambiguous", "candidates": [{"id": "u1", "name": "Sam", "email": "s1@x"}, {"id": "u2", "name": "Sam", "email": "s2@x"}]});
        assert_eq!(
            candidates_in(&b),
            vec![
                ("u1".into(), "Sam s1@x".into()),
                ("u2".into(), "Sam s2@x".into())
            ]
        );
        let b = json!({"detail": {"matches": ["a", "b"]}});
        assert_eq!(candidates_in(&b).len(), 2);
        assert!(candidates_in(&json!({"error": "bad"})).is_empty());
    }
}
