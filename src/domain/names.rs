//! The one name matcher (#40 §2): how a typed name finds people and
//! teams, wherever a name is typed — `:assign`, `:team`, `:share add`,
//! `:share team`, the sharing editor's add lines, `@` mentions, the
//! `assigned=`/`involving=`/`team=` filters and the CLI's `--assigned-to`.
//! Case and accents are folded (Unicode NFKD: `nguyen` finds `Nguyễn`),
//! and every typed word is the beginning of a word of the name or of the
//! e-mail (`car ng`, `nguy`, `carol@acme`). Resolving (`find`) and
//! suggesting (`suggest`) read the same rule, so what is suggested is
//! what resolves.

/// `s` lowercased with its accents folded: Unicode NFKD (`ễ` → `e` and
/// two combining marks, `ﬁ` → `fi`), the combining marks dropped, then
/// lowercased. (nucleo's own fold, which the palette's ranking uses, maps
/// the Latin Extended Additional letters of Vietnamese wrongly: its
/// second table reads the first's values.)
pub fn fold(s: &str) -> String {
    const NFKD: icu_normalizer::DecomposingNormalizerBorrowed<'static> =
        icu_normalizer::DecomposingNormalizerBorrowed::new_nfkd();
    NFKD.normalize(s)
        .chars()
        .filter(|c| !is_combining_mark(*c))
        .flat_map(char::to_lowercase)
        .collect()
}

/// A combining mark NFKD leaves after a base letter (the blocks of
/// combining diacritics; `Mn` letters of other scripts are kept).
fn is_combining_mark(c: char) -> bool {
    matches!(c,
        '\u{0300}'..='\u{036f}'
        | '\u{1ab0}'..='\u{1aff}'
        | '\u{1dc0}'..='\u{1dff}'
        | '\u{20d0}'..='\u{20ff}'
        | '\u{fe20}'..='\u{fe2f}')
}

/// Characters that end a word of a name, an e-mail or a label
/// (`Name <e-mail>`, `Team (1a2b3c4d…)`); a word also begins after `-`,
/// `.`, `_`, `@` or `'` inside one (`Jean-Luc`, `dana.b@acme.test`).
fn splits(c: char) -> bool {
    c.is_whitespace() || matches!(c, '<' | '>' | '(' | ')' | '"' | ',' | '…')
}

/// The folded words typed (empty when nothing but spaces).
fn typed_words(typed: &str) -> Vec<String> {
    fold(typed)
        .split(splits)
        .filter(|w| !w.is_empty())
        .map(str::to_string)
        .collect()
}

/// `word` begins a word of the folded `text` (at its start, after a
/// space, or after `-._@'` inside one).
fn begins_a_word(text: &str, word: &str) -> bool {
    let mut prev: Option<char> = None;
    for (i, c) in text.char_indices() {
        let start = match prev {
            None => true,
            Some(p) => splits(p) || (matches!(p, '-' | '.' | '_' | '@' | '\'') && !splits(c)),
        };
        if start && !splits(c) && text[i..].starts_with(word) {
            return true;
        }
        prev = Some(c);
    }
    false
}

/// How well `typed` names a record known by `texts` (its name, its
/// e-mail, or its label): `Some(0)` when it is one of them exactly (case
/// and accents aside), `Some(1)` when one begins with it, `Some(2)` when
/// each typed word begins a word of them; `None` otherwise (and for
/// nothing typed).
pub fn fit(typed: &str, texts: &[&str]) -> Option<u8> {
    let folded: Vec<String> = texts.iter().map(|t| fold_words(t)).collect();
    let folded: Vec<&str> = folded.iter().map(String::as_str).collect();
    fit_folded(typed, &folded)
}

/// A record's text as the matcher reads it (folded, its words joined by
/// one space): made once when the record is learnt (`Directory` keeps it
/// beside the name), not at every key.
pub fn fold_words(text: &str) -> String {
    typed_words(text).join(" ")
}

/// [`fit`] over texts folded already by [`fold_words`].
pub fn fit_folded(typed: &str, folded: &[&str]) -> Option<u8> {
    let words = typed_words(typed);
    if words.is_empty() {
        return None;
    }
    let whole = words.join(" ");
    let folded: Vec<&str> = folded.iter().copied().filter(|t| !t.is_empty()).collect();
    if folded.contains(&whole.as_str()) {
        return Some(0);
    }
    if folded.iter().any(|t| t.starts_with(&whole)) {
        return Some(1);
    }
    words
        .iter()
        .all(|w| folded.iter().any(|t| begins_a_word(t, w)))
        .then_some(2)
}

/// What `typed` resolves to among `records` (each known by its texts: a
/// person's name and e-mail, a team's name): the indices of those it
/// names exactly, else of those whose words it begins. One index: that
/// record; several: the user picks; none: nobody known.
pub fn find(typed: &str, records: &[Vec<&str>]) -> Vec<usize> {
    let folded: Vec<Vec<String>> = records
        .iter()
        .map(|r| r.iter().map(|t| fold_words(t)).collect())
        .collect();
    let folded: Vec<Vec<&str>> = folded
        .iter()
        .map(|r| r.iter().map(String::as_str).collect())
        .collect();
    find_folded(typed, &folded)
}

/// [`find`] over records whose texts are folded already ([`fold_words`]).
pub fn find_folded(typed: &str, records: &[Vec<&str>]) -> Vec<usize> {
    let fits: Vec<(usize, u8)> = records
        .iter()
        .enumerate()
        .filter_map(|(i, texts)| fit_folded(typed, texts).map(|f| (i, f)))
        .collect();
    let exact: Vec<usize> = fits.iter().filter(|f| f.1 == 0).map(|f| f.0).collect();
    if exact.is_empty() {
        fits.into_iter().map(|f| f.0).collect()
    } else {
        exact
    }
}

/// A label as lists show it (`Name <e-mail>`, `Team (1a2b3c4d…)`, `me`)
/// and the text the name matcher reads of it ([`fold_words`]), folded
/// once when the label is made (the directory makes its labels when it
/// learns a name), never again at each key.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Label {
    pub shown: String,
    pub folded: String,
}

impl Label {
    pub fn new(shown: impl Into<String>) -> Label {
        let shown = shown.into();
        let folded = fold_words(&shown);
        Label { shown, folded }
    }

    /// A word that is no name (a filter key, a status): shown, never
    /// read by the name matcher, so not folded.
    pub fn plain(shown: impl Into<String>) -> Label {
        Label {
            shown: shown.into(),
            folded: String::new(),
        }
    }
}

impl AsRef<Label> for Label {
    fn as_ref(&self) -> &Label {
        self
    }
}

/// Suggestions for `typed` among `labels`, best first: exact, then those
/// beginning with it, then those whose words it begins, each in the given
/// order. Nothing typed keeps every label. The one path of every name
/// suggestion (the palette, the sharing editor and its picker, `@`
/// mentions, filter words): it reads each label's folded form, made once;
/// only what is typed is folded here.
pub fn suggest<L: AsRef<Label>>(typed: &str, labels: &[L]) -> Vec<usize> {
    if typed_words(typed).is_empty() {
        return (0..labels.len()).collect();
    }
    let mut hits: Vec<(u8, usize)> = labels
        .iter()
        .enumerate()
        .filter_map(|(i, l)| fit_folded(typed, &[l.as_ref().folded.as_str()]).map(|f| (f, i)))
        .collect();
    hits.sort();
    hits.into_iter().map(|h| h.1).collect()
}

/// Candidates `(id, label)` as a list shows them, each told apart once:
/// the label (a person's carries the e-mail, a team's its id's beginning,
/// `Litigation (33d29895…)`), with the id's beginning (`api::short_id`,
/// the one short id) added only where two labels are the same (or a
/// label is empty). Labels are counted once: O(n), not a walk of every
/// candidate for each.
pub fn told_apart(candidates: &[(String, String)]) -> Vec<String> {
    let mut count: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
    for (_, label) in candidates {
        *count.entry(label.as_str()).or_default() += 1;
    }
    candidates
        .iter()
        .map(|(id, label)| {
            let same = count.get(label.as_str()).is_some_and(|n| *n > 1);
            match (label.trim().is_empty(), same) {
                (true, _) => id.clone(),
                (false, false) => label.clone(),
                (false, true) => format!("{label} ({}…)", crate::api::short_id(id)),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folds_case_and_accents_composed_or_not() {
        assert_eq!(fold("Carol Nguyễn"), "carol nguyen");
        assert_eq!(fold("ÉLODIE Müller"), "elodie muller");
        // `e` + combining circumflex + combining tilde (NFD).
        assert_eq!(fold("Nguye\u{302}\u{303}n"), "nguyen");
        // No decomposition: kept as it is.
        assert_eq!(fold("Søren"), "søren");
        assert_eq!(fold("Ｃａｒｏｌ ﬁ"), "carol fi");
    }

    #[test]
    fn any_beginning_of_words_of_the_name_or_the_email() {
        let carol = ["Carol Nguyễn", "carol@acme.test"];
        for yes in [
            "carol nguyen",
            "CAROL NGUYỄN",
            "nguyen",
            "nguy",
            "car ng",
            "ng carol",
            "carol@acme",
            "acme",
        ] {
            assert!(fit(yes, &carol).is_some(), "{yes}");
        }
        for no in ["guyen", "carol x", "bob", "", "  "] {
            assert_eq!(fit(no, &carol), None, "{no}");
        }
        assert_eq!(fit("carol nguyen", &carol), Some(0));
        assert_eq!(fit("carol@acme.test", &carol), Some(0));
        assert_eq!(fit("carol ng", &carol), Some(1));
        assert_eq!(fit("nguyen", &carol), Some(2));
        // Inside a hyphenated word; a completed label reads as its words.
        assert!(fit("luc", &["Jean-Luc Picard", ""]).is_some());
        assert!(fit("lit 33d2", &["Litigation (33d29895…)"]).is_some());
    }

    #[test]
    fn find_prefers_exact_names_and_keeps_every_other_fit() {
        let people = vec![
            vec!["Sam Taylor", "sam.t@acme.test"],
            vec!["Samantha Cruz", "sc@acme.test"],
            vec!["Carol Nguyễn", "carol@acme.test"],
        ];
        assert_eq!(find("sam taylor", &people), vec![0]);
        assert_eq!(find("sam", &people), vec![0, 1]);
        assert_eq!(find("nguyen", &people), vec![2]);
        assert_eq!(find("carol nguyen", &people), vec![2]);
        assert!(find("dana", &people).is_empty());
    }

    #[test]
    fn candidates_told_apart_once() {
        let teams = vec![
            (
                "33d29895-7a68-4".to_string(),
                "Litigation (33d29895…)".to_string(),
            ),
            (
                "9f00aa11-0000-4".to_string(),
                "Litigation (9f00aa11…)".to_string(),
            ),
        ];
        assert_eq!(
            told_apart(&teams),
            vec!["Litigation (33d29895…)", "Litigation (9f00aa11…)"]
        );
        // The service's candidates: the same label twice, then the id.
        let same = vec![
            ("u-1aaaaaaaa".to_string(), "Sam".to_string()),
            ("u-2bbbbbbbb".to_string(), "Sam".to_string()),
            ("u-3".to_string(), String::new()),
        ];
        assert_eq!(
            told_apart(&same),
            vec!["Sam (u-1aaaaa…)", "Sam (u-2bbbbb…)", "u-3"]
        );
    }

    /// Two people of one name are told apart as before the labels were
    /// counted once: each by its e-mail when the labels carry it, else
    /// by its id's beginning (the one short id), the others as they are.
    #[test]
    fn two_people_of_one_name_get_the_same_labels_as_before() {
        let people = vec![
            (
                "u-sam-1".to_string(),
                "Sam Taylor <sam.t@acme.test>".to_string(),
            ),
            (
                "u-sam-2".to_string(),
                "Sam Taylor <sam.taylor@acme.test>".to_string(),
            ),
            ("u-3a4b5c6d7e".to_string(), "Sam Taylor".to_string()),
            ("u-9f8e7d6c5b".to_string(), "Sam Taylor".to_string()),
            (
                "u-carol".to_string(),
                "Carol Nguyễn <carol@acme.test>".to_string(),
            ),
        ];
        assert_eq!(
            told_apart(&people),
            vec![
                "Sam Taylor <sam.t@acme.test>",
                "Sam Taylor <sam.taylor@acme.test>",
                "Sam Taylor (u-3a4b5c…)",
                "Sam Taylor (u-9f8e7d…)",
                "Carol Nguyễn <carol@acme.test>",
            ]
        );
    }

    #[test]
    fn suggestions_rank_exact_then_prefix_then_words() {
        let labels = [
            "Ana Nguyen <ana@acme.test>",
            "Nguyễn Văn An <an@acme.test>",
            "me",
        ]
        .map(Label::new);
        assert_eq!(suggest("nguyen", &labels), vec![1, 0]);
        assert_eq!(suggest("me", &labels), vec![2]);
        assert_eq!(suggest("", &labels), vec![0, 1, 2]);
        assert!(suggest("zed", &labels).is_empty());
    }

    /// #40 §2: a suggestion reads the label's folded form, made once when
    /// the label is made, and never folds the shown text again (it did,
    /// for every candidate at every key).
    #[test]
    fn suggestions_read_the_folded_form_made_once() {
        let label = Label::new("Carol Nguyễn <carol@acme.test>");
        assert_eq!(label.folded, "carol nguyen carol@acme.test");
        // A folded form that is not the shown text's: what is read is it.
        let odd = Label {
            shown: "Carol Nguyễn <carol@acme.test>".into(),
            folded: "zed".into(),
        };
        assert_eq!(suggest("zed", &[&odd]), vec![0]);
        assert!(suggest("carol", &[&odd]).is_empty());
        assert!(suggest("nguyen", &[&odd]).is_empty());
    }
}
