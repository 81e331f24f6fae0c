//! Composing comments and requester replies.

use crate::app::input::LineInput;
use crate::app::state::*;
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui_textarea::TextArea;
use std::time::Instant;

impl Compose {
    /// Pasted text: line ends are already LF; control characters (ESC, C1,
    /// bidi overrides…) become their visible stand-ins, so what is sent is
    /// what is shown.
    pub fn paste(&mut self, text: &str) {
        if self.files_focus {
            self.file_ids.insert_str(&text.replace('\n', " "));
            return;
        }
        if matches!(self.state, SendState::Sending(_)) {
            return;
        }
        self.editor.insert_str(crate::text::sanitize(text, true));
        self.dirty_since.get_or_insert_with(Instant::now);
    }
}

impl State {
    pub fn open_compose(&mut self, kind: ComposeKind) -> Result<Vec<Effect>, String> {
        let t = self.current_task().ok_or(self.no_task_reason())?;
        let (task_id, task_label) = (t.id.as_str().to_string(), t.label());
        let channel = t.source_channel.as_ref().map(|c| c.line().into_owned());
        let mut initial = None;
        let mut restored = false;
        if let Some(saved) = self.drafts.load(&task_id, &kind.draft_key()) {
            initial = Some(saved);
            restored = true;
        } else if let ComposeKind::TextField { field } = &kind {
            let current = if *field == "description" {
                &t.description
            } else {
                &t.additional_context
            };
            initial = current.as_ref().map(|d| d.raw().to_string());
        } else if let ComposeKind::EditComment { comment_id } = &kind {
            initial = self
                .comment_rows()
                .into_iter()
                .find(|(_, c)| &c.id == comment_id)
                .map(|(_, c)| c.content.raw().to_string());
        }
        let mut editor = match &initial {
            Some(text) => TextArea::from(text.lines().map(str::to_string).collect::<Vec<_>>()),
            None => TextArea::default(),
        };
        editor.move_cursor(ratatui_textarea::CursorMove::Bottom);
        editor.move_cursor(ratatui_textarea::CursorMove::End);
        if restored {
            self.say(Level::Info, "restored your unsent draft (nothing was sent)");
        }
        let note = match &kind {
            ComposeKind::Requester => {
                match channel.as_deref() {
                    Some(c) if c.contains("mailbox") => Some(format!(
                        "Channel {c}: a reply here is normally STAGED AS A DRAFT in the mailbox owner's drafts, not sent. The result will say which."
                    )),
                    Some(c) => Some(format!("Channel {c}: the result will say whether it was sent.")),
                    None => None,
                }
            }
            _ => None,
        };
        let initial_text = if restored {
            String::new()
        } else {
            initial.clone().unwrap_or_default()
        };
        self.overlay = Overlay::Compose(Box::new(Compose {
            note,
            initial: initial_text,
            task_id,
            task_label,
            kind,
            editor,
            files_focus: false,
            file_ids: LineInput::default(),
            state: SendState::Editing,
            dirty_since: None,
            restored,
        }));
        Ok(vec![])
    }

    /// `u` (reply) and `w` (edit) on the selected comment.
    pub fn compose_comment_action(&mut self, edit: bool) -> Vec<Effect> {
        let selected = self
            .detail
            .as_ref()
            .filter(|d| d.tab == Tab::Comments)
            .and_then(|d| {
                self.comment_rows()
                    .get(d.cursor)
                    .map(|(_, c)| (c.id.as_str().to_string(), c.author.id.as_str().to_string()))
            });
        let Some((comment_id, author)) = selected else {
            self.say(Level::Warn, "select a comment in the Comments tab first");
            return vec![];
        };
        // The comment is shown, so it belongs to the current task.
        if edit && Some(author.as_str()) != self.my_id() {
            self.say(Level::Warn, "only your own comments can be edited");
            return vec![];
        }
        let kind = if edit {
            ComposeKind::EditComment { comment_id }
        } else {
            ComposeKind::ReplyComment { comment_id }
        };
        match self.open_compose(kind) {
            Ok(fx) => fx,
            Err(e) => {
                self.say(Level::Error, e);
                vec![]
            }
        }
    }

    pub fn compose_key(&mut self, mut c: Box<Compose>, ev: KeyEvent) -> Vec<Effect> {
        let ctrl = ev.modifiers.contains(KeyModifiers::CONTROL);
        let closing = ev.code == KeyCode::Esc || (ctrl && ev.code == KeyCode::Char('c'));
        if matches!(c.state, SendState::Sending(_)) && !closing {
            // The text being sent is fixed until the service answers: what
            // is typed now could not be kept apart from what was sent.
            self.overlay = Overlay::Compose(c);
            return vec![];
        }
        match ev.code {
            KeyCode::Char('s') if ctrl => return self.send_compose(c),
            KeyCode::Char('e') if ctrl => {
                let initial = c.text();
                self.overlay = Overlay::Compose(c);
                return vec![Effect::Editor {
                    target: EditorTarget::Compose,
                    initial,
                }];
            }
            KeyCode::Esc | KeyCode::Char('c') if ev.code == KeyCode::Esc || ctrl => {
                let text = c.text();
                if matches!(c.state, SendState::Sending(_)) {
                    // The draft goes when the service confirms, not before.
                    self.say(Level::Info, "closed; the send is still in flight and the draft is kept until it succeeds");
                    return vec![];
                }
                if text == c.initial {
                    // Nothing typed: nothing to keep.
                    self.drafts.delete(&c.task_id, &c.kind.draft_key());
                    return vec![];
                }
                match self.drafts.save(&c.task_id, &c.kind.draft_key(), &text) {
                    Ok(Some(p)) => self.say(
                        Level::Info,
                        format!("draft kept in {} (not sent)", p.display()),
                    ),
                    Ok(None) => {}
                    Err(e) => {
                        self.say(
                            Level::Error,
                            format!("could not save the draft: {e}; text kept open"),
                        );
                        self.overlay = Overlay::Compose(c);
                    }
                }
                return vec![];
            }
            KeyCode::Tab | KeyCode::BackTab if c.kind.takes_files() => {
                c.files_focus = !c.files_focus;
            }
            _ if c.files_focus => {
                c.file_ids.handle(&ev);
            }
            _ => {
                if c.editor.input(ev) {
                    c.dirty_since.get_or_insert_with(Instant::now);
                    if matches!(c.state, SendState::Failed { .. }) {
                        c.state = SendState::Editing;
                    }
                }
            }
        }
        self.overlay = Overlay::Compose(c);
        vec![]
    }

    fn send_compose(&mut self, mut c: Box<Compose>) -> Vec<Effect> {
        if matches!(c.state, SendState::Sending(_)) {
            self.overlay = Overlay::Compose(c);
            return vec![];
        }
        let content = c.text();
        if content.trim().is_empty() {
            self.say(Level::Warn, "nothing to send");
            self.overlay = Overlay::Compose(c);
            return vec![];
        }
        let file_ids: Vec<String> = c
            .file_ids
            .text
            .split(|ch: char| ch == ',' || ch.is_whitespace())
            .filter(|s| !s.is_empty())
            .map(str::to_string)
            .collect();
        if let Some(bad) = file_ids.iter().find(|f| uuid::Uuid::parse_str(f).is_err()) {
            self.say(Level::Error, format!("{bad:?} is not a file id (uuid)"));
            self.overlay = Overlay::Compose(c);
            return vec![];
        }
        // Saved again just before sending: a crash mid-send loses nothing.
        if let Err(e) = self.drafts.save(&c.task_id, &c.kind.draft_key(), &content) {
            self.say(
                Level::Warn,
                format!("could not save the draft before sending: {e}"),
            );
        }
        c.dirty_since = None;
        let id = c.task_id.clone();
        let req = match &c.kind {
            ComposeKind::Comment => ApiRequest::AddComment {
                id,
                content,
                file_ids,
            },
            ComposeKind::ReplyComment { comment_id } => ApiRequest::ReplyComment {
                id,
                comment_id: comment_id.clone(),
                content,
                file_ids,
            },
            ComposeKind::EditComment { comment_id } => ApiRequest::EditComment {
                id,
                comment_id: comment_id.clone(),
                content,
            },
            ComposeKind::TextField { field } => {
                let patch = text_patch(field, &content);
                let fx = self.patch_task(id, field, "(edited)".into(), patch);
                if let Effect::Api { ticket, .. } = &fx {
                    c.state = SendState::Sending(*ticket);
                    self.sending.insert(
                        *ticket,
                        (c.task_id.clone(), c.kind.draft_key(), c.task_label.clone()),
                    );
                }
                self.overlay = Overlay::Compose(c);
                return vec![fx];
            }
            ComposeKind::Requester => ApiRequest::ReplyRequester {
                id,
                content,
                file_ids,
            },
        };
        let fx = self.request(req);
        if let Effect::Api { ticket, .. } = &fx {
            c.state = SendState::Sending(*ticket);
            self.sending.insert(
                *ticket,
                (c.task_id.clone(), c.kind.draft_key(), c.task_label.clone()),
            );
        }
        self.overlay = Overlay::Compose(c);
        vec![fx]
    }

    /// Save the open draft if it changed and typing paused (debounce).
    pub fn autosave_draft(&mut self, now: Instant, force: bool) {
        let Overlay::Compose(c) = &mut self.overlay else {
            return;
        };
        let due = c.dirty_since.is_some_and(|t| {
            force || now.duration_since(t) >= std::time::Duration::from_millis(700)
        });
        if !due {
            return;
        }
        c.dirty_since = None;
        let (task, key, text) = (c.task_id.clone(), c.kind.draft_key(), c.text());
        if let Err(e) = self.drafts.save(&task, &key, &text) {
            self.say(Level::Error, format!("could not save the draft: {e}"));
        }
    }

    /// The editor came back with `text` for `target`.
    pub fn editor_done(
        &mut self,
        target: EditorTarget,
        result: Result<String, String>,
    ) -> Vec<Effect> {
        let text = match result {
            Ok(t) => t,
            Err(e) => {
                self.say(
                    Level::Error,
                    format!("editor failed: {e}; nothing was changed"),
                );
                return vec![];
            }
        };
        match target {
            EditorTarget::Compose => {
                if let Overlay::Compose(c) = &mut self.overlay {
                    let lines: Vec<String> = text
                        .trim_end_matches('\n')
                        .lines()
                        .map(str::to_string)
                        .collect();
                    c.editor = TextArea::from(lines);
                    c.editor.move_cursor(ratatui_textarea::CursorMove::Bottom);
                    c.editor.move_cursor(ratatui_textarea::CursorMove::End);
                    c.dirty_since = Some(Instant::now());
                }
                self.autosave_draft(Instant::now(), true);
                vec![]
            }
            EditorTarget::Description { task_id } => {
                self.text_field_done(task_id, "description", text)
            }
            EditorTarget::AdditionalContext { task_id } => {
                self.text_field_done(task_id, "additional_context", text)
            }
        }
    }

    fn text_field_done(&mut self, task_id: String, field: &str, text: String) -> Vec<Effect> {
        let text = text.trim_end_matches('\n').to_string();
        let current = self
            .detail
            .as_ref()
            .and_then(|d| d.task.as_ref())
            .filter(|t| t.id == task_id)
            .map(|t| {
                if field == "description" {
                    t.description.as_ref().map(|d| d.raw().to_string())
                } else {
                    t.additional_context.as_ref().map(|d| d.raw().to_string())
                }
            });
        if current.flatten().unwrap_or_default() == text {
            self.say(Level::Info, format!("{field} unchanged"));
            return vec![];
        }
        vec![self.patch_task(task_id, field, "(edited)".into(), text_patch(field, &text))]
    }
}

/// A PATCH of the description or the additional context; an empty text
/// clears the field (explicit null).
pub fn text_patch(field: &str, text: &str) -> crate::api::TaskPatch {
    use crate::api::{Field, TaskPatch};
    let text = text.trim_end_matches('\n');
    let value = if text.trim().is_empty() {
        Field::Clear
    } else {
        Field::Set(text.to_string())
    };
    let mut patch = TaskPatch::default();
    if field == "description" {
        patch.description = value;
    } else {
        patch.additional_context = value;
    }
    patch
}
