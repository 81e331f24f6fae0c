//! Custom commands: the exact script each key and `:run` produces, for
//! which task, and what the screen shows of its outcome.

use super::*;
use crate::app::custom::run::{Done, Exit, Job, Outcome, Run};
use crate::app::custom::vars::{env, Vars};
use crate::app::tests::views::saved::config;
use std::time::Duration;

const COMMANDS: &str = r#"
[[commands]]
key = "O"
description = "Log the id"
run = "printf '%s\\n' {id} >> ids.txt"

[[commands]]
name = "close-all"
description = "Close them in the other tool"
run = "other-tool close {ids}"
for = "all"

[[commands]]
name = "peek"
key = "ctrl-p"
description = "Page through the title"
run = 'printf %s "$TASKDECK_TITLE" | less'
interactive = true
"#;

fn job(fx: &[Effect]) -> Job {
    match fx {
        [Effect::RunCommand(j)] => (**j).clone(),
        other => panic!("expected one command to run, got {other:?}"),
    }
}

#[test]
fn its_key_runs_it_on_the_current_task_with_the_value_quoted() {
    let mut s = loaded_with(&config(COMMANDS), 3);
    s.on_key(key('j'));
    let fx = s.on_key(key('O'));
    assert_eq!(
        job(&fx),
        Job {
            name: "log-the-id".into(),
            description: "Log the id".into(),
            runs: vec![Run {
                label: "#2".into(),
                script: format!("printf '%s\\n' '{}' >> ids.txt", tid(2)),
                env: env(&[Vars::of(&task(2))], false),
            }],
            interactive: false,
            timeout: Duration::from_secs(30),
        }
    );
    assert!(s
        .status
        .as_ref()
        .unwrap()
        .1
        .contains("running log-the-id on #2"));
    // The palette runs the same.
    assert_eq!(job(&palette(&mut s, "run log-the-id")), job(&fx));
}

#[test]
fn a_command_for_all_runs_once_with_every_id_and_interactive_is_kept() {
    let mut s = loaded_with(&config(COMMANDS), 2);
    let j = job(&palette(&mut s, "run close-all"));
    assert_eq!(
        j.runs,
        vec![Run {
            label: "#1".into(),
            script: format!("other-tool close '{}'", tid(1)),
            env: env(&[Vars::of(&task(1))], true),
        }]
    );
    let j = job(&s.on_key(ctrl('p')));
    assert!(j.interactive);
    // The title is not in the script: it comes in the environment.
    assert_eq!(j.runs[0].script, "printf %s \"$TASKDECK_TITLE\" | less");
    assert!(j.runs[0]
        .env
        .contains(&("TASKDECK_TITLE".to_string(), "Task number 1".to_string())));
}

#[test]
fn the_targets_come_from_one_place_and_a_missing_target_sends_nothing() {
    let mut s = loaded_with(&config(COMMANDS), 2);
    assert_eq!(s.command_targets(), Ok(vec![(tid(1), "#1".to_string())]));
    let mut empty = loaded_with(&config(COMMANDS), 0);
    assert!(empty.command_targets().is_err());
    assert!(empty.on_key(key('O')).is_empty());
    assert_eq!(empty.status.as_ref().unwrap().0, Level::Error);
    assert!(palette(&mut s, "run nothing-like-it").is_empty());
    let text = &s.status.as_ref().unwrap().1;
    assert!(text.contains("log-the-id, close-all, peek"), "{text}");
}

fn outcome(exit: Exit, stdout: &str, stderr: &str) -> Outcome {
    Outcome {
        label: "#1".into(),
        exit,
        stdout: stdout.as_bytes().to_vec(),
        stderr: stderr.as_bytes().to_vec(),
        truncated: false,
    }
}

fn done(outcomes: Vec<Outcome>) -> Done {
    Done {
        name: "log-the-id".into(),
        description: "Log the id".into(),
        interactive: false,
        outcomes,
    }
}

#[test]
fn a_failure_shows_its_exit_status_and_stderr_cleaned() {
    let mut s = loaded_with(&config(COMMANDS), 1);
    s.custom_done(done(vec![outcome(
        Exit::Code(3),
        "partial\n",
        "boom \u{1b}[31mred\n",
    )]));
    match &s.overlay {
        Overlay::Text { title, lines, .. } => {
            assert!(title.contains("log-the-id"), "{title}");
            assert_eq!(lines[0], "#1: failed: exit status 3");
            assert_eq!(lines[1], "partial");
            assert_eq!(lines[2], "stderr:");
            assert!(lines[3].starts_with("  boom "), "{:?}", lines[3]);
            assert!(!lines[3].contains('\u{1b}'), "control characters cleaned");
        }
        _ => panic!("the output overlay"),
    }
    let (level, text, _) = s.status.clone().unwrap();
    assert_eq!(level, Level::Error);
    assert!(text.contains("exit status 3"), "{text}");
}

#[test]
fn a_quiet_success_says_done_and_output_never_covers_a_popup() {
    let mut s = loaded_with(&config(COMMANDS), 1);
    s.custom_done(done(vec![outcome(Exit::Code(0), "", "")]));
    assert!(matches!(s.overlay, Overlay::None));
    let (level, text, _) = s.status.clone().unwrap();
    assert_eq!(level, Level::Success);
    assert_eq!(text, "log-the-id on #1: done");
    // Output arriving while the composer is open waits for `:output`.
    s.on_key(key('c'));
    s.custom_done(done(vec![outcome(Exit::Code(0), "hello\n", "")]));
    assert!(matches!(s.overlay, Overlay::Compose(_)));
    assert!(s.status.as_ref().unwrap().1.contains(":output"));
    s.on_key(code(KeyCode::Esc));
    palette(&mut s, "output");
    assert!(matches!(&s.overlay, Overlay::Text { lines, .. } if lines[1] == "hello"));
}

/// The command really runs: the current task's id lands in a file.
#[test]
fn the_current_tasks_id_is_written_to_a_file() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("ids.txt");
    let settings = config(&format!(
        "[[commands]]\nkey = \"O\"\ndescription = \"Log the id\"\nrun = \"printf '%s\\\\n' {{id}} >> {}\"\n",
        file.display()
    ));
    let mut s = loaded_with(&settings, 2);
    s.on_key(key('j'));
    let j = job(&s.on_key(key('O')));
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let d = rt.block_on(crate::tui::runner::run_job(j));
    assert_eq!(d.outcomes[0].exit, Exit::Code(0));
    assert_eq!(
        std::fs::read_to_string(&file).unwrap(),
        format!("{}\n", tid(2))
    );
    s.custom_done(d);
    assert_eq!(s.status.as_ref().unwrap().1, "log-the-id on #2: done");
}

#[test]
fn custom_commands_are_in_help_and_the_palette() {
    let s = loaded_with(&config(COMMANDS), 1);
    let help = crate::ui::help_lines(&s, "");
    assert!(help.iter().any(|l| l.starts_with("Custom commands")));
    assert!(help.iter().any(|l| l.contains("O")
        && l.contains("Log the id (:run log-the-id)")
        && l.contains(">> ids.txt")));
    assert!(help
        .iter()
        .any(|l| l.contains("ctrl-p") && l.contains("with the terminal")));
    let found = crate::ui::help_lines(&s, "page through");
    assert!(found[0].contains("Page through the title"), "{found:?}");
    let src = s.palette_sources();
    assert_eq!(
        crate::app::popups::palette::complete("close", &src)[0],
        "run close-all"
    );
}

/// The task under the cursor (#1) with `title` and `display_id`.
fn hostile_task(title: &str, display_id: &str) -> Task {
    let mut t = task_json(1);
    t["title"] = title.into();
    t["display_id"] = display_id.into();
    serde_json::from_value(t).unwrap()
}

fn run_now(j: Job) -> Done {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(crate::tui::runner::run_job(j))
}

/// `:run NAME` on a state with `settings` and the task `t`; what the
/// command did, if it ran at all.
fn run_on(settings: &Settings, t: Task, name: &str) -> (State, Option<Done>) {
    let mut s = loaded_with_tasks(settings, vec![t]);
    let fx = palette(&mut s, &format!("run {name}"));
    let done = fx.into_iter().find_map(|e| match e {
        Effect::RunCommand(j) => Some(run_now(*j)),
        _ => None,
    });
    (s, done)
}

/// The shell-safety check was a list of commands that run their argument
/// as code, and each of these got past it. With a hostile title, nothing
/// of the title runs: the title is no longer put into a command line at
/// all, so each command is left out with what to write instead.
#[test]
fn the_known_bypasses_run_nothing_of_a_hostile_title() {
    let dir = tempfile::tempdir().unwrap();
    let marker = dir.path().join("pwned");
    let m = marker.display().to_string();
    let lock = dir.path().join("lock").display().to_string();
    let bypasses = [
        "'sh' -c {title}".to_string(),
        "$SHELL -c {title}".to_string(),
        "${SHELL:-sh} -c {title}".to_string(),
        "trap {title} EXIT".to_string(),
        format!("flock {lock} -c {{title}}"),
        "script -qc {title} /dev/null".to_string(),
        "python3 -c {title}".to_string(),
    ];
    let titles = [
        format!("$(touch {m})"),
        format!("; touch {m}"),
        format!("touch {m}"),
        format!("__import__('os').system('touch {m}')"),
    ];
    let mut src = String::new();
    for (i, run) in bypasses.iter().enumerate() {
        src.push_str(&format!(
            "[[commands]]\nname = \"b{i}\"\ndescription = \"Bypass {i}\"\nrun = {}\n\n",
            toml_string(run)
        ));
    }
    let c = crate::config::from_str(&src, None);
    for (i, run) in bypasses.iter().enumerate() {
        let said = c
            .settings
            .warnings
            .iter()
            .find(|w| w.contains(&format!("\"b{i}\" is disabled")))
            .unwrap_or_else(|| panic!("{run}: {:?}", c.settings.warnings));
        assert!(
            said.contains("use \"$TASKDECK_TITLE\" in the command instead of {title}"),
            "{said}"
        );
        for title in &titles {
            let (s, done) = run_on(&c.settings, hostile_task(title, "#1"), &format!("b{i}"));
            assert!(done.is_none(), "{run} ran with {title:?}: {done:?}");
            assert!(!marker.exists(), "{run} ran {title:?}");
            let (level, text, _) = s.status.clone().unwrap();
            assert_eq!(level, Level::Error, "{text}");
        }
    }
}

/// TOML's literal string when it can hold `s`, else a basic one.
fn toml_string(s: &str) -> String {
    if s.contains('\'') {
        format!("{s:?}")
    } else {
        format!("'{s}'")
    }
}

/// The same commands given a placeholder that is allowed — `{display_id}`
/// — whose value from the service is not plain: refused with a clear
/// message when run; nothing runs.
#[test]
fn a_hostile_display_id_is_refused_when_the_command_runs() {
    let dir = tempfile::tempdir().unwrap();
    let marker = dir.path().join("pwned");
    let m = marker.display().to_string();
    let src = "[[commands]]\nname = \"x\"\ndescription = \"X\"\nrun = \"sh -c {display_id}\"\n\n\
               [[commands]]\nname = \"y\"\ndescription = \"Y\"\nrun = \"eval {display_id}\"\n";
    let settings = config(src);
    for display_id in [
        format!("$(touch {m})"),
        format!("#1; touch {m}"),
        format!("#1 `touch {m}`"),
        "#1 \"'".to_string(),
    ] {
        for name in ["x", "y"] {
            let (s, done) = run_on(&settings, hostile_task("T", &display_id), name);
            assert!(done.is_none(), "{name} ran with {display_id:?}");
            assert!(!marker.exists(), "{display_id:?} ran");
            let (level, text, _) = s.status.clone().unwrap();
            assert_eq!(level, Level::Error);
            assert!(text.contains(&format!("{name} not run on ")), "{text}");
            assert!(text.contains("{display_id}"), "{text}");
            assert!(text.contains("\"$TASKDECK_DISPLAY_ID\""), "{text}");
        }
    }
}

/// The variables carry the values exactly (control characters aside), and
/// a hostile title used as data runs nothing.
#[test]
fn the_variables_carry_the_values_exactly() {
    let dir = tempfile::tempdir().unwrap();
    let marker = dir.path().join("pwned");
    let out = dir.path().join("out");
    let m = marker.display().to_string();
    let title = format!("$(touch {m}); `touch {m}` '\"\\ * ~ ä {{id}} %s");
    let src = format!(
        "[[commands]]\nname = \"p\"\ndescription = \"P\"\nrun = '''printf %s \"$TASKDECK_TITLE\" > {o}; printf '|%s' \"$TASKDECK_ID\" \"$TASKDECK_DISPLAY_ID\" \"$TASKDECK_STATUS\" \"$TASKDECK_ASSIGNEE_EMAIL\" \"$TASKDECK_TEAM\" \"$TASKDECK_COUNT\" > {o}.more'''\n",
        o = out.display()
    );
    let settings = config(&src);
    let (mut s, done) = run_on(&settings, hostile_task(&title, "#1"), "p");
    let done = done.expect("it runs");
    assert_eq!(done.outcomes[0].exit, Exit::Code(0), "{done:?}");
    assert_eq!(std::fs::read_to_string(&out).unwrap(), title);
    assert_eq!(
        std::fs::read_to_string(dir.path().join("out.more")).unwrap(),
        format!("|{}|#1|in_progress|me@acme.test|Ops|1", tid(1))
    );
    assert!(!marker.exists());
    s.custom_done(done);
    assert_eq!(s.status.as_ref().unwrap().1, "p on #1: done");
    // A control character is untrusted: a space.
    let (_, done) = run_on(&settings, hostile_task("a\u{1b}]0;x\u{7}b\nc", "#1"), "p");
    assert_eq!(done.unwrap().outcomes[0].exit, Exit::Code(0));
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "a ]0;x b c");
}

/// An old config's free-text placeholder: a warning on screen saying what
/// to write instead, and the command is left out (the rest still works).
#[test]
fn an_old_title_placeholder_is_disabled_with_what_to_write_instead() {
    let src = "[[commands]]\nkey = \"O\"\ndescription = \"Log the title\"\nrun = \"echo {title} >> titles.txt\"\n\n\
               [[commands]]\ndescription = \"Log the id\"\nrun = \"echo {id} >> ids.txt\"\n";
    let c = crate::config::from_str(src, None);
    let s = loaded_with(&c.settings, 1);
    let names: Vec<&str> = s.custom.commands.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, vec!["log-the-id"]);
    let (level, text, _) = s.status.clone().unwrap();
    assert_eq!(level, Level::Warn);
    assert!(
        text.contains("command \"log-the-title\" is disabled")
            && text.contains("use \"$TASKDECK_TITLE\" in the command instead of {title}"),
        "{text}"
    );
}
