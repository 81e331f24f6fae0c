//! Composing comments and requester replies.

use crate::app::state::input::LineInput;
use crate::app::state::{
    ApiRequest, Compose, ComposeKind, EditorTarget, Effect, Level, Overlay, SendState, State, Tab,
};
use crate::domain::fixed_keys::{self, FixedKeys};
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui_textarea::TextArea;
use std::time::Instant;

/// Said in the composer while its own text is being sent.
pub const SENDING_KEYS_IGNORED: &str = "sending… keys are ignored until the service answers";
/// Said when the composer opens on a draft whose send is in flight.
pub const SEND_IN_FLIGHT: &str =
    "a send of this text is in flight: ctrl-s is refused until the service answers";
/// Said when a send of the draft may have reached the service.
pub const SEND_MAY_HAVE_REACHED: &str =
    "a send of this text may have reached the service: check before sending again";

impl Compose {
    /// Pasted text: line ends are already LF; control characters (ESC, C1,
    /// bidi overrides…) become their visible stand-ins, so what is sent is
    /// what is shown. While the text is being sent nothing is taken, and
    /// the composer says so.
    pub fn paste(&mut self, text: &str) {
        if self.files_focus {
            self.file_ids.insert_str(&text.replace('\n', " "));
            return;
        }
        if matches!(self.state, SendState::Sending(_)) {
            self.set_banner(Some(SENDING_KEYS_IGNORED.into()));
            return;
        }
        self.editor.insert_str(crate::text::sanitize(text, true));
        crate::app::state::composer::fit_wrap(&mut self.editor);
        self.dirty_since.get_or_insert_with(crate::clock::instant);
    }
}

impl State {
    /// The send in flight of this draft, if any: (ticket, what was sent).
    pub fn send_in_flight(&self, task_id: &str, key: &str) -> Option<(u64, &str)> {
        self.sending
            .iter()
            .find(|(_, s)| s.task_id == task_id && s.key == key)
            .map(|(t, s)| (*t, s.text.as_str()))
    }

    /// The composer opens only once the service said who the user is:
    /// drafts belong to a service *and* a user, and a draft read or written
    /// before that could be another user's. (The identity is the first
    /// request at start, so this is rarely seen.)
    fn drafts_for_me(&mut self) -> Result<(), String> {
        if self.me.is_none() {
            return Err(match &self.me_error {
                Some(e) => format!(
                    "who you are is not known ({e}): drafts are kept per user, so the composer cannot open"
                ),
                None => "who you are is not known yet: the composer opens once the service has answered (drafts are kept per user)".into(),
            });
        }
        self.bind_drafts();
        Ok(())
    }

    pub fn open_compose(&mut self, kind: ComposeKind) -> Result<Vec<Effect>, String> {
        self.drafts_for_me()?;
        let t = self.current_task().ok_or(self.no_task_reason())?;
        let (task_id, task_label) = (t.id.as_str().to_string(), t.label());
        let channel = t.source_channel.as_ref().map(|c| c.line().into_owned());
        let key = kind.draft_key();
        let mut initial = None;
        let mut restored = false;
        let mut said = Vec::new();
        if let Some((text, path)) = self.drafts.editor_leftover(&task_id, &key) {
            // The editor's file outlived its session (the terminal went
            // away, the editor failed): it is the newest text.
            said.push(format!(
                "restored the text of an $EDITOR session that did not finish ({})",
                path.display()
            ));
            match self.drafts.save(&task_id, &key, &text) {
                Ok(_) => {
                    let _ = std::fs::remove_file(&path);
                }
                Err(e) => said.push(format!("could not save it as the draft: {e}")),
            }
            initial = Some(text);
            restored = true;
        } else if let Some(saved) = self.drafts.load(&task_id, &key) {
            initial = Some(saved);
            restored = true;
        } else if let ComposeKind::TextField { field } = &kind {
            let current = if *field == "description" {
                &t.description
            } else {
                &t.additional_context
            };
            initial = current.as_ref().map(|d| d.raw().to_string());
        } else if let ComposeKind::ReplyComment { comment_id } = &kind {
            // A reply offers the comment it answers, quoted.
            initial = self
                .comment_rows()
                .into_iter()
                .find(|(_, c)| &c.id == comment_id)
                .map(|(_, c)| {
                    let mut q: String = c
                        .content
                        .raw()
                        .lines()
                        .map(|l| format!("> {l}\n"))
                        .collect();
                    // A blank line ends the quote; the cursor goes below it.
                    q.push_str("\n\n");
                    q
                });
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
        // Long lines wrap softly on screen (at 80 columns the start of a
        // line stays in view); what is sent keeps the lines as typed. A
        // huge text is not wrapped (WRAP_LIMIT): the composer says so.
        crate::app::state::composer::fit_wrap(&mut editor);
        editor.move_cursor(ratatui_textarea::CursorMove::Bottom);
        editor.move_cursor(ratatui_textarea::CursorMove::End);
        // What became of the last send of this draft: in flight (this
        // run), or perhaps applied (a record left by an earlier run, or a
        // timeout).
        let banner = if self.send_in_flight(&task_id, &key).is_some() {
            Some(SEND_IN_FLIGHT.to_string())
        } else {
            match self.drafts.sent_record(&task_id, &key) {
                Some(_) if !restored => {
                    // Nothing left of the draft: the record is stale.
                    self.drafts.clear_sent(&task_id, &key);
                    None
                }
                Some(rec) => Some(format!(
                    "{SEND_MAY_HAVE_REACHED} (sent: \"{}\")",
                    crate::cut::excerpt(&crate::text::clean(&rec.text), 40)
                )),
                None => None,
            }
        };
        match &banner {
            Some(b) => said.push(b.clone()),
            None if restored && said.is_empty() => {
                said.push("restored your unsent draft (nothing was sent)".into())
            }
            None => {}
        }
        if !said.is_empty() {
            self.say(Level::Info, said.join("; "));
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
        // What the text area holds at first, as `text()` reads it back.
        let initial_text = if restored {
            String::new()
        } else {
            editor.lines().join("\n")
        };
        let mut c = Compose {
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
            unsaved: false,
            restored,
            banner: None,
            mention: None,
            owner: self.my_id().map(str::to_string),
        };
        c.set_banner(banner);
        self.overlay = Overlay::Compose(Box::new(c));
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
        let closing = ComposerKey::of(&ev) == Some(ComposerKey::Close);
        if matches!(c.state, SendState::Sending(_)) && !closing {
            // The text being sent is fixed until the service answers: what
            // is typed now could not be kept apart from what was sent. The
            // keys are not taken, and the composer says so.
            c.set_banner(Some(SENDING_KEYS_IGNORED.into()));
            self.say(Level::Warn, SENDING_KEYS_IGNORED);
            self.overlay = Overlay::Compose(c);
            return vec![];
        }
        let key = ComposerKey::of(&ev);
        match ev.code {
            _ if key == Some(ComposerKey::Send) => return self.send_compose(c),
            _ if key == Some(ComposerKey::Editor) => {
                let initial = c.text();
                // Saved before the editor starts: if the terminal goes
                // away meanwhile, the draft is on disk already.
                let drafts = self.drafts.of(c.owner.as_deref());
                let saved = drafts.save(&c.task_id, &c.kind.draft_key(), &initial);
                c.unsaved = saved.is_err();
                if let Err(e) = saved {
                    self.say(
                        Level::Error,
                        format!("could not save the draft: {e}; the editor was not started"),
                    );
                    self.overlay = Overlay::Compose(c);
                    return vec![];
                }
                c.dirty_since = None;
                self.overlay = Overlay::Compose(c);
                return vec![Effect::Editor {
                    target: EditorTarget::Compose,
                    initial,
                }];
            }
            _ if key == Some(ComposerKey::Close) => {
                let text = c.text();
                if matches!(c.state, SendState::Sending(_)) {
                    // The draft goes when the service confirms, not before.
                    self.say(Level::Info, "closed; the send is still in flight and the draft is kept until it succeeds");
                    return vec![];
                }
                let drafts = self.drafts.of(c.owner.as_deref());
                if text == c.initial {
                    // Nothing typed: nothing to keep.
                    drafts.delete(&c.task_id, &c.kind.draft_key());
                    return vec![];
                }
                match drafts.save(&c.task_id, &c.kind.draft_key(), &text) {
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
                        c.unsaved = true;
                        self.overlay = Overlay::Compose(c);
                    }
                }
                return vec![];
            }
            // `@` + letters, then Tab: the best-matching person.
            KeyCode::Tab if !c.files_focus && self.complete_mention(&mut c) => {}
            _ if key == Some(ComposerKey::Files) && c.kind.takes_files() => {
                c.files_focus = !c.files_focus;
            }
            _ if c.files_focus => {
                c.file_ids.handle(&ev);
            }
            _ => {
                if c.editor.input(line_feed_is_a_new_line(ev)) {
                    crate::app::state::composer::fit_wrap(&mut c.editor);
                    c.dirty_since.get_or_insert_with(crate::clock::instant);
                    if matches!(c.state, SendState::Failed { .. }) {
                        c.state = SendState::Editing;
                    }
                }
            }
        }
        c.mention = self.mention_candidates(&c).map(|v| v.join(" · "));
        self.overlay = Overlay::Compose(c);
        vec![]
    }

    /// The `@prefix` right before the cursor, if a mention is being typed.
    fn mention_prefix(c: &Compose) -> Option<String> {
        let cur = c.editor.cursor();
        let (row, col) = (cur.0, cur.1);
        let line: String = c.editor.lines().get(row)?.chars().take(col).collect();
        let at = line.rfind('@')?;
        let prefix = &line[at + 1..];
        let starts_word = at == 0 || line[..at].ends_with(char::is_whitespace);
        (starts_word && !prefix.is_empty() && !prefix.contains(char::is_whitespace))
            .then(|| prefix.to_string())
    }

    /// People of the directory matching the mention being typed, best
    /// first (at most five): the one name matcher (`domain::names`), as
    /// `:assign` suggests them.
    fn mention_candidates(&self, c: &Compose) -> Option<Vec<String>> {
        let prefix = Self::mention_prefix(c)?;
        let labels = self.directory.person_labels();
        let hits = crate::domain::names::suggest(&prefix, &labels);
        (!hits.is_empty()).then(|| {
            hits.into_iter()
                .take(5)
                .map(|i| labels[i].shown.clone())
                .collect()
        })
    }

    /// Replace the `@prefix` before the cursor with `@Name ` of the best
    /// match; false when no mention is being typed or nobody matches.
    fn complete_mention(&mut self, c: &mut Compose) -> bool {
        let Some(prefix) = Self::mention_prefix(c) else {
            return false;
        };
        let people: Vec<&crate::app::state::directory::PersonEntry> =
            self.directory.people.values().collect();
        let labels: Vec<&crate::domain::names::Label> = people.iter().map(|p| &p.listed).collect();
        let Some(best) = crate::domain::names::suggest(&prefix, &labels)
            .first()
            .copied()
        else {
            return false;
        };
        let name = crate::text::name_or_email(&people[best].name, &people[best].email);
        for _ in 0..prefix.chars().count() {
            c.editor.delete_char();
        }
        c.editor.insert_str(format!("{name} "));
        crate::app::state::composer::fit_wrap(&mut c.editor);
        c.dirty_since.get_or_insert_with(crate::clock::instant);
        c.mention = None;
        true
    }

    fn send_compose(&mut self, mut c: Box<Compose>) -> Vec<Effect> {
        if matches!(c.state, SendState::Sending(_)) {
            self.overlay = Overlay::Compose(c);
            return vec![];
        }
        let content = c.text();
        let key = c.kind.draft_key();
        if let Err(fx) = self.composer_may_send(&mut c) {
            self.overlay = Overlay::Compose(c);
            return fx;
        }
        if let Some((_, sent)) = self.send_in_flight(&c.task_id, &key) {
            // One send of a draft at a time: until it is answered, what it
            // took from the draft is not known.
            let msg = if sent == content {
                format!("not sent: {SEND_IN_FLIGHT}")
            } else {
                "not sent: a send of this draft is in flight; what you added is kept and can be sent once the service answers".into()
            };
            c.set_banner(Some(SEND_IN_FLIGHT.into()));
            self.say(Level::Warn, msg);
            self.overlay = Overlay::Compose(c);
            return vec![];
        }
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
        // Saved again just before sending, with a record of exactly what
        // is sent: a crash mid-send loses nothing, and the next start knows
        // the send may have reached the service.
        if let Err(e) = self
            .drafts
            .save(&c.task_id, &key, &content)
            .and_then(|_| self.drafts.mark_sending(&c.task_id, &key, &content))
        {
            self.say(
                Level::Warn,
                format!("could not save the draft before sending: {e}"),
            );
        }
        c.dirty_since = None;
        c.set_banner(None);
        let in_flight = crate::app::state::drafts::InFlight {
            task_id: c.task_id.clone(),
            key,
            label: c.task_label.clone(),
            text: content.clone(),
            appends: c.kind.takes_files(),
            what: c.kind.title().to_lowercase(),
            owner: c.owner.clone(),
        };
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
                    self.sending.insert(*ticket, in_flight);
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
            self.sending.insert(*ticket, in_flight);
        }
        self.overlay = Overlay::Compose(c);
        vec![fx]
    }

    /// Save the open draft if it changed and typing paused (debounce).
    /// True when it failed and said so: the screen has something new to
    /// show (no key or answer may come to draw it).
    pub fn autosave_draft(&mut self, now: Instant, force: bool) -> bool {
        let Overlay::Compose(c) = &mut self.overlay else {
            return false;
        };
        let due = c.dirty_since.is_some_and(|t| {
            force || now.duration_since(t) >= std::time::Duration::from_millis(700)
        });
        if !due {
            return false;
        }
        c.dirty_since = None;
        let (task, key, text) = (c.task_id.clone(), c.kind.draft_key(), c.text());
        let drafts = self.drafts.of(c.owner.as_deref());
        let saved = drafts.save(&task, &key, &text);
        c.unsaved = saved.is_err();
        if let Err(e) = saved {
            self.say(Level::Error, format!("could not save the draft: {e}"));
            return true;
        }
        false
    }

    /// The editor came back with `text` for `target`.
    pub fn editor_done(
        &mut self,
        target: EditorTarget,
        result: Result<String, String>,
    ) -> Vec<Effect> {
        let text = match result {
            // Line ends as the rest of the program has them (LF); the text
            // is otherwise kept exactly as written in the editor.
            Ok(t) => crate::app::state::drafts::from_editor(&t),
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
                    c.set_text(&text);
                    c.dirty_since = Some(crate::clock::instant());
                    if matches!(c.state, SendState::Failed { .. }) {
                        c.state = SendState::Editing;
                    }
                }
                self.autosave_draft(crate::clock::instant(), true);
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

/// A line feed (ctrl-j: what a terminal sends for a newline pasted without
/// bracketed paste, and Enter on some) starts a new line, as Enter does.
/// The text area's own ctrl-j deletes to the head of the line: typed text
/// would be lost.
fn line_feed_is_a_new_line(ev: KeyEvent) -> KeyEvent {
    match ev.code {
        KeyCode::Char('j') if ev.modifiers == KeyModifiers::CONTROL => {
            KeyEvent::new(KeyCode::Enter, KeyModifiers::NONE)
        }
        _ => ev,
    }
}

/// What a key of the composer does. The composer reads its keys in code,
/// not in the keymap (every letter types there); they are named once, in
/// [`COMPOSER_KEYS`], for its handler, its own line, the hint line and the
/// help screen (issue 40: they were written in three places).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ComposerKey {
    Send,
    Editor,
    /// The file ids' field, or the person an `@name` being typed names.
    Files,
    Close,
}

/// The composer's keys: what each does, the keys that do it (the first
/// is the one lines name), and the words lines say.
pub const COMPOSER_KEYS: FixedKeys<ComposerKey> = &[
    (ComposerKey::Send, &["ctrl-s"], "send"),
    (ComposerKey::Editor, &["ctrl-e"], "$EDITOR"),
    // After `@name` Tab completes the person: the line says so then.
    (ComposerKey::Files, &["tab", "shift-tab"], "file ids"),
    (ComposerKey::Close, &["esc", "ctrl-c"], "close (draft kept)"),
];

impl ComposerKey {
    /// The composer key `ev` is, read from [`COMPOSER_KEYS`].
    pub fn of(ev: &KeyEvent) -> Option<ComposerKey> {
        fixed_keys::key_of(COMPOSER_KEYS, ev)
    }
}

/// What `esc` does while the draft cannot be saved (a full disk): it
/// tries once more and, failing, leaves the composer open.
pub const CLOSE_UNSAVED: &str = "saves the draft, else stays open (it could not be saved)";

/// The composer's keys in one line, each as `key what`, joined by `sep`.
pub fn composer_keys_line(sep: &str) -> String {
    fixed_keys::line(COMPOSER_KEYS, sep)
}

/// The line for this composer: while its draft cannot be saved, `esc`
/// is said as what it does then ([`CLOSE_UNSAVED`]), not `close (draft
/// kept)`.
pub fn composer_hint(c: &Compose, sep: &str) -> String {
    let line = composer_keys_line(sep);
    if !c.unsaved {
        return line;
    }
    match COMPOSER_KEYS
        .iter()
        .find(|(k, ..)| *k == ComposerKey::Close)
    {
        Some((_, keys, words)) => line.replace(
            &format!("{} {words}", keys[0]),
            &format!("{} {CLOSE_UNSAVED}", keys[0]),
        ),
        None => line,
    }
}
