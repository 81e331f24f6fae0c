//! A search's query as it is read: bounded (#42 §5: matching costs grow
//! with the query's words times the text's) and split into its words.

/// A search reads at most this many words of its query…
pub const QUERY_WORDS: usize = 32;
/// …and at most this many bytes of it: matching costs grow with the
/// query's words times the text's, so a pasted page is cut, not searched.
pub const QUERY_BYTES: usize = 512;

/// A query as search reads it: up to the end of its [`QUERY_WORDS`]th word
/// (a run of letters and digits, as [`find`](super::find) reads words) and within
/// [`QUERY_BYTES`] (a word the cut would split is left out, unless it is
/// the first), trimmed; and whether anything was left out. The store
/// ([`find`](super::find)), the CLI's `search` and the TUI's `/` all read a query
/// through it, and the two last say when it was cut.
pub fn bound_query(query: &str) -> (&str, bool) {
    let mut words = 0;
    let mut word_start: Option<usize> = None;
    let mut end = query.len();
    for (i, c) in query.char_indices() {
        let alnum = c.is_alphanumeric();
        if alnum && word_start.is_none() {
            if words == QUERY_WORDS {
                end = i;
                break;
            }
            words += 1;
            word_start = Some(i);
        } else if !alnum {
            word_start = None;
        }
        if i + c.len_utf8() > QUERY_BYTES {
            end = match word_start {
                Some(w) if words > 1 => w,
                _ => i,
            };
            break;
        }
    }
    let kept = query[..end].trim_end();
    (kept, !query[end..].trim().is_empty())
}

/// What is said when a query was cut ([`bound_query`]).
pub fn query_cut_words() -> String {
    format!(
        "the search reads the first {QUERY_WORDS} words ({QUERY_BYTES} bytes at most) \
         of a query: the rest was left out"
    )
}

/// The words of a query, lower case, each once (a word said twice asks
/// nothing more).
pub(super) fn query_words(query: &str) -> Vec<String> {
    let mut words: Vec<String> = Vec::new();
    for w in query
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
    {
        if !words.contains(&w) {
            words.push(w);
        }
    }
    words
}
