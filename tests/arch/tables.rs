//! Dispatchers that read as tables (issue 35 §3): in a named function,
//! the `match` over its cases has arms whose bodies are one expression
//! handing the case to the code that owns it — no statement (`;`), no
//! branching of its own (`if`, `match`, a loop, `let`), and at most six
//! lines (rustfmt may wrap one long call's arguments a line each).
//!
//! Read line by line from the source with comments, strings and
//! character literals blanked (newlines kept, so line numbers hold).

/// The source with the insides of comments, strings and character
/// literals made spaces; newlines and everything else kept.
pub fn blank(src: &str) -> String {
    let c: Vec<char> = src.chars().collect();
    let mut out: Vec<char> = Vec::with_capacity(c.len());
    let keep = |ch: char| if ch == '\n' { '\n' } else { ' ' };
    let mut i = 0;
    while i < c.len() {
        let ch = c[i];
        let next = c.get(i + 1).copied();
        if ch == '/' && next == Some('/') {
            while i < c.len() && c[i] != '\n' {
                out.push(' ');
                i += 1;
            }
        } else if ch == '/' && next == Some('*') {
            let mut depth = 0;
            while i < c.len() {
                if c[i] == '/' && c.get(i + 1) == Some(&'*') {
                    depth += 1;
                    out.extend("  ".chars());
                    i += 2;
                } else if c[i] == '*' && c.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    out.extend("  ".chars());
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    out.push(keep(c[i]));
                    i += 1;
                }
            }
        } else if ch == 'r'
            && (next == Some('"') || next == Some('#'))
            && !c
                .get(i.wrapping_sub(1))
                .is_some_and(|p| p.is_alphanumeric() || *p == '_')
        {
            // A raw string: r"…", r#"…"#.
            let mut j = i + 1;
            let mut hashes = 0;
            while c.get(j) == Some(&'#') {
                hashes += 1;
                j += 1;
            }
            if c.get(j) != Some(&'"') {
                out.push(ch);
                i += 1;
                continue;
            }
            out.push('r');
            out.extend(std::iter::repeat_n('#', hashes));
            out.push('"');
            j += 1;
            loop {
                if j >= c.len() {
                    break;
                }
                if c[j] == '"' && (0..hashes).all(|k| c.get(j + 1 + k) == Some(&'#')) {
                    out.push('"');
                    out.extend(std::iter::repeat_n('#', hashes));
                    j += 1 + hashes;
                    break;
                }
                out.push(keep(c[j]));
                j += 1;
            }
            i = j;
        } else if ch == '"' {
            out.push('"');
            i += 1;
            while i < c.len() && c[i] != '"' {
                if c[i] == '\\' {
                    out.push(' ');
                    i += 1;
                }
                if i < c.len() {
                    out.push(keep(c[i]));
                    i += 1;
                }
            }
            out.push('"');
            i += 1;
        } else if ch == '\'' {
            // A character literal ('x', '\n', '\u{..}'), else a lifetime.
            let end = if next == Some('\\') {
                (i + 2..c.len().min(i + 12)).find(|&j| c[j] == '\'')
            } else if c.get(i + 2) == Some(&'\'') {
                Some(i + 2)
            } else {
                None
            };
            match end {
                Some(e) => {
                    out.push('\'');
                    out.extend(std::iter::repeat_n(' ', e - i - 1));
                    out.push('\'');
                    i = e + 1;
                }
                None => {
                    out.push(ch);
                    i += 1;
                }
            }
        } else {
            out.push(ch);
            i += 1;
        }
    }
    out.into_iter().collect()
}

/// One arm of a `match`: its pattern and body as written (blanked), and
/// the line its body starts on (1-based).
#[derive(Debug)]
pub struct Arm {
    pub pattern: String,
    pub body: String,
    pub line: usize,
}

fn closer(open: char) -> char {
    match open {
        '(' => ')',
        '[' => ']',
        _ => '}',
    }
}

/// The index just past the group opened at `i` (a `(`, `[` or `{`).
fn group_end(c: &[char], i: usize) -> usize {
    let mut stack = vec![closer(c[i])];
    let mut j = i + 1;
    while j < c.len() && !stack.is_empty() {
        match c[j] {
            '(' | '[' | '{' => stack.push(closer(c[j])),
            ')' | ']' | '}' => {
                stack.pop();
            }
            _ => {}
        }
        j += 1;
    }
    j
}

fn word_at(c: &[char], i: usize, w: &str) -> bool {
    let w: Vec<char> = w.chars().collect();
    c.get(i..i + w.len()) == Some(&w[..])
        && !c
            .get(i.wrapping_sub(1))
            .is_some_and(|p| p.is_alphanumeric() || *p == '_')
        && !c
            .get(i + w.len())
            .is_some_and(|p| p.is_alphanumeric() || *p == '_')
}

fn line_of(c: &[char], i: usize) -> usize {
    1 + c[..i].iter().filter(|&&ch| ch == '\n').count()
}

/// The arms of the `match` block whose `{` is at `open`.
fn arms_of(c: &[char], open: usize) -> Vec<Arm> {
    let end = group_end(c, open) - 1;
    let mut arms = Vec::new();
    let mut i = open + 1;
    loop {
        while i < end && (c[i].is_whitespace() || c[i] == ',') {
            i += 1;
        }
        if i >= end {
            break;
        }
        // The pattern runs to `=>` outside any group.
        let start = i;
        while i < end && !(c[i] == '=' && c.get(i + 1) == Some(&'>')) {
            if matches!(c[i], '(' | '[' | '{') {
                i = group_end(c, i);
            } else {
                i += 1;
            }
        }
        let pattern: String = c[start..i].iter().collect();
        i += 2;
        while i < end && c[i].is_whitespace() {
            i += 1;
        }
        let body_start = i;
        // The body runs to a `,` outside any group, or is one block.
        if c.get(i) == Some(&'{') {
            i = group_end(c, i);
        } else {
            while i < end && c[i] != ',' {
                if matches!(c[i], '(' | '[' | '{') {
                    i = group_end(c, i);
                } else {
                    i += 1;
                }
            }
        }
        arms.push(Arm {
            pattern: pattern.trim().to_string(),
            body: c[body_start..i.min(end)].iter().collect(),
            line: line_of(c, body_start),
        });
    }
    arms
}

/// The arms of the `match` in function `name` of `src` with the most arms
/// whose pattern starts with `case` (`Command::`, `Msg::`…); none when
/// there is no such function or match.
pub fn table(src: &str, name: &str, case: &str) -> Vec<Arm> {
    let blanked = blank(src);
    let c: Vec<char> = blanked.chars().collect();
    let Some(f) = (0..c.len()).find(|&i| {
        word_at(&c, i, "fn") && {
            let rest: String = c[i + 2..(i + 3 + name.len()).min(c.len())].iter().collect();
            rest.trim_start().starts_with(name)
                && c.get(i + 3 + name.len())
                    .is_some_and(|ch| *ch == '(' || *ch == '<')
        }
    }) else {
        return vec![];
    };
    let Some(body) = (f..c.len()).find(|&i| c[i] == '{') else {
        return vec![];
    };
    let body_end = group_end(&c, body);
    let mut best: Vec<Arm> = vec![];
    let mut i = body;
    while i < body_end {
        if word_at(&c, i, "match") {
            // The scrutinee runs to the block's `{` outside any group.
            let mut j = i + 5;
            while j < body_end && c[j] != '{' {
                if matches!(c[j], '(' | '[') {
                    j = group_end(&c, j);
                } else {
                    j += 1;
                }
            }
            if j < body_end {
                let arms = arms_of(&c, j);
                let hits = |a: &[Arm]| a.iter().filter(|a| a.pattern.starts_with(case)).count();
                if hits(&arms) > hits(&best) {
                    best = arms;
                }
            }
        }
        i += 1;
    }
    best
}

/// The arms of a table that are not one handing over: a statement,
/// branching of their own, or more than six lines. In words, naming the
/// line.
pub fn long_arms(file: &str, arms: &[Arm]) -> Vec<String> {
    arms.iter()
        .filter_map(|a| {
            let c: Vec<char> = a.body.chars().collect();
            let branches = ["if", "match", "for", "while", "loop", "let"]
                .iter()
                .find(|w| (0..c.len()).any(|i| word_at(&c, i, w)));
            let why = if a.body.contains(';') {
                "holds statements".to_string()
            } else if let Some(w) = branches {
                format!("branches of its own (`{w}`)")
            } else if a.body.trim_end().lines().count() > 6 {
                "is over six lines".to_string()
            } else {
                return None;
            };
            Some(format!(
                "{file}:{} `{}` {why}: hand it to a function of the feature that owns it",
                a.line,
                a.pattern.split_whitespace().collect::<Vec<_>>().join(" "),
            ))
        })
        .collect()
}

/// The dispatchers read as tables (issue 35 §3): each arm of their
/// `match` hands its case to the code that owns it in one call — no
/// statement, at most three lines. A function here that is not found, or
/// whose table is gone, fails too (so the list stays true).
const TABLES: &[(&str, &str, &str)] = &[
    ("src/app/dispatch/commands.rs", "run", "Command::"),
    ("src/app/dispatch/results.rs", "apply_answer", "(Q::"),
    ("src/ui/overlays/mod.rs", "draw", "Overlay::"),
    ("src/tui/session.rs", "apply", "Msg::"),
    ("src/tui/effects.rs", "run_effect", "Effect::"),
];

#[test]
fn dispatchers_read_as_tables() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut problems = Vec::new();
    for (file, name, case) in TABLES {
        let src = std::fs::read_to_string(root.join(file)).expect("read");
        let arms = table(&src, name, case);
        let cases = arms.iter().filter(|a| a.pattern.starts_with(case)).count();
        if cases < 5 {
            problems.push(format!("{file}: no table of `{case}` arms in fn {name}"));
        }
        problems.extend(long_arms(file, &arms));
    }
    assert!(
        problems.is_empty(),
        "dispatcher arms that do more than hand over:\n  {}",
        problems.join("\n  ")
    );
}

#[test]
fn a_block_arm_fails_and_a_call_arm_passes() {
    let src = r#"
        fn other() { match x { A => { a(); b() } } }
        fn run(&mut self, c: Command) -> Vec<Effect> {
            // A comment with => and ; in it.
            let s = "a string { with ; and => }";
            let ch = '{';
            match c {
                Command::One(x) => self.one(x),
                Command::Two => {
                    self.two(
                        "long", 'x',
                    )
                }
                Command::Three => {
                    self.zoom = !self.zoom;
                    vec![]
                }
                Command::Four(a) if a > 1 => match a {
                    1 => x,
                    _ => y,
                },
            }
        }
    "#;
    let arms = table(src, "run", "Command::");
    let patterns: Vec<&str> = arms.iter().map(|a| a.pattern.as_str()).collect();
    assert_eq!(
        patterns,
        [
            "Command::One(x)",
            "Command::Two",
            "Command::Three",
            "Command::Four(a) if a > 1"
        ]
    );
    let long = long_arms("x.rs", &arms);
    assert_eq!(long.len(), 2, "{long:?}");
    assert!(long[0].starts_with("x.rs:14 `Command::Three` holds statements"));
    assert!(long[1].contains("`Command::Four(a) if a > 1` branches of its own (`match`)"));
    assert!(table(src, "missing", "Command::").is_empty());
}
