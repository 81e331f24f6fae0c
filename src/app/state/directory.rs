//! A directory of the people and teams taskdeck has seen (creators,
//! assignees, involved people, sharing, comment authors, mentions, message
//! senders), with the tasks where each was seen. Wherever the user names a
//! person or a team, a name, an e-mail or an id works.

use crate::api::*;
use crate::domain::names;
use std::collections::{BTreeMap, BTreeSet};

/// At most this many task labels are remembered per person or team.
const TASKS_KEPT: usize = 8;

#[derive(Clone, Debug, Default, PartialEq)]
pub struct PersonEntry {
    pub id: String,
    pub name: String,
    pub email: String,
    /// `#12` labels of tasks where this person was seen.
    pub tasks: BTreeSet<String>,
    /// The name and the e-mail as the name matcher reads them
    /// (`names::fold_words`), folded once when learnt, not at every key.
    pub folded: [String; 2],
    /// [`PersonEntry::label`] and its folded form, made when learnt: what
    /// suggestions read (`names::suggest`).
    pub listed: names::Label,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct TeamEntry {
    pub id: String,
    pub name: String,
    pub tasks: BTreeSet<String>,
    /// The name as the name matcher reads it, folded once when learnt.
    pub folded: String,
    /// [`TeamEntry::label`] and its folded form, made when learnt.
    pub listed: names::Label,
}

#[derive(Clone, Debug, Default)]
pub struct Directory {
    pub people: BTreeMap<String, PersonEntry>,
    pub teams: BTreeMap<String, TeamEntry>,
    /// Counts changes, so the store writes the directory only when it grew.
    pub changes: u64,
}

/// What a typed reference resolves to.
#[derive(Clone, Debug, PartialEq)]
pub enum Resolved {
    /// (id, label)
    One(String, String),
    /// Several candidates: (id, label).
    Many(Vec<(String, String)>),
    None,
}

/// `reference` names record `id` by nature, not by a name that may
/// repeat: the id itself, an e-mail (`Name <e-mail>` as completed), or a
/// team as completed (`Name (1a2b3c4d…)`, the id's beginning).
pub fn names_one(reference: &str, id: &str) -> bool {
    let r = reference.trim();
    r == id || typed(r).contains('@') || id_prefix(r).is_some_and(|p| id.starts_with(p))
}

/// The id's beginning in a team's completed label `Name (1a2b3c4d…)`.
fn id_prefix(r: &str) -> Option<&str> {
    let i = r.rfind(" (")?;
    r.ends_with("…)")
        .then(|| &r[i + 2..r.len() - "…)".len()])
        .filter(|p| !p.is_empty())
}

impl PersonEntry {
    /// `Bob Okafor <bob@acme.test>`, as shown and as completed.
    pub fn label(&self) -> String {
        match (self.name.is_empty(), self.email.is_empty()) {
            (false, false) => format!("{} <{}>", self.name, self.email),
            (false, true) => self.name.clone(),
            (true, false) => self.email.clone(),
            (true, true) => self.id.clone(),
        }
    }
}

impl TeamEntry {
    /// The name and the id's first characters (names can repeat).
    pub fn label(&self) -> String {
        if self.name.is_empty() {
            self.id.clone()
        } else {
            format!("{} ({}…)", self.name, crate::api::short_id(&self.id))
        }
    }
}

/// Remember a task label; true when it was new.
fn note(tasks: &mut BTreeSet<String>, task: Option<&str>) -> bool {
    if let Some(t) = task.filter(|t| !t.is_empty()) {
        if tasks.len() < TASKS_KEPT && !tasks.contains(t) {
            tasks.insert(t.to_string());
            return true;
        }
    }
    false
}

/// A person or team reference as the user may type it: `Name <e-mail>`
/// (as completed) is read as the e-mail.
fn typed(q: &str) -> String {
    let q = q.trim();
    match (q.rfind('<'), q.ends_with('>')) {
        (Some(i), true) => q[i + 1..q.len() - 1].trim().to_string(),
        _ => q.to_string(),
    }
}

impl Directory {
    pub fn learn_person(&mut self, id: &str, name: &str, email: &str, task: Option<&str>) {
        if id.is_empty() {
            return;
        }
        let e = self
            .people
            .entry(id.to_string())
            .or_insert_with(|| PersonEntry {
                id: id.to_string(),
                ..Default::default()
            });
        let mut changed = e.tasks.is_empty() && e.name.is_empty() && e.email.is_empty();
        let new = e.listed.shown.is_empty();
        if e.name.is_empty() && !name.is_empty() {
            e.name = crate::text::clean(name);
            e.folded[0] = names::fold_words(&e.name);
            changed = true;
        }
        if e.email.is_empty() && !email.is_empty() {
            e.email = crate::text::clean(email);
            e.folded[1] = names::fold_words(&e.email);
            changed = true;
        }
        if changed || new {
            e.listed = names::Label::new(e.label());
        }
        changed |= note(&mut e.tasks, task);
        if changed {
            self.changes += 1;
        }
    }

    pub fn learn_team(&mut self, id: &str, name: &str, task: Option<&str>) {
        if id.is_empty() {
            return;
        }
        let e = self
            .teams
            .entry(id.to_string())
            .or_insert_with(|| TeamEntry {
                id: id.to_string(),
                ..Default::default()
            });
        let mut changed = e.tasks.is_empty() && e.name.is_empty();
        let new = e.listed.shown.is_empty();
        if e.name.is_empty() && !name.is_empty() {
            e.name = crate::text::clean(name);
            e.folded = names::fold_words(&e.name);
            changed = true;
        }
        if changed || new {
            e.listed = names::Label::new(e.label());
        }
        changed |= note(&mut e.tasks, task);
        if changed {
            self.changes += 1;
        }
    }

    /// One more task where a stored person or team was seen.
    pub fn note_task(&mut self, team: bool, id: &str, task: &str) {
        let tasks = if team {
            self.teams.get_mut(id).map(|e| &mut e.tasks)
        } else {
            self.people.get_mut(id).map(|e| &mut e.tasks)
        };
        if let Some(tasks) = tasks {
            note(tasks, Some(task));
        }
    }

    fn learn_p(&mut self, p: &Person, task: Option<&str>) {
        self.learn_person(p.id.as_str(), p.name.raw(), p.email.raw(), task);
    }

    /// Everyone and every team a task names.
    pub fn learn_task(&mut self, t: &Task) {
        let label = t.label();
        let task = Some(label.as_str());
        for p in [&t.creator, &t.assigned_to].into_iter().flatten() {
            self.learn_p(p, task);
        }
        for m in &t.involved_people {
            self.learn_person(m.id.as_str(), m.name.raw(), m.email.raw(), task);
        }
        if let Some(team) = &t.team {
            self.learn_team(team.id.as_str(), team.name.raw(), task);
        }
        // Read without keeping a parsed tree in every task of the list.
        for v in [t.assigned_team.value(), t.shared_teams.value()] {
            self.learn_teams_json(&v, task);
        }
    }

    /// Teams in an open-shape field: an object or a list of objects with an
    /// id (or team_id) and a name.
    fn learn_teams_json(&mut self, v: &serde_json::Value, task: Option<&str>) {
        match v {
            serde_json::Value::Array(a) => a.iter().for_each(|e| self.learn_teams_json(e, task)),
            serde_json::Value::Object(m) => {
                let id = m
                    .get("id")
                    .or_else(|| m.get("team_id"))
                    .and_then(|v| v.as_str());
                let name = m.get("name").and_then(|v| v.as_str()).unwrap_or("");
                if let Some(id) = id {
                    self.learn_team(id, name, task);
                }
            }
            _ => {}
        }
    }

    pub fn learn_comment(&mut self, c: &Comment, task: Option<&str>) {
        self.learn_p(&c.author, task);
        // Mentions of any shape: objects with an id and maybe a name/e-mail.
        if let serde_json::Value::Array(a) = &*c.mentioned_users {
            for m in a {
                if let Some(id) = m
                    .get("id")
                    .or_else(|| m.get("user_id"))
                    .and_then(|v| v.as_str())
                {
                    let s = |k: &str| m.get(k).and_then(|v| v.as_str()).unwrap_or("");
                    self.learn_person(id, s("name"), s("email"), task);
                }
            }
        }
    }

    pub fn learn_message(&mut self, m: &RequesterMessage, task: Option<&str>) {
        if let Some(p) = &m.sender {
            self.learn_p(p, task);
        }
    }

    pub fn learn_sharing(&mut self, s: &SharingState, task: Option<&str>) {
        for u in &s.users {
            self.learn_person(u.id.as_str(), u.name.raw(), u.email.raw(), task);
        }
        for t in &s.teams {
            self.learn_team(t.id.as_str(), t.name.raw(), task);
        }
    }

    /// A person by id, e-mail or name, through the one name matcher
    /// (`domain::names`: case and accents folded, the e-mail, any
    /// beginning of the name's words; an exact name or e-mail first).
    pub fn resolve_person(&self, q: &str) -> Resolved {
        let q = typed(q);
        if let Some(p) = self.people.get(&q) {
            return Resolved::One(p.id.clone(), p.label());
        }
        let people: Vec<&PersonEntry> = self.people.values().collect();
        let records: Vec<Vec<&str>> = people
            .iter()
            .map(|p| vec![p.folded[0].as_str(), p.folded[1].as_str()])
            .collect();
        let found: Vec<&PersonEntry> = names::find_folded(&q, &records)
            .into_iter()
            .map(|i| people[i])
            .collect();
        match found.as_slice() {
            [] => Resolved::None,
            [one] => Resolved::One(one.id.clone(), one.label()),
            many => Resolved::Many(many.iter().map(|p| (p.id.clone(), p.label())).collect()),
        }
    }

    /// A team by id or name (the one name matcher, as for people); as
    /// completed (`Name (1a2b3c4d…)`), the one whose id begins so.
    pub fn resolve_team(&self, q: &str) -> Resolved {
        let q = q.trim();
        let prefix = id_prefix(q);
        let q = match (q.rfind(" ("), prefix) {
            (Some(i), Some(_)) => &q[..i],
            _ => q,
        };
        if let Some(t) = self.teams.get(q) {
            return Resolved::One(t.id.clone(), t.label());
        }
        let teams: Vec<&TeamEntry> = self
            .teams
            .values()
            .filter(|t| prefix.is_none_or(|p| t.id.starts_with(p)))
            .collect();
        let records: Vec<Vec<&str>> = teams.iter().map(|t| vec![t.folded.as_str()]).collect();
        let found: Vec<&TeamEntry> = names::find_folded(q, &records)
            .into_iter()
            .map(|i| teams[i])
            .collect();
        match found.as_slice() {
            [] => Resolved::None,
            [one] => Resolved::One(one.id.clone(), one.label()),
            many => Resolved::Many(many.iter().map(|t| (t.id.clone(), t.label())).collect()),
        }
    }

    /// Completions: `Name <e-mail>` for every person.
    /// The people as suggestions list them (`Name <e-mail>`), folded
    /// already.
    pub fn person_labels(&self) -> Vec<&names::Label> {
        self.people.values().map(|p| &p.listed).collect()
    }

    /// The teams as suggestions list them (`Name (1a2b3c4d…)`), folded
    /// already.
    pub fn team_labels(&self) -> Vec<&names::Label> {
        self.teams.values().map(|t| &t.listed).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dir() -> Directory {
        let mut d = Directory::default();
        d.learn_person("u-1", "Sam Taylor", "sam.t@acme.test", Some("#1"));
        d.learn_person("u-2", "Sam Taylor", "sam.taylor@acme.test", Some("#2"));
        d.learn_person("u-3", "Bob Okafor", "bob@acme.test", None);
        d.learn_team("t-1", "Litigation", Some("#1"));
        d
    }

    #[test]
    fn people_resolve_by_id_email_name_and_completion_label() {
        let d = dir();
        assert_eq!(
            d.resolve_person("u-3"),
            Resolved::One("u-3".into(), "Bob Okafor <bob@acme.test>".into())
        );
        assert!(matches!(d.resolve_person("BOB@acme.test"), Resolved::One(id, _) if id == "u-3"));
        assert!(matches!(d.resolve_person("bob okafor"), Resolved::One(id, _) if id == "u-3"));
        assert!(
            matches!(d.resolve_person("Bob Okafor <bob@acme.test>"), Resolved::One(id, _) if id == "u-3")
        );
        assert!(matches!(d.resolve_person("Sam Taylor"), Resolved::Many(v) if v.len() == 2));
        assert_eq!(d.resolve_person("nobody@x"), Resolved::None);
        assert!(d.people["u-1"].tasks.contains("#1"));
    }

    #[test]
    fn teams_resolve_by_id_and_name() {
        let d = dir();
        assert!(matches!(d.resolve_team("litigation"), Resolved::One(id, _) if id == "t-1"));
        assert!(matches!(d.resolve_team("Litigation (t-1…)"), Resolved::One(id, _) if id == "t-1"));
        assert_eq!(d.resolve_team("Sales"), Resolved::None);
    }
}
