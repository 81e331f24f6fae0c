//! The real binary in a pseudo-terminal, for what must stay bounded or
//! restored whatever comes in: the key command's prompt, suspending with
//! ctrl-z, and terminating signals.

mod support;

use support::*;

/// `api_key_command` runs before the screen is taken, in its own process
/// group that holds the terminal while it runs: its prompt on stderr shows,
/// and its answer read from the terminal reaches it.
#[test]
fn the_key_command_prompt_shows_and_can_be_answered() {
    let svc = Service::small();
    let home = Home::new();
    let cfg = home.root().join("config.toml");
    std::fs::write(
        &cfg,
        format!(
            "base_url = \"{}\"\napi_key_command = \"printf 'Passphrase: ' >&2; read -r p; \
             [ \\\"$p\\\" = open-sesame ] && printf {KEY}\"\n",
            svc.sb.base_url()
        ),
    )
    .unwrap();
    let env = vec![("TASKDECK_CONFIG".to_string(), cfg.display().to_string())];
    let mut tui = Tui::spawn(&home, &[], &env, 120, 40);
    tui.wait_for("Passphrase:", WAIT);
    tui.send("open-sesame\r");
    tui.wait_for("Alice Martin", WAIT);
    tui.send("q");
    assert_eq!(tui.wait_exit(WAIT).exit_code(), 0);
    assert_restored(&tui.raw());
}

/// The one-letter state of a process (`T` stopped, `S` sleeping, …).
fn proc_state(pid: i32) -> Option<char> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    stat.rsplit(')').next()?.trim_start().chars().next()
}

/// The pid of `parent`'s child running `comm`, once it runs.
fn child_named(parent: i32, comm: &str) -> i32 {
    let started = std::time::Instant::now();
    loop {
        for e in std::fs::read_dir("/proc").unwrap().flatten() {
            let Ok(pid) = e.file_name().to_string_lossy().parse::<i32>() else {
                continue;
            };
            let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
                continue;
            };
            let (Some(open), Some(close)) = (stat.find('('), stat.rfind(')')) else {
                continue;
            };
            let name = &stat[open + 1..close];
            let ppid = stat[close + 1..].split_whitespace().nth(1);
            if name == comm && ppid == Some(parent.to_string().as_str()) {
                return pid;
            }
        }
        assert!(started.elapsed() < WAIT, "no {comm} under {parent}");
        std::thread::sleep(std::time::Duration::from_millis(25));
    }
}

fn contains(hay: &[u8], needle: &[u8]) -> bool {
    hay.windows(needle.len()).any(|w| w == needle)
}

/// ctrl-z under a job-control shell: taskdeck gives the terminal back as it
/// found it and stops (state T, the shell sees a stopped job); `fg` (SIGCONT
/// and the terminal back) takes the screen again and draws it whole.
#[test]
fn ctrl_z_suspends_and_fg_redraws() {
    let svc = Service::small();
    let home = Home::new();
    let mut env = svc.env();
    env.push(("BIN".into(), env!("CARGO_BIN_EXE_taskdeck").into()));
    // What an interactive shell does, made observable: the job stops, the
    // shell says so and waits for a line before `fg`.
    let script = "set -m; \"$BIN\"; echo \"[job ended or stopped: $?]\"; \
                  read -r line; fg; echo \"[fg: $?]\"";
    let mut tui = Tui::spawn_program(&home, "bash", &["-c", script], &env, 120, 40);
    tui.wait_for("Alice Martin", WAIT);
    let pid = child_named(tui.pid(), "taskdeck");

    tui.send("\x1a");
    tui.wait_for("[job ended or stopped: 148]", WAIT);
    assert_eq!(proc_state(pid), Some('T'), "taskdeck is stopped");
    let before = tui.raw();
    let left = before.windows(8).rposition(|w| w == b"\x1b[?1049l");
    let entered = before.windows(8).rposition(|w| w == b"\x1b[?1049h");
    assert!(
        left > entered,
        "the alternate screen was left before stopping"
    );
    if let Some(flags) = tui.local_flags() {
        assert_ne!(flags & libc::ICANON, 0, "canonical mode while stopped");
    }

    tui.send("\r");
    let started = std::time::Instant::now();
    loop {
        let after = &tui.raw()[before.len()..];
        if contains(after, b"\x1b[?1049h") && contains(after, b"Alice Martin") {
            break;
        }
        assert!(
            started.elapsed() < WAIT,
            "no redraw after fg:\n{}",
            tui.screen()
        );
        std::thread::sleep(std::time::Duration::from_millis(25));
    }
    assert_ne!(proc_state(pid), Some('T'), "running again");
    tui.wait_for("Alice Martin", WAIT);
    tui.send("q");
    tui.wait_for("[fg: 0]", WAIT);
    assert_eq!(tui.wait_exit(WAIT).exit_code(), 0);
}

/// A stop taskdeck did not make (`kill -STOP`, a SIGTSTP sent from
/// outside, a debugger): the shell has the terminal meanwhile and puts it in
/// its own mode (`stty sane`: line mode and echo; `ESC[?2004l`: readline
/// turns bracketed paste off after every line). Once continued (`fg`), raw
/// mode and bracketed paste are taken again and the screen is drawn whole.
/// Before, nothing was: keys were read a line at a time and echoed, a paste
/// came as typed keys (each one an action), and what the shell wrote stayed
/// on the screen.
#[test]
fn continued_after_a_stop_from_outside_takes_the_terminal_again() {
    let svc = Service::small();
    let home = Home::new();
    let mut env = svc.env();
    env.push(("BIN".into(), env!("CARGO_BIN_EXE_taskdeck").into()));
    let script = "set -m; \"$BIN\"; echo \"[job ended or stopped: $?]\"; \
                  read -r line; stty sane; printf '\\033[?2004l'; fg; echo \"[fg: $?]\"";
    let mut tui = Tui::spawn_program(&home, "bash", &["-c", script], &env, 120, 40);
    tui.wait_for("Alice Martin", WAIT);
    let pid = child_named(tui.pid(), "taskdeck");

    unsafe { libc::kill(pid, libc::SIGSTOP) };
    tui.wait_for("[job ended or stopped: 147]", WAIT);
    assert_eq!(proc_state(pid), Some('T'), "taskdeck is stopped");
    // The terminal is still in taskdeck's raw mode: the line ends with LF.
    let before = tui.raw();
    tui.send("\n");
    let started = std::time::Instant::now();
    loop {
        let after = &tui.raw()[before.len()..];
        let stopped_paste = after.windows(8).rposition(|w| w == b"\x1b[?2004l");
        let pasting = after.windows(8).rposition(|w| w == b"\x1b[?2004h");
        if pasting > stopped_paste && contains(after, b"Alice Martin") {
            break;
        }
        assert!(
            started.elapsed() < WAIT,
            "bracketed paste not taken again and no whole redraw after fg:\n{}",
            tui.screen()
        );
        std::thread::sleep(std::time::Duration::from_millis(25));
    }
    if let Some(flags) = tui.local_flags() {
        assert_eq!(flags & libc::ICANON, 0, "raw mode again after fg");
        assert_eq!(flags & libc::ECHO, 0, "no echo after fg");
    }
    tui.send("q");
    tui.wait_for("[fg: 0]", WAIT);
    assert_eq!(tui.wait_exit(WAIT).exit_code(), 0);
}

/// SIGALRM (like SIGQUIT, SIGXCPU and the other signals that ask a
/// process to end) leaves the terminal restored and says why in the exit
/// status. (SIGUSR1 no longer ends taskdeck: `e2e_freeze`.)
#[test]
fn sigalrm_restores_the_terminal_and_exits_142() {
    let svc = Service::small();
    let home = Home::new();
    let mut tui = Tui::spawn(&home, &[], &svc.env(), 120, 40);
    tui.wait_for("Alice Martin", WAIT);
    tui.signal(libc::SIGALRM);
    let st = tui.wait_exit(WAIT);
    assert_eq!(st.exit_code(), 128 + libc::SIGALRM as u32);
    assert_restored(&tui.raw());
    if let Some(after) = tui.local_flags() {
        assert_ne!(after & libc::ICANON, 0, "canonical mode back");
    }
}
