//! One change to one task: the request it becomes, what it says in words,
//! and its inverse, computed from the task as the service answered it
//! before and after the change. Single edits, bulk edits, undo and redo all
//! speak this vocabulary.

use crate::api::*;
use crate::app::state::fields::{file_entries, file_id};
use crate::domain::task_field::{TaskField, Undo};

// A few changes per task are held at a time: boxing the patch buys nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, PartialEq)]
pub enum Change {
    /// A PATCH of exactly one field.
    Patch(TaskPatch),
    /// Tags added and removed, applied to the task's tags as they are when
    /// sent (a PATCH of `tags`): the inverse of `+a -b` is `-a +b`.
    Tags {
        add: Vec<String>,
        remove: Vec<String>,
    },
    AddLinks(Vec<(LinkType, String)>),
    RemoveLink(LinkType, String),
    UpdateLink(LinkType, String, LinkUpdate),
    Attach(Vec<String>),
    Detach(String),
    /// Sharing entries set or removed, applied to the sharing state as it
    /// is when sent (read it, then PUT it whole).
    Share(ShareDelta),
    /// A reply to the requester thread (a macro's step): sent once, never
    /// taken back (undo leaves it, and says so).
    Reply(String),
    /// An internal comment (a macro's step): likewise, it stays.
    Comment(String),
}

/// People and teams whose access changes; `None` removes them.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ShareDelta {
    pub visibility: Option<Visibility>,
    pub users: Vec<(String, Option<AccessLevel>)>,
    pub teams: Vec<(String, Option<AccessLevel>)>,
    /// In words, for messages (`shared with Bob (write)`).
    pub words: String,
}

/// A patch as one-field patches, in the order of the body.
pub fn split_patch(p: &TaskPatch) -> Vec<TaskPatch> {
    TaskField::in_patch(p)
        .into_iter()
        .filter_map(|f| f.one(p))
        .collect()
}

pub use crate::domain::filters::apply_tags;

pub use crate::domain::task_field::tags as tag_list;

/// What undoes going from the tags `before` to `after`.
fn tags_back(before: &[String], after: &[String]) -> Change {
    Change::Tags {
        add: before
            .iter()
            .filter(|t| !after.contains(t))
            .cloned()
            .collect(),
        remove: after
            .iter()
            .filter(|t| !before.contains(t))
            .cloned()
            .collect(),
    }
}

fn file_ids(t: &Task) -> Vec<String> {
    file_entries(t)
        .into_iter()
        .filter_map(|(_, v)| file_id(v))
        .collect()
}

impl Change {
    /// Text sent to people (a reply, a comment): never undone or redone.
    pub fn is_message(&self) -> bool {
        matches!(self, Change::Reply(_) | Change::Comment(_))
    }

    /// The task field this change sets, if it is a PATCH.
    pub fn field(&self) -> Option<TaskField> {
        match self {
            Change::Patch(p) => TaskField::of_patch(p),
            Change::Tags { .. } => Some(TaskField::Tags),
            _ => None,
        }
    }

    /// What the row shows as pending while the change is in flight.
    pub fn pending_field(&self) -> String {
        match self {
            Change::Patch(_) | Change::Tags { .. } => self
                .field()
                .map(|f| f.wire().to_string())
                .unwrap_or_default(),
            Change::AddLinks(_) | Change::RemoveLink(..) | Change::UpdateLink(..) => "links".into(),
            Change::Attach(_) | Change::Detach(_) => "files".into(),
            Change::Share(_) => "sharing".into(),
            Change::Reply(_) => "reply".into(),
            Change::Comment(_) => "comment".into(),
        }
    }

    /// In words: `status → completed`, `tags +a -b`, `restored`,
    /// `linked #57`. `name` turns a person's id into a name, `item` a
    /// linked item into its number or name.
    pub fn words(
        &self,
        name: &dyn Fn(&str) -> String,
        item: &dyn Fn(&LinkType, &str) -> String,
    ) -> String {
        match self {
            Change::Patch(p) => TaskField::of_patch(p)
                .map(|f| f.change_words(p, name))
                .unwrap_or_else(|| "nothing changed".into()),
            Change::Tags { add, remove } => {
                let mut parts: Vec<String> = add.iter().map(|t| format!("+{t}")).collect();
                parts.extend(remove.iter().map(|t| format!("-{t}")));
                if parts.is_empty() {
                    "tags unchanged".into()
                } else {
                    format!("tags {}", parts.join(" "))
                }
            }
            Change::AddLinks(v) => format!("linked {}", linked_items(v, item)),
            Change::RemoveLink(k, i) => format!("unlinked {}", item(k, i)),
            Change::UpdateLink(k, i, u) => match (&u.role, &u.context) {
                (Some(r), _) => format!("{} link → {r}", item(k, i)),
                (None, Some(None)) => format!("check ids of {} cleared", item(k, i)),
                (None, Some(Some(ids))) => format!("{} checks → {}", item(k, i), ids.join(",")),
                (None, None) => format!("{} link updated", item(k, i)),
            },
            Change::Attach(v) if v.len() == 1 => "1 file attached".into(),
            Change::Attach(v) => format!("{} files attached", v.len()),
            Change::Detach(_) => "file detached".into(),
            Change::Share(d) => d.words.clone(),
            Change::Reply(_) => "reply to the requester".into(),
            Change::Comment(_) => "comment".into(),
        }
    }
}

/// Linked items by number or name: all of them up to three, else the
/// first three and how many more.
pub fn linked_items(v: &[(LinkType, String)], item: &dyn Fn(&LinkType, &str) -> String) -> String {
    let named: Vec<String> = v.iter().take(3).map(|(k, i)| item(k, i)).collect();
    match v.len() {
        0..=3 => named.join(", "),
        n => format!("{} and {} more", named.join(", "), n - 3),
    }
}

/// A linked item without a name known: its kind and short id (a task
/// number as typed stays as it is).
pub fn link_fallback(kind: &LinkType, id: &str) -> String {
    if id.starts_with('#') {
        id.to_string()
    } else {
        format!("{kind} {}", short_id(id))
    }
}

/// The changes that undo `done` (applied in this order to a task that was
/// `before` and became `after`), or why they cannot be undone.
pub fn inverse(
    done: &[Change],
    before: &Task,
    after: &Task,
    sharing: Option<(&SharingState, &SharingState)>,
) -> Result<Vec<Change>, String> {
    let mut out = Vec::new();
    for c in done.iter().rev() {
        out.extend(inverse_one(c, before, after, sharing)?);
    }
    Ok(out)
}

fn inverse_one(
    c: &Change,
    b: &Task,
    a: &Task,
    sharing: Option<(&SharingState, &SharingState)>,
) -> Result<Vec<Change>, String> {
    let patch = |p: TaskPatch| Ok(vec![Change::Patch(p)]);
    Ok(match c {
        Change::Patch(p) => {
            let f = TaskField::of_patch(p).ok_or("an empty change cannot be undone")?;
            match f.undo(b)? {
                Undo::Patch(p) => return patch(p),
                Undo::Tags => vec![tags_back(&tag_list(b), &tag_list(a))],
                Undo::Nothing => vec![],
            }
        }
        Change::Tags { .. } => vec![tags_back(&tag_list(b), &tag_list(a))],
        Change::AddLinks(items) => items
            .iter()
            .filter(|(k, i)| b.link(k, i).is_none())
            .map(|(k, i)| Change::RemoveLink(k.clone(), i.clone()))
            .collect(),
        Change::RemoveLink(k, i) => match b.link(k, i) {
            None => vec![],
            Some(l) => {
                let mut v = vec![Change::AddLinks(vec![(k.clone(), i.clone())])];
                let context =
                    (*k == LinkType::Review).then(|| l.context.as_ref().map(LinkContext::ids));
                let update = LinkUpdate {
                    role: l.role.clone(),
                    context,
                };
                if update != LinkUpdate::default() {
                    v.push(Change::UpdateLink(k.clone(), i.clone(), update));
                }
                v
            }
        },
        Change::UpdateLink(k, i, u) => {
            let l = b.link(k, i).ok_or("the link was not on the task before")?;
            let update = LinkUpdate {
                role: u
                    .role
                    .as_ref()
                    .map(|_| l.role.clone().unwrap_or(LinkRole::Reference)),
                context: u
                    .context
                    .as_ref()
                    .map(|_| l.context.as_ref().map(LinkContext::ids)),
            };
            vec![Change::UpdateLink(k.clone(), i.clone(), update)]
        }
        Change::Attach(ids) => {
            let had = file_ids(b);
            ids.iter()
                .filter(|i| !had.contains(i))
                .map(|i| Change::Detach(i.clone()))
                .collect()
        }
        Change::Detach(id) => {
            if file_ids(b).contains(id) {
                vec![Change::Attach(vec![id.clone()])]
            } else {
                vec![]
            }
        }
        Change::Share(_) => {
            let (before, after) = sharing.ok_or("the sharing before the change is not known")?;
            vec![Change::Share(share_back(before, after))]
        }
        // Sent to people: they stay (undo says so).
        Change::Reply(_) | Change::Comment(_) => vec![],
    })
}

/// What brings the sharing state `after` back to `before`.
pub fn share_back(before: &SharingState, after: &SharingState) -> ShareDelta {
    let mut d = ShareDelta {
        words: "sharing restored".into(),
        ..Default::default()
    };
    if before.visibility != after.visibility {
        d.visibility = Some(before.visibility.clone());
    }
    let level = |a: &Option<AccessLevel>| a.clone().unwrap_or(AccessLevel::Read);
    for u in &after.users {
        match before.users.iter().find(|x| x.id == u.id) {
            None => d.users.push((u.id.as_str().to_string(), None)),
            Some(x) if level(&x.access_level) != level(&u.access_level) => d
                .users
                .push((u.id.as_str().to_string(), Some(level(&x.access_level)))),
            Some(_) => {}
        }
    }
    for x in &before.users {
        if !after.users.iter().any(|u| u.id == x.id) {
            d.users
                .push((x.id.as_str().to_string(), Some(level(&x.access_level))));
        }
    }
    for t in &after.teams {
        match before.teams.iter().find(|x| x.id == t.id) {
            None => d.teams.push((t.id.as_str().to_string(), None)),
            Some(x) if level(&x.access_level) != level(&t.access_level) => d
                .teams
                .push((t.id.as_str().to_string(), Some(level(&x.access_level)))),
            Some(_) => {}
        }
    }
    for x in &before.teams {
        if !after.teams.iter().any(|t| t.id == x.id) {
            d.teams
                .push((x.id.as_str().to_string(), Some(level(&x.access_level))));
        }
    }
    d
}

/// The whole sharing state to PUT: `current` with `d` applied.
pub fn share_update(current: &SharingState, d: &ShareDelta) -> SharingUpdate {
    let vis = d.visibility.clone().unwrap_or(current.visibility.clone());
    let mut u = SharingUpdate::new(&vis);
    let level = |a: &Option<AccessLevel>| a.clone().unwrap_or(AccessLevel::Read);
    let mut users: Vec<(String, AccessLevel)> = current
        .users
        .iter()
        .map(|m| (m.id.as_str().to_string(), level(&m.access_level)))
        .collect();
    let mut teams: Vec<(String, AccessLevel)> = current
        .teams
        .iter()
        .map(|t| (t.id.as_str().to_string(), level(&t.access_level)))
        .collect();
    for (list, delta) in [(&mut users, &d.users), (&mut teams, &d.teams)] {
        for (id, access) in delta {
            match access {
                None => list.retain(|(x, _)| x != id),
                Some(a) => match list.iter_mut().find(|(x, _)| x == id) {
                    Some(entry) => entry.1 = a.clone(),
                    None => list.push((id.clone(), a.clone())),
                },
            }
        }
    }
    for (id, a) in &users {
        u = u.user(id, a);
    }
    for (id, a) in &teams {
        u = u.team(id, a);
    }
    u
}

/// Why `current` looks changed on the service since `ours` (the task as
/// our last write left it), judged by `updated_at` when both are readable,
/// else by the fields `changes` touch; `None` when it does not.
pub fn changed_since(
    changes: &[Change],
    expected_updated_at: Option<&str>,
    ours: Option<&Task>,
    current: &Task,
) -> Option<String> {
    let fields: Vec<TaskField> = changes.iter().filter_map(Change::field).collect();
    let moved: Vec<String> = match ours {
        Some(o) => fields
            .iter()
            .filter(|f| f.read(o) != f.read(current))
            .map(|f| format!("{} is now {}", f.label(), f.words(current)))
            .collect(),
        None => vec![],
    };
    let parse = |s: Option<&str>| s.and_then(parse_timestamp);
    let by_time = match (
        parse(expected_updated_at),
        parse(current.updated_at.as_deref()),
    ) {
        (Some(e), Some(c)) => Some(e != c),
        _ => None,
    };
    match by_time {
        Some(false) => None,
        Some(true) if moved.is_empty() => Some(format!(
            "updated on the service since (updated_at {})",
            current.updated_at.clone().unwrap_or_default()
        )),
        Some(true) => Some(moved.join("; ")),
        None if moved.is_empty() => None,
        None => Some(moved.join("; ")),
    }
}
