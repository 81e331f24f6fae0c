//! The composer's state: what is being written (a comment, a reply, a
//! description), its text area, its file ids and where its send stands.
//! Drawn by `ui::overlays::compose`, driven by `popups/compose.rs`.

use crate::app::state::input::LineInput;
use std::time::Instant;

/// Above this many bytes the composer's text is no longer wrapped on
/// screen (long lines run on, the view follows the cursor sideways) and
/// the composer says so: ratatui-textarea lays the whole text out again at
/// each edit when it wraps, 0.25–0.7 s a key with a 1 MB paste. The text
/// itself is kept whole either way. Figures: docs/performance.md
/// "A huge text in the composer" (benches/composer.rs).
pub const WRAP_LIMIT: usize = 32 * 1024;

/// Soft wrap for a text up to [`WRAP_LIMIT`] bytes, none above it; set
/// only when it changes (setting it lays the text out again).
pub fn fit_wrap(editor: &mut ratatui_textarea::TextArea<'_>) {
    let mut len = 0usize;
    for l in editor.lines() {
        len += l.len() + 1;
        if len > WRAP_LIMIT {
            break;
        }
    }
    let mode = if len > WRAP_LIMIT {
        ratatui_textarea::WrapMode::None
    } else {
        ratatui_textarea::WrapMode::WordOrGlyph
    };
    if editor.wrap_mode() != mode {
        editor.set_wrap_mode(mode);
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ComposeKind {
    Comment,
    ReplyComment {
        comment_id: String,
    },
    EditComment {
        comment_id: String,
    },
    Requester,
    /// Edit the description (`description`) or additional context in the TUI.
    TextField {
        field: &'static str,
    },
}

impl ComposeKind {
    /// File ids can be attached to new comments and replies only.
    pub fn takes_files(&self) -> bool {
        matches!(
            self,
            ComposeKind::Comment | ComposeKind::ReplyComment { .. } | ComposeKind::Requester
        )
    }
    pub fn title(&self) -> &'static str {
        match self {
            ComposeKind::Comment => "Internal comment",
            ComposeKind::ReplyComment { .. } => "Reply to comment",
            ComposeKind::EditComment { .. } => "Edit comment",
            ComposeKind::Requester => "Reply to the requester",
            ComposeKind::TextField {
                field: "description",
            } => "Description",
            ComposeKind::TextField { .. } => "Additional context",
        }
    }
    /// File name part for the draft.
    pub fn draft_key(&self) -> String {
        match self {
            ComposeKind::Comment => "comment".into(),
            ComposeKind::ReplyComment { comment_id } => format!("reply-{comment_id}"),
            ComposeKind::EditComment { comment_id } => format!("edit-{comment_id}"),
            ComposeKind::Requester => "requester".into(),
            ComposeKind::TextField { field } => field.to_string(),
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum SendState {
    Editing,
    Sending(u64),
    Failed {
        message: String,
        outcome_unknown: bool,
    },
}

pub struct Compose {
    /// A warning shown above the text (e.g. a reply will be a draft).
    pub note: Option<String>,
    /// The text the composer opened with (closing it unchanged keeps no draft).
    pub initial: String,
    pub task_id: String,
    pub task_label: String,
    pub kind: ComposeKind,
    pub editor: ratatui_textarea::TextArea<'static>,
    /// Editing the file ids line instead of the body.
    pub files_focus: bool,
    pub file_ids: LineInput,
    pub state: SendState,
    pub dirty_since: Option<Instant>,
    /// The last save of its draft failed (a full disk): `esc` keeps it
    /// open then, and its hint says so.
    pub unsaved: bool,
    pub restored: bool,
    /// What the composer must say above the text (a send of it in flight,
    /// or one that may have reached the service); drawn as the title of
    /// the text area.
    pub banner: Option<String>,
    /// People matching the `@mention` being typed (Tab takes the first).
    pub mention: Option<String>,
    /// The user who opened it (`GET /me`): its text is theirs, kept,
    /// sent and deleted as theirs only.
    pub owner: Option<String>,
}

impl Compose {
    pub fn text(&self) -> String {
        self.editor.lines().join("\n")
    }

    /// Show `banner` above the text (or nothing).
    pub fn set_banner(&mut self, banner: Option<String>) {
        match &banner {
            Some(b) => {
                self.editor.set_block(
                    ratatui::widgets::Block::default().title(ratatui::text::Span::styled(
                        crate::text::clean(b),
                        ratatui::style::Style::default()
                            .add_modifier(ratatui::style::Modifier::BOLD),
                    )),
                )
            }
            None => self.editor.remove_block(),
        }
        self.banner = banner;
    }

    /// Replace the text (keeps the banner), cursor at the end.
    pub fn set_text(&mut self, text: &str) {
        let mut editor = ratatui_textarea::TextArea::from(
            text.split('\n').map(str::to_string).collect::<Vec<_>>(),
        );
        fit_wrap(&mut editor);
        editor.move_cursor(ratatui_textarea::CursorMove::Bottom);
        editor.move_cursor(ratatui_textarea::CursorMove::End);
        self.editor = editor;
        let banner = self.banner.take();
        self.set_banner(banner);
    }
}
