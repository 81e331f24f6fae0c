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

/// Copy only what an id can be: the text is pasted into shells, where a
/// line break or a `;` in a value from the service would run what follows.
/// A task's id is a uuid; its display id is `#` and digits, or a short word
/// of letters, digits, `#`, `_` and `-` (not starting with `-`, which a
/// command would read as an option). Anything else is refused, with why.
pub fn copyable_id(text: &str) -> Result<(), String> {
    let is_uuid = text.len() == 36
        && text.chars().all(|c| c.is_ascii_hexdigit() || c == '-')
        && uuid::Uuid::try_parse(text).is_ok();
    if is_uuid {
        return Ok(());
    }
    let short_word = !text.is_empty()
        && text.len() <= 32
        && !text.starts_with('-')
        && text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '#' | '_' | '-'));
    if short_word {
        return Ok(());
    }
    let why = if text.is_empty() {
        "the service gave an empty id".to_string()
    } else if text.chars().any(|c| c.is_control()) {
        "the service's id holds control characters (a line break would run the rest as a command if pasted into a shell)".to_string()
    } else if text.len() > 32 {
        format!("the service's id is {} bytes long: not an id", text.len())
    } else {
        "the service's id holds characters an id does not have (only letters, digits, #, _ and -, or a uuid)".to_string()
    };
    Err(format!("{why}: {}", crate::text::clean(text)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_ids_are_copied() {
        assert!(copyable_id("#12").is_ok());
        assert!(copyable_id("TASK-12_b").is_ok());
        assert!(copyable_id("00000000-0000-4000-8000-000000000001").is_ok());
        for bad in [
            "#1\n touch /tmp/pwned",
            "#1; rm -rf ~",
            "#1 && x",
            "$(touch x)",
            "`id`",
            "-rf",
            "",
            "#1\u{1b}]52;c;aGk=\u{7}",
            "#1\r",
            "0000000000000000000000000000000000000000000000001",
        ] {
            let e = copyable_id(bad).expect_err(bad);
            assert!(!e.contains('\n') && !e.contains('\u{1b}'), "{e:?}");
        }
        assert!(copyable_id("#1\n touch x")
            .unwrap_err()
            .contains("line break"));
    }

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
