//! What snoozes and follow-ups make of the inbox at a given time: the one
//! rule that both the rows shown (`rows::group`) and the unread items a
//! notification counts (`notify::unread_items`) follow, so the two never
//! disagree.
//!
//! - A task snoozed until later is hidden: none of its items is shown or
//!   counted.
//! - A snooze whose time came (its time is now or past) no longer hides:
//!   the task is back, unread and saying `snoozed until …`, until it is
//!   read (reading ends the snooze, `Db::inbox_read`).
//! - A follow-up that fell due while the task was snoozed brings it back
//!   at once: the user asked for it at that time. A snooze set after the
//!   follow-up fell due hides the task again.

use super::derive::Kind;
use crate::store::{InboxItem, InboxMark, MarkKind};

/// Whether a mark's time has come at `now`: a snooze is over, a follow-up
/// falls due (the second itself counts). Every place that asks uses this.
/// A snooze that ended, in words (`snoozed until Fri 09:00`): the same in
/// the rows and in the notification (seconds since the epoch).
pub fn until_words(until: i64, now: i64) -> String {
    let at = |s: i64| jiff::Timestamp::from_second(s).unwrap_or_default();
    format!(
        "snoozed until {}",
        crate::domain::later::short_when(at(until), at(now), true)
    )
}

pub fn come(m: &InboxMark, now: i64) -> bool {
    m.at <= now
}

/// The snoozes of the inbox at `now`, with the items they apply to.
#[derive(Clone, Copy, Debug)]
pub struct Snoozes<'a> {
    items: &'a [InboxItem],
    marks: &'a [InboxMark],
    now: i64,
}

impl<'a> Snoozes<'a> {
    pub fn at(items: &'a [InboxItem], marks: &'a [InboxMark], now: i64) -> Snoozes<'a> {
        Snoozes { items, marks, now }
    }

    /// The task's snooze (there is one at most), ended or not.
    pub fn of(&self, task_id: &str) -> Option<&'a InboxMark> {
        self.marks
            .iter()
            .find(|m| m.kind == MarkKind::Snooze && m.task_id == task_id)
    }

    /// Whether the task is hidden now: snoozed until later, and no
    /// follow-up of it fell due since the snooze was set.
    pub fn hides(&self, task_id: &str) -> bool {
        let Some(m) = self.of(task_id) else {
            return false;
        };
        let follow_up_back = || {
            self.items.iter().any(|i| {
                i.task_id == task_id
                    && i.kind == Kind::FollowUp.as_str()
                    && i.read_at.is_none()
                    && i.at >= m.since
                    && i.at <= self.now
            })
        };
        !come(m, self.now) && !follow_up_back()
    }

    /// The snoozes whose time came: each task is back, unread, saying so.
    pub fn ended(&self) -> impl Iterator<Item = &'a InboxMark> + '_ {
        let now = self.now;
        self.marks
            .iter()
            .filter(move |m| m.kind == MarkKind::Snooze && come(m, now))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::inbox::{group, notify::unread_items};
    use std::collections::BTreeSet;

    const NOW: i64 = 1000;

    fn item(task: &str, kind: Kind, at: i64, read: bool) -> InboxItem {
        InboxItem {
            task_id: task.into(),
            key: format!("{}:{at}", kind.as_str()),
            kind: kind.as_str().into(),
            rank: kind.rank(),
            words: format!("{} words", kind.as_str()),
            changes: "[]".into(),
            label: format!("#{task}"),
            title: format!("task {task}"),
            target: None,
            at,
            read_at: read.then_some(at + 1),
        }
    }

    fn snooze(task: &str, since: i64, until: i64) -> InboxMark {
        InboxMark {
            task_id: task.into(),
            kind: MarkKind::Snooze,
            at: until,
            since,
            label: format!("#{task}"),
            title: format!("task {task}"),
        }
    }

    /// The rows shown, the rows unread (the header's count) and the tasks
    /// of the unread items (what notifies): they must tell one story.
    fn both(items: &[InboxItem], marks: &[InboxMark]) -> [BTreeSet<String>; 3] {
        let rows = group(items, marks, NOW);
        let shown = rows.iter().map(|r| r.task_id.clone()).collect();
        let unread = rows
            .iter()
            .filter(|r| !r.read)
            .map(|r| r.task_id.clone())
            .collect();
        let told = unread_items(items, marks, NOW)
            .into_iter()
            .map(|i| i.task_id)
            .collect();
        [shown, unread, told]
    }

    fn set(ids: &[&str]) -> BTreeSet<String> {
        ids.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn rows_and_notifications_follow_one_snooze_rule_on_its_boundaries() {
        let items = vec![
            // a: snoozed until exactly now (over); b: one second more.
            item("a", Kind::Comment, 100, false),
            item("b", Kind::Comment, 100, false),
            // c: only read items (shown with `--all`), its snooze over.
            item("c", Kind::Comment, 100, true),
            // d: a follow-up fell due while snoozed; e: before the snooze.
            item("d", Kind::Comment, 100, false),
            item("d", Kind::FollowUp, 800, false),
            item("e", Kind::FollowUp, 800, false),
            // f: snoozed, its follow-up is due later still.
            item("f", Kind::FollowUp, 1200, false),
        ];
        let marks = vec![
            snooze("a", 50, NOW),
            snooze("b", 50, NOW + 1),
            snooze("c", 50, 900),
            snooze("d", 500, 5000),
            snooze("e", 900, 5000),
            snooze("f", 500, 5000),
        ];
        let s = Snoozes::at(&items, &marks, NOW);
        let hidden: Vec<&str> = ["a", "b", "c", "d", "e", "f"]
            .into_iter()
            .filter(|t| s.hides(t))
            .collect();
        assert_eq!(hidden, ["b", "e", "f"]);
        let [shown, unread, told] = both(&items, &marks);
        assert_eq!(shown, set(&["a", "c", "d"]));
        // A snooze come back is unread until read, whether its items were
        // read or not: the count and the notification agree.
        assert_eq!(unread, set(&["a", "c", "d"]));
        assert_eq!(told, unread);
        // Unread items only (the inbox without `--all`): the same story.
        let unread_only: Vec<InboxItem> = items
            .iter()
            .filter(|i| i.read_at.is_none())
            .cloned()
            .collect();
        let [shown, unread, told] = both(&unread_only, &marks);
        assert_eq!((&shown, &unread), (&set(&["a", "c", "d"]), &shown));
        assert_eq!(told, unread);
    }
}
