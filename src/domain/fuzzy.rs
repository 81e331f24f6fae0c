//! Fuzzy ranking (nucleo-matcher, helix's matcher) for the palette and the
//! help filter. An exact match ranks first, then prefixes, then the score.

use nucleo_matcher::pattern::{CaseMatching, Normalization, Pattern};
use nucleo_matcher::{Config, Matcher};

/// Indices of `items` that match `query`, best first. An empty query keeps
/// every item in its order.
pub fn rank<S: AsRef<str>>(query: &str, items: &[S]) -> Vec<usize> {
    let q = query.trim();
    if q.is_empty() {
        return (0..items.len()).collect();
    }
    let mut matcher = Matcher::new(Config::DEFAULT);
    let pattern = Pattern::parse(q, CaseMatching::Ignore, Normalization::Smart);
    let ql = q.to_lowercase();
    let mut hits: Vec<(usize, u8, u32)> = pattern
        .match_list(
            (0..items.len()).map(|i| Indexed(i, items[i].as_ref())),
            &mut matcher,
        )
        .into_iter()
        .map(|(it, score)| {
            let l = it.1.to_lowercase();
            let class = if l == ql {
                0
            } else if l.starts_with(&ql) {
                1
            } else {
                2
            };
            (it.0, class, score)
        })
        .collect();
    hits.sort_by(|a, b| a.1.cmp(&b.1).then(b.2.cmp(&a.2)).then(a.0.cmp(&b.0)));
    hits.into_iter().map(|h| h.0).collect()
}

/// Every word of `typed` is found in a row known by its `label` (`#12`)
/// and its `texts` (title, tags, names): a word starting with `#` is the
/// beginning of the label (`#1` keeps #1, #12, #104); another word is
/// found, case and accents aside (`names::fold`: `nguyen` finds
/// `Nguyễn`), in the label or one of the texts. No word keeps the row.
/// The live filter (`/`) and every picker one types into (`:link task`,
/// `:attach`) narrow by it. The label and texts are folded already
/// (`names::fold`, once when a row is made: a picker's rows are not
/// folded again at each key); only what is typed is folded here.
pub fn words_match_folded(label: &str, texts: &[&str], typed: &str) -> bool {
    let fold = super::names::fold;
    typed.split_whitespace().all(|word| {
        let word = fold(word);
        if word.starts_with('#') {
            return label.starts_with(&word);
        }
        label.contains(&word) || texts.iter().any(|t| t.contains(&word))
    })
}

struct Indexed<'a>(usize, &'a str);

impl AsRef<str> for Indexed<'_> {
    fn as_ref(&self) -> &str {
        self.1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// [`words_match_folded`] over a label and texts not folded yet.
    fn words_match(label: &str, texts: &[&str], typed: &str) -> bool {
        let fold = super::super::names::fold;
        let texts: Vec<String> = texts.iter().map(|t| fold(t)).collect();
        let texts: Vec<&str> = texts.iter().map(String::as_str).collect();
        words_match_folded(&fold(label), &texts, typed)
    }

    #[test]
    fn exact_then_prefix_then_fuzzy() {
        let items = [
            "waiting_on_external",
            "in_progress",
            "not_started",
            "completed",
        ];
        assert_eq!(rank("in", &items)[0], 1);
        assert_eq!(rank("wait", &items), vec![0]);
        assert_eq!(rank("cmpltd", &items), vec![3]);
        assert_eq!(rank("", &items), vec![0, 1, 2, 3]);
        assert!(rank("zzz", &items).is_empty());
        let cmds = ["description", "detach", "due"];
        assert_eq!(rank("due", &cmds)[0], 2);
    }

    #[test]
    fn typed_words_fold_case_and_accents() {
        assert!(words_match(
            "#3",
            &["Réviser le contrat", "Carol Nguyễn"],
            "reviser nguyen"
        ));
        assert!(words_match("#3", &["Réviser le contrat"], "RÉVISER"));
        assert!(!words_match("#3", &["Réviser le contrat"], "revisor"));
    }
}
