//! Rust source as the architecture check reads it: tokens without
//! comments and strings, `#[cfg(test)]` items dropped, and the paths a file
//! names (`use` trees expanded) with the names it defines.

use std::collections::BTreeSet;

#[derive(Clone, Debug, PartialEq)]
pub enum Tok {
    Ident(String),
    /// `::`
    Path,
    Punct(char),
    /// A literal or lifetime: nothing a path can be made of.
    Other,
}

/// Rust source as tokens, without comments, strings and characters.
pub fn tokens(src: &str) -> Vec<Tok> {
    let c: Vec<char> = src.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < c.len() {
        let ch = c[i];
        let next = c.get(i + 1).copied();
        if ch.is_whitespace() {
            i += 1;
        } else if ch == '/' && next == Some('/') {
            while i < c.len() && c[i] != '\n' {
                i += 1;
            }
        } else if ch == '/' && next == Some('*') {
            // Block comments nest in Rust.
            let mut depth = 0;
            while i < c.len() {
                if c[i] == '/' && c.get(i + 1) == Some(&'*') {
                    depth += 1;
                    i += 2;
                } else if c[i] == '*' && c.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
        } else if let Some(end) = raw_string_end(&c, i) {
            out.push(Tok::Other);
            i = end;
        } else if ch == '"' || (ch == 'b' && next == Some('"')) {
            i += if ch == 'b' { 2 } else { 1 };
            while i < c.len() && c[i] != '"' {
                i += if c[i] == '\\' { 2 } else { 1 };
            }
            i += 1;
            out.push(Tok::Other);
        } else if ch == '\'' {
            // A character ('a', '\n', '\u{1F600}') or a lifetime ('a).
            if next == Some('\\') {
                i += 3; // past the escaped character, which may be a quote
                while i < c.len() && c[i] != '\'' {
                    i += 1;
                }
                i += 1;
            } else if c.get(i + 2) == Some(&'\'') {
                i += 3;
            } else {
                i += 1;
                while i < c.len() && (c[i].is_alphanumeric() || c[i] == '_') {
                    i += 1;
                }
            }
            out.push(Tok::Other);
        } else if ch.is_alphabetic() || ch == '_' {
            let start = i;
            while i < c.len() && (c[i].is_alphanumeric() || c[i] == '_') {
                i += 1;
            }
            let word: String = c[start..i].iter().collect();
            // `r#ident`: a raw identifier.
            if word == "r" && c.get(i) == Some(&'#') {
                i += 1;
                continue;
            }
            out.push(Tok::Ident(word));
        } else if ch.is_ascii_digit() {
            while i < c.len() && (c[i].is_alphanumeric() || c[i] == '_') {
                i += 1;
            }
            out.push(Tok::Other);
        } else if ch == ':' && next == Some(':') {
            out.push(Tok::Path);
            i += 2;
        } else {
            out.push(Tok::Punct(ch));
            i += 1;
        }
    }
    out
}

/// The end of a raw string (`r"…"`, `r#"…"#`, `br#"…"#`) starting at `i`.
fn raw_string_end(c: &[char], i: usize) -> Option<usize> {
    let mut j = i;
    if c.get(j) == Some(&'b') {
        j += 1;
    }
    if c.get(j) != Some(&'r') {
        return None;
    }
    j += 1;
    let mut hashes = 0;
    while c.get(j) == Some(&'#') {
        hashes += 1;
        j += 1;
    }
    if c.get(j) != Some(&'"') {
        return None;
    }
    j += 1;
    while j < c.len() {
        if c[j] == '"' && (1..=hashes).all(|k| c.get(j + k) == Some(&'#')) {
            return Some(j + 1 + hashes);
        }
        j += 1;
    }
    Some(j)
}

fn ident(t: Option<&Tok>) -> Option<&str> {
    match t {
        Some(Tok::Ident(s)) => Some(s),
        _ => None,
    }
}

/// The index just past the bracket group opening at `i`.
fn group_end(t: &[Tok], i: usize) -> usize {
    let mut depth = 0i32;
    let mut j = i;
    while j < t.len() {
        match t[j] {
            Tok::Punct('(' | '[' | '{') => depth += 1,
            Tok::Punct(')' | ']' | '}') => {
                depth -= 1;
                if depth == 0 {
                    return j + 1;
                }
            }
            _ => {}
        }
        j += 1;
    }
    j
}

/// Whether the attribute `#[…]` in `t[i..end]` compiles only for tests:
/// `cfg(test)` or `cfg(all(test, …))` (never `cfg(not(test))`).
fn test_only(attr: &[Tok]) -> bool {
    let words: Vec<&str> = attr.iter().filter_map(|t| ident(Some(t))).collect();
    match words.as_slice() {
        ["cfg", "test"] => true,
        ["cfg", "all", rest @ ..] => rest.contains(&"test") && !rest.contains(&"not"),
        _ => false,
    }
}

/// Drops every item under a test-only attribute. Returns the rest and the
/// names of test-only child modules declared as files (`mod tests;`).
pub fn strip_tests(t: &[Tok]) -> (Vec<Tok>, Vec<String>) {
    let mut out = Vec::with_capacity(t.len());
    let mut test_mods = Vec::new();
    let mut i = 0;
    while i < t.len() {
        let is_attr = t[i] == Tok::Punct('#') && t.get(i + 1) == Some(&Tok::Punct('['));
        if !is_attr {
            out.push(t[i].clone());
            i += 1;
            continue;
        }
        let end = group_end(t, i + 1);
        if !test_only(&t[i + 2..end.saturating_sub(1)]) {
            out.extend_from_slice(&t[i..end]);
            i = end;
            continue;
        }
        // Skip further attributes, then the item: up to its `;` or through
        // its first top-level `{…}` (a `use`, `const` or `static` always
        // ends at a `;`).
        let mut j = end;
        while t.get(j) == Some(&Tok::Punct('#')) {
            j = group_end(t, j + 1);
        }
        let words_to_semi = t[j..]
            .iter()
            .take_while(|t| !matches!(t, Tok::Punct('{' | ';')))
            .filter_map(|t| ident(Some(t)))
            .collect::<Vec<_>>();
        let ends_at_semi = words_to_semi
            .iter()
            .any(|w| matches!(*w, "use" | "const" | "static"));
        if let Some(pos) = words_to_semi.iter().position(|w| *w == "mod") {
            if let Some(name) = words_to_semi.get(pos + 1) {
                test_mods.push(name.to_string());
            }
        }
        while j < t.len() {
            match t[j] {
                Tok::Punct(';') => {
                    j += 1;
                    break;
                }
                Tok::Punct('{') if !ends_at_semi => {
                    j = group_end(t, j);
                    break;
                }
                Tok::Punct('(' | '[' | '{') => j = group_end(t, j),
                _ => j += 1,
            }
        }
        i = j;
    }
    (out, test_mods)
}

// ---------------------------------------------------------------- paths

/// A path the code names: its segments, whether it ends in `*`, for a
/// `use`, the name it brings in (its last segment, or the `as` name), and
/// whether that `use` is `pub` (seen by glob imports from outside).
#[derive(Debug, PartialEq)]
pub struct Named {
    pub segs: Vec<String>,
    pub glob: bool,
    pub brings: Option<String>,
    pub public: bool,
}

/// Expands the use tree starting at `t[i]`; returns the index after it.
fn use_tree(
    t: &[Tok],
    mut i: usize,
    prefix: &[String],
    public: bool,
    out: &mut Vec<Named>,
) -> usize {
    let mut segs = prefix.to_vec();
    if t.get(i) == Some(&Tok::Path) {
        i += 1; // `use ::std…`
    }
    loop {
        match t.get(i) {
            Some(Tok::Ident(w)) => {
                if w != "self" {
                    segs.push(w.clone());
                }
                i += 1;
                if t.get(i) == Some(&Tok::Path) {
                    i += 1;
                    continue;
                }
                let mut brings = segs.last().cloned();
                if ident(t.get(i)) == Some("as") {
                    brings = ident(t.get(i + 1)).map(String::from);
                    i += 2;
                }
                out.push(Named {
                    segs,
                    glob: false,
                    brings,
                    public,
                });
                return i;
            }
            Some(Tok::Punct('*')) => {
                out.push(Named {
                    segs,
                    glob: true,
                    brings: None,
                    public,
                });
                return i + 1;
            }
            Some(Tok::Punct('{')) => {
                i += 1;
                while i < t.len() && t[i] != Tok::Punct('}') {
                    i = use_tree(t, i, &segs, public, out);
                    if t.get(i) == Some(&Tok::Punct(',')) {
                        i += 1;
                    }
                }
                return i + 1;
            }
            _ => return i + 1,
        }
    }
}

/// What one file holds, as far as the graph cares.
#[derive(Default)]
pub struct Parsed {
    /// Every path it names: `use` trees expanded, and every other path that
    /// starts at a word not itself after `::`.
    pub names: Vec<Named>,
    /// The child modules it declares (`mod x;`).
    pub children: Vec<String>,
    /// The names it defines (`struct X`, `fn x`…; also local ones, which
    /// only makes resolution keep an arrow here).
    pub defs: BTreeSet<String>,
}

pub fn parse(t: &[Tok]) -> Parsed {
    let mut p = Parsed::default();
    let mut i = 0;
    while i < t.len() {
        let after_path = i > 0 && t[i - 1] == Tok::Path;
        match ident(t.get(i)) {
            Some("use") if !after_path => {
                let public = (i >= 1 && ident(t.get(i - 1)) == Some("pub"))
                    || (i >= 4
                        && t[i - 1] == Tok::Punct(')')
                        && ident(t.get(i - 4)) == Some("pub"));
                i = use_tree(t, i + 1, &[], public, &mut p.names);
            }
            Some(
                kw @ ("mod" | "struct" | "enum" | "fn" | "trait" | "type" | "const" | "static"
                | "union" | "macro_rules"),
            ) if !after_path => {
                let at = if kw == "macro_rules" { i + 2 } else { i + 1 };
                if let Some(name) = ident(t.get(at)) {
                    p.defs.insert(name.to_string());
                    if kw == "mod" && t.get(at + 1) == Some(&Tok::Punct(';')) {
                        p.children.push(name.to_string());
                    }
                }
                i += 1;
            }
            Some(_) if !after_path && t.get(i + 1) == Some(&Tok::Path) => {
                let mut segs = Vec::new();
                while let Some(w) = ident(t.get(i)) {
                    segs.push(w.to_string());
                    if t.get(i + 1) != Some(&Tok::Path) {
                        break;
                    }
                    i += 2;
                }
                p.names.push(Named {
                    segs,
                    glob: false,
                    brings: None,
                    public: false,
                });
                i += 1;
            }
            _ => i += 1,
        }
    }
    p
}
