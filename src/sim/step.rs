//! One step of a run, and how a seed makes them: the model terminal (keys
//! from the keymap, palette commands, pastes, resizes down to 1×1, the
//! mouse) and the world (answers delivered in any order, time passing,
//! another user's edits, outages, crashes and restarts).

use super::faults::Faults;
use super::rng::Rng;
use crate::domain::keymap::{Key, Keymap};
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers, MouseButton, MouseEvent, MouseEventKind};

/// What happens in one step. A run is a list of these, so that a failing
/// run can be shrunk to fewer and replayed.
#[derive(Clone, Debug, PartialEq)]
pub enum Step {
    Key(KeyEvent),
    /// `:` + the text + Enter, typed key by key.
    Palette(String),
    Paste(String),
    Resize(u16, u16),
    Mouse(MouseEvent),
    /// The service answers one request in flight (which, and how, drawn
    /// from the number): requests wait a random number of steps, and come
    /// back in any order.
    Deliver(u64),
    /// Time passes (milliseconds of the model clock) and the clock ticks.
    Tick(u32),
    /// Someone else changes the service (a field, a comment, an archive,
    /// a delete), drawn from the number.
    Other(u64),
    /// The service becomes unreachable (`true`) or comes back.
    Outage(bool),
    /// The process dies: its memory is gone, the store reopened as last
    /// committed, the drafts folder as written.
    Crash(u64),
    /// The user quits and starts again.
    Restart,
    /// The service's clock is set back by this many seconds.
    ServiceClockBack(u32),
    /// The user quits; the key is reissued to another user (or back);
    /// the user starts again with it.
    Reissue,
    /// The model disk: a fault starts (full, or the store locked by
    /// another program; drawn from the number) or ends (`disk.rs`).
    Disk(u64),
    /// The terminal goes away (SIGHUP, EOF on the tty); the client is
    /// started again (`hangup.rs`).
    HangUp,
    /// The key is reissued to the other user (or back) while the client
    /// runs offline (`hangup.rs`).
    KeyReissuedLive,
}

/// Every key the keymap binds, as terminal events, and the keys a user
/// types besides (letters for text, the ways out).
pub fn keys(keymap: &Keymap) -> Vec<KeyEvent> {
    let mut out: Vec<KeyEvent> = Vec::new();
    for (_, labels, _) in keymap.bindings() {
        for l in labels {
            if let Some(ev) = Key::parse(&l).ok().and_then(|k| k.event()) {
                if !out.contains(&ev) {
                    out.push(ev);
                }
            }
        }
    }
    for c in ['a', 'e', 'x', ' ', '#', '1', '@'] {
        let ev = KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE);
        if !out.contains(&ev) {
            out.push(ev);
        }
    }
    // The composer's own keys: send, and close.
    for c in ['s', 'c'] {
        let ev = KeyEvent::new(KeyCode::Char(c), KeyModifiers::CONTROL);
        if !out.contains(&ev) {
            out.push(ev);
        }
    }
    // Suspending hands the terminal to the shell: not this model's.
    out.retain(|k| !(k.modifiers.contains(KeyModifiers::CONTROL) && k.code == KeyCode::Char('z')));
    out
}

/// Arguments a palette command is given: values, people, dates, numbers,
/// nothing, and hostile text.
const ARGS: &[&str] = &[
    "",
    "me",
    "done",
    "completed",
    "in_progress",
    "high",
    "low",
    "urgent",
    "tomorrow",
    "friday",
    "#3",
    "#99",
    "3",
    "ops",
    "Bob",
    "bob@acme.test",
    "a, b",
    "x\u{1b}[31my",
    "\u{202e}evil",
    "status:completed",
    "add bob@acme.test",
    "task #2",
];

/// The commands that change a task, with arguments that make sense:
/// most of a run's palette commands, so that edits are made often.
const EDITS: &[(&str, &[&str])] = &[
    (
        "status",
        &["completed", "in_progress", "not_started", "waiting"],
    ),
    ("priority", &["urgent", "high", "low", "no_priority"]),
    ("assign", &["me", "bob@acme.test"]),
    ("unassign", &[""]),
    ("due", &["tomorrow", "+3d", "none"]),
    ("tags", &["+x", "-a", "a,b", "none"]),
    ("title", &["A new title", "Title \u{1b} kept"]),
    ("archive", &[""]),
    ("restore", &[""]),
    ("undo", &[""]),
    ("redo", &[""]),
    ("comment", &[""]),
    ("reply", &[""]),
    ("subtask", &["A subtask"]),
    ("outbox", &[""]),
    ("open", &["#2", "#5", "#9"]),
];

/// Pastes: text, lines, hostile bytes, a long one.
fn paste(rng: &mut Rng) -> String {
    match rng.below(5) {
        0 => "hello world".into(),
        1 => "line one\nline two\r\nthree".into(),
        2 => "\u{1b}]52;c;ZXZpbA==\u{7}\u{9b}2J\u{202e}x".into(),
        3 => "é🙂 wide 漢字".into(),
        _ => "word ".repeat(1 + rng.below(400) as usize),
    }
}

/// Sizes down to 1×1; the common ones more often, so that a run is not
/// spent mostly in a terminal too small to show anything.
const SIZES: &[(u16, u16)] = &[
    (1, 1),
    (2, 1),
    (10, 3),
    (40, 12),
    (80, 24),
    (80, 24),
    (80, 24),
    (120, 40),
    (120, 40),
    (120, 40),
    (200, 50),
];

/// The next step a seed makes, given the keys and palette commands there
/// are and the faults asked for.
pub fn next(rng: &mut Rng, keys: &[KeyEvent], commands: &[&str], faults: &Faults) -> Step {
    let roll = rng.below(1000);
    match roll {
        0..=399 => Step::Key(*rng.pick(keys)),
        400..=469 => {
            let (name, arg) = if rng.chance(60) {
                let (name, args) = rng.pick(EDITS);
                (*name, *rng.pick(args))
            } else {
                (*rng.pick(commands), *rng.pick(ARGS))
            };
            Step::Palette(if arg.is_empty() {
                name.to_string()
            } else {
                format!("{name} {arg}")
            })
        }
        470..=484 => Step::Paste(paste(rng)),
        485..=494 if faults.resize => {
            let (w, h) = *rng.pick(SIZES);
            Step::Resize(w, h)
        }
        495..=529 => {
            let kind = match rng.below(6) {
                0 => MouseEventKind::Down(MouseButton::Left),
                1 => MouseEventKind::Up(MouseButton::Left),
                2 => MouseEventKind::ScrollDown,
                3 => MouseEventKind::ScrollUp,
                4 => MouseEventKind::Moved,
                _ => MouseEventKind::Drag(MouseButton::Left),
            };
            Step::Mouse(MouseEvent {
                kind,
                column: rng.below(130) as u16,
                row: rng.below(45) as u16,
                modifiers: KeyModifiers::NONE,
            })
        }
        530..=849 => Step::Deliver(rng.draw()),
        850..=929 => Step::Tick(*rng.pick(&[16, 200, 200, 1000, 5000, 60_000])),
        930..=944 if faults.others => Step::Other(rng.draw()),
        945..=959 => Step::Key(KeyEvent::new(KeyCode::Enter, KeyModifiers::NONE)),
        960..=969 => Step::Key(KeyEvent::new(KeyCode::Char('s'), KeyModifiers::CONTROL)),
        970..=972 if faults.outage => Step::Outage(true),
        973..=984 if faults.outage => Step::Outage(false),
        985..=987 if faults.crash => Step::Crash(rng.draw()),
        988..=989 if faults.crash => Step::Restart,
        990..=991 if faults.clock_back => Step::ServiceClockBack(*rng.pick(&[1, 30, 3600, 86_400])),
        992..=993 if faults.reissue => Step::Reissue,
        _ => {
            // The rarer faults take a few of these draws: the rolls and the
            // draws of a seed stay as they were without them.
            let d = rng.draw();
            match d % 16 {
                0 | 4..=7 if faults.disk => Step::Disk(d),
                1 | 12 if faults.hangup => Step::HangUp,
                2 | 3 | 8..=11 if faults.key_live => Step::KeyReissuedLive,
                _ => Step::Deliver(d),
            }
        }
    }
}

/// The steps of a seed.
pub fn plan(seed: u64, steps: usize, keymap: &Keymap, faults: &Faults) -> Vec<Step> {
    let mut rng = Rng::new(seed);
    let keys = keys(keymap);
    let commands: Vec<&str> = crate::app::state::command::COMMANDS
        .iter()
        .map(|c| c.name)
        .filter(|n| !UNMODELLED_COMMANDS.contains(n))
        .collect();
    (0..steps)
        .map(|_| next(&mut rng, &keys, &commands, faults))
        .collect()
}

/// Palette commands that act outside the client's core (the config file,
/// another profile, the shell) and that the model does not carry out.
const UNMODELLED_COMMANDS: &[&str] = &["profile", "quit", "q"];
