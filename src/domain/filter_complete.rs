//! Completion of filter words (`:filter status=w…`): after a space the
//! keys, after `key=` (and after a comma in a list) the key's values. Only
//! the word being typed is replaced: the text before it is kept byte for
//! byte. A value is completed to a form `filters::filter_words` reads back
//! (quoted when it holds spaces).

use super::filters::{PRIORITY_VALUES, STATUS_VALUES};
use super::fuzzy::rank;
use super::names::Label;

/// The keys offered, in this order (`clear` alone, as the only word).
pub const KEYS: &[&str] = &[
    "status=",
    "priority=",
    "assigned=",
    "involving=",
    "team=",
    "tags=",
    "from=",
    "to=",
];

/// Date words a bound completes to (any date form is read: see `dates`).
const BOUND_WORDS: &[&str] = &["today", "tomorrow", "now", "week", "+1d", "+1w"];

/// What people, teams and tags complete from: the labels taskdeck knows
/// (`Name <e-mail>`, `Team (1a2b3c4d…)`, tags seen on loaded tasks).
#[derive(Clone, Copy, Debug, Default)]
pub struct Known<'a> {
    /// Folded already (`names::Label`): suggestions read that form.
    pub people: &'a [super::names::Label],
    pub teams: &'a [super::names::Label],
    pub tags: &'a [String],
}

/// Where the word being typed starts in `args`, and where its value part
/// (after `key=`, after the last comma of a list) starts, if it has one.
/// Whitespace inside double quotes does not end a word.
#[derive(Debug, PartialEq)]
pub struct Typing<'a> {
    /// The word's key (`status`) when a `=` was typed.
    pub key: Option<&'a str>,
    /// Bytes of `args` kept as they are: everything before the fragment.
    pub head: &'a str,
    /// Where the word being typed starts in `args` (its key, if any).
    pub word: usize,
    /// What is being typed: a key's beginning or a value's.
    pub fragment: &'a str,
    /// The values already in the list (`status=a,b,` → `a`, `b`).
    pub listed: Vec<&'a str>,
}

/// Read where the user is typing in filter text `args`.
pub fn typing(args: &str) -> Typing<'_> {
    let mut quoted = false;
    let mut word_start = 0;
    for (i, c) in args.char_indices() {
        match c {
            '"' => quoted = !quoted,
            c if c.is_whitespace() && !quoted => word_start = i + c.len_utf8(),
            _ => {}
        }
    }
    let word = &args[word_start..];
    let Some(eq) = word.find('=') else {
        return Typing {
            key: None,
            head: &args[..word_start],
            word: word_start,
            fragment: word,
            listed: vec![],
        };
    };
    let key = &word[..eq];
    let value_start = word_start + eq + 1;
    let mut frag_start = value_start;
    if is_list(key) {
        let mut quoted = false;
        for (i, c) in args[value_start..].char_indices() {
            match c {
                '"' => quoted = !quoted,
                ',' if !quoted => frag_start = value_start + i + 1,
                _ => {}
            }
        }
    }
    let listed = args[value_start..frag_start]
        .split(',')
        .map(|v| v.trim_matches('"'))
        .filter(|v| !v.is_empty())
        .collect();
    Typing {
        key: Some(key),
        head: &args[..frag_start],
        word: word_start,
        fragment: &args[frag_start..],
        listed,
    }
}

fn is_list(key: &str) -> bool {
    matches!(key, "status" | "tags")
}

/// A value as filter text: as it is, or quoted when it holds a space (or
/// a comma, in a list); `None` when no filter text reads it back (a quote
/// in it, a comma in a list's value).
fn as_word(v: &str, list: bool) -> Option<String> {
    if v.is_empty() || v.contains('"') || v.chars().any(char::is_control) {
        return None;
    }
    if list && v.contains(',') {
        return None;
    }
    if v.chars().any(char::is_whitespace) {
        Some(format!("\"{v}\""))
    } else {
        Some(v.to_string())
    }
}

/// Completions of filter text `args`, best first: `args` with the word
/// being typed completed (keys, `clear`, or the key's values).
pub fn complete(args: &str, known: &Known) -> Vec<String> {
    let t = typing(args);
    let fragment = t.fragment.trim_start_matches('"');
    // (what is ranked against the fragment, what is inserted)
    // (what is ranked against the fragment, what is inserted)
    let choices: Vec<(Label, String)> = match t.key {
        None => {
            let mut v: Vec<(Label, String)> = KEYS
                .iter()
                .map(|k| (Label::plain(*k), k.to_string()))
                .collect();
            if t.head.trim().is_empty() {
                v.push((Label::plain("clear"), "clear".into()));
            }
            v
        }
        Some(key) => {
            let list = is_list(key);
            // Words that are no names: ranked by their text (`rank`).
            let plain = |v: &[&str]| v.iter().map(|s| Label::plain(*s)).collect();
            let labels: Vec<Label> = match key {
                "status" => plain(STATUS_VALUES),
                "priority" => plain(PRIORITY_VALUES),
                "assigned" | "assigned_to" | "assignee" | "involving" => {
                    std::iter::once(Label::new("me"))
                        .chain(known.people.iter().cloned())
                        .collect()
                }
                "team" | "team_id" => known.teams.to_vec(),
                "tags" => known
                    .tags
                    .iter()
                    .map(|g| Label::plain(g.as_str()))
                    .collect(),
                "from" | "due_from" | "to" | "due_to" => plain(BOUND_WORDS),
                _ => vec![],
            };
            let mut seen: Vec<String> = Vec::new();
            labels
                .into_iter()
                .filter(|l| !t.listed.contains(&l.shown.as_str()))
                .filter_map(|l| as_word(&l.shown, list).map(|w| (l, w)))
                .filter(|(_, w)| {
                    let new = !seen.contains(w);
                    seen.push(w.clone());
                    new
                })
                .collect()
        }
    };
    // People and teams: the one name matcher (accents folded, any
    // beginning of words), as where they resolve.
    let names = matches!(
        t.key,
        Some("assigned" | "assigned_to" | "assignee" | "involving" | "team" | "team_id")
    );
    let ranked = if names {
        let labels: Vec<&Label> = choices.iter().map(|(l, _)| l).collect();
        super::names::suggest(fragment, &labels)
    } else {
        let texts: Vec<&str> = choices.iter().map(|(l, _)| l.shown.as_str()).collect();
        rank(fragment, &texts)
    };
    ranked
        .into_iter()
        .map(|i| format!("{}{}", t.head, choices[i].1))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::filters::filter_words;

    fn none() -> Known<'static> {
        Known::default()
    }

    #[test]
    fn keys_after_a_space_and_clear_only_as_the_first_word() {
        let all = complete("", &none());
        assert_eq!(all.len(), KEYS.len() + 1);
        assert!(all.contains(&"clear".to_string()));
        assert_eq!(complete("st", &none())[0], "status=");
        assert_eq!(complete("pri", &none()), vec!["priority="]);
        assert_eq!(complete("cl", &none()), vec!["clear"]);
        // After a word: the keys again, the words before kept as typed.
        let after = complete("status=waiting  ", &none());
        assert_eq!(after.len(), KEYS.len(), "no clear after a word");
        assert!(after.iter().all(|c| c.starts_with("status=waiting  ")));
        assert_eq!(
            complete("status=waiting  as", &none())[0],
            "status=waiting  assigned="
        );
    }

    #[test]
    fn status_and_priority_values_after_the_key_and_after_a_comma() {
        assert_eq!(
            complete("status=w", &none()),
            vec!["status=waiting_on_external"]
        );
        let all = complete("status=", &none());
        assert_eq!(all.len(), STATUS_VALUES.len());
        // In a list: the values not yet named, the ones before kept.
        let rest = complete("status=in_progress,", &none());
        assert_eq!(rest.len(), STATUS_VALUES.len() - 1);
        assert!(rest.iter().all(|c| c.starts_with("status=in_progress,")));
        assert_eq!(
            complete("priority=urgent status=in_p,c", &none()),
            vec!["priority=urgent status=in_p,completed"]
        );
        assert_eq!(complete("priority=m", &none()), vec!["priority=medium"]);
        assert_eq!(complete("priority=", &none()).len(), PRIORITY_VALUES.len());
        assert_eq!(complete("from=tod", &none()), vec!["from=today"]);
        assert!(complete("query=x", &none()).is_empty());
        // Every date word offered reads as a bound.
        for w in BOUND_WORDS {
            crate::domain::filters::check_filters(&format!("from={w} to={w}")).unwrap();
        }
    }

    #[test]
    fn people_teams_and_tags_complete_to_words_read_back() {
        let people = [
            "Dana Alpha <dana.a@acme.test>",
            "bob@acme.test",
            "Odd \"Quote\" Name",
        ]
        .map(Label::new);
        let teams = ["Corporate Law (t-1…)", "Ops"].map(Label::new);
        let tags = vec![
            "urgent-review".to_string(),
            "two words".to_string(),
            "a,b".to_string(),
        ];
        let k = Known {
            people: &people,
            teams: &teams,
            tags: &tags,
        };
        assert_eq!(complete("assigned=", &k)[0], "assigned=me");
        let dana = complete("status=waiting assigned=dana", &k);
        assert_eq!(
            dana,
            vec![r#"status=waiting assigned="Dana Alpha <dana.a@acme.test>""#]
        );
        // Filter text reads the completion back as the label.
        assert_eq!(
            filter_words(&dana[0]).unwrap(),
            vec!["status=waiting", "assigned=Dana Alpha <dana.a@acme.test>"]
        );
        // A quote already typed is replaced with the word.
        assert_eq!(
            complete(r#"involving="Dana A"#, &k),
            vec![r#"involving="Dana Alpha <dana.a@acme.test>""#]
        );
        assert_eq!(
            complete("involving=bob", &k),
            vec!["involving=bob@acme.test"]
        );
        // A name no filter text can hold is not offered.
        assert!(complete("assigned=odd", &k).is_empty());
        assert_eq!(
            complete("team=corp", &k),
            vec![r#"team="Corporate Law (t-1…)""#]
        );
        assert_eq!(complete("team=", &k).len(), 2);
        assert_eq!(complete("tags=x,urg", &k), vec!["tags=x,urgent-review"]);
        let two = complete("tags=two", &k);
        assert_eq!(two, vec![r#"tags="two words""#]);
        assert_eq!(filter_words(&two[0]).unwrap(), vec!["tags=two words"]);
        assert!(complete("tags=a,b", &k)
            .iter()
            .all(|c| !c.contains("\"a,b\"")));
    }

    #[test]
    fn where_the_user_is_typing() {
        assert_eq!(
            typing(r#"team="Corporate Law" status=in_progress,wa"#),
            Typing {
                key: Some("status"),
                head: r#"team="Corporate Law" status=in_progress,"#,
                word: 21,
                fragment: "wa",
                listed: vec!["in_progress"],
            }
        );
        let t = typing(r#"assigned="Dana A"#);
        assert_eq!(
            (t.key, t.head, t.fragment),
            (Some("assigned"), "assigned=", "\"Dana A")
        );
        let t = typing("status=a ");
        assert_eq!((t.key, t.head, t.fragment), (None, "status=a ", ""));
    }
}
