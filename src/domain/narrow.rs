//! The live filter (`/`, #26 §2): each key typed narrows the rows already
//! on screen before the service is asked (the debounced search). Plain
//! data over `Task`: no state here, so it joins no module cycle.

use crate::api::{Task, TaskItem};

/// `t` matches every word of `typed`: a word starting with `#` is the
/// beginning of the task's number (`#1` keeps #1, #12, #104); another
/// word is found, case aside, in the title, a tag, the assignee's name or
/// e-mail, or the number. No word keeps every row.
pub fn matches(t: &Task, typed: &str) -> bool {
    let title = t.title.line();
    let tags: Vec<_> = t.tags.iter().map(|g| g.line()).collect();
    let mut texts: Vec<&str> = vec![title.as_ref()];
    texts.extend(tags.iter().map(|g| g.as_ref()));
    let who = t
        .assigned_to
        .as_ref()
        .map(|p| (p.name.line(), p.email.line()));
    if let Some((name, email)) = &who {
        texts.push(name.as_ref());
        texts.push(email.as_ref());
    }
    crate::domain::fuzzy::words_match(&t.label(), &texts, typed)
}

/// The rows of `rows` that match, in their order (unreadable rows never
/// match a word; with no word they stay).
pub fn narrow(rows: &[TaskItem], typed: &str) -> Vec<TaskItem> {
    if typed.trim().is_empty() {
        return rows.to_vec();
    }
    rows.iter()
        .filter(|i| i.task().is_some_and(|t| matches(t, typed)))
        .cloned()
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn task(n: i64, title: &str, tags: &[&str], who: Option<&str>) -> Task {
        let mut t = crate::app::tests::task(n);
        t.title = title.into();
        t.tags = tags.iter().map(|g| (*g).into()).collect();
        t.assigned_to = who.map(|w| crate::api::Person {
            name: w.into(),
            email: format!(
                "{}@acme.test",
                w.split(' ').next().unwrap_or("").to_lowercase()
            )
            .as_str()
            .into(),
            ..Default::default()
        });
        t
    }

    #[test]
    fn words_match_number_title_tags_and_assignee() {
        let t = task(12, "Renew the NDA", &["legal"], Some("Dana Scully"));
        for yes in [
            "#1",
            "#12",
            "nda",
            "RENEW nda",
            "leg",
            "dana",
            "scully",
            "dana@acme",
            "12",
        ] {
            assert!(matches(&t, yes), "{yes}");
        }
        for no in ["#2", "#123", "contract", "nda contract", "fox"] {
            assert!(!matches(&t, no), "{no}");
        }
    }
}
