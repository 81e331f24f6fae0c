//! A bound on what one frame may draw. ratatui allocates two buffers of
//! the terminal's reported size; a terminal (or a hostile multiplexer)
//! reporting 65535×65535 cells would make that gigabytes and abort. The
//! backend is wrapped so that ratatui sees at most [`MAX_COLS`]×[`MAX_ROWS`]:
//! the frame is drawn in the top-left corner of the terminal, and a line at
//! its bottom says so.
//!
//! It also remembers the cursor it set: ratatui hides or shows and places
//! the cursor after every frame, and a frame that changed no cell then
//! writes nothing at all (an idle screen stays silent for screen readers).

use ratatui::backend::{Backend, ClearType, WindowSize};
use ratatui::buffer::Cell;
use ratatui::layout::{Position, Rect, Size};
use ratatui::style::{Modifier, Style};
use ratatui::text::Line;
use ratatui::Frame;

/// The widest frame drawn, in cells: wider than any real screen in any
/// legible font.
pub const MAX_COLS: u16 = 1000;
/// The tallest frame drawn, in rows.
pub const MAX_ROWS: u16 = 500;

/// `size` bounded to what one frame may draw.
pub fn clamp(size: Size) -> Size {
    Size::new(size.width.min(MAX_COLS), size.height.min(MAX_ROWS))
}

/// A backend whose reported size is bounded by [`clamp`]; everything else
/// is the wrapped backend's.
pub struct Clamped<B> {
    inner: B,
    /// The cursor as last written: shown or hidden, and where (`None`:
    /// unknown, written next time).
    shown: Option<bool>,
    at: Option<Position>,
}

impl<B: Backend> Clamped<B> {
    pub fn new(inner: B) -> Self {
        Clamped {
            inner,
            shown: None,
            at: None,
        }
    }

    pub fn inner(&self) -> &B {
        &self.inner
    }

    /// The cursor as last written: shown (`None` unknown) and where.
    pub fn cursor(&self) -> (Option<bool>, Option<Position>) {
        (self.shown, self.at)
    }

    /// The terminal's own size when it is larger than what is drawn.
    pub fn clamped_from(&self) -> Option<Size> {
        let real = self.inner.size().ok()?;
        (clamp(real) != real).then_some(real)
    }
}

impl<B: Backend> Backend for Clamped<B> {
    type Error = B::Error;

    fn draw<'a, I>(&mut self, content: I) -> Result<(), Self::Error>
    where
        I: Iterator<Item = (u16, u16, &'a Cell)>,
    {
        let mut content = content.peekable();
        if content.peek().is_none() {
            return Ok(());
        }
        // Cells drawn move the terminal's cursor.
        self.at = None;
        self.inner.draw(content)
    }

    fn append_lines(&mut self, n: u16) -> Result<(), Self::Error> {
        self.inner.append_lines(n)
    }

    fn hide_cursor(&mut self) -> Result<(), Self::Error> {
        if self.shown == Some(false) {
            return Ok(());
        }
        self.inner.hide_cursor()?;
        self.shown = Some(false);
        Ok(())
    }

    fn show_cursor(&mut self) -> Result<(), Self::Error> {
        if self.shown == Some(true) {
            return Ok(());
        }
        self.inner.show_cursor()?;
        self.shown = Some(true);
        Ok(())
    }

    fn get_cursor_position(&mut self) -> Result<Position, Self::Error> {
        self.inner.get_cursor_position()
    }

    fn set_cursor_position<P: Into<Position>>(&mut self, position: P) -> Result<(), Self::Error> {
        let p = position.into();
        if self.at == Some(p) {
            return Ok(());
        }
        self.inner.set_cursor_position(p)?;
        self.at = Some(p);
        Ok(())
    }

    fn clear(&mut self) -> Result<(), Self::Error> {
        // After a clear (and a resume, which wrote to the terminal
        // directly) nothing is known of the cursor.
        (self.shown, self.at) = (None, None);
        self.inner.clear()
    }

    fn clear_region(&mut self, clear_type: ClearType) -> Result<(), Self::Error> {
        (self.shown, self.at) = (None, None);
        self.inner.clear_region(clear_type)
    }

    fn size(&self) -> Result<Size, Self::Error> {
        self.inner.size().map(clamp)
    }

    fn window_size(&mut self) -> Result<WindowSize, Self::Error> {
        let mut w = self.inner.window_size()?;
        w.columns_rows = clamp(w.columns_rows);
        Ok(w)
    }

    fn flush(&mut self) -> Result<(), Self::Error> {
        self.inner.flush()
    }
}

/// Say on the frame's last row that only part of the terminal is drawn.
pub fn draw_notice(f: &mut Frame, real: Size) {
    let area = f.area();
    if area.height == 0 {
        return;
    }
    let row = Rect::new(area.x, area.bottom() - 1, area.width, 1);
    let text = format!(
        " the terminal reports {}×{} cells: only {}×{} are drawn ",
        real.width, real.height, area.width, area.height
    );
    f.render_widget(
        Line::styled(text, Style::default().add_modifier(Modifier::REVERSED)),
        row,
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use ratatui::backend::TestBackend;
    use ratatui::Terminal;

    /// A terminal that reports an absurd size but keeps only what is drawn
    /// (a `TestBackend` of that size would itself take gigabytes).
    struct Huge(TestBackend);

    impl Backend for Huge {
        type Error = core::convert::Infallible;
        fn draw<'a, I: Iterator<Item = (u16, u16, &'a Cell)>>(
            &mut self,
            content: I,
        ) -> Result<(), Self::Error> {
            self.0.draw(content)
        }
        fn hide_cursor(&mut self) -> Result<(), Self::Error> {
            self.0.hide_cursor()
        }
        fn show_cursor(&mut self) -> Result<(), Self::Error> {
            self.0.show_cursor()
        }
        fn get_cursor_position(&mut self) -> Result<Position, Self::Error> {
            self.0.get_cursor_position()
        }
        fn set_cursor_position<P: Into<Position>>(&mut self, p: P) -> Result<(), Self::Error> {
            self.0.set_cursor_position(p)
        }
        fn clear(&mut self) -> Result<(), Self::Error> {
            self.0.clear()
        }
        fn clear_region(&mut self, c: ClearType) -> Result<(), Self::Error> {
            self.0.clear_region(c)
        }
        fn size(&self) -> Result<Size, Self::Error> {
            Ok(Size::new(u16::MAX, u16::MAX))
        }
        fn window_size(&mut self) -> Result<WindowSize, Self::Error> {
            Ok(WindowSize {
                columns_rows: Size::new(u16::MAX, u16::MAX),
                pixels: Size::new(0, 0),
            })
        }
        fn flush(&mut self) -> Result<(), Self::Error> {
            self.0.flush()
        }
    }

    #[test]
    fn a_huge_terminal_gets_a_bounded_frame_that_says_so() {
        let backend = Clamped::new(Huge(TestBackend::new(MAX_COLS, MAX_ROWS)));
        let real = backend.clamped_from().expect("clamped");
        assert_eq!(real, Size::new(65535, 65535));
        let mut term = Terminal::new(backend).unwrap();
        let state =
            crate::app::new_state("test".into(), &crate::config::Settings::default(), false);
        let theme = crate::ui::Theme::dark();
        let mut area = Rect::default();
        term.draw(|f| {
            crate::ui::render(f, &state, &theme);
            draw_notice(f, real);
            area = f.area();
        })
        .unwrap();
        assert_eq!(area, Rect::new(0, 0, MAX_COLS, MAX_ROWS));
        let buf = term.backend().inner().0.buffer();
        let last: String = (0..120)
            .map(|x| buf[(x, MAX_ROWS - 1)].symbol().to_string())
            .collect();
        assert!(
            last.contains("the terminal reports 65535×65535 cells: only 1000×500 are drawn"),
            "{last}"
        );
    }

    #[test]
    fn sizes_are_clamped_only_when_too_large() {
        assert_eq!(clamp(Size::new(120, 40)), Size::new(120, 40));
        assert_eq!(clamp(Size::new(65535, 10)), Size::new(MAX_COLS, 10));
        assert_eq!(clamp(Size::new(10, 65535)), Size::new(10, MAX_ROWS));
    }
}
