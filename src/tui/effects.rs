//! The effects the reducer asks for, carried out by the loop: requests to
//! the worker, the inbox's commands, copying, the editor, custom commands,
//! suspending, layouts read from disk, views saved to the config.

use super::editor;
use super::{clipboard, terminal, worker, Msg};
use crate::app::state::{self, EditorTarget, Effect, Level, State};
use crate::app::WritesInFlight;

pub(super) struct EffectCtx<'a> {
    pub(super) worker: &'a mut worker::Worker,
    pub(super) mouse: bool,
    pub(super) writes: &'a mut WritesInFlight,
    /// The terminal went away during an effect (a write, a resume).
    pub(super) hangup: bool,
    /// `copy_command` from the config: copying goes through it.
    pub(super) copy_command: Option<String>,
    /// The inbox, once it runs.
    pub(super) inbox: Option<&'a crate::inbox::InboxLink>,
    /// The bell, the desktop notification, the title, `notify_command`.
    pub(super) notifier: &'a mut super::notify::Notifier,
}

pub(super) fn run_effect(
    fx: Effect,
    state: &mut State,
    ctx: &mut EffectCtx<'_>,
    term: &mut terminal::Term,
    input: &terminal::InputThread,
) {
    match fx {
        Effect::Api { ticket, req } => {
            ctx.writes.started(ticket, &req, state);
            if let (Some(link), Some(id)) = (ctx.inbox, req.written_task()) {
                link.send(crate::inbox::InboxCmd::OwnPending(id.to_string()));
            }
            ctx.worker.spawn(ticket, req)
        }
        Effect::Inbox(cmd) => {
            if let Some(link) = ctx.inbox {
                link.send(cmd);
            }
        }
        Effect::Notify(notice) => {
            let tx = ctx.worker.sender();
            if !ctx.notifier.notify(&notice, state.profile.as_deref(), &tx) {
                ctx.hangup = true;
            }
        }
        Effect::Quit => state.quit = true,
        Effect::Suspend => {
            input.pause();
            if let Err(e) = terminal::suspend(term, ctx.mouse) {
                tracing::warn!(error = %e, "cannot take the terminal back; saving drafts and leaving");
                ctx.hangup = true;
            }
            input.resume();
        }
        Effect::Cancel { ticket } => ctx.worker.cancel(ticket),
        Effect::ShowLog => {
            let path = crate::config::log_file();
            let tail = editor::log_tail(&path, 200).map(|t| (path.display().to_string(), t));
            state.show_log(tail);
        }
        Effect::Copy(text) => {
            // Only what an id can be: a value from the service is pasted
            // into shells, and a line break in it would run what follows.
            if let Err(why) = clipboard::copyable_id(&text) {
                state.say(Level::Error, format!("not copied: {why}"));
                return;
            }
            let shown = crate::text::clean(&text);
            if let Some(cmd) = &ctx.copy_command {
                match clipboard::copy_with_command(&text, cmd) {
                    Ok(tool) => state.say(Level::Success, format!("copied {shown} ({tool})")),
                    Err(e) => state.say(Level::Error, format!("not copied: {e}")),
                }
                return;
            }
            if let Ok(tool) = clipboard::copy_native(&text) {
                state.say(Level::Success, format!("copied {shown} ({tool})"));
                return;
            }
            let in_tmux = std::env::var_os("TMUX").is_some_and(|v| !v.is_empty());
            let tmux = in_tmux && clipboard::copy_to_tmux(&text).is_ok();
            if text.len() > terminal::OSC52_MAX {
                if tmux {
                    state.say(
                        Level::Success,
                        format!("copied {shown} into tmux's paste buffer"),
                    );
                } else {
                    state.say(Level::Error, "too large to copy through the terminal");
                }
                return;
            }
            let in_screen = !in_tmux && std::env::var_os("STY").is_some_and(|v| !v.is_empty());
            let seq = terminal::osc52(&text, in_tmux, in_screen);
            use std::io::Write;
            let mut out = std::io::stdout();
            match out.write_all(seq.as_bytes()).and_then(|_| out.flush()) {
                // Only what is known: tmux took it; the terminal was sent a
                // sequence it may ignore.
                Ok(()) if tmux => state.say(
                    Level::Success,
                    format!(
                        "copied {shown} into tmux's paste buffer (prefix ] pastes); \
                         also offered to the terminal's clipboard (OSC 52)"
                    ),
                ),
                Ok(()) => state.say(
                    Level::Success,
                    format!(
                        "offered {shown} to the terminal's clipboard (OSC 52) — if it does \
                         not arrive, set copy_command in the config"
                    ),
                ),
                Err(e) if terminal::is_hangup(&e) => ctx.hangup = true,
                Err(_) => state.say(Level::Error, "could not write to the terminal to copy"),
            }
        }
        Effect::ReadLayout { path } => {
            let path = match path.strip_prefix("~/") {
                Some(rest) => dirs::home_dir()
                    .map(|h| h.join(rest).display().to_string())
                    .unwrap_or(path),
                None => path,
            };
            let read = if path == "-" {
                Err(
                    "reading a layout from stdin is not possible inside the TUI; give a file path"
                        .to_string(),
                )
            } else {
                // A regular file of a bounded size: a FIFO or a device would
                // hang or fill the TUI.
                crate::config::read_regular_file(std::path::Path::new(&path), 32 * 1024 * 1024)
                    .map_err(|e| format!("cannot read {path}: {e}"))
            };
            match read.and_then(|s| {
                serde_json::from_str::<serde_json::Value>(&s)
                    .map_err(|e| format!("{path} is not JSON: {e}"))
            }) {
                Ok(layout) => {
                    let fx = state.request(state::ApiRequest::Validate { path, layout });
                    run_effect(fx, state, ctx, term, input);
                }
                Err(e) => state.say(Level::Error, e),
            }
        }
        Effect::SaveView { name, filter } => {
            let path = crate::config::config_path();
            let written =
                crate::config::save_view(&path, &name, &filter).map(|p| p.display().to_string());
            state.view_saved(name, filter, written);
        }
        Effect::RunCommand(job) if job.interactive => {
            // Like `$EDITOR`: the command has the terminal meanwhile.
            input.pause();
            terminal::restore();
            let done = super::runner::run_interactive(*job);
            if let Err(e) = terminal::resume(term, ctx.mouse) {
                tracing::warn!(error = %e, "cannot take the terminal back; saving drafts and leaving");
                ctx.hangup = true;
            }
            input.resume();
            for fx in state.custom_done(done) {
                run_effect(fx, state, ctx, term, input);
            }
        }
        Effect::RunCommand(job) => {
            let tx = ctx.worker.sender();
            tokio::spawn(async move {
                let done = super::runner::run_job(*job).await;
                let _ = tx.send(Msg::CommandDone(Box::new(done)));
            });
        }
        Effect::Editor { target, initial } => {
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
                (None, state::Overlay::Compose(c)) => {
                    state.drafts.editor_path(&c.task_id, &c.kind.draft_key())
                }
                _ => None,
            };
            input.pause();
            terminal::restore();
            let result = editor::edit_in_editor(&initial, &target, file);
            if let Err(e) = terminal::resume(term, ctx.mouse) {
                // The terminal went away while the editor had it.
                tracing::warn!(error = %e, "cannot take the terminal back; saving drafts and leaving");
                ctx.hangup = true;
            }
            input.resume();
            for fx in state.editor_done(target, result) {
                run_effect(fx, state, ctx, term, input);
            }
        }
    }
}
