//! Wrapping with a hanging indent: a long `key: value` line continues under
//! its value, a long indented line under its indent — so wrapped text stays
//! readable and ids stay in one piece where they fit.

use ratatui::text::{Line, Span};
use unicode_width::UnicodeWidthChar;

/// Where the continuation of `text` starts: after `key: ` for key/value
/// lines, else after the leading spaces (plus a little).
fn hang(text: &str, width: usize) -> usize {
    let lead = text.chars().take_while(|c| *c == ' ').count();
    let indent = match text.find(": ") {
        Some(i)
            if i <= 16
                && text[..i]
                    .trim_start()
                    .chars()
                    .all(|c| c.is_alphanumeric() || c == ' ' || c == '_') =>
        {
            text[..i + 2].chars().count()
        }
        _ => lead + 2,
    };
    if indent * 2 > width {
        0
    } else {
        indent
    }
}

/// Wrap every line to `width` columns with a hanging indent. Returns the
/// lines and, for each input line, the index of its first output line.
pub fn wrap_lines<'a>(lines: Vec<Line<'a>>, width: usize) -> (Vec<Line<'a>>, Vec<usize>) {
    let mut out = Vec::with_capacity(lines.len());
    let mut starts = Vec::with_capacity(lines.len());
    for line in lines {
        starts.push(out.len());
        if width == 0 || line.width() <= width {
            out.push(line);
            continue;
        }
        let text: String = line.spans.iter().map(|s| s.content.as_ref()).collect();
        let indent = hang(&text, width);
        // Characters with their style, then cut into rows at spaces.
        let cells: Vec<(char, ratatui::style::Style)> = line
            .spans
            .iter()
            .flat_map(|s| s.content.chars().map(move |c| (c, s.style)))
            .collect();
        let mut row: Vec<(char, ratatui::style::Style)> = Vec::new();
        let mut row_width = 0;
        let mut first = true;
        let mut i = 0;
        while i < cells.len() {
            let limit = if first { width } else { width - indent };
            let cw = cells[i].0.width().unwrap_or(0);
            if row_width + cw > limit && !row.is_empty() {
                // Break at the last space of the row that follows some
                // text, so words and ids stay whole when they fit a row.
                let cut = row
                    .iter()
                    .rposition(|(c, _)| *c == ' ')
                    .filter(|p| row[..*p].iter().any(|(c, _)| *c != ' '));
                let carry: Vec<_> = match cut {
                    Some(p) => row.split_off(p + 1),
                    None => Vec::new(),
                };
                out.push(to_line(&row, if first { 0 } else { indent }, line.style));
                first = false;
                row = carry.into_iter().skip_while(|(c, _)| *c == ' ').collect();
                row_width = row.iter().map(|(c, _)| c.width().unwrap_or(0)).sum();
                continue;
            }
            row.push(cells[i]);
            row_width += cw;
            i += 1;
        }
        if !row.is_empty() || first {
            out.push(to_line(&row, if first { 0 } else { indent }, line.style));
        }
    }
    (out, starts)
}

fn to_line<'a>(
    cells: &[(char, ratatui::style::Style)],
    indent: usize,
    style: ratatui::style::Style,
) -> Line<'a> {
    let mut spans: Vec<Span<'a>> = Vec::new();
    if indent > 0 {
        spans.push(Span::raw(" ".repeat(indent)));
    }
    let mut cur = String::new();
    let mut cur_style = None;
    for (c, s) in cells {
        if cur_style != Some(*s) && !cur.is_empty() {
            spans.push(Span::styled(
                std::mem::take(&mut cur),
                cur_style.unwrap_or_default(),
            ));
        }
        cur_style = Some(*s);
        cur.push(*c);
    }
    if !cur.is_empty() {
        spans.push(Span::styled(cur, cur_style.unwrap_or_default()));
    }
    Line::from(spans).style(style)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(lines: &[Line]) -> Vec<String> {
        lines
            .iter()
            .map(|l| l.spans.iter().map(|s| s.content.as_ref()).collect())
            .collect()
    }

    #[test]
    fn key_values_continue_under_the_value() {
        let (out, starts) = wrap_lines(
            vec![
                Line::raw(
                    "        title: Assess review findings for Fabrikam share purchase agreement",
                ),
                Line::raw("x"),
            ],
            40,
        );
        assert_eq!(
            texts(&out),
            vec![
                "        title: Assess review findings ",
                "               for Fabrikam share ",
                "               purchase agreement",
                "x"
            ]
        );
        assert_eq!(starts, vec![0, 3]);
    }

    #[test]
    fn indented_lines_keep_their_indent_and_short_lines_are_untouched() {
        let (out, _) = wrap_lines(
            vec![Line::raw(
                "  input  report.xlsx  id a49551b4-0000-4000-8000-000000000000",
            )],
            40,
        );
        let t = texts(&out);
        assert!(t[1].starts_with("    "), "{t:?}");
        assert!(
            t.iter()
                .any(|l| l.contains("a49551b4-0000-4000-8000-000000000000")),
            "an id that fits stays whole: {t:?}"
        );
        let (out, _) = wrap_lines(vec![Line::raw("short")], 40);
        assert_eq!(texts(&out), vec!["short"]);
        let (out, _) = wrap_lines(vec![Line::raw("abc")], 0);
        assert_eq!(texts(&out), vec!["abc"]);
    }
}
