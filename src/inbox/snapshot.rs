//! The fields of a task the inbox compares, as the user last saw them
//! through the inbox (stored as JSON in the inbox's base).

use crate::api::{parse_timestamp, short_id, Identity, Person, Status, Task};
use crate::domain::task_field::TaskField;
use serde::{Deserialize, Serialize};

/// Who "me" is: the user the service named (`/me`).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Me {
    pub id: String,
    pub name: String,
    pub email: String,
}

impl Me {
    pub fn of(i: &Identity) -> Me {
        Me {
            id: i.user_id.clone(),
            name: i.user_name.raw().trim().to_string(),
            email: i.user_email.raw().trim().to_string(),
        }
    }
}

/// The fields of a task the inbox compares, as the service sent them
/// (lossless: `--json` carries them exactly; screens sanitise them, see
/// `rows::group`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Snapshot {
    pub label: String,
    pub title: String,
    /// The status's own value (`in_progress`), and its words.
    pub status: String,
    pub status_words: String,
    pub priority: String,
    pub due: Option<String>,
    pub assignee_id: Option<String>,
    pub assignee: Option<String>,
    pub tags: Vec<String>,
    pub draft: bool,
    pub archived: bool,
    /// The user's place on it: assigned, creator, or among the people it
    /// is shared with (and with which access).
    pub mine: bool,
    pub creator_me: bool,
    pub shared_me: Option<String>,
    pub updated_at: Option<String>,
    /// This is what a write of the user's own was answered with (not what
    /// a walk read): a task that this answer shows leaving the walk left
    /// by the user's doing, which is no news.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub own: bool,
    /// The service's own values of the fields kept above in words
    /// (`--json`'s changes carry them). `None`: a base stored by a
    /// taskdeck that kept only the words. Not in the fingerprint (the
    /// fields above say the same, and a base without it is no change).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sent: Option<Sent>,
}

/// Status, priority and assignee exactly as the service sent them: an
/// enum value taskdeck does not know is kept as sent; the assignee is the
/// service's person object (`null`: nobody).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Sent {
    pub status: String,
    pub priority: String,
    pub assigned_to: serde_json::Value,
}

impl Snapshot {
    pub fn of(t: &Task, me: &Me) -> Snapshot {
        let assignee = t.assigned_to.as_deref().filter(|p| !p.id.is_empty());
        let shared_me = t
            .involved_people
            .iter()
            .find(|m| m.id == me.id && m.role.as_ref().is_none_or(|r| r.raw() != "assignee"))
            .map(|m| {
                m.access_level
                    .as_ref()
                    .map(|a| a.to_string())
                    .unwrap_or_default()
            });
        Snapshot {
            label: if t.display_id.is_empty() {
                short_id(&t.id)
            } else {
                t.display_id.raw().to_string()
            },
            title: t.title.raw().to_string(),
            status: t.status.to_string(),
            status_words: t.status.label(),
            priority: t.priority.label(),
            due: t.complete_by.as_deref().map(str::to_string),
            assignee_id: assignee.map(|p| p.id.to_string()),
            assignee: assignee.map(person),
            tags: t.tags.iter().map(|s| s.raw().to_string()).collect(),
            draft: t.draft,
            archived: t.archived,
            mine: assignee.is_some_and(|p| p.id == me.id),
            creator_me: t.creator.as_ref().is_some_and(|p| p.id == me.id),
            shared_me,
            updated_at: t.updated_at.as_deref().map(str::to_string),
            own: false,
            sent: Some(Sent {
                status: t.status.as_wire().to_string(),
                priority: t.priority.as_wire().to_string(),
                assigned_to: t
                    .assigned_to
                    .as_ref()
                    .and_then(|p| serde_json::to_value(p).ok())
                    .unwrap_or_default(),
            }),
        }
    }

    /// A compared field's value as the service sent it (`None`: not
    /// known, see [`Self::sent`], or a field the inbox does not keep).
    /// Title, due date, tags and archived are kept as sent in the fields
    /// above.
    pub fn sent(&self, field: TaskField) -> Option<serde_json::Value> {
        use serde_json::Value;
        let sent = self.sent.as_ref();
        match field {
            TaskField::Status => sent.map(|s| Value::from(s.status.as_str())),
            TaskField::Priority => sent.map(|s| Value::from(s.priority.as_str())),
            TaskField::AssignedTo => sent.map(|s| s.assigned_to.clone()),
            TaskField::Due => Some(self.due.as_deref().map_or(Value::Null, Value::from)),
            TaskField::Title => Some(Value::from(self.title.as_str())),
            TaskField::Tags => Some(self.tags.iter().map(|t| Value::from(t.as_str())).collect()),
            TaskField::Archived => Some(Value::Bool(self.archived)),
            TaskField::Description
            | TaskField::AdditionalContext
            | TaskField::AssignedAgent
            | TaskField::AssignedTeam
            | TaskField::Matter
            | TaskField::LinkedItems
            | TaskField::InvolvedPeople
            | TaskField::Draft => None,
        }
    }

    /// Among the tasks a walk finds, as far as the task itself tells:
    /// not archived, and assigned to, made by or shared with the user.
    pub fn in_walk(&self) -> bool {
        !self.archived && (self.mine || self.creator_me || self.shared_me.is_some())
    }

    /// A fingerprint of what the inbox compares (every field but
    /// `updated_at`): two reads with the same fingerprint hold no change
    /// for the inbox, whatever their `updated_at` say. Stable across runs
    /// and versions (FNV-1a over the fields, the due date as an instant).
    pub fn fingerprint(&self) -> u64 {
        let due = self
            .due
            .as_deref()
            .and_then(crate::api::due_instant)
            .map(|t| t.as_millisecond().to_string())
            .or_else(|| self.due.clone())
            .unwrap_or_default();
        let parts: [&str; 11] = [
            &self.title,
            &self.status,
            &self.priority,
            &due,
            self.assignee_id.as_deref().unwrap_or(""),
            &self.tags.join("\u{1f}"),
            if self.draft { "draft" } else { "" },
            if self.archived { "archived" } else { "" },
            if self.mine { "mine" } else { "" },
            if self.creator_me { "creator" } else { "" },
            self.shared_me.as_deref().map_or("-", |a| a),
        ];
        fnv1a(&parts)
    }

    /// Still to be done: neither completed nor archived.
    pub fn open(&self) -> bool {
        self.status != Status::Completed.to_string() && !self.archived
    }

    pub fn version(&self) -> i64 {
        version(self.updated_at.as_deref())
    }
}

/// A snapshot as a walk holds it from the page it came in until the walk's
/// end: its JSON (the form its base is stored in), exactly sized, and the
/// two things choosing whose comments to read asks of it. A walk holds up
/// to 20,000 of them: as `Snapshot`s (a dozen strings and the assignee's
/// parsed JSON each, ~1.2 KB) they were ~24 MB at the TUI's peak with
/// ~100,000 rows loaded (issue 42 §2); as their JSON, about half.
#[derive(Debug, PartialEq)]
pub struct Held {
    json: Box<str>,
    open: bool,
    version: i64,
}

#[cfg(test)]
thread_local! {
    /// `Held` snapshots alive on this thread, and the most at once since
    /// [`held_most`] was last asked.
    static HELD: std::cell::Cell<(usize, usize)> = const { std::cell::Cell::new((0, 0)) };
}

/// The most `Held` snapshots alive at once on this thread since the last
/// call (a walk holds a page's at most: issue 42 §2).
#[cfg(test)]
pub fn held_most() -> usize {
    HELD.with(|h| {
        let (live, most) = h.get();
        h.set((live, live));
        most
    })
}

#[cfg(test)]
impl Drop for Held {
    fn drop(&mut self) {
        HELD.with(|h| {
            let (live, most) = h.get();
            h.set((live.saturating_sub(1), most));
        });
    }
}

impl Held {
    pub fn of(s: &Snapshot) -> Held {
        #[cfg(test)]
        HELD.with(|h| {
            let (live, most) = h.get();
            h.set((live + 1, most.max(live + 1)));
        });
        Held {
            json: serde_json::to_string(s)
                .unwrap_or_default()
                .into_boxed_str(),
            open: s.open(),
            version: s.version(),
        }
    }

    /// The snapshot again (`None`: its JSON does not read back, which a
    /// snapshot's own JSON always does).
    pub fn snapshot(&self) -> Option<Snapshot> {
        serde_json::from_str(&self.json).ok()
    }

    /// Its JSON, as a base stores it.
    pub fn json(&self) -> &str {
        &self.json
    }

    pub fn open(&self) -> bool {
        self.open
    }

    pub fn version(&self) -> i64 {
        self.version
    }
}

/// A person as the service names them (name, else e-mail, else a short
/// id), unsanitised: the inbox keeps the service's text, screens clean it.
pub fn person(p: &Person) -> String {
    match crate::text::name_or_email(p.name.raw(), p.email.raw()) {
        "" => short_id(&p.id),
        w => w.to_string(),
    }
}

/// FNV-1a (64 bits) over the parts, each ended by a separator byte.
pub fn fnv1a(parts: &[&str]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for p in parts {
        for b in p.bytes().chain([0xff]) {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    h
}

/// A task's `updated_at` in milliseconds (0: none, or unreadable).
pub fn version(updated_at: Option<&str>) -> i64 {
    updated_at
        .and_then(parse_timestamp)
        .map_or(0, crate::api::unix_millis)
}
