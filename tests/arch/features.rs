//! The feature folders of `src/app` and the arrows between them (issue 35):
//! the module graph seen one level up, each folder of `src/app` one node.
//!
//! The rule, exactly: a module of folder X names (by `use` or by a path,
//! as the module graph reads it, re-exports followed to the item's home)
//! a module of folder Y only if Y stands in a lower tier of the order than
//! X. The aggregate (`state`) is aside: every feature may import it and it
//! composes every feature's data. `impl State` blocks (`X/handle.rs`) are
//! methods of the aggregate: calling one is no arrow, naming a type of
//! another folder is.

use super::Graph;
use std::collections::BTreeMap;
use std::path::Path;

/// The folder of `src/app` that module `m` lies in
/// (`app::list::settle::handle` → `list`); `None` outside a folder.
pub fn folder_of(m: &str) -> Option<&str> {
    let mut parts = m.split("::");
    match (parts.next(), parts.next()) {
        (Some("app"), Some(f)) => Some(f),
        _ => None,
    }
}

/// The arrows between folders of `src/app`, each with the first file and
/// path that makes it.
pub fn folder_arrows(g: &Graph) -> BTreeMap<(String, String), String> {
    let mut out = BTreeMap::new();
    for (from, tos) in &g.edges {
        let Some(f) = folder_of(from) else { continue };
        for to in tos {
            let Some(t) = folder_of(to) else { continue };
            if f != t {
                let via = g
                    .via
                    .get(&(from.clone(), to.clone()))
                    .cloned()
                    .unwrap_or_else(|| format!("{from} names {to}"));
                out.entry((f.to_string(), t.to_string())).or_insert(via);
            }
        }
    }
    out
}

/// The folders of `src/app` on disk (`tests` aside: test-only code).
pub fn folders_in(app: &Path) -> Vec<String> {
    let mut out: Vec<String> = std::fs::read_dir(app)
        .expect("read src/app")
        .map(|e| e.expect("read src/app").path())
        .filter(|p| p.is_dir())
        .filter_map(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
        .filter(|n| n != "tests")
        .collect();
    out.sort();
    out
}

/// Every broken rule of the order, in words. `order` lists tiers from the
/// top (imports the most) down; folders of one tier import none of each
/// other; `aggregate` is the folder aside.
pub fn check_order(
    order: &[&[&str]],
    aggregate: &str,
    arrows: &BTreeMap<(String, String), String>,
    folders: &[String],
) -> Vec<String> {
    let tier = |f: &str| order.iter().position(|t| t.contains(&f));
    let mut errors = Vec::new();
    for f in folders {
        if f != aggregate && tier(f).is_none() {
            errors.push(format!(
                "src/app/{f} is not in the feature order: give it its place (FEATURE_ORDER in tests/architecture.rs, the top of ARCHITECTURE.md)"
            ));
        }
    }
    for f in order.iter().flat_map(|t| t.iter()) {
        if !folders.iter().any(|d| d == f) {
            errors.push(format!(
                "src/app/{f} is gone: strike it off the feature order"
            ));
        }
    }
    for ((from, to), via) in arrows {
        if from == aggregate || to == aggregate {
            continue;
        }
        let (Some(a), Some(b)) = (tier(from), tier(to)) else {
            continue; // reported above
        };
        if b <= a {
            let why = if a == b {
                "folders of one tier import none of each other"
            } else {
                "a feature folder imports only folders below it"
            };
            errors.push(format!(
                "app/{from} → app/{to} ({via}): {from} stands {} {to} in the feature order; {why}",
                if a == b { "beside" } else { "below" }
            ));
        }
    }
    errors
}

#[test]
fn an_upward_or_sideways_arrow_and_an_unplaced_folder_fail_by_name() {
    let order: &[&[&str]] = &[&["top"], &["mid", "side"], &["low"]];
    let mut g = super::graph_of_edges(&[
        ("app::top::a", "app::mid::b"),
        ("app::mid::b", "app::low"),
        ("app::low", "app::state"),
        ("app::state", "app::top::a"),
        ("app::low::c", "app::mid::b"),
        ("app::mid::d", "app::side::e"),
        ("app::top::a", "app::top::f"),
    ]);
    g.via.insert(
        ("app::low::c".into(), "app::mid::b".into()),
        "src/app/low/c.rs: use crate::app::mid::b::X".into(),
    );
    let arrows = folder_arrows(&g);
    let folders: Vec<String> = ["top", "mid", "side", "low", "state", "new"]
        .map(String::from)
        .into();
    let errors = check_order(order, "state", &arrows, &folders);
    assert_eq!(
        errors,
        [
            "src/app/new is not in the feature order: give it its place (FEATURE_ORDER in tests/architecture.rs, the top of ARCHITECTURE.md)",
            "app/low → app/mid (src/app/low/c.rs: use crate::app::mid::b::X): low stands below mid in the feature order; a feature folder imports only folders below it",
            "app/mid → app/side (app::mid::d names app::side::e): mid stands beside side in the feature order; folders of one tier import none of each other",
        ],
        "{errors:?}"
    );
    let gone = check_order(
        &[&["top"], &["old"]],
        "state",
        &BTreeMap::new(),
        &["top".into()],
    );
    assert_eq!(
        gone,
        ["src/app/old is gone: strike it off the feature order"]
    );
}
