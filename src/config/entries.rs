//! `[[views]]` and `[[commands]]`: saved views and custom commands as data,
//! checked entry by entry (problems are diagnostics with their line; a bad
//! entry is left out, the others stay).

use super::reader::Parser;
use super::settings::*;
use crate::domain::custom::template::{Refused, Template};
use toml::de::{DeTable, DeValue};
use toml::Spanned;

pub const COMMAND_TIMEOUT_SECS: u64 = 30;

/// The built-in views: the same `[[views]]` entries the config file takes.
const BUILTIN_VIEWS: &str = include_str!("../../assets/views.toml");

pub fn builtin_views() -> Vec<ViewEntry> {
    let mut p = Parser::new(BUILTIN_VIEWS);
    let mut out = Vec::new();
    let doc = DeTable::parse(BUILTIN_VIEWS).expect("assets/views.toml is TOML");
    if let Some(v) = doc.get_ref().get("views") {
        parse_views(&mut p, v, &mut out);
    }
    debug_assert!(p.diags.is_empty(), "assets/views.toml: {:?}", p.diags);
    out
}

/// A name as compared: case and punctuation do not matter.
pub fn name_key(name: &str) -> String {
    name.chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect()
}

fn slug(text: &str) -> String {
    let mut out = String::new();
    for c in text.chars() {
        if c.is_alphanumeric() {
            out.extend(c.to_lowercase());
        } else if !out.ends_with('-') && !out.is_empty() {
            out.push('-');
        }
    }
    out.trim_end_matches('-').to_string()
}

/// The entries of an array of tables; anything else is an error.
fn tables<'a, 'i>(
    p: &mut Parser<'_>,
    what: &str,
    v: &'a Spanned<DeValue<'i>>,
) -> Vec<&'a Spanned<DeValue<'i>>> {
    match v.get_ref().as_array() {
        Some(a) => a
            .iter()
            .filter(|e| {
                let ok = e.get_ref().as_table().is_some();
                if !ok {
                    p.error(
                        e.span().start,
                        format!("each of `{what}` must be a table ([[{what}]])"),
                    );
                }
                ok
            })
            .collect(),
        None => {
            p.error(
                v.span().start,
                format!("`{what}` must be an array of tables: write [[{what}]] entries"),
            );
            vec![]
        }
    }
}

/// The fields an entry takes, as the schema names them.
fn field_names(fields: &[super::doc::Field]) -> String {
    let names: Vec<&str> = fields.iter().map(|f| f.name).collect();
    names.join(", ")
}

/// A key as the keymap writes it, checked (also a macro's `key`).
pub(super) fn key(p: &mut Parser<'_>, what: &str, v: &Spanned<DeValue<'_>>) -> Option<String> {
    let s = p.string(what, v)?;
    match crate::domain::keymap::Key::parse(&s) {
        Ok(k) => Some(k.label()),
        Err(e) => {
            p.error(v.span().start, format!("`{what}`: {e}"));
            None
        }
    }
}

pub(super) fn parse_views(p: &mut Parser<'_>, v: &Spanned<DeValue<'_>>, out: &mut Vec<ViewEntry>) {
    for entry in tables(p, "views", v) {
        let at = entry.span().start;
        let Some(t) = entry.get_ref().as_table() else {
            continue;
        };
        let (mut name, mut filter, mut k) = (None, None, None);
        let mut bad = false;
        for (key_s, val) in t.iter() {
            match &**key_s.get_ref() {
                "name" => name = p.string("name", val),
                "filter" => match p.string("filter", val) {
                    // Checked as `:filter` reads it (`me` is anyone here:
                    // who you are is known only when the view is chosen;
                    // the zone, which this file may set, is not needed).
                    Some(f) => match crate::domain::filters::check_filters(&f) {
                        Ok(()) => filter = Some(f.trim().to_string()),
                        Err(e) => {
                            p.error(val.span().start, format!("view `filter`: {e}"));
                            bad = true;
                        }
                    },
                    None => bad = true,
                },
                "key" => {
                    k = key(p, "key", val);
                    bad |= k.is_none();
                }
                other => {
                    p.error(
                        key_s.span().start,
                        format!(
                            "unknown key `{}` in [[views]] ({})",
                            crate::text::clean(other),
                            field_names(super::doc::VIEW_FIELDS)
                        ),
                    );
                }
            }
        }
        let name = name
            .map(|n| n.trim().to_string())
            .filter(|n| !name_key(n).is_empty());
        match (name, filter) {
            (Some(name), Some(filter)) if !bad => {
                if out.iter().any(|v| name_key(&v.name) == name_key(&name)) {
                    p.error(at, format!("view {name:?} is defined twice"));
                    continue;
                }
                out.push(ViewEntry {
                    name,
                    filter,
                    key: k,
                })
            }
            (None, _) => p.error(at, "a view needs a `name` (letters or digits)".into()),
            (_, None) if !bad => p.error(
                at,
                "a view needs a `filter` (`:filter` words, \"\" for every task)".into(),
            ),
            _ => {}
        }
    }
}

pub(super) fn parse_commands(
    p: &mut Parser<'_>,
    v: &Spanned<DeValue<'_>>,
    out: &mut Vec<CommandEntry>,
) {
    for entry in tables(p, "commands", v) {
        let at = entry.span().start;
        let Some(t) = entry.get_ref().as_table() else {
            continue;
        };
        let mut c = CommandEntry {
            name: String::new(),
            key: None,
            description: String::new(),
            run: String::new(),
            interactive: false,
            once: false,
            timeout_secs: COMMAND_TIMEOUT_SECS,
        };
        let mut bad = false;
        let mut run_at = at;
        for (key_s, val) in t.iter() {
            let k: &str = key_s.get_ref();
            match k {
                "name" => c.name = p.string(k, val).unwrap_or_default().trim().to_string(),
                "description" => {
                    c.description = p.string(k, val).unwrap_or_default().trim().to_string()
                }
                "run" => {
                    run_at = val.span().start;
                    c.run = p.string(k, val).unwrap_or_default();
                }
                "key" => {
                    c.key = key(p, k, val);
                    bad |= c.key.is_none();
                }
                "interactive" => match val.get_ref().as_bool() {
                    Some(b) => c.interactive = b,
                    None => {
                        p.error(
                            val.span().start,
                            "`interactive` must be true or false".into(),
                        );
                        bad = true;
                    }
                },
                "for" => match p.string(k, val).as_deref() {
                    Some("each") => c.once = false,
                    Some("all") => c.once = true,
                    _ => {
                        p.error(
                            val.span().start,
                            "`for` must be \"each\" (once per task) or \"all\" (once, {ids})"
                                .into(),
                        );
                        bad = true;
                    }
                },
                "timeout_secs" => {
                    match p.integer(k, val, 1, super::doc::COMMAND_TIMEOUT_MAX_SECS) {
                        Some(n) => c.timeout_secs = n as u64,
                        None => bad = true,
                    }
                }
                other => p.error(
                    key_s.span().start,
                    format!(
                        "unknown key `{}` in [[commands]] ({})",
                        crate::text::clean(other),
                        field_names(super::doc::COMMAND_FIELDS)
                    ),
                ),
            }
        }
        if c.description.is_empty() {
            p.error(
                at,
                "a command needs a `description` (shown in help and the palette)".into(),
            );
            continue;
        }
        if c.run.trim().is_empty() {
            p.error(at, "a command needs `run` (the shell command)".into());
            continue;
        }
        match Template::parse(&c.run, c.once) {
            Ok((_, warnings)) => {
                for w in warnings {
                    p.warn(run_at, format!("command `run`: {w}"));
                }
            }
            // An old config's `{title}`: the rest of the file still works,
            // this command is left out until it says "$TASKDECK_TITLE".
            Err(Refused::Moved(m)) => {
                let name = if c.name.is_empty() {
                    slug(&c.description)
                } else {
                    c.name.clone()
                };
                p.warn(run_at, format!("command {name:?} is disabled: {m}"));
                continue;
            }
            Err(Refused::Bad(e)) => {
                p.error(run_at, format!("command `run`: {e}"));
                continue;
            }
        }
        if c.name.is_empty() {
            c.name = slug(&c.description);
        }
        if c.name.is_empty() || c.name.contains(char::is_whitespace) {
            p.error(at, format!("command name {:?}: one word, please", c.name));
            continue;
        }
        if out.iter().any(|o| o.name == c.name) {
            p.error(at, format!("command {:?} is defined twice", c.name));
            continue;
        }
        if !bad {
            out.push(c);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::from_str;

    fn errors(c: &Config) -> Vec<(Option<usize>, String)> {
        c.diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Error)
            .map(|d| (d.line, d.message.clone()))
            .collect()
    }

    #[test]
    fn views_and_commands_are_read() {
        let src = r#"
[[views]]
name = "Due today"
filter = "assigned=me to=today"
key = "7"

[[commands]]
key = "ctrl-o"
description = "Log the id"
run = "echo {id} >> ~/ids.txt"

[[commands]]
name = "close-all"
description = "Close them"
run = "close {ids}"
for = "all"
interactive = true
timeout_secs = 5
"#;
        let c = from_str(src, None);
        assert!(c.diagnostics.is_empty(), "{:?}", c.diagnostics);
        assert_eq!(
            c.settings.views,
            vec![ViewEntry {
                name: "Due today".into(),
                filter: "assigned=me to=today".into(),
                key: Some("7".into())
            }]
        );
        let cmds = &c.settings.commands;
        assert_eq!(cmds[0].name, "log-the-id");
        assert_eq!(cmds[0].key.as_deref(), Some("ctrl-o"));
        assert!(!cmds[0].once && !cmds[0].interactive);
        assert_eq!(cmds[0].timeout_secs, COMMAND_TIMEOUT_SECS);
        assert_eq!(cmds[1].name, "close-all");
        assert!(cmds[1].once && cmds[1].interactive);
        assert_eq!(cmds[1].timeout_secs, 5);
    }

    #[test]
    fn bad_entries_are_errors_with_their_line_and_are_left_out() {
        let src = r#"[[views]]
name = "Broken"
filter = "status=bogus"

[[views]]
filter = "assigned=me"

[[views]]
name = "Keyed"
filter = ""
key = "hyper-x"
colour = 1

[[views]]
name = "Fine"
filter = "to=+3d"

[[commands]]
description = "Quoted"
run = "echo '{id}'"

[[commands]]
run = "echo {id}"

[[commands]]
description = "Once"
run = "echo {id}"
for = "all"

[[commands]]
description = "Typo"
run = "echo {titel} {id}"
"#;
        let c = from_str(src, None);
        let e = errors(&c);
        let line_of = |needle: &str| {
            e.iter()
                .find(|(_, m)| m.contains(needle))
                .unwrap_or_else(|| panic!("{needle:?} in {e:?}"))
                .0
        };
        assert_eq!(line_of("unknown status"), Some(3));
        assert_eq!(line_of("needs a `name`"), Some(5));
        assert_eq!(line_of("hyper-x"), Some(11));
        assert_eq!(line_of("unknown key `colour`"), Some(12));
        assert_eq!(line_of("inside quotes"), Some(20));
        assert_eq!(line_of("needs a `description`"), Some(22));
        assert_eq!(line_of("{ids}"), Some(27));
        let warned: Vec<_> = c
            .diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Warning)
            .collect();
        assert_eq!(warned.len(), 1, "{warned:?}");
        assert_eq!(warned[0].line, Some(32));
        let names: Vec<&str> = c.settings.views.iter().map(|v| v.name.as_str()).collect();
        assert_eq!(names, vec!["Fine"]);
        let cmds: Vec<&str> = c
            .settings
            .commands
            .iter()
            .map(|v| v.name.as_str())
            .collect();
        assert_eq!(cmds, vec!["typo"]);
        // Not an array of tables.
        let c = from_str("views = 3\n", None);
        assert!(errors(&c)[0].1.contains("[[views]]"));
    }

    /// `{title}` and the like put service text into a command line: an old
    /// config is told what to write instead, as a warning (the rest of the
    /// file works) with its line, and the command is left out.
    #[test]
    fn a_free_text_placeholder_disables_the_command_with_what_to_write() {
        let src = r#"[[commands]]
description = "Log the title"
run = "echo {title} >> ~/titles.txt"

[[commands]]
name = "mail"
description = "Mail the assignee"
run = "mail {assignee_email} < /dev/null"

[[commands]]
description = "Fine"
run = "echo {id} {status}"
"#;
        let c = from_str(src, None);
        assert!(errors(&c).is_empty(), "{:?}", c.diagnostics);
        let warned: Vec<(Option<usize>, &str)> = c
            .diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Warning)
            .map(|d| (d.line, d.message.as_str()))
            .collect();
        assert_eq!(warned.len(), 2, "{warned:?}");
        assert_eq!(warned[0].0, Some(3));
        assert!(
            warned[0]
                .1
                .starts_with("command \"log-the-title\" is disabled: ")
                && warned[0]
                    .1
                    .contains("use \"$TASKDECK_TITLE\" in the command instead of {title}"),
            "{}",
            warned[0].1
        );
        assert_eq!(warned[1].0, Some(8));
        assert!(
            warned[1].1.starts_with("command \"mail\" is disabled: ")
                && warned[1].1.contains(
                    "use \"$TASKDECK_ASSIGNEE_EMAIL\" in the command instead of {assignee_email}"
                ),
            "{}",
            warned[1].1
        );
        let names: Vec<&str> = c
            .settings
            .commands
            .iter()
            .map(|c| c.name.as_str())
            .collect();
        assert_eq!(names, vec!["fine"]);
    }

    #[test]
    fn the_built_in_views_are_data() {
        let v = builtin_views();
        let names: Vec<&str> = v.iter().map(|v| v.name.as_str()).collect();
        assert_eq!(
            names,
            vec![
                "All",
                "Mine",
                "Involving me",
                "Due this week",
                "Overdue",
                "Mine, open",
                "Mine, overdue"
            ]
        );
        assert_eq!(v[0].filter, "");
        assert_eq!(v[1].key.as_deref(), Some("2"));
    }
}
