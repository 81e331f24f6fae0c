//! The human task table: fits a width, sanitises every service string,
//! colours only when asked to.

use crate::api::{Priority, Task, TaskItem};
use crate::cut::{cut, fit, Piece};
use crate::domain::task_field::TaskField;
use jiff::Timestamp;
use std::io::IsTerminal;
use unicode_width::UnicodeWidthStr;

const RED: &str = "\x1b[31m";
const YELLOW: &str = "\x1b[33m";
const BOLD: &str = "\x1b[1m";
const DIM: &str = "\x1b[2m";
const RESET: &str = "\x1b[0m";
const GAP: &str = "  ";

/// Colour only on a terminal, never with `NO_COLOR`, always with
/// `CLICOLOR_FORCE` (unless `NO_COLOR` is set).
pub fn use_colour() -> bool {
    let set = |n: &str| std::env::var_os(n).is_some_and(|v| !v.is_empty() && v != "0");
    if set("NO_COLOR") {
        return false;
    }
    set("CLICOLOR_FORCE") || std::io::stdout().is_terminal()
}

/// The terminal's width when stdout is a terminal; otherwise `COLUMNS` when
/// it is a positive integer; else 100 columns.
pub fn output_width() -> usize {
    let tty = std::io::stdout().is_terminal();
    let size = if tty {
        crossterm::terminal::size().ok().map(|(w, _)| w as usize)
    } else {
        None
    };
    pick_width(size, std::env::var("COLUMNS").ok().as_deref())
}

/// The width to cut lines to: on a terminal, its width; into a pipe or a
/// file, none (`None`): a script gets whole titles, never cut with `…`
/// (still sanitised, one row a line).
pub fn cut_width() -> Option<usize> {
    std::io::stdout().is_terminal().then(output_width)
}

/// One line of a listing into `text`, made of pieces: the service's text
/// sanitised (no control character reaches the terminal or the pipe), cut
/// to `width` on a terminal ([`cut_width`]) piece by piece as ranked
/// ([`crate::cut::line`]: a title gives way before a reason), whole into a
/// pipe; then a newline.
pub fn push_line(text: &mut String, pieces: &[Piece], width: Option<usize>) {
    let pieces: Vec<Piece> = pieces
        .iter()
        .map(|p| Piece {
            text: crate::text::clean(&p.text).into(),
            ..p.clone()
        })
        .collect();
    match width {
        Some(w) => text.push_str(&crate::cut::line(&pieces, w)),
        None => pieces.iter().for_each(|p| text.push_str(&p.text)),
    }
    text.push('\n');
}

/// [`output_width`] without the environment: `tty` is the terminal's width
/// when stdout is one, `columns` the value of `COLUMNS`.
pub fn pick_width(tty: Option<usize>, columns: Option<&str>) -> usize {
    if let Some(w) = tty.filter(|w| *w > 0) {
        return w;
    }
    columns
        .and_then(|c| c.trim().parse::<usize>().ok())
        .filter(|w| *w > 0)
        .unwrap_or(100)
}

#[derive(Clone, Copy, PartialEq)]
enum Tone {
    Plain,
    Alert,
    Warn,
    Dim,
}

struct Row {
    cells: [String; 7],
    tones: [Tone; 7],
    /// An unreadable item: the reason spans every column after the id.
    unreadable: Option<String>,
}

fn row(item: &TaskItem, now: Timestamp) -> Row {
    match item {
        TaskItem::Task(t) => task_row(t, now),
        TaskItem::Unreadable(u) => Row {
            cells: [
                u.id.as_deref()
                    .map(crate::api::short_id)
                    .unwrap_or_else(|| "?".into()),
                String::new(),
                String::new(),
                String::new(),
                String::new(),
                String::new(),
                String::new(),
            ],
            tones: [Tone::Dim; 7],
            unreadable: Some(format!(
                "(unreadable item: {})",
                crate::text::clean(&u.reason)
            )),
        },
    }
}

fn task_row(t: &Task, now: Timestamp) -> Row {
    let [pri, status, due, assignee, title, tags] =
        COLUMNS.map(|f| f.cell(t, now).unwrap_or_default());
    let pri_tone = match t.priority {
        Priority::Urgent => Tone::Alert,
        Priority::High => Tone::Warn,
        _ => Tone::Plain,
    };
    Row {
        cells: [
            t.label(),
            pri.0,
            status.0,
            due.0,
            assignee.0,
            title.0,
            tags.0,
        ],
        tones: [
            Tone::Plain,
            pri_tone,
            Tone::Plain,
            // A completed task is never flagged as overdue.
            if due.1 { Tone::Alert } else { Tone::Plain },
            Tone::Plain,
            Tone::Plain,
            Tone::Dim,
        ],
        unreadable: None,
    }
}

/// The task fields shown after the id, one column each, in order; each
/// cell and header is the field table's ([`TaskField::cell`]).
pub const COLUMNS: [TaskField; 6] = [
    TaskField::Priority,
    TaskField::Status,
    TaskField::Due,
    TaskField::AssignedTo,
    TaskField::Title,
    TaskField::Tags,
];

const fn header(i: usize) -> &'static str {
    if i == 0 {
        return "ID";
    }
    match COLUMNS[i - 1].spec().column {
        Some(h) => h,
        None => panic!("a column of the CLI's table without a header in the field table"),
    }
}

pub const HEADERS: [&str; 7] = [
    header(0),
    header(1),
    header(2),
    header(3),
    header(4),
    header(5),
    header(6),
];
/// Column caps (title takes what is left).
/// (13 for the due column: "overdue today".)
const CAPS: [usize; 7] = [8, 8, 11, 13, 18, usize::MAX, 24];
const TITLE: usize = 5;
const MIN_TITLE: usize = 10;

/// Render the table as lines (no trailing newline), at most `width` columns
/// wide (unless even the minimum layout does not fit).
pub fn render(items: &[TaskItem], width: usize, colour: bool, now: Timestamp) -> Vec<String> {
    let layout = Layout::fit(items, width, colour, now);
    let mut out = Vec::with_capacity(items.len() + 1);
    out.push(layout.header());
    out.extend(layout.lines(items));
    out
}

/// The column widths of a table, fitted to some rows: a table written as
/// its pages arrive keeps the widths of its first rows, and later rows are
/// cut to them like any cell too wide for its column.
pub struct Layout {
    widths: [usize; 7],
    width: usize,
    colour: bool,
    now: Timestamp,
    /// A title wider than its column is written whole (into a pipe).
    whole_titles: bool,
}

impl Layout {
    /// Widths that fit `items` in `width` columns.
    pub fn fit(items: &[TaskItem], width: usize, colour: bool, now: Timestamp) -> Layout {
        let mut widths = [0usize; 7];
        for (i, h) in HEADERS.iter().enumerate() {
            widths[i] = h.width();
        }
        for r in items.iter().map(|i| row(i, now)) {
            for i in 0..7 {
                widths[i] = widths[i].max(r.cells[i].width().min(CAPS[i]));
            }
        }
        // Fit: shrink tags (down to nothing), assignee, status and priority
        // before the title drops below its minimum.
        let fixed = |w: &[usize; 7]| -> usize {
            w.iter()
                .enumerate()
                .filter(|(i, _)| *i != TITLE)
                .map(|(_, w)| *w)
                .sum::<usize>()
                + GAP.len() * 6
        };
        let want_title = widths[TITLE].min((width * 2 / 5).max(MIN_TITLE));
        for (col, floor) in [(6usize, 0usize), (4, 8), (2, 7), (1, 4)] {
            let over = (fixed(&widths) + want_title).saturating_sub(width);
            if over > 0 {
                widths[col] = widths[col].saturating_sub(over).max(floor);
            }
        }
        let room = width.saturating_sub(fixed(&widths)).max(MIN_TITLE);
        widths[TITLE] = widths[TITLE].min(room).max(HEADERS[TITLE].len());
        Layout {
            widths,
            width,
            colour,
            now,
            whole_titles: false,
        }
    }

    /// Titles are never cut (the other columns still fit the width): for
    /// output that is not a terminal.
    pub fn whole_titles(mut self, yes: bool) -> Layout {
        self.whole_titles = yes;
        self
    }

    /// The header line.
    pub fn header(&self) -> String {
        let header: Vec<String> = (0..7).map(|i| fit(HEADERS[i], self.widths[i])).collect();
        let header = header.join(GAP).trim_end().to_string();
        if self.colour {
            format!("{BOLD}{header}{RESET}")
        } else {
            header
        }
    }

    /// One line per item.
    pub fn lines(&self, items: &[TaskItem]) -> Vec<String> {
        let widths = &self.widths;
        let paint = |s: String, tone: Tone| -> String {
            if !self.colour || tone == Tone::Plain || s.trim().is_empty() {
                return s;
            }
            let code = match tone {
                Tone::Alert => RED,
                Tone::Warn => YELLOW,
                Tone::Dim => DIM,
                Tone::Plain => "",
            };
            format!("{code}{s}{RESET}")
        };
        let mut out = Vec::with_capacity(items.len());
        for r in items.iter().map(|i| row(i, self.now)) {
            let line = if let Some(reason) = &r.unreadable {
                let rest = self
                    .width
                    .saturating_sub(widths[0] + GAP.len())
                    .max(MIN_TITLE);
                format!(
                    "{}{GAP}{}",
                    fit(&r.cells[0], widths[0]),
                    paint(cut(reason, rest), Tone::Dim)
                )
            } else {
                let cells: Vec<String> = (0..7)
                    .map(|i| {
                        let text = if i == 6 {
                            cut(&r.cells[i], widths[i])
                        } else if i == TITLE && self.whole_titles && r.cells[i].width() > widths[i]
                        {
                            r.cells[i].clone()
                        } else {
                            fit(&r.cells[i], widths[i])
                        };
                        paint(text, r.tones[i])
                    })
                    .collect();
                cells.join(GAP)
            };
            out.push(line.trim_end().to_string());
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_listing_line_is_sanitised_and_cut_only_on_a_terminal() {
        let hostile = "#1 a \u{1b}]0;owned\u{7} title that is long";
        let mut piped = String::new();
        push_line(&mut piped, &[Piece::whole(hostile)], None);
        assert!(
            !piped.contains('\u{1b}') && !piped.contains('\u{7}'),
            "{piped:?}"
        );
        assert!(
            piped.ends_with("title that is long\n"),
            "whole into a pipe: {piped:?}"
        );
        let mut tty = String::new();
        push_line(&mut tty, &[Piece::whole(hostile)], Some(12));
        assert!(!tty.contains('\u{1b}'), "{tty:?}");
        assert!(
            tty.ends_with("…\n") && tty.trim_end().width() <= 12,
            "{tty:?}"
        );
    }

    fn now() -> Timestamp {
        crate::api::parse_timestamp("2026-06-10T12:00:00Z").unwrap()
    }

    fn task(status: &str, due: &str) -> TaskItem {
        TaskItem::from_json(&format!(
            r##"{{"id":"t","display_id":"#7","title":"T","status":"{status}","priority":"low","complete_by":"{due}"}}"##
        ))
    }

    fn due_cell(item: TaskItem, colour: bool) -> String {
        let lines = render(&[item], 200, colour, now());
        let start = lines[0].find("DUE").unwrap();
        lines[1][start..].split("  ").next().unwrap().to_string()
    }

    #[test]
    fn due_reads_like_the_tui() {
        // now() is 2026-06-10T12:00:00Z.
        for due in [
            "2026-06-10T09:00:00Z",
            "2026-06-10T18:00:00Z",
            "2026-06-11T09:00:00Z",
            "2026-06-08T11:00:00Z",
            "2026-06-13T12:00:00Z",
            "2026-07-30T00:00:00Z",
            "2027-06-01T00:00:00Z",
        ] {
            let at = crate::api::parse_timestamp(due).unwrap();
            let (want, _) = crate::app::dates::relative(at, now());
            assert_eq!(due_cell(task("in_progress", due), false), want, "{due}");
        }
        assert_eq!(
            due_cell(task("in_progress", "2026-06-10T09:00:00Z"), false),
            "overdue today"
        );
        // No date and an unreadable date keep their cells.
        let none = TaskItem::from_json(r##"{"id":"t","display_id":"#7","title":"T"}"##);
        assert_eq!(due_cell(none, false), "-");
        assert_eq!(due_cell(task("in_progress", "soon"), false), "soon");
        // An empty date is none: the cell says so rather than nothing.
        assert_eq!(due_cell(task("in_progress", ""), false), "-");
    }

    #[test]
    fn overdue_is_red_unless_completed() {
        let late = "2026-06-08T11:00:00Z";
        let open = render(&[task("in_progress", late)], 200, true, now());
        assert!(open[1].contains(&format!("{RED}2d overdue")), "{open:?}");
        let done = render(&[task("completed", late)], 200, true, now());
        assert!(done[1].contains("due 2d ago"), "{done:?}");
        assert!(!done[1].contains(RED), "{done:?}");
    }

    #[test]
    fn into_a_pipe_titles_are_whole_on_a_terminal_cut() {
        let long = "a title much longer than the forty columns given to the table here";
        let item = TaskItem::from_json(&format!(
            r##"{{"id":"t","display_id":"#7","title":"{long}","status":"in_progress","priority":"low","tags":["x"]}}"##
        ));
        let items = [item];
        let cut = Layout::fit(&items, 40, false, now()).lines(&items);
        assert!(cut[0].contains('…') && !cut[0].contains(long), "{cut:?}");
        let whole = Layout::fit(&items, 40, false, now())
            .whole_titles(true)
            .lines(&items);
        assert!(whole[0].contains(long), "{whole:?}");
    }

    #[test]
    fn width_from_terminal_then_columns_then_100() {
        assert_eq!(pick_width(Some(120), Some("60")), 120);
        assert_eq!(pick_width(None, Some("60")), 60);
        assert_eq!(pick_width(None, Some(" 72 ")), 72);
        assert_eq!(pick_width(Some(0), Some("60")), 60);
        for bad in [None, Some("0"), Some("-5"), Some("wide"), Some("")] {
            assert_eq!(pick_width(None, bad), 100, "{bad:?}");
        }
    }

    #[test]
    fn fits_width_and_sanitises() {
        let items = vec![
            TaskItem::from_json(
                r##"{"id":"a","display_id":"#1","title":"Evil \u001b[2J title that is very long indeed, far longer than the room","priority":"urgent","complete_by":"2026-06-01T00:00:00Z","tags":["x","y"]}"##,
            ),
            TaskItem::from_json(r#"{"id":"bad-item","title":42}"#),
        ];
        for width in [60, 100, 200] {
            let lines = render(&items, width, false, now());
            for l in &lines {
                assert!(l.width() <= width, "{width}: {l:?}");
                assert!(!l.contains('\u{1b}'), "{l:?}");
            }
            assert!(lines[1].contains("9d overdue"), "{lines:?}");
            assert!(lines[2].contains("unreadable item"), "{lines:?}");
        }
        let narrow = render(&items, 60, false, now());
        assert!(narrow[1].contains('…'), "{narrow:?}");
        let coloured = render(&items, 100, true, now());
        assert!(coloured[1].contains(RED));
    }

    #[test]
    fn due_counts_days_in_the_users_zone() {
        // now() is 08:00 EDT on June 10; 02:00Z on June 11 is 22:00 EDT on
        // June 10: today in New York, tomorrow in UTC.
        let due = "2026-06-11T02:00:00Z";
        let ny = jiff::tz::TimeZone::get("America/New_York").unwrap();
        let cell = crate::app::dates::with_zone(ny, || due_cell(task("in_progress", due), false));
        assert_eq!(cell, "today");
        assert_eq!(due_cell(task("in_progress", due), false), "tomorrow");
    }

    /// A long title of wide characters (CJK, emoji, an emoji with its
    /// presentation selector) is cut by display width with `…`, and every
    /// column after it starts in the same column on every row: the TAGS
    /// column was pushed out of line.
    #[test]
    fn a_wide_long_title_is_cut_by_display_width_and_keeps_the_columns_aligned() {
        let titles = [
            "契約書の最終確認と署名のための打ち合わせ日程を決める必要があります本当に長い",
            "Review ❤️❤️❤️❤️❤️❤️❤️❤️❤️❤️❤️❤️❤️❤️❤️❤️❤️❤️❤️❤️❤️❤️❤️❤️ the contract 🎉🎉🎉🎉🎉🎉🎉",
            "short",
        ];
        let items: Vec<TaskItem> = titles
            .iter()
            .enumerate()
            .map(|(i, t)| {
                TaskItem::from_json(&format!(
                    r##"{{"id":"t{i}","display_id":"#{i}","title":"{t}","status":"in_progress","priority":"low","tags":["legal"]}}"##
                ))
            })
            .collect();
        // (Narrower, the tags give way first.)
        for width in [80, 100, 120] {
            let lines = render(&items, width, false, now());
            let tags_at = |l: &str| {
                let i = l.rfind("legal").unwrap_or_else(|| panic!("{l:?}"));
                l[..i].width()
            };
            let at = tags_at(&lines[1]);
            for l in &lines[1..] {
                assert!(l.width() <= width, "{width}: {l:?}");
                assert_eq!(tags_at(l), at, "{width}: {lines:#?}");
            }
            assert_eq!(
                lines[0].rfind("TAGS").map(|i| lines[0][..i].width()),
                Some(at)
            );
            // A title is whole, or cut with the mark.
            for (l, t) in lines[1..].iter().zip(titles) {
                assert!(l.contains(t) || l.contains('…'), "{width}: {l:?}");
            }
            assert!(lines[2].contains('…'), "{lines:#?}");
        }
    }
}
