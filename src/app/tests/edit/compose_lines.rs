//! The composer's lines: a line feed is a new line, never a deletion.

use super::*;

/// ctrl-j (a line feed: a newline pasted without bracketed paste, Enter on
/// some terminals) starts a new line; the text area's own ctrl-j deleted
/// the line typed so far.
#[test]
fn a_line_feed_starts_a_new_line_and_keeps_what_was_typed() {
    let mut s = loaded(1);
    s.drafts = crate::app::state::drafts::Drafts::new(None);
    s.on_key(key('c'));
    type_str(&mut s, "pasted line one");
    s.on_key(ctrl('j'));
    type_str(&mut s, "line two");
    match &s.overlay {
        Overlay::Compose(c) => assert_eq!(c.text(), "pasted line one\nline two"),
        _ => panic!("the composer must stay open"),
    }
}
