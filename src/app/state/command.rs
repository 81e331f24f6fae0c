//! The one vocabulary of actions: typed commands. Palette text parses into
//! a `Command`, keys produce them, and the table below generates palette
//! completion and the help screen's command list. The handler
//! (`commands.rs`) is an exhaustive `match`: a command without a handler
//! does not compile.

use crate::api::{AccessLevel, Field, LinkRole, LinkType, Priority, Status};

#[derive(Clone, Debug, PartialEq)]
pub enum TextEdit {
    /// Edit in the TUI's composer.
    Here,
    /// Edit in `$EDITOR`.
    Editor,
    Clear,
}

/// Who `:share add` / `:share team` gives access to.
#[derive(Clone, Debug, PartialEq)]
pub struct ShareAdd {
    pub team: bool,
    /// As typed: a name, an e-mail or an id.
    pub who: String,
    pub access: AccessLevel,
}

impl ShareAdd {
    /// `add NAME [read|write]` or `team NAME [read|write]`.
    pub fn parse(arg: &str) -> Result<ShareAdd, String> {
        let (kind, rest) = arg.trim().split_once(' ').unwrap_or((arg.trim(), ""));
        let team = match kind {
            "add" | "person" | "+" => false,
            "team" => true,
            _ => {
                return Err(
                    "use :share (the editor), :share add PERSON [read|write] or :share team TEAM [read|write]"
                        .into(),
                )
            }
        };
        let rest = rest.trim();
        let (who, access) = match rest.rsplit_once(' ') {
            Some((w, "write")) => (w, AccessLevel::Write),
            Some((w, "read")) => (w, AccessLevel::Read),
            _ => (rest, AccessLevel::Read),
        };
        if who.trim().is_empty() {
            return Err(format!(
                "give the {} to share with",
                if team { "team" } else { "person" }
            ));
        }
        Ok(ShareAdd {
            team,
            who: who.trim().to_string(),
            access,
        })
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    Status(Status),
    Priority(Priority),
    /// A person as typed: `me`, an e-mail, a name or an id.
    Assign(String),
    Unassign,
    /// A due date as typed (`+3d`, `2026-12-01`, `none`…).
    Due(String),
    /// `a,b` replaces; `+a -b` adds and removes; `none` clears.
    Tags(String),
    Title(String),
    Description(TextEdit),
    Context(TextEdit),
    Agent(Field<String>),
    Team(Field<String>),
    Matter(Field<String>),
    Archive,
    Restore,
    /// Undo the last operation (a bulk edit is one).
    Undo,
    /// Apply again the operation undone last.
    Redo,
    /// List the operations made from taskdeck.
    History,
    Accept,
    Reject,
    Comment,
    Reply,
    /// (type, uuid or `#N` for a task) pairs.
    Link(Vec<(LinkType, String)>),
    /// `:link task [WORDS]` without an id: a picker of tasks matching WORDS.
    LinkPick(String),
    Role(LinkRole),
    Checks(Option<Vec<String>>),
    Unlink,
    Share,
    /// Give a person or a team access (`:share add …`, `:share team …`).
    ShareAdd(ShareAdd),
    Attach(Vec<String>),
    /// `:attach` without an id: a picker of the files seen on tasks.
    AttachPick,
    Detach,
    Subtask(String),
    /// Open the current subtask's parent.
    Parent,
    /// Filter words as typed (`status=a,b assigned=me …`, `clear`).
    Filter(String),
    /// A view by name as typed; empty: the switcher with counts.
    View(String),
    /// `:view save NAME`: the current filters into the config file.
    SaveView(String),
    /// A custom command (`[[commands]]`) by name.
    Run(String),
    /// The last custom command's output again.
    Output,
    /// The board (again: the list).
    Board,
    Open(String),
    Validate(String),
    Copy {
        id: bool,
    },
    Back,
    Forward,
    Zoom,
    /// Text as written / rendered Markdown.
    Raw,
    Refresh,
    /// Tasks recently opened or acted on.
    Recent,
    /// The draft tasks seen (loaded or stored), to accept or reject.
    Drafts,
    /// Loaded tasks changed since the user last opened them.
    Changed,
    /// Edits waiting for the service.
    Outbox,
    /// What needs the user, and why.
    Inbox,
    /// Hide the current task's inbox items until a time, as typed.
    /// `:macro NAME`: review, then run a macro.
    Macro(String),
    Snooze(String),
    /// Back in the inbox at a time, as typed, unless someone answers.
    FollowUp(String),
    /// The snoozes and follow-ups waiting.
    Snoozed,
    /// Switch to another configured profile.
    Profile(String),
    Log,
    Help,
    Quit,
}

/// What the palette completes an argument from.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Complete {
    Nothing,
    Values(&'static [&'static str]),
    People,
    Teams,
    /// `:share`'s `add PERSON` and `team TEAM`: the word, then people or
    /// teams as for `People` and `Teams`.
    Share,
    /// The first word of each pair is a link type.
    LinkTypes,
    /// Profile names of the config.
    Profiles,
    /// The views' names (and `save`).
    Views,
    /// The custom commands' names.
    CustomCommands,
    /// The macros' names (the palette shows each one's description).
    Macros,
    /// Filter words: the keys, then each key's values
    /// (`domain::filter_complete`).
    Filter,
}

pub struct Spec {
    pub name: &'static str,
    pub args: &'static str,
    pub help: &'static str,
    /// Acts on the current task (the palette names it, and refuses to run
    /// when the current task changed since the palette opened).
    pub task: bool,
    pub complete: Complete,
    pub parse: fn(&str) -> Result<Command, String>,
}

pub use crate::domain::filters::{priority_value, status_value, PRIORITY_VALUES, STATUS_VALUES};
pub const ROLE_VALUES: &[&str] = &["reference", "subject", "output"];
pub const LINK_TYPES: &[&str] = &["chat", "review", "report", "task"];
const DUE_WORDS: &[&str] = &["today", "tomorrow", "fri", "+1d", "+3d", "+1w", "none"];
const LATER_WORDS: &[&str] = &["1h", "3h", "tomorrow", "mon 9:00", "fri"];

fn none(arg: &str, c: Command) -> Result<Command, String> {
    if arg.is_empty() {
        Ok(c)
    } else {
        Err(format!("takes no argument (got {arg:?})"))
    }
}

fn needs<'a>(arg: &'a str, what: &str) -> Result<&'a str, String> {
    if arg.is_empty() {
        Err(format!("give {what}"))
    } else {
        Ok(arg)
    }
}

/// `none`/`clear` clear the field, anything else sets it.
fn id_or_clear(arg: &str) -> Result<Field<String>, String> {
    match arg {
        "" => Err("give an id, or none to clear".into()),
        "none" | "clear" => Ok(Field::Clear),
        id => Ok(Field::Set(id.to_string())),
    }
}

fn text_edit(arg: &str) -> Result<TextEdit, String> {
    match arg {
        "" => Ok(TextEdit::Here),
        "editor" => Ok(TextEdit::Editor),
        "clear" | "none" => Ok(TextEdit::Clear),
        other => Err(format!("{other:?}: use editor, clear, or nothing")),
    }
}

fn is_uuid(s: &str) -> bool {
    uuid::Uuid::parse_str(s).is_ok()
}

fn parse_link(arg: &str) -> Result<Command, String> {
    let words: Vec<&str> = arg.split_whitespace().collect();
    // `task` and no id (or words that are not one): pick the task.
    if words
        .first()
        .is_some_and(|w| LinkType::parse(w) == LinkType::Task)
        && words
            .get(1)
            .is_none_or(|w| !w.starts_with('#') && !is_uuid(w))
    {
        return Ok(Command::LinkPick(words[1..].join(" ")));
    }
    if words.is_empty() || words.len() % 2 != 0 {
        return Err("give TYPE UUID… (TYPE: chat, review, report or task)".into());
    }
    let mut links = Vec::new();
    for pair in words.chunks(2) {
        let kind = LinkType::parse(pair[0]);
        if !kind.is_known() {
            return Err(format!(
                "unknown link type {:?} (chat, review, report, task)",
                pair[0]
            ));
        }
        let by_number = kind == LinkType::Task && pair[1].starts_with('#');
        if !by_number && !is_uuid(pair[1]) {
            return Err(format!("{:?} is not a uuid", pair[1]));
        }
        links.push((kind, pair[1].to_string()));
    }
    Ok(Command::Link(links))
}

fn parse_checks(arg: &str) -> Result<Command, String> {
    Ok(Command::Checks(
        if arg.is_empty() || arg == "none" || arg == "clear" {
            None
        } else {
            Some(
                arg.split(',')
                    .map(|s| s.trim().to_string())
                    .filter(|s| !s.is_empty())
                    .collect(),
            )
        },
    ))
}

fn parse_attach(arg: &str) -> Result<Command, String> {
    let ids: Vec<String> = arg
        .split(|c: char| c == ',' || c.is_whitespace())
        .filter(|s| !s.is_empty())
        .map(str::to_string)
        .collect();
    if ids.is_empty() {
        return Ok(Command::AttachPick);
    }
    if let Some(bad) = ids.iter().find(|i| !is_uuid(i)) {
        return Err(format!("{bad:?} is not a file id (uuid)"));
    }
    Ok(Command::Attach(ids))
}

fn parse_view(arg: &str) -> Result<Command, String> {
    match arg.split_once(char::is_whitespace) {
        Some(("save", name)) => Ok(Command::SaveView(name.trim().to_string())),
        _ if arg == "save" => Err("give the view a name: :view save NAME".into()),
        _ => Ok(Command::View(arg.to_string())),
    }
}

macro_rules! spec {
    ($name:literal, $args:literal, $help:literal, $task:expr, $complete:expr, $parse:expr) => {
        Spec {
            name: $name,
            args: $args,
            help: $help,
            task: $task,
            complete: $complete,
            parse: $parse,
        }
    };
}

use Complete::*;

/// Every palette command: name, argument hint, description, whether it
/// acts on the current task, completion, parser. Adding a command is one
/// row here and one arm in `State::run`.
pub const COMMANDS: &[Spec] = &[
    spec!("status", "not_started|in_progress|waiting_on_external|completed", "set the status (the word shown, e.g. waiting, or a unique beginning works too)", true, Values(STATUS_VALUES), |a| {
        Ok(Command::Status(Status::parse(status_value(a)?)))
    }),
    spec!("priority", "urgent|high|medium|low|no_priority", "set the priority (a unique beginning works too)", true, Values(PRIORITY_VALUES), |a| {
        Ok(Command::Priority(Priority::parse(priority_value(a)?)))
    }),
    spec!("assign", "me|e-mail|name|id", "assign the task (several matches: pick one)", true, People, |a| Ok(Command::Assign(needs(a, "a person: me, an e-mail, a name or a user id")?.to_string()))),
    spec!("unassign", "", "remove the assignee", true, Nothing, |a| none(a, Command::Unassign)),
    spec!("due", "2026-12-01|fri 17:00|tomorrow|+3d|none", "set or clear the due date (a day alone: its end)", true, Values(DUE_WORDS), |a| Ok(Command::Due(needs(a, "a date: 2026-12-01, tomorrow 16:00, +3d or none")?.to_string()))),
    spec!("tags", "a,b | +add -remove | none", "replace, add, remove or clear tags", true, Nothing, |a| Ok(Command::Tags(needs(a, "tags: a,b sets, +a -b adds/removes, none clears")?.to_string()))),
    spec!("title", "TEXT", "set the title", true, Nothing, |a| Ok(Command::Title(needs(a, "a title (it cannot be empty)")?.to_string()))),
    spec!("description", "[editor|clear]", "edit the description here (or in $EDITOR), or clear it", true, Values(&["editor", "clear"]), |a| Ok(Command::Description(text_edit(a)?))),
    spec!("context", "[editor|clear]", "edit the additional context here (or in $EDITOR), or clear it", true, Values(&["editor", "clear"]), |a| Ok(Command::Context(text_edit(a)?))),
    spec!("agent", "ID|none", "attach or detach an agent", true, Nothing, |a| Ok(Command::Agent(id_or_clear(a)?))),
    spec!("team", "NAME|ID|none", "assign or unassign a team", true, Teams, |a| Ok(Command::Team(id_or_clear(a)?))),
    spec!("matter", "ID|none", "file under a matter, or unfile", true, Nothing, |a| Ok(Command::Matter(id_or_clear(a)?))),
    spec!("archive", "", "archive the task", true, Nothing, |a| none(a, Command::Archive)),
    spec!("restore", "", "restore an archived task", true, Nothing, |a| none(a, Command::Restore)),
    spec!("undo", "", "undo the last edit (again: the one before); a bulk edit is one", false, Nothing, |a| none(a, Command::Undo)),
    spec!("redo", "", "apply again the edit undone last", false, Nothing, |a| none(a, Command::Redo)),
    spec!("history", "", "list the edits made from taskdeck (what z and Z would do)", false, Nothing, |a| none(a, Command::History)),
    spec!("accept", "", "accept a draft task", true, Nothing, |a| none(a, Command::Accept)),
    spec!("reject", "", "reject (delete) a draft task", true, Nothing, |a| none(a, Command::Reject)),
    spec!("drafts", "", "the draft tasks seen: accept or reject one (asked first), or open it", false, Nothing, |a| none(a, Command::Drafts)),
    spec!("comment", "", "write an internal comment", true, Nothing, |a| none(a, Command::Comment)),
    spec!("reply", "", "reply to the requester", true, Nothing, |a| none(a, Command::Reply)),
    spec!("link", "chat|review|report|task UUID [TYPE UUID…] | task [#N|WORDS]", "link items to the task (task alone or task WORDS: pick the task by #N or title)", true, LinkTypes, parse_link),
    spec!("role", "reference|subject|output", "change the selected link's role", true, Values(ROLE_VALUES), |a| {
        let r = LinkRole::parse(needs(a, "a role (reference, subject, output)")?);
        if r.is_known() { Ok(Command::Role(r)) } else { Err(format!("unknown role {a:?} (reference, subject, output)")) }
    }),
    spec!("checks", "ID,ID|none", "set or clear the selected review link's check ids", true, Nothing, parse_checks),
    spec!("unlink", "", "remove the selected link", true, Nothing, |a| none(a, Command::Unlink)),
    spec!("share", "[add PERSON|team TEAM [read|write]]", "edit sharing (visibility, people, teams); add gives a person or a team access", true, Share, |a| if a.is_empty() { Ok(Command::Share) } else { ShareAdd::parse(a).map(Command::ShareAdd) }),
    spec!("attach", "[FILE_ID…]", "attach uploaded files (no id: pick from the files seen on tasks)", true, Nothing, parse_attach),
    spec!("detach", "", "detach the selected file", true, Nothing, |a| none(a, Command::Detach)),
    spec!("subtask", "TITLE", "create a subtask", true, Nothing, |a| Ok(Command::Subtask(needs(a, "the subtask's title")?.to_string()))),
    spec!("parent", "", "open the parent of the current subtask", true, Nothing, |a| none(a, Command::Parent)),
    spec!("filter", "status=a,b priority=P assigned=me|e-mail|name involving=me|e-mail|name team=NAME|ID tags=a,b from=DATE to=DATE | clear", "set the list filters (status and priority: the word shown or a unique beginning works too; Tab completes keys and values)", false, Filter, |a| {
        // Nothing typed is not "no filters": that is `filter clear`.
        Ok(Command::Filter(needs(a, "conditions, e.g. assigned=me, or `filter clear`")?.to_string()))
    }),
    spec!("view", "NAME | save NAME", "switch to a view (no name: the views with their counts); save NAME keeps the current filters as a view in the config file", false, Views, parse_view),
    spec!("board", "", "the board: the view's tasks in one column per status (again: the list)", false, Nothing, |a| none(a, Command::Board)),
    spec!("run", "NAME", "run a custom command ([[commands]] in the config) on the current task", true, CustomCommands, |a| Ok(Command::Run(needs(a, "a command's name ([[commands]] in the config)")?.to_string()))),
    spec!("macro", "NAME", "run a macro ([[macros]] in the config): a review of every step on the current or marked tasks, y runs it", true, Macros, |a| Ok(Command::Macro(needs(a, "a macro's name ([[macros]] in the config)")?.to_string()))),
    spec!("output", "", "show the last custom command's output again", false, Nothing, |a| none(a, Command::Output)),
    spec!("open", "#1234|UUID", "open a task by number or id", false, Nothing, |a| Ok(Command::Open(needs(a, "#1234 or a task uuid")?.to_string()))),
    spec!("validate", "PATH", "check an artifact layout file", false, Nothing, |a| Ok(Command::Validate(needs(a, "the path of a layout JSON file")?.to_string()))),
    spec!("copy", "[id]", "copy the task number (or id)", true, Values(&["id"]), |a| match a {
        "" => Ok(Command::Copy { id: false }),
        "id" => Ok(Command::Copy { id: true }),
        other => Err(format!("{other:?}: use :copy or :copy id")),
    }),
    spec!("back", "", "history: the task before the last jump", false, Nothing, |a| none(a, Command::Back)),
    spec!("forward", "", "history: forward again", false, Nothing, |a| none(a, Command::Forward)),
    spec!("zoom", "", "the focused pane fills the screen (again: both panes)", false, Nothing, |a| none(a, Command::Zoom)),
    spec!("raw", "", "show text as written (again: rendered Markdown)", false, Nothing, |a| none(a, Command::Raw)),
    spec!("refresh", "", "reload the list and the open task", false, Nothing, |a| none(a, Command::Refresh)),
    spec!("recent", "", "tasks you opened (enter, a jump) or acted on, drafts and archived too", false, Nothing, |a| none(a, Command::Recent)),
    spec!("changed", "", "loaded tasks changed since you last opened them", false, Nothing, |a| none(a, Command::Changed)),
    spec!("outbox", "", "edits waiting for the service (cancel, or send one that waits)", false, Nothing, |a| none(a, Command::Outbox)),
    spec!("inbox", "", "what needs you, and why: assigned, mentions, replies, changed fields, sharing, due, drafts, follow-ups (i)", false, Nothing, |a| none(a, Command::Inbox)),
    spec!("snooze", "2h|tomorrow|mon 9:00|2026-12-01", "hide the task in the inbox until then; it comes back saying so", true, Values(LATER_WORDS), |a| Ok(Command::Snooze(needs(a, "when: 2h, tomorrow, mon 9:00, 2026-12-01 14:00")?.to_string()))),
    spec!("follow-up", "fri|2d|mon 9:00", "if nobody else comments on or changes the task by then, it enters the inbox", true, Values(LATER_WORDS), |a| Ok(Command::FollowUp(needs(a, "when: fri, 2d, mon 9:00")?.to_string()))),
    spec!("snoozed", "", "snoozes and follow-ups waiting (one may be cancelled)", false, Nothing, |a| none(a, Command::Snoozed)),
    spec!("profile", "NAME", "switch to another profile of the config (its own store, drafts, outbox)", false, Profiles, |a| Ok(Command::Profile(needs(a, "a profile name from the config")?.to_string()))),
    spec!("log", "", "show recent messages", false, Nothing, |a| none(a, Command::Log)),
    spec!("help", "", "show the key bindings", false, Nothing, |a| none(a, Command::Help)),
    spec!("quit", "", "quit", false, Nothing, |a| none(a, Command::Quit)),
];

pub fn spec(name: &str) -> Option<&'static Spec> {
    let name = if name == "q" { "quit" } else { name };
    COMMANDS.iter().find(|s| s.name == name)
}

/// Split palette text into the command word and its argument.
pub fn split(line: &str) -> (&str, &str) {
    let line = line.trim().trim_start_matches(':').trim();
    line.split_once(' ')
        .map(|(c, a)| (c, a.trim()))
        .unwrap_or((line, ""))
}

impl Command {
    /// Parse palette text (`status completed`). The error names the command.
    pub fn parse(line: &str) -> Result<Command, String> {
        let (cmd, arg) = split(line);
        let spec = spec(cmd).ok_or_else(|| format!("unknown command {cmd:?} (see :help)"))?;
        (spec.parse)(arg).map_err(|e| format!(":{cmd}: {e}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_command_parses_from_its_table_row() {
        assert_eq!(
            Command::parse("status completed"),
            Ok(Command::Status(Status::Completed))
        );
        assert_eq!(Command::parse(":q"), Ok(Command::Quit));
        assert_eq!(
            Command::parse("checks a, b"),
            Ok(Command::Checks(Some(vec!["a".into(), "b".into()])))
        );
        assert_eq!(Command::parse("checks none"), Ok(Command::Checks(None)));
        assert!(Command::parse("status bogus")
            .unwrap_err()
            .contains("unknown status"));
        // The word shown, or a unique beginning, sets the service's value.
        for (typed, want) in [
            ("status waiting", Status::WaitingOnExternal),
            ("status in progress", Status::InProgress),
            ("status in_p", Status::InProgress),
            ("status comp", Status::Completed),
        ] {
            assert_eq!(Command::parse(typed), Ok(Command::Status(want)), "{typed}");
        }
        assert_eq!(
            Command::parse("priority med"),
            Ok(Command::Priority(Priority::Medium))
        );
        assert!(Command::parse("status")
            .unwrap_err()
            .contains("give a status"));
        assert!(Command::parse("priority").is_err());
        assert!(Command::parse("archive now").is_err());
        assert!(Command::parse("frobnicate")
            .unwrap_err()
            .contains("unknown command"));
        assert!(Command::parse("link review nope")
            .unwrap_err()
            .contains("uuid"));
        assert!(Command::parse("link task #12").is_ok());
        assert_eq!(
            Command::parse("view Mine, open"),
            Ok(Command::View("Mine, open".into()))
        );
        assert_eq!(Command::parse("view"), Ok(Command::View(String::new())));
        assert_eq!(
            Command::parse("view save Due today"),
            Ok(Command::SaveView("Due today".into()))
        );
        assert!(Command::parse("view save").is_err());
        assert_eq!(
            Command::parse("run log-id"),
            Ok(Command::Run("log-id".into()))
        );
        assert!(Command::parse("run").is_err());
        // Names are unique.
        let mut names: Vec<&str> = COMMANDS.iter().map(|s| s.name).collect();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), COMMANDS.len());
    }
}
