//! What the state does for `marks` (its `impl State`): above the state,
//! which holds the data of `super` and never this module.

use super::*;
use crate::app::state::{Effect, Level, State};

impl State {
    /// The tasks a task action acts on, as (id, label): every marked task
    /// (in list order, then marked tasks a refresh no longer lists), or —
    /// with nothing marked — the current task. The error says why there is
    /// none. Custom commands and bulk edits resolve their targets here.
    pub fn command_targets(&self) -> Result<Vec<(String, String)>, String> {
        if self.marks.is_empty() {
            return self.target().map(|t| vec![t]);
        }
        Ok(self
            .marked_tasks()
            .into_iter()
            .map(|t| (t.id.as_str().to_string(), t.label()))
            .collect())
    }

    /// The marked tasks, newest copy known of each: in list order, then
    /// those the list no longer holds.
    pub fn marked_tasks(&self) -> Vec<Task> {
        let mut listed: Vec<(usize, &String)> = Vec::new();
        let mut gone: Vec<&String> = Vec::new();
        for id in self.marks.ids() {
            match self.list.position(id) {
                Some(i) => listed.push((i, id)),
                None => gone.push(id),
            }
        }
        listed.sort();
        listed
            .into_iter()
            .map(|(_, id)| id)
            .chain(gone)
            .filter_map(|id| self.best_copy(id))
            .collect()
    }

    /// The newest copy of a task this session holds: the list row, the
    /// detail, or the copy kept with its mark.
    pub fn best_copy(&self, id: &str) -> Option<Task> {
        let row = self
            .list
            .position(id)
            .and_then(|i| self.list.items[i].task());
        let detail = self
            .detail
            .as_ref()
            .and_then(|d| d.task.as_ref())
            .filter(|t| t.id == id);
        let newest = match (row, detail) {
            (Some(r), Some(d)) => {
                let at = |t: &Task| t.updated_at.as_deref().and_then(parse_timestamp);
                if at(d) > at(r) {
                    Some(d)
                } else {
                    Some(r)
                }
            }
            (r, d) => r.or(d),
        };
        newest.or(self.marks.copy(id)).cloned()
    }

    /// How many marked tasks the list does not hold any more.
    pub fn marks_not_listed(&self) -> usize {
        self.marks
            .ids()
            .iter()
            .filter(|id| self.list.position(id).is_none())
            .count()
    }

    /// `3 marked` (and how many of them a refresh no longer lists).
    pub fn marks_text(&self) -> Option<String> {
        if self.marks.is_empty() {
            return None;
        }
        let gone = self.marks_not_listed();
        let failed = self.marks.failed.len();
        let mut s = format!("{} marked", self.marks.len());
        if failed > 0 {
            s.push_str(&format!(", {failed} failed"));
        }
        if gone > 0 {
            s.push_str(&format!(" ({gone} not in this list)"));
        }
        Some(s)
    }

    fn row_task(&self, i: usize) -> Option<Task> {
        self.list.items.get(i).and_then(|t| t.task()).cloned()
    }

    /// Mark `t`, or unmark it when marked; it anchors the next range.
    fn flip_mark(&mut self, t: &Task) {
        let id = t.id.as_str().to_string();
        if self.marks.contains(&id) {
            self.marks.remove(&id);
        } else {
            self.marks.insert(t);
        }
        self.marks.anchor = Some(id);
        self.say_marks();
    }

    /// `space`: mark or unmark the row under the cursor, then move down.
    pub fn toggle_mark(&mut self) -> Vec<Effect> {
        // On the board: the card under the cursor, which stays current.
        if self.board.is_some() {
            let Some(t) = self.current_task().cloned() else {
                self.say(Level::Warn, "no card to mark");
                return vec![];
            };
            self.flip_mark(&t);
            return vec![];
        }
        let i = self.list.selected;
        let Some(t) = self.row_task(i) else {
            self.say(Level::Warn, "no row to mark");
            return vec![];
        };
        self.flip_mark(&t);
        if i + 1 < self.list.items.len() {
            self.move_by(1)
        } else {
            vec![]
        }
    }

    /// `v`: mark every row from the row last marked (the anchor) to the
    /// cursor; without an anchor in the list, the range starts here.
    pub fn mark_range(&mut self) -> Vec<Effect> {
        let cur = self.list.selected;
        if self.row_task(cur).is_none() {
            self.say(Level::Warn, "no row to mark");
            return vec![];
        }
        let from = self
            .marks
            .anchor
            .as_deref()
            .and_then(|a| self.list.position(a));
        let (lo, hi) = match from {
            Some(a) => (a.min(cur), a.max(cur)),
            None => (cur, cur),
        };
        for i in lo..=hi {
            if let Some(t) = self.row_task(i) {
                self.marks.insert(&t);
            }
        }
        let anchor = self.list.selected_id().map(str::to_string);
        self.marks.anchor = anchor;
        if from.is_none() {
            let key = self
                .keymap
                .hint_key(self.key_contexts(), crate::app::keymap::Action::MarkRange)
                .unwrap_or_else(|| "a key bound to mark_range".into());
            self.say(
                Level::Info,
                format!(
                    "{} — move, then {key} marks every row up to the cursor",
                    self.marks_text().unwrap_or_default()
                ),
            );
        } else {
            self.say_marks();
        }
        vec![]
    }

    /// `V`: mark every loaded row of the view.
    pub fn mark_all(&mut self) -> Vec<Effect> {
        let rows: Vec<Task> = self
            .list
            .items
            .iter()
            .filter_map(|i| i.task())
            .cloned()
            .collect();
        if rows.is_empty() {
            self.say(Level::Warn, "no rows to mark");
            return vec![];
        }
        for t in &rows {
            self.marks.insert(t);
        }
        let note = if self.list.end_reached {
            "every row of the view"
        } else {
            "every loaded row; rows loaded later are not marked"
        };
        self.say(
            Level::Info,
            format!("{} — {note}", self.marks_text().unwrap_or_default()),
        );
        vec![]
    }

    /// `U` / `Esc` in the list: clear every mark (nothing to do without).
    pub fn clear_marks(&mut self) -> Vec<Effect> {
        let n = self.marks.len();
        if n == 0 {
            return vec![];
        }
        self.marks.clear();
        self.say(
            Level::Info,
            format!(
                "{} cleared: task actions act on the current task again",
                crate::domain::words::plural(n, "mark", "marks")
            ),
        );
        vec![]
    }

    fn say_marks(&mut self) {
        let text = self
            .marks_text()
            .unwrap_or_else(|| "no marks: task actions act on the current task".into());
        self.say(Level::Info, text);
    }
}
