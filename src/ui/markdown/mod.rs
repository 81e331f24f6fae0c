//! Text as written: the Markdown of descriptions, context, comments and
//! requester messages, drawn as a terminal can show it.
//!
//! Emphasis becomes bold/italic, lists get bullets and numbers, block
//! quotes a `│ ` bar, headings bold, code spans and blocks a style of their
//! own (their text verbatim), and links show their target (`text <url>`).
//!
//! Safety: the text is sanitised as a whole before parsing (controls made
//! visible, secrets scrubbed), and every piece the parser hands back is
//! sanitised again — entities and escapes (`&#27;`, `&#x9b;`) can produce
//! control characters after parsing.
//!
//! Nothing is hidden: link targets are shown, HTML is shown as written,
//! link reference definitions are listed at the end, and the raw view
//! ([`raw`], the `toggle_markdown` action) shows the text exactly as
//! written, one key away.

use super::wrap::{wrap_words, Piece};
use super::Theme;
use crate::text::Untrusted;
use pulldown_cmark::{CodeBlockKind, Event, HeadingLevel, Options, Parser, Tag, TagEnd};
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};

/// The text exactly as written (sanitised), each line after `indent`.
pub fn raw(text: &Untrusted, indent: &str, theme: &Theme) -> Vec<Line<'static>> {
    text.text()
        .split('\n')
        .map(|l| Line::styled(format!("{indent}{l}"), theme.base))
        .collect()
}

/// The style of code spans and blocks: the accent colour without its
/// weight, or dim where there is no colour.
pub fn code_style(theme: &Theme) -> Style {
    match theme.accent.fg {
        Some(c) => Style::default().fg(c),
        None => Style::default().add_modifier(Modifier::DIM),
    }
}

/// Render `text` as Markdown in lines of at most `width` columns, each
/// starting with `indent`.
pub fn render(text: &Untrusted, width: usize, indent: &str, theme: &Theme) -> Vec<Line<'static>> {
    let source = text.text();
    let mut r = Renderer {
        theme,
        width,
        indent: indent.to_string(),
        out: Vec::new(),
        pieces: Vec::new(),
        styles: vec![theme.base],
        containers: Vec::new(),
        links: Vec::new(),
        code_block: false,
        gap: false,
        loose: false,
    };
    let mut opts = Options::empty();
    opts.insert(Options::ENABLE_STRIKETHROUGH);
    opts.insert(Options::ENABLE_TASKLISTS);
    let mut parser = Parser::new_ext(&source, opts);
    for ev in parser.by_ref() {
        r.event(ev);
    }
    r.flush();
    // Reference definitions vanish from the rendered text: list them.
    let mut defs: Vec<(String, String)> = parser
        .reference_definitions()
        .iter()
        .map(|(label, d)| (clean(label), clean(&d.dest)))
        .collect();
    defs.sort();
    if !defs.is_empty() {
        r.blank();
        for (label, dest) in defs {
            let pieces = vec![
                (format!("[{label}]: "), theme.dim),
                (format!("<{dest}>"), theme.dim),
            ];
            r.lines(&pieces);
        }
    }
    if r.out.is_empty() {
        r.out.push(Line::raw(indent.to_string()));
    }
    r.out
}

/// One piece of parsed text, safe for a cell.
fn clean(s: &str) -> String {
    crate::text::sanitize(s, false).into_owned()
}

enum Container {
    Quote,
    /// A list: the number of the next item (`None`: bullets) and its depth.
    List(Option<u64>, usize),
    /// An item: its marker until its first line is drawn, then its width.
    Item {
        marker: Option<String>,
        width: usize,
    },
}

struct Renderer<'t> {
    theme: &'t Theme,
    width: usize,
    indent: String,
    out: Vec<Line<'static>>,
    /// The inline content of the block being built.
    pieces: Vec<Piece>,
    styles: Vec<Style>,
    containers: Vec<Container>,
    /// Targets of the links being built (shown after their text).
    links: Vec<String>,
    code_block: bool,
    /// A blank line is due before the next block.
    gap: bool,
    /// The current item holds paragraphs (a loose list).
    loose: bool,
}

impl Renderer<'_> {
    fn style(&self) -> Style {
        self.styles.last().copied().unwrap_or(self.theme.base)
    }

    fn push_style(&mut self, f: impl FnOnce(Style) -> Style) {
        let s = f(self.style());
        self.styles.push(s);
    }

    fn pop_style(&mut self) {
        if self.styles.len() > 1 {
            self.styles.pop();
        }
    }

    fn text(&mut self, s: &str, style: Style) {
        self.pieces.push((clean(s), style));
    }

    /// The prefixes of the next line: (first line, continuation lines).
    /// Takes pending item markers.
    fn prefixes(&mut self) -> (Vec<Span<'static>>, Vec<Span<'static>>) {
        let bar = self.theme.dim;
        let bar_text = self.quote_bar();
        let mut first = vec![Span::raw(self.indent.clone())];
        let mut rest = first.clone();
        for c in self.containers.iter_mut() {
            match c {
                Container::Quote => {
                    first.push(Span::styled(bar_text, bar));
                    rest.push(Span::styled(bar_text, bar));
                }
                Container::List(..) => {}
                Container::Item { marker, width } => {
                    let pad = " ".repeat(*width);
                    match marker.take() {
                        Some(m) => first.push(Span::styled(m, self.theme.accent)),
                        None => first.push(Span::raw(pad.clone())),
                    }
                    rest.push(Span::raw(pad));
                }
            }
        }
        (first, rest)
    }

    fn lines(&mut self, pieces: &[Piece]) {
        let (first, rest) = self.prefixes();
        let lines = wrap_words(pieces, self.width, first, rest);
        self.out.extend(lines);
    }

    /// A blank line (quote bars continue through it).
    fn blank(&mut self) {
        let (_, mut spans) = self.prefixes_without_markers();
        // No trailing spaces: up to the last quote bar, if any.
        while spans.last().is_some_and(|s| s.content.trim().is_empty()) {
            spans.pop();
        }
        if let Some(last) = spans.pop() {
            spans.push(Span::styled(
                last.content.trim_end().to_string(),
                last.style,
            ));
        }
        self.out.push(Line::from(spans));
    }

    /// A quote's bar: a line, or in accessible mode a `|` (no box
    /// drawing read aloud).
    fn quote_bar(&self) -> &'static str {
        if self.theme.accessible {
            "| "
        } else {
            "│ "
        }
    }

    fn prefixes_without_markers(&self) -> (Vec<Span<'static>>, Vec<Span<'static>>) {
        let mut rest = vec![Span::raw(self.indent.clone())];
        for c in &self.containers {
            match c {
                Container::Quote => rest.push(Span::styled(self.quote_bar(), self.theme.dim)),
                Container::Item { width, .. } => rest.push(Span::raw(" ".repeat(*width))),
                Container::List(..) => {}
            }
        }
        (rest.clone(), rest)
    }

    /// Draw the block built so far.
    fn flush(&mut self) {
        if self.pieces.is_empty() {
            return;
        }
        if self.gap && !self.out.is_empty() {
            self.blank();
        }
        self.gap = false;
        let pieces = std::mem::take(&mut self.pieces);
        if self.code_block {
            // Verbatim: every line as it is, never re-flowed.
            let text: String = pieces.iter().map(|(t, _)| t.as_str()).collect();
            let style = code_style(self.theme);
            for l in text.trim_end_matches('\n').split('\n') {
                let (first, _) = self.prefixes();
                let mut spans = first;
                spans.push(Span::styled(format!("  {l}"), style));
                self.out.push(Line::from(spans));
            }
        } else {
            self.lines(&pieces);
        }
    }

    fn event(&mut self, ev: Event<'_>) {
        let theme = self.theme;
        match ev {
            Event::Start(tag) => self.start(tag),
            Event::End(tag) => self.end(tag),
            Event::Text(t) => {
                if self.code_block {
                    // Keep the line breaks of a code block.
                    let style = code_style(theme);
                    self.pieces
                        .push((crate::text::sanitize(&t, true).into_owned(), style));
                } else {
                    let style = self.style();
                    self.text(&t, style);
                }
            }
            Event::Code(t) => self.text(&t, code_style(theme)),
            Event::InlineMath(t) | Event::DisplayMath(t) => self.text(&t, code_style(theme)),
            // HTML is shown as written, never interpreted or dropped.
            Event::Html(t) | Event::InlineHtml(t) => {
                let style = self.style();
                let text = crate::text::sanitize(&t, true).into_owned();
                self.pieces
                    .push((text.trim_end_matches('\n').to_string(), style));
                // HTML block lines end with a line break: keep it.
                if t.ends_with('\n') {
                    self.pieces.push(("\n".into(), style));
                }
            }
            Event::FootnoteReference(t) => {
                let style = self.style();
                self.text(&format!("[^{t}]"), style);
            }
            Event::SoftBreak | Event::HardBreak => {
                // As written: a line break stays a line break.
                let style = self.style();
                self.pieces.push(("\n".into(), style));
            }
            Event::Rule => {
                self.flush();
                if !self.out.is_empty() {
                    self.blank();
                }
                let w = self.width.saturating_sub(self.indent.len()).clamp(1, 40);
                let (first, _) = self.prefixes();
                let mut spans = first;
                // Accessible mode: a word, not a run of one mark.
                if theme.accessible {
                    spans.push(Span::styled("(rule)", theme.dim));
                } else {
                    spans.push(Span::styled("─".repeat(w), theme.dim));
                }
                self.out.push(Line::from(spans));
                self.gap = true;
            }
            Event::TaskListMarker(done) => {
                let style = self.style();
                self.text(if done { "[x] " } else { "[ ] " }, style);
            }
        }
    }

    fn start(&mut self, tag: Tag<'_>) {
        let theme = self.theme;
        match tag {
            Tag::Paragraph => self.flush(),
            Tag::Heading { level, .. } => {
                self.flush();
                self.push_style(|s| {
                    let s = s.add_modifier(Modifier::BOLD);
                    if level == HeadingLevel::H1 {
                        s.add_modifier(Modifier::UNDERLINED)
                    } else {
                        s
                    }
                });
            }
            Tag::BlockQuote(_) => {
                self.flush();
                // The blank line before a quote has no bar.
                if !self.out.is_empty() && (self.gap || !self.in_tight_item()) {
                    self.blank();
                }
                self.gap = false;
                self.containers.push(Container::Quote);
            }
            Tag::CodeBlock(kind) => {
                self.flush();
                self.code_block = true;
                if let CodeBlockKind::Fenced(lang) = kind {
                    if !lang.is_empty() {
                        self.gap = !self.out.is_empty();
                        self.pieces.push((format!("{}\n", clean(&lang)), theme.dim));
                        self.flush_lang();
                    }
                }
            }
            Tag::HtmlBlock => self.flush(),
            Tag::List(start) => {
                self.flush();
                let depth = self
                    .containers
                    .iter()
                    .filter(|c| matches!(c, Container::List(..)))
                    .count();
                if depth == 0 && !self.out.is_empty() {
                    self.gap = true;
                }
                self.containers.push(Container::List(start, depth));
            }
            Tag::Item => {
                self.flush();
                let (marker, width) = match self.containers.last_mut() {
                    Some(Container::List(Some(n), _)) => {
                        let m = format!("{n}. ");
                        *n += 1;
                        let w = m.chars().count();
                        (m, w)
                    }
                    Some(Container::List(None, depth)) => {
                        let bullet = ["•", "◦", "▪"][*depth % 3];
                        (format!("{bullet} "), 2)
                    }
                    _ => ("• ".to_string(), 2),
                };
                self.containers.push(Container::Item {
                    marker: Some(marker),
                    width,
                });
            }
            Tag::Emphasis => self.push_style(|s| s.add_modifier(Modifier::ITALIC)),
            Tag::Strong => self.push_style(|s| s.add_modifier(Modifier::BOLD)),
            Tag::Strikethrough => self.push_style(|s| s.add_modifier(Modifier::CROSSED_OUT)),
            Tag::Superscript | Tag::Subscript => self.push_style(|s| s),
            Tag::Link { dest_url, .. } => {
                self.links.push(clean(&dest_url));
                self.push_style(|s| s.add_modifier(Modifier::UNDERLINED));
            }
            Tag::Image { dest_url, .. } => {
                self.links.push(clean(&dest_url));
                let style = self.style();
                self.text("[image: ", style);
                self.push_style(|s| s);
            }
            Tag::FootnoteDefinition(label) => {
                self.flush();
                let style = self.style();
                self.text(&format!("[^{label}]: "), style);
            }
            Tag::Table(_)
            | Tag::TableHead
            | Tag::TableRow
            | Tag::TableCell
            | Tag::DefinitionList
            | Tag::DefinitionListTitle
            | Tag::DefinitionListDefinition
            | Tag::MetadataBlock(_) => {}
        }
    }

    /// The language line of a fenced block, drawn before its code.
    fn flush_lang(&mut self) {
        let pieces = std::mem::take(&mut self.pieces);
        if self.gap && !self.out.is_empty() {
            self.blank();
        }
        self.gap = false;
        let (first, _) = self.prefixes();
        let mut spans = first;
        for (t, s) in pieces {
            spans.push(Span::styled(format!("  {}", t.trim_end()), s));
        }
        self.out.push(Line::from(spans));
    }

    fn in_tight_item(&self) -> bool {
        matches!(self.containers.last(), Some(Container::Item { .. }))
    }

    fn end(&mut self, tag: TagEnd) {
        match tag {
            TagEnd::Paragraph => {
                self.flush();
                self.gap = true;
                // Paragraphs in an item make a loose list: gaps between items.
                if self.in_tight_item() {
                    self.loose = true;
                }
            }
            TagEnd::Heading(_) => {
                self.flush();
                self.pop_style();
                self.gap = true;
            }
            TagEnd::BlockQuote(_) => {
                self.flush();
                self.containers.pop();
                self.gap = true;
            }
            TagEnd::CodeBlock => {
                self.flush();
                self.code_block = false;
                self.gap = true;
            }
            TagEnd::HtmlBlock => {
                self.flush();
                self.gap = true;
            }
            TagEnd::List(_) => {
                self.flush();
                self.containers.pop();
                self.gap = true;
            }
            TagEnd::Item => {
                self.flush();
                // An item with nothing in it still shows its marker.
                if let Some(Container::Item {
                    marker: Some(_), ..
                }) = self.containers.last()
                {
                    let (first, _) = self.prefixes();
                    self.out.push(Line::from(first));
                }
                self.containers.pop();
                // Items of a tight list follow each other without a gap.
                self.gap = std::mem::take(&mut self.loose);
            }
            TagEnd::Emphasis
            | TagEnd::Strong
            | TagEnd::Strikethrough
            | TagEnd::Superscript
            | TagEnd::Subscript => self.pop_style(),
            TagEnd::Link => {
                self.pop_style();
                let dest = self.links.pop().unwrap_or_default();
                // An autolink's text is its target: shown once.
                let shown: String = self
                    .pieces
                    .iter()
                    .rev()
                    .take(1)
                    .map(|(t, _)| t.clone())
                    .collect();
                let bare = dest.strip_prefix("mailto:").unwrap_or(&dest);
                if !dest.is_empty() && shown != dest && shown != bare {
                    let style = self.theme.dim;
                    self.text(&format!(" <{dest}>"), style);
                }
            }
            TagEnd::Image => {
                self.pop_style();
                let dest = self.links.pop().unwrap_or_default();
                let style = self.style();
                self.text(&format!("] <{dest}>"), style);
            }
            TagEnd::FootnoteDefinition => {
                self.flush();
                self.gap = true;
            }
            TagEnd::Table
            | TagEnd::TableHead
            | TagEnd::TableRow
            | TagEnd::TableCell
            | TagEnd::DefinitionList
            | TagEnd::DefinitionListTitle
            | TagEnd::DefinitionListDefinition
            | TagEnd::MetadataBlock(_) => {}
        }
    }
}

#[cfg(test)]
mod tests;
