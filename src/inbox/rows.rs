//! Items grouped one row per task, as the screen and `taskdeck inbox`
//! show them; and the items as `taskdeck inbox --json` prints them.

use super::derive::{Change, Kind};
use super::snooze::Snoozes;
use crate::cut::Piece;
use crate::store::{InboxItem, InboxMark};
use serde::Serialize;

/// One task in the inbox: why, newest first. For screens: every text in
/// it is sanitised (the items keep the service's text for `--json`).
#[derive(Clone, Debug, PartialEq)]
pub struct InboxRow {
    pub task_id: String,
    pub label: String,
    pub title: String,
    /// The newest item's time (seconds).
    pub at: i64,
    /// The reasons, what names the user first.
    pub reasons: Vec<(Kind, String)>,
    /// Where opening goes: the first reason's place.
    pub target: Option<String>,
    /// A snooze that ended (the row came back saying so).
    pub snoozed_until: Option<i64>,
    /// Every item of the row is read (shown with `--all`), and no snooze
    /// of it came back unread.
    pub read: bool,
}

impl InboxRow {
    pub fn top(&self) -> Option<Kind> {
        self.reasons.first().map(|(k, _)| *k)
    }
    /// The reasons in words, `snoozed until …` first when it came back.
    pub fn why(&self, now: i64) -> String {
        let mut parts: Vec<String> = Vec::new();
        if let Some(u) = self.snoozed_until {
            parts.push(super::snooze::until_words(u, now));
        }
        parts.extend(self.reasons.iter().map(|(_, w)| w.clone()));
        parts.join(" · ")
    }

    /// [`InboxRow::why`] as pieces of a row to cut to a width (issue 40
    /// §3): the changes (`priority medium → high`) give way last, the
    /// other reasons (a comment quoted, a snooze) before them, each at a
    /// word's end and saying it cut.
    pub fn why_pieces(&self, now: i64) -> Vec<Piece<'static>> {
        let mut parts: Vec<(String, bool)> = Vec::new();
        if let Some(u) = self.snoozed_until {
            parts.push((super::snooze::until_words(u, now), false));
        }
        parts.extend(
            self.reasons
                .iter()
                .map(|(k, w)| (w.clone(), *k == Kind::Fields)),
        );
        let mut out = Vec::new();
        for (i, (text, change)) in parts.into_iter().enumerate() {
            if i > 0 {
                out.push(Piece::whole(" · "));
            }
            out.push(match change {
                true => Piece::cut(text, 2, 1).words(),
                false => Piece::cut(text, 1, 12).words(),
            });
        }
        out
    }

    /// One line for the row: `head` (its number, its age…) kept, then the
    /// title — the first to give way, down to 10 columns — then ` — ` and
    /// [`InboxRow::why_pieces`].
    pub fn line_pieces(&self, head: String, now: i64) -> Vec<Piece<'static>> {
        let mut out = vec![
            Piece::whole(head),
            Piece::cut(self.title.clone(), 0, 10),
            Piece::whole(" — "),
        ];
        out.extend(self.why_pieces(now));
        out
    }
}

/// Rows from items (unread ones, or all) and the marks, snoozes as
/// [`Snoozes`] decides: a task snoozed until later is hidden; one whose
/// snooze ended is shown, unread, and says so. Rows that mention the user
/// or answer them come first, then newest first.
pub fn group(items: &[InboxItem], marks: &[InboxMark], now: i64) -> Vec<InboxRow> {
    let snoozes = Snoozes::at(items, marks, now);
    let mut rows: Vec<InboxRow> = Vec::new();
    let mut index = std::collections::HashMap::new();
    for i in items {
        if snoozes.hides(&i.task_id) {
            continue;
        }
        let kind = Kind::parse(&i.kind).unwrap_or(Kind::Fields);
        let at = *index.entry(i.task_id.clone()).or_insert_with(|| {
            rows.push(InboxRow {
                task_id: i.task_id.clone(),
                label: crate::text::clean(&i.label),
                title: crate::text::clean(&i.title),
                at: i.at,
                reasons: Vec::new(),
                target: None,
                snoozed_until: None,
                read: true,
            });
            rows.len() - 1
        });
        let row = &mut rows[at];
        row.at = row.at.max(i.at);
        row.read &= i.read_at.is_some();
        // Opening goes where the first reason is (items come newest
        // first, so the newest of that kind).
        if row.reasons.iter().all(|(k, _)| kind < *k) {
            row.target = i.target.clone();
        }
        row.reasons.push((kind, crate::text::clean(&i.words)));
        row.reasons.sort_by_key(|(k, _)| *k);
    }
    // Snoozes that ended bring their task back, unread, items or not.
    for m in snoozes.ended() {
        match index.get(&m.task_id) {
            Some(&i) => {
                rows[i].snoozed_until = Some(m.at);
                rows[i].read = false;
            }
            None => rows.push(InboxRow {
                task_id: m.task_id.clone(),
                label: crate::text::clean(&m.label),
                title: crate::text::clean(&m.title),
                at: m.at,
                reasons: Vec::new(),
                target: None,
                snoozed_until: Some(m.at),
                read: false,
            }),
        }
    }
    rows.sort_by(row_order);
    rows
}

/// The order of the inbox's rows: what names the user first, then newest
/// first (also across profiles, issue 36).
pub fn row_order(a: &InboxRow, b: &InboxRow) -> std::cmp::Ordering {
    let names_me = |r: &InboxRow| matches!(r.top(), Some(Kind::Mention | Kind::Reply));
    names_me(b)
        .cmp(&names_me(a))
        .then(b.at.cmp(&a.at))
        .then(a.label.cmp(&b.label))
}

/// An item as `taskdeck inbox --json` prints it: every item, lossless.
#[derive(Clone, Debug, Serialize)]
pub struct JsonItem {
    pub reason: String,
    pub words: String,
    pub task: JsonTask,
    pub changes: Vec<Change>,
    /// When it happened (the service's time when it says), ISO 8601 UTC.
    pub at: String,
    pub read: bool,
    pub snoozed_until: Option<String>,
}

#[derive(Clone, Debug, Serialize)]
pub struct JsonTask {
    pub id: String,
    pub display_id: String,
    pub title: String,
}

fn iso(secs: i64) -> String {
    crate::api::to_utc_seconds(jiff::Timestamp::from_second(secs).unwrap_or_default())
}

/// The items of the rows shown (same order), for `--json`.
pub fn json_items(rows: &[InboxRow], items: &[InboxItem], marks: &[InboxMark]) -> Vec<JsonItem> {
    let mut out = Vec::new();
    let snoozes = Snoozes::at(items, marks, 0);
    for r in rows {
        let mark = snoozes.of(&r.task_id);
        let until = mark.map(|m| iso(m.at));
        let mut of_row: Vec<&InboxItem> = items.iter().filter(|i| i.task_id == r.task_id).collect();
        of_row.sort_by_key(|i| (i.rank, -i.at));
        if of_row.is_empty() {
            out.push(JsonItem {
                reason: "snoozed".into(),
                words: r.why(r.at),
                task: JsonTask {
                    id: r.task_id.clone(),
                    display_id: mark.map_or_else(|| r.label.clone(), |m| m.label.clone()),
                    title: mark.map_or_else(|| r.title.clone(), |m| m.title.clone()),
                },
                changes: Vec::new(),
                at: iso(r.at),
                read: false,
                snoozed_until: until.clone(),
            });
        }
        for i in of_row {
            out.push(JsonItem {
                reason: i.kind.clone(),
                words: i.words.clone(),
                task: JsonTask {
                    id: i.task_id.clone(),
                    display_id: i.label.clone(),
                    title: i.title.clone(),
                },
                changes: Change::stored(&i.changes),
                at: iso(i.at),
                read: i.read_at.is_some(),
                snoozed_until: until.clone(),
            });
        }
    }
    out
}
