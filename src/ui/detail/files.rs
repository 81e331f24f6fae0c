//! Files: the task's input and output files, and the file lines of
//! comments and messages. A file reads as its name, its size as people say
//! it (`225 KB`) and its type; the size's number and unit never part.

use super::parts::*;
use crate::app::state::fields::file_entries;
use serde_json::Value;

// Shared with the `:attach` picker, which lists files too.
pub use crate::domain::words::human_size;
#[cfg(test)]
use crate::domain::words::NBSP;

/// A file entry of any shape as (name, size, type, id); `None` when it is
/// not an object with a name.
fn file_cells(v: &Value) -> Option<[String; 4]> {
    let Value::Object(m) = v else { return None };
    let get = |keys: &[&str]| {
        keys.iter().find_map(|k| {
            m.get(*k).and_then(|v| match v {
                Value::String(s) => Some(crate::text::clean(s)),
                Value::Null => None,
                other => Some(crate::text::clean(&other.to_string())),
            })
        })
    };
    let name = get(&["name", "filename", "file_name"])?;
    let size = ["size_bytes", "size"]
        .iter()
        .find_map(|k| m.get(*k))
        .and_then(|v| match v {
            Value::Number(n) => n.as_u64(),
            Value::String(s) => s.trim().parse::<u64>().ok(),
            _ => None,
        })
        .map(human_size)
        .or_else(|| get(&["size_bytes", "size"]))
        .unwrap_or_default();
    let kind = get(&["content_type", "mime_type", "type"]).unwrap_or_default();
    let id = get(&["id", "file_id"]).unwrap_or_default();
    Some([name, size, kind, id])
}

/// One file on one line: `report.pdf  225 KB  application/pdf  id …`.
pub fn file_text(v: &Value) -> String {
    match file_cells(v) {
        Some([name, size, kind, id]) => {
            let mut s = name;
            for part in [size, kind] {
                if !part.is_empty() {
                    s.push_str("  ");
                    s.push_str(&part);
                }
            }
            s.push_str(&format!("  id {id}"));
            s
        }
        None => match v {
            Value::Object(_) => json_lines(v).join(", "),
            other => json_summary(other),
        },
    }
}

/// A file line of the Overview: direction and the file.
pub(super) fn file_line<'a>(dir: &str, v: &Value, style: Style) -> Line<'a> {
    Line::styled(format!("  {dir:<6} {}", file_text(v)), style)
}

/// The task's file with this id, if it lists it.
pub(super) fn file_by_id<'t>(t: &'t Task, id: &str) -> Option<&'t Value> {
    file_entries(t)
        .into_iter()
        .map(|(_, v)| v)
        .find(|v| crate::app::state::fields::file_id(v).as_deref() == Some(id))
}

/// The files attached to a comment or a message, by id: `1 file: …` on
/// one line, or a count and one line each.
pub(super) fn attached<'a>(
    t: &Task,
    ids: &[Untrusted],
    indent: &str,
    theme: &Theme,
) -> Vec<Line<'a>> {
    let shown: Vec<String> = ids
        .iter()
        .map(|id| match file_by_id(t, id.raw()) {
            Some(v) => file_text(v),
            None => format!("id {}", id.line()),
        })
        .collect();
    let head = count(shown.len(), "file", "files");
    match shown.as_slice() {
        [] => vec![],
        [one] => vec![Line::styled(format!("{indent}{head}: {one}"), theme.dim)],
        many => {
            let mut out = vec![Line::styled(format!("{indent}{head}:"), theme.dim)];
            out.extend(
                many.iter()
                    .map(|f| Line::styled(format!("{indent}  {f}"), theme.dim)),
            );
            out
        }
    }
}

pub(super) fn files<'a>(t: &Task, d: &Detail, cx: &Cx) -> (Vec<Line<'a>>, Option<usize>) {
    let theme = cx.theme;
    let entries = file_entries(t);
    let mut out = Vec::new();
    if entries.is_empty() {
        out.push(Line::styled(
            empty_line(
                cx.s,
                "no files",
                crate::app::keymap::Action::Attach,
                "attaches a file seen on tasks",
            ),
            theme.dim,
        ));
    } else {
        out.push(Line::styled(
            count(entries.len(), "file", "files"),
            theme.dim,
        ));
    }
    // Columns line up across the files: name, size, type; the id (long,
    // never cut) on a line of its own under the name.
    let cells: Vec<Option<[String; 4]>> = entries.iter().map(|(_, v)| file_cells(v)).collect();
    let width = |i: usize| {
        cells
            .iter()
            .flatten()
            .map(|c| unicode_width::UnicodeWidthStr::width(c[i].as_str()))
            .max()
            .unwrap_or(0)
    };
    let (w_name, w_size) = (width(0), width(1));
    let mut selected = None;
    for (i, ((dir, v), c)) in entries.iter().zip(&cells).enumerate() {
        let style = row_style(i == d.cursor, theme);
        if i == d.cursor {
            selected = Some(out.len());
        }
        match c {
            Some([name, size, kind, id]) => {
                // Sizes align on the right, like numbers do.
                let size_pad = " ".repeat(w_size.saturating_sub(size.chars().count()));
                let line = format!("  {dir:<6} {}  {size_pad}{size}  {kind}", fit(name, w_name));
                out.push(Line::styled(line.trim_end().to_string(), style));
                out.push(Line::styled(
                    format!("         id {id}"),
                    style.patch(theme.dim),
                ));
            }
            None => out.push(Line::styled(format!("  {dir:<6} {}", file_text(v)), style)),
        }
    }
    out.push(Line::raw(""));
    // From the keymap in effect (issue 40 §4): a rebound key shows rebound.
    out.push(Line::styled(
        key_line(
            cx.s,
            &[
                (
                    &[crate::app::keymap::Action::Attach],
                    "attach a file (pick one; type to narrow)",
                ),
                (
                    &[crate::app::keymap::Action::RemoveItem],
                    "detach selected (the file itself is not deleted)",
                ),
            ],
        ),
        theme.dim,
    ));
    (out, selected.or(Some(d.cursor)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_read_as_people_say_them() {
        let h = |n| human_size(n).replace(NBSP, " ");
        assert_eq!(h(0), "0 bytes");
        assert_eq!(h(1), "1 byte");
        assert_eq!(h(512), "512 bytes");
        assert_eq!(h(1024), "1 KB");
        assert_eq!(h(1536), "1.5 KB");
        assert_eq!(h(230_400), "225 KB");
        assert_eq!(h(1_258_291), "1.2 MB");
        assert_eq!(h(1_048_575), "1 MB");
        assert_eq!(h(u64::MAX), "16 EB");
        // The number and its unit never part.
        assert!(!human_size(230_400).contains(' '));
    }

    #[test]
    fn a_file_shows_name_size_and_type() {
        let v = serde_json::json!({"id": "f1", "name": "Q3 report.pdf", "size_bytes": 230400, "content_type": "application/pdf"});
        assert_eq!(
            file_text(&v).replace(NBSP, " "),
            "Q3 report.pdf  225 KB  application/pdf  id f1"
        );
        let v = serde_json::json!({"id": "f2", "name": "x\u{1b}[2J", "size": "1"});
        assert_eq!(file_text(&v).replace(NBSP, " "), "x␛[2J  1 byte  id f2");
        let v = serde_json::json!({"id": "f3", "name": "n", "size": "big"});
        assert_eq!(file_text(&v), "n  big  id f3");
        assert_eq!(
            file_text(&serde_json::json!("f4")),
            json_summary(&serde_json::json!("f4"))
        );
    }
}
