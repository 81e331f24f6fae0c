//! Items from what the inbox last knew of a task and what the service has
//! now. Pure: every reason has a test here.

pub use super::snapshot::Me;
use super::snapshot::Snapshot;
use crate::api::{due_instant, parse_timestamp, Comment};
use crate::domain::later;
use crate::store::InboxItem;
use jiff::Timestamp;
use serde::{Deserialize, Serialize};

/// Why an item is in the inbox. The order is the order in a row: what
/// names the user comes first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Kind {
    Mention,
    Reply,
    Assigned,
    Fields,
    Comment,
    Shared,
    Unassigned,
    Gone,
    FollowUp,
    Due,
    Draft,
}

impl Kind {
    pub const ALL: [Kind; 11] = [
        Kind::Mention,
        Kind::Reply,
        Kind::Assigned,
        Kind::Fields,
        Kind::Comment,
        Kind::Shared,
        Kind::Unassigned,
        Kind::Gone,
        Kind::FollowUp,
        Kind::Due,
        Kind::Draft,
    ];
    /// The `reason` of `taskdeck inbox --json`.
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Mention => "mentioned",
            Kind::Reply => "reply",
            Kind::Assigned => "assigned",
            Kind::Fields => "changed",
            Kind::Comment => "comment",
            Kind::Shared => "shared",
            Kind::Unassigned => "unassigned",
            Kind::Gone => "access_removed",
            Kind::FollowUp => "follow-up",
            Kind::Due => "due",
            Kind::Draft => "draft",
        }
    }
    pub fn parse(s: &str) -> Option<Kind> {
        Kind::ALL.into_iter().find(|k| k.as_str() == s)
    }
    pub fn rank(self) -> i64 {
        self as i64
    }
}

/// One changed field: before → after, in words.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Change {
    pub field: String,
    pub before: String,
    pub after: String,
}

pub fn secs(raw: Option<&str>) -> Option<i64> {
    raw.and_then(parse_timestamp).map(crate::api::unix_seconds)
}

// Every part of an item, named at each call: a struct would only move
// the same eight names.
#[allow(clippy::too_many_arguments)]
fn item(
    task_id: &str,
    snap: &Snapshot,
    kind: Kind,
    key: String,
    words: String,
    changes: &[Change],
    target: Option<String>,
    at: i64,
) -> InboxItem {
    InboxItem {
        task_id: task_id.to_string(),
        key,
        kind: kind.as_str().to_string(),
        rank: kind.rank(),
        words: crate::text::clean(&words),
        changes: serde_json::to_string(changes).unwrap_or_else(|_| "[]".into()),
        label: crate::text::clean(&snap.label),
        title: crate::text::clean(&snap.title),
        target,
        at,
        read_at: None,
    }
}

fn due_words(due: Option<&str>, now: Timestamp) -> String {
    match due.and_then(due_instant) {
        Some(t) => later::short_when(t, now, false),
        None => "none".to_string(),
    }
}

/// The fields that changed, before → after, in words.
pub fn changes(before: &Snapshot, after: &Snapshot, now: Timestamp) -> Vec<Change> {
    let mut out = Vec::new();
    let mut add = |field: &str, b: String, a: String| {
        if b != a {
            out.push(Change {
                field: field.to_string(),
                before: b,
                after: a,
            });
        }
    };
    if before.status != after.status {
        add(
            "status",
            before.status_words.clone(),
            after.status_words.clone(),
        );
    }
    add("priority", before.priority.clone(), after.priority.clone());
    let (bd, ad) = (
        before.due.as_deref().and_then(due_instant),
        after.due.as_deref().and_then(due_instant),
    );
    if bd != ad {
        add(
            "due",
            due_words(before.due.as_deref(), now),
            due_words(after.due.as_deref(), now),
        );
    }
    add("title", before.title.clone(), after.title.clone());
    // Who it is assigned to, when that is not about the user (the
    // user's own assignment has a reason of its own).
    if !before.mine && !after.mine && before.assignee_id != after.assignee_id {
        let who = |s: &Snapshot| s.assignee.clone().unwrap_or_else(|| "nobody".into());
        add("assignee", who(before), who(after));
    }
    if before.tags != after.tags {
        add("tags", before.tags.join(", "), after.tags.join(", "));
    }
    if before.archived != after.archived {
        let w = |a: bool| if a { "archived" } else { "active" }.to_string();
        add("archived", w(before.archived), w(after.archived));
    }
    out
}

/// Items from what the inbox knew of a task (`base`; `None`: a task that
/// has just come to involve the user) and what the service has now.
/// `first`: the first walk of this store only learns (nothing is news).
pub fn task_items(
    task_id: &str,
    base: Option<&Snapshot>,
    now_snap: &Snapshot,
    first: bool,
    now: Timestamp,
) -> Vec<InboxItem> {
    let mut out = Vec::new();
    let at = secs(now_snap.updated_at.as_deref()).unwrap_or(now.as_second());
    let v = now_snap.version();
    let it = |kind, key: String, words: String, changes: &[Change], target: Option<String>| {
        item(task_id, now_snap, kind, key, words, changes, target, at)
    };
    if !first {
        match base {
            None if now_snap.mine => out.push(it(
                Kind::Assigned,
                format!("assigned:{v}"),
                "assigned to you".into(),
                &[],
                None,
            )),
            None if now_snap.shared_me.is_some() && !now_snap.creator_me => {
                let access = now_snap.shared_me.clone().filter(|a| !a.is_empty());
                let words = match access {
                    Some(a) => format!("shared with you ({a})"),
                    None => "shared with you".into(),
                };
                out.push(it(Kind::Shared, format!("shared:{v}"), words, &[], None))
            }
            None => {}
            Some(b) => {
                if now_snap.version() != 0 && now_snap.version() <= b.version() && b.version() != 0
                {
                    // Not newer than what the inbox knew: nothing moved.
                } else {
                    if !b.mine && now_snap.mine {
                        out.push(it(
                            Kind::Assigned,
                            format!("assigned:{v}"),
                            "assigned to you".into(),
                            &[],
                            None,
                        ));
                    }
                    if b.mine && !now_snap.mine {
                        let words = match &now_snap.assignee {
                            Some(a) => format!("no longer assigned to you (now {a})"),
                            None => "no longer assigned to you".into(),
                        };
                        out.push(it(
                            Kind::Unassigned,
                            format!("unassigned:{v}"),
                            words,
                            &[],
                            None,
                        ));
                    }
                    if b.shared_me.is_none() && now_snap.shared_me.is_some() && !now_snap.mine {
                        out.push(it(
                            Kind::Shared,
                            format!("shared:{v}"),
                            "shared with you".into(),
                            &[],
                            None,
                        ));
                    }
                    let ch = changes(b, now_snap, now);
                    if !ch.is_empty() {
                        let words = ch
                            .iter()
                            .map(|c| match c.field.as_str() {
                                "title" => "title changed".to_string(),
                                f => format!("{f} {} → {}", c.before, c.after),
                            })
                            .collect::<Vec<_>>()
                            .join("; ");
                        let target = Some(format!("field:{}", ch[0].field));
                        out.push(it(Kind::Fields, format!("fields:{v}"), words, &ch, target));
                    }
                }
            }
        }
    }
    // Reminders: once per local day while it lasts.
    let day = later::day_key(now);
    if now_snap.mine && now_snap.open() {
        if let Some(due) = now_snap.due.as_deref().and_then(due_instant) {
            if later::day_key(due) <= day || due <= now {
                let words = if due <= now {
                    format!("overdue: was due {}", later::short_when(due, now, true))
                } else {
                    format!(
                        "due today {}",
                        later::short_when(due, now, true).trim_start_matches("today ")
                    )
                };
                let mut i = it(
                    Kind::Due,
                    format!("due:{day}"),
                    words,
                    &[],
                    Some("field:due".into()),
                );
                i.at = now.as_second();
                out.push(i);
            }
        }
    }
    if now_snap.draft {
        out.push(it(
            Kind::Draft,
            "draft".into(),
            "draft waiting for you to accept or reject".into(),
            &[],
            None,
        ));
    }
    out
}

/// Whether a comment names the user: `mentioned_users` (its shape is not
/// shown: ids, e-mails, or objects with one) or `@name` / `@e-mail` in
/// its text.
pub fn mentions(c: &Comment, me: &Me) -> bool {
    let is_me = |s: &str| {
        let s = s.trim();
        !s.is_empty() && (s == me.id || (!me.email.is_empty() && s.eq_ignore_ascii_case(&me.email)))
    };
    fn walk(v: &serde_json::Value, is_me: &dyn Fn(&str) -> bool) -> bool {
        match v {
            serde_json::Value::String(s) => is_me(s),
            serde_json::Value::Array(a) => a.iter().any(|v| walk(v, is_me)),
            serde_json::Value::Object(o) => ["id", "user_id", "email"]
                .iter()
                .filter_map(|k| o.get(*k))
                .any(|v| walk(v, is_me)),
            _ => false,
        }
    }
    if walk(&c.mentioned_users, &is_me) {
        return true;
    }
    let text = c.content.raw().to_lowercase();
    [&me.name, &me.email]
        .iter()
        .filter(|s| !s.is_empty())
        .any(|s| {
            let needle = format!("@{}", s.to_lowercase());
            text.match_indices(&needle).any(|(i, _)| {
                // A whole name: `@ann` is not `@anna`.
                !text[i + needle.len()..]
                    .chars()
                    .next()
                    .is_some_and(|ch| ch.is_alphanumeric() || ch == '_' || ch == '@')
            })
        })
}

/// Items for the comments of a task that are new to the inbox: not among
/// `known` (the ids it knew; `None`: never read, then the ones made after
/// `since`), and not the user's own. A mention and a reply to one of the
/// user's comments say so.
pub fn comment_items(
    task_id: &str,
    snap: &Snapshot,
    known: Option<&[String]>,
    since: i64,
    comments: &[Comment],
    me: &Me,
    now: Timestamp,
) -> Vec<InboxItem> {
    let mine: Vec<&str> = comments
        .iter()
        .filter(|c| c.author.id == me.id)
        .map(|c| c.id.as_str())
        .collect();
    comments
        .iter()
        .filter(|c| c.author.id != me.id && !c.id.is_empty())
        .filter(|c| match known {
            Some(ids) => !ids.iter().any(|k| *k == *c.id),
            // The same second counts: a walk and a comment can share it.
            None => secs(c.created_at.as_deref()).is_some_and(|t| t >= since),
        })
        .map(|c| {
            let who = c.author.label();
            let text = crate::text::excerpt(&c.content.line(), 60);
            let (kind, words) = if mentions(c, me) {
                (Kind::Mention, format!("{who} mentioned you: “{text}”"))
            } else if c
                .parent_comment_id
                .as_deref()
                .is_some_and(|p| mine.contains(&p))
            {
                (
                    Kind::Reply,
                    format!("{who} replied to your comment: “{text}”"),
                )
            } else {
                (Kind::Comment, format!("new comment by {who}: “{text}”"))
            };
            let at = secs(c.created_at.as_deref()).unwrap_or(now.as_second());
            item(
                task_id,
                snap,
                kind,
                format!("comment:{}", c.id.as_str()),
                words,
                &[],
                Some(format!("comment:{}", c.id.as_str())),
                at,
            )
        })
        .collect()
}

/// A task no longer among those involving the user: why, as far as a
/// read of it can tell (`read`: `Some(Some(snapshot))` it is still
/// visible, `Some(None)` not found or refused, `None` not read).
pub fn gone_item(
    task_id: &str,
    base: &Snapshot,
    read: Option<Option<&Snapshot>>,
    now: Timestamp,
) -> Option<InboxItem> {
    let words = match read {
        Some(Some(s)) if s.archived => "archived".to_string(),
        Some(Some(s)) if s.draft => return None,
        Some(Some(_)) => "no longer involves you".to_string(),
        Some(None) => {
            "no longer visible to you: your access was removed, or it was deleted".to_string()
        }
        None => "no longer among your tasks".to_string(),
    };
    let snap = match read {
        Some(Some(s)) => s,
        _ => base,
    };
    Some(item(
        task_id,
        snap,
        Kind::Gone,
        format!("gone:{}", base.version()),
        words,
        &[],
        None,
        now.as_second(),
    ))
}
