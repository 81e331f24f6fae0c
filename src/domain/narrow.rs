//! The live filter (`/`, #26 §2): each key typed narrows the rows already
//! on screen before the service is asked (the debounced search). Plain
//! data over `Task`: no state here, so it joins no module cycle.

use crate::api::{Task, TaskItem};

/// A row's texts as the live filter reads them, folded (`names::fold`)
/// once when `/` opens (`SearchBox::over`), not at each key: the label
/// (`#12`), then the title, the tags, the assignee's name and e-mail.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Folded {
    pub label: String,
    pub texts: Vec<String>,
}

/// `t`'s texts, folded: a word typed is found, case and accents aside,
/// in the title, a tag, the assignee's name or e-mail, or the number.
pub fn fold_row(t: &Task) -> Folded {
    let fold = crate::domain::names::fold;
    let mut texts = vec![fold(&t.title.line())];
    texts.extend(t.tags.iter().map(|g| fold(&g.line())));
    if let Some(p) = &t.assigned_to {
        texts.push(fold(&p.name.line()));
        texts.push(fold(&p.email.line()));
    }
    Folded {
        label: fold(&t.label()),
        texts,
    }
}

/// Each row's texts folded ([`fold_row`]; `None` for an unreadable row).
pub fn fold_rows(rows: &[TaskItem]) -> Vec<Option<Folded>> {
    rows.iter().map(|i| i.task().map(fold_row)).collect()
}

/// A row folded already matches every word of `typed`: a word starting
/// with `#` is the beginning of the task's number (`#1` keeps #1, #12,
/// #104); another word is in one of its texts. No word keeps every row.
pub fn matches(f: &Folded, typed: &str) -> bool {
    let texts: Vec<&str> = f.texts.iter().map(String::as_str).collect();
    crate::domain::fuzzy::words_match_folded(&f.label, &texts, typed)
}

/// The rows of `rows` that match, in their order, read from their folded
/// texts `folded` ([`fold_rows`] of the same rows: only what is typed is
/// folded here). Unreadable rows never match a word; with no word they
/// stay.
pub fn narrow(rows: &[TaskItem], folded: &[Option<Folded>], typed: &str) -> Vec<TaskItem> {
    if typed.trim().is_empty() {
        return rows.to_vec();
    }
    rows.iter()
        .zip(folded)
        .filter(|(_, f)| f.as_ref().is_some_and(|f| matches(f, typed)))
        .map(|(i, _)| i.clone())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn task(n: i64, title: &str, tags: &[&str], who: Option<&str>) -> Task {
        let mut t = crate::app::tests::task(n);
        t.title = title.into();
        t.tags = tags.iter().map(|g| (*g).into()).collect();
        t.assigned_to = who
            .map(|w| crate::api::Person {
                name: w.into(),
                email: format!(
                    "{}@acme.test",
                    w.split(' ').next().unwrap_or("").to_lowercase()
                )
                .as_str()
                .into(),
                ..Default::default()
            })
            .map(Into::into);
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
            assert!(matches(&fold_row(&t), yes), "{yes}");
        }
        for no in ["#2", "#123", "contract", "nda contract", "fox"] {
            assert!(!matches(&fold_row(&t), no), "{no}");
        }
    }

    /// #40 §2: the live filter reads each row's folded texts, made once
    /// when `/` opens; it does not fold the rows again at each key.
    #[test]
    fn narrowing_reads_the_rows_folded_once() {
        let t = task(12, "Réviser le contrat", &[], Some("Carol Nguyễn"));
        let f = fold_row(&t);
        assert!(f.texts.contains(&"carol nguyen".to_string()), "{f:?}");
        let rows = vec![TaskItem::Task(Box::new(t))];
        assert_eq!(narrow(&rows, &[Some(f)], "nguyen reviser").len(), 1);
        // Folded texts that are not the row's: what is read is them.
        let odd = Folded {
            label: "#12".into(),
            texts: vec!["zed".into()],
        };
        assert_eq!(narrow(&rows, &[Some(odd.clone())], "zed").len(), 1);
        assert!(narrow(&rows, &[Some(odd)], "contrat").is_empty());
    }
}
