//! What each hint line names (issue 40 §4): the pane's actions, each
//! popup's context and actions, the inbox's keys. The keys themselves come
//! from the keymap in effect (`Keymap::hints`), never from here, so a
//! rebinding in the config is what the hints say. A leaf of `ui`: the key
//! line (`ui/mod.rs`), the inbox's footer and the detail's tabs read it.

use crate::app::keymap::{Action as A, Context};
use crate::app::popups::chooser::ChooserKind;
use crate::app::state::{Focus, Overlay, State};

/// The pane's keys its hint line names (after help, before quit), for
/// the contexts in effect (`State::key_contexts`).
pub fn pane_keys(s: &State) -> &'static [(A, &'static str)] {
    const BOARD: &[(A, &str)] = &[
        (A::ColumnRight, "column"),
        (A::Down, "card"),
        (A::MoveRight, "next status"),
        (A::MoveLeft, "previous status"),
        (A::Open, "detail"),
        (A::SetStatus, "status"),
        (A::Board, "list"),
        (A::Views, "views"),
    ];
    match s.focus {
        _ if s.board.is_some() => BOARD,
        // With marks: what marks do, and that actions act on all of them.
        Focus::List if !s.marks.is_empty() => &[
            (A::Palette, "command all marked"),
            (A::ToggleMark, "mark"),
            (A::MarkRange, "range"),
            (A::MarkAll, "all"),
            (A::ClearMarks, "clear marks"),
            (A::SetStatus, "status"),
            (A::Undo, "undo"),
        ],
        Focus::List => &[
            (A::Palette, "commands"),
            (A::Search, "search"),
            (A::Down, "down"),
            (A::Up, "up"),
            (A::Open, "detail"),
            (A::SetStatus, "status"),
            (A::Comment, "comment"),
            (A::Filter, "filter"),
            (A::Zoom, "zoom"),
        ],
        Focus::Detail => &[
            (A::Palette, "commands"),
            (A::Back, "list"),
            (A::NextTab, "next tab"),
            (A::Down, "down"),
            (A::Open, "open"),
            (A::Comment, "comment"),
            (A::ReplyRequester, "reply"),
            (A::HistoryBack, "back"),
            (A::Zoom, "zoom"),
        ],
    }
}

/// What a popup's keys do, named from the keymap in effect (issue 40
/// §4): `[name]` then `keys label` for each entry whose action a key of
/// the popup's context runs. The help screen, the search line and the
/// composer read their keys in code, not in the keymap: their lines are
/// made from their tables ([`Fixed::line`]).
pub fn popup_hint(s: &State) -> Option<String> {
    let (name, keys) = popup_keys(s)?;
    let (context, entries, typing) = match keys {
        // The composer's `esc` says what it does while drafts cannot be saved.
        PopupKeys::Fixed(Fixed::Compose) => {
            if let crate::app::state::Overlay::Compose(c) = &s.overlay {
                let line = crate::app::popups::compose::composer_hint(c, "  ");
                return Some(format!("[{name}] {line}"));
            }
            return Some(format!("[{name}] {}", Fixed::Compose.line("  ")));
        }
        PopupKeys::Fixed(fixed) => return Some(format!("[{name}] {}", fixed.line("  "))),
        PopupKeys::Mapped {
            context,
            entries,
            typing,
        } => (context, entries, typing),
    };
    let km = &s.keymap;
    let parts = match typing {
        true => km.hints_typing(&[context], entries),
        false => km.hints(&[context], entries),
    };
    let lead = match name {
        "link" => Some("type #N or words"),
        "attach" => Some("type words or #N"),
        "pick" => Some("type to narrow"),
        _ => None,
    }
    .map(str::to_string);
    let all: Vec<String> = lead.into_iter().chain(parts).collect();
    Some(format!("[{name}] {}", all.join("  ")))
}

/// A popup's key line within `width` (issue 46 §4: at 80 columns it was
/// cut, `esc clo`): `[name]` and its first entry, then the others in
/// order as room allows, the last one — how the popup ends — always kept.
/// Only what still does not fit is cut, with the cut mark.
pub fn fit_popup_hint(hint: &str, width: usize) -> String {
    let w = crate::cut::width;
    if w(hint) <= width {
        return hint.to_string();
    }
    let parts: Vec<&str> = hint.split("  ").collect();
    let (Some(first), Some(last)) = (parts.first(), parts.last()) else {
        return crate::cut::cut(hint, width);
    };
    if parts.len() < 3 {
        return crate::cut::cut(hint, width);
    }
    let room = width.saturating_sub(2 + w(last));
    let mut out = first.to_string();
    for part in &parts[1..parts.len() - 1] {
        if w(&out) + 2 + w(part) > room {
            // Later entries are kept out too: the order is the priority.
            break;
        }
        out.push_str("  ");
        out.push_str(part);
    }
    out.push_str("  ");
    out.push_str(last);
    crate::cut::cut(&out, width)
}

/// The popups that read their keys in code (no keymap context: every
/// letter types there); each names them in one table, which its handler
/// reads too.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fixed {
    Help,
    Search,
    Compose,
}

impl Fixed {
    /// Its keys in one line (`key what`, joined by `sep`), after what
    /// typing does.
    pub fn line(self, sep: &str) -> String {
        use crate::app::popups::{compose, help, search};
        use crate::domain::fixed_keys::line;
        match self {
            Fixed::Help => format!("type to filter{sep}{}", line(help::HELP_KEYS, sep)),
            Fixed::Search => format!("type to narrow{sep}{}", line(search::SEARCH_KEYS, sep)),
            Fixed::Compose => compose::composer_keys_line(sep),
        }
    }
}

/// How an open popup reads its keys.
#[derive(Clone, Copy, Debug)]
pub enum PopupKeys {
    /// From the keymap: its context, the entries of its hint, and whether
    /// it has a text field (a plain character then types).
    Mapped {
        context: Context,
        entries: &'static [HintEntry],
        typing: bool,
    },
    /// In code, from its table.
    Fixed(Fixed),
}

/// An entry of a hint: the actions whose keys it names, and what they do.
pub type HintEntry = (&'static [A], &'static str);

/// The open popup's name and how it reads its keys.
pub fn popup_keys(s: &State) -> Option<(&'static str, PopupKeys)> {
    let fixed = |name, f| Some((name, PopupKeys::Fixed(f)));
    let (name, context, entries, typing) = match &s.overlay {
        Overlay::None => return None,
        Overlay::Help { .. } => return fixed("help", Fixed::Help),
        Overlay::Search(_) => return fixed("search", Fixed::Search),
        Overlay::Compose(_) => return fixed("compose", Fixed::Compose),
        _ => mapped(s)?,
    };
    Some((
        name,
        PopupKeys::Mapped {
            context,
            entries,
            typing,
        },
    ))
}

/// A popup with a keymap context: its name, context, the entries of its
/// hint, and whether it has a text field.
fn mapped(s: &State) -> Option<(&'static str, Context, &'static [HintEntry], bool)> {
    use Context as C;
    const MOVE: HintEntry = (&[A::Down, A::Up], "move");
    Some(match &s.overlay {
        Overlay::None | Overlay::Help { .. } | Overlay::Search(_) | Overlay::Compose(_) => {
            return None
        }
        Overlay::Palette(_) => (
            "command",
            C::Palette,
            &[
                (&[A::Complete], "complete"),
                (&[A::Up, A::Down], "choose"),
                (&[A::Run], "run"),
                (&[A::Close], "cancel"),
            ],
            true,
        ),
        Overlay::Confirm { .. } => ("confirm", C::Confirm, &CONFIRM_KEYS, false),
        Overlay::Text { .. } => (
            "view",
            C::View,
            &[
                (&[A::Down, A::Up], "scroll"),
                (&[A::Top, A::Bottom], "top/bottom"),
                (&[A::Close], "close"),
            ],
            false,
        ),
        // Letters narrow the picker (the name matcher): only keys that
        // are no character are named.
        Overlay::Picker(_) => (
            "pick",
            C::Picker,
            &[
                (&[A::Up, A::Down], "move"),
                (&[A::Choose], "choose the > row"),
                (&[A::Close], "cancel"),
            ],
            true,
        ),
        Overlay::Chooser(c) => {
            let (name, entries): (&str, &'static [HintEntry]) = match c.kind {
                ChooserKind::Outbox => (
                    "outbox",
                    &[
                        (&[A::Up, A::Down], "move"),
                        (&[A::CancelItem], "cancel the edit"),
                        (&[A::Choose], "send one that waits"),
                        (&[A::Close], "close"),
                    ],
                ),
                ChooserKind::Drafts => (
                    "drafts",
                    &[
                        (&[A::Up, A::Down], "move"),
                        (&[A::AcceptDraft], "accept"),
                        (&[A::RejectDraft], "reject"),
                        (&[A::Choose], "open"),
                        (&[A::Close], "close"),
                    ],
                ),
                ChooserKind::LinkTask => (
                    "link",
                    &[
                        (&[A::Up, A::Down], "move"),
                        (&[A::Choose], "link the > row"),
                        (&[A::Close], "cancel"),
                    ],
                ),
                ChooserKind::Attach => (
                    "attach",
                    &[
                        (&[A::Up, A::Down], "move"),
                        (&[A::Choose], "attach the > row"),
                        (&[A::Close], "cancel"),
                    ],
                ),
                ChooserKind::Snoozed => (
                    "snoozed",
                    &[
                        (&[A::Up, A::Down], "move"),
                        (&[A::Choose], "open"),
                        (&[A::CancelItem], "cancel"),
                        (&[A::Close], "close"),
                    ],
                ),
                ChooserKind::Recent | ChooserKind::Changed => (
                    "tasks",
                    &[
                        (&[A::Up, A::Down], "move"),
                        (&[A::Choose], "open"),
                        (&[A::Close], "close"),
                    ],
                ),
            };
            // Every chooser is typed into: letters narrow it.
            (name, C::Picker, entries, true)
        }
        Overlay::Sharing(_) => (
            "sharing",
            C::Sharing,
            &[
                MOVE,
                (&[A::ToggleVisibility], "visibility"),
                (&[A::ToggleAccess], "read/write"),
                (&[A::AddPerson], "person"),
                (&[A::AddTeam], "team"),
                (&[A::RemoveEntry], "remove"),
                (&[A::Review], "review"),
            ],
            false,
        ),
        Overlay::Filter(_) => (
            "filter",
            C::Filter,
            &[
                (&[A::PrevField, A::NextField], "move"),
                (&[A::Toggle], "toggle"),
                (&[A::PriorityPrev], "previous priority"),
                (&[A::ClearFilters], "clear"),
                (&[A::Apply], "apply"),
            ],
            false,
        ),
        Overlay::Views(_) => (
            "views",
            C::Switcher,
            &[MOVE, (&[A::Choose], "switch"), (&[A::Close], "close")],
            false,
        ),
        Overlay::Conflict(_) => (
            "conflict",
            C::Conflict,
            &[
                MOVE,
                (&[A::KeepMine], "keep mine"),
                (&[A::TakeTheirs], "take theirs"),
                (&[A::Apply], "send what is kept"),
                (&[A::Close], "back"),
            ],
            false,
        ),
        Overlay::Inbox(_) => ("inbox", C::Inbox, &INBOX_KEYS_MOVE, false),
    })
}

/// A confirmation's answers: the bottom line's hint and the popup's
/// last row (`ui/overlays/questions.rs`) both name them from here.
pub const CONFIRM_KEYS: [HintEntry; 2] = [(&[A::Yes], "yes"), (&[A::No], "no")];

/// The sharing editor's own key line (`ui/overlays/sharing.rs`).
pub const SHARING_KEYS: [HintEntry; 8] = [
    (&[A::Down, A::Up], "move"),
    (&[A::ToggleVisibility], "visibility"),
    (&[A::ToggleAccess], "read/write"),
    (&[A::AddPerson], "add person"),
    (&[A::AddTeam], "add team"),
    (&[A::RemoveEntry], "remove"),
    (&[A::Review], "review"),
    (&[A::Close], "cancel"),
];

/// The conflict view's own line (`ui/inbox.rs::draw_conflict`).
pub const CONFLICT_KEYS: [HintEntry; 5] = [
    (&[A::KeepMine], "keep mine"),
    (&[A::TakeTheirs], "take theirs"),
    (&[A::Toggle], "switch"),
    (&[A::Apply], "send what is kept"),
    (&[A::Close], "back (nothing sent)"),
];

/// The inbox's keys, as its hint and its footer name them.
pub const INBOX_KEYS: [HintEntry; 7] = [
    (&[A::Open], "open"),
    (&[A::InboxDone], "done"),
    (&[A::InboxUndo], "undo"),
    (&[A::Snooze], "snooze"),
    (&[A::FollowUp], "follow-up"),
    (&[A::InboxAll], "all"),
    (&[A::Refresh], "now"),
];

const INBOX_KEYS_MOVE: [HintEntry; 9] = [
    (&[A::Down, A::Up], "move"),
    INBOX_KEYS[0],
    INBOX_KEYS[1],
    INBOX_KEYS[2],
    INBOX_KEYS[3],
    INBOX_KEYS[4],
    INBOX_KEYS[5],
    INBOX_KEYS[6],
    (&[A::Close], "close"),
];
