//! The one cut to width (issue 40 §3): every text the TUI draws or the
//! CLI's tables print that may be too wide is cut here, by display width
//! (`unicode-width`: a CJK character or an emoji takes two columns), and
//! a cut always says so with `…` (one column, counted in the width).
//!
//! - [`cut`]: at most `w` columns; [`fit`]: cut, then padded to exactly
//!   `w`; [`cell`]: a table's column, a blank column kept after its value
//!   (the list's columns, as wide as their longest known value).
//! - [`cut_words`]: prose cut at a word's end when one is near
//!   (an inbox reason, a message); [`excerpt`]: the start of a text on one
//!   line, its white space folded (a comment quoted, an error body).
//! - [`line`]: one row made of [`Piece`]s, cut piece by piece in the
//!   order the caller ranks them, so that what matters stays whole: an
//!   inbox row cuts its title before the change (`priority medium → high`),
//!   the header its names before its counts (`[2 marked]`), a search row
//!   the title before the words it matched.
//!
//! A leaf: it knows no other module of the crate. The text given is
//! already sanitised (`crate::text`); cutting never makes it unsafe.

use std::borrow::Cow;
use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};

/// What a cut leaves where text was taken away.
pub const MARK: char = '…';

/// The columns `s` takes on a terminal.
pub fn width(s: &str) -> usize {
    s.width()
}

/// `s` in at most `w` columns: whole when it fits, else as much of its
/// start as fits before `…`, white space at the cut dropped (the mark
/// right after the last word kept). Nothing at all for `w == 0`.
pub fn cut(s: &str, w: usize) -> String {
    if s.width() <= w {
        return s.to_string();
    }
    if w == 0 {
        return String::new();
    }
    let mut out = String::new();
    let mut used = 0;
    let mut measured = Measured::default();
    for c in s.chars() {
        out.push(c);
        measured.push(&out, c);
        // A character of no width of its own may widen the one before
        // (`❤` and its emoji presentation selector take two columns, the
        // sum of their characters' widths one): the text is measured
        // again then, as the terminal and `width` count it.
        let now = match c.width() {
            Some(0) | None => measured.width(&out),
            Some(cw) => used + cw,
        };
        if now > w - 1 {
            out.pop();
            break;
        }
        used = now;
    }
    // Cut after a word: the space goes, the mark follows the word
    // (`call with…`, never `call with …` nor, after two, `with  …`).
    out.truncate(out.trim_end().len());
    out.push(MARK);
    out
}

/// The width of a text built one character at a time, exactly as
/// [`width`] measures it, without measuring all of it again at each
/// character of no width (a long run of zero-width characters made
/// [`cut`] quadratic). `unicode-width` reads a text from its end, and a
/// character may change the width of those before it (an emoji's
/// selector, a ZWJ sequence, an Arabic lam-alef); most do not:
///
/// - an *anchor* (an ASCII letter, space or sign but a digit, `#` and
///   `*`, or a CJK ideograph) is counted the same, and leaves those
///   before it counted as alone, whatever follows it: the text's width is
///   the width up to the last anchor, measured once, plus the width of
///   what follows it;
/// - a *plain* character (any whose width does not reach back: not a line
///   feed, a wide emoji that joins, nor one of the few `unicode-width`
///   gives a context to: Hebrew lamed, Arabic alef, Khmer letters,
///   Buginese ya, Tifinagh consonants, Lisu, three variation selectors,
///   Old Turkic, Kirat Rai, regional indicators, skin tones;
///   [`is_plain`]) adds its own width to the text's;
/// - a variation selector right after the same one changes nothing;
/// - after any other, what follows the last anchor is measured again when
///   asked.
#[derive(Default)]
struct Measured {
    /// The text's bytes up to its last anchor, and their width.
    anchor: usize,
    before: usize,
    /// The width of what follows the anchor, `None` when a character that
    /// may change those before it came after it (measured when asked).
    after: Option<usize>,
    last: Option<char>,
}

impl Measured {
    /// `c` was pushed onto `text`.
    fn push(&mut self, text: &str, c: char) {
        let lone = c.encode_utf8(&mut [0; 4]).width();
        if is_anchor(c) {
            let before_c = &text[..text.len() - c.len_utf8()];
            self.before += self.after_anchor(before_c) + lone;
            self.anchor = text.len();
            self.after = Some(0);
        } else if is_plain(c) {
            if let Some(after) = &mut self.after {
                *after += lone;
            }
        } else if !(self.last == Some(c) && matches!(c, '\u{FE01}' | '\u{FE0E}' | '\u{FE0F}')) {
            self.after = None;
        }
        self.last = Some(c);
    }

    /// The width of `text` (all pushed here).
    fn width(&mut self, text: &str) -> usize {
        self.before + self.after_anchor(text)
    }

    /// The width of what follows the anchor in `text`.
    fn after_anchor(&mut self, text: &str) -> usize {
        if let Some(after) = self.after {
            return after;
        }
        let tail = &text[self.anchor..];
        #[cfg(test)]
        tests::measured(tail.len());
        let after = tail.width();
        self.after = Some(after);
        after
    }
}

/// A character whose width and whose effect on those before it are the
/// same whatever follows it: those before it are measured as if it ended
/// the text (see [`Measured`]).
fn is_anchor(c: char) -> bool {
    (c.is_ascii_graphic() || c == ' ') && !matches!(c, '0'..='9' | '#' | '*')
        || ('\u{4E00}'..='\u{9FFF}').contains(&c)
}

/// The characters `unicode-width` gives a context to (they change the
/// width of those before them), as read from `unicode-width` 0.2.3's
/// `lookup.rs` (`width_in_generic`), all of each kind: a line feed (after
/// a carriage return), Hebrew lamed (alef ZWJ lamed), Buginese ya, Lisu
/// tone letters, three variation selectors, Old Turkic, Kirat Rai,
/// regional indicators, skin tones. The kinds of which only some reach
/// back are [`ASKED`]. `cut::tests::the_copied_context_rules_are_unicode_widths`
/// fails when an upgrade of `unicode-width` makes the copy wrong, or
/// larger than it needs to be.
const REACHES_BACK: &[(char, char)] = &[
    ('\n', '\n'),
    ('\u{5DC}', '\u{5DC}'),
    ('\u{1A10}', '\u{1A10}'),
    ('\u{A4FC}', '\u{A4FD}'),
    ('\u{FE01}', '\u{FE01}'),
    ('\u{FE0E}', '\u{FE0F}'),
    ('\u{10C03}', '\u{10C03}'),
    ('\u{16D67}', '\u{16D68}'),
    ('\u{1F1E6}', '\u{1F1FF}'),
    ('\u{1F3FB}', '\u{1F3FF}'),
];

/// The blocks of which some characters reach back and some do not, each
/// with the text before them that they change: a character of one
/// reaches back when `unicode-width` measures it after that text as more
/// or less than the two alone (an Arabic letter of alef's joining group
/// after a lam, a Khmer letter after a coeng, a Tifinagh consonant after
/// a consonant and the joiner).
const ASKED: &[(char, char, &str)] = &[
    ('\u{622}', '\u{882}', "\u{644}"),
    ('\u{1780}', '\u{17AF}', "\u{17D2}"),
    ('\u{2D31}', '\u{2D6F}', "\u{2D31}\u{2D7F}"),
];

/// A character that, ending a text, leaves those before it measured as
/// without it: not one of [`REACHES_BACK`], nor of [`ASKED`] changing the
/// text before it, nor a wide emoji that joins an emoji and a ZWJ before
/// it (asked of `unicode-width` itself).
fn is_plain(c: char) -> bool {
    if REACHES_BACK.iter().any(|&(a, b)| (a..=b).contains(&c)) {
        return false;
    }
    let lone = c.encode_utf8(&mut [0; 4]).width();
    if let Some(&(_, _, head)) = ASKED.iter().find(|&&(a, b, _)| (a..=b).contains(&c)) {
        return after(head, c) == head.width() + lone;
    }
    lone != 2 || after("👨\u{200D}", c) == 4
}

/// The width of `head` then `c`, measured on the stack: `is_plain` asks
/// it for each wide, Arabic, Khmer or Tifinagh character on the render
/// path, where a `String` built for each cost an allocation a character.
fn after(head: &str, c: char) -> usize {
    let mut buf = [0u8; 12];
    let n = head.len();
    buf[..n].copy_from_slice(head.as_bytes());
    let m = c.encode_utf8(&mut buf[n..]).len();
    std::str::from_utf8(&buf[..n + m]).map_or(0, UnicodeWidthStr::width)
}

/// The end of `s` in at most `w` columns: whole when it fits, else `…`
/// and as much of its end as fits after it (what is typed, cut on the
/// left so that the cursor at its end stays in sight). Nothing at all for
/// `w == 0`.
pub fn cut_start(s: &str, w: usize) -> String {
    if s.width() <= w {
        return s.to_string();
    }
    if w == 0 {
        return String::new();
    }
    let mut start = s.len();
    let mut used = 0;
    for (i, c) in s.char_indices().rev() {
        let cw = c.width().unwrap_or(0);
        if used + cw > w - 1 {
            break;
        }
        used += cw;
        start = i;
    }
    // A character of no width of its own may widen the one before: what
    // is kept is measured as the terminal counts it, and its first
    // characters go until it fits; marks left without their base go too.
    let mut kept = &s[start..];
    while kept.width() > w - 1 {
        let first = kept.chars().next().map_or(0, char::len_utf8);
        kept = &kept[first..];
    }
    let kept = kept.trim_start_matches(|c: char| c.width() == Some(0));
    format!("{MARK}{kept}")
}

/// A line of typed text shown in a given width ([`around`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Around {
    /// What is shown: the part of the text around the cursor, `…` where
    /// text is out of sight on either side.
    pub text: String,
    /// The cursor's column in `text`.
    pub cursor: usize,
    /// The text's end is shown, with a column after it (for a caret).
    pub end: bool,
}

/// One line of typed text in `w` columns, the cursor (at byte `at` of
/// `s`) always in sight: the whole text when it fits with a column after
/// it; else the text before the cursor, cut on the left ([`cut_start`])
/// when it does not leave a column for the cursor (and one for the `…`
/// after it when text follows), then the text after the cursor, cut on the
/// right ([`cut`]). Every one-line input draws what is typed through it
/// (the palette's `:` line, the search line, the pickers' `find:` lines,
/// the filter form's fields): never wider than `w`, never more than one
/// row, however long a paste.
pub fn around(s: &str, at: usize, w: usize) -> Around {
    let at = (0..=at.min(s.len()))
        .rev()
        .find(|i| s.is_char_boundary(*i))
        .unwrap_or(0);
    let (before, after) = s.split_at(at);
    if s.width() < w {
        return Around {
            text: s.to_string(),
            cursor: before.width(),
            end: true,
        };
    }
    if w < 3 {
        let text = cut(s, w);
        return Around {
            cursor: text.width().min(w.saturating_sub(1)),
            text,
            end: false,
        };
    }
    // The cursor's own column, and one for the `…` after it when text
    // follows.
    let need = if after.is_empty() { 1 } else { 2 };
    let left = if before.width() + need <= w {
        before.to_string()
    } else {
        cut_start(before, w - need)
    };
    let cursor = left.width();
    let room = w - cursor;
    let end = after.width() < room;
    let right = if end {
        after.to_string()
    } else {
        cut(after, room)
    };
    Around {
        text: left + &right,
        cursor,
        end,
    }
}

/// `s` cut to `w` columns ([`cut`]) and padded with spaces to exactly `w`.
pub fn fit(s: &str, w: usize) -> String {
    let mut out = cut(s, w);
    let n = w.saturating_sub(out.width());
    out.extend(std::iter::repeat_n(' ', n));
    out
}

/// A table's column `w` columns wide: `s` cut to `w - 1` ([`fit`]) and
/// one column left blank after it, so that a value cut (`criti…`) never
/// runs into the next column (`critic…blocked`). A column made as wide as
/// its longest known value plus one shows every known value whole.
pub fn cell(s: &str, w: usize) -> String {
    if w == 0 {
        return String::new();
    }
    let mut out = fit(s, w - 1);
    out.push(' ');
    out
}

/// Prose in at most `w` columns: as [`cut`], but ending at a word's end
/// when one is within the last third of the room (`… has sent a…`, not
/// `… has sent a rev…`); a long word alone is cut inside, still with `…`.
pub fn cut_words(s: &str, w: usize) -> String {
    if s.width() <= w || w == 0 {
        return cut(s, w);
    }
    let hard = cut(s, w);
    let kept = hard.trim_end_matches(MARK);
    // The cut fell between two words: no word is broken.
    if s[kept.len()..].starts_with(char::is_whitespace) {
        return format!("{}{MARK}", kept.trim_end());
    }
    let room = w - 1;
    match kept.rfind(char::is_whitespace) {
        Some(at) if kept[..at].trim_end().width() * 3 >= room * 2 => {
            format!("{}{MARK}", kept[..at].trim_end())
        }
        _ => hard,
    }
}

/// The start of `text` on one line: white space (line breaks too) folded
/// to single spaces, trimmed, then [`cut_words`] to `w` columns. The one
/// excerpt: a comment quoted in the inbox, an error body, a draft named in
/// a message.
pub fn excerpt(text: &str, w: usize) -> String {
    let folded = text.split_whitespace().collect::<Vec<_>>().join(" ");
    cut_words(&folded, w)
}

/// A part of a row for [`line`]: its text and how it gives way.
#[derive(Clone, Debug)]
pub struct Piece<'a> {
    pub text: Cow<'a, str>,
    /// Cut first: the lowest rank; [`Piece::whole`] pieces last of all.
    pub rank: u8,
    /// The columns it keeps (its `…` included) before the next is cut.
    pub floor: usize,
    /// Cut at a word's end ([`cut_words`]) rather than anywhere.
    pub words: bool,
}

impl<'a> Piece<'a> {
    /// Text kept whole while anything else can give way (separators,
    /// labels, counts).
    pub fn whole(text: impl Into<Cow<'a, str>>) -> Piece<'a> {
        Piece {
            text: text.into(),
            rank: u8::MAX,
            floor: usize::MAX,
            words: false,
        }
    }
    /// Text that gives way in the order of `rank`, down to `floor`
    /// columns.
    pub fn cut(text: impl Into<Cow<'a, str>>, rank: u8, floor: usize) -> Piece<'a> {
        Piece {
            text: text.into(),
            rank,
            floor,
            words: false,
        }
    }
    /// Cut at a word's end (prose).
    pub fn words(mut self) -> Piece<'a> {
        self.words = true;
        self
    }
}

/// The pieces side by side in at most `w` columns: while too wide, the
/// piece of the lowest rank (the later one on a tie) is cut down to its
/// floor, then the next; what still does not fit is cut at the end.
pub fn line(pieces: &[Piece], w: usize) -> String {
    let mut texts: Vec<String> = pieces.iter().map(|p| p.text.to_string()).collect();
    let total = |t: &[String]| t.iter().map(|s| s.width()).sum::<usize>();
    let mut order: Vec<usize> = (0..pieces.len())
        .filter(|&i| pieces[i].rank < u8::MAX)
        .collect();
    order.sort_by(|&a, &b| pieces[a].rank.cmp(&pieces[b].rank).then(b.cmp(&a)));
    for i in order {
        let over = total(&texts).saturating_sub(w);
        if over == 0 {
            break;
        }
        let now = texts[i].width();
        let keep = now.saturating_sub(over).max(pieces[i].floor.min(now));
        if keep < now {
            texts[i] = if pieces[i].words {
                cut_words(&texts[i], keep)
            } else {
                cut(&texts[i], keep)
            };
        }
    }
    cut(&texts.concat(), w)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A cut at a space leaves the mark right after the word, never a
    /// space (or, after two, two) before it (seen in the demo: a title
    /// cut at a space read `with  …`); every caller that cuts through
    /// `cut` agrees: a row's pieces, a fitted column, a cell.
    #[test]
    fn a_cut_at_a_space_drops_the_space_before_the_mark() {
        let title = "Schedule kickoff call with  Litware";
        assert_eq!(cut(title, 28), "Schedule kickoff call with…");
        assert_eq!(cut(title, 29), "Schedule kickoff call with…");
        assert_eq!(cut("a   b", 4), "a…");
        assert_eq!(cut("    b", 3), "…");
        assert_eq!(fit(title, 29), "Schedule kickoff call with…  ");
        assert_eq!(cell(title, 30), "Schedule kickoff call with…   ");
        assert_eq!(
            line(&[Piece::cut(title, 0, 5), Piece::whole(" · x")], 33),
            "Schedule kickoff call with… · x"
        );
        assert_eq!(cut_words(title, 30), "Schedule kickoff call with…");
    }

    std::thread_local! {
        /// Bytes [`Measured`] measured again, on this thread, and how many
        /// it may: past it the test fails at once (the quadratic way would
        /// take hours on a megabyte).
        static MEASURED: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
        static BUDGET: std::cell::Cell<usize> = const { std::cell::Cell::new(usize::MAX) };
    }

    /// [`Measured`] measures `bytes` again.
    pub(super) fn measured(bytes: usize) {
        let all = MEASURED.with(|m| m.get()) + bytes;
        MEASURED.with(|m| m.set(all));
        let budget = BUDGET.with(|b| b.get());
        assert!(
            all <= budget,
            "{all} bytes measured: over the budget of {budget}"
        );
    }

    #[test]
    fn cut_start_keeps_the_end_and_says_it_cut() {
        assert_eq!(cut_start("abc", 3), "abc");
        assert_eq!(cut_start("abcdef", 4), "…def");
        assert_eq!(cut_start("日本語です", 5), "…です");
        assert_eq!(cut_start("ab", 0), "");
        // A mark whose base was cut does not start what is shown.
        assert_eq!(cut_start("xe\u{301}\u{301}fg", 3), "…fg");
        assert_eq!(cut_start("ae\u{301}fgh", 4), "…fgh");
        assert_eq!(cut_start("xxe\u{301}fg", 4), "…e\u{301}fg");
    }

    /// The review: a long text typed or pasted into a one-line input hid
    /// the cursor beyond the right edge. Now the part around the cursor
    /// is shown, cut by width on either side, never wider than the room.
    #[test]
    fn around_keeps_the_cursor_in_sight_and_the_line_in_its_width() {
        let long = format!("{}END", "abcdefghij".repeat(10));
        // At the end: the end in sight, a column for the caret after it.
        let a = around(&long, long.len(), 20);
        assert_eq!(a.text, format!("…{}END", &"abcdefghij".repeat(2)[5..]));
        assert!(a.end && a.cursor == 19 && a.text.width() == 19, "{a:?}");
        // At the start: the start, cut on the right.
        let a = around(&long, 0, 20);
        assert_eq!(
            (a.text.as_str(), a.cursor, a.end),
            ("abcdefghijabcdefghi…", 0, false)
        );
        // In the middle: cut on both sides, the cursor's character shown.
        let a = around(&long, 50, 20);
        assert!(a.text.starts_with('…') && a.text.ends_with('…'), "{a:?}");
        assert_eq!(a.text.width(), 20);
        assert_eq!(a.cursor, 18);
        assert_eq!(&a.text[a.text.len() - 4..], "a…");
        // Wide characters: cut by their width, never beyond the room.
        let wide = "日本語".repeat(20);
        for at in [0, 30, wide.len()] {
            let a = around(&wide, at, 21);
            assert!(a.text.width() <= 21 && a.cursor < 21, "{at}: {a:?}");
        }
        // Short: whole.
        assert_eq!(
            around("abc", 1, 20),
            Around {
                text: "abc".into(),
                cursor: 1,
                end: true
            }
        );
    }

    /// `cut` as it was, measuring the whole text at each character of
    /// no width: what the linear one must equal.
    fn cut_before(s: &str, w: usize) -> String {
        if s.width() <= w {
            return s.to_string();
        }
        if w == 0 {
            return String::new();
        }
        let mut out = String::new();
        let mut used = 0;
        for c in s.chars() {
            out.push(c);
            let now = match c.width() {
                Some(0) | None => out.width(),
                Some(cw) => used + cw,
            };
            if now > w - 1 {
                out.pop();
                break;
            }
            used = now;
        }
        out.truncate(out.trim_end().len());
        out.push(MARK);
        out
    }

    /// The review: `cut` measured the whole text again at each character
    /// of no width, so a long run of them (pasted, or from the service)
    /// cost its length squared. A megabyte of zero-width spaces, of
    /// combining marks, of ZWJs, of one variation selector, after a
    /// letter, an emoji or an ideograph: each text is measured again at
    /// most once or twice over, and cut as before.
    #[test]
    fn a_megabyte_run_of_zero_width_characters_is_cut_in_linear_work() {
        for (head, zero) in [
            ("a", '\u{200B}'),
            ("e", '\u{301}'),
            ("👨", '\u{200D}'),
            ("❤", '\u{FE0F}'),
            ("中", '\u{20DD}'),
            ("ل", '\u{64B}'),
        ] {
            let run: String = std::iter::repeat_n(zero, 1_000_000 / zero.len_utf8()).collect();
            let text = format!("{head}{run} and after");
            MEASURED.with(|m| m.set(0));
            BUDGET.with(|b| b.set(2 * text.len() + 64));
            let got = cut(&text, 10);
            BUDGET.with(|b| b.set(usize::MAX));
            assert!(got.ends_with(MARK), "{head:?}");
            assert!(got.width() <= 10, "{head:?}");
            // The same as before, on a run short enough for the old way.
            let short = format!(
                "{head}{} and after",
                &run[..run.len().min(3000 * zero.len_utf8())]
            );
            assert_eq!(
                cut(&short, 10),
                cut_before(&short, 10),
                "{head:?} + {zero:?}"
            );
        }
    }

    proptest::proptest! {
        /// Every width measured today is kept: on short texts of the
        /// characters that reach back (emoji and their selectors, ZWJ,
        /// skin tones, flags, keycaps, Arabic lam-alef, Hebrew, Khmer,
        /// tags) among letters, digits, spaces and ideographs, the cut is
        /// the one before.
        #[test]
        fn the_cut_is_the_one_before(
            picks in proptest::collection::vec(0usize..CHARS.len(), 0..40),
            w in 0usize..24,
        ) {
            let text: String = picks.iter().map(|&i| CHARS[i]).collect();
            proptest::prop_assert_eq!(cut(&text, w), cut_before(&text, w));
        }
    }

    const CHARS: &[char] = &[
        'a',
        'Z',
        ' ',
        '.',
        '1',
        '#',
        '*',
        '\n',
        '\r',
        '中',
        '한',
        'é',
        '\u{301}',
        '\u{200B}',
        '\u{200D}',
        '\u{FE0F}',
        '\u{FE0E}',
        '\u{FE01}',
        '\u{20E3}',
        '❤',
        '👨',
        '👩',
        '🏳',
        '⚧',
        '\u{1F3FB}',
        '\u{1F1EB}',
        '\u{1F1F7}',
        '\u{E0067}',
        '\u{E007F}',
        '🏴',
        'ل',
        'ا',
        '\u{64B}',
        '\u{5D0}',
        '\u{5DC}',
        '\u{1780}',
        '\u{1783}',
        '\u{17D2}',
        '\u{1A10}',
        '\u{1A17}',
        '\u{2D31}',
        '\u{2D66}',
        '\u{2D7F}',
        '\u{A4FC}',
        '\u{A4F8}',
        '\u{10C03}',
        '\u{10C32}',
        '\u{34F}',
        '\u{16D67}',
        '\u{16D63}',
        '©',
        '\u{2018}',
        '\u{17D8}',
    ];

    /// What `unicode-width` 0.2.3 reads before a character (one of each
    /// rule of its `width_in_generic`): a text ending in one of these
    /// changes width when a character that reaches back follows it.
    const BEFORE: &[&str] = &[
        "",
        "a",
        " ",
        "1",
        "#",
        "*",
        "中",
        "é",
        "\r",
        "❤",
        "©",
        "⌚",
        "\u{2018}",
        "\u{201D}",
        "👨",
        "👩",
        "✋",
        "\u{200D}",
        "👨\u{200D}",
        "1\u{FE0F}\u{20E3}\u{200D}",
        "\u{644}",
        "\u{644}\u{64B}",
        "\u{5D0}\u{200D}",
        "\u{17D2}",
        "\u{1A15}\u{1A17}\u{200D}",
        "\u{2D31}",
        "\u{2D31}\u{200D}",
        "\u{2D31}\u{2D7F}",
        "\u{2D7F}",
        "\u{A4F8}",
        "\u{10C32}\u{200D}",
        "\u{16D63}",
        "\u{16D67}",
        "\u{16D68}",
        "\u{16D69}",
        "\u{1F1EB}",
        "\u{1F1EB}\u{1F1F7}",
        "👨\u{200D}\u{1F1EB}",
        "🏴\u{E0067}\u{E0062}\u{E0065}\u{E006E}\u{E0067}",
        "🏴\u{E0075}\u{E0073}\u{E0031}\u{E0032}",
    ];

    /// `Measured`, fed `s` a character at a time, against `width`.
    fn measured_as_width(s: &str) -> bool {
        let mut text = String::new();
        let mut m = Measured::default();
        for c in s.chars() {
            text.push(c);
            m.push(&text, c);
        }
        m.width(&text) == s.width()
    }

    /// The hand-copied context rules (`REACHES_BACK`, `is_plain`,
    /// `ASKED`, `is_anchor`) are `unicode-width`'s as the crate now stands: every
    /// character said plain adds its own width after each context of
    /// `BEFORE` (all of the first two planes and the tags and selectors);
    /// every anchor leaves those before it alone whatever follows it;
    /// and every character said not plain does reach back after one of
    /// them (the copy is no larger than it needs). An upgrade of
    /// `unicode-width` that changes one of these widths fails here, not
    /// on a user's screen.
    #[test]
    fn the_copied_context_rules_are_unicode_widths() {
        let chars = ('\0'..'\u{20000}').chain('\u{E0000}'..'\u{E01F0}');
        let mut wrong = Vec::new();
        let mut buf = String::new();
        let widths: Vec<usize> = BEFORE.iter().map(|t| t.width()).collect();
        for c in chars.clone().filter(|&c| !is_anchor(c) && is_plain(c)) {
            let lone = c.encode_utf8(&mut [0; 4]).width();
            for (t, tw) in BEFORE.iter().zip(&widths) {
                buf.clear();
                buf.push_str(t);
                buf.push(c);
                if buf.width() != tw + lone {
                    wrong.push(format!("{t:?} + {c:?} (plain)"));
                }
            }
        }
        let after: Vec<char> = REACHES_BACK
            .iter()
            .map(|&(a, _)| a)
            .chain([
                '\u{627}',
                '👨',
                '\u{20E3}',
                '\u{E007F}',
                '\u{1A17}',
                '\u{2D7F}',
            ])
            .collect();
        let cjk = ('\u{4E00}'..='\u{9FFF}').step_by(61);
        for c in chars.clone().take(128).filter(|&c| is_anchor(c)).chain(cjk) {
            for t in BEFORE {
                for u in &after {
                    buf.clear();
                    buf.push_str(t);
                    buf.push(c);
                    buf.push(*u);
                    if !measured_as_width(&buf) {
                        wrong.push(format!("{t:?} + {c:?} (anchor) + {u:?}"));
                    }
                }
            }
        }
        for c in chars.filter(|&c| !is_plain(c)) {
            let lone = c.encode_utf8(&mut [0; 4]).width();
            let alone = |t: &&str| format!("{t}{c}").width() == t.width() + lone;
            if BEFORE.iter().all(alone) {
                wrong.push(format!("{c:?} reaches back after none of BEFORE"));
            }
        }
        assert!(
            wrong.is_empty(),
            "{} wrong: {:?}",
            wrong.len(),
            &wrong[..wrong.len().min(40)]
        );
    }

    #[test]
    fn cut_by_display_width_always_says_it_cut() {
        assert_eq!(cut("abc", 3), "abc");
        assert_eq!(cut("abcdef", 4), "abc…");
        assert_eq!(cut("abcdef", 0), "");
        assert_eq!(cut("abcdef", 1), "…");
        // Two columns a character: never half of one.
        assert_eq!(cut("日本語テキスト", 6), "日本…");
        assert_eq!(cut("日本語", 4), "日…");
        assert_eq!(cut("🙂🙂🙂", 5), "🙂🙂…");
        for w in 0..12 {
            for s in [
                "日本語テキスト",
                "a🙂b🙂c🙂d",
                "plain words here",
                "a❤️b❤️c❤️d❤️",
                "1️⃣2️⃣3️⃣",
            ] {
                let c = cut(s, w);
                assert!(c.width() <= w, "{s:?} at {w}: {c:?}");
                assert!(c == s || c.ends_with(MARK) || w == 0, "{s:?} at {w}: {c:?}");
            }
        }
    }

    #[test]
    fn a_cell_keeps_its_column_apart() {
        assert_eq!(cell("urgent", 7), "urgent ");
        assert_eq!(cell("critical", 7), "criti… ");
        assert_eq!(cell("-", 7), "-      ");
        assert_eq!(cell("日本語", 6), "日本… ");
        assert_eq!(cell("x", 1), " ");
        assert_eq!(cell("x", 0), "");
    }

    #[test]
    fn fit_pads_to_exactly_the_width() {
        assert_eq!(fit("abc", 5), "abc  ");
        assert_eq!(fit("abcdef", 4), "abc…");
        assert_eq!(fit("日本語", 4), "日… ");
        assert_eq!(fit("日本語", 7), "日本語 ");
        assert_eq!(fit("日本語", 4).width(), 4);
    }

    #[test]
    fn prose_is_cut_at_a_word_end_with_the_mark() {
        let s = "@Alice the counterparty has sent a revised draft";
        let c = cut_words(s, 38);
        assert_eq!(c, "@Alice the counterparty has sent a…");
        assert!(c.width() <= 38);
        // A word ends exactly at the cut.
        assert_eq!(cut_words("one two three", 8), "one two…");
        // One long word: cut inside it, still saying so.
        assert_eq!(cut_words("supercalifragilistic", 8), "superca…");
        assert_eq!(cut_words("fits", 8), "fits");
    }

    #[test]
    fn excerpt_is_one_line_of_the_start() {
        assert_eq!(
            excerpt("  first line\n\nsecond  line ", 80),
            "first line second line"
        );
        assert_eq!(excerpt("a long first line\nsecond", 12), "a long firs…");
        assert_eq!(excerpt("a long first line\nsecond", 15), "a long first…");
        assert!(excerpt(&"日本語 ".repeat(20), 21).width() <= 21);
    }

    #[test]
    fn a_row_cuts_its_lowest_rank_first_and_keeps_the_change() {
        let pieces = [
            Piece::whole("#12      "),
            Piece::cut("A title that goes on and on", 0, 8),
            Piece::whole(" — "),
            Piece::cut("priority medium → high", 1, 6).words(),
        ];
        let row = line(&pieces, 44);
        assert_eq!(row, "#12      A title t… — priority medium → high");
        // Narrower: the title at its floor, then the reason by words.
        let row = line(&pieces, 30);
        assert!(row.starts_with("#12      A title… — "), "{row}");
        assert!(row.ends_with('…') && row.width() <= 30, "{row}");
        // Wide enough: nothing is cut.
        assert_eq!(
            line(&pieces, 80),
            "#12      A title that goes on and on — priority medium → high"
        );
    }

    #[test]
    fn a_row_of_whole_pieces_is_still_cut_to_the_width() {
        let row = line(&[Piece::whole("abcdef"), Piece::whole("ghij")], 6);
        assert_eq!(row, "abcde…");
    }
}
