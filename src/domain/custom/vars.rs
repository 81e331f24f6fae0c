//! What a custom command learns of its tasks, and how.
//!
//! Text from the service never becomes part of a command line. Every value
//! reaches the command as an environment variable (`TASKDECK_TITLE`…),
//! which the shell expands as data: `"$TASKDECK_TITLE"` is one word whatever
//! it holds, and is never parsed as code. Only the few values that are
//! identifiers (ids, numbers, status and priority values) may also be
//! written into the command line as a placeholder (`{id}`), and then only
//! when the value itself is plain: see [`is_plain`], checked each time a
//! command runs, since the service could send anything.

/// One value of a task a command can be given.
pub struct Field {
    /// The placeholder's name (`{status}`) and, upper-cased after
    /// `TASKDECK_`, the variable's.
    pub name: &'static str,
    pub about: &'static str,
    /// An identifier, allowed as a `{placeholder}` in the command line.
    pub plain: bool,
}

const fn field(name: &'static str, about: &'static str, plain: bool) -> Field {
    Field { name, about, plain }
}

/// Every value, in the order docs/custom-commands.md and `?` list them.
pub const FIELDS: &[Field] = &[
    field("id", "the task's id (uuid)", true),
    field("display_id", "the task number as shown, #12", true),
    field("number", "the task number without #, 12", true),
    field("status", "the status value, in_progress", true),
    field("priority", "the priority value, high", true),
    field("title", "the title", false),
    field("description", "the description (line breaks kept)", false),
    field(
        "assignee_name",
        "the assignee's name (empty when none)",
        false,
    ),
    field(
        "assignee_email",
        "the assignee's e-mail (empty when none)",
        false,
    ),
    field("creator_name", "the creator's name", false),
    field("creator_email", "the creator's e-mail", false),
    field("team", "the team's name (empty when none)", false),
    field(
        "due",
        "the due date as the service sent it (empty when none)",
        false,
    ),
    field("tags", "the tags, comma-separated", false),
];

/// The values of one task, raw: the command gets the text as the service
/// sent it, but for control characters (see [`env_value`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Vars {
    pub id: String,
    pub display_id: String,
    pub number: String,
    pub status: String,
    pub priority: String,
    pub title: String,
    pub description: String,
    pub assignee_name: String,
    pub assignee_email: String,
    pub creator_name: String,
    pub creator_email: String,
    pub team: String,
    pub due: String,
    pub tags: String,
}

impl Vars {
    pub fn get(&self, name: &str) -> &str {
        match name {
            "id" => &self.id,
            "display_id" => &self.display_id,
            "number" => &self.number,
            "status" => &self.status,
            "priority" => &self.priority,
            "title" => &self.title,
            "description" => &self.description,
            "assignee_name" => &self.assignee_name,
            "assignee_email" => &self.assignee_email,
            "creator_name" => &self.creator_name,
            "creator_email" => &self.creator_email,
            "team" => &self.team,
            "due" => &self.due,
            "tags" => &self.tags,
            _ => "",
        }
    }

    pub fn of(t: &crate::api::Task) -> Vars {
        let person = |p: &Option<crate::api::One<crate::api::Person>>, email: bool| {
            p.as_ref()
                .map(|p| if email { p.email.raw() } else { p.name.raw() }.to_string())
                .unwrap_or_default()
        };
        Vars {
            id: t.id.as_str().to_string(),
            display_id: t.display_id.raw().to_string(),
            number: t.task_number.map(|n| n.to_string()).unwrap_or_default(),
            status: t.status.as_wire().to_string(),
            priority: t.priority.as_wire().to_string(),
            title: t.title.raw().to_string(),
            description: t
                .description
                .as_ref()
                .map(|d| d.raw().to_string())
                .unwrap_or_default(),
            assignee_name: person(&t.assigned_to, false),
            assignee_email: person(&t.assigned_to, true),
            creator_name: person(&t.creator, false),
            creator_email: person(&t.creator, true),
            team: t
                .team
                .as_ref()
                .map(|t| t.name.raw().to_string())
                .unwrap_or_default(),
            due: t.complete_by.as_deref().unwrap_or_default().to_string(),
            tags: t.tags.iter().map(|t| t.raw()).collect::<Vec<_>>().join(","),
        }
    }
}

/// `TASKDECK_TITLE` for `title`.
pub fn env_name(field: &str) -> String {
    format!("TASKDECK_{}", field.to_ascii_uppercase())
}

/// The most a plain value may hold: ids are 36 characters.
const PLAIN_MAX: usize = 64;

/// A value that may go into a command line: ASCII letters, digits, `_`,
/// `-` and `#`, not starting with `-` (so it is never read as an option),
/// at most 64 characters. None of these is special to the shell once the
/// value is quoted, and none can end the quotes. Empty is plain (a task
/// without a number).
pub fn is_plain(v: &str) -> bool {
    v.len() <= PLAIN_MAX
        && !v.starts_with('-')
        && v.chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '#'))
}

/// `value` as a variable holds it. Control characters (line breaks, tabs,
/// escapes, NUL, bidi controls) are untrusted and could make a line the
/// script prints or writes act on a terminal or read as two lines: each
/// becomes a space. With `multiline` (a description for one task) line
/// breaks and tabs are kept, `\r\n` read as `\n`.
pub fn env_value(value: &str, multiline: bool) -> String {
    let mut out = String::with_capacity(value.len());
    let mut chars = value.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\r' if multiline && chars.peek() == Some(&'\n') => {}
            '\n' | '\t' if multiline => out.push(c),
            c if crate::text::is_dangerous(c) => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

/// The environment of one run, every variable set (so none is left over
/// from taskdeck's own environment). For one task, each variable holds its
/// value; for a command run once for several (`for = "all"`), one line per
/// task, in the order of `TASKDECK_IDS` — a value has no line break then.
/// `TASKDECK_IDS` and `TASKDECK_DISPLAY_IDS` list every target one per
/// line either way, and `TASKDECK_COUNT` says how many there are.
pub fn env(targets: &[Vars], once: bool) -> Vec<(String, String)> {
    let mut out = Vec::with_capacity(FIELDS.len() + 3);
    for f in FIELDS {
        let multiline = !once && f.name == "description";
        let lines: Vec<String> = targets
            .iter()
            .map(|v| env_value(v.get(f.name), multiline))
            .collect();
        out.push((env_name(f.name), lines.join("\n")));
    }
    for (plural, single) in [("ids", "id"), ("display_ids", "display_id")] {
        let lines: Vec<String> = targets
            .iter()
            .map(|v| env_value(v.get(single), false))
            .collect();
        out.push((env_name(plural), lines.join("\n")));
    }
    out.push((env_name("count"), targets.len().to_string()));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_values_are_identifiers_only() {
        for v in [
            "",
            "#12",
            "12",
            "in_progress",
            "00000000-0000-4000-8000-000000000012",
        ] {
            assert!(is_plain(v), "{v:?}");
        }
        for v in [
            "#1 2",
            "a'b",
            "a\"b",
            "$(x)",
            "a;b",
            "`x`",
            "-rf",
            "a\nb",
            "ä",
            "*",
            "..",
            &"x".repeat(65),
        ] {
            assert!(!is_plain(v), "{v:?}");
        }
    }

    #[test]
    fn control_characters_become_spaces() {
        assert_eq!(
            env_value("a\nb\tc\u{1b}[2Jd\0e\u{202e}f", false),
            "a b c [2Jd e f"
        );
        assert_eq!(env_value("a\r\nb\tc\u{7}", true), "a\nb\tc ");
        // Everything else is kept exactly.
        let hostile = "$(touch x); `y` 'q' \"d\" \\ * ~ ä";
        assert_eq!(env_value(hostile, false), hostile);
    }

    #[test]
    fn every_variable_is_set_for_one_task_or_one_line_each_for_all() {
        let a = Vars {
            id: "a".into(),
            display_id: "#1".into(),
            title: "first\nline".into(),
            description: "x\ny".into(),
            ..Default::default()
        };
        let b = Vars {
            id: "b".into(),
            display_id: "#2".into(),
            title: "second".into(),
            ..Default::default()
        };
        let get = |env: &[(String, String)], k: &str| {
            env.iter()
                .find(|(n, _)| n == k)
                .unwrap_or_else(|| panic!("{k} in {env:?}"))
                .1
                .clone()
        };
        let one = env(std::slice::from_ref(&a), false);
        assert_eq!(one.len(), FIELDS.len() + 3);
        assert_eq!(get(&one, "TASKDECK_TITLE"), "first line");
        assert_eq!(get(&one, "TASKDECK_DESCRIPTION"), "x\ny");
        assert_eq!(get(&one, "TASKDECK_ASSIGNEE_EMAIL"), "");
        assert_eq!(get(&one, "TASKDECK_IDS"), "a");
        assert_eq!(get(&one, "TASKDECK_COUNT"), "1");
        let all = env(&[a, b], true);
        assert_eq!(get(&all, "TASKDECK_TITLE"), "first line\nsecond");
        assert_eq!(get(&all, "TASKDECK_DESCRIPTION"), "x y\n");
        assert_eq!(get(&all, "TASKDECK_DISPLAY_IDS"), "#1\n#2");
        assert_eq!(get(&all, "TASKDECK_COUNT"), "2");
    }
}
