//! The module graph of `src/`, read from the code (see `source`), and its
//! cycles.

pub mod deps;
pub mod features;
pub mod source;
pub mod tables;

use source::{parse, strip_tests, tokens, Parsed};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

pub struct Graph {
    /// Module → the modules it names.
    pub edges: BTreeMap<String, BTreeSet<String>>,
    /// Files that glob import `app::state`.
    pub state_globs: BTreeSet<String>,
    /// Modules that name `app::state` itself in a path, even for an item it
    /// only re-exports (`app::state::ApiRequest`, defined in
    /// `state::requests`): the edges above follow the item to its home.
    pub names_state: BTreeSet<String>,
    /// Where each arrow comes from: `(from, to)` → the first file and path
    /// that makes it (`src/app/list/mod.rs: use crate::app::edit::Draft`).
    pub via: BTreeMap<(String, String), String>,
    /// Module → the modules its `use` lines and paths name as written,
    /// re-exports not followed (`use crate::app::local::outbox::Three`
    /// names `outbox`, wherever `Three` is defined): what a reader sees.
    pub literal: BTreeMap<String, BTreeSet<String>>,
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
pub fn graph_of(src: &Path) -> Graph {
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
        names_state: BTreeSet::new(),
        via: BTreeMap::new(),
        literal: BTreeMap::new(),
    };
    for (module, (file, p)) in &krate.modules {
        let mut to = BTreeSet::new();
        let mut named: BTreeSet<String> = p
            .names
            .iter()
            .filter_map(|n| krate.module_prefix(module, &n.segs).map(|(m, _)| m))
            .collect();
        // A parent and its own children name each other by design (a
        // `mod.rs` re-exports them, they take its shared words through
        // `super::`): not a circle between modules a reader keeps apart.
        let within = |a: &str, b: &str| b == "crate" || a.starts_with(&format!("{b}::"));
        named.retain(|t| t != module && !within(module, t) && !within(t, module));
        g.literal.insert(module.clone(), named);
        for n in &p.names {
            if module != "app::state"
                && krate
                    .module_prefix(module, &n.segs)
                    .is_some_and(|(m, _)| m == "app::state")
            {
                g.names_state.insert(module.clone());
            }
            let mut reached = BTreeSet::new();
            if n.glob {
                if let Some((m, [])) = krate.module_prefix(module, &n.segs) {
                    if m == "app::state" {
                        g.state_globs.insert(file.clone());
                    }
                    reached.extend(krate.glob_targets(module, &m, 0));
                }
            } else if let Some(target) = krate.resolve(module, &n.segs, 0) {
                reached.insert(target);
            }
            for t in reached {
                g.via
                    .entry((module.clone(), t.clone()))
                    .or_insert_with(|| format!("src/{file}: {}", shown(n)));
                to.insert(t);
            }
        }
        to.remove(module);
        g.edges.insert(module.clone(), to);
    }
    g
}

/// A graph of the given arrows, each module with no file of its own (the
/// tests of the checks themselves).
pub fn graph_of_edges(edges: &[(&str, &str)]) -> Graph {
    let mut g = Graph {
        edges: BTreeMap::new(),
        state_globs: BTreeSet::new(),
        names_state: BTreeSet::new(),
        via: BTreeMap::new(),
        literal: BTreeMap::new(),
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

/// Strongly connected components with more than one module (Tarjan).
pub fn cycles(edges: &BTreeMap<String, BTreeSet<String>>) -> Vec<BTreeSet<String>> {
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

/// A named path as the code spells it: `use crate::app::edit::Draft`,
/// `use super::*`, or a path in an expression (`crate::domain::words::plural`).
fn shown(n: &source::Named) -> String {
    let path = n.segs.join("::") + if n.glob { "::*" } else { "" };
    if n.glob || n.brings.is_some() {
        format!("use {path}")
    } else {
        path
    }
}

pub fn top(m: &str) -> &str {
    m.split("::").next().unwrap_or(m)
}

pub fn list(set: &BTreeSet<String>) -> String {
    set.iter().cloned().collect::<Vec<_>>().join(", ")
}
