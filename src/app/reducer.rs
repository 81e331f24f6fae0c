//! Keys and commands become state changes and requests.

use super::dates;
use super::input::LineInput;
use super::keymap::{Action, Context};
use super::palette;
use super::state::*;
use crate::api::*;
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use std::time::{Duration, Instant};

/// How long a quiet pause in typing waits before the search is sent.
pub const SEARCH_DEBOUNCE: Duration = Duration::from_millis(250);
/// How long "undo archive" is offered.
pub const UNDO_WINDOW: Duration = Duration::from_secs(8);

impl State {
    /// First requests at start-up.
    pub fn start(&mut self) -> Vec<Effect> {
        let mut fx = vec![self.request(ApiRequest::Me)];
        fx.extend(self.reload_list(false));
        fx
    }

    /// Start a new walk of the list. With `keep`, rows already loaded stay
    /// until the new rows arrive and the walk refills as many.
    pub fn reload_list(&mut self, keep: bool) -> Vec<Effect> {
        let l = &mut self.list;
        l.gen += 1;
        l.cursor = None;
        l.end_reached = false;
        l.loading = true;
        l.error = None;
        l.replacing = true;
        l.previous = if keep {
            l.items
                .iter()
                .filter_map(|i| {
                    i.task()
                        .map(|t| (t.id.as_str().to_string(), t.updated_at.clone()))
                })
                .collect()
        } else {
            Default::default()
        };
        l.refill_to = if keep {
            l.items.len().max(l.selected + 1)
        } else {
            0
        };
        l.keep_selected = if keep {
            l.selected_id().map(str::to_string)
        } else {
            None
        };
        if !keep {
            l.items.clear();
            l.selected = 0;
            l.offset = 0;
            l.changed.clear();
        }
        self.last_refresh = Instant::now();
        let req = ApiRequest::ListPage {
            gen: self.list.gen,
            query: self.effective_query(),
            limit: self.page_size,
            cursor: None,
        };
        vec![self.request(req)]
    }

    /// Fetch the next page when the selection nears the end of what is loaded.
    pub fn fetch_ahead(&mut self) -> Vec<Effect> {
        let l = &self.list;
        let near_end =
            l.selected + (self.page_size as usize / 2).max(self.list_height) >= l.items.len();
        if l.loading || l.end_reached || l.cursor.is_none() || !near_end {
            return vec![];
        }
        vec![self.next_page()]
    }

    /// Ask for the page after the loaded ones (same walk, same limit).
    pub fn next_page(&mut self) -> Effect {
        self.list.loading = true;
        let req = ApiRequest::ListPage {
            gen: self.list.gen,
            query: self.effective_query(),
            limit: self.page_size,
            cursor: self.list.cursor.clone(),
        };
        self.request(req)
    }

    pub fn on_paste(&mut self, text: &str) {
        match &mut self.overlay {
            Overlay::Compose(c) if !c.files_focus => {
                c.editor.insert_str(text);
                c.dirty_since.get_or_insert_with(Instant::now);
            }
            Overlay::Compose(c) => c.file_ids.insert_str(text),
            Overlay::Palette(p) => p.input.insert_str(text),
            Overlay::Search(i) => {
                i.insert_str(text);
                self.search = i.text.clone();
                self.search_due = Some(Instant::now() + SEARCH_DEBOUNCE);
            }
            _ => {}
        }
    }

    pub fn on_key(&mut self, ev: KeyEvent) -> Vec<Effect> {
        if !matches!(self.overlay, Overlay::None) {
            return self.overlay_key(ev);
        }
        let contexts: &[Context] = match self.focus {
            Focus::List => &[Context::Task, Context::List, Context::Global],
            Focus::Detail => &[Context::Task, Context::Detail, Context::Global],
        };
        match self.keymap.lookup(contexts, &ev) {
            Some(a) => self.act(a),
            None => vec![],
        }
    }

    pub fn act(&mut self, a: Action) -> Vec<Effect> {
        match a {
            Action::Help => {
                self.overlay = Overlay::Help {
                    filter: LineInput::default(),
                    scroll: 0,
                };
                vec![]
            }
            Action::Palette => self.open_palette(""),
            Action::Quit => {
                self.quit = true;
                vec![Effect::Quit]
            }
            Action::Refresh => self.refresh(),
            Action::Search => {
                self.overlay = Overlay::Search(LineInput::with(&self.search));
                vec![]
            }
            Action::Filter => self.open_filter_form(),
            Action::FocusNext | Action::FocusPrev => {
                if self.detail.is_some() {
                    self.focus = match self.focus {
                        Focus::List => Focus::Detail,
                        Focus::Detail => Focus::List,
                    };
                } else {
                    let fx = self.open_selected();
                    if !fx.is_empty() || self.detail.is_some() {
                        return fx;
                    }
                }
                vec![]
            }
            Action::ViewAll => self.set_view(View::All),
            Action::ViewMine => self.set_view(View::Mine),
            Action::ViewInvolving => self.set_view(View::Involving),
            Action::ViewDueWeek => self.set_view(View::DueWeek),
            Action::MessageLog => vec![Effect::ShowLog],
            Action::Down => self.move_by(1),
            Action::Up => self.move_by(-1),
            Action::HalfPageDown => self.move_by((self.list_height / 2).max(1) as i64),
            Action::HalfPageUp => self.move_by(-((self.list_height / 2).max(1) as i64)),
            Action::Top => self.move_by(i64::MIN / 2),
            Action::Bottom => {
                let fx = self.move_by(i64::MAX / 2);
                // Keep going to the bottom as the following pages arrive.
                self.list.to_bottom = self.focus == Focus::List && !self.list.end_reached;
                fx
            }
            Action::Open => match self.focus {
                Focus::List => {
                    let fx = self.open_selected();
                    if self.detail.is_some() {
                        self.focus = Focus::Detail;
                    }
                    fx
                }
                Focus::Detail => self.open_in_detail(),
            },
            Action::Back => self.back(),
            Action::PrevTab => self.switch_tab(-1),
            Action::NextTab => self.switch_tab(1),
            Action::SetStatus => self.open_palette("status "),
            Action::SetPriority => self.open_palette("priority "),
            Action::Assign => self.open_palette("assign "),
            Action::SetDue => self.open_palette("due "),
            Action::SetTags => {
                let tags = self
                    .current_task()
                    .map(|t| {
                        t.tags
                            .iter()
                            .map(|t| t.raw().to_string())
                            .collect::<Vec<_>>()
                            .join(",")
                    })
                    .unwrap_or_default();
                self.open_palette(&format!("tags {tags}"))
            }
            Action::EditTitle => {
                let title = self
                    .current_task()
                    .map(|t| t.title.line().into_owned())
                    .unwrap_or_default();
                self.open_palette(&format!("title {title}"))
            }
            Action::EditDescription => self.command("description editor"),
            Action::Comment => self.command("comment"),
            Action::ReplyRequester => self.command("reply"),
            Action::CopyDisplayId => self.command("copy"),
            Action::CopyId => self.command("copy id"),
            Action::ArchiveToggle => match self.current_task().map(|t| t.archived) {
                Some(true) => self.command("restore"),
                Some(false) => self.command("archive"),
                None => self.no_task(),
            },
            Action::AcceptDraft => self.command("accept"),
            Action::RejectDraft => self.command("reject"),
            Action::NewSubtask => self.open_palette("subtask "),
            Action::AddLink => self.open_palette("link "),
            Action::ChangeRole => self.open_palette("role "),
            Action::EditCheckIds => {
                let current = self
                    .selected_link()
                    .and_then(|l| l.context.as_ref())
                    .map(|c| {
                        c.check_ids
                            .iter()
                            .map(|i| i.raw().to_string())
                            .collect::<Vec<_>>()
                            .join(",")
                    });
                self.open_palette(&format!("checks {}", current.unwrap_or_default()))
            }
            Action::ReplyComment => self.compose_comment_action(false),
            Action::EditComment => self.compose_comment_action(true),
            Action::Share => self.command("share"),
            Action::Undo => self.command("undo"),
            Action::Attach => self.open_palette("attach "),
            Action::RemoveItem => match self.detail.as_ref().map(|d| d.tab) {
                Some(Tab::Links) => self.command("unlink"),
                Some(Tab::Files) => self.command("detach"),
                _ => {
                    self.say(
                        Level::Warn,
                        "select a link (Links tab) or a file (Files tab) to remove",
                    );
                    vec![]
                }
            },
        }
    }

    /// The message overlay: this session's messages, newest first, then the
    /// tail of the log file when there is one.
    pub fn show_log(&mut self, file: Option<(String, Vec<String>)>) {
        let mut lines: Vec<String> = self
            .messages
            .iter()
            .rev()
            .map(|m| format!("{} {:?} {}", m.at.format("%H:%M:%S"), m.level, m.text))
            .collect();
        if lines.is_empty() {
            lines.push("no messages yet".into());
        }
        if let Some((path, tail)) = file {
            lines.push(String::new());
            lines.push(format!("— the end of the log file {path} —"));
            lines.extend(tail.into_iter().rev());
        }
        self.overlay = Overlay::Text {
            title: "Messages (newest first)".into(),
            lines,
            scroll: 0,
        };
    }

    fn no_task(&mut self) -> Vec<Effect> {
        let why = self.no_task_reason();
        self.say(Level::Warn, why);
        vec![]
    }

    /// Why there is no current task to act on.
    pub fn no_task_reason(&self) -> &'static str {
        match (&self.detail, self.focus) {
            (Some(d), Focus::Detail) if d.task.is_none() && d.error.is_none() => {
                "the task is still loading"
            }
            (Some(d), Focus::Detail) if d.task.is_none() => "the task could not be loaded",
            _ => "no task selected",
        }
    }

    pub fn open_palette(&mut self, prefill: &str) -> Vec<Effect> {
        self.overlay = Overlay::Palette(Palette {
            input: LineInput::with(prefill),
            selected: 0,
        });
        vec![]
    }

    pub fn refresh(&mut self) -> Vec<Effect> {
        let mut fx = self.reload_list(true);
        if let Some(d) = &mut self.detail {
            let id = d.task_id.clone();
            let tab = d.tab;
            d.comments = Load::NotLoaded;
            d.thread = Load::NotLoaded;
            d.subtasks = Load::NotLoaded;
            d.sharing = Load::NotLoaded;
            fx.push(self.request(ApiRequest::GetTask { id }));
            fx.extend(self.load_tab(tab));
        }
        fx
    }

    fn set_view(&mut self, v: View) -> Vec<Effect> {
        if v != View::All && self.me.is_none() {
            self.say(
                Level::Warn,
                "who you are is not known yet (identity lookup pending or failed)",
            );
            return vec![];
        }
        self.view = v;
        self.focus = Focus::List;
        self.reload_list(false)
    }

    fn move_by(&mut self, delta: i64) -> Vec<Effect> {
        self.list.to_bottom = false;
        match self.focus {
            Focus::List => {
                let n = self.list.items.len();
                if n == 0 {
                    return vec![];
                }
                let cur = self.list.selected as i64;
                self.list.selected = (cur.saturating_add(delta)).clamp(0, n as i64 - 1) as usize;
                self.fetch_ahead()
            }
            Focus::Detail => {
                let rows = self.tab_rows();
                if let Some(d) = &mut self.detail {
                    if rows == 0 {
                        let s = d.scroll as i64 + delta;
                        d.scroll = s.clamp(0, 10_000) as u16;
                    } else {
                        let c = d.cursor as i64 + delta;
                        d.cursor = c.clamp(0, rows as i64 - 1) as usize;
                    }
                }
                vec![]
            }
        }
    }

    /// How many selectable rows the current tab has (0: it scrolls).
    pub fn tab_rows(&self) -> usize {
        let Some(d) = &self.detail else { return 0 };
        match d.tab {
            Tab::Overview | Tab::Sharing => 0,
            Tab::Comments => self.comment_rows().len(),
            Tab::Requester => 0,
            Tab::Links => d.task.as_ref().map_or(0, |t| t.linked_items.len()),
            Tab::Files => d.task.as_ref().map_or(0, |t| file_entries(t).len()),
            Tab::Subtasks => match &d.subtasks {
                Load::Loaded(v) => v.len(),
                _ => 0,
            },
        }
    }

    pub fn open_selected(&mut self) -> Vec<Effect> {
        let Some(item) = self.list.items.get(self.list.selected).cloned() else {
            return vec![];
        };
        match item {
            TaskItem::Task(t) => {
                self.back_stack.clear();
                self.open_task(t.id.as_str().to_string(), Some(*t))
            }
            TaskItem::Unreadable {
                id: Some(id),
                reason,
                ..
            } => {
                self.say(
                    Level::Warn,
                    format!("this item could not be read ({reason}); loading it by id"),
                );
                self.open_task(id, None)
            }
            TaskItem::Unreadable { reason, .. } => {
                self.say(
                    Level::Error,
                    format!("this item could not be read: {reason}"),
                );
                vec![]
            }
        }
    }

    pub fn open_task(&mut self, id: String, task: Option<Task>) -> Vec<Effect> {
        // The list follows: the opened task is selected when it is loaded.
        if let Some(i) = self.list.position(&id) {
            self.list.selected = i;
        }
        let tab = self.detail.as_ref().map(|d| d.tab).unwrap_or(Tab::Overview);
        let known = task.is_some();
        if let Some(t) = &task {
            self.learn_people(t);
        }
        self.detail = Some(Detail::new(id.clone(), task));
        if let Some(d) = &mut self.detail {
            d.tab = tab;
        }
        let mut fx = Vec::new();
        if !known {
            fx.push(self.request(ApiRequest::GetTask { id }));
        }
        fx.extend(self.load_tab(tab));
        fx
    }

    fn open_in_detail(&mut self) -> Vec<Effect> {
        let Some(d) = &self.detail else { return vec![] };
        let cursor = d.cursor;
        let target = match d.tab {
            Tab::Subtasks => match &d.subtasks {
                Load::Loaded(v) => v
                    .get(cursor)
                    .and_then(|i| i.id())
                    .map(|id| (id.to_string(), i_task(v.get(cursor)))),
                _ => None,
            },
            Tab::Links => d
                .task
                .as_ref()
                .and_then(|t| t.linked_items.get(cursor))
                .and_then(|l| {
                    if l.kind == LinkType::Task {
                        Some((l.id.as_str().to_string(), None))
                    } else {
                        None
                    }
                }),
            _ => None,
        };
        match target {
            Some((id, task)) => {
                let from = d.task_id.clone();
                self.back_stack.push(from);
                if let Some(dd) = &mut self.detail {
                    dd.tab = Tab::Overview;
                }
                self.open_task(id, task)
            }
            None => {
                if d.tab == Tab::Links {
                    self.say(Level::Info, "only task links can be opened here");
                }
                vec![]
            }
        }
    }

    fn back(&mut self) -> Vec<Effect> {
        if self.focus == Focus::Detail {
            if let Some(prev) = self.back_stack.pop() {
                let task = self
                    .list
                    .position(&prev)
                    .and_then(|i| self.list.items[i].task().cloned());
                return self.open_task(prev, task);
            }
            self.focus = Focus::List;
        }
        vec![]
    }

    fn switch_tab(&mut self, delta: i64) -> Vec<Effect> {
        // From the list, the tabs are those of the selected task.
        let mut fx = self.follow_list_selection();
        let Some(d) = &mut self.detail else {
            return fx;
        };
        let i = Tab::ALL.iter().position(|t| *t == d.tab).unwrap_or(0) as i64;
        let n = Tab::ALL.len() as i64;
        d.tab = Tab::ALL[((i + delta).rem_euclid(n)) as usize];
        d.cursor = 0;
        d.scroll = 0;
        self.focus = Focus::Detail;
        let tab = d.tab;
        fx.extend(self.load_tab(tab));
        fx
    }

    /// From the list, detail actions are about the selected row: open it
    /// in the detail first when the detail shows another task.
    pub fn follow_list_selection(&mut self) -> Vec<Effect> {
        let selected = self.list.selected_id().map(str::to_string);
        let showing = self.detail.as_ref().map(|d| d.task_id.clone());
        if self.focus == Focus::List && selected.is_some() && selected != showing {
            self.open_selected()
        } else {
            vec![]
        }
    }

    /// Load what the tab shows, if not loaded yet.
    pub fn load_tab(&mut self, tab: Tab) -> Vec<Effect> {
        let Some(d) = &mut self.detail else {
            return vec![];
        };
        let id = d.task_id.clone();
        let req = match tab {
            Tab::Comments if matches!(d.comments, Load::NotLoaded) => {
                d.comments = Load::Loading;
                ApiRequest::Comments { id }
            }
            Tab::Subtasks if matches!(d.subtasks, Load::NotLoaded) => {
                d.subtasks = Load::Loading;
                ApiRequest::Subtasks { id }
            }
            Tab::Requester if matches!(d.thread, Load::NotLoaded) => {
                d.thread = Load::Loading;
                // Lists may leave out `source_channel`; the single-task read
                // has it, and the composer warns by it before a reply.
                let needs_channel = d.task.as_ref().is_some_and(|t| t.source_channel.is_none());
                let mut fx = vec![self.request(ApiRequest::Thread { id: id.clone() })];
                if needs_channel {
                    fx.push(self.request(ApiRequest::GetTask { id }));
                }
                return fx;
            }
            Tab::Sharing if matches!(d.sharing, Load::NotLoaded) => {
                d.sharing = Load::Loading;
                ApiRequest::GetSharing { id }
            }
            _ => return vec![],
        };
        vec![self.request(req)]
    }

    pub fn selected_link(&self) -> Option<&LinkedItem> {
        let d = self.detail.as_ref()?;
        if d.tab != Tab::Links {
            return None;
        }
        d.task.as_ref()?.linked_items.get(d.cursor)
    }

    fn overlay_key(&mut self, ev: KeyEvent) -> Vec<Effect> {
        let ctrl = ev.modifiers.contains(KeyModifiers::CONTROL);
        if ctrl && ev.code == KeyCode::Char('c') && !matches!(self.overlay, Overlay::Compose(_)) {
            self.overlay = Overlay::None;
            return vec![];
        }
        let overlay = std::mem::replace(&mut self.overlay, Overlay::None);
        match overlay {
            Overlay::None => vec![],
            Overlay::Help {
                mut filter,
                mut scroll,
            } => {
                match ev.code {
                    KeyCode::Esc => return vec![],
                    KeyCode::Down => scroll = scroll.saturating_add(1),
                    KeyCode::Up => scroll = scroll.saturating_sub(1),
                    KeyCode::PageDown => scroll = scroll.saturating_add(10),
                    KeyCode::PageUp => scroll = scroll.saturating_sub(10),
                    _ => {
                        if filter.handle(&ev) {
                            scroll = 0;
                        }
                    }
                }
                self.overlay = Overlay::Help { filter, scroll };
                vec![]
            }
            Overlay::Text {
                title,
                lines,
                mut scroll,
            } => {
                match ev.code {
                    KeyCode::Esc | KeyCode::Char('q') | KeyCode::Enter => return vec![],
                    KeyCode::Down | KeyCode::Char('j') => scroll = scroll.saturating_add(1),
                    KeyCode::Up | KeyCode::Char('k') => scroll = scroll.saturating_sub(1),
                    KeyCode::PageDown | KeyCode::Char(' ') => scroll = scroll.saturating_add(10),
                    KeyCode::PageUp => scroll = scroll.saturating_sub(10),
                    _ => {}
                }
                self.overlay = Overlay::Text {
                    title,
                    lines,
                    scroll,
                };
                vec![]
            }
            Overlay::Search(mut input) => {
                match ev.code {
                    KeyCode::Esc => {
                        let changed = !self.search.is_empty();
                        self.search.clear();
                        self.search_due = None;
                        if changed {
                            return self.reload_list(false);
                        }
                        return vec![];
                    }
                    KeyCode::Enter => {
                        self.search = input.text.clone();
                        self.search_due = None;
                        return self.reload_list(false);
                    }
                    _ => {
                        if input.handle(&ev) && self.search != input.text {
                            self.search = input.text.clone();
                            self.search_due = Some(Instant::now() + SEARCH_DEBOUNCE);
                        }
                    }
                }
                self.overlay = Overlay::Search(input);
                vec![]
            }
            Overlay::Palette(mut p) => {
                let people: Vec<String> = self.people_labels();
                let completions = palette::complete(&p.input.text, &people);
                match ev.code {
                    KeyCode::Esc => return vec![],
                    KeyCode::Enter => {
                        let text = p.input.text.clone();
                        return self.command(&text);
                    }
                    KeyCode::Tab => {
                        if let Some(c) =
                            completions.get(p.selected.min(completions.len().saturating_sub(1)))
                        {
                            let has_args = palette::COMMANDS
                                .iter()
                                .any(|(n, a, _)| n == c && !a.is_empty());
                            p.input =
                                LineInput::with(&format!("{c}{}", if has_args { " " } else { "" }));
                            p.selected = 0;
                        }
                    }
                    KeyCode::Down => {
                        p.selected = (p.selected + 1).min(completions.len().saturating_sub(1))
                    }
                    KeyCode::Up => p.selected = p.selected.saturating_sub(1),
                    // ctrl-u clears the argument, not the command word that
                    // a key like `e` or `s` put there.
                    KeyCode::Char('u') if ctrl && command_word_len(&p.input.text) > 0 => {
                        let keep = command_word_len(&p.input.text);
                        if p.input.cursor > keep {
                            let head: String = p.input.text.chars().take(keep).collect();
                            let tail: String = p.input.text.chars().skip(p.input.cursor).collect();
                            p.input = LineInput::with(&head);
                            p.input.insert_str(&tail);
                            p.input.cursor = keep;
                        } else {
                            p.input.handle(&ev);
                        }
                        p.selected = 0;
                    }
                    _ => {
                        if p.input.handle(&ev) {
                            p.selected = 0;
                        }
                    }
                }
                self.overlay = Overlay::Palette(p);
                vec![]
            }
            Overlay::Confirm { lines, on_yes } => match ev.code {
                KeyCode::Char('y') | KeyCode::Char('Y') => self.confirmed(on_yes),
                KeyCode::Char('n') | KeyCode::Char('N') | KeyCode::Esc => {
                    self.say(Level::Info, "cancelled");
                    vec![]
                }
                _ => {
                    self.overlay = Overlay::Confirm { lines, on_yes };
                    vec![]
                }
            },
            Overlay::Compose(c) => self.compose_key(c, ev),
            Overlay::Picker(p) => self.picker_key(p, ev),
            Overlay::Sharing(s) => self.sharing_key(s, ev),
            Overlay::Filter(f) => self.filter_key(f, ev),
        }
    }

    pub fn people_labels(&self) -> Vec<String> {
        self.people
            .values()
            .map(|p| {
                if p.email.is_empty() {
                    p.id.as_str().to_string()
                } else {
                    p.email.raw().to_string()
                }
            })
            .collect()
    }

    fn confirmed(&mut self, c: Confirmed) -> Vec<Effect> {
        let req = match c {
            Confirmed::RejectDraft { id } => ApiRequest::Delete { id },
            Confirmed::RemoveLink { id, kind, item } => ApiRequest::RemoveLink { id, kind, item },
            Confirmed::Detach { id, file_id } => ApiRequest::Detach { id, file_id },
            Confirmed::PutSharing { id, update } => ApiRequest::PutSharing { id, update },
            Confirmed::Quit => {
                self.quit = true;
                return vec![Effect::Quit];
            }
        };
        vec![self.request(req)]
    }

    pub fn confirm(&mut self, lines: Vec<String>, on_yes: Confirmed) -> Vec<Effect> {
        self.overlay = Overlay::Confirm { lines, on_yes };
        vec![]
    }

    /// Send a one-field PATCH for the current task, with a pending mark.
    pub fn patch(&mut self, field: &str, shown: String, patch: TaskPatch) -> Vec<Effect> {
        let Some(t) = self.current_task() else {
            return self.no_task();
        };
        let id = t.id.as_str().to_string();
        vec![self.patch_task(id, field, shown, patch)]
    }

    /// A PATCH of task `id`; `field` shows `shown` as pending until answered.
    pub fn patch_task(
        &mut self,
        id: String,
        field: &str,
        shown: String,
        patch: TaskPatch,
    ) -> Effect {
        let fx = self.request(ApiRequest::Patch {
            id: id.clone(),
            patch,
        });
        if let Effect::Api { ticket, .. } = &fx {
            self.pending.push(Pending {
                ticket: *ticket,
                task_id: id,
                field: field.to_string(),
                value: shown,
            });
        }
        fx
    }

    /// Time-based work: debounced search, periodic refresh, spinners.
    pub fn on_tick(&mut self, now: Instant) -> (Vec<Effect>, bool) {
        let mut fx = Vec::new();
        let mut dirty = false;
        if self.search_due.is_some_and(|t| now >= t) {
            self.search_due = None;
            fx.extend(self.reload_list(false));
            dirty = true;
        }
        if let Some(every) = self.refresh_every {
            if now.duration_since(self.last_refresh) >= every
                && matches!(self.overlay, Overlay::None)
                && !self.list.loading
            {
                fx.extend(self.reload_list(true));
            }
        }
        if !self.inflight.is_empty() {
            self.spinner = self.spinner.wrapping_add(1);
            dirty = true;
        }
        if self
            .undo
            .as_ref()
            .is_some_and(|(_, _, until)| now >= *until)
        {
            self.undo = None;
            dirty = true;
        }
        if let Some((_, _, at)) = &self.status {
            if now.duration_since(*at) > Duration::from_secs(10) {
                self.status = None;
                dirty = true;
            }
        }
        let dirty = dirty || !fx.is_empty();
        (fx, dirty)
    }
}

fn i_task(i: Option<&TaskItem>) -> Option<Task> {
    i.and_then(|i| i.task().cloned())
}

/// Length in chars of a leading known command and its space (`title `).
fn command_word_len(text: &str) -> usize {
    match text.split_once(' ') {
        Some((cmd, _)) if palette::COMMANDS.iter().any(|(n, _, _)| *n == cmd) => {
            cmd.chars().count() + 1
        }
        _ => 0,
    }
}

/// The filters as `key=value` words, as the palette's `filter` takes them.
pub fn filter_string(q: &TaskQuery, me: Option<&str>) -> String {
    // The user's own id reads as `me`, as it was typed.
    let who = |id: &str| {
        if Some(id) == me {
            "me".to_string()
        } else {
            id.to_string()
        }
    };
    let mut parts = Vec::new();
    if !q.status.is_empty() {
        parts.push(format!("status={}", q.status.join(",")));
    }
    if let Some(p) = &q.priority {
        parts.push(format!("priority={p}"));
    }
    if let Some(a) = &q.assigned_to {
        parts.push(format!("assigned={}", who(a)));
    }
    if let Some(a) = &q.involving {
        parts.push(format!("involving={}", who(a)));
    }
    if let Some(a) = &q.team_id {
        parts.push(format!("team={a}"));
    }
    if !q.tags.is_empty() {
        parts.push(format!("tags={}", q.tags.join(",")));
    }
    if let Some(a) = &q.complete_by_from {
        parts.push(format!("from={a}"));
    }
    if let Some(a) = &q.complete_by_to {
        parts.push(format!("to={a}"));
    }
    parts.join(" ")
}

/// Input and output files of a task as (direction, entry).
pub fn file_entries(t: &Task) -> Vec<(&'static str, &serde_json::Value)> {
    let mut out = Vec::new();
    for (dir, v) in [("input", &*t.input_files), ("output", &*t.output_files)] {
        if let serde_json::Value::Array(a) = v {
            out.extend(a.iter().map(|e| (dir, e)));
        } else if !v.is_null() {
            out.push((dir, v));
        }
    }
    out
}

/// The id of a file entry of any shape.
pub fn file_id(v: &serde_json::Value) -> Option<String> {
    match v {
        serde_json::Value::String(s) => Some(s.clone()),
        serde_json::Value::Object(m) => ["id", "file_id"]
            .iter()
            .find_map(|k| m.get(*k).and_then(|v| v.as_str()).map(str::to_string)),
        _ => None,
    }
}

pub fn parse_filters(args: &str, me: Option<&str>) -> Result<TaskQuery, String> {
    let mut q = TaskQuery::default();
    if args.trim() == "clear" || args.trim().is_empty() {
        return Ok(q);
    }
    let resolve_me = |v: &str| -> Result<String, String> {
        if v == "me" {
            me.map(str::to_string)
                .ok_or_else(|| "who you are is not known yet".to_string())
        } else {
            Ok(v.to_string())
        }
    };
    for word in args.split_whitespace() {
        let (k, v) = word
            .split_once('=')
            .ok_or_else(|| format!("{word:?}: filters are key=value, e.g. status=in_progress"))?;
        let list = |v: &str| {
            v.split(',')
                .filter(|s| !s.is_empty())
                .map(str::to_string)
                .collect::<Vec<_>>()
        };
        match k {
            "status" => {
                q.status = list(v);
                if let Some(bad) = q.status.iter().find(|s| !palette::STATUS_VALUES.contains(&s.as_str())) {
                    return Err(format!("unknown status {bad:?} (use {})", palette::STATUS_VALUES.join(", ")));
                }
            }
            "priority" => {
                if !palette::PRIORITY_VALUES.contains(&v) {
                    return Err(format!("unknown priority {v:?} (use {})", palette::PRIORITY_VALUES.join(", ")));
                }
                q.priority = Some(v.into())
            }
            "assigned" | "assigned_to" | "assignee" => q.assigned_to = Some(resolve_me(v)?),
            "involving" => q.involving = Some(resolve_me(v)?),
            "team" | "team_id" => q.team_id = Some(v.into()),
            "tags" => q.tags = list(v),
            "from" | "due_from" => q.complete_by_from = Some(dates::parse_bound(v, chrono::Utc::now(), true)?),
            "to" | "due_to" => q.complete_by_to = Some(dates::parse_bound(v, chrono::Utc::now(), false)?),
            "query" | "q" => q.query = Some(v.into()),
            other => return Err(format!("unknown filter {other:?} (status, priority, assigned, involving, team, tags, from, to)")),
        }
    }
    Ok(q)
}
