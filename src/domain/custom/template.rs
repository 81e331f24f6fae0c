//! A custom command's `run` text and its placeholders.
//!
//! Text from the service never becomes part of a command line: the task's
//! values reach the command as environment variables (see [`super::vars`]).
//! A placeholder is only for an identifier — `{id}`, `{display_id}`,
//! `{number}`, `{status}`, `{priority}`, `{ids}`, `{display_ids}` — and is
//! replaced by its value only when that value is plain ([`is_plain`]:
//! letters, digits, `_ - #`), checked every time the command runs; a value
//! that is not refuses the run. So what the shell reads as code is what the
//! config file says, plus words that hold no operator, quote, expansion or
//! space, whatever the command does with them (`sh -c {id}`, `eval`, `ssh`:
//! at most one bare word, no list of such commands is needed, and none is
//! kept). The free-text placeholders of old configs
//! (`{title}`…) are refused with what to write instead
//! (`"$TASKDECK_TITLE"`), and the command is left out.
//!
//! The template is still read the way `sh` reads it, for correctness, not
//! safety: a value is substituted single-quoted (a `#12` would otherwise
//! start a comment), which gives one word only where the shell reads plain
//! words, so a placeholder inside quotes, backticks, `$((…))`, a comment or
//! a here-document is refused with the reason. Braces that are not a known
//! placeholder (`awk '{print $1}'`, `${HOME}`) are left as written.

use super::vars::{env_name, is_plain, Vars, FIELDS};

/// Placeholders that stand for every target (one word each), with the
/// placeholder each repeats.
const PLURAL: &[(&str, &str)] = &[("ids", "id"), ("display_ids", "display_id")];

/// Every placeholder with what it stands for (docs/custom-commands.md lists them).
pub fn placeholders() -> Vec<(&'static str, &'static str)> {
    let mut out: Vec<(&str, &str)> = FIELDS
        .iter()
        .filter(|f| f.plain)
        .map(|f| (f.name, f.about))
        .collect();
    out.push(("ids", "every target's id, one word each"));
    out.push(("display_ids", "every target's number, one word each"));
    out
}

/// Why a template cannot be used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refused {
    /// A free-text placeholder (`{title}`) of an old config: the message
    /// says what to write instead. The command is left out, with a warning.
    Moved(String),
    /// Anything else: an error in the config file.
    Bad(String),
}

impl std::fmt::Display for Refused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Refused::Moved(m) | Refused::Bad(m) => f.write_str(m),
        }
    }
}

/// The message for `{name}`, a free-text value no longer put into a
/// command line.
fn moved(name: &str) -> String {
    let var = env_name(name);
    format!(
        "{{{name}}} would put the task's text into the command line, which taskdeck no longer does: use \"${var}\" in the command instead of {{{name}}} (double quotes included: it is then one word, never read as code)"
    )
}

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

/// `value` as one shell word: single-quoted, each `'` written `'\''`.
/// NUL cannot be passed to a program at all: it becomes U+FFFD. (A plain
/// value holds neither; this stays exact for any text.)
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

/// `$(` at `i`, its `$` already in `text` (in plain words, a
/// substitution or double quotes alike): a command substitution opens, or
/// `$((` arithmetic; `i` is left on the last character taken.
fn dollar_paren(
    chars: &[char],
    i: &mut usize,
    text: &mut String,
    stack: &mut Vec<Ctx>,
    in_word: &mut bool,
) {
    text.push('(');
    *i += 1;
    if chars.get(*i + 1) == Some(&'(') {
        text.push('(');
        *i += 1;
        stack.push(Ctx::Arith);
    } else {
        stack.push(Ctx::Subst);
        *in_word = false;
    }
}

/// The placeholder `{name}` starting at `chars[i]`, if `name` is a word.
fn braced(chars: &[char], i: usize) -> Option<String> {
    let name: String = chars[i + 1..]
        .iter()
        .take_while(|c| c.is_ascii_lowercase() || **c == '_')
        .collect();
    let closes = chars.get(i + 1 + name.chars().count()) == Some(&'}');
    (chars[i] == '{' && !name.is_empty() && closes).then_some(name)
}

impl Template {
    /// Read `run`; `once` says the command runs once for all targets (only
    /// `{ids}` and `{display_ids}` make sense then). Unknown placeholders
    /// come back as warnings (they are left as written).
    pub fn parse(run: &str, once: bool) -> Result<(Template, Vec<String>), Refused> {
        let chars: Vec<char> = run.chars().collect();
        // A free-text placeholder anywhere (even where it would be inert,
        // as in a comment) is the one thing an old config needs to change:
        // say so first.
        for i in 0..chars.len() {
            if let Some(name) = braced(&chars, i) {
                if FIELDS.iter().any(|f| !f.plain && f.name == name) {
                    return Err(Refused::Moved(moved(&name)));
                }
            }
        }
        let known = placeholders();
        let mut pieces = Vec::new();
        let mut text = String::new();
        let mut warnings = Vec::new();
        let mut stack = vec![Ctx::Plain];
        let mut heredoc = false;
        // Inside a word (a `#` there is not a comment, a `((` not
        // arithmetic).
        let mut in_word = false;
        let mut i = 0;
        while i < chars.len() {
            let c = chars[i];
            let top = *stack.last().unwrap_or(&Ctx::Plain);
            if let Some(name) = braced(&chars, i) {
                match known.iter().find(|(n, _)| *n == name) {
                    Some((known, _)) => {
                        if let Some(why) = unsafe_here(&stack, heredoc) {
                            return Err(Refused::Bad(format!("{{{known}}} is {why}")));
                        }
                        let plural = PLURAL.iter().any(|(p, _)| p == known);
                        if once && !plural {
                            return Err(Refused::Bad(format!(
                                "{{{known}}} stands for one task, but this command runs once for all of them: use {{ids}} or {{display_ids}}"
                            )));
                        }
                        if !text.is_empty() {
                            pieces.push(Piece::Text(std::mem::take(&mut text)));
                        }
                        pieces.push(Piece::Slot(known));
                        in_word = true;
                        i += name.chars().count() + 2;
                        continue;
                    }
                    None => warnings.push(format!(
                        "{{{name}}} is not a placeholder (left as written; known: {})",
                        known.iter().map(|(n, _)| *n).collect::<Vec<_>>().join(", ")
                    )),
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
                        in_word = false;
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
                        dollar_paren(&chars, &mut i, &mut text, &mut stack, &mut in_word);
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
                            in_word = true;
                            i += 1;
                        }
                    }
                    '\'' => {
                        stack.push(Ctx::Single);
                        in_word = true;
                    }
                    '"' => {
                        stack.push(Ctx::Double);
                        in_word = true;
                    }
                    '`' => {
                        stack.push(Ctx::Backtick);
                        in_word = true;
                    }
                    '#' if !in_word => stack.push(Ctx::Comment),
                    '$' if next == Some('(') => {
                        dollar_paren(&chars, &mut i, &mut text, &mut stack, &mut in_word)
                    }
                    '(' if next == Some('(') && !in_word => {
                        text.push('(');
                        i += 1;
                        stack.push(Ctx::Arith);
                    }
                    ')' if top == Ctx::Subst => {
                        stack.pop();
                        in_word = true;
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
                        in_word = false;
                    }
                    ';' | '&' | '|' | '\n' | '(' | ')' => in_word = false,
                    c if c.is_whitespace() => in_word = false,
                    _ => in_word = true,
                },
            }
            i += 1;
        }
        if !text.is_empty() {
            pieces.push(Piece::Text(text));
        }
        match stack.last() {
            Some(Ctx::Single) | Some(Ctx::Double) => {
                return Err(Refused::Bad("a quote is not closed".into()));
            }
            Some(Ctx::Backtick) => return Err(Refused::Bad("a backtick is not closed".into())),
            _ => {}
        }
        Ok((Template { pieces }, warnings))
    }

    /// The script for `targets`: each placeholder's value quoted as one
    /// word (`{ids}`: one quoted word per target). With one target per
    /// run, pass a slice of one. A value that is not plain — the service
    /// may send anything — refuses the whole run, saying which and how to
    /// pass it instead.
    pub fn render(&self, targets: &[Vars]) -> Result<String, String> {
        let plain = |name: &str, v: &Vars| -> Result<String, String> {
            let value = v.get(name);
            if is_plain(value) {
                Ok(shell_quote(value))
            } else {
                Err(format!(
                    "the service sent {{{name}}} as {:?}, which is not a plain value (letters, digits, _ - #), so it is not put into the command line; \"${}\" holds it as text",
                    crate::cut::excerpt(&crate::text::clean(value), 40),
                    env_name(name)
                ))
            }
        };
        let mut out = String::new();
        for p in &self.pieces {
            match p {
                Piece::Text(t) => out.push_str(t),
                Piece::Slot(name) => match PLURAL.iter().find(|(p, _)| p == name) {
                    Some((_, single)) => {
                        let words = targets
                            .iter()
                            .map(|v| plain(single, v))
                            .collect::<Result<Vec<_>, _>>()?;
                        out.push_str(&words.join(" "));
                    }
                    None => match targets.first() {
                        Some(v) => out.push_str(&plain(name, v)?),
                        None => out.push_str("''"),
                    },
                },
            }
        }
        Ok(out)
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
            status: "in_progress".into(),
            title: title.into(),
            ..Default::default()
        }
    }

    fn ok(run: &str) -> Template {
        Template::parse(run, false).unwrap().0
    }

    #[test]
    fn values_are_quoted_as_one_word() {
        let t = ok("notify --task {display_id} --status {status} {number}");
        assert_eq!(
            t.render(&[vars("it's done")]).unwrap(),
            "notify --task '#12' --status 'in_progress' '12'"
        );
        assert_eq!(shell_quote(""), "''");
        assert_eq!(shell_quote("a\0b"), "'a\u{FFFD}b'");
        assert_eq!(shell_quote("it's"), "'it'\\''s'");
    }

    #[test]
    fn braces_that_are_not_placeholders_stay() {
        let (t, warnings) =
            Template::parse("awk '{print $1}' ${HOME}/x {titel} {id}", false).unwrap();
        assert_eq!(
            t.render(&[vars("T")]).unwrap(),
            "awk '{print $1}' ${HOME}/x {titel} '00000000-0000-4000-8000-000000000012'"
        );
        assert_eq!(warnings.len(), 1, "{warnings:?}");
        assert!(warnings[0].contains("{titel}"));
    }

    #[test]
    fn placeholders_where_quoting_does_not_hold_are_refused() {
        for (run, why) in [
            ("echo '{id}'", "quotes"),
            ("echo \"{id}\"", "quotes"),
            ("echo \"$(printf %s {id})\"", "quotes"),
            ("echo `printf %s {id}`", "backticks"),
            ("echo $(( {number} + 1 ))", "$(("),
            ("echo hi # {id}", "comment"),
            ("cat <<EOF\n{id}\nEOF", "here-document"),
            // Free text never goes into the command line, wherever it is.
            ("eval echo {title}", "\"$TASKDECK_TITLE\""),
            ("sh -c {title}", "\"$TASKDECK_TITLE\""),
            ("/bin/bash -xc {title}", "\"$TASKDECK_TITLE\""),
            ("ssh host notify {title}", "\"$TASKDECK_TITLE\""),
            ("echo {id} 'open", "not closed"),
        ] {
            let e = Template::parse(run, false).unwrap_err().to_string();
            assert!(e.contains(why), "{run:?}: {e}");
        }
        // Plain words, $( … ), here-strings, later commands, and a `#`
        // inside a word are fine.
        for run in [
            "echo {display_id}",
            "x=$(printf %s {id}); echo \"$x\"",
            "cat <<< {id}",
            "eval true; echo {id}",
            "echo a\\ {id}",
            "echo a#{id}",
            "printf '%s\\n' {id} >> ~/ids.txt",
            // The example of docs/custom-commands.md.
            "printf \"%s %s: %s\\n\" \"$(date +%F)\" {display_id} \"$TASKDECK_TITLE\" >> ~/journal.txt",
        ] {
            assert!(Template::parse(run, false).is_ok(), "{run:?}");
        }
    }

    #[test]
    fn once_takes_every_id() {
        assert!(Template::parse("echo {id}", true)
            .unwrap_err()
            .to_string()
            .contains("{ids}"));
        let t = Template::parse("mark-done {ids}", true).unwrap().0;
        let mut b = vars("B");
        b.id = "b-id".into();
        assert_eq!(
            t.render(&[vars("A"), b.clone()]).unwrap(),
            "mark-done '00000000-0000-4000-8000-000000000012' 'b-id'"
        );
        // One id that is not plain refuses the run for all of them.
        b.id = "b'id".into();
        let e = t.render(&[vars("A"), b]).unwrap_err();
        assert!(e.contains("{id}") && e.contains("TASKDECK_ID"), "{e}");
    }

    /// Every free-text placeholder of an old config: refused with what to
    /// write instead, and not as an ordinary error (the config keeps
    /// working; only this command is left out).
    #[test]
    fn free_text_placeholders_say_which_variable_to_use() {
        for f in FIELDS.iter().filter(|f| !f.plain) {
            let run = format!("notify {{{}}}", f.name);
            match Template::parse(&run, false) {
                Err(Refused::Moved(m)) => {
                    let want = format!(
                        "use \"${}\" in the command instead of {{{}}}",
                        env_name(f.name),
                        f.name
                    );
                    assert!(m.contains(&want), "{m}");
                }
                other => panic!("{run}: {other:?}"),
            }
        }
        assert!(matches!(
            Template::parse("notify {title}", true),
            Err(Refused::Moved(_))
        ));
    }

    /// A plain placeholder whose value from the service is not plain is
    /// refused when the command runs: the value is never passed.
    #[test]
    fn a_value_that_is_not_plain_refuses_the_run() {
        let t = ok("sh -c {display_id}");
        for hostile in ["#1; touch x", "$(touch x)", "#1 2", "'", "-rf", "a\nb"] {
            let mut v = vars("T");
            v.display_id = hostile.into();
            let e = t.render(&[v]).unwrap_err();
            assert!(e.contains("{display_id}"), "{e}");
            assert!(e.contains("\"$TASKDECK_DISPLAY_ID\""), "{e}");
            assert!(!e.contains('\n'), "one line: {e}");
        }
        let mut v = vars("T");
        v.status = "in progress; reboot".into();
        assert!(ok("notify {status}").render(&[v]).is_err());
    }

    /// Hostile titles reach the command exactly as written, as data, through
    /// `$TASKDECK_TITLE`: the shell itself prints them back.
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
        let t = ok("printf '%s' \"$TASKDECK_TITLE\"");
        for title in hostile {
            let v = vars(&title);
            let script = t.render(std::slice::from_ref(&v)).unwrap();
            let out = std::process::Command::new("sh")
                .arg("-c")
                .arg(&script)
                .envs(super::super::vars::env(&[v], false))
                .current_dir(dir.path())
                .output()
                .unwrap();
            assert!(out.status.success(), "{script}");
            // Exactly the title (a line break is a control character: a
            // space).
            let want = super::super::vars::env_value(&title, false);
            assert_eq!(String::from_utf8_lossy(&out.stdout), want, "{script}");
            assert!(!canary.exists(), "ran: {title}");
        }
    }
}
