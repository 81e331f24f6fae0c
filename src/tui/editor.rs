//! `$VISUAL`/`$EDITOR` on a private file (the terminal lent to it), and
//! the log file's tail.

use super::terminal::Screen;
use crate::app::state::requests::EditorTarget;
use crate::app::state::{Effect, Overlay, State};
use std::time::Duration;

/// `$EDITOR` on `initial` for `target`, the terminal lent to it; the text
/// goes back to the state, which answers with what to do next.
pub fn edit(
    target: EditorTarget,
    initial: String,
    state: &mut State,
    screen: &mut Screen,
) -> Vec<Effect> {
    // The editor's file sits with the drafts, named after the task
    // and the composer it belongs to: if the terminal goes away
    // while it is open, the next open of that composer offers it.
    let key = match &target {
        EditorTarget::Description { task_id } => Some((task_id.clone(), "description")),
        EditorTarget::AdditionalContext { task_id } => {
            Some((task_id.clone(), "additional_context"))
        }
        EditorTarget::Compose => None,
    };
    let file = match (&key, &state.overlay) {
        (Some((task, kind)), _) => state.drafts.editor_path(task, kind),
        (None, Overlay::Compose(c)) => state.drafts.editor_path(&c.task_id, &c.kind.draft_key()),
        _ => None,
    };
    let result = screen.lend(|| edit_in_editor(&initial, &target, file));
    state.editor_done(target, result)
}

/// The log file's name and its last `n` lines (`:log`).
pub fn log_shown(n: usize) -> Option<(String, Vec<String>)> {
    let path = crate::config::log_file();
    log_tail(&path, n).map(|t| (path.display().to_string(), t))
}

/// The last `n` lines of the log file (reads at most its last 64 KiB).
pub fn log_tail(path: &std::path::Path, n: usize) -> Option<Vec<String>> {
    use std::io::{Read, Seek, SeekFrom};
    let mut f = std::fs::File::open(path).ok()?;
    let len = f.metadata().ok()?.len();
    f.seek(SeekFrom::Start(len.saturating_sub(64 * 1024)))
        .ok()?;
    let mut buf = Vec::new();
    f.read_to_end(&mut buf).ok()?;
    let text = String::from_utf8_lossy(&buf);
    let lines: Vec<String> = text.lines().map(crate::text::clean).collect();
    Some(lines[lines.len().saturating_sub(n)..].to_vec())
}

/// Run `$VISUAL`/`$EDITOR` (fallback `vi`) on a private file: `file`
/// (with the drafts), else a temporary one in the state dir. The text comes
/// back, or an error (and nothing changes); the file is removed only when
/// its text came back.
pub fn edit_in_editor(
    initial: &str,
    target: &EditorTarget,
    file: Option<std::path::PathBuf>,
) -> Result<String, String> {
    let name = match target {
        EditorTarget::Description { .. } => "description.md",
        EditorTarget::AdditionalContext { .. } => "context.md",
        EditorTarget::Compose => "message.md",
    };
    let path = file.unwrap_or_else(|| {
        crate::config::state_dir()
            .join("edit")
            .join(format!("{}-{name}", std::process::id()))
    });
    // A text file ends with a line end (editors add one, and a line
    // appended by a script starts on its own line); it is dropped again
    // when the text comes back.
    let mut initial = initial.to_string();
    if !initial.is_empty() && !initial.ends_with('\n') {
        initial.push('\n');
    }
    crate::config::write_private_file(&path, initial.as_bytes())
        .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    let editor = std::env::var("VISUAL")
        .ok()
        .filter(|s| !s.trim().is_empty())
        .or_else(|| {
            std::env::var("EDITOR")
                .ok()
                .filter(|s| !s.trim().is_empty())
        })
        .unwrap_or_else(|| "vi".into());
    // Through the shell so `EDITOR="code --wait"` works; the path is passed
    // as an argument, never interpolated.
    let status = std::process::Command::new("sh")
        .arg("-c")
        .arg(format!("{editor} \"$1\""))
        .arg("sh")
        .arg(&path)
        .spawn()
        .and_then(wait_for_editor);
    let result = match status {
        Ok(s) if s.success() => std::fs::read_to_string(&path).map_err(|e| e.to_string()),
        Ok(s) => Err(editor_failed(&editor, s.code(), &path)),
        Err(e) => Err(format!("cannot start {editor}: {e}")),
    };
    if result.is_ok() {
        let _ = std::fs::remove_file(&path);
    }
    result
}

/// Why the editor gave nothing back, in one line: the shell's 127 and 126
/// (no such command, not executable) say what to set, naming the editor's
/// first word; the text stays in its file either way.
fn editor_failed(editor: &str, code: Option<i32>, path: &std::path::Path) -> String {
    let first = editor.split_whitespace().next().unwrap_or(editor);
    let first = crate::text::clean(first);
    match code {
        Some(127) => format!(
            "editor \"{first}\" not found — set $VISUAL or $EDITOR; your text is kept in {}",
            path.display()
        ),
        Some(126) => format!(
            "editor \"{first}\" cannot be run (not executable) — set $VISUAL or $EDITOR; \
             your text is kept in {}",
            path.display()
        ),
        Some(c) => format!(
            "editor \"{first}\" exited with status {c}; your text is kept in {}",
            path.display()
        ),
        None => format!(
            "editor \"{first}\" was stopped by a signal; your text is kept in {}",
            path.display()
        ),
    }
}

/// Set when SIGHUP arrives (also while the loop waits for the editor).
pub static HUNG_UP: std::sync::OnceLock<std::sync::Arc<std::sync::atomic::AtomicBool>> =
    std::sync::OnceLock::new();

/// The run is leaving: a signal that asks to end came, or the loop ended
/// (a quit, a hang-up). What waits on the loop's thread (`$EDITOR`, an
/// interactive command) stops waiting, and from then on such a signal
/// ends the process at once (`super::signals`).
pub static LEAVING: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// The run is leaving (see [`LEAVING`]).
pub fn leaving() {
    LEAVING.store(true, std::sync::atomic::Ordering::SeqCst);
}

/// Whether the run is leaving (see [`LEAVING`]).
pub fn is_leaving() -> bool {
    LEAVING.load(std::sync::atomic::Ordering::SeqCst)
}

/// Wait for the editor. A hang-up meanwhile is passed on to the editor's
/// process group (ours), as a shell passes it to its foreground job: when
/// taskdeck leads the session (`ssh -t host taskdeck`), nobody else would,
/// and an editor that does not read the terminal would keep us waiting.
pub(crate) fn wait_for_editor(
    mut child: std::process::Child,
) -> std::io::Result<std::process::ExitStatus> {
    use std::sync::atomic::Ordering;
    let mut passed_on = false;
    loop {
        if let Some(st) = child.try_wait()? {
            return Ok(st);
        }
        // A hang-up, or a signal that asks taskdeck to end (SIGTERM…),
        // which the loop cannot take while it waits here.
        let hung_up = HUNG_UP.get().is_some_and(|f| f.load(Ordering::SeqCst)) || is_leaving();
        if hung_up && !passed_on {
            passed_on = true;
            tracing::warn!("hang-up while the editor is open; passing it on");
            // Our own process group: SIGHUP is handled here (by the
            // loop), so only the shell and the editor end.
            crate::platform::ffi::signal_own_group(libc::SIGHUP);
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_editor_is_named_with_what_to_set() {
        let p = std::path::Path::new("/tmp/x/message.md");
        let m = editor_failed("vim-nope --wait", Some(127), p);
        assert_eq!(
            m,
            "editor \"vim-nope\" not found — set $VISUAL or $EDITOR; your text is kept in /tmp/x/message.md"
        );
        assert!(!m.contains("127") && !m.contains("--wait"));
        assert!(editor_failed("ed", Some(126), p).contains("not executable"));
        assert!(editor_failed("ed", Some(1), p).contains("exited with status 1"));
    }

    #[test]
    fn a_missing_editor_keeps_the_text_in_its_file() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("m.md");
        std::env::set_var("VISUAL", "taskdeck-no-such-editor-xyz");
        let r = edit_in_editor("my words", &EditorTarget::Compose, Some(file.clone()));
        std::env::remove_var("VISUAL");
        let e = r.unwrap_err();
        assert!(
            e.starts_with(
                "editor \"taskdeck-no-such-editor-xyz\" not found — set $VISUAL or $EDITOR"
            ),
            "{e}"
        );
        assert_eq!(std::fs::read_to_string(&file).unwrap(), "my words\n");
    }
}
