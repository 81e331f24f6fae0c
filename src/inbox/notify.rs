//! What is new enough to tell the user about, and the words for it. Pure:
//! the loop (`crate::tui::notify`) turns a [`Notice`] into a bell, a
//! desktop notification, the title and `notify_command`.
//!
//! The rules (issue 33):
//! - each item notifies once: an item is known by its task and its key
//!   (the change itself, `comment:<id>`, `fields:<version>`…), and a key
//!   seen once is never news again (read, brought back, snoozed and shown
//!   again: still the same item);
//! - what was there at start never notifies: what the store holds and what
//!   the first walk finds (it catches up with what happened while taskdeck
//!   was closed; the header and the title count it);
//! - the user's own changes never: they are no items (`derive`, `cycle`),
//!   and a draft of theirs is not news;
//! - several items in one walk are one notice: `3 new: Bob Okafor
//!   mentioned you on #12, …`.

use super::derive::Kind;
use super::snooze::Snoozes;
use crate::store::{InboxItem, InboxMark};
use std::collections::{HashMap, HashSet};

/// An unread item as the inbox update carries it (what a notice is made
/// of): the task, the item's key, its reason and its words.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct UnreadItem {
    pub task_id: String,
    /// The item's key within its task; a snooze that ended is
    /// `snooze-ended:<seconds>`.
    pub key: String,
    /// `None`: a snooze that ended (its row came back).
    pub kind: Option<Kind>,
    pub words: String,
    /// `#12`.
    pub label: String,
    pub title: String,
}

impl UnreadItem {
    /// The reason as `taskdeck inbox --json` says it (`snoozed` for a
    /// snooze that ended).
    pub fn reason(&self) -> &'static str {
        self.kind.map_or("snoozed", Kind::as_str)
    }
    /// `Bob Okafor mentioned you on #12` (the comment quoted after the
    /// words stays in the inbox: a notification says who and where),
    /// sanitised: the words and the label are the service's text (a name,
    /// a title, a display id) and go to the bell's notification, the
    /// title and `notify_command` (issue 43: the simulator found a display
    /// id's bidi override in a notice's words).
    pub fn phrase(&self) -> String {
        crate::text::clean(&self.phrase_raw())
    }

    fn phrase_raw(&self) -> String {
        let words = match self.words.split_once(": “") {
            Some((head, _)) => head,
            None if self.words.is_empty() => self.reason(),
            None => &self.words,
        };
        if self.label.is_empty() {
            words.to_string()
        } else {
            format!("{words} on {}", self.label)
        }
    }
}

/// One notification: the new items (what names the user first) and the
/// words that say them.
#[derive(Clone, Debug, PartialEq)]
pub struct Notice {
    pub items: Vec<UnreadItem>,
    pub words: String,
}

/// The most the words of a notice hold (a desktop notification is a line
/// or two; the rest is in the inbox).
pub const WORDS_MAX: usize = 160;

impl Notice {
    /// A notice of `items` (none: nothing to say).
    pub fn of(mut items: Vec<UnreadItem>) -> Option<Notice> {
        if items.is_empty() {
            return None;
        }
        items.sort_by(|a, b| {
            let rank = |i: &UnreadItem| i.kind.map_or(i64::MAX, Kind::rank);
            rank(a).cmp(&rank(b)).then_with(|| a.label.cmp(&b.label))
        });
        let words = words(&items);
        Some(Notice { items, words })
    }

    /// The first item (the one that matters most).
    pub fn first(&self) -> &UnreadItem {
        &self.items[0]
    }

    /// The desktop notification's title and body: the task's title when
    /// there is one item, `taskdeck` and the count otherwise.
    pub fn heading(&self) -> String {
        match self.items.as_slice() {
            [one] if !one.title.is_empty() => {
                crate::text::clean(&format!("{} {}", one.label, one.title))
            }
            [_] => "taskdeck".to_string(),
            many => format!("taskdeck: {} new", many.len()),
        }
    }

    /// `notify_command`'s variables: the first item's task, the words of
    /// the whole notice; values as custom commands get them (no control
    /// character).
    pub fn env(&self, profile: Option<&str>) -> Vec<(String, String)> {
        let first = self.first();
        let number = first.label.trim_start_matches('#');
        let reasons: Vec<&str> = {
            let mut r: Vec<&str> = self.items.iter().map(UnreadItem::reason).collect();
            r.dedup();
            r
        };
        let v = |s: &str| crate::domain::custom::vars::env_value(s, false);
        vec![
            ("TASKDECK_REASON".into(), v(reasons[0])),
            ("TASKDECK_REASONS".into(), v(&reasons.join(","))),
            ("TASKDECK_TASK_NUMBER".into(), v(number)),
            ("TASKDECK_TASK_ID".into(), v(&first.task_id)),
            ("TASKDECK_TITLE".into(), v(&first.title)),
            ("TASKDECK_WORDS".into(), v(&self.words)),
            ("TASKDECK_COUNT".into(), self.items.len().to_string()),
            ("TASKDECK_PROFILE".into(), v(profile.unwrap_or_default())),
        ]
    }
}

/// `Bob Okafor mentioned you on #12`, or `3 new: A on #1, B on #2, …`,
/// at most [`WORDS_MAX`] columns: measured and cut the one way text is
/// ([`crate::cut`], by display width, `…` where cut).
pub fn words(items: &[UnreadItem]) -> String {
    let phrases: Vec<String> = items.iter().map(UnreadItem::phrase).collect();
    let full = match phrases.as_slice() {
        [one] => one.clone(),
        many => format!("{} new: {}", many.len(), many.join(", ")),
    };
    let width = crate::cut::width;
    if width(&full) <= WORDS_MAX {
        return full;
    }
    // Whole phrases while they fit, then `…`.
    let mut out = match phrases.as_slice() {
        [_] => String::new(),
        many => format!("{} new: ", many.len()),
    };
    let head = width(&out);
    for (i, p) in phrases.iter().enumerate() {
        let sep = if i == 0 { "" } else { ", " };
        if width(&out) + sep.len() + width(p) + width(", …") > WORDS_MAX {
            break;
        }
        out.push_str(sep);
        out.push_str(p);
    }
    if width(&out) == head {
        // Not even the first phrase fits: cut it.
        out.push_str(&crate::cut::cut(&phrases[0], WORDS_MAX - head));
        return out;
    }
    out.push_str(", …");
    out
}

/// The unread items of the store's `items` (read ones left out) and the
/// snoozes that ended (their row came back), as [`Watch`] reads them;
/// snoozes as [`Snoozes`] decides (the rows shown follow the same rule).
pub fn unread_items(items: &[InboxItem], marks: &[InboxMark], now: i64) -> Vec<UnreadItem> {
    let snoozes = Snoozes::at(items, marks, now);
    let mut out: Vec<UnreadItem> = items
        .iter()
        .filter(|i| i.read_at.is_none() && !snoozes.hides(&i.task_id))
        .map(UnreadItem::of)
        .collect();
    out.extend(snoozes.ended().map(|m| UnreadItem {
        task_id: m.task_id.clone(),
        key: format!("snooze-ended:{}", m.at),
        kind: None,
        words: super::snooze::until_words(m.at, now),
        label: m.label.clone(),
        title: m.title.clone(),
    }));
    out
}

/// The unread items a snooze hides now: not news while hidden, and, held
/// in the store at start, never news when the snooze ends ([`Watch`]).
pub fn hidden_items(items: &[InboxItem], marks: &[InboxMark], now: i64) -> Vec<UnreadItem> {
    let snoozes = Snoozes::at(items, marks, now);
    items
        .iter()
        .filter(|i| i.read_at.is_none() && snoozes.hides(&i.task_id))
        .map(UnreadItem::of)
        .collect()
}

impl UnreadItem {
    fn of(i: &InboxItem) -> UnreadItem {
        UnreadItem {
            task_id: i.task_id.clone(),
            key: i.key.clone(),
            kind: Some(Kind::parse(&i.kind).unwrap_or(Kind::Fields)),
            words: i.words.clone(),
            label: i.label.clone(),
            title: i.title.clone(),
        }
    }
}

/// What the inbox has already said: the items seen, and whether the start
/// is over (the store's items and the first walk's are known).
#[derive(Clone, Debug, Default)]
pub struct Watch {
    /// Task id → the keys of its items seen (looked up without copying).
    seen: HashMap<String, HashSet<String>>,
    started: bool,
}

impl Watch {
    /// The inbox's unread items as they now stand; `walked`: a walk has
    /// happened (the start is over once one has, or at once when the inbox
    /// walks only when asked). The items not seen before make the notice.
    /// `hidden`: the items a snooze hides now; until the start is over
    /// they are seen too — what the store held at start is never news,
    /// when its snooze ends either (simulator seed 111: a mention told,
    /// its task snoozed, taskdeck started again, and told again when the
    /// snooze ended).
    pub fn observe(
        &mut self,
        items: &[UnreadItem],
        hidden: &[UnreadItem],
        walked: bool,
    ) -> Option<Notice> {
        if !self.started {
            for i in hidden {
                self.seen
                    .entry(i.task_id.clone())
                    .or_default()
                    .insert(i.key.clone());
            }
        }
        let mut new = Vec::new();
        for i in items {
            // A draft is the user's own.
            if i.kind == Some(Kind::Draft) {
                continue;
            }
            if self
                .seen
                .get(&i.task_id)
                .is_some_and(|k| k.contains(&i.key))
                && !crate::broken::on(crate::broken::Rule::NotifyAgain)
            {
                continue;
            }
            self.seen
                .entry(i.task_id.clone())
                .or_default()
                .insert(i.key.clone());
            if self.started {
                new.push(i.clone());
            }
        }
        self.started |= walked;
        Notice::of(new)
    }

    /// The start is over.
    pub fn started(&self) -> bool {
        self.started
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn item(task: &str, key: &str, kind: Kind, words: &str) -> UnreadItem {
        UnreadItem {
            task_id: task.into(),
            key: key.into(),
            kind: Some(kind),
            words: words.into(),
            label: format!("#{task}"),
            title: format!("task {task}"),
        }
    }

    /// Simulator seed 111: a mention told, its task snoozed, taskdeck
    /// started again while the snooze hid it; when the snooze ended, the
    /// mention was told a second time. Held in the store at start, hidden
    /// or not, it is never news; the snooze's end is (its own item). An
    /// item that comes while the task is snoozed is still told once shown.
    #[test]
    fn an_item_a_snooze_hid_at_start_is_not_news_when_the_snooze_ends() {
        let mut w = Watch::default();
        let told = item("4", "comment:c1", Kind::Mention, "Bob mentioned you");
        // The start: the store's items (the mention hidden), the first walk.
        assert_eq!(w.observe(&[], std::slice::from_ref(&told), false), None);
        assert_eq!(w.observe(&[], std::slice::from_ref(&told), true), None);
        // A new item on the snoozed task: hidden, so not yet news.
        let later = item("4", "comment:c2", Kind::Comment, "Bob commented");
        assert_eq!(w.observe(&[], &[told.clone(), later.clone()], true), None);
        // The snooze ends: its end and the item not told yet are news.
        let ended = UnreadItem {
            task_id: "4".into(),
            key: "snooze-ended:100".into(),
            kind: None,
            words: "snoozed until 10:00".into(),
            label: "#4".into(),
            title: "task 4".into(),
        };
        let n = w
            .observe(&[told, later, ended], &[], true)
            .expect("a notice");
        let keys: Vec<&str> = n.items.iter().map(|i| i.key.as_str()).collect();
        assert_eq!(keys, vec!["comment:c2", "snooze-ended:100"]);
    }

    #[test]
    fn what_was_there_at_start_never_notifies_and_each_item_once() {
        let mut w = Watch::default();
        let stored = item("1", "comment:a", Kind::Comment, "Bob commented");
        // The store's items, then the first walk's.
        assert_eq!(w.observe(std::slice::from_ref(&stored), &[], false), None);
        let caught_up = item("2", "fields:3", Kind::Assigned, "assigned to you");
        assert_eq!(
            w.observe(&[stored.clone(), caught_up.clone()], &[], true),
            None
        );
        assert!(w.started());
        // A mention arrives.
        let m = item(
            "3",
            "comment:b",
            Kind::Mention,
            "Bob Okafor mentioned you: “look: here”",
        );
        let all = [stored.clone(), caught_up.clone(), m.clone()];
        let n = w.observe(&all, &[], true).expect("a notice");
        assert_eq!(n.items, vec![m.clone()]);
        assert_eq!(n.words, "Bob Okafor mentioned you on #3");
        // The same items again: nothing.
        assert_eq!(w.observe(&all, &[], true), None);
        // Read (gone from the unread items), then brought back: not news.
        assert_eq!(w.observe(std::slice::from_ref(&stored), &[], true), None);
        assert_eq!(w.observe(&all, &[], true), None);
    }

    /// The service's text in a notice (a display id with a bidi override,
    /// a name or title with escapes) never reaches its words or heading
    /// as is (seed 61 of the simulator, step 604).
    #[test]
    fn a_notice_never_carries_the_services_control_characters() {
        let mut hostile = item("9", "fields:1", Kind::Fields, "title changed");
        hostile.label = "#9\u{202e}gnp.exe invoice".into();
        hostile.title = "Fix \u{1b}[2Jlogin".into();
        let mut named = item(
            "3",
            "comment:x",
            Kind::Mention,
            "Eve \u{1b}[5mOther mentioned you: “hi”",
        );
        named.label = "#3\u{9b}31m".into();
        for items in [vec![hostile.clone()], vec![hostile, named]] {
            let n = Notice::of(items).unwrap();
            for text in [&n.words, &n.heading()] {
                assert!(!text.chars().any(crate::text::is_dangerous), "{text:?}");
            }
        }
    }

    #[test]
    fn a_walk_finding_several_makes_one_notice_naming_the_user_first() {
        let mut w = Watch::default();
        w.observe(&[], &[], true);
        let items = [
            item("12", "fields:4", Kind::Fields, "status open → completed"),
            item("1102", "comment:c", Kind::Mention, "Bob mentioned you"),
            item("7", "fields:9", Kind::Assigned, "assigned to you"),
        ];
        let n = w.observe(&items, &[], true).unwrap();
        assert_eq!(
            n.words,
            "3 new: Bob mentioned you on #1102, assigned to you on #7, status open → completed on #12"
        );
        assert_eq!(n.first().task_id, "1102");
        assert_eq!(n.heading(), "taskdeck: 3 new");
    }

    #[test]
    fn two_items_of_one_task_are_two_items() {
        let mut w = Watch::default();
        w.observe(&[], &[], true);
        let a = item("5", "comment:a", Kind::Mention, "Bob mentioned you");
        let b = item("5", "comment:b", Kind::Mention, "Bob mentioned you");
        assert_eq!(
            w.observe(std::slice::from_ref(&a), &[], true)
                .unwrap()
                .items
                .len(),
            1
        );
        let n = w.observe(&[a, b.clone()], &[], true).unwrap();
        assert_eq!(n.items, vec![b]);
    }

    #[test]
    fn drafts_never_notify_and_an_inbox_walked_only_when_asked_starts_at_once() {
        let mut w = Watch::default();
        // Periodic off: the loop says `walked` with the first update.
        assert_eq!(w.observe(&[], &[], true), None);
        let d = item("5", "draft:x", Kind::Draft, "a draft of yours");
        assert_eq!(w.observe(std::slice::from_ref(&d), &[], true), None);
        // Started by that first update: the next news notifies, the draft
        // beside it still not.
        let m = item("6", "comment:a", Kind::Mention, "Bob mentioned you");
        let n = w
            .observe(&[d, m.clone()], &[], true)
            .expect("a mention notifies");
        assert_eq!(n.items, vec![m]);
    }

    #[test]
    fn a_snooze_coming_due_is_news() {
        let mut w = Watch::default();
        let m = item("5", "comment:a", Kind::Mention, "Bob mentioned you");
        w.observe(std::slice::from_ref(&m), &[], true);
        let back = UnreadItem {
            task_id: "5".into(),
            key: "snooze-ended:1700000000".into(),
            kind: None,
            words: "snoozed until 10:00".into(),
            label: "#5".into(),
            title: "task 5".into(),
        };
        let n = w.observe(&[m, back], &[], true).unwrap();
        assert_eq!(n.first().reason(), "snoozed");
        assert_eq!(n.words, "snoozed until 10:00 on #5");
    }

    #[test]
    fn long_words_are_cut_at_a_phrase() {
        let items: Vec<UnreadItem> = (0..20)
            .map(|i| item(&format!("{i}"), "k", Kind::Comment, "Bob Okafor commented"))
            .collect();
        let w = words(&items);
        assert!(w.starts_with("20 new: Bob Okafor commented on #0, "), "{w}");
        assert!(w.ends_with(", …"), "{w}");
        assert!(w.chars().count() <= WORDS_MAX, "{w}");
        let long = item("1", "k", Kind::Comment, &"x".repeat(400));
        let w = words(&[long]);
        assert_eq!(w.chars().count(), WORDS_MAX);
        assert!(w.ends_with('…'));
        // By display width, the one cut: a phrase of wide characters is
        // cut at its columns (it was cut at 160 characters, 319 columns).
        let wide = item("1", "k", Kind::Comment, &"契約".repeat(200));
        let w = words(&[wide]);
        let cols = crate::cut::width(&w);
        assert!((WORDS_MAX - 1..=WORDS_MAX).contains(&cols), "{cols}: {w}");
        assert!(w.ends_with('…'), "{w}");
        // Many phrases of wide characters: whole phrases within the width.
        let many: Vec<UnreadItem> = (0..20)
            .map(|i| {
                item(
                    &format!("{i}"),
                    "k",
                    Kind::Comment,
                    "岡田さんがコメントしました",
                )
            })
            .collect();
        let w = words(&many);
        assert!(w.ends_with(", …"), "{w}");
        assert!(crate::cut::width(&w) <= WORDS_MAX, "{w}");
    }

    #[test]
    fn the_commands_variables_carry_no_control_character() {
        let mut m = item("12", "comment:a", Kind::Mention, "Bob mentioned you");
        m.title = "evil\x1b]0;pwned\x07\nline".into();
        let n = Notice::of(vec![m]).unwrap();
        let env = n.env(Some("work"));
        let get = |k: &str| env.iter().find(|(n, _)| n == k).unwrap().1.clone();
        assert_eq!(get("TASKDECK_REASON"), "mentioned");
        assert_eq!(get("TASKDECK_TASK_NUMBER"), "12");
        assert_eq!(get("TASKDECK_TASK_ID"), "12");
        assert_eq!(get("TASKDECK_TITLE"), "evil ]0;pwned  line");
        assert_eq!(get("TASKDECK_WORDS"), "Bob mentioned you on #12");
        assert_eq!(get("TASKDECK_PROFILE"), "work");
        assert_eq!(get("TASKDECK_COUNT"), "1");
    }
}
