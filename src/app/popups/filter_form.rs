//! The filter form (`f`): every filter of the task list in one place.

use crate::api::TaskQuery;
use crate::app::command::{PRIORITY_VALUES, STATUS_VALUES};
use crate::app::directory::Directory;
use crate::app::fields::parse_filters;
use crate::app::input::LineInput;
use crate::app::state::*;
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

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
            Some(id) if !id.is_empty() => crate::app::fields::person_word(id, me, dir),
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

impl State {
    pub fn open_filter_form(&mut self) -> Vec<Effect> {
        let form = FilterForm::from_query(&self.filters, self.my_id(), &self.directory);
        self.overlay = Overlay::Filter(Box::new(form));
        vec![]
    }

    pub fn filter_key(&mut self, mut form: Box<FilterForm>, ev: KeyEvent) -> Vec<Effect> {
        let ctrl = ev.modifiers.contains(KeyModifiers::CONTROL);
        match ev.code {
            KeyCode::Esc => return vec![],
            KeyCode::Enter => match form.to_query(self.my_id()) {
                Ok(mut q) => match crate::app::fields::resolve_names(&mut q, &self.directory) {
                    Ok(()) => {
                        self.set_filters(q);
                        self.focus = Focus::List;
                        return self.reload_list(false);
                    }
                    Err(Ok(amb)) => {
                        form.error = Some(crate::text::clean(&format!(
                            "{}={} matches {}: type one of their e-mails",
                            amb.key,
                            amb.reference,
                            amb.candidates
                                .iter()
                                .map(|(_, l)| l.as_str())
                                .collect::<Vec<_>>()
                                .join(", ")
                        )))
                    }
                    Err(Err(e)) => form.error = Some(crate::text::clean(&e)),
                },
                Err(e) => form.error = Some(crate::text::clean(&e)),
            },
            KeyCode::Char('r') if ctrl => {
                *form = FilterForm::from_query(&TaskQuery::default(), None, &self.directory);
            }
            KeyCode::Down | KeyCode::Tab => form.row = (form.row + 1) % ROWS,
            KeyCode::Up | KeyCode::BackTab => form.row = (form.row + ROWS - 1) % ROWS,
            KeyCode::Char(' ') if form.row < 4 => form.status[form.row] = !form.status[form.row],
            KeyCode::Char(' ') | KeyCode::Right if form.row == 4 => {
                form.priority = match form.priority {
                    None => Some(0),
                    Some(i) if i + 1 < PRIORITY_VALUES.len() => Some(i + 1),
                    Some(_) => None,
                }
            }
            KeyCode::Left if form.row == 4 => {
                form.priority = match form.priority {
                    None => Some(PRIORITY_VALUES.len() - 1),
                    Some(0) => None,
                    Some(i) => Some(i - 1),
                }
            }
            KeyCode::Char('j') if form.row < 5 => form.row += 1,
            KeyCode::Char('k') if form.row < 5 => form.row = form.row.saturating_sub(1),
            _ if form.row >= 5 => {
                form.text[form.row - 5].handle(&ev);
                form.error = None;
            }
            _ => {}
        }
        self.overlay = Overlay::Filter(form);
        vec![]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::tests::{code, key, loaded};

    #[test]
    fn the_form_builds_every_filter() {
        let mut s = loaded(1);
        s.on_key(key('f'));
        assert!(matches!(s.overlay, Overlay::Filter(_)));
        s.on_key(key(' ')); // not_started
        s.on_key(key('j'));
        s.on_key(key('j'));
        s.on_key(key('j'));
        s.on_key(key(' ')); // completed
        s.on_key(key('j'));
        s.on_key(key(' ')); // priority urgent
        s.on_key(key(' ')); // high
        s.on_key(code(KeyCode::Tab));
        for c in "me".chars() {
            s.on_key(key(c));
        }
        s.on_key(code(KeyCode::Tab));
        s.on_key(code(KeyCode::Tab));
        s.on_key(code(KeyCode::Tab));
        for c in "nda,q4".chars() {
            s.on_key(key(c));
        }
        s.on_key(code(KeyCode::Tab));
        for c in "2026-12-01".chars() {
            s.on_key(key(c));
        }
        let fx = s.on_key(code(KeyCode::Enter));
        let r = crate::app::tests::reqs(&fx);
        match &r[..] {
            [ApiRequest::ListPage { query, .. }] => {
                assert_eq!(query.status, vec!["not_started", "completed"]);
                assert_eq!(query.priority.as_deref(), Some("high"));
                assert_eq!(query.assigned_to.as_deref(), Some("u-me"));
                assert_eq!(query.tags, vec!["nda", "q4"]);
                assert_eq!(query.complete_by_from.as_deref(), Some("2026-12-01"));
            }
            other => panic!("{other:?}"),
        }
        // Reopening shows the same filters.
        s.on_key(key('f'));
        match &s.overlay {
            Overlay::Filter(f) => {
                assert_eq!(f.status, [true, false, false, true]);
                assert_eq!(f.text[0].text, "me");
            }
            _ => panic!(),
        }
    }

    #[test]
    fn a_bad_date_stays_in_the_form_with_a_message() {
        let mut s = loaded(1);
        s.on_key(key('f'));
        for _ in 0..9 {
            s.on_key(code(KeyCode::Tab));
        }
        for c in "whenever".chars() {
            s.on_key(key(c));
        }
        let fx = s.on_key(code(KeyCode::Enter));
        assert!(crate::app::tests::reqs(&fx).is_empty());
        match &s.overlay {
            Overlay::Filter(f) => assert!(f.error.as_deref().unwrap_or("").contains("not a date")),
            _ => panic!("form stays open"),
        }
    }
}
