//! Items from what the inbox last knew of a task and what the service has
//! now. Pure: every reason has a test here.

pub use super::change::{changes, Change};
pub use super::snapshot::Me;
use super::snapshot::Snapshot;
use crate::api::{due_instant, parse_timestamp, Comment};
use crate::domain::later;
use crate::store::InboxItem;
use jiff::Timestamp;

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
        // The service's text as sent: `--json` is lossless; every screen
        // sanitises (`rows::group`, the CLI's lines).
        words,
        changes: serde_json::to_string(changes).unwrap_or_else(|_| "[]".into()),
        label: snap.label.clone(),
        title: snap.title.clone(),
        target,
        at,
        read_at: None,
    }
}

/// Whether the task moved since the inbox's base: what the inbox compares
/// differs (the fingerprint), and the read is not an older version than
/// the base (two instances walking at once: the one that read first must
/// not undo the other's news). A base whose `updated_at` is ahead of our
/// clock (beyond the skew allowed) orders nothing: that service's clock
/// ran ahead and was set back, and only what changed tells.
pub fn moved(base: &Snapshot, now_snap: &Snapshot, now: Timestamp) -> bool {
    if base.fingerprint() == now_snap.fingerprint() {
        return false;
    }
    let (bv, nv) = (base.version(), now_snap.version());
    let base_in_future = bv > (now.as_second() + crate::store::CLOCK_SKEW_SECS) * 1000;
    bv == 0 || nv == 0 || nv > bv || base_in_future
}

/// The due-date reminder of a task as it is now, in words: the user's,
/// still open, due today or overdue. `None`: no reminder holds (a
/// reminder whose reason ended is over, see `store::InboxBase::reminds`).
pub fn reminder(s: &Snapshot, now: Timestamp) -> Option<String> {
    if !(s.mine && s.open()) {
        return None;
    }
    let due = s.due.as_deref().and_then(due_instant)?;
    if later::day_key(due) > later::day_key(now) && due > now {
        return None;
    }
    Some(if due <= now {
        format!("overdue: was due {}", later::short_when(due, now, true))
    } else {
        format!(
            "due today {}",
            later::short_when(due, now, true).trim_start_matches("today ")
        )
    })
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
    // The change's mark: its version and what it holds (a service clock
    // set back can repeat a version, never with the same content).
    let v = format!("{}:{:016x}", now_snap.version(), now_snap.fingerprint());
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
            Some(b) if !moved(b, now_snap, now) => {}
            Some(b) => {
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
                    let words = ch.iter().map(Change::words).collect::<Vec<_>>().join("; ");
                    let target = Some(format!("field:{}", ch[0].field));
                    out.push(it(Kind::Fields, format!("fields:{v}"), words, &ch, target));
                }
            }
        }
    }
    // Reminders: once per local day while it lasts.
    let day = later::day_key(now);
    if let Some(words) = reminder(now_snap, now) {
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

/// Whether a comment names the user. When the service gives
/// `mentioned_users` (an array, even empty), that list is the truth: its
/// shape is not shown (ids, e-mails, or objects with one), so each
/// element is read for the user's id or e-mail. Only when it gives none
/// is the text read: `@name` or `@e-mail` standing alone in its prose
/// (see [`text_mentions`]).
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
    match &*c.mentioned_users.value() {
        serde_json::Value::Null => text_mentions(c.content.raw(), me),
        given => walk(given, &is_me),
    }
}

/// Whether Markdown text mentions the user: `@` and their name or e-mail,
/// standing alone in the prose. Not a mention: inside inline code or a
/// code block; glued to what comes before (`x@Alice Okafor`,
/// `bob@alice@acme.test`); going on as a longer name or address
/// (`@alice@acme.test.evil.com`, `@ann` in `@anna`).
pub fn text_mentions(text: &str, me: &Me) -> bool {
    let prose = prose(text).to_lowercase();
    let glued_before = |c: char| c.is_alphanumeric() || "@._-+/\\=&%#~`".contains(c);
    [&me.name, &me.email]
        .iter()
        .filter(|s| !s.trim().is_empty())
        .any(|s| {
            let needle = format!("@{}", s.trim().to_lowercase());
            prose.match_indices(&needle).any(|(i, _)| {
                let before = prose[..i].chars().next_back();
                let mut after = prose[i + needle.len()..].chars();
                let (a1, a2) = (after.next(), after.next());
                let goes_on = match a1 {
                    Some(c) if c.is_alphanumeric() || c == '_' || c == '@' => true,
                    Some('.' | '-' | '+') => a2.is_some_and(|c| c.is_alphanumeric()),
                    _ => false,
                };
                !before.is_some_and(glued_before) && !goes_on
            })
        })
}

/// The prose of a Markdown text: its words without inline code or code
/// blocks (each left as a space, so nothing glues across them).
fn prose(md: &str) -> String {
    use pulldown_cmark::{Event, Parser, Tag, TagEnd};
    let mut out = String::with_capacity(md.len());
    let mut code = 0usize;
    for ev in Parser::new(md) {
        match ev {
            Event::Start(Tag::CodeBlock(_)) => {
                code += 1;
                out.push('\n');
            }
            Event::End(TagEnd::CodeBlock) => {
                code = code.saturating_sub(1);
                out.push('\n');
            }
            Event::Text(t) if code == 0 => out.push_str(&t),
            Event::SoftBreak | Event::HardBreak => out.push('\n'),
            // Inline marks join what they mark; a block ends a word.
            Event::Start(Tag::Emphasis | Tag::Strong | Tag::Strikethrough | Tag::Link { .. })
            | Event::End(
                TagEnd::Emphasis | TagEnd::Strong | TagEnd::Strikethrough | TagEnd::Link,
            ) => {}
            Event::Start(_) | Event::End(_) => out.push('\n'),
            _ => out.push(' '),
        }
    }
    out
}

/// What makes a comment the same comment whatever id it comes back under:
/// its author, its time and its text.
pub fn comment_print(c: &Comment) -> String {
    let at = c
        .created_at
        .as_deref()
        .and_then(parse_timestamp)
        .map(|t| t.as_millisecond().to_string())
        .unwrap_or_else(|| c.created_at.clone().unwrap_or_default());
    let h = super::snapshot::fnv1a(&[c.author.id.as_str(), &at, c.content.raw()]);
    format!("fp:{h:016x}")
}

/// How many of the prints of comments that could not be read (`odd`,
/// `unreadable:…`, from the API's counted listing) no read before had met
/// (`known`: the comments the base knew; `None`: never read). Each is said
/// once, then known by its print (issue 42 §10): the walk's tasks and the
/// archived ones count them this one way.
pub fn unreadable_unknown(odd: &[String], known: Option<&[String]>) -> usize {
    odd.iter()
        .filter(|p| !known.is_some_and(|k| k.contains(p)))
        .count()
}

/// Items for the comments of a task that are new to the inbox: not among
/// `known` (the ids it knew and the [`comment_print`]s; `None`: never
/// read, then the ones made after `since`), and not the user's own. A
/// comment that comes back under another id (same author, time and text)
/// is the same comment: one item at most. A mention and a reply to one of
/// the user's comments say so.
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
    let mut prints = std::collections::HashSet::new();
    comments
        .iter()
        .filter(|c| c.author.id != me.id && !c.id.is_empty())
        .filter(|c| prints.insert(comment_print(c)))
        .filter(|c| !(crate::broken::on(crate::broken::Rule::LoseMentions) && mentions(c, me)))
        .filter(|c| match known {
            Some(ids) => !ids.iter().any(|k| *k == *c.id || *k == comment_print(c)),
            // The same second counts: a walk and a comment can share it.
            None => secs(c.created_at.as_deref()).is_some_and(|t| t >= since),
        })
        .map(|c| {
            let who = super::snapshot::person(&c.author);
            // Not sanitised (the item keeps the service's text); one line, at
            // most 60 columns, cut at a word's end (issue 40 §3).
            let text = crate::cut::excerpt(c.content.raw(), 60);
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
    // A write of the user's own was answered with the task leaving
    // (reassigned to someone else, archived, their own access removed):
    // the user did it, no news.
    if base.own && !base.in_walk() {
        return None;
    }
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
