//! What the tabs share: the drawing context (`Cx`), the row and label
//! helpers, and the names they draw with. A leaf of `detail`: the tabs
//! and the frame import it, it imports none of them.

pub(super) use super::super::Theme;
pub(super) use crate::api::*;
pub(super) use crate::app::state::{Detail, Focus, Load, State};
pub(super) use crate::cut::fit;
pub(super) use crate::text::Untrusted;
pub(super) use ratatui::style::{Modifier, Style};
pub(super) use ratatui::text::{Line, Span};

/// How text written by people (descriptions, comments, messages) is shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TextMode {
    /// Markdown rendered.
    Rendered,
    /// Exactly as written (sanitised).
    Raw,
}

/// Where the detail's keys apply (the task's, the pane's, then global).
const KEYS_HERE: [crate::app::keymap::Context; 3] = [
    crate::app::keymap::Context::Task,
    crate::app::keymap::Context::Detail,
    crate::app::keymap::Context::Global,
];

/// `empty — KEY what` (a tab with nothing yet, and the key that adds
/// one), the key from the keymap in effect (issue 40 §4); `empty` alone
/// when no key runs it.
pub(super) fn empty_line(
    s: &State,
    empty: &str,
    action: crate::app::keymap::Action,
    what: &str,
) -> String {
    match s.keymap.hint_key(&KEYS_HERE, action) {
        Some(k) => format!("{empty} — {k} {what}"),
        None => empty.to_string(),
    }
}

/// A tab's key line: `KEY label` for each entry a key runs, ` · ` between.
pub(super) fn key_line(s: &State, entries: &[crate::ui::hints::HintEntry]) -> String {
    s.keymap.hints(&KEYS_HERE, entries).join(" · ")
}

/// What every tab needs to draw.
pub(super) struct Cx<'a> {
    pub s: &'a State,
    pub theme: &'a Theme,
    pub width: usize,
    pub mode: TextMode,
}

impl Cx<'_> {
    /// Text written by people, after `indent`: Markdown rendered, or as
    /// written in the raw view; `(none)` when empty.
    pub fn text(&self, t: Option<&Untrusted>, indent: &str) -> Vec<Line<'static>> {
        match t {
            Some(t) if !t.is_empty() => match self.mode {
                TextMode::Rendered => {
                    super::super::markdown::render(t, self.width, indent, self.theme)
                }
                TextMode::Raw => super::super::markdown::raw(t, indent, self.theme),
            },
            _ => vec![Line::styled(format!("{indent}(none)"), self.theme.dim)],
        }
    }
}

/// `1 file`, `2 files`, `no files`.
pub fn count(n: usize, one: &str, many: &str) -> String {
    match n {
        0 => format!("no {many}"),
        1 => format!("1 {one}"),
        n => format!("{n} {many}"),
    }
}

/// Labels are right-aligned to this width, so values line up.
pub(super) const LABEL: usize = 13;

pub(super) fn kv<'a>(k: &str, v: impl Into<String>, theme: &Theme) -> Line<'a> {
    Line::from(vec![
        Span::styled(format!("{k:>LABEL$}: "), theme.dim),
        Span::styled(v.into(), theme.base),
    ])
}

pub(super) fn pending_suffix(s: &State, t: &Task, field: &str) -> Option<String> {
    s.pending_for(&t.id, field)
        .map(|p| format!("  … saving: {}", crate::text::clean(&p.value)))
}

pub(super) fn field_line<'a>(
    k: &str,
    v: String,
    s: &State,
    t: &Task,
    field: &str,
    theme: &Theme,
    style: Style,
) -> Line<'a> {
    let mut spans = vec![
        Span::styled(format!("{k:>LABEL$}: "), theme.dim),
        Span::styled(v, style),
    ];
    if let Some(p) = pending_suffix(s, t, field) {
        spans.push(Span::styled(p, theme.pending));
    }
    // Opened from the inbox at this field: say so beside it.
    if s.detail.as_ref().and_then(|d| d.focus_field.as_deref()) == Some(field) {
        spans.push(Span::styled("  ◀ changed (inbox)", theme.warn));
    }
    Line::from(spans)
}

/// One style for every timestamp: the local time with its zone,
/// `2026-11-22 09:05 EST`.
pub(super) fn when(ts: Option<&str>) -> String {
    crate::domain::dates::when(ts)
}

pub(super) fn section<'a>(title: &str, pending: bool, theme: &Theme) -> Line<'a> {
    let mut spans = vec![Span::styled(
        title.to_string(),
        theme.accent.add_modifier(Modifier::BOLD),
    )];
    if pending {
        spans.push(Span::styled("  … saving", theme.pending));
    }
    Line::from(spans)
}

pub(super) fn person(p: &Person) -> String {
    if p.email.is_empty() {
        p.label()
    } else {
        format!("{} <{}>", p.label(), p.email.line())
    }
}

pub(super) fn row_style(selected: bool, theme: &Theme) -> Style {
    if selected {
        theme.selected
    } else {
        theme.base
    }
}

/// People as aligned rows: name, e-mail, role, access.
pub(super) fn member_rows<'a>(
    rows: &[(String, String, String, String)],
    theme: &Theme,
) -> Vec<Line<'a>> {
    let w = |f: fn(&(String, String, String, String)) -> &String| {
        rows.iter()
            .map(|r| crate::cut::width(f(r)))
            .max()
            .unwrap_or(0)
    };
    let (wn, we, wr) = (w(|r| &r.0), w(|r| &r.1), w(|r| &r.2));
    rows.iter()
        .map(|(name, email, role, access)| {
            Line::from(vec![
                Span::styled(format!("  {}", fit(name, wn)), theme.base),
                Span::styled(format!("  {}", fit(email, we)), theme.dim),
                Span::styled(format!("  {}", fit(role, wr)), theme.base),
                Span::styled(format!("  {access}"), theme.base),
            ])
        })
        .collect()
}
