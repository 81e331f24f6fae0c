//! Keys as data: `(context, key) -> action`, defaults from
//! `assets/keymap.toml`, partial overrides from the config file. The help
//! screen is generated from the same table.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use std::collections::BTreeMap;

const DEFAULTS: &str = include_str!("../../assets/keymap.toml");

macro_rules! actions {
    ($($variant:ident = $name:literal : $desc:literal),+ $(,)?) => {
        /// Everything a key can do.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Action { $($variant),+ }
        impl Action {
            pub const ALL: &'static [Action] = &[$(Action::$variant),+];
            pub fn name(self) -> &'static str { match self { $(Action::$variant => $name),+ } }
            pub fn description(self) -> &'static str { match self { $(Action::$variant => $desc),+ } }
            pub fn from_name(s: &str) -> Option<Action> { match s { $($name => Some(Action::$variant),)+ _ => None } }
        }
    };
}

actions! {
    Help = "help": "show this help (type to filter)",
    Palette = "palette": "command palette",
    Quit = "quit": "quit",
    Suspend = "suspend": "suspend to the shell (fg brings taskdeck back)",
    Refresh = "refresh": "refresh the list and the open task",
    Search = "search": "live filter: narrow rows, then ask the service",
    Filter = "filter": "edit the filters",
    FocusNext = "focus_next": "focus the next pane",
    FocusPrev = "focus_prev": "focus the previous pane",
    Views = "views": "the saved views, with counts",
    Board = "board": "the board by status (again: the list)",
    ColumnLeft = "column_left": "board: the column to the left",
    ColumnRight = "column_right": "board: the column to the right",
    MoveLeft = "move_left": "board: move the card to the status on the left",
    MoveRight = "move_right": "board: move the card to the status on the right",
    MessageLog = "message_log": "recent messages and errors",
    Down = "down": "move down",
    Up = "up": "move up",
    Top = "top": "go to the top",
    Bottom = "bottom": "go to the bottom",
    HalfPageDown = "half_page_down": "half a page down",
    HalfPageUp = "half_page_up": "half a page up",
    Open = "open": "open the selected item",
    Back = "back": "detail: back to the list (nothing else changes)",
    HistoryBack = "history_back": "history: the task before the last jump",
    HistoryForward = "history_forward": "history: forward again",
    Zoom = "zoom": "the focused pane fills the screen (again: both)",
    ToggleMarkdown = "toggle_markdown": "show text as written (raw) or as rendered Markdown",
    PrevTab = "prev_tab": "previous detail tab",
    NextTab = "next_tab": "next detail tab",
    SetStatus = "set_status": "set the status",
    SetPriority = "set_priority": "set the priority",
    Assign = "assign": "assign to a person (or me)",
    SetDue = "set_due": "set the due date",
    SetTags = "set_tags": "replace, add or remove tags",
    EditTitle = "edit_title": "edit the title",
    EditDescription = "edit_description": "edit the description in $EDITOR",
    Comment = "comment": "write an internal comment",
    ReplyRequester = "reply_requester": "reply to the requester",
    CopyDisplayId = "copy_display_id": "copy the task number (#N)",
    CopyId = "copy_id": "copy the task id",
    ArchiveToggle = "archive_toggle": "archive or restore",
    AcceptDraft = "accept_draft": "accept a draft task (in :drafts: the highlighted one)",
    RejectDraft = "reject_draft": "reject (delete) a draft task (in :drafts: the highlighted one)",
    Drafts = "drafts": "the draft tasks seen: accept or reject in one key each",
    NewSubtask = "new_subtask": "create a subtask",
    OpenParent = "open_parent": "open the parent of a subtask (else says it has none)",
    AddLink = "add_link": "link a chat, review, report or task",
    ChangeRole = "change_role": "change the selected link's role",
    EditCheckIds = "edit_check_ids": "edit the selected review link's check ids",
    ReplyComment = "reply_comment": "reply to the selected comment",
    EditComment = "edit_comment": "edit my selected comment",
    Share = "share": "edit sharing",
    Attach = "attach": "attach a file: pick one seen on tasks (:attach ID takes an id)",
    RemoveItem = "remove_item": "remove the selected link or detach the selected file",
    Undo = "undo": "undo the last edit (again: the one before); a bulk edit is one",
    Redo = "redo": "redo the edit undone last",
    ToggleMark = "toggle_mark": "mark or unmark the row (then move down)",
    MarkRange = "mark_range": "mark every row from the last marked one to the cursor",
    MarkAll = "mark_all": "mark every loaded row of the view",
    ClearMarks = "clear_marks": "clear every mark",
    Inbox = "inbox": "the inbox: what needs you, and why",
    Snooze = "snooze": "snooze the task's inbox items until a time (:snooze 2h)",
    FollowUp = "follow_up": "follow up: back in the inbox if nobody answers by then (:follow-up fri)",
    InboxDone = "inbox_done": "inbox: mark the task's items done without opening it",
    InboxUndo = "inbox_undo": "inbox: bring back the items marked done last",
    InboxAll = "inbox_all": "inbox: show the items already read too (again: unread only)",
    KeepMine = "keep_mine": "conflict: keep my value for the field (then the next)",
    TakeTheirs = "take_theirs": "conflict: take the service's value for the field (then the next)",
    // In popups.
    Close = "close": "close the popup (nothing is sent)",
    Yes = "yes": "yes: do it",
    No = "no": "no: cancel (the sharing review returns to the editor)",
    Choose = "choose": "choose the highlighted candidate",
    CancelItem = "cancel_item": ":outbox: cancel the highlighted edit (it is not sent)",
    Complete = "complete": "complete the highlighted suggestion",
    Run = "run": "run the highlighted suggestion (or what is typed)",
    ClearArgument = "clear_argument": "clear the argument (again: the whole line)",
    ToggleVisibility = "toggle_visibility": "switch private / customer visibility",
    ToggleAccess = "toggle_access": "switch read / write (on the visibility row: visibility)",
    AddPerson = "add_person": "add a person (name, e-mail or id, then read/write)",
    AddTeam = "add_team": "add a team",
    RemoveEntry = "remove_entry": "remove the selected person or team",
    Review = "review": "review who gains and loses access before saving",
    NextField = "next_field": "next field",
    PrevField = "prev_field": "previous field",
    Toggle = "toggle": "toggle the status box / next priority",
    PriorityPrev = "priority_prev": "previous priority",
    ClearFilters = "clear_filters": "clear every filter in the form",
    Apply = "apply": "apply the filters",
}

/// Where a binding applies. `Task` bindings work in the list and the detail.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Context {
    Global,
    List,
    Detail,
    Task,
    Palette,
    Confirm,
    Picker,
    View,
    Sharing,
    Filter,
    Board,
    Switcher,
    Inbox,
    Conflict,
}

impl Context {
    pub const ALL: [Context; 14] = [
        Context::Global,
        Context::List,
        Context::Detail,
        Context::Task,
        Context::Palette,
        Context::Confirm,
        Context::Picker,
        Context::View,
        Context::Sharing,
        Context::Filter,
        Context::Board,
        Context::Switcher,
        Context::Inbox,
        Context::Conflict,
    ];
    pub fn name(self) -> &'static str {
        match self {
            Context::Global => "global",
            Context::List => "list",
            Context::Detail => "detail",
            Context::Task => "task",
            Context::Palette => "palette",
            Context::Confirm => "confirm",
            Context::Picker => "picker",
            Context::View => "view",
            Context::Sharing => "sharing",
            Context::Filter => "filter",
            Context::Board => "board",
            Context::Switcher => "switcher",
            Context::Inbox => "inbox",
            Context::Conflict => "conflict",
        }
    }
    fn from_name(s: &str) -> Option<Context> {
        Context::ALL.into_iter().find(|c| c.name() == s)
    }
}

/// A key as written in the keymap: code plus ctrl/alt.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Key {
    pub code: KeyCodeOrd,
    pub ctrl: bool,
    pub alt: bool,
}

/// `KeyCode` subset with an order (for a stable help screen).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum KeyCodeOrd {
    Char(char),
    F(u8),
    Named(&'static str),
}

const NAMED: &[(&str, KeyCode)] = &[
    ("up", KeyCode::Up),
    ("down", KeyCode::Down),
    ("left", KeyCode::Left),
    ("right", KeyCode::Right),
    ("enter", KeyCode::Enter),
    ("esc", KeyCode::Esc),
    ("tab", KeyCode::Tab),
    ("backtab", KeyCode::BackTab),
    ("home", KeyCode::Home),
    ("end", KeyCode::End),
    ("pageup", KeyCode::PageUp),
    ("pagedown", KeyCode::PageDown),
    ("backspace", KeyCode::Backspace),
    ("delete", KeyCode::Delete),
    ("insert", KeyCode::Insert),
];

impl Key {
    pub fn parse(s: &str) -> Result<Key, String> {
        let mut rest = s;
        let (mut ctrl, mut alt, mut shift) = (false, false, false);
        loop {
            let lower = rest.to_ascii_lowercase();
            if rest.chars().count() > 1 && lower.starts_with("ctrl-") {
                ctrl = true;
                rest = &rest[5..];
            } else if rest.chars().count() > 1 && lower.starts_with("alt-") {
                alt = true;
                rest = &rest[4..];
            } else if rest.chars().count() > 1 && lower.starts_with("shift-") {
                shift = true;
                rest = &rest[6..];
            } else {
                break;
            }
        }
        let code = if rest.chars().count() == 1 {
            let c = rest.chars().next().unwrap_or(' ');
            let c = if shift { c.to_ascii_uppercase() } else { c };
            let c = if ctrl { c.to_ascii_lowercase() } else { c };
            KeyCodeOrd::Char(c)
        } else {
            let lower = rest.to_ascii_lowercase();
            if lower == "space" {
                KeyCodeOrd::Char(' ')
            } else {
                code_of(&lower, shift).ok_or_else(|| format!("unknown key {s:?}"))?
            }
        };
        Ok(Key { code, ctrl, alt })
    }

    pub fn from_event(ev: &KeyEvent) -> Option<Key> {
        let ctrl = ev.modifiers.contains(KeyModifiers::CONTROL);
        let alt = ev.modifiers.contains(KeyModifiers::ALT);
        let code = match ev.code {
            KeyCode::Char(c) => KeyCodeOrd::Char(if ctrl { c.to_ascii_lowercase() } else { c }),
            KeyCode::F(n) => KeyCodeOrd::F(n),
            other => KeyCodeOrd::Named(NAMED.iter().find(|(_, k)| *k == other)?.0),
        };
        Some(Key { code, ctrl, alt })
    }

    /// The terminal's event for this key, as a terminal sends it (the
    /// inverse of [`Key::from_event`]): the simulator's keys, a run
    /// written down.
    pub fn event(&self) -> Option<KeyEvent> {
        let mut m = KeyModifiers::NONE;
        if self.ctrl {
            m |= KeyModifiers::CONTROL;
        }
        if self.alt {
            m |= KeyModifiers::ALT;
        }
        let code = match self.code {
            KeyCodeOrd::Char(c) => KeyCode::Char(c),
            KeyCodeOrd::F(n) => KeyCode::F(n),
            KeyCodeOrd::Named(n) => NAMED.iter().find(|(name, _)| *name == n)?.1,
        };
        Some(KeyEvent::new(code, m))
    }

    /// Which of an action's keys a hint names first: no chord; `esc`
    /// (the way out, where it is bound); a letter, digit or space; an
    /// arrow or `enter`; another character; another named key. Then
    /// lower case before upper.
    fn plainness(&self) -> (bool, u8, bool) {
        let class = match self.code {
            KeyCodeOrd::Named("esc") => 0,
            KeyCodeOrd::Char(c) if c.is_alphanumeric() || c == ' ' => 1,
            KeyCodeOrd::Named("up" | "down" | "left" | "right" | "enter") => 2,
            KeyCodeOrd::Char(_) => 3,
            KeyCodeOrd::Named(_) => 4,
            KeyCodeOrd::F(_) => 5,
        };
        let upper = matches!(self.code, KeyCodeOrd::Char(c) if c.is_uppercase());
        (self.ctrl || self.alt, class, upper)
    }

    pub fn label(&self) -> String {
        let mut s = String::new();
        if self.ctrl {
            s.push_str("ctrl-");
        }
        if self.alt {
            s.push_str("alt-");
        }
        match self.code {
            KeyCodeOrd::Char(' ') => s.push_str("space"),
            KeyCodeOrd::Char(c) => s.push(c),
            KeyCodeOrd::F(n) => s.push_str(&format!("f{n}")),
            KeyCodeOrd::Named(n) => s.push_str(n),
        }
        s
    }
}

fn code_of(lower: &str, shift: bool) -> Option<KeyCodeOrd> {
    if lower == "tab" && shift {
        return Some(KeyCodeOrd::Named("backtab"));
    }
    if let Some((n, _)) = NAMED.iter().find(|(n, _)| *n == lower) {
        return Some(KeyCodeOrd::Named(n));
    }
    let n = lower.strip_prefix('f')?.parse::<u8>().ok()?;
    (1..=24).contains(&n).then_some(KeyCodeOrd::F(n))
}

#[derive(Clone, Debug)]
pub struct Keymap {
    map: BTreeMap<(Context, Key), Action>,
}

impl Keymap {
    /// The defaults with `overrides` (context -> key -> action name) applied.
    /// Bad entries are skipped and reported as warnings.
    pub fn load(overrides: &BTreeMap<String, BTreeMap<String, String>>) -> (Keymap, Vec<String>) {
        let mut warnings = Vec::new();
        let defaults: BTreeMap<String, BTreeMap<String, String>> =
            toml::from_str(DEFAULTS).expect("assets/keymap.toml is valid");
        let mut km = Keymap {
            map: BTreeMap::new(),
        };
        km.apply(&defaults, &mut warnings);
        debug_assert!(warnings.is_empty(), "{warnings:?}");
        km.apply(overrides, &mut warnings);
        (km, warnings)
    }

    fn apply(
        &mut self,
        table: &BTreeMap<String, BTreeMap<String, String>>,
        warnings: &mut Vec<String>,
    ) {
        for (ctx_name, keys) in table {
            let Some(ctx) = Context::from_name(ctx_name) else {
                warnings.push(format!(
                    "keys: unknown context [keys.{ctx_name}] (use {})",
                    Context::ALL.map(Context::name).join(", ")
                ));
                continue;
            };
            // Two spellings of one key ("ctrl-x" and "Ctrl-X", " " and
            // "space") in one table: the one applied last wins, said.
            let mut spelt: BTreeMap<Key, (&str, &str)> = BTreeMap::new();
            for (key_s, action_s) in keys {
                let key = match Key::parse(key_s) {
                    Ok(k) => k,
                    Err(e) => {
                        warnings.push(format!("keys.{ctx_name}: {e}"));
                        continue;
                    }
                };
                if action_s == "none" || Action::from_name(action_s).is_some() {
                    if let Some((before, was)) = spelt.insert(key, (key_s, action_s)) {
                        if was != action_s {
                            warnings.push(format!(
                                "keys.{ctx_name}: {before:?} and {key_s:?} are the same key: \
                                 {key_s:?} = {action_s:?} is used, {before:?} = {was:?} is not"
                            ));
                        }
                    }
                }
                if action_s == "none" {
                    self.map.remove(&(ctx, key));
                    continue;
                }
                match Action::from_name(action_s) {
                    Some(a) => {
                        self.map.insert((ctx, key), a);
                    }
                    None => warnings.push(format!(
                        "keys.{ctx_name}: {key_s:?} is bound to unknown action {action_s:?}"
                    )),
                }
            }
        }
    }

    /// Look a key up in the given contexts, first match wins.
    pub fn lookup(&self, contexts: &[Context], ev: &KeyEvent) -> Option<Action> {
        let key = Key::from_event(ev)?;
        contexts
            .iter()
            .find_map(|c| self.map.get(&(*c, key)).copied())
    }

    /// Every binding, for the help screen: (context, keys, action).
    pub fn bindings(&self) -> Vec<(Context, Vec<String>, Action)> {
        let mut by_action: BTreeMap<(Context, Action), Vec<String>> = BTreeMap::new();
        for ((ctx, key), action) in &self.map {
            by_action
                .entry((*ctx, *action))
                .or_default()
                .push(key.label());
        }
        let mut out: Vec<_> = by_action
            .into_iter()
            .map(|((c, a), keys)| (c, keys, a))
            .collect();
        out.sort_by_key(|(c, _, a)| (*c, Action::ALL.iter().position(|x| x == a)));
        out
    }

    /// The key a hint names for `action` where `contexts` apply (most
    /// specific first, as [`Keymap::lookup`] reads them): one that runs
    /// it there — bound to it, and not taken by a more specific context —
    /// a plain key before a chord, a character before a named key. `None`
    /// when no key runs it there (a hint then leaves it out). Every key
    /// named on screen comes from here (issue 40 §4), so a rebinding in
    /// the config is what the hints say.
    pub fn hint_key(&self, contexts: &[Context], action: Action) -> Option<String> {
        self.key_where(contexts, action, &|_| true)
    }

    fn key_where(
        &self,
        contexts: &[Context],
        action: Action,
        keep: &dyn Fn(&Key) -> bool,
    ) -> Option<String> {
        let runs = |k: &Key| contexts.iter().find_map(|c| self.map.get(&(*c, *k))) == Some(&action);
        self.map
            .iter()
            .filter(|((c, k), a)| **a == action && contexts.contains(c) && runs(k) && keep(k))
            .map(|((_, k), _)| k)
            .min_by_key(|k| k.plainness())
            .map(Key::label)
    }

    /// `keys label` for each entry whose actions some key runs where
    /// `contexts` apply, in the order given: an entry of two actions
    /// names both keys (`j/k move`); entries no key runs are left out.
    pub fn hints(&self, contexts: &[Context], entries: &[(&[Action], &str)]) -> Vec<String> {
        self.hints_where(contexts, entries, |_| true)
    }

    /// [`Keymap::hints`] for a popup with a text field: a plain character
    /// goes to the text, so only the keys that do not type are named.
    pub fn hints_typing(&self, contexts: &[Context], entries: &[(&[Action], &str)]) -> Vec<String> {
        self.hints_where(contexts, entries, |k| {
            k.ctrl || k.alt || !matches!(k.code, KeyCodeOrd::Char(_))
        })
    }

    fn hints_where(
        &self,
        contexts: &[Context],
        entries: &[(&[Action], &str)],
        keep: impl Fn(&Key) -> bool,
    ) -> Vec<String> {
        let key = |a: Action| self.key_where(contexts, a, &keep);
        entries
            .iter()
            .filter_map(|(actions, label)| {
                let keys: Vec<String> = actions.iter().filter_map(|a| key(*a)).collect();
                (!keys.is_empty()).then(|| format!("{} {label}", keys.join("/")))
            })
            .collect()
    }

    /// The first key bound to `action` in any context, for hints.
    pub fn key_for(&self, action: Action) -> Option<String> {
        // Prefer a plain key over a chord for hints.
        self.map
            .iter()
            .filter(|(_, a)| **a == action)
            .map(|((_, k), _)| k)
            .min_by_key(|k| (k.ctrl || k.alt, !matches!(k.code, KeyCodeOrd::Char(_))))
            .map(Key::label)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ev(code: KeyCode, m: KeyModifiers) -> KeyEvent {
        KeyEvent::new(code, m)
    }

    #[test]
    fn a_hint_names_a_key_that_runs_the_action_there() {
        let (km, _) = Keymap::load(&BTreeMap::new());
        let detail = [Context::Task, Context::Detail, Context::Global];
        assert_eq!(
            km.hint_key(&detail, Action::EditCheckIds).as_deref(),
            Some("C")
        );
        assert_eq!(km.hint_key(&detail, Action::Down).as_deref(), Some("j"));
        // `i` opens the inbox where the list's keys apply; in the inbox it closes.
        assert_eq!(km.hint_key(&detail, Action::Inbox).as_deref(), Some("i"));
        assert_eq!(
            km.hint_key(&[Context::Inbox], Action::Close).as_deref(),
            Some("esc")
        );
        let views = [Context::Switcher];
        assert_eq!(
            km.hints(&views, &[(&[Action::Down, Action::Up], "move")]),
            vec!["j/k move"]
        );
        assert_eq!(
            km.hints_typing(&views, &[(&[Action::Up, Action::Down], "move")]),
            vec!["up/down move"]
        );
        // A picker is typed into: its keys type no character.
        assert_eq!(
            km.hints_typing(&[Context::Picker], &[(&[Action::CancelItem], "cancel")]),
            vec!["ctrl-x cancel"]
        );
        // Not bound where these contexts apply: no key is named.
        assert_eq!(km.hint_key(&[Context::Inbox], Action::EditCheckIds), None);
        // Shadowed: `enter` in the inbox opens, whatever Global binds.
        let mut o: BTreeMap<String, BTreeMap<String, String>> = BTreeMap::new();
        o.entry("global".into())
            .or_default()
            .insert("enter".into(), "help".into());
        o.entry("global".into())
            .or_default()
            .insert("?".into(), "none".into());
        let (km, w) = Keymap::load(&o);
        assert!(w.is_empty(), "{w:?}");
        assert_eq!(
            km.hint_key(&[Context::Inbox, Context::Global], Action::Help),
            None
        );
        assert_eq!(
            km.hint_key(&[Context::Global], Action::Help).as_deref(),
            Some("enter")
        );
    }

    #[test]
    fn a_rebinding_in_the_config_is_what_the_hint_says() {
        let mut o: BTreeMap<String, BTreeMap<String, String>> = BTreeMap::new();
        o.entry("task".into())
            .or_default()
            .insert("K".into(), "edit_check_ids".into());
        o.entry("task".into())
            .or_default()
            .insert("C".into(), "none".into());
        let (km, w) = Keymap::load(&o);
        assert!(w.is_empty(), "{w:?}");
        let detail = [Context::Task, Context::Detail, Context::Global];
        assert_eq!(
            km.hints(
                &detail,
                &[
                    (&[Action::EditCheckIds], "check ids"),
                    (&[Action::Redo], "redo")
                ]
            ),
            vec!["K check ids", "Z redo"]
        );
    }

    #[test]
    fn defaults_load_without_warnings() {
        let (km, w) = Keymap::load(&BTreeMap::new());
        assert!(w.is_empty(), "{w:?}");
        assert_eq!(
            km.lookup(
                &[Context::List],
                &ev(KeyCode::Char('j'), KeyModifiers::NONE)
            ),
            Some(Action::Down)
        );
        assert_eq!(
            km.lookup(
                &[Context::Global],
                &ev(KeyCode::Char('c'), KeyModifiers::CONTROL)
            ),
            Some(Action::Quit)
        );
    }

    #[test]
    fn overrides_apply_and_bad_entries_warn() {
        let mut o: BTreeMap<String, BTreeMap<String, String>> = BTreeMap::new();
        o.entry("list".into())
            .or_default()
            .insert("ctrl-n".into(), "down".into());
        o.entry("list".into())
            .or_default()
            .insert("j".into(), "none".into());
        o.entry("list".into())
            .or_default()
            .insert("z".into(), "fly".into());
        o.entry("list".into())
            .or_default()
            .insert("hyper-q".into(), "up".into());
        o.entry("nowhere".into())
            .or_default()
            .insert("x".into(), "up".into());
        let (km, w) = Keymap::load(&o);
        assert_eq!(w.len(), 3, "{w:?}");
        assert!(w.iter().any(|m| m.contains("fly")));
        assert!(w.iter().any(|m| m.contains("nowhere")));
        assert_eq!(
            km.lookup(
                &[Context::List],
                &ev(KeyCode::Char('n'), KeyModifiers::CONTROL)
            ),
            Some(Action::Down)
        );
        assert_eq!(
            km.lookup(
                &[Context::List],
                &ev(KeyCode::Char('j'), KeyModifiers::NONE)
            ),
            None
        );
        let help = km.bindings();
        assert!(help.iter().any(|(c, keys, a)| *c == Context::List
            && *a == Action::Down
            && keys.contains(&"ctrl-n".to_string())));
    }

    /// Two spellings of one key bound to two actions in one table: one
    /// was silently dropped (`taskdeck config check` said nothing); it is
    /// said, naming both and which is used.
    #[test]
    fn one_key_spelt_twice_in_a_table_is_said() {
        let mut o: BTreeMap<String, BTreeMap<String, String>> = BTreeMap::new();
        let list = o.entry("list".into()).or_default();
        list.insert("ctrl-x".into(), "quit".into());
        list.insert("Ctrl-X".into(), "refresh".into());
        list.insert(" ".into(), "help".into());
        list.insert("space".into(), "help".into());
        let (km, w) = Keymap::load(&o);
        assert_eq!(w.len(), 1, "{w:?}");
        assert!(
            w[0].contains("\"Ctrl-X\" and \"ctrl-x\" are the same key")
                && w[0].contains("\"ctrl-x\" = \"quit\" is used")
                && w[0].contains("\"Ctrl-X\" = \"refresh\" is not"),
            "{w:?}"
        );
        assert_eq!(
            km.lookup(
                &[Context::List],
                &ev(KeyCode::Char('x'), KeyModifiers::CONTROL)
            ),
            Some(Action::Quit)
        );
    }

    #[test]
    fn key_syntax_round_trips() {
        for s in [
            "j", "G", "ctrl-d", "alt-x", "enter", "backtab", "f5", "space", "?",
        ] {
            assert_eq!(Key::parse(s).unwrap().label(), s);
        }
        assert_eq!(Key::parse("shift-tab").unwrap().label(), "backtab");
        assert!(Key::parse("f99").is_err());
    }
}

/// The default bindings as a Markdown table (`docs/keys.md` carries it,
/// generated: `tests/docs.rs`; a test here keeps the two in step too).
pub fn defaults_markdown() -> String {
    let (km, _) = Keymap::load(&BTreeMap::new());
    let mut out = String::from("| where | keys | action |\n|---|---|---|\n");
    for (ctx, keys, action) in km.bindings() {
        let keys: Vec<String> = keys.iter().map(|k| format!("`{k}`")).collect();
        out.push_str(&format!(
            "| {} | {} | {} (`{}`) |\n",
            ctx.name(),
            keys.join(" "),
            action.description(),
            action.name()
        ));
    }
    out
}

#[cfg(test)]
mod readme {
    #[test]
    fn docs_keys_lists_every_default_binding() {
        let keys = include_str!("../../docs/keys.md");
        let table = super::defaults_markdown();
        assert!(
            keys.contains(&table),
            "docs/keys.md's key table is out of date: regenerate it with `{}`; it should read:\n{table}",
            "UPDATE_DOCS=1 cargo test --test docs"
        );
    }
}
