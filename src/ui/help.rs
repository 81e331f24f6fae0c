//! The help screen's rows (`?`), generated from the effective keymap,
//! the views (with their tab keys), the custom commands, the macros and the palette
//! commands.

use crate::app::keymap::Context;
use crate::app::state::command;
use crate::app::state::State;

/// How the popups are used (their keys), for the help screen.
pub const POPUP_HELP: &[&str] = &[
    "In any popup: ctrl-c closes it (q quits only from the main screen); the other popup keys are listed above and remappable, but for the help screen's, search's and the composer's (read in code: every letter types there)",
];

/// The mouse (`mouse = true`) and accessible mode, for the help screen:
/// (key, description), laid out as the keymap's rows are.
pub const MOUSE_HELP: &[(&str, &str)] = &[
    ("click", "a list row, a board card, an inbox item or a picker's candidate: make it current; a tab: switch to it; a pane: focus it"),
    ("double click", "open what was clicked (the task's detail, the inbox item, the candidate)"),
    ("wheel", "scroll the pane under the pointer (the detail its text, the list its cursor, a popup its choice)"),
    ("shift-drag", "select text with the terminal while the mouse is captured (most terminals; alt-drag in some)"),
    ("accessible mode", "accessible = true, --accessible or TASKDECK_ACCESSIBLE=1: the cursor on the focus, no box drawing, > on the current row, [Tab] for the active tab"),
];

/// The width of the help screen's key column: a key's row is two
/// spaces, the key padded to this many columns, a space, its description.
pub const KEY_COLUMN: usize = 16;

/// One row of the help screen, as data: the text is laid out from it
/// (`line`) and a row too long goes on under its description (`hang`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HelpRow {
    /// A section's heading, flush left.
    Heading(String),
    /// A key (possibly none: a macro without one) and what it does.
    Keyed { key: String, text: String },
    /// Any other row, two columns in.
    Plain(String),
}

impl HelpRow {
    fn keyed(key: impl Into<String>, text: impl Into<String>) -> Self {
        HelpRow::Keyed {
            key: key.into(),
            text: text.into(),
        }
    }

    /// The row as the help screen shows it.
    pub fn line(&self) -> String {
        match self {
            HelpRow::Heading(h) => h.clone(),
            HelpRow::Keyed { key, text } => format!("  {key:<KEY_COLUMN$} {text}"),
            HelpRow::Plain(t) => format!("  {t}"),
        }
    }

    /// Where the row goes on when wrapped: under its description for a
    /// key's row (past a key longer than the column), two columns further
    /// in than the row for the others; at the frame's edge when that would
    /// leave less than half of `width`.
    pub fn hang(&self, width: usize) -> usize {
        let hang = match self {
            HelpRow::Heading(_) => 2,
            HelpRow::Keyed { key, .. } => 2 + key.chars().count().max(KEY_COLUMN) + 1,
            HelpRow::Plain(_) => 4,
        };
        if hang * 2 > width {
            0
        } else {
            hang
        }
    }
}

/// What the marks on the list's rows say.
pub const ROW_MARKS: &[&str] = &[
    "…  a change to this task is being sent",
    "*  changed on the service since the last refresh, or since you last opened it (:changed lists them)",
    "·  not checked by a recent refresh (a long list's rows far from the screen): asked again when it comes into view; r reloads every row",
    "●  marked for a bulk edit (✗ its last bulk edit failed)",
    "»  in your inbox: something about it needs you (i lists why)",
    "!  overdue (the due column, the board's cards, the detail's due line); the board's ↑↑ urgent, ↑ high",
];

/// The help screen's rows as text (`help_rows`, laid out).
pub fn help_lines(s: &State, filter: &str) -> Vec<String> {
    help_rows(s, filter).iter().map(HelpRow::line).collect()
}

/// The help screen's rows, from the effective keymap, the views, the
/// custom commands and the palette commands. Typing filters fuzzily: the
/// best matches first.
pub fn help_rows(s: &State, filter: &str) -> Vec<HelpRow> {
    let ctx_name = |ctx: Context| match ctx {
        Context::Global => "Everywhere",
        Context::List => "Task list",
        Context::Detail => "Task detail",
        Context::Task => "On the current task",
        Context::Palette => "In the command palette",
        Context::Confirm => "In confirmations",
        Context::Picker => "In pickers",
        Context::View => "In text views (messages, layout check, command output)",
        Context::Sharing => "In the sharing editor",
        Context::Filter => "In the filter form",
        Context::Board => "On the board (b)",
        Context::Switcher => "In the view switcher (0)",
        Context::Inbox => "In the inbox (i)",
        Context::Conflict => "In a queued edit three ways (:outbox, enter)",
    };
    // (heading, row): a heading is shown once before its rows.
    let mut rows: Vec<(String, HelpRow)> = Vec::new();
    for (ctx, keys, action) in s.keymap.bindings() {
        rows.push((
            ctx_name(ctx).to_string(),
            HelpRow::keyed(
                keys.join(", "),
                format!("{} ({})", action.description(), action.name()),
            ),
        ));
    }
    for (i, v) in s.views.list.iter().enumerate() {
        let key = s.tab_key(i).unwrap_or_default();
        let filter = if v.filter.is_empty() {
            "every task".to_string()
        } else {
            crate::text::clean(&v.filter)
        };
        rows.push((
            "Views: tabs over the list; 1-9 the Nth tab unless a view's key; :view NAME; 0 counts"
                .into(),
            HelpRow::keyed(
                key,
                format!("view {}: {filter}", crate::text::clean(&v.name)),
            ),
        ));
    }
    for c in &s.custom.commands {
        let key = c.key.map(|k| k.label()).unwrap_or_default();
        let how = match (c.once, c.interactive) {
            (true, true) => ", once for all, with the terminal",
            (true, false) => ", once for all",
            (false, true) => ", with the terminal",
            (false, false) => "",
        };
        rows.push((
            "Custom commands ([[commands]]; :run NAME)".into(),
            HelpRow::keyed(
                key,
                format!(
                    "{} (:run {}{how}) — {}",
                    crate::text::clean(&c.description),
                    crate::text::clean(&c.name),
                    crate::text::clean(&c.run)
                ),
            ),
        ));
    }
    for m in &s.macros {
        rows.push((
            "Macros ([[macros]]; :macro NAME; a review first, y runs it)".into(),
            HelpRow::keyed(
                crate::text::clean(m.key.as_deref().unwrap_or_default()),
                format!(
                    "{} (:macro {})",
                    crate::text::clean(&m.description),
                    crate::text::clean(&m.name)
                ),
            ),
        ));
    }
    for c in command::COMMANDS {
        rows.push((
            "Commands (: palette, Tab completes)".into(),
            HelpRow::Plain(format!(":{} {}  — {}", c.name, c.args, c.help)),
        ));
    }
    // The popups that read their keys in code: from their tables.
    use crate::ui::hints::Fixed;
    for (what, fixed, after) in [
        ("In the help screen (?)", Fixed::Help, ""),
        ("In search (/)", Fixed::Search, ""),
        (
            "In the composer",
            Fixed::Compose,
            " (after @name, tab completes the person)",
        ),
    ] {
        rows.push((
            "In popups".into(),
            HelpRow::Plain(format!("{what}: {}{after}", fixed.line(" · "))),
        ));
    }
    for l in POPUP_HELP {
        rows.push(("In popups".into(), HelpRow::Plain(l.to_string())));
    }
    for (key, text) in MOUSE_HELP {
        rows.push((
            "Mouse (mouse = true) and accessible mode".into(),
            HelpRow::keyed(*key, *text),
        ));
    }
    for l in ROW_MARKS {
        rows.push((
            "Marks on the list's rows".into(),
            HelpRow::Plain(l.to_string()),
        ));
    }
    if !filter.trim().is_empty() {
        let lines: Vec<String> = rows.iter().map(|(_, r)| r.line()).collect();
        let texts: Vec<&str> = lines.iter().map(String::as_str).collect();
        return crate::domain::fuzzy::rank(filter, &texts)
            .into_iter()
            .map(|i| rows[i].1.clone())
            .collect();
    }
    let mut out = Vec::new();
    let mut last: Option<&str> = None;
    for (heading, row) in &rows {
        if last != Some(heading.as_str()) {
            out.push(HelpRow::Heading(heading.clone()));
            last = Some(heading);
        }
        out.push(row.clone());
    }
    out
}
