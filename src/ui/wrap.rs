//! Wrapping with a hanging indent: a long `key: value` line continues under
//! its value, a long indented line under its indent — so wrapped text stays
//! readable and ids stay in one piece where they fit.

use ratatui::style::Style;
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
    spans.extend(runs(cells));
    Line::from(spans).style(style)
}

/// A styled piece of text; `\n` inside forces a line break.
pub type Piece = (String, Style);

/// Lay `pieces` out as words in lines of at most `width` columns: the first
/// line after `first`, the others after `rest` (prefixes such as a list
/// bullet, a quote bar, an indent). Lines break only between words (at
/// spaces, which are dropped at the break); a word longer than a whole line
/// is the only thing ever cut. `\n` always starts a new line.
pub fn wrap_words(
    pieces: &[Piece],
    width: usize,
    first: Vec<Span<'static>>,
    rest: Vec<Span<'static>>,
) -> Vec<Line<'static>> {
    let prefix_width = |p: &[Span]| p.iter().map(|s| s.width()).sum::<usize>();
    let mut out: Vec<Line<'static>> = Vec::new();
    let mut line: Vec<(char, Style)> = Vec::new();
    let mut line_w = 0usize;
    // The spaces seen since the last word, kept when the next word fits.
    let mut gap: Vec<(char, Style)> = Vec::new();
    let mut word: Vec<(char, Style)> = Vec::new();

    let room = |out: &Vec<Line>| -> usize {
        let p = if out.is_empty() {
            prefix_width(&first)
        } else {
            prefix_width(&rest)
        };
        // Never less than one column: the text must go somewhere.
        width.saturating_sub(p).max(1)
    };
    let emit = |out: &mut Vec<Line<'static>>, line: &mut Vec<(char, Style)>| {
        let mut spans = if out.is_empty() {
            first.clone()
        } else {
            rest.clone()
        };
        spans.extend(runs(line));
        line.clear();
        out.push(Line::from(spans));
    };
    let cells_w =
        |c: &[(char, Style)]| c.iter().map(|(c, _)| c.width().unwrap_or(0)).sum::<usize>();

    // Place the pending word (with the gap before it) on the line.
    let place = |out: &mut Vec<Line<'static>>,
                 line: &mut Vec<(char, Style)>,
                 line_w: &mut usize,
                 gap: &mut Vec<(char, Style)>,
                 word: &mut Vec<(char, Style)>| {
        if word.is_empty() {
            return;
        }
        let ww = cells_w(word);
        if *line_w > 0 && *line_w + cells_w(gap) + ww > room(out) {
            emit(out, line);
            *line_w = 0;
            gap.clear();
        }
        *line_w += cells_w(gap);
        line.append(gap);
        // A word wider than a whole line: cut it (nothing else can be done).
        for cell in word.drain(..) {
            let cw = cell.0.width().unwrap_or(0);
            if *line_w + cw > room(out) && *line_w > 0 {
                emit(out, line);
                *line_w = 0;
            }
            line.push(cell);
            *line_w += cw;
        }
    };

    for (text, style) in pieces {
        for c in text.chars() {
            match c {
                '\n' => {
                    place(&mut out, &mut line, &mut line_w, &mut gap, &mut word);
                    // Spaces at the end of a line are dropped.
                    gap.clear();
                    emit(&mut out, &mut line);
                    line_w = 0;
                }
                ' ' => {
                    place(&mut out, &mut line, &mut line_w, &mut gap, &mut word);
                    // Leading spaces of a line are kept (they are as written).
                    gap.push((c, *style));
                }
                c => word.push((c, *style)),
            }
        }
    }
    place(&mut out, &mut line, &mut line_w, &mut gap, &mut word);
    if !line.is_empty() || out.is_empty() {
        emit(&mut out, &mut line);
    }
    out
}

/// Cells to spans, one per run of the same style.
fn runs(cells: &[(char, Style)]) -> Vec<Span<'static>> {
    let mut spans = Vec::new();
    let mut cur = String::new();
    let mut cur_style: Option<Style> = None;
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
    spans
}

/// A popup's own key line in `width` columns, wrapped between its
/// entries onto as many lines as it needs, so that every key it names
/// stays readable (the inbox's foot, the conflict view's line); an entry
/// wider than a whole line alone is cut, with the cut mark.
pub fn wrap_hints(parts: &[String], width: usize) -> Vec<String> {
    let w = crate::cut::width;
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for part in parts {
        if !line.is_empty() && w(&line) + 2 + w(part) > width {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push_str("  ");
        }
        line.push_str(part);
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
        .into_iter()
        .map(|l| crate::cut::cut(&l, width))
        .collect()
}

#[cfg(test)]
mod tests {
    /// A hint line wraps between its entries, never inside one, and an
    /// entry wider than a line alone is cut with the cut mark (moved here
    /// from `ui/hints.rs`: one module wraps text to a width).
    #[test]
    fn hints_wrap_between_entries() {
        let parts: Vec<String> = [
            "j/k move",
            "enter open",
            "x done",
            "a very long entry indeed",
        ]
        .iter()
        .map(|p| p.to_string())
        .collect();
        assert_eq!(
            super::wrap_hints(&parts, 20),
            vec!["j/k move  enter open", "x done", "a very long entry i…"]
        );
        assert_eq!(
            super::wrap_hints(&parts[..2], 80),
            vec!["j/k move  enter open"]
        );
    }

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

    fn plain(s: &str) -> Vec<Piece> {
        vec![(s.to_string(), Style::default())]
    }

    #[test]
    fn words_wrap_whole_after_their_prefixes() {
        let out = wrap_words(
            &plain("one two three four five six"),
            12,
            vec![Span::raw("• ")],
            vec![Span::raw("  ")],
        );
        assert_eq!(texts(&out), vec!["• one two", "  three four", "  five six"]);
        // An id never splits when it fits a line of its own.
        let id = "a49551b4-0000-4000-8000-000000000000";
        let out = wrap_words(&plain(&format!("file {id} done")), 40, vec![], vec![]);
        assert_eq!(texts(&out), vec!["file", id, "done"]);
        let out = wrap_words(&plain(&format!("attached file {id}")), 30, vec![], vec![]);
        assert_eq!(
            texts(&out),
            vec![
                "attached file".to_string(),
                id[..30].to_string(),
                id[30..].to_string()
            ]
        );
        // Forced breaks, kept leading spaces, empty input.
        let out = wrap_words(&plain("a\n  b"), 10, vec![], vec![]);
        assert_eq!(texts(&out), vec!["a", "  b"]);
        assert_eq!(texts(&wrap_words(&[], 10, vec![], vec![])), vec![""]);
        // Styles survive a break; a word made of two styles stays whole.
        let bold = Style::default().add_modifier(ratatui::style::Modifier::BOLD);
        let out = wrap_words(
            &[
                ("xx ".into(), Style::default()),
                ("bold".into(), bold),
                (", yy".into(), Style::default()),
            ],
            6,
            vec![],
            vec![],
        );
        assert_eq!(texts(&out), vec!["xx", "bold,", "yy"]);
        assert_eq!(out[1].spans[0].style, bold);
        assert_eq!(out[1].spans[0].content, "bold");
        // Nothing is lost, whatever the width.
        for w in 0..20 {
            let out = wrap_words(&plain("lorem ipsum dolor-sit-amet"), w, vec![], vec![]);
            let joined: String = texts(&out).join("");
            assert_eq!(joined.replace(' ', ""), "loremipsumdolor-sit-amet", "{w}");
        }
    }
}
