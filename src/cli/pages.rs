//! The generated parts of the user documentation (`docs/keys.md`,
//! `docs/config.md`): made from the code, so they cannot drift from it.
//! `tests/docs.rs` fails when a page differs from what is generated here,
//! and `UPDATE_DOCS=1 cargo test --test docs` rewrites the pages.

/// The one command that regenerates every generated part of the docs.
pub const REGENERATE: &str = "UPDATE_DOCS=1 cargo test --test docs";

/// One generated part: the page (from the repository's root), its name in
/// the page's markers, and what goes between them.
pub struct Generated {
    pub page: &'static str,
    pub name: &'static str,
    pub make: fn() -> String,
}

/// Every generated part of the docs.
pub const GENERATED: &[Generated] = &[
    Generated {
        page: "docs/keys.md",
        name: "default keys",
        make: crate::domain::keymap::defaults_markdown,
    },
    Generated {
        page: "docs/keys.md",
        name: "palette commands",
        make: palette_markdown,
    },
    Generated {
        page: "docs/config.md",
        name: "settings",
        make: crate::config::doc::settings_markdown,
    },
];

/// The palette's commands (`COMMANDS`) as a Markdown table.
pub fn palette_markdown() -> String {
    let mut out = String::from("| command | arguments | what it does |\n|---|---|---|\n");
    for c in crate::app::state::command::COMMANDS {
        let args = if c.args.is_empty() {
            String::new()
        } else {
            // `|` separates alternatives; escaped, it stays in its cell.
            format!("`{}`", c.args.replace('|', "\\|"))
        };
        let on = if c.task {
            " — on the current task"
        } else {
            ""
        };
        out.push_str(&format!(
            "| `:{}` | {args} | {}{on} |\n",
            c.name,
            c.help.replace('|', "\\|")
        ));
    }
    out
}

/// The first marker line of a generated part.
pub fn begin_marker(name: &str) -> String {
    format!("<!-- generated: {name} — do not edit; regenerate with `{REGENERATE}` -->")
}

/// The last marker line of a generated part.
pub fn end_marker(name: &str) -> String {
    format!("<!-- end of generated: {name} -->")
}

/// `page` with the part `name` replaced by `body`; `None` when the page
/// lacks the part's markers.
pub fn splice(page: &str, name: &str, body: &str) -> Option<String> {
    let (begin, end) = (begin_marker(name), end_marker(name));
    let a = page.find(&begin)? + begin.len();
    let b = a + page[a..].find(&end)?;
    Some(format!(
        "{}\n\n{}\n{}",
        &page[..a],
        body.trim_end(),
        &page[b..]
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splice_replaces_only_between_the_markers() {
        let page = format!(
            "intro\n{}\nold\n{}\noutro\n",
            begin_marker("x"),
            end_marker("x")
        );
        let new = splice(&page, "x", "| a |\n").unwrap();
        assert_eq!(
            new,
            format!(
                "intro\n{}\n\n| a |\n{}\noutro\n",
                begin_marker("x"),
                end_marker("x")
            )
        );
        assert_eq!(splice(&new, "x", "| a |\n").unwrap(), new);
        assert_eq!(splice("no markers", "x", "y"), None);
    }

    #[test]
    fn palette_table_names_every_command_with_its_help() {
        let t = palette_markdown();
        for c in crate::app::state::command::COMMANDS {
            assert!(t.contains(&format!("| `:{}` |", c.name)), "{}", c.name);
        }
        // A `|` in an argument hint stays inside its cell.
        assert!(t.contains("`reference\\|subject\\|output`"), "{t}");
    }
}
