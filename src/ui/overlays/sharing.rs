//! The sharing editor: visibility, people and teams with their access,
//! the line being added, and the keys.

use crate::app::keymap::{Action, Context, Keymap};
use crate::app::popups::sharing::{Adding, SharingEditor};
use crate::ui::clear::{centered, popup};
use crate::ui::metrics::Metrics;
use crate::ui::Theme;
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::{Paragraph, Wrap};
use ratatui::Frame;

pub(super) fn draw(
    f: &mut Frame,
    area: Rect,
    ed: &SharingEditor,
    keymap: &Keymap,
    theme: &Theme,
    m: &mut Metrics,
) {
    let r = centered(area, 90, ed.rows() as u16 + 9);
    let review = keymap
        .hint_key(&[Context::Sharing], Action::Review)
        .map(|k| format!("; {k} reviews before saving"))
        .unwrap_or_default();
    let inner = popup(
        f,
        r,
        &format!(
            "Sharing of {} (edits a copy{review})",
            crate::text::clean(&ed.task_label)
        ),
        theme,
    );
    let sel = |i: usize| {
        if i == ed.cursor {
            theme.selected
        } else {
            theme.base
        }
    };
    // Row `i` of the editor is drawn on line `at(i)` of the popup.
    let at = |i: usize| match i {
        0 => 0,
        i if i <= ed.users.len() => i + 1,
        i => i + 2,
    };
    for i in 0..ed.rows() {
        m.row(inner, inner.y + at(i) as u16, i, i == ed.cursor);
    }
    let mut ls = vec![Line::styled(
        // `point` marks the row only in accessible mode.
        theme.point(format!("visibility: {}", ed.visibility), ed.cursor == 0),
        sel(0),
    )];
    ls.push(Line::styled("people:", theme.accent));
    for (i, g) in ed.users.iter().enumerate() {
        ls.push(Line::styled(
            theme.point(
                format!("  {}  {}", crate::text::clean(&g.label), g.access),
                ed.cursor == i + 1,
            ),
            sel(i + 1),
        ));
    }
    ls.push(Line::styled("teams:", theme.accent));
    for (i, g) in ed.teams.iter().enumerate() {
        ls.push(Line::styled(
            theme.point(
                format!("  {}  {}", crate::text::clean(&g.label), g.access),
                ed.cursor == i + 1 + ed.users.len(),
            ),
            sel(i + 1 + ed.users.len()),
        ));
    }
    ls.push(Line::raw(""));
    if let Some(n) = &ed.note {
        ls.push(Line::styled(
            format!("not saved: {}", crate::text::clean(n)),
            theme.error,
        ));
    }
    // What is typed, around the cursor (after its label).
    let typed = ed.adding.as_ref().map(|(kind, input)| {
        let label = if *kind == Adding::Team {
            "add team: "
        } else {
            "add person: "
        };
        let typed = crate::ui::typed::shown(input, inner.width.saturating_sub(label.len() as u16));
        let y = inner.y + ls.len() as u16;
        m.focus_at(inner.x + (label.len() + typed.cursor) as u16, y);
        typed
    });
    match (&ed.adding, typed) {
        (Some((kind, _)), Some(typed)) => {
            ls.push(Line::raw(format!(
                "add {}: {}{}   (id, e-mail or name, then optional read|write; Enter adds)",
                if *kind == Adding::Team {
                    "team"
                } else {
                    "person"
                },
                typed.text,
                if typed.end { "_" } else { "" }
            )));
            // What the name typed may be, as the palette suggests it.
            let found = ed.suggestions();
            if !found.is_empty() {
                ls.push(Line::styled(
                    format!("tab completes: {}", crate::text::clean(&found.join(" · "))),
                    theme.accent,
                ));
            }
        }
        // From the keymap in effect (issue 40 §4).
        _ => ls.push(Line::styled(
            keymap
                .hints(&[Context::Sharing], &crate::ui::hints::SHARING_KEYS)
                .join(" · "),
            theme.dim,
        )),
    }
    f.render_widget(Paragraph::new(ls).wrap(Wrap { trim: false }), inner);
}
