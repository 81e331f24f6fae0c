//! Rendering. Panes read the state; they never call the network.

mod board;
mod chooser;
mod clear;
mod detail;
pub mod fuzzing;
mod help;
pub mod hints;
mod inbox;
mod list;
pub mod markdown;
mod metrics;
pub mod osc;
mod overlays;
mod theme;
mod typed;
pub mod wrap;

pub use detail::header as detail_header;
pub use help::help_lines;
pub use list::title_line as list_title;
pub use metrics::Metrics;
pub use theme::{luminance, parse_style, Theme};

#[cfg(test)]
mod tests;

use crate::app::keymap::Action as A;
use crate::app::state::{Focus, Hit, Level, Overlay, State};
pub use hints::{pane_keys, popup_hint, popup_keys};
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
    // Accessible mode: under a popup the panes mark no row, so the
    // popup's `>` is the one focus (issue 46 §4).
    let under;
    let panes = if theme.accessible && !matches!(s.overlay, Overlay::None) {
        under = Theme {
            under_popup: true,
            ..theme.clone()
        };
        &under
    } else {
        theme
    };
    draw_header(f, p.header, s, theme);
    list::draw_tabs(f, p.tabs, s, theme, &mut m);
    if s.board.is_some() {
        // The board takes the list's and the detail's place.
        let top = p.tabs.bottom();
        let body = Rect::new(area.x, top, area.width, p.status.y.saturating_sub(top));
        board::draw(f, body, s, panes, &mut m);
    } else if let Some(r) = p.list {
        m.hit(r, Hit::Pane(Focus::List));
        m.list = Some(list::draw(f, r, s, panes, &mut m));
    }
    if let Some(r) = p.detail.filter(|_| s.board.is_none()) {
        m.hit(r, Hit::Pane(Focus::Detail));
        // Scrolling stops at the end of what the tab shows.
        m.detail = Some(detail::draw(f, r, s, panes, &mut m));
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
    // A popup's own keys while it is open, from the keymap in effect.
    let popup = popup_hint(s);
    if let Some(p) = popup {
        return format!(" {}", hints::fit_popup_hint(&p, width.saturating_sub(1)));
    }
    if s.welcome {
        if let Some(w) = welcome_text(s, width) {
            return w;
        }
    }
    // The keys that run each action here (`Keymap::hint_key`).
    let contexts = s.key_contexts();
    let hint = |a, label: &str| {
        s.keymap
            .hint_key(contexts, a)
            .map(|k| format!("{k} {label}"))
    };
    let actions = pane_keys(s);
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
    let room = width.saturating_sub(quit.as_ref().map_or(0, |q| 2 + crate::cut::width(q)));
    let parts = help
        .into_iter()
        .chain(actions.iter().filter_map(|(a, label)| hint(*a, label)));
    for part in parts {
        if crate::cut::width(&out) + 2 + crate::cut::width(&part) > room {
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
    let contexts = s.key_contexts();
    let help = s.keymap.hint_key(contexts, A::Help)?;
    let quit = s.keymap.hint_key(contexts, A::Quit)?;
    let palette = s
        .keymap
        .hint_key(contexts, A::Palette)
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
    Some(if crate::cut::width(&long) <= width {
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
    // The names (who, where) give way to the counts after them: the
    // counts stay whole (issue 40 §3), the names are cut with `…`.
    let fixed: usize = spans.iter().map(|sp| sp.width()).sum();
    let mut names: Vec<Span> = Vec::new();
    match (&s.me, &s.me_error) {
        (Some(me), _) => {
            names.push(Span::styled(
                me.user_name.line().into_owned(),
                theme.base.add_modifier(Modifier::BOLD),
            ));
            names.push(Span::styled(
                format!(" @ {}", me.customer_name.line()),
                theme.base,
            ));
        }
        (None, Some(_)) => names.push(Span::styled("identity unknown (see :log)", theme.error)),
        (None, None) => names.push(Span::styled("identifying…", theme.dim)),
    }
    // Edits made as another user wait in their store: in view, next to
    // the name they are not sent under. Drafts typed as another user wait
    // in their folder: the same. (The whole sentence is on the status
    // line when it happens, and in :log.)
    let away: Vec<Span> = s
        .away_short()
        .into_iter()
        .map(|w| Span::styled(format!("  {w}"), theme.warn.add_modifier(Modifier::BOLD)))
        .collect();
    let mut counts: Vec<Span> = Vec::new();
    names.push(Span::styled(
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
            .offline_retry_in(crate::clock::instant())
            .filter(|_| !theme.accessible)
            .map(|n| format!(" — retrying in {n}s"))
            .unwrap_or_default();
        counts.push(Span::styled("  ", theme.base));
        counts.push(Span::styled(
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
        counts.push(Span::styled(
            "  store busy — retrying",
            theme.warn.add_modifier(Modifier::BOLD),
        ));
    }
    if s.inbox.count() > 0 {
        counts.push(Span::styled(
            format!("  inbox {}", s.inbox.count()),
            theme.accent.add_modifier(Modifier::BOLD),
        ));
    }
    if !s.outbox.is_empty() {
        counts.push(Span::styled(
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
            counts.push(Span::styled(
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
        counts.push(Span::styled(
            format!("  {turn} {n} request{}", if n == 1 { "" } else { "s" }),
            theme.pending,
        ));
    }
    // The count of marked tasks is always in view, whatever pane shows.
    if let Some(m) = s.marks_text() {
        counts.push(Span::styled(
            format!("  [{m}]"),
            theme.accent.add_modifier(Modifier::BOLD),
        ));
    }
    let room = (area.width as usize)
        .saturating_sub(fixed)
        .saturating_sub(counts.iter().map(|sp| sp.width()).sum());
    // Who you are stays named: what waits for another user gives way
    // before the name of the user the key acts as (it named no one at
    // 80 and 120 columns when both edits and drafts waited).
    let name = names.first().map_or(0, |sp| sp.width());
    let away = cut_spans(away, room.saturating_sub(name));
    let room = room.saturating_sub(away.iter().map(|sp| sp.width()).sum());
    spans.extend(cut_spans(names, room));
    spans.extend(away);
    spans.extend(counts);
    f.render_widget(Paragraph::new(Line::from(spans)), area);
}

/// Styled text in at most `room` columns: the spans that fit whole, then
/// the first that does not cut by [`crate::cut::cut`] (saying it cut),
/// nothing after it.
fn cut_spans(spans: Vec<Span<'_>>, room: usize) -> Vec<Span<'_>> {
    let mut left = room;
    let mut out = Vec::new();
    for sp in spans {
        let w = sp.width();
        if w <= left {
            left -= w;
            out.push(sp);
        } else {
            if left > 0 {
                out.push(Span::styled(crate::cut::cut(&sp.content, left), sp.style));
            }
            break;
        }
    }
    out
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
            // Longer than the line: cut, and the cut says so (`…`); the
            // whole message is in `:log`.
            let said = crate::cut::cut(&format!(" {mark}{text}"), usize::from(area.width));
            Line::from(vec![Span::styled(said, style)])
        }
        None => Line::raw(""),
    };
    f.render_widget(Paragraph::new(line), area);
}
