//! Popups: which one the state holds, and whose drawing it is. One line
//! per overlay, handing over to its file (helix's command table, gitui's
//! per-component drawing): the pages (help, text), the prompts (palette,
//! search), the questions (confirm, picker), the composer, the sharing
//! editor, the filter form, the view switcher; the choosers and the
//! inbox's popups draw in `ui/chooser.rs` and `ui/inbox.rs`.

mod compose;
mod filter;
mod pages;
mod prompts;
mod questions;
mod sharing;
mod views;

use super::metrics::Metrics;
use super::Theme;
use crate::app::state::{Overlay, State};
use ratatui::layout::Rect;
use ratatui::Frame;

pub fn draw(f: &mut Frame, area: Rect, s: &State, theme: &Theme, m: &mut Metrics) {
    if !matches!(s.overlay, Overlay::None) {
        // Under a popup, the panes take no click.
        m.hits.clear();
    }
    match &s.overlay {
        Overlay::None => {}
        Overlay::Help { filter, scroll } => pages::help(f, area, s, filter, *scroll, theme, m),
        Overlay::Text {
            title,
            lines,
            scroll,
        } => pages::text(f, area, title, lines, *scroll, theme, m),
        Overlay::Palette(p) => prompts::palette(f, area, s, p, theme, m),
        Overlay::Search(b) => prompts::search(f, area, s, b, theme, m),
        Overlay::Confirm { lines, scroll, .. } => {
            questions::confirm(f, area, s, lines, *scroll, theme, m)
        }
        Overlay::Picker(p) => questions::picker(f, area, p, theme, m),
        Overlay::Compose(c) => compose::draw(f, area, c, theme, m),
        Overlay::Sharing(ed) => sharing::draw(f, area, ed, &s.keymap, theme, m),
        Overlay::Filter(form) => filter::draw(f, area, form, theme, m),
        Overlay::Views(sw) => views::draw(f, area, s, sw, theme, m),
        Overlay::Chooser(c) => super::chooser::draw(f, area, c, theme, m),
        Overlay::Inbox(list) => super::inbox::draw(f, area, s, list, theme, m),
        Overlay::Conflict(v) => super::inbox::draw_conflict(f, area, v, &s.keymap, theme, m),
    }
}
