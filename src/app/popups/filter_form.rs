//! The filter form (`f`): every filter of the task list in one place.

use crate::api::TaskQuery;
use crate::app::keymap::Action;
use crate::app::state::command::{PRIORITY_VALUES, STATUS_VALUES};
use crate::app::state::directory::Directory;
use crate::app::state::fields::parse_filters;
use crate::app::state::input::LineInput;
use crossterm::event::{KeyCode, KeyEvent};

pub const TEXT_FIELDS: [&str; 6] = ["assigned", "involving", "team", "tags", "from", "to"];
pub const TEXT_LABELS: [&str; 6] = [
    "assigned to (me, e-mail, name)",
    "involving (me, e-mail, name)",
    "team (name or id)",
    "tags (a,b)",
    "due from (date)",
    "due to (date)",
];

pub struct FilterForm {
    pub status: [bool; 4],
    /// Index into PRIORITY_VALUES, or None for any.
    pub priority: Option<usize>,
    pub text: [LineInput; 6],
    /// 0..4 status boxes, 4 priority, 5.. text fields.
    pub row: usize,
    pub error: Option<String>,
}

pub const ROWS: usize = 4 + 1 + 6;

impl FilterForm {
    /// The form for `q`: people as `me` or their e-mail, teams by name
    /// when the directory knows them (they are resolved again on apply).
    pub fn from_query(q: &TaskQuery, me: Option<&str>, dir: &Directory) -> FilterForm {
        let show_me = |v: &Option<String>| match v {
            Some(id) if !id.is_empty() => crate::app::state::fields::person_word(id, me, dir),
            _ => String::new(),
        };
        let team = q
            .team_id
            .as_deref()
            .map(|id| {
                dir.teams
                    .get(id)
                    .filter(|t| !t.name.is_empty() && !t.name.contains(' '))
                    .map(|t| t.name.clone())
                    .unwrap_or_else(|| id.to_string())
            })
            .unwrap_or_default();
        FilterForm {
            status: std::array::from_fn(|i| q.status.iter().any(|s| s == STATUS_VALUES[i])),
            priority: q
                .priority
                .as_deref()
                .and_then(|p| PRIORITY_VALUES.iter().position(|v| *v == p)),
            text: [
                LineInput::with(&show_me(&q.assigned_to)),
                LineInput::with(&show_me(&q.involving)),
                LineInput::with(&team),
                LineInput::with(&q.tags.join(",")),
                LineInput::with(q.complete_by_from.as_deref().unwrap_or("")),
                LineInput::with(q.complete_by_to.as_deref().unwrap_or("")),
            ],
            row: 0,
            error: None,
        }
    }

    /// The filters as the `:filter` words, then parsed the same way.
    pub fn to_query(&self, me: Option<&str>) -> Result<TaskQuery, String> {
        let mut words = Vec::new();
        let status: Vec<&str> = (0..4)
            .filter(|i| self.status[*i])
            .map(|i| STATUS_VALUES[i])
            .collect();
        if !status.is_empty() {
            words.push(format!("status={}", status.join(",")));
        }
        if let Some(p) = self.priority {
            words.push(format!("priority={}", PRIORITY_VALUES[p]));
        }
        for (name, input) in TEXT_FIELDS.iter().zip(&self.text) {
            let v: String = input.text.split_whitespace().collect::<Vec<_>>().join("");
            if !v.is_empty() {
                words.push(format!("{name}={v}"));
            }
        }
        parse_filters(&words.join(" "), me)
    }
}

impl FilterForm {
    /// Pasted text goes into the text field the cursor is on.
    pub fn paste(&mut self, text: &str) {
        if self.row >= 5 {
            self.text[self.row - 5].insert_str(text);
        }
    }
}

/// What a key did in the form.
#[derive(Debug, PartialEq)]
pub enum FormOutcome {
    Stay,
    Close,
    /// Apply the filters the form shows (`to_query`).
    Apply,
}

impl FilterForm {
    /// A key, and the action the `filter` keymap context binds it to
    /// (keys bound to nothing go to the text field the cursor is on).
    pub fn on_key(&mut self, ev: &KeyEvent, action: Option<Action>) -> FormOutcome {
        let form = self;
        let text_row = form.row >= 5;
        // On a text field, a plain character bound to a form action (space)
        // is text.
        let action = match (action, ev.code) {
            (Some(Action::Toggle | Action::PriorityPrev), _) if text_row => None,
            (a, _) => a,
        };
        match action {
            Some(Action::Close) => return FormOutcome::Close,
            Some(Action::Apply) => return FormOutcome::Apply,
            Some(Action::ClearFilters) => {
                *form = FilterForm::from_query(&TaskQuery::default(), None, &Directory::default());
            }
            Some(Action::NextField) => form.row = (form.row + 1) % ROWS,
            Some(Action::PrevField) => form.row = (form.row + ROWS - 1) % ROWS,
            Some(Action::Toggle) if form.row < 4 => form.status[form.row] = !form.status[form.row],
            Some(Action::Toggle) if form.row == 4 => {
                form.priority = match form.priority {
                    None => Some(0),
                    Some(i) if i + 1 < PRIORITY_VALUES.len() => Some(i + 1),
                    Some(_) => None,
                }
            }
            Some(Action::PriorityPrev) if form.row == 4 => {
                form.priority = match form.priority {
                    None => Some(PRIORITY_VALUES.len() - 1),
                    Some(0) => None,
                    Some(i) => Some(i - 1),
                }
            }
            None if !text_row && ev.code == KeyCode::Char('j') => form.row += 1,
            None if !text_row && ev.code == KeyCode::Char('k') => {
                form.row = form.row.saturating_sub(1)
            }
            None if text_row => {
                form.text[form.row - 5].handle(ev);
                form.error = None;
            }
            _ => {}
        }
        FormOutcome::Stay
    }
}
