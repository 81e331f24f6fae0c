//! Rendering. Panes read the state; they never call the network.

mod board;
mod chooser;
mod clear;
mod detail;
pub mod fuzzing;
mod help;
mod inbox;
mod list;
pub mod markdown;
mod metrics;
mod overlays;
mod theme;
pub mod wrap;

pub use detail::header as detail_header;
pub use help::help_lines;
pub use list::title_line as list_title;
pub use metrics::Metrics;
pub use theme::{parse_style, Theme};

#[cfg(test)]
mod tests;

use crate::app::popups::chooser::ChooserKind;
use crate::app::state::{Focus, Hit, Level, Overlay, State};
use ratatui::layout::Rect;
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;
use ratatui::Frame;

pub const MIN_WIDTH: u16 = 60;
pub const MIN_HEIGHT: u16 = 12;

const SPINNER: [&str; 4] = ["|", "/", "-", "\\"];

/// Draw a frame and keep what it measured in the state.
pub fn draw(f: &mut Frame, s: &mut State, theme: &Theme) {
    render(f, s, theme).apply(s);
}

/// Draw a frame. Reads the state, writes nothing: what it measured comes
/// back as `Metrics`.
pub fn render(f: &mut Frame, s: &State, theme: &Theme) -> Metrics {
    let mut m = Metrics::default();
    let area = f.area();
    if area.width < MIN_WIDTH || area.height < MIN_HEIGHT {
        let msg = format!(
            "Terminal too small ({}x{}); taskdeck needs at least {MIN_WIDTH}x{MIN_HEIGHT}. q quits.",
            area.width, area.height
        );
        f.render_widget(
            Paragraph::new(msg).wrap(ratatui::widgets::Wrap { trim: true }),
            area,
        );
        return m;
    }
    let p = crate::app::dispatch::layout::panes(area, s);
    draw_header(f, p.header, s, theme);
    list::draw_tabs(f, p.tabs, s, theme, &mut m);
    if s.board.is_some() {
        // The board takes the list's and the detail's place.
        let top = p.tabs.bottom();
        let body = Rect::new(area.x, top, area.width, p.status.y.saturating_sub(top));
        board::draw(f, body, s, theme, &mut m);
    } else if let Some(r) = p.list {
        m.hit(r, Hit::Pane(Focus::List));
        m.list = Some(list::draw(f, r, s, theme, &mut m));
    }
    if let Some(r) = p.detail.filter(|_| s.board.is_none()) {
        m.hit(r, Hit::Pane(Focus::Detail));
        // Scrolling stops at the end of what the tab shows.
        m.detail = Some(detail::draw(f, r, s, theme, &mut m));
    }
    draw_status(f, p.status, s, theme);
    draw_hints(f, p.hints, s, theme);
    overlays::draw(f, area, s, theme, &mut m);
    // Shown where a screen reader or a braille display should read, and
    // under a text input's caret; placed hidden otherwise (by the loop).
    if let Some(at) = m.cursor.filter(|at| area.contains(*at)) {
        if m.caret || theme.accessible {
            f.set_cursor_position(at);
        }
    } else {
        m.cursor = None;
    }
    m
}

/// The focused pane's keys, from the effective keymap, as many as fit in
/// `width` columns (help first).
pub fn hint_text(s: &State, width: usize) -> String {
    use crate::app::keymap::Action as A;
    // A popup's own keys while it is open.
    let popup = match &s.overlay {
        Overlay::None => None,
        Overlay::Help { .. } => Some("[help] type to filter  up/down scroll  esc close"),
        Overlay::Palette(_) => Some("[command] tab complete  up/down choose  enter run  esc cancel"),
        Overlay::Search(_) => Some("[search] type to narrow  enter keep  esc restore the list"),
        Overlay::Confirm { .. } => Some("[confirm] y yes  n/esc no"),
        Overlay::Compose(_) => {
            Some("[compose] ctrl-s send  ctrl-e $EDITOR  tab file ids  esc close (draft kept)")
        }
        Overlay::Text { .. } => Some("[view] j/k scroll  g/G top/bottom  esc close"),
        Overlay::Picker(_) => Some("[pick] j/k move  enter choose  esc cancel"),
        Overlay::Chooser(c) => Some(match c.kind {
            ChooserKind::Outbox => {
                "[outbox] j/k move  x cancel the edit  enter send one that waits  esc close"
            }
            ChooserKind::Drafts => {
                "[drafts] j/k move  a accept  d reject (y confirms)  enter open  esc close"
            }
            ChooserKind::LinkTask => {
                "[link] type #N or words  up/down move  enter link the > row  esc cancel"
            }
            ChooserKind::Attach => "[attach] j/k move  enter attach this file  esc cancel",
            ChooserKind::Snoozed => "[snoozed] j/k move  enter open  x cancel  esc close",
            ChooserKind::Recent | ChooserKind::Changed => "[tasks] j/k move  enter open  esc close",
        }),
        Overlay::Sharing(_) => Some(
            "[sharing] j/k move  v visibility  space read/write  a person  t team  d remove  enter review",
        ),
        Overlay::Filter(_) => {
            Some("[filter] up/down move  space toggle  left/right priority  ctrl-r clear  enter apply")
        }
        Overlay::Views(_) => Some("[views] j/k move  enter switch  esc close"),
        Overlay::Conflict(_) => {
            Some("[conflict] j/k move  m keep mine  t take theirs  enter send what is kept  esc back")
        }
        Overlay::Inbox(_) => Some(
            "[inbox] j/k move  enter open  d done  u undo  s snooze  f follow-up  a all  r now  esc close",
        ),
    };
    if let Some(p) = popup {
        return format!(
            " {}",
            p.chars().take(width.saturating_sub(1)).collect::<String>()
        );
    }
    if s.welcome {
        if let Some(w) = welcome_text(s, width) {
            return w;
        }
    }
    let hint = |a, label: &str| s.keymap.key_for(a).map(|k| format!("{k} {label}"));
    let board: &[(A, &str)] = &[
        (A::ColumnRight, "column"),
        (A::Down, "card"),
        (A::MoveRight, "next status"),
        (A::MoveLeft, "previous status"),
        (A::Open, "detail"),
        (A::SetStatus, "status"),
        (A::Board, "list"),
        (A::Views, "views"),
    ];
    let actions: &[(A, &str)] = match s.focus {
        _ if s.board.is_some() => board,
        // With marks: what marks do, and that actions act on all of them.
        Focus::List if !s.marks.is_empty() => &[
            (A::Palette, "command all marked"),
            (A::ToggleMark, "mark"),
            (A::MarkRange, "range"),
            (A::MarkAll, "all"),
            (A::ClearMarks, "clear marks"),
            (A::SetStatus, "status"),
            (A::Undo, "undo"),
        ],
        Focus::List => &[
            (A::Palette, "commands"),
            (A::Search, "search"),
            (A::Down, "down"),
            (A::Up, "up"),
            (A::Open, "detail"),
            (A::SetStatus, "status"),
            (A::Comment, "comment"),
            (A::Filter, "filter"),
            (A::Zoom, "zoom"),
        ],
        Focus::Detail => &[
            (A::Palette, "commands"),
            (A::Back, "list"),
            (A::NextTab, "next tab"),
            (A::Down, "down"),
            (A::Open, "open"),
            (A::Comment, "comment"),
            (A::ReplyRequester, "reply"),
            (A::HistoryBack, "back"),
            (A::Zoom, "zoom"),
        ],
    };
    let pane = match s.focus {
        _ if s.board.is_some() => "board",
        Focus::List => "list",
        Focus::Detail => "detail",
    };
    // Where help is and how to leave always fit (issue 34 §6): help
    // first, quit last, the pane's keys between them as room allows.
    let mut out = format!(" [{pane}]");
    let help = hint(A::Help, "help");
    let quit = hint(A::Quit, "quit");
    let room = width.saturating_sub(quit.as_ref().map_or(0, |q| 2 + q.chars().count()));
    let parts = help
        .into_iter()
        .chain(actions.iter().filter_map(|(a, label)| hint(*a, label)));
    for part in parts {
        if out.chars().count() + 2 + part.chars().count() > room {
            break;
        }
        out.push_str("  ");
        out.push_str(&part);
    }
    if let Some(q) = quit {
        out.push_str("  ");
        out.push_str(&q);
    }
    out
}

/// The first start's line: where help is and how to leave, in the keys in
/// effect; `None` when either is unbound.
fn welcome_text(s: &State, width: usize) -> Option<String> {
    use crate::app::keymap::Action as A;
    let help = s.keymap.key_for(A::Help)?;
    let quit = s.keymap.key_for(A::Quit)?;
    let palette = s
        .keymap
        .key_for(A::Palette)
        .map(|k| format!(", {k} for commands"))
        .unwrap_or_default();
    // The demo keeps nothing between runs: its hint shows at every start,
    // and says so rather than claim "once".
    let (once, short_once) = if s.demo {
        ("shown at each demo start", "each demo start")
    } else {
        ("this hint shows once", "shown once")
    };
    let long = format!(" New here? Press {help} for help{palette}, {quit} to quit ({once})");
    let short = format!(" New here? {help} help, {quit} quit ({short_once})");
    Some(if long.chars().count() <= width {
        long
    } else {
        short
    })
}

fn draw_hints(f: &mut Frame, area: Rect, s: &State, theme: &Theme) {
    let text = hint_text(s, area.width as usize);
    // The first start's hint stands out; the usual key line is dim.
    let style = if s.welcome && matches!(s.overlay, Overlay::None) {
        theme.accent.add_modifier(Modifier::BOLD)
    } else {
        theme.dim
    };
    f.render_widget(Paragraph::new(Line::from(Span::styled(text, style))), area);
}

fn draw_header(f: &mut Frame, area: Rect, s: &State, theme: &Theme) {
    let mut spans = vec![Span::styled(
        " taskdeck ",
        theme.accent.add_modifier(Modifier::BOLD),
    )];
    if s.demo {
        spans.push(Span::styled(" DEMO ", theme.badge));
        spans.push(Span::raw(" "));
    }
    match (&s.me, &s.me_error) {
        (Some(me), _) => {
            spans.push(Span::styled(
                me.user_name.line().into_owned(),
                theme.base.add_modifier(Modifier::BOLD),
            ));
            spans.push(Span::styled(
                format!(" @ {}", me.customer_name.line()),
                theme.base,
            ));
        }
        (None, Some(_)) => spans.push(Span::styled("identity unknown (see :log)", theme.error)),
        (None, None) => spans.push(Span::styled("identifying…", theme.dim)),
    }
    // Edits made as another user wait in their store: in view, next to
    // the name they are not sent under.
    if let Some(w) = s.away_words() {
        spans.push(Span::styled(
            format!("  {w}"),
            theme.warn.add_modifier(Modifier::BOLD),
        ));
    }
    spans.push(Span::styled(
        match &s.profile {
            Some(p) => format!(
                "  [{} · profile {}]",
                crate::text::clean(&s.host),
                crate::text::clean(p)
            ),
            None => format!("  [{}]", crate::text::clean(&s.host)),
        },
        theme.dim,
    ));
    if let Some(o) = &s.offline {
        // No clock in accessible mode: the countdown is left out.
        let retry = s
            .offline_retry_in(std::time::Instant::now())
            .filter(|_| !theme.accessible)
            .map(|n| format!(" — retrying in {n}s"))
            .unwrap_or_default();
        spans.push(Span::styled("  ", theme.base));
        spans.push(Span::styled(
            format!(
                " OFFLINE since {}{retry} ",
                crate::domain::dates::local_time(o.since)
            ),
            theme
                .error
                .add_modifier(Modifier::REVERSED | Modifier::BOLD),
        ));
    }
    if s.local.busy {
        spans.push(Span::styled(
            "  store busy — retrying",
            theme.warn.add_modifier(Modifier::BOLD),
        ));
    }
    if s.inbox.count() > 0 {
        spans.push(Span::styled(
            format!("  inbox {}", s.inbox.count()),
            theme.accent.add_modifier(Modifier::BOLD),
        ));
    }
    if !s.outbox.is_empty() {
        spans.push(Span::styled(
            format!("  outbox {}", s.outbox.len()),
            theme.warn.add_modifier(Modifier::BOLD),
        ));
        // Edits the store could not keep: lost at quit, so always in view.
        let lost = s
            .outbox
            .iter()
            .filter(|i| matches!(i.kept, crate::app::local::outbox::Kept::Not(_)))
            .count();
        if lost > 0 {
            spans.push(Span::styled(
                format!(" ({lost} NOT KEPT)"),
                theme
                    .error
                    .add_modifier(Modifier::REVERSED | Modifier::BOLD),
            ));
        }
    }
    // Accessible mode counts what the user asked for: a background check
    // that changes nothing draws nothing.
    let n = s
        .inflight
        .values()
        .filter(|(what, _)| !(theme.accessible && what.starts_with(crate::app::state::CHECKING)))
        .count();
    if n > 0 {
        // Accessible mode: a still word, nothing that turns.
        let turn = if theme.accessible {
            "loading"
        } else {
            SPINNER[s.spinner % 4]
        };
        spans.push(Span::styled(
            format!("  {turn} {n} request{}", if n == 1 { "" } else { "s" }),
            theme.pending,
        ));
    }
    // The count of marked tasks is always in view, whatever pane shows.
    if let Some(m) = s.marks_text() {
        spans.push(Span::styled(
            format!("  [{m}]"),
            theme.accent.add_modifier(Modifier::BOLD),
        ));
    }
    f.render_widget(Paragraph::new(Line::from(spans)), area);
}

fn draw_status(f: &mut Frame, area: Rect, s: &State, theme: &Theme) {
    let line = match &s.status {
        Some((level, text, _)) => {
            let (style, mark) = match level {
                Level::Error => (theme.error, "ERROR: "),
                // A word, not `!`: `!` means overdue on this screen.
                Level::Warn => (theme.warn, "warning: "),
                Level::Success => (theme.success, "ok: "),
                Level::Info => (theme.base, ""),
            };
            Line::from(vec![Span::styled(format!(" {mark}{text}"), style)])
        }
        None => Line::raw(""),
    };
    f.render_widget(Paragraph::new(line), area);
}
