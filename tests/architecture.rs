//! The arrows between modules, read from the code (issue 23, ARCHITECTURE.md).
//!
//! Reads every non-test `src/**/*.rs` file, builds the module graph from the
//! paths the code names (`crate::…`, `super::…`, `self::…`, a child module's
//! own name, brace groups of `use` lines expanded, comments and strings
//! skipped, `#[cfg(test)]` items and test-only files left out), and checks:
//!
//! - the layers that hold today and must never regress (`api`, `store`,
//!   `sandbox`, `text` and `secret` import nothing from `app`, `ui`, `cli`;
//!   `config` nothing from `ui`, `cli`; `ui` nothing from `cli`; no module
//!   outside `app` joins a cycle with `app` modules — config and store are
//!   in one today, listed as debts);
//! - three ratchets, lists of today's debts that may only shrink: the module
//!   cycles, the arrows from `config` up into `app`, and the files that glob
//!   import the state. Something new fails naming it; something gone fails
//!   asking that it be struck off the list, so the list stays exact.
//!
//! `ARCH_REPORT=1 cargo test --test architecture -- --nocapture` prints the
//! graph's cycles and the arrows between top-level modules.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Today's module cycles (strongly connected components), each a debt of
/// issue 23 to be removed. This list may only shrink: a module may leave a
/// cycle, never join one; a cycle may split, never merge or appear.
const KNOWN_CYCLES: &[&[&str]] = &[
    // The big one: `State` (app/state.rs) names a type from nearly every
    // feature file, and those files extend `State` back. config and store
    // are in it because `config::parse`/`config::entries` call up into
    // `app::dates`/`app::fields`/`app::keymap`/`app::custom::template`,
    // `app::dates` loads the config itself, and store uses config's
    // private-file helpers.
    &[
        "app::board",
        "app::bulk",
        "app::bulk_commands",
        "app::cache",
        "app::changes",
        "app::command",
        "app::custom",
        "app::custom::run",
        "app::dates",
        "app::drafts",
        "app::editor",
        "app::fields",
        "app::freshness",
        "app::history",
        "app::known",
        "app::marks",
        "app::numbers",
        "app::offline",
        "app::outbox",
        "app::panes",
        "app::popups::chooser",
        "app::popups::filter_form",
        "app::popups::palette",
        "app::popups::switcher",
        "app::popups::text",
        "app::prefetch",
        "app::requests",
        "app::results",
        "app::seen",
        "app::state",
        "app::views",
        "config",
        "config::entries",
        "config::parse",
        "config::paths",
        "config::save",
        "store",
        "store::db",
        "store::identity",
        "store::numbers",
        "store::worker",
    ],
    // ui/mod.rs defines `Theme` and helpers its children import, and
    // calls them; ui::detail the same with `Cx`.
    &[
        "ui",
        "ui::board",
        "ui::detail",
        "ui::detail::comments",
        "ui::detail::files",
        "ui::detail::links",
        "ui::detail::overview",
        "ui::detail::requester",
        "ui::detail::sharing",
        "ui::detail::subtasks",
        "ui::list",
        "ui::markdown",
        "ui::overlays",
    ],
    // sandbox::routes holds shared helpers and wires the router (collab,
    // list, sharing import it back); sandbox::seed defines `Ctx` and calls
    // the children that import it; sandbox/mod.rs is used by its parts.
    &[
        "sandbox",
        "sandbox::collab",
        "sandbox::faults",
        "sandbox::fixtures",
        "sandbox::list",
        "sandbox::listing",
        "sandbox::quirks",
        "sandbox::random",
        "sandbox::routes",
        "sandbox::seed",
        "sandbox::sharing",
        "sandbox::store",
    ],
    // api/models/mod.rs defines the enums its children import, and
    // re-exports them.
    &[
        "api::models",
        "api::models::conversation",
        "api::models::people",
        "api::models::task",
    ],
    // The loop (app/mod.rs) and the worker and store link it starts, which
    // import `Msg` back.
    &["app", "app::store_link", "app::worker"],
    // `LISTING_LIMIT` and the client's helpers.
    &["api::client", "api::listing"],
    // `Failure`.
    &["cli::commands", "cli::query"],
];

/// Today's arrows from `config` up into `app` (config validates through the
/// TUI's words): debts of issue 23, to move into a module below both. May
/// only shrink.
const KNOWN_CONFIG_UP: &[(&str, &str)] = &[
    ("config::entries", "app::custom::template"),
    ("config::entries", "app::fields"),
    ("config::entries", "app::keymap"),
    ("config::parse", "app::dates"),
];

/// Files that glob import the state today (`use …state::*`), which hides
/// their dependencies in review: debts of issue 23. May only shrink.
const KNOWN_STATE_GLOBS: &[&str] = &[
    "app/board.rs",
    "app/boot.rs",
    "app/bulk.rs",
    "app/bulk_commands.rs",
    "app/bulk_finish.rs",
    "app/cache.rs",
    "app/commands.rs",
    "app/custom/mod.rs",
    "app/editor.rs",
    "app/freshness.rs",
    "app/history.rs",
    "app/known.rs",
    "app/list_refresh.rs",
    "app/marks.rs",
    "app/names.rs",
    "app/navigation.rs",
    "app/numbers.rs",
    "app/offline.rs",
    "app/outbox.rs",
    "app/popups/chooser.rs",
    "app/popups/compose.rs",
    "app/popups/confirm.rs",
    "app/popups/help.rs",
    "app/popups/mod.rs",
    "app/popups/search.rs",
    "app/popups/switcher.rs",
    "app/popups/text.rs",
    "app/prefetch.rs",
    "app/reducer.rs",
    "app/results.rs",
    "app/seen.rs",
    "app/sends.rs",
    "app/share.rs",
    "app/views.rs",
    "app/views_save.rs",
    "ui/board.rs",
    "ui/detail/mod.rs",
    "ui/list.rs",
    "ui/mod.rs",
    "ui/overlays.rs",
];

/// Top-level modules and what each must never import.
const FORBIDDEN: &[(&str, &[&str])] = &[
    ("api", &["app", "ui", "cli"]),
    ("store", &["app", "ui", "cli"]),
    ("sandbox", &["app", "ui", "cli"]),
    ("config", &["ui", "cli"]),
    ("text", &["app", "ui", "cli"]),
    ("secret", &["app", "ui", "cli"]),
    ("ui", &["cli"]),
];

// ---------------------------------------------------------------- tokens

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    Ident(String),
    /// `::`
    Path,
    Punct(char),
    /// A literal or lifetime: nothing a path can be made of.
    Other,
}

/// Rust source as tokens, without comments, strings and characters.
fn tokens(src: &str) -> Vec<Tok> {
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
fn strip_tests(t: &[Tok]) -> (Vec<Tok>, Vec<String>) {
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
struct Named {
    segs: Vec<String>,
    glob: bool,
    brings: Option<String>,
    public: bool,
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
struct Parsed {
    /// Every path it names: `use` trees expanded, and every other path that
    /// starts at a word not itself after `::`.
    names: Vec<Named>,
    /// The child modules it declares (`mod x;`).
    children: Vec<String>,
    /// The names it defines (`struct X`, `fn x`…; also local ones, which
    /// only makes resolution keep an arrow here).
    defs: BTreeSet<String>,
}

fn parse(t: &[Tok]) -> Parsed {
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

// ---------------------------------------------------------------- graph

struct Graph {
    /// Module → the modules it names.
    edges: BTreeMap<String, BTreeSet<String>>,
    /// Files that glob import `app::state`.
    state_globs: BTreeSet<String>,
}

/// The module path of a file: `src/app/mod.rs` → `app`, `src/lib.rs` → `crate`.
fn module_of(rel: &Path) -> String {
    let mut parts: Vec<String> = rel
        .with_extension("")
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if matches!(parts.last().map(String::as_str), Some("mod" | "lib")) {
        parts.pop();
    }
    if parts.is_empty() {
        "crate".into()
    } else {
        parts.join("::")
    }
}

fn segs_of(module: &str) -> Vec<String> {
    if module == "crate" {
        Vec::new()
    } else {
        module.split("::").map(String::from).collect()
    }
}

fn join(segs: &[String]) -> String {
    if segs.is_empty() {
        "crate".into()
    } else {
        segs.join("::")
    }
}

fn rs_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("read src") {
        let path = entry.expect("read src").path();
        if path.is_dir() {
            // Folders named `tests` hold test-only modules.
            if path.file_name().is_some_and(|n| n != "tests") {
                rs_files(&path, out);
            }
        } else if path.extension().is_some_and(|e| e == "rs")
            && path.file_name().is_some_and(|n| n != "tests.rs")
        {
            out.push(path);
        }
    }
}

/// The crate's modules, each with its file and what it holds.
struct Crate {
    modules: BTreeMap<String, (String, Parsed)>,
}

impl Crate {
    /// The module a path names, seen from module `here`, and the segments
    /// left after it. `None` for paths outside the crate (`std::…`,
    /// `ratatui::…`, `Self::…`, `Enum::Variant`).
    fn module_prefix<'a>(&self, here: &str, segs: &'a [String]) -> Option<(String, &'a [String])> {
        let children = &self.modules.get(here)?.1.children;
        let mut base = segs_of(here);
        let mut rest = match segs.first().map(String::as_str) {
            Some("crate") => {
                base.clear();
                &segs[1..]
            }
            Some("self") => &segs[1..],
            Some("super") => segs,
            Some(w) if children.iter().any(|c| c == w) => segs,
            _ => return None,
        };
        while rest.first().is_some_and(|s| s == "super") {
            base.pop();
            rest = &rest[1..];
        }
        while let Some(s) = rest.first() {
            base.push(s.clone());
            if !self.modules.contains_key(&join(&base)) {
                base.pop();
                break;
            }
            rest = &rest[1..];
        }
        Some((join(&base), rest))
    }

    /// The module a path leads to: through a module that only re-exports an
    /// item (`pub use`, or any `use` a child reaches by `super::`) to where
    /// the item is defined, so that a facade `mod.rs` makes no false cycle.
    fn resolve(&self, here: &str, segs: &[String], depth: usize) -> Option<String> {
        let (m, rest) = self.module_prefix(here, segs)?;
        match rest.first() {
            Some(item) if depth < 8 => Some(self.owner(&m, item, depth + 1)),
            _ => Some(m),
        }
    }

    /// What `use m::*` in module `by` brings in: `m` if it defines items
    /// itself, and where each of its imports that `by` can see leads (all
    /// of them for a child, the `pub` ones for others).
    fn glob_targets(&self, by: &str, m: &str, depth: usize) -> BTreeSet<String> {
        let mut out = BTreeSet::new();
        let Some((_, p)) = self.modules.get(m) else {
            return out;
        };
        if depth > 8 || p.defs.iter().any(|d| !p.children.contains(d)) {
            out.insert(m.to_string());
        }
        let child = m == "crate" || by.starts_with(&format!("{m}::"));
        for n in p
            .names
            .iter()
            .filter(|n| (n.glob || n.brings.is_some()) && (child || n.public))
        {
            if n.glob {
                if let Some((g, [])) = self.module_prefix(m, &n.segs) {
                    if g != m && depth <= 8 {
                        out.extend(self.glob_targets(by, &g, depth + 1));
                    }
                }
            } else if let Some(t) = self.resolve(m, &n.segs, depth) {
                out.insert(t);
            }
        }
        out
    }

    /// Which module holds `item` as module `m` names it.
    fn owner(&self, m: &str, item: &str, depth: usize) -> String {
        self.find(m, item, depth).unwrap_or_else(|| m.to_string())
    }

    /// Where `item` is defined, if module `m` defines or imports it.
    fn find(&self, m: &str, item: &str, depth: usize) -> Option<String> {
        let (_, p) = self.modules.get(m)?;
        if p.defs.contains(item) || depth > 8 {
            return Some(m.to_string());
        }
        for n in &p.names {
            if !n.glob && n.brings.as_deref() == Some(item) {
                // An import from outside the crate stays an arrow to `m`.
                return Some(
                    self.resolve(m, &n.segs, depth)
                        .unwrap_or_else(|| m.to_string()),
                );
            }
        }
        p.names
            .iter()
            .filter(|n| n.glob)
            .filter_map(|n| match self.module_prefix(m, &n.segs) {
                Some((g, [])) if g != m => self.find(&g, item, depth + 1),
                _ => None,
            })
            .next()
    }
}

/// The graph of the library under `src` (the binary's `main.rs` is left out:
/// it only calls `cli::main`).
fn graph_of(src: &Path) -> Graph {
    let mut files = Vec::new();
    rs_files(src, &mut files);
    let mut krate = Crate {
        modules: BTreeMap::new(),
    };
    let mut test_mods = BTreeSet::new();
    for f in &files {
        let rel = f.strip_prefix(src).unwrap();
        if rel == Path::new("main.rs") {
            continue;
        }
        let module = module_of(rel);
        let text = std::fs::read_to_string(f).expect("read source");
        let (toks, tests) = strip_tests(&tokens(&text));
        for t in tests {
            test_mods.insert(join(&[segs_of(&module), vec![t]].concat()));
        }
        krate
            .modules
            .insert(module, (rel.display().to_string(), parse(&toks)));
    }
    // A module declared under `#[cfg(test)]`, whatever its file's name.
    krate.modules.retain(|m, _| {
        !test_mods
            .iter()
            .any(|t| m == t || m.starts_with(&format!("{t}::")))
    });
    let mut g = Graph {
        edges: BTreeMap::new(),
        state_globs: BTreeSet::new(),
    };
    for (module, (file, p)) in &krate.modules {
        let mut to = BTreeSet::new();
        for n in &p.names {
            if n.glob {
                if let Some((m, [])) = krate.module_prefix(module, &n.segs) {
                    if m == "app::state" {
                        g.state_globs.insert(file.clone());
                    }
                    to.extend(krate.glob_targets(module, &m, 0));
                }
            } else if let Some(target) = krate.resolve(module, &n.segs, 0) {
                to.insert(target);
            }
        }
        to.remove(module);
        g.edges.insert(module.clone(), to);
    }
    g
}

/// Strongly connected components with more than one module (Tarjan).
fn cycles(edges: &BTreeMap<String, BTreeSet<String>>) -> Vec<BTreeSet<String>> {
    struct T<'a> {
        edges: &'a BTreeMap<String, BTreeSet<String>>,
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        on: BTreeSet<&'a str>,
        out: Vec<BTreeSet<String>>,
    }
    fn visit<'a>(t: &mut T<'a>, v: &'a str) {
        let n = t.index.len();
        t.index.insert(v, n);
        t.low.insert(v, n);
        t.stack.push(v);
        t.on.insert(v);
        let edges = t.edges;
        for w in edges.get(v).into_iter().flatten() {
            let w = w.as_str();
            if !t.index.contains_key(w) {
                visit(t, w);
                let lw = t.low[w];
                let lv = t.low.get_mut(v).unwrap();
                *lv = (*lv).min(lw);
            } else if t.on.contains(w) {
                let iw = t.index[w];
                let lv = t.low.get_mut(v).unwrap();
                *lv = (*lv).min(iw);
            }
        }
        if t.low[v] == t.index[v] {
            let mut comp = BTreeSet::new();
            while let Some(w) = t.stack.pop() {
                t.on.remove(w);
                comp.insert(w.to_string());
                if w == v {
                    break;
                }
            }
            if comp.len() > 1 {
                t.out.push(comp);
            }
        }
    }
    let mut t = T {
        edges,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on: BTreeSet::new(),
        out: Vec::new(),
    };
    for v in edges.keys() {
        if !t.index.contains_key(v.as_str()) {
            visit(&mut t, v);
        }
    }
    t.out.sort_by_key(|c| std::cmp::Reverse(c.len()));
    t.out
}

fn top(m: &str) -> &str {
    m.split("::").next().unwrap_or(m)
}

fn list(set: &BTreeSet<String>) -> String {
    set.iter().cloned().collect::<Vec<_>>().join(", ")
}

// ---------------------------------------------------------------- rules

/// Every broken rule, in words.
fn check(
    g: &Graph,
    known_cycles: &[&[&str]],
    known_up: &[(&str, &str)],
    known_globs: &[&str],
) -> Vec<String> {
    let mut errors = Vec::new();
    for (from, to) in g
        .edges
        .iter()
        .flat_map(|(f, ts)| ts.iter().map(move |t| (f, t)))
    {
        for (layer, banned) in FORBIDDEN {
            if top(from) == *layer && banned.contains(&top(to)) {
                errors.push(format!(
                    "`{from}` imports `{to}`: {layer} must not import {}",
                    banned.join(", ")
                ));
            }
        }
        if top(from) == "config"
            && top(to) == "app"
            && !known_up.contains(&(from.as_str(), to.as_str()))
        {
            errors.push(format!(
                "new upward arrow `{from}` → `{to}`: config must not learn more of app (move the shared words below both)"
            ));
        }
    }
    for (from, to) in known_up {
        if !g.edges.get(*from).is_some_and(|t| t.contains(*to)) {
            errors.push(format!(
                "`{from}` → `{to}` is gone: strike it off KNOWN_CONFIG_UP"
            ));
        }
    }
    let found = cycles(&g.edges);
    for c in &found {
        let apps = c.iter().filter(|m| top(m) == "app").count();
        // Today config and store are (known debts); nothing else may join.
        let outside: BTreeSet<String> = c
            .iter()
            .filter(|m| top(m) != "app" && !known_cycles.iter().any(|k| k.contains(&m.as_str())))
            .cloned()
            .collect();
        if apps > 0 && !outside.is_empty() {
            errors.push(format!(
                "{} in a cycle with app modules: {}",
                list(&outside),
                list(c)
            ));
        }
        let known = known_cycles
            .iter()
            .find(|k| c.iter().all(|m| k.contains(&m.as_str())));
        if known.is_none() {
            errors.push(format!("new module cycle: {}", list(c)));
        }
    }
    let in_cycles: BTreeSet<&str> = found.iter().flatten().map(String::as_str).collect();
    let stale: Vec<&str> = known_cycles
        .iter()
        .flat_map(|k| k.iter().copied())
        .filter(|m| !in_cycles.contains(m))
        .collect();
    if !stale.is_empty() {
        errors.push(format!(
            "no longer in a cycle (well done): {}; strike them off KNOWN_CYCLES",
            stale.join(", ")
        ));
    }
    for f in &g.state_globs {
        if !known_globs.contains(&f.as_str()) {
            errors.push(format!(
                "{f}: new glob import of the state; name what the file uses"
            ));
        }
    }
    for f in known_globs {
        if !g.state_globs.contains(*f) {
            errors.push(format!(
                "{f} no longer globs the state: strike it off KNOWN_STATE_GLOBS"
            ));
        }
    }
    errors
}

fn report(g: &Graph) {
    let mut up: BTreeMap<(&str, &str), usize> = BTreeMap::new();
    for (f, ts) in &g.edges {
        for t in ts {
            if top(f) != top(t) {
                *up.entry((top(f), top(t))).or_default() += 1;
            }
        }
    }
    println!("arrows between top-level modules (count of module pairs):");
    for ((f, t), n) in up {
        println!("  {f} -> {t}: {n}");
    }
    println!("cycles:");
    for c in cycles(&g.edges) {
        println!("  {}: {}", c.len(), list(&c));
    }
    if let Ok(want) = std::env::var("ARCH_REPORT") {
        for (f, ts) in g
            .edges
            .iter()
            .filter(|(f, _)| want.split(',').any(|w| f.starts_with(w)))
        {
            println!("  {f} -> {}", list(ts));
        }
    }
    println!("config -> app:");
    for (f, ts) in &g.edges {
        for t in ts.iter().filter(|t| top(f) == "config" && top(t) == "app") {
            println!("  (\"{f}\", \"{t}\"),");
        }
    }
    println!("state globs:");
    for f in &g.state_globs {
        println!("  \"{f}\",");
    }
}

#[test]
fn module_arrows_hold_and_debts_only_shrink() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let g = graph_of(&src);
    if std::env::var_os("ARCH_REPORT").is_some() {
        report(&g);
    }
    assert!(
        g.edges.len() > 50,
        "found only {} modules under {}",
        g.edges.len(),
        src.display()
    );
    let errors = check(&g, KNOWN_CYCLES, KNOWN_CONFIG_UP, KNOWN_STATE_GLOBS);
    assert!(
        errors.is_empty(),
        "the module arrows (see ARCHITECTURE.md):\n  {}",
        errors.join("\n  ")
    );
}

// ------------------------------------------------- the analyser's own tests

fn paths_in(src: &str) -> Vec<String> {
    let (t, _) = strip_tests(&tokens(src));
    parse(&t)
        .names
        .iter()
        .map(|n| n.segs.join("::") + if n.glob { "::*" } else { "" })
        .collect()
}

#[test]
fn use_trees_expand_and_comments_strings_and_test_items_are_skipped() {
    let src = r##"
        use crate::{a::b, c::{self, d as e, f::*}};
        pub(crate) use super::g;
        // crate::in_comment::x
        /* crate::in_block /* nested */ crate::still_comment */
        const S: &str = "crate::in_string"; const R: &str = r#"crate::raw"#;
        fn f<'a>(x: &'a str) -> char { let _ = h::i(); '"' }
        #[cfg(test)]
        mod tests { use crate::only_tests; }
        #[cfg(test)]
        use crate::test_import;
        #[cfg(not(test))]
        fn real() { crate::j::k(); }
    "##;
    assert_eq!(
        paths_in(src),
        [
            "crate::a::b",
            "crate::c",
            "crate::c::d",
            "crate::c::f::*",
            "super::g",
            "h::i",
            "crate::j::k"
        ]
    );
    let (_, test_mods) = strip_tests(&tokens("#[cfg(test)]\npub(crate) mod tests;\nmod real;"));
    assert_eq!(test_mods, ["tests"]);
}

fn graph(edges: &[(&str, &str)]) -> Graph {
    let mut g = Graph {
        edges: BTreeMap::new(),
        state_globs: BTreeSet::new(),
    };
    for (f, t) in edges {
        g.edges
            .entry(f.to_string())
            .or_default()
            .insert(t.to_string());
        g.edges.entry(t.to_string()).or_default();
    }
    g
}

#[test]
fn a_new_cycle_fails_naming_its_modules_and_a_paid_debt_asks_to_be_struck_off() {
    let known: &[&[&str]] = &[&["app::a", "app::b", "app::gone"]];
    let g = graph(&[
        ("app::a", "app::b"),
        ("app::b", "app::a"),
        ("app::c", "app::d"),
        ("app::d", "app::c"),
    ]);
    let errors = check(&g, known, &[], &[]);
    assert!(
        errors.contains(&"new module cycle: app::c, app::d".to_string()),
        "{errors:?}"
    );
    assert!(
        errors
            .iter()
            .any(|e| e.contains("app::gone") && e.contains("KNOWN_CYCLES")),
        "{errors:?}"
    );
    assert_eq!(errors.len(), 2, "{errors:?}");

    let g = graph(&[("api::x", "app::a"), ("store", "ui"), ("app::a", "api::x")]);
    let errors = check(&g, &[], &[], &[]);
    assert!(
        errors
            .iter()
            .any(|e| e.starts_with("`api::x` imports `app::a`")),
        "{errors:?}"
    );
    assert!(
        errors.iter().any(|e| e.starts_with("`store` imports `ui`")),
        "{errors:?}"
    );
    assert!(
        errors
            .iter()
            .any(|e| e.starts_with("api::x in a cycle with app modules")),
        "{errors:?}"
    );
}

/// The README's palette list is written by hand (ARCHITECTURE.md's recipe
/// for a palette command says to add it there): every command is in it.
#[test]
fn readme_lists_every_palette_command() {
    let readme = include_str!("../README.md");
    let start = readme
        .find("### Palette commands")
        .expect("README has a palette section");
    let section = &readme[start..];
    let section = &section[..section[4..].find("\n### ").map_or(section.len(), |i| i + 4)];
    let missing: Vec<&str> = taskdeck::app::command::COMMANDS
        .iter()
        .map(|c| c.name)
        .filter(|n| !section.contains(&format!("`:{n}")))
        .collect();
    assert!(
        missing.is_empty(),
        "README's palette commands lack {missing:?}"
    );
}
