//! Copying: the system clipboard when there is one (a local desktop
//! session), else OSC 52 through the terminal, which works over SSH and in
//! tmux.

use std::io::Write;
use std::process::{Command, Stdio};

/// The command that writes the system clipboard here, if any. Over SSH the
/// "system" clipboard is the remote machine's, so there is none.
pub fn native_command(
    env: &dyn Fn(&str) -> Option<String>,
    on_path: &dyn Fn(&str) -> bool,
) -> Option<Vec<&'static str>> {
    if env("SSH_CONNECTION").is_some() || env("SSH_TTY").is_some() {
        return None;
    }
    if cfg!(target_os = "macos") && on_path("pbcopy") {
        return Some(vec!["pbcopy"]);
    }
    if env("WAYLAND_DISPLAY").is_some() && on_path("wl-copy") {
        return Some(vec!["wl-copy"]);
    }
    if env("DISPLAY").is_some() {
        if on_path("xclip") {
            return Some(vec!["xclip", "-selection", "clipboard"]);
        }
        if on_path("xsel") {
            return Some(vec!["xsel", "--clipboard", "--input"]);
        }
    }
    None
}

fn on_path(cmd: &str) -> bool {
    std::env::var_os("PATH")
        .map(|p| std::env::split_paths(&p).any(|d| d.join(cmd).is_file()))
        .unwrap_or(false)
}

/// Copy with the system clipboard; `Err` when there is none or it failed.
/// Registered secrets (the API key) are scrubbed first, as everywhere text
/// leaves the program.
pub fn copy_native(text: &str) -> Result<&'static str, String> {
    let text = crate::secret::scrub(text);
    let env = |k: &str| std::env::var(k).ok().filter(|v| !v.is_empty());
    let cmd = native_command(&env, &on_path).ok_or("no system clipboard")?;
    let mut child = Command::new(cmd[0])
        .args(&cmd[1..])
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| e.to_string())?;
    if let Some(mut stdin) = child.stdin.take() {
        stdin
            .write_all(text.as_bytes())
            .map_err(|e| e.to_string())?;
    }
    let status = child.wait().map_err(|e| e.to_string())?;
    if status.success() {
        Ok(cmd[0])
    } else {
        Err(format!("{} failed", cmd[0]))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn picks_the_native_tool_only_locally() {
        let all = |_: &str| true;
        let x11 = |k: &str| (k == "DISPLAY").then(|| ":0".to_string());
        assert_eq!(
            native_command(&x11, &all),
            Some(vec!["xclip", "-selection", "clipboard"])
        );
        let ssh = |k: &str| matches!(k, "DISPLAY" | "SSH_CONNECTION").then(|| "x".to_string());
        assert_eq!(native_command(&ssh, &all), None);
        let wayland = |k: &str| (k == "WAYLAND_DISPLAY").then(|| "w".to_string());
        assert_eq!(native_command(&wayland, &all), Some(vec!["wl-copy"]));
        let none = |_: &str| None;
        assert_eq!(native_command(&none, &all), None);
        assert_eq!(native_command(&x11, &|_: &str| false), None);
    }
}
