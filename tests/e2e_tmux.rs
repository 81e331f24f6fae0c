//! Copy inside a stock tmux: `y` puts the task number in tmux's paste
//! buffer (tmux swallows OSC 52 unless configured), and the message says
//! which way the text went. The real binary runs in a private tmux server
//! (its own socket), driven with send-keys and read with capture-pane.

mod support;

use std::process::Command;
use support::*;

struct TmuxServer {
    socket: std::path::PathBuf,
}

impl TmuxServer {
    fn tmux(&self, args: &[&str]) -> std::process::Output {
        Command::new("tmux")
            .arg("-S")
            .arg(&self.socket)
            .args(args)
            .output()
            .expect("tmux runs (CI installs it)")
    }
    fn pane(&self) -> String {
        String::from_utf8_lossy(&self.tmux(&["capture-pane", "-p", "-t", "t"]).stdout).into_owned()
    }
    fn wait_until(&self, what: &str, f: impl Fn(&str) -> bool) -> String {
        let end = std::time::Instant::now() + WAIT;
        loop {
            let s = self.pane();
            if f(&s) {
                return s;
            }
            assert!(
                std::time::Instant::now() < end,
                "timed out waiting for {what}:\n{s}"
            );
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
    }
}

impl Drop for TmuxServer {
    fn drop(&mut self) {
        let _ = self.tmux(&["kill-server"]);
    }
}

#[test]
fn y_inside_tmux_puts_the_number_in_tmuxs_buffer_and_says_so() {
    let svc = Service::small();
    let home = Home::new();
    let server = TmuxServer {
        socket: home.root().join("tmux.sock"),
    };
    // The environment of the pane: the home's and the service's, passed
    // on the command line (a tmux server's environment is its own).
    let mut cmd = String::from("env -i");
    for (k, v) in home.env().iter().chain(svc.env().iter()) {
        cmd.push_str(&format!(" {k}='{v}'"));
    }
    cmd.push_str(&format!(
        " TMUX=\"$TMUX\" {}",
        env!("CARGO_BIN_EXE_taskdeck")
    ));
    let o = server.tmux(&[
        "-f",
        "/dev/null",
        "new-session",
        "-d",
        "-s",
        "t",
        "-x",
        "120",
        "-y",
        "40",
        &cmd,
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let screen = server.wait_until("the list", |s| s.contains("(more below)"));
    let current = current_row(&screen);
    server.tmux(&["send-keys", "-t", "t", "y"]);
    server.wait_until("the copy message", |s| s.contains("tmux's paste buffer"));
    let buffer = server.tmux(&["show-buffer"]);
    assert_eq!(String::from_utf8_lossy(&buffer.stdout), current);
    server.tmux(&["send-keys", "-t", "t", "q"]);
}
