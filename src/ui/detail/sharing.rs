//! Sharing: visibility, people and teams with their access.

use super::parts::*;

pub(super) fn sharing<'a>(d: &Detail, theme: &Theme) -> Vec<Line<'a>> {
    match &d.sharing {
        Load::Loaded(sh) => {
            let mut out = vec![
                kv("visibility", sh.visibility.to_string(), theme),
                Line::raw(""),
            ];
            out.push(section(
                &format!("People ({})", sh.users.len()),
                false,
                theme,
            ));
            let people: Vec<_> = sh
                .users
                .iter()
                .map(|u| {
                    (
                        u.name.line().into_owned(),
                        format!("<{}>", u.email.line()),
                        u.role
                            .as_ref()
                            .map(|r| r.line().into_owned())
                            .unwrap_or_default(),
                        u.access_level
                            .as_ref()
                            .map(|a| a.to_string())
                            .unwrap_or_default(),
                    )
                })
                .collect();
            out.extend(member_rows(&people, theme));
            out.push(section(
                &format!("Teams ({})", sh.teams.len()),
                false,
                theme,
            ));
            let names: Vec<String> = sh
                .teams
                .iter()
                .map(|t| t.name.line().into_owned())
                .collect();
            let wn = names
                .iter()
                .map(|n| unicode_width::UnicodeWidthStr::width(n.as_str()))
                .max()
                .unwrap_or(0);
            for (t, name) in sh.teams.iter().zip(&names) {
                out.push(Line::raw(format!(
                    "  {}  {}",
                    fit(name, wn),
                    t.access_level
                        .as_ref()
                        .map(|a| a.to_string())
                        .unwrap_or_default()
                )));
            }
            out.push(Line::raw(""));
            out.push(Line::styled(
                "S edits sharing (you see who gains and loses access before saving)",
                theme.dim,
            ));
            out
        }
        Load::Failed(e) => vec![Line::styled(format!("ERROR: {e}"), theme.error)],
        _ => vec![Line::styled("loading sharing…", theme.pending)],
    }
}
