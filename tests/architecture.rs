//! The arrows between modules, read from the code (issue 23, ARCHITECTURE.md).
//!
//! Reads every non-test `src/**/*.rs` file, builds the module graph from the
//! paths the code names (`crate::…`, `super::…`, `self::…`, a child module's
//! own name, brace groups of `use` lines expanded, comments and strings
//! skipped, `#[cfg(test)]` items and test-only files left out), and checks:
//!
//! - the layers that hold today and must never regress (`api`, `store`,
//!   `sandbox`, `config`, `text` and `secret` import nothing from `app`,
//!   `ui`, `cli`; `ui` nothing from `cli`, `tui`; `app` nothing from `ui`,
//!   `tui`, `cli`; no path to a handler (`…::handle`); no module
//!   outside `app` joins a cycle with `app` modules — config and store
//!   were in one, before `domain`);
//! - nothing unused in `Cargo.toml` (`arch/deps.rs`: every dependency
//!   named by the code);
//! - three ratchets, lists of today's debts that may only shrink: the module
//!   cycles, the arrows from `config` up into `app`, and the files that glob
//!   import the state. Something new fails naming it; something gone fails
//!   asking that it be struck off the list, so the list stays exact.
//!
//! `ARCH_REPORT=1 cargo test --test architecture -- --nocapture` prints the
//! graph's cycles, the arrows between top-level modules and the largest
//! files (sizes follow subjects: a backstop at 1,000 lines, no other cap).

mod arch;

use arch::deps::{deps_of, roots_named, unused};
use arch::features::{check_order, folder_arrows, folders_in};
use arch::source::{parse, strip_tests, tokens};
use arch::{cycles, graph_of, list, top, Graph};
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// Today's module cycles (strongly connected components), each a debt of
/// issue 23 to be removed. This list may only shrink: a module may leave a
/// cycle, never join one; a cycle may split, never merge or appear.
const KNOWN_CYCLES: &[&[&str]] = &[
    // (app left — it was 28 modules: `State` named a type from nearly every
    // feature file and those files extended `State` back. Each feature now
    // keeps its data in `X/mod.rs`, which `State` composes, and its
    // `impl State` in `X/handle.rs`, above the state and imported by no
    // one; `screen.rs` holds the overlay and the messages, `ShareAdd` is a
    // word of `command.rs`, and the editor and the command runner moved to
    // `tui`.)
    // (store left: the rows its parts share live in the leaf
    // `store/rows.rs`, each part names what it uses instead of
    // `use super::*`, and `mod.rs` only re-exports and finds the files.)
    // (sandbox left: what its parts share lives in leaves below the
    // handlers — `shared` (the state, the record), `request` (caller, body,
    // the edit prologue), `odd/faults`, `listing`, `index`, `odd/quirks`,
    // `seed/ctx` — so arrows run mod.rs → routes → handlers → leaves.)
    // (api::models left: the enums its children import live in the leaf
    // `models/enums.rs`, which mod.rs re-exports.)
];

/// Today's arrows from `config` up into `app` (config validates through the
/// TUI's words): debts of issue 23, to move into a module below both. May
/// only shrink.
/// (None left: the words config checks with live in `domain`.)
const KNOWN_CONFIG_UP: &[(&str, &str)] = &[];

/// Files that glob import the state today (`use …state::*`), which hides
/// their dependencies in review: debts of issue 23. May only shrink.
/// (None left: every file names what it takes from the state; a new glob
/// fails.)
const KNOWN_STATE_GLOBS: &[&str] = &[];

/// The feature folders of `src/app` from the top down (issue 35; the order
/// and why each folder stands where it does are at the top of
/// ARCHITECTURE.md). A module of a folder names modules of lower tiers
/// only, never one of its own tier's other folders or one above; `state`
/// is aside, the aggregate every feature imports and that composes each
/// feature's data. A new folder of `src/app` fails until it is placed here.
const FEATURE_ORDER: &[&[&str]] = &[
    &["dispatch"],
    &["bulk", "views", "inbox"],
    &["edit"],
    &["popups"],
    &["list"],
    &["local", "custom"],
];
const AGGREGATE: &str = "state";

/// Top-level modules and what each must never import.
const FORBIDDEN: &[(&str, &[&str])] = &[
    ("api", &["app", "ui", "cli"]),
    ("store", &["app", "ui", "cli"]),
    ("sandbox", &["app", "ui", "cli"]),
    ("config", &["app", "ui", "cli"]),
    // The shared words: below config, cli, app and ui.
    (
        "domain",
        &["app", "ui", "cli", "config", "store", "sandbox"],
    ),
    ("text", &["app", "ui", "cli"]),
    // The one cut to width (issue 40 §3): a leaf every layer uses.
    (
        "cut",
        &[
            "api", "app", "cli", "config", "domain", "inbox", "sandbox", "secret", "store", "text",
            "tui", "ui",
        ],
    ),
    ("secret", &["app", "ui", "cli"]),
    // The core's clock (issue 43): a leaf the state, the drawing and the
    // store ask the time, which the simulator sets.
    (
        "clock",
        &[
            "api", "app", "cli", "config", "cut", "domain", "inbox", "platform", "sandbox",
            "secret", "sim", "store", "text", "tui", "ui",
        ],
    ),
    // The simulator (issue 43) runs the core as the loop would, without
    // the loop: never the loop, its side effects or the command line.
    ("sim", &["tui", "cli"]),
    // The operating system (issue 45 §4): the one module of `unsafe`
    // calls and the one child with a time limit, a leaf below them all.
    (
        "platform",
        &[
            "api", "app", "cli", "clock", "config", "cut", "domain", "inbox", "sandbox", "secret",
            "sim", "store", "text", "tui", "ui",
        ],
    ),
    ("ui", &["cli", "tui"]),
    // The state machine draws nothing and runs no side effect: the loop
    // (`tui`) owns it and the drawing reads it.
    ("app", &["ui", "tui", "cli"]),
    // The inbox: below the state, the drawing and the loop.
    ("inbox", &["app", "ui", "tui", "cli"]),
];

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
        // Only a module listed in KNOWN_CYCLES may share a cycle with app
        // modules (config and store once did; none outside app today).
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
    // The handlers (`X/handle.rs`, the `impl State` of feature X) stand
    // above the state: reached as methods of `State`, never named by a path.
    for (from, to) in g
        .edges
        .iter()
        .flat_map(|(f, ts)| ts.iter().map(move |t| (f, t)))
    {
        if to.ends_with("::handle") {
            errors.push(format!(
                "`{from}` imports `{to}`: a handler is reached as a method of State, never imported"
            ));
        }
        // What the state composes never names the state module, not even
        // for what it re-exports: read without following re-exports, that
        // is a cycle (import from `state::requests`, `panes`, `screen`).
        if from == "app::state"
            && g.names_state.contains(to.as_str())
            && !to.starts_with("app::state::")
        {
            errors.push(format!(
                "`{to}` names `app::state`, which holds it: import from `app::state::requests`, `panes` or `screen` instead"
            ));
        }
        // A feature split in data and handler: its data never names State.
        if to == "app::state" && g.edges.contains_key(&format!("{from}::handle")) {
            errors.push(format!(
                "`{from}` imports `app::state`: a feature's data never names State (its `impl State` goes in `{from}::handle`)"
            ));
        }
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
    println!("arrows between folders of src/app:");
    for ((f, t), via) in folder_arrows(g) {
        println!("  app/{f} → app/{t} ({via})");
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

/// No circle as a reader sees it either: the modules each file names in
/// its `use` lines and paths, re-exports not followed (a cycle hidden
/// behind a re-export — `popups::conflict` naming `local::outbox` for an
/// item of `outbox::three` while `outbox` names `state::screen`, which
/// names `popups::conflict` — is still a circle to the next engineer).
#[test]
fn no_module_cycle_as_written() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let g = graph_of(&src);
    assert!(
        g.literal.len() > 50,
        "found only {} modules",
        g.literal.len()
    );
    let found: Vec<String> = arch::cycles(&g.literal)
        .iter()
        .map(|c| format!("{} modules: {}", c.len(), arch::list(c)))
        .collect();
    assert!(
        found.is_empty(),
        "module cycles as written:\n  {}",
        found.join("\n  ")
    );
}

/// No circle among the feature folders of `src/app` (issue 35): each
/// imports only folders below it in `FEATURE_ORDER`, and every folder has
/// its place there.
#[test]
fn feature_folders_import_only_folders_below_them() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let g = graph_of(&src);
    let arrows = folder_arrows(&g);
    assert!(
        arrows.len() > 10,
        "found only {} arrows between the folders of src/app",
        arrows.len()
    );
    let errors = check_order(
        FEATURE_ORDER,
        AGGREGATE,
        &arrows,
        &folders_in(&src.join("app")),
    );
    assert!(
        errors.is_empty(),
        "the order of src/app's feature folders (top of ARCHITECTURE.md):\n  {}",
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

#[test]
fn a_new_cycle_fails_naming_its_modules_and_a_paid_debt_asks_to_be_struck_off() {
    let known: &[&[&str]] = &[&["app::a", "app::b", "app::gone"]];
    let g = arch::graph_of_edges(&[
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

    let g = arch::graph_of_edges(&[
        ("app::list::settle", "app::state"),
        ("app::list::settle::handle", "app::state"),
    ]);
    let errors = check(&g, &[], &[], &[]);
    assert_eq!(
        errors,
        vec!["`app::list::settle` imports `app::state`: a feature's data never names State (its `impl State` goes in `app::list::settle::handle`)".to_string()]
    );

    let g = arch::graph_of_edges(&[("app::reducer", "app::views::handle")]);
    let errors = check(&g, &[], &[], &[]);
    assert_eq!(
        errors,
        vec!["`app::reducer` imports `app::views::handle`: a handler is reached as a method of State, never imported".to_string()]
    );

    let g = arch::graph_of_edges(&[("api::x", "app::a"), ("store", "ui"), ("app::a", "api::x")]);
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

/// Nothing unused in `Cargo.toml` (issue 23): every dependency is named
/// by the program's own code (tests and `#[cfg(test)]` items left out),
/// every dev-dependency by the tests, benchmarks, examples or test code.
#[test]
fn every_dependency_in_cargo_toml_is_used() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let manifest = std::fs::read_to_string(root.join("Cargo.toml")).expect("read Cargo.toml");
    let deps = deps_of(&manifest, "dependencies");
    assert!(deps.len() > 20, "read only {deps:?} from Cargo.toml");
    let program = roots_named(&[root.join("src")], false);
    let unused_deps = unused(&deps, &program);
    assert!(
        unused_deps.is_empty(),
        "dependencies no code of src/ names (drop them, or make them dev-dependencies): {unused_deps:?}"
    );
    let dev = deps_of(&manifest, "dev-dependencies");
    let everything = roots_named(
        &["src", "tests", "benches", "examples"].map(|d| root.join(d)),
        true,
    );
    let unused_dev = unused(&dev, &everything);
    assert!(
        unused_dev.is_empty(),
        "dev-dependencies nothing names: {unused_dev:?}"
    );
}

#[test]
fn a_dependency_counts_as_used_only_when_code_names_it() {
    let manifest = "[package]\nname = \"x\"\n[dependencies]\n# a comment\nserde-json = \"1\"\nrand = { version = \"0.9\" }\nsha2 = \"0.10\"\n[dev-dependencies]\ntempfile = \"3\"\n";
    assert_eq!(
        deps_of(manifest, "dependencies"),
        ["serde_json", "rand", "sha2"]
    );
    assert_eq!(deps_of(manifest, "dev-dependencies"), ["tempfile"]);
    let t = tokens("use serde_json::Value; // sha2::Digest\nfn f() { let _ = \"tempfile::x\"; rand::random::<u8>(); }");
    let roots: BTreeSet<String> = parse(&t)
        .names
        .into_iter()
        .filter_map(|n| n.segs.first().cloned())
        .collect();
    assert_eq!(unused(&deps_of(manifest, "dependencies"), &roots), ["sha2"]);
}

/// The palette commands of `docs/keys.md` (generated from `COMMANDS`,
/// `tests/docs.rs`): every command is in its section.
#[test]
fn docs_keys_lists_every_palette_command() {
    let keys = include_str!("../docs/keys.md");
    let start = keys
        .find("## Palette commands")
        .expect("docs/keys.md has a palette section");
    let section = &keys[start..];
    let section = &section[..section[3..].find("\n## ").map_or(section.len(), |i| i + 3)];
    let missing: Vec<&str> = taskdeck::app::state::command::COMMANDS
        .iter()
        .map(|c| c.name)
        .filter(|n| !section.contains(&format!("`:{n}")))
        .collect();
    assert!(
        missing.is_empty(),
        "docs/keys.md's palette commands lack {missing:?}: regenerate with \
         `UPDATE_DOCS=1 cargo test --test docs`"
    );
}

/// The backstop on a file's length (issue 40 §6): a file is split by its
/// subjects, not to fit a number, so the only hard line is one no subject
/// should need. The old caps (600 lines a file, 15 entries a folder) led to
/// files split to fit them; they are gone.
const BACKSTOP_LINES: usize = 1_000;

/// Every `.rs` file under `src`, `tests`, `benches` and `examples` with its
/// line count, the longest first (ties by path).
fn file_sizes(root: &Path) -> Vec<(String, usize)> {
    fn walk(dir: &Path, files: &mut Vec<std::path::PathBuf>) {
        for e in std::fs::read_dir(dir).expect("read dir") {
            let p = e.expect("read dir").path();
            if p.is_dir() {
                walk(&p, files);
            } else if p.extension().is_some_and(|x| x == "rs") {
                files.push(p);
            }
        }
    }
    let mut sizes = Vec::new();
    for top in ["src", "tests", "benches", "examples"] {
        let mut files = Vec::new();
        walk(&root.join(top), &mut files);
        for f in files {
            let n = std::fs::read_to_string(&f).expect("read").lines().count();
            sizes.push((f.strip_prefix(root).unwrap().display().to_string(), n));
        }
    }
    sizes.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    sizes
}

/// The files over the backstop, each as `path (N lines)`.
fn over_backstop(sizes: &[(String, usize)]) -> Vec<String> {
    sizes
        .iter()
        .filter(|(_, n)| *n > BACKSTOP_LINES)
        .map(|(f, n)| format!("{f} ({n} lines)"))
        .collect()
}

/// The report of the largest files: a place to look when a file grows past
/// one subject, never a reason to split one.
fn largest_report(sizes: &[(String, usize)], most: usize) -> String {
    let mut out = format!("the {most} largest files (a backstop at {BACKSTOP_LINES} lines):\n");
    for (f, n) in sizes.iter().take(most) {
        out.push_str(&format!("  {n:>5}  {f}\n"));
    }
    out
}

/// Sizes follow subjects (issue 40 §6): a report of the largest files
/// (printed with `ARCH_REPORT=1 … -- --nocapture`) and a backstop at 1,000
/// lines; no cap on a folder's entries.
#[test]
fn largest_files_reported_and_none_over_the_backstop() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let sizes = file_sizes(root);
    assert!(
        sizes.len() > 100,
        "the walk found the sources: {}",
        sizes.len()
    );
    if std::env::var_os("ARCH_REPORT").is_some() {
        println!("{}", largest_report(&sizes, 15));
    }
    let long = over_backstop(&sizes);
    assert!(
        long.is_empty(),
        "files over {BACKSTOP_LINES} lines (split by subject): {long:?}"
    );
}

/// The backstop bites at 1,001 lines and not at 1,000; the report names
/// the largest first, and only as many as asked.
#[test]
fn the_backstop_names_a_file_past_it_and_the_report_ranks() {
    let sizes = vec![
        ("src/big.rs".to_string(), 1_001),
        ("src/edge.rs".to_string(), 1_000),
        ("src/small.rs".to_string(), 12),
    ];
    assert_eq!(over_backstop(&sizes), vec!["src/big.rs (1001 lines)"]);
    let report = largest_report(&sizes, 2);
    assert!(report.contains(" 1001  src/big.rs\n"), "{report}");
    assert!(report.contains(" 1000  src/edge.rs\n"), "{report}");
    assert!(!report.contains("small"), "{report}");
    let ranked = file_sizes(Path::new(env!("CARGO_MANIFEST_DIR")));
    assert!(ranked.windows(2).all(|w| w[0].1 >= w[1].1), "longest first");
}

/// One time library (issue 23 §5): jiff, which carries the IANA zone
/// database and converts local times across DST changes; chrono would need
/// chrono-tz beside it, and `time` has no zone database at all.
#[test]
fn one_time_crate() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let manifest = std::fs::read_to_string(root.join("Cargo.toml")).expect("read Cargo.toml");
    let mut deps = deps_of(&manifest, "dependencies");
    deps.extend(deps_of(&manifest, "dev-dependencies"));
    let time: Vec<&String> = deps
        .iter()
        .filter(|d| ["chrono", "chrono-tz", "chrono_tz", "time", "jiff"].contains(&d.as_str()))
        .collect();
    assert_eq!(time, vec!["jiff"], "one time crate, jiff: {time:?}");
}
