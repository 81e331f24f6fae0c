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
    Generated {
        page: "docs/cli.md",
        name: "commands",
        make: commands_markdown,
    },
];

/// Every command and option of the command line, from the clap
/// definitions themselves (`cli::args`): what `--help` says, as Markdown.
pub fn commands_markdown() -> String {
    use clap::CommandFactory;
    let mut root = super::args::Cli::command();
    root.build();
    let mut out = String::from("Options every command takes:\n\n");
    out.push_str(&options_table(&root, true));
    for sub in root.get_subcommands() {
        command_markdown(&mut out, "taskdeck", sub);
    }
    out
}

fn command_markdown(out: &mut String, parent: &str, c: &clap::Command) {
    if c.is_hide_set() || c.get_name() == "help" {
        return;
    }
    let path = format!("{parent} {}", c.get_name());
    let subs: Vec<_> = c
        .get_subcommands()
        .filter(|s| !s.is_hide_set() && s.get_name() != "help")
        .collect();
    if !subs.is_empty() {
        for s in subs {
            command_markdown(out, &path, s);
        }
        return;
    }
    let mut usage = path.clone();
    for a in c.get_arguments().filter(|a| !a.is_global_set()) {
        if a.is_hide_set() || matches!(a.get_id().as_str(), "help" | "version") {
            continue;
        }
        usage.push(' ');
        usage.push_str(&arg_usage(a));
    }
    out.push_str(&format!("\n### `{path}`\n\n"));
    if let Some(about) = c.get_long_about().or(c.get_about()) {
        out.push_str(&format!("{}\n\n", first_paragraph(&about.to_string())));
    }
    out.push_str(&format!("```sh\n{usage}\n```\n"));
    let table = options_table(c, false);
    if !table.is_empty() {
        out.push('\n');
        out.push_str(&table);
    }
}

/// One argument as a usage line writes it: `--all`, `[--limit <N>]`, `<FILE>`.
fn arg_usage(a: &clap::Arg) -> String {
    let values = a
        .get_value_names()
        .map(|v| {
            v.iter()
                .map(|n| format!("<{n}>"))
                .collect::<Vec<_>>()
                .join(" ")
        })
        .unwrap_or_else(|| format!("<{}>", a.get_id().as_str().to_uppercase()));
    let takes = a.get_action().takes_values();
    let word = match (a.get_long(), a.get_short()) {
        (Some(l), _) if takes => format!("--{l} {values}"),
        (Some(l), _) => format!("--{l}"),
        (None, Some(s)) if takes => format!("-{s} {values}"),
        (None, Some(s)) => format!("-{s}"),
        (None, None) => values,
    };
    if a.is_required_set() {
        word
    } else {
        format!("[{word}]")
    }
}

/// The options of `c` (the global ones only with `global`) as a table.
fn options_table(c: &clap::Command, global: bool) -> String {
    let mut rows = String::new();
    for a in c.get_arguments() {
        if a.is_hide_set()
            || a.is_global_set() != global
            || matches!(a.get_id().as_str(), "help" | "version")
        {
            continue;
        }
        let help = a
            .get_long_help()
            .or(a.get_help())
            .map(|h| first_paragraph(&h.to_string()))
            .unwrap_or_default();
        let env = a
            .get_env()
            .map(|e| format!(" (also `{}`)", e.to_string_lossy()))
            .unwrap_or_default();
        let default = a
            .get_default_values()
            .iter()
            .map(|v| v.to_string_lossy().to_string())
            .filter(|v| v != "false")
            .collect::<Vec<_>>();
        let default = if default.is_empty() {
            String::new()
        } else {
            format!(" (default `{}`)", default.join(","))
        };
        let shown = arg_usage(a);
        let shown = shown.trim_start_matches('[').trim_end_matches(']');
        rows.push_str(&format!(
            "| `{}` | {}{env}{default} |\n",
            shown.replace('|', "\\|"),
            help.replace('|', "\\|")
        ));
    }
    if rows.is_empty() {
        return rows;
    }
    format!("| option | what it does |\n|---|---|\n{rows}")
}

/// The first paragraph of a help text, on one line.
fn first_paragraph(text: &str) -> String {
    text.split("\n\n")
        .next()
        .unwrap_or("")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

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
    fn the_command_pages_name_every_command_and_option() {
        use clap::CommandFactory;
        let page = commands_markdown();
        let mut cli = crate::cli::args::Cli::command();
        cli.build();
        // Every leaf command has its own section, and each of its own
        // options is named in that section (not merely somewhere on the
        // page: `--all` must not be satisfied by `--all-profiles`).
        fn walk(page: &str, path: &str, c: &clap::Command, leaves: &mut usize) {
            let subs: Vec<_> = c
                .get_subcommands()
                .filter(|s| !s.is_hide_set() && s.get_name() != "help")
                .collect();
            if !subs.is_empty() {
                for s in subs {
                    walk(page, &format!("{path} {}", s.get_name()), s, leaves);
                }
                return;
            }
            *leaves += 1;
            let head = format!("### `{path}`");
            let start = page.find(&head).unwrap_or_else(|| panic!("{head} missing"));
            let body = &page[start + head.len()..];
            let section = &body[..body.find("\n### ").unwrap_or(body.len())];
            for a in c.get_arguments() {
                if a.is_hide_set()
                    || a.is_global_set()
                    || matches!(a.get_id().as_str(), "help" | "version")
                {
                    continue;
                }
                if let Some(l) = a.get_long() {
                    let word = format!("--{l}");
                    let named = section.match_indices(&word).any(|(i, _)| {
                        !section[i + word.len()..]
                            .starts_with(|ch: char| ch.is_ascii_alphanumeric() || ch == '-')
                    });
                    assert!(named, "{word} of `{path}` is not in its section");
                }
            }
        }
        let mut leaves = 0;
        for sub in cli
            .get_subcommands()
            .filter(|s| !s.is_hide_set() && s.get_name() != "help")
        {
            walk(
                &page,
                &format!("taskdeck {}", sub.get_name()),
                sub,
                &mut leaves,
            );
        }
        assert!(leaves >= 10, "only {leaves} commands walked");
        // The ones a newcomer missed in the hand-written page.
        for want in [
            "### `taskdeck search`",
            "`--all-profiles`",
            "`--offline`",
            "### `taskdeck doctor`",
        ] {
            assert!(page.contains(want), "{want} missing");
        }
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
