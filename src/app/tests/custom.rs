//! Custom commands: the exact script each key and `:run` produces, for
//! which task, and what the screen shows of its outcome.

use super::views::config;
use super::*;
use crate::app::custom::run::{Done, Exit, Job, Outcome, Run};
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
run = "printf %s {title} | less"
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
        }]
    );
    let j = job(&s.on_key(ctrl('p')));
    assert!(j.interactive);
    assert_eq!(j.runs[0].script, "printf %s 'Task number 1' | less");
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
    let d = rt.block_on(crate::app::custom::run::run_job(j));
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
