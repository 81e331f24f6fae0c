//! A newcomer's first minutes (issue 34): `taskdeck demo` writes nothing of
//! the user's, a draft can be accepted in the demo with `W` `a`, and the
//! first start says where help is and how to leave, at 80×24 too. The real
//! binary in a pseudo-terminal.

mod support;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use support::*;

/// Every file under `dir` with its bytes (folders as `None`).
fn tree(dir: &Path) -> BTreeMap<PathBuf, Option<Vec<u8>>> {
    fn walk(root: &Path, p: &Path, out: &mut BTreeMap<PathBuf, Option<Vec<u8>>>) {
        if let Ok(rd) = std::fs::read_dir(p) {
            for e in rd.flatten() {
                let p = e.path();
                let rel = p.strip_prefix(root).unwrap().to_path_buf();
                if p.is_dir() {
                    out.insert(rel, None);
                    walk(root, &p, out);
                } else {
                    out.insert(rel, Some(std::fs::read(&p).unwrap()));
                }
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(dir, dir, &mut out);
    out
}

fn write(p: &Path, bytes: &[u8]) {
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, bytes).unwrap();
}

/// The user's own files, as a real user has them: a config file (found
/// through `$XDG_CONFIG_HOME`, as without `TASKDECK_CONFIG`), a store and
/// a draft. The environment points at them; `TMPDIR` is the test's own.
fn user_files(home: &Home) -> Vec<(String, String)> {
    let root = home.root();
    write(
        &root.join("config/taskdeck/config.toml"),
        b"# my own config, kept as I wrote it\ntheme = \"dark\"\n\n[[views]]\nname = \"Due today\"\nfilter = \"assigned=me to=today\"\n",
    );
    write(
        &home.cache().join("taskdeck/demo/store.sqlite3"),
        b"my store",
    );
    write(
        &home.drafts().join("svc/user-me/task.comment.txt"),
        b"my draft",
    );
    std::fs::create_dir_all(root.join("tmp")).unwrap();
    vec![
        // Unset: the config file is found as a user's is.
        ("TASKDECK_CONFIG".into(), String::new()),
        ("TMPDIR".into(), root.join("tmp").display().to_string()),
    ]
}

/// What the demo must leave as it was: everything of the home but the log
/// (every run's log goes where it always goes) and the temp folder.
fn users_tree(home: &Home) -> BTreeMap<PathBuf, Option<Vec<u8>>> {
    tree(home.root())
        .into_iter()
        .filter(|(p, _)| {
            !p.starts_with("tmp")
                && !p
                    .file_name()
                    .is_some_and(|n| n.to_string_lossy().starts_with("taskdeck.log"))
        })
        .collect()
}

/// The demo's own folder under `TMPDIR`, while it runs.
fn demo_dir(home: &Home) -> Option<PathBuf> {
    std::fs::read_dir(home.root().join("tmp"))
        .ok()?
        .flatten()
        .map(|e| e.path())
        .find(|p| {
            p.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with("taskdeck-demo-"))
        })
}

#[test]
fn the_demo_leaves_the_users_config_store_and_drafts_byte_for_byte() {
    let home = Home::new();
    let env = user_files(&home);
    let before = users_tree(&home);
    let mut tui = Tui::spawn(&home, &["demo"], &env, 120, 30);
    tui.wait_for("Alice Martin", WAIT);
    // The screen says what the demo does with what is done in it.
    tui.wait_for(
        "demo: nothing of yours is touched; what you change here is discarded at exit",
        WAIT,
    );
    tui.wait_until("the first page", WAIT, |s| s.contains("(more below)"));
    // A config write: the view is saved, in the demo's own config.
    tui.send(":view save Newcomer view\r");
    tui.wait_for("saved in the demo's own config (discarded at exit)", WAIT);
    // A draft: a comment written and closed (the draft is kept).
    tui.send("c");
    tui.wait_for("[compose]", WAIT);
    tui.send("a comment left as a draft");
    tui.wait_for("a comment left as a draft", WAIT);
    tui.key("\x1b");
    tui.wait_until("the composer closed", WAIT, |s| !s.contains("[compose]"));
    // `:log` shows the log file every run writes, the demo's included.
    tui.send(":log\r");
    tui.wait_for("— the end of the log file", WAIT);
    let log = home.state().join("taskdeck").join("taskdeck.log");
    tui.wait_for(&log.display().to_string(), WAIT);
    tui.key("\x1b");
    tui.wait_until("the log closed", WAIT, |s| {
        !s.contains("end of the log file")
    });
    // The writes went to the demo's folder.
    let dir = demo_dir(&home).expect("the demo's own folder in TMPDIR");
    let saved = std::fs::read_to_string(dir.join("config/config.toml")).unwrap();
    assert!(saved.contains("Newcomer view"), "{saved}");
    assert!(
        saved.contains("# my own config"),
        "the copy keeps the user's settings: {saved}"
    );
    assert!(dir.join("state/taskdeck/drafts").is_dir());
    tui.send("q");
    tui.wait_exit(WAIT);
    assert_eq!(
        users_tree(&home),
        before,
        "the demo changed the user's files"
    );
    assert_eq!(
        demo_dir(&home),
        None,
        "the demo's folder is removed at exit"
    );
}

/// Issue 34 §5: in the demo, `W` lists the draft the demo organisation
/// links from a visible task (#3 → #5) and ctrl-a accepts it (a letter
/// narrows the list, as in every picker).
#[test]
fn in_the_demo_w_then_a_accepts_a_draft() {
    let home = Home::new();
    let env = vec![("TMPDIR".to_string(), home.root().display().to_string())];
    let mut tui = Tui::spawn(&home, &["demo"], &env, 120, 40);
    tui.wait_for("Alice Martin", WAIT);
    tui.wait_until("the first page", WAIT, |s| s.contains("(more below)"));
    tui.send("W");
    tui.wait_for("Draft tasks", WAIT);
    tui.wait_for("Respond to new matter intake from Litware", WAIT);
    tui.send("\u{1}");
    tui.wait_for("#5: draft accepted", WAIT);
    // Gone from the drafts list: it is a task now.
    tui.wait_until("the accepted draft gone from the list", WAIT, |s| {
        s.contains("no draft task seen")
    });
    let screen = tui.screen();
    assert!(!screen.contains("ERROR"), "{screen}");
    tui.key("\x1b");
    tui.wait_until("the drafts list closed", WAIT, |s| {
        !s.contains("Draft tasks")
    });
    tui.send("q");
    tui.wait_exit(WAIT);
}

/// Issue 34 §6: the first start says where help is and how to leave, at
/// 80×24; once a key is pressed the key line keeps `? help` and `q quit`;
/// the next start does not say it again.
#[test]
fn the_first_start_shows_help_and_quit_once_at_80x24() {
    let svc = Service::small();
    let home = Home::new();
    let mut tui = Tui::spawn(&home, &[], &svc.env(), 80, 24);
    tui.wait_for("Alice Martin", WAIT);
    tui.wait_for(
        "New here? Press ? for help, : for commands, q to quit (this hint shows once)",
        WAIT,
    );
    tui.send("j");
    tui.wait_until("the key line", WAIT, |s| {
        let last = s.lines().last().unwrap_or("");
        last.contains("? help") && last.trim_end().ends_with("q quit")
    });
    assert!(!tui.screen().contains("New here?"));
    tui.send("q");
    tui.wait_exit(WAIT);
    assert!(home.state().join("taskdeck/welcomed").is_file());

    let mut again = Tui::spawn(&home, &[], &svc.env(), 80, 24);
    again.wait_for("Alice Martin", WAIT);
    again.wait_until("the key line", WAIT, |s| {
        s.lines().last().unwrap_or("").contains("q quit")
    });
    assert!(!again.screen().contains("New here?"), "{}", again.screen());
    again.send("q");
    again.wait_exit(WAIT);
}

/// Issue 46 §2: the demo's first inbox holds every kind of reason — a
/// mention, a reply to Alice's comment, a change before → after, a task
/// newly assigned to her, a follow-up come due, a snooze ended, a draft
/// (#5, which no list gives: found through #3's link by the first walk) —
/// derived by the inbox from what the demo's colleague did; and opening
/// the change marks the changed field, opening a reminder marks none.
#[test]
fn the_demos_first_inbox_shows_every_reason() {
    let home = Home::new();
    let env = vec![("TMPDIR".to_string(), home.root().display().to_string())];
    let mut tui = Tui::spawn(&home, &["demo"], &env, 160, 60);
    tui.wait_for("Alice Martin", WAIT);
    tui.wait_until("the first page", WAIT, |s| s.contains("(more below)"));
    tui.send("i");
    tui.wait_for("Inbox", WAIT);
    let reasons = [
        "Bob Okafor mentioned you",
        "Bob Okafor replied to your comment",
        "priority",
        "assigned to you",
        "(follow-up)",
        "snoozed until",
        "draft waiting for you",
    ];
    tui.wait_until("every reason", WAIT, |s| {
        reasons.iter().all(|r| s.contains(r))
    });
    // The change's row (a row: its head, then its reasons): opened, its
    // field is marked `◀ changed`, and only that line.
    let screen = tui.screen();
    let head = |l: &str| l.split('│').nth(1).is_some_and(|c| c.starts_with('#'));
    let lines: Vec<&str> = screen.lines().filter(|l| l.contains('│')).collect();
    let at = lines
        .iter()
        .position(|l| !head(l) && l.contains(" → "))
        .expect("the change's reasons");
    let row = lines[..at].iter().filter(|l| head(l)).count() - 1;
    for _ in 0..row {
        tui.send("j");
    }
    std::thread::sleep(std::time::Duration::from_millis(300));
    tui.send("\r");
    tui.wait_until("the changed field marked", WAIT, |s| {
        s.lines()
            .any(|l| l.contains("status:") && l.contains("◀ changed (inbox)"))
    });
    let marked = tui
        .screen()
        .lines()
        .filter(|l| l.contains("◀ changed"))
        .count();
    assert_eq!(marked, 1, "{}", tui.screen());
    tui.send("q");
    tui.wait_exit(WAIT);
}
