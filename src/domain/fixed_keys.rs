//! Keys read in code, for the popups that have no keymap context (the
//! help screen, search, the composer: every letter types there). Each
//! names its keys once, in a table of this shape, from which its handler
//! ([`key_of`]), its lines and the help screen ([`line`]) are all made, so
//! that they cannot disagree (issue 40 §4). They are not rebindable.

use super::keymap::Key;
use crossterm::event::KeyEvent;

/// A popup's keys read in code: what each does, the keys that do it (as
/// the keymap writes a key; the first is the one lines name), and the
/// words lines say.
pub type FixedKeys<K> = &'static [(K, &'static [&'static str], &'static str)];

/// What `ev` does in `table`, if it is one of its keys. A key that types
/// nothing (Esc, Enter, an arrow, a page key) with a modifier the table
/// does not name is read as the key alone — shift-up scrolls as up does,
/// as these popups read such keys before their tables; a character with
/// a modifier is never read as the character (ctrl-x is not x).
pub fn key_of<K: Copy>(table: FixedKeys<K>, ev: &KeyEvent) -> Option<K> {
    let find = |ev: &KeyEvent| {
        let key = Key::from_event(ev)?;
        table.iter().find_map(|(what, keys, _)| {
            keys.iter()
                .any(|k| Key::parse(k).ok() == Some(key))
                .then_some(*what)
        })
    };
    find(ev).or_else(|| {
        let bare = KeyEvent::new(ev.code, crossterm::event::KeyModifiers::NONE);
        (!matches!(ev.code, crossterm::event::KeyCode::Char(_)) && !ev.modifiers.is_empty())
            .then(|| find(&bare))
            .flatten()
    })
}

/// The table's keys in one line, each entry as `key words`, joined by
/// `sep`; entries that follow each other with the same words are named
/// together (`up/down scroll`).
pub fn line<K>(table: FixedKeys<K>, sep: &str) -> String {
    let mut parts: Vec<(Vec<&str>, &str)> = Vec::new();
    for (_, keys, words) in table {
        match parts.last_mut() {
            Some((named, w)) if w == words => named.push(keys[0]),
            _ => parts.push((vec![keys[0]], words)),
        }
    }
    parts
        .iter()
        .map(|(keys, words)| format!("{} {words}", keys.join("/")))
        .collect::<Vec<_>>()
        .join(sep)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crossterm::event::{KeyCode, KeyModifiers};

    #[derive(Clone, Copy, Debug, PartialEq)]
    enum T {
        Up,
        Down,
        Close,
    }
    const TABLE: FixedKeys<T> = &[
        (T::Up, &["up"], "scroll"),
        (T::Down, &["down"], "scroll"),
        (T::Close, &["esc", "ctrl-c"], "close"),
    ];

    #[test]
    fn a_table_reads_its_keys_and_names_them_in_one_line() {
        let ev = |c, m| KeyEvent::new(c, m);
        assert_eq!(
            key_of(TABLE, &ev(KeyCode::Up, KeyModifiers::NONE)),
            Some(T::Up)
        );
        assert_eq!(
            key_of(TABLE, &ev(KeyCode::Char('c'), KeyModifiers::CONTROL)),
            Some(T::Close)
        );
        assert_eq!(
            key_of(TABLE, &ev(KeyCode::Char('c'), KeyModifiers::NONE)),
            None
        );
        // A key that types nothing, with a modifier the table does not
        // name: the key alone (the popups read shift-up, alt-esc so before
        // their tables); a character with one is not the character.
        assert_eq!(
            key_of(TABLE, &ev(KeyCode::Up, KeyModifiers::SHIFT)),
            Some(T::Up)
        );
        assert_eq!(
            key_of(TABLE, &ev(KeyCode::Esc, KeyModifiers::ALT)),
            Some(T::Close)
        );
        assert_eq!(
            key_of(TABLE, &ev(KeyCode::Char('c'), KeyModifiers::ALT)),
            None
        );
        assert_eq!(line(TABLE, "  "), "up/down scroll  esc close");
        for (_, keys, _) in TABLE {
            for k in *keys {
                Key::parse(k).unwrap();
            }
        }
    }
}
