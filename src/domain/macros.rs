//! Macros (`[[macros]]`, issue 44): a reply, a comment, field changes and
//! reminders run in one go. This is their data as the config file gives
//! it, the template rule for `reply` and `comment`, and the check that
//! refuses a macro before it is ever offered. Every step is read by the
//! one reader of its kind: status and priority as `:status`/`:priority`
//! take them (`filters`), `due` by the one time grammar (`dates`),
//! `follow_up` and `snooze` as their commands read them (`later`), tags as
//! `:tags` reads them; `assign` goes through the one name matcher when it
//! runs (the people known then).

use jiff::Timestamp;

/// One macro as written in the config file. Every step is optional.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Macro {
    /// `:macro NAME`: one word.
    pub name: String,
    /// A key that runs it where a task is current (optional).
    pub key: Option<String>,
    /// Shown in the picker, help and the palette.
    pub description: String,
    /// A reply to the requester thread (a template: `{requester}`…).
    pub reply: Option<String>,
    /// An internal comment (a template).
    pub comment: Option<String>,
    /// A status, as `:status` takes it (`waiting_on_external`, `waiting`).
    pub status: Option<String>,
    /// A priority, as `:priority` takes it.
    pub priority: Option<String>,
    /// A due date in the one time grammar (`fri 17:00`, `+3d`, `none`).
    pub due: Option<String>,
    /// Tags as `:tags` takes them: `["+a", "-b"]` adds and removes,
    /// `["a", "b"]` replaces.
    pub tags: Vec<String>,
    /// `me`, a name or an e-mail: read by the one name matcher when run.
    pub assign: Option<String>,
    /// A follow-up, as `:follow-up` takes it (`in 3 days`, `fri`).
    pub follow_up: Option<String>,
    /// A snooze, as `:snooze` takes it (`tomorrow 9:00`).
    pub snooze: Option<String>,
}

/// The variables a template may name, in the order docs list them.
pub const VARIABLES: &[(&str, &str)] = &[
    ("number", "the task number, #12"),
    ("title", "the title"),
    (
        "requester",
        "the requester thread's sender, else the task's creator",
    ),
    ("assignee", "the assignee's name (empty when none)"),
    ("me", "your name, as the service knows it"),
    ("due", "the due date, local (empty when none)"),
];

/// One task's values for a template, as the service sent them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Vars {
    pub number: String,
    pub title: String,
    pub requester: String,
    pub assignee: String,
    pub me: String,
    pub due: String,
}

impl Vars {
    fn get(&self, name: &str) -> Option<&str> {
        Some(match name {
            "number" => &self.number,
            "title" => &self.title,
            "requester" => &self.requester,
            "assignee" => &self.assignee,
            "me" => &self.me,
            "due" => &self.due,
            _ => return None,
        })
    }
}

/// A piece of a template: text as written, or a variable.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Piece<'a> {
    Text(&'a str),
    Var(&'a str),
}

/// `{name}` is a variable; `{{` and `}}` are braces. Anything else with a
/// brace is refused, so a typo is never sent as written.
fn pieces(template: &str) -> Result<Vec<Piece<'_>>, String> {
    let mut out = Vec::new();
    let mut rest = template;
    while let Some(i) = rest.find(['{', '}']) {
        if i > 0 {
            out.push(Piece::Text(&rest[..i]));
        }
        let tail = &rest[i..];
        if let Some(after) = tail.strip_prefix("{{") {
            out.push(Piece::Text("{"));
            rest = after;
        } else if let Some(after) = tail.strip_prefix("}}") {
            out.push(Piece::Text("}"));
            rest = after;
        } else if tail.starts_with('}') {
            return Err("a lone `}` (write `}}` for a brace)".into());
        } else {
            let Some(end) = tail.find('}') else {
                return Err("a `{` without its `}` (write `{{` for a brace)".into());
            };
            let name = tail[1..end].trim();
            if !VARIABLES.iter().any(|(v, _)| *v == name) {
                return Err(format!(
                    "unknown variable {{{}}} (known: {})",
                    crate::text::clean(name),
                    VARIABLES
                        .iter()
                        .map(|(v, _)| format!("{{{v}}}"))
                        .collect::<Vec<_>>()
                        .join(", ")
                ));
            }
            out.push(Piece::Var(name));
            rest = &tail[end + 1..];
        }
    }
    if !rest.is_empty() {
        out.push(Piece::Text(rest));
    }
    Ok(out)
}

/// The template with each variable replaced by its value, in one pass: a
/// value is inserted as text (a title holding `{me}` stays `{me}`), and
/// its control characters are cleaned (the one cleaning, `text::clean`).
/// A template the check refused renders as written (never offered).
pub fn render(template: &str, vars: &Vars) -> String {
    let Ok(pieces) = pieces(template) else {
        return template.to_string();
    };
    let mut out = String::with_capacity(template.len() + 64);
    for p in pieces {
        match p {
            Piece::Text(t) => out.push_str(t),
            Piece::Var(v) => out.push_str(&crate::text::clean(vars.get(v).unwrap_or(""))),
        }
    }
    out
}

/// The tags as `:tags` reads them.
pub fn tags_arg(tags: &[String]) -> String {
    tags.join(" ")
}

/// What is wrong with a macro, one line each (empty: it may be offered).
/// `now` dates the phrases (`fri` is read, never kept).
pub fn faults(m: &Macro, now: Timestamp) -> Vec<String> {
    let mut out = Vec::new();
    let mut bad = |what: &str, e: String| out.push(format!("`{what}`: {e}"));
    for (what, t) in [("reply", &m.reply), ("comment", &m.comment)] {
        if let Some(t) = t {
            if t.trim().is_empty() {
                bad(what, "is empty".into());
            } else if let Err(e) = pieces(t) {
                bad(what, e);
            }
        }
    }
    if let Some(s) = &m.status {
        if let Err(e) = crate::domain::filters::status_value(s) {
            bad("status", e);
        }
    }
    if let Some(p) = &m.priority {
        if let Err(e) = crate::domain::filters::priority_value(p) {
            bad("priority", e);
        }
    }
    if let Some(d) = &m.due {
        if let Err(e) = crate::domain::dates::parse_due(d, now) {
            bad("due", e);
        }
    }
    if !m.tags.is_empty() {
        if let Err(e) = crate::domain::filters::tag_edit(&tags_arg(&m.tags)) {
            bad("tags", e);
        }
    }
    if let Some(a) = &m.assign {
        if a.trim().is_empty() {
            bad("assign", "is empty: me, a name or an e-mail".into());
        }
    }
    for (what, p) in [("follow_up", &m.follow_up), ("snooze", &m.snooze)] {
        if let Some(p) = p {
            if let Err(e) = crate::domain::later::parse_later(p, now) {
                bad(what, e);
            }
        }
    }
    if m.is_empty() {
        out.push(
            "has no step (reply, comment, status, priority, due, tags, assign, follow_up, snooze)"
                .into(),
        );
    }
    out
}

impl Macro {
    /// No step at all.
    pub fn is_empty(&self) -> bool {
        self.reply.is_none()
            && self.comment.is_none()
            && self.status.is_none()
            && self.priority.is_none()
            && self.due.is_none()
            && self.tags.is_empty()
            && self.assign.is_none()
            && self.follow_up.is_none()
            && self.snooze.is_none()
    }
}

/// One task of a macro run as it ended: each step, in order, with what
/// became of it (`taskdeck macro --json`).
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct MacroTask {
    /// `#12`.
    pub task: String,
    pub task_id: String,
    pub steps: Vec<MacroStep>,
}

#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct MacroStep {
    /// `reply`, `comment`, a field's name (`status`, `tags`…), `follow_up`
    /// or `snooze`.
    pub step: String,
    /// `done`; `queued` (a field change waiting in the outbox: the service
    /// could not be reached); `not_sent` (a reply or comment the service
    /// could not be reached for: kept as the task's draft); `failed`
    /// (with `reason`); `unknown` (the connection broke: it may have
    /// arrived, never sent again); `not_run`.
    pub outcome: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// The reply's delivery as the service said it: `Sent` or `DRAFT`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub delivery_status: Option<&'static str>,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vars() -> Vars {
        Vars {
            number: "#12".into(),
            title: "Contract {me} \u{1b}[31mred".into(),
            requester: "Ada".into(),
            me: "Sam".into(),
            ..Default::default()
        }
    }

    #[test]
    fn variables_are_replaced_once_and_service_text_stays_text() {
        let out = render(
            "Hello {requester}, {title} ({number}) {{x}} — {me}",
            &vars(),
        );
        assert_eq!(
            out,
            "Hello Ada, Contract {me} \u{241b}[31mred (#12) {x} — Sam"
        );
        assert!(!out.contains('\u{1b}'));
    }

    #[test]
    fn a_macro_with_faults_names_each() {
        let now = Timestamp::now();
        let m = Macro {
            name: "x".into(),
            reply: Some("Hi {requestor}".into()),
            status: Some("frobbed".into()),
            priority: Some("hig".into()),
            due: Some("someday".into()),
            follow_up: Some("whenever".into()),
            snooze: Some("tomorrow 9:00".into()),
            tags: vec!["+a".into(), "b".into()],
            ..Default::default()
        };
        let f = faults(&m, now);
        let has = |s: &str| f.iter().any(|l| l.starts_with(s));
        assert!(has("`reply`: unknown variable {requestor}"), "{f:?}");
        assert!(has("`status`"), "{f:?}");
        assert!(has("`due`"), "{f:?}");
        assert!(has("`follow_up`"), "{f:?}");
        assert!(has("`tags`"), "{f:?}");
        assert!(!has("`snooze`"), "{f:?}");
        assert!(!has("`priority`"), "a unique beginning is read: {f:?}");
        let ok = Macro {
            name: "ok".into(),
            reply: Some("Hello {requester}, {title} ({number})?".into()),
            status: Some("waiting_on_external".into()),
            due: Some("fri 17:00".into()),
            tags: vec!["+awaiting-signature".into(), "-new".into()],
            follow_up: Some("in 3 days".into()),
            ..Default::default()
        };
        assert_eq!(faults(&ok, now), Vec::<String>::new());
        assert!(!faults(&Macro::default(), now).is_empty());
    }
}
