//! A custom command's `run` text: placeholders such as `{title}` become the
//! task's values, each one single-quoted for the shell, so that service
//! text is never read by the shell as code.
//!
//! Quoting is only safe where the shell reads a plain word, so the template
//! is read the way `sh` reads it and a placeholder is refused (with the
//! reason, by `taskdeck config check` and on screen) inside quotes, after a
//! backslash, inside backticks, `$((…))`, a comment or a here-document, and
//! as the argument of something that runs its argument as shell code
//! (`eval`, `sh -c`, `ssh HOST …`). Braces that are not a known
//! placeholder (`awk '{print $1}'`, `${HOME}`) are left as written.

/// Every placeholder with what it stands for (the help screen and README
/// list them). `ids` and `display_ids` stand for every target at once.
pub const PLACEHOLDERS: &[(&str, &str)] = &[
    ("id", "the task's id (uuid)"),
    ("display_id", "the task number as shown, #12"),
    ("number", "the task number without #, 12"),
    ("title", "the title"),
    ("status", "the status value, in_progress"),
    ("priority", "the priority value, high"),
    (
        "assignee_email",
        "the assignee's e-mail (empty when unassigned)",
    ),
    (
        "assignee_name",
        "the assignee's name (empty when unassigned)",
    ),
    (
        "due",
        "the due date as the service sent it (empty when none)",
    ),
    ("tags", "the tags, comma-separated"),
    ("ids", "every target's id, one word each"),
    ("display_ids", "every target's number, one word each"),
];

/// Placeholders that stand for every target (one word each).
const PLURAL: &[&str] = &["ids", "display_ids"];

/// One piece of a template: text as written, or a placeholder.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Piece {
    Text(String),
    Slot(&'static str),
}

/// A checked template.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Template {
    pub pieces: Vec<Piece>,
}

/// The values of one task, raw (the command gets the text exactly as the
/// service sent it; only the screen shows it sanitised).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Vars {
    pub id: String,
    pub display_id: String,
    pub number: String,
    pub title: String,
    pub status: String,
    pub priority: String,
    pub assignee_email: String,
    pub assignee_name: String,
    pub due: String,
    pub tags: String,
}

impl Vars {
    fn get(&self, name: &str) -> &str {
        match name {
            "id" => &self.id,
            "display_id" => &self.display_id,
            "number" => &self.number,
            "title" => &self.title,
            "status" => &self.status,
            "priority" => &self.priority,
            "assignee_email" => &self.assignee_email,
            "assignee_name" => &self.assignee_name,
            "due" => &self.due,
            "tags" => &self.tags,
            _ => "",
        }
    }

    pub fn of(t: &crate::api::Task) -> Vars {
        Vars {
            id: t.id.as_str().to_string(),
            display_id: t.display_id.raw().to_string(),
            number: t.task_number.map(|n| n.to_string()).unwrap_or_default(),
            title: t.title.raw().to_string(),
            status: t.status.as_wire().to_string(),
            priority: t.priority.as_wire().to_string(),
            assignee_email: t
                .assigned_to
                .as_ref()
                .map(|p| p.email.raw().to_string())
                .unwrap_or_default(),
            assignee_name: t
                .assigned_to
                .as_ref()
                .map(|p| p.name.raw().to_string())
                .unwrap_or_default(),
            due: t.complete_by.clone().unwrap_or_default(),
            tags: t.tags.iter().map(|t| t.raw()).collect::<Vec<_>>().join(","),
        }
    }
}

/// `value` as one shell word: single-quoted, each `'` written `'\''`.
/// NUL cannot be passed to a program at all: it becomes U+FFFD.
pub fn shell_quote(value: &str) -> String {
    let mut out = String::with_capacity(value.len() + 2);
    out.push('\'');
    for c in value.chars() {
        match c {
            '\'' => out.push_str("'\\''"),
            '\0' => out.push('\u{FFFD}'),
            c => out.push(c),
        }
    }
    out.push('\'');
    out
}

/// Where the shell is while reading the template.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ctx {
    /// Plain words: a quoted value is one word here.
    Plain,
    /// `$( … )`: plain words again, but its `)` ends it.
    Subst,
    Single,
    Double,
    Backtick,
    /// `$(( … ))` or `(( … ))`.
    Arith,
    Comment,
}

/// Why a placeholder cannot go where it is.
fn unsafe_here(stack: &[Ctx], heredoc: bool) -> Option<&'static str> {
    if heredoc {
        return Some("in a here-document (<<), where quotes are not read");
    }
    for c in stack {
        match c {
            Ctx::Single | Ctx::Double => {
                return Some("inside quotes (write it bare: taskdeck quotes the value)")
            }
            Ctx::Backtick => return Some("inside backticks (use $( … ) instead)"),
            Ctx::Arith => return Some("inside $(( … ))"),
            Ctx::Comment => return Some("in a comment"),
            Ctx::Plain | Ctx::Subst => {}
        }
    }
    None
}

/// Words that run the rest of their command as shell code.
fn runs_code(words: &[String]) -> Option<&'static str> {
    let shells = ["sh", "bash", "zsh", "dash", "ksh", "fish"];
    let base = |w: &str| w.rsplit('/').next().unwrap_or(w).to_string();
    for (i, w) in words.iter().enumerate() {
        let b = base(w);
        if b == "eval" {
            return Some("eval runs its arguments as shell code");
        }
        if b == "ssh" {
            return Some("ssh runs its arguments as shell code on the other host");
        }
        let dash_c = |x: &String| x.starts_with('-') && !x.starts_with("--") && x.contains('c');
        if shells.contains(&b.as_str()) && words[i + 1..].iter().any(dash_c) {
            return Some("a shell with -c runs its argument as code");
        }
    }
    None
}

impl Template {
    /// Read `run`; `once` says the command runs once for all targets (only
    /// `{ids}` and `{display_ids}` make sense then). Unknown placeholders
    /// come back as warnings (they are left as written).
    pub fn parse(run: &str, once: bool) -> Result<(Template, Vec<String>), String> {
        let chars: Vec<char> = run.chars().collect();
        let mut pieces = Vec::new();
        let mut text = String::new();
        let mut warnings = Vec::new();
        let mut stack = vec![Ctx::Plain];
        let mut heredoc = false;
        // The words of the current simple command (for `eval`, `sh -c`).
        let mut words: Vec<String> = Vec::new();
        let mut word = String::new();
        let mut i = 0;
        let end_word = |word: &mut String, words: &mut Vec<String>| {
            if !word.is_empty() {
                words.push(std::mem::take(word));
            }
        };
        while i < chars.len() {
            let c = chars[i];
            let top = *stack.last().unwrap_or(&Ctx::Plain);
            // A placeholder: `{name}` with a known name.
            if c == '{' {
                let name: String = chars[i + 1..]
                    .iter()
                    .take_while(|c| c.is_ascii_lowercase() || **c == '_')
                    .collect();
                let closes = chars.get(i + 1 + name.chars().count()) == Some(&'}');
                if !name.is_empty() && closes {
                    match PLACEHOLDERS.iter().find(|(n, _)| *n == name) {
                        Some((known, _)) => {
                            if let Some(why) = unsafe_here(&stack, heredoc) {
                                return Err(format!("{{{known}}} is {why}"));
                            }
                            end_word(&mut word, &mut words);
                            if let Some(why) = runs_code(&words) {
                                return Err(format!("{{{known}}} would be run as code: {why}"));
                            }
                            if once && !PLURAL.contains(known) {
                                return Err(format!(
                                    "{{{known}}} stands for one task, but this command runs once for all of them: use {{ids}} or {{display_ids}}"
                                ));
                            }
                            if !text.is_empty() {
                                pieces.push(Piece::Text(std::mem::take(&mut text)));
                            }
                            pieces.push(Piece::Slot(known));
                            // The value is a word of the command.
                            word.push('x');
                            i += name.chars().count() + 2;
                            continue;
                        }
                        None => warnings.push(format!(
                            "{{{name}}} is not a placeholder (left as written; known: {})",
                            PLACEHOLDERS
                                .iter()
                                .map(|(n, _)| *n)
                                .collect::<Vec<_>>()
                                .join(", ")
                        )),
                    }
                }
            }
            text.push(c);
            let next = chars.get(i + 1).copied();
            match top {
                Ctx::Single => {
                    if c == '\'' {
                        stack.pop();
                    }
                }
                Ctx::Comment => {
                    if c == '\n' {
                        stack.pop();
                        end_word(&mut word, &mut words);
                        words.clear();
                    }
                }
                Ctx::Double | Ctx::Backtick => {
                    if c == '\\' {
                        // The next character is taken as it is.
                        if let Some(n) = next {
                            text.push(n);
                            i += 1;
                        }
                    } else if (c == '"' && top == Ctx::Double) || (c == '`' && top == Ctx::Backtick)
                    {
                        stack.pop();
                    } else if c == '`' {
                        stack.push(Ctx::Backtick);
                    } else if c == '$' && next == Some('(') {
                        text.push('(');
                        i += 1;
                        if chars.get(i + 1) == Some(&'(') {
                            text.push('(');
                            i += 1;
                            stack.push(Ctx::Arith);
                        } else {
                            stack.push(Ctx::Subst);
                        }
                    }
                }
                Ctx::Arith => {
                    if c == ')' && next == Some(')') {
                        text.push(')');
                        i += 1;
                        stack.pop();
                    }
                }
                Ctx::Plain | Ctx::Subst => match c {
                    '\\' => {
                        // A backslash-newline joins lines; anything else
                        // after a backslash is one character of a word.
                        if let Some(n) = next {
                            text.push(n);
                            word.push(n);
                            i += 1;
                        }
                    }
                    '\'' => {
                        stack.push(Ctx::Single);
                        word.push(c);
                    }
                    '"' => {
                        stack.push(Ctx::Double);
                        word.push(c);
                    }
                    '`' => {
                        stack.push(Ctx::Backtick);
                        word.push(c);
                    }
                    '#' if word.is_empty() => stack.push(Ctx::Comment),
                    '$' if next == Some('(') => {
                        text.push('(');
                        i += 1;
                        if chars.get(i + 1) == Some(&'(') {
                            text.push('(');
                            i += 1;
                            stack.push(Ctx::Arith);
                        } else {
                            end_word(&mut word, &mut words);
                            words.clear();
                            stack.push(Ctx::Subst);
                        }
                    }
                    '(' if next == Some('(') && word.is_empty() => {
                        text.push('(');
                        i += 1;
                        stack.push(Ctx::Arith);
                    }
                    ')' if top == Ctx::Subst => {
                        stack.pop();
                        end_word(&mut word, &mut words);
                        words.clear();
                    }
                    '<' if next == Some('<') => {
                        // `<<<` is a here-string (a plain word follows);
                        // `<<` starts a here-document.
                        if chars.get(i + 2) == Some(&'<') {
                            text.push_str("<<");
                            i += 2;
                        } else {
                            heredoc = true;
                        }
                        end_word(&mut word, &mut words);
                    }
                    ';' | '&' | '|' | '\n' | '(' | ')' => {
                        end_word(&mut word, &mut words);
                        words.clear();
                    }
                    c if c.is_whitespace() => end_word(&mut word, &mut words),
                    c => word.push(c),
                },
            }
            i += 1;
        }
        if !text.is_empty() {
            pieces.push(Piece::Text(text));
        }
        match stack.last() {
            Some(Ctx::Single) | Some(Ctx::Double) => {
                return Err("a quote is not closed".into());
            }
            Some(Ctx::Backtick) => return Err("a backtick is not closed".into()),
            _ => {}
        }
        Ok((Template { pieces }, warnings))
    }

    /// The script for `targets`: each placeholder's value quoted as one
    /// word (`{ids}`: one quoted word per target). With one target per
    /// run, pass a slice of one.
    pub fn render(&self, targets: &[Vars]) -> String {
        let mut out = String::new();
        for p in &self.pieces {
            match p {
                Piece::Text(t) => out.push_str(t),
                Piece::Slot(name) if PLURAL.contains(name) => {
                    let single = if *name == "ids" { "id" } else { "display_id" };
                    let words: Vec<String> =
                        targets.iter().map(|v| shell_quote(v.get(single))).collect();
                    out.push_str(&words.join(" "));
                }
                Piece::Slot(name) => {
                    let v = targets.first().map(|v| v.get(name)).unwrap_or("");
                    out.push_str(&shell_quote(v));
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vars(title: &str) -> Vars {
        Vars {
            id: "00000000-0000-4000-8000-000000000012".into(),
            display_id: "#12".into(),
            number: "12".into(),
            title: title.into(),
            ..Default::default()
        }
    }

    fn ok(run: &str) -> Template {
        Template::parse(run, false).unwrap().0
    }

    #[test]
    fn values_are_quoted_as_one_word() {
        let t = ok("notify --task {display_id} --title {title}");
        assert_eq!(
            t.render(&[vars("it's done")]),
            "notify --task '#12' --title 'it'\\''s done'"
        );
        assert_eq!(shell_quote(""), "''");
        assert_eq!(shell_quote("a\0b"), "'a\u{FFFD}b'");
    }

    #[test]
    fn braces_that_are_not_placeholders_stay() {
        let (t, warnings) =
            Template::parse("awk '{print $1}' ${HOME}/x {titel} {id}", false).unwrap();
        assert_eq!(
            t.render(&[vars("T")]),
            "awk '{print $1}' ${HOME}/x {titel} '00000000-0000-4000-8000-000000000012'"
        );
        assert_eq!(warnings.len(), 1, "{warnings:?}");
        assert!(warnings[0].contains("{titel}"));
    }

    #[test]
    fn placeholders_where_quoting_does_not_hold_are_refused() {
        for (run, why) in [
            ("echo '{title}'", "quotes"),
            ("echo \"{title}\"", "quotes"),
            ("echo \"$(printf %s {title})\"", "quotes"),
            ("echo `printf %s {title}`", "backticks"),
            ("echo $(( {number} + 1 ))", "$(("),
            ("echo hi # {title}", "comment"),
            ("cat <<EOF\n{title}\nEOF", "here-document"),
            ("eval echo {title}", "code"),
            ("sh -c {title}", "code"),
            ("/bin/bash -xc {title}", "code"),
            ("ssh host notify {title}", "code"),
            ("echo {title} 'open", "not closed"),
        ] {
            let e = Template::parse(run, false).unwrap_err();
            assert!(e.contains(why), "{run:?}: {e}");
        }
        // Plain words, $( … ), here-strings and later commands are fine.
        for run in [
            "echo {title}",
            "x=$(printf %s {title}); echo \"$x\"",
            "cat <<< {title}",
            "eval true; echo {title}",
            "echo a\\ {title}",
            "printf '%s\\n' {id} >> ~/ids.txt",
        ] {
            assert!(Template::parse(run, false).is_ok(), "{run:?}");
        }
    }

    #[test]
    fn once_takes_every_id() {
        assert!(Template::parse("echo {id}", true)
            .unwrap_err()
            .contains("{ids}"));
        let t = Template::parse("mark-done {ids}", true).unwrap().0;
        let mut b = vars("B");
        b.id = "b'id".into();
        assert_eq!(
            t.render(&[vars("A"), b]),
            "mark-done '00000000-0000-4000-8000-000000000012' 'b'\\''id'"
        );
    }

    /// Hostile titles reach the command exactly as written, as data: the
    /// shell itself prints them back.
    #[test]
    fn hostile_titles_are_never_run() {
        let dir = tempfile::tempdir().unwrap();
        let canary = dir.path().join("canary");
        let c = canary.display().to_string();
        let hostile = [
            format!("'; touch {c}; echo '"),
            format!("$(touch {c})"),
            format!("`touch {c}`"),
            format!("x\ntouch {c}\n"),
            format!("\"; touch {c}; \""),
            format!("\\'; touch {c}; #"),
            format!("a' && touch {c} && echo 'b"),
            format!("${{IFS}}$(touch${{IFS}}{c})"),
            "*".to_string(),
        ];
        let t = ok("printf '%s' {title}");
        for title in hostile {
            let script = t.render(&[vars(&title)]);
            let out = std::process::Command::new("sh")
                .arg("-c")
                .arg(&script)
                .current_dir(dir.path())
                .output()
                .unwrap();
            assert!(out.status.success(), "{script}");
            assert_eq!(String::from_utf8_lossy(&out.stdout), title, "{script}");
            assert!(!canary.exists(), "ran: {script}");
        }
    }
}
