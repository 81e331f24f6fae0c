//! Which dependencies of `Cargo.toml` the code names (issue 23: nothing
//! unused in `Cargo.toml`), read the way the module check reads the code:
//! a crate counts as used when a path starting at its name (`use sha2::…`,
//! `rand::random()`, `#[tokio::main]`) appears outside comments and
//! strings. No network and no `cargo machete`: the same tokens as the graph.

use super::source::{parse, strip_tests, tokens};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// The crate names of one `[section]` of a manifest (`-` read as `_`, as
/// the code spells them).
pub fn deps_of(manifest: &str, section: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut inside = false;
    for line in manifest.lines().map(str::trim) {
        if line.starts_with('[') {
            inside = line == format!("[{section}]");
            continue;
        }
        if !inside || line.is_empty() || line.starts_with('#') {
            continue;
        }
        if let Some((name, _)) = line.split_once('=') {
            out.push(name.trim().replace('-', "_"));
        }
    }
    out
}

fn rs_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            rs_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// Test-only files of `src/`: under a `tests` folder, or `tests.rs`,
/// `tests_*.rs` (declared `#[cfg(test)] mod …;`).
fn test_only(rel: &Path) -> bool {
    rel.components().any(|c| c.as_os_str() == "tests")
        || rel
            .file_name()
            .and_then(|n| n.to_str())
            .is_some_and(|n| n == "tests.rs" || n.starts_with("tests_"))
}

/// The first segment of every path named in the `.rs` files under `dirs`;
/// with `tests_too` false, test-only files and `#[cfg(test)]` items are
/// left out (what the built program needs).
pub fn roots_named(dirs: &[PathBuf], tests_too: bool) -> BTreeSet<String> {
    let mut roots = BTreeSet::new();
    for d in dirs {
        let mut files = Vec::new();
        rs_files(d, &mut files);
        for f in files {
            if !tests_too && test_only(f.strip_prefix(d).unwrap_or(&f)) {
                continue;
            }
            let src = std::fs::read_to_string(&f).expect("read a source file");
            let t = tokens(&src);
            let t = if tests_too { t } else { strip_tests(&t).0 };
            for n in parse(&t).names {
                if let Some(first) = n.segs.first() {
                    roots.insert(first.clone());
                }
            }
        }
    }
    roots
}

/// The crates of `deps` that no path in `roots` starts at.
pub fn unused(deps: &[String], roots: &BTreeSet<String>) -> Vec<String> {
    deps.iter()
        .filter(|d| !roots.contains(*d))
        .cloned()
        .collect()
}
