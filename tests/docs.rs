//! The documentation kept true by tests (issue 34): the README's size and
//! its quick start, and the generated parts of `docs/` (keys, palette
//! commands, settings) against the code.
//!
//! `UPDATE_DOCS=1 cargo test --test docs` rewrites the generated parts.

use std::path::Path;
use taskdeck::cli::pages::{self, GENERATED, REGENERATE};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn read(rel: &str) -> String {
    std::fs::read_to_string(root().join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

#[test]
fn generated_docs_are_current() {
    let update = std::env::var_os("UPDATE_DOCS").is_some_and(|v| !v.is_empty());
    let mut stale = Vec::new();
    let mut pages_seen: Vec<&str> = GENERATED.iter().map(|g| g.page).collect();
    pages_seen.dedup();
    for page in pages_seen {
        let old = read(page);
        let mut new = old.clone();
        for g in GENERATED.iter().filter(|g| g.page == page) {
            new = pages::splice(&new, g.name, &(g.make)()).unwrap_or_else(|| {
                panic!(
                    "{page} lacks the markers of its generated part {:?}:\n{}\n{}",
                    g.name,
                    pages::begin_marker(g.name),
                    pages::end_marker(g.name)
                )
            });
        }
        if new != old {
            if update {
                std::fs::write(root().join(page), &new).unwrap();
            } else {
                stale.push(page);
            }
        }
    }
    assert!(
        stale.is_empty(),
        "{stale:?} no longer match(es) the code: regenerate with `{REGENERATE}`"
    );
}

/// The README stays a first screen, not a manual.
#[test]
fn readme_is_at_most_200_lines() {
    let n = read("README.md").lines().count();
    assert!(n <= 200, "README.md has {n} lines: move detail into docs/");
}

/// The commands CI runs (`.ci/run`): each `cargo …` line of it, as it is
/// written there.
fn ci_commands() -> Vec<String> {
    read(".ci/run")
        .lines()
        .map(str::trim)
        .filter(|l| l.starts_with("cargo "))
        .map(|l| l.split(" 2>&1").next().unwrap().split(" |").next().unwrap())
        .map(|l| l.trim().to_string())
        .collect()
}

/// The commands of the README's first code block (a comment after `#`
/// is not part of a command).
fn readme_first_commands() -> (usize, Vec<String>) {
    let readme = read("README.md");
    let lines: Vec<&str> = readme.lines().collect();
    let start = lines
        .iter()
        .position(|l| l.starts_with("```"))
        .expect("README has a code block");
    let cmds = lines[start + 1..]
        .iter()
        .take_while(|l| !l.starts_with("```"))
        .map(|l| l.split(" #").next().unwrap().trim().to_string())
        .filter(|l| !l.is_empty())
        .collect();
    (start + 1, cmds)
}

/// Issue 34 §1: the README's first commands, in its Quick start within
/// the first 60 lines, are the demo and exactly the test command `.ci/run`
/// runs; the picture comes first, within 15 lines.
#[test]
fn readme_quick_start_runs_the_demo_and_the_ci_tests() {
    let readme = read("README.md");
    let ci = ci_commands();
    let tests: Vec<&String> = ci.iter().filter(|c| c.starts_with("cargo test")).collect();
    assert_eq!(
        tests.len(),
        1,
        ".ci/run should run one cargo test command: {ci:?}"
    );
    let (line, cmds) = readme_first_commands();
    assert_eq!(
        cmds,
        [
            "cargo run --release -- demo".to_string(),
            tests[0].to_string()
        ],
        "the README's first commands should be the demo and the test command of .ci/run"
    );
    assert!(line + cmds.len() <= 60, "the commands end past line 60");
    let quick = readme
        .lines()
        .position(|l| l == "## Quick start")
        .expect("README has a Quick start");
    assert!(quick < line, "the first commands are in the Quick start");
    let picture = readme
        .lines()
        .position(|l| l.starts_with("![") && l.contains("docs/screen.svg"))
        .expect("README shows docs/screen.svg");
    assert!(picture < 15, "the picture is on line {}", picture + 1);
    for cmd in ["taskdeck demo", "taskdeck config init"] {
        let at = readme.lines().position(|l| l.starts_with(cmd));
        assert!(
            at.is_some_and(|i| i < 60),
            "`{cmd}` should be in the first 60 lines"
        );
    }
}

/// The picture is generated and kept small.
#[test]
fn screen_picture_is_under_5_mb() {
    let len = std::fs::metadata(root().join("docs/screen.svg"))
        .expect("docs/screen.svg (scripts/screenshot.sh makes it)")
        .len();
    assert!(len < 5 * 1024 * 1024, "docs/screen.svg is {len} bytes");
}

/// Nothing moved out of the README is orphaned: every page of `docs/` is
/// linked from it.
#[test]
fn readme_links_every_docs_page() {
    let readme = read("README.md");
    let mut missing = Vec::new();
    for e in std::fs::read_dir(root().join("docs")).unwrap() {
        let name = e.unwrap().file_name().to_string_lossy().into_owned();
        if name.ends_with(".md") && !readme.contains(&format!("(docs/{name})")) {
            missing.push(name);
        }
    }
    assert!(
        missing.is_empty(),
        "README.md links no page {missing:?} of docs/"
    );
}
