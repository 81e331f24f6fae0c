//! Tests of the Markdown renderer: every element, wrapping, hostile text.
use super::*;

fn theme() -> Theme {
    Theme::dark()
}

fn md(s: &str, width: usize) -> Vec<Line<'static>> {
    render(&Untrusted::new(s), width, "  ", &theme())
}

fn texts(lines: &[Line]) -> Vec<String> {
    lines
        .iter()
        .map(|l| l.spans.iter().map(|s| s.content.as_ref()).collect())
        .collect()
}

/// The style of the first cell showing `needle`.
fn style_of(lines: &[Line], needle: &str) -> Style {
    for l in lines {
        for s in &l.spans {
            if s.content.contains(needle) {
                return s.style;
            }
        }
    }
    panic!("{needle:?} not in {:?}", texts(lines));
}

fn dangerous(lines: &[Line]) -> bool {
    lines.iter().any(|l| {
        l.spans
            .iter()
            .any(|s| s.content.chars().any(crate::text::is_dangerous))
    })
}

#[test]
fn emphasis_lists_quotes_code_and_links() {
    let src = "# Plan\n\nSign **today** and *maybe* ~~not~~ `cargo run`.\n\n\
               - one\n- two\n  - nested\n\n3. third\n4. fourth\n\n\
               > quoted words\n\n```rust\nlet x = 1;  // as is\n```\n\n\
               See [the doc](https://x.test/d) or <https://x.test/auto>.";
    let out = md(src, 60);
    let t = texts(&out);
    assert_eq!(
        t,
        vec![
            "  Plan",
            "",
            "  Sign today and maybe not cargo run.",
            "",
            "  • one",
            "  • two",
            "    ◦ nested",
            "",
            "  3. third",
            "  4. fourth",
            "",
            "  │ quoted words",
            "",
            "    rust",
            "    let x = 1;  // as is",
            "",
            "  See the doc <https://x.test/d> or https://x.test/auto.",
        ],
    );
    assert!(!t.iter().any(|l| l.contains("**") || l.contains('`')));
    assert!(style_of(&out, "Plan").add_modifier.contains(Modifier::BOLD));
    assert!(style_of(&out, "today")
        .add_modifier
        .contains(Modifier::BOLD));
    assert!(style_of(&out, "maybe")
        .add_modifier
        .contains(Modifier::ITALIC));
    assert!(style_of(&out, "not")
        .add_modifier
        .contains(Modifier::CROSSED_OUT));
    assert_eq!(style_of(&out, "cargo run"), code_style(&theme()));
    assert_eq!(style_of(&out, "let x"), code_style(&theme()));
    assert!(style_of(&out, "the doc")
        .add_modifier
        .contains(Modifier::UNDERLINED));
}

#[test]
fn loose_lists_keep_their_gaps_and_tight_ones_do_not() {
    let out = md("1. one\n\n2. two\n\n- a\n- b", 40);
    assert_eq!(
        texts(&out),
        vec!["  1. one", "", "  2. two", "", "  • a", "  • b"]
    );
}

#[test]
fn long_items_and_quotes_wrap_under_their_text() {
    let out = md(
        "- a long item that needs two lines\n\n> a quote that is long enough",
        22,
    );
    assert_eq!(
        texts(&out),
        vec![
            "  • a long item that",
            "    needs two lines",
            "",
            "  │ a quote that is",
            "  │ long enough",
        ]
    );
}

#[test]
fn hostile_text_never_gets_through_any_element() {
    let evil = "\u{1b}[2J\u{9b}31m\u{202e}";
    let src = format!(
        "**b{evil}** *i{evil}* `c{evil}` [l{evil}](https://x.test/{evil}) \
         &#27;[31m &#x9b;1m &#x202e;\n\n```\n{evil}\n```\n\n> q{evil}\n\n- {evil}\n\n\
         <span>{evil}</span>\n\n[r]: https://r.test/{evil}\n"
    );
    let out = md(&src, 40);
    assert!(!dangerous(&out), "{:?}", texts(&out));
    let all = texts(&out).join("\n");
    // Shown, as stand-ins: nothing is dropped.
    assert!(all.contains("␛[2J"), "{all}");
    assert!(all.contains("https://x.test/"), "{all}");
    assert!(all.contains("<span>"), "{all}");
    assert!(all.contains("[r]: <https://r.test/"), "{all}");
    assert!(!dangerous(&raw(&Untrusted::new(&src), "  ", &theme())));
}

#[test]
fn plain_text_reads_as_written() {
    let out = md("line one\nline two\n\nnew paragraph", 40);
    assert_eq!(
        texts(&out),
        vec!["  line one", "  line two", "", "  new paragraph"]
    );
    assert_eq!(texts(&md("", 40)), vec!["  "]);
    let r = raw(&Untrusted::new("**x**\n- y"), "  ", &theme());
    assert_eq!(texts(&r), vec!["  **x**", "  - y"]);
}

proptest::proptest! {
    #[test]
    fn any_text_renders_without_controls(s in "\\PC{0,80}|[-*>`#_\\[\\]()<>!&;x0-9 \n\u{1b}\u{9b}\u{202e}]{0,80}", w in 0usize..50) {
        let out = md(&s, w);
        proptest::prop_assert!(!dangerous(&out));
    }
}
