//! The TUI: one task owns the state. Terminal events, ticks and API results
//! arrive on one channel; the loop drains what is queued, applies it, and
//! renders once, only when something changed.

pub mod clipboard;
pub mod command;
pub mod commands;
pub mod dates;
pub mod directory;
pub mod drafts;
pub mod fields;
pub mod freshness;
pub mod fuzzy;
pub mod input;
pub mod keymap;
pub mod layout;
pub mod names;
pub mod navigation;
pub mod panes;
pub mod popups;
pub mod reducer;
pub mod requests;
pub mod results;
pub mod share;
pub mod state;
pub mod terminal;
pub mod worker;

#[cfg(test)]
pub(crate) mod tests;

use crate::api::Client;
use crate::config::Settings;
use crossterm::event::{Event, KeyEventKind};
use state::{EditorTarget, Effect, Level, State};
use std::time::{Duration, Instant};
use tokio::sync::mpsc;

/// How the TUI was started.
#[derive(Clone, Debug, Default)]
pub struct LaunchInfo {
    /// Set in `taskdeck demo`: shown as a DEMO badge.
    pub demo: bool,
}

/// Everything the loop reacts to.
pub enum Msg {
    Term(Event),
    Api(Box<state::ApiResult>),
    Signal(i32),
    InputClosed(String),
}

const FRAME: Duration = Duration::from_millis(16);
const TICK: Duration = Duration::from_millis(200);

/// Build the state for a run (also used by tests and benchmarks).
pub fn new_state(client_host: String, settings: &Settings, demo: bool) -> State {
    let (keymap, key_warnings) = keymap::Keymap::load(&settings.keys);
    let mut s = State::new(
        keymap,
        client_host,
        demo,
        settings.page_size,
        settings.refresh_secs,
    );
    for w in settings.warnings.iter().chain(key_warnings.iter()) {
        s.say(Level::Warn, w.clone());
    }
    let n = settings.warnings.len() + key_warnings.len();
    if n > 1 {
        s.say(
            Level::Warn,
            format!("{n} configuration warnings — ctrl-l lists them"),
        );
    }
    s
}

/// Run the TUI until the user quits; returns the process exit code.
pub async fn run(
    client: Client,
    settings: Settings,
    launch: LaunchInfo,
) -> color_eyre::Result<i32> {
    let mut state = new_state(client.host(), &settings, launch.demo);
    let drafts_dir = crate::config::state_dir()
        .join("drafts")
        .join(drafts::service_key(client.base_url(), launch.demo));
    state.drafts = drafts::Drafts::new(Some(drafts_dir.clone()));
    let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
    let (theme, theme_warnings) = crate::ui::Theme::load(&settings.theme, no_color);
    for w in theme_warnings {
        state.say(Level::Warn, w);
    }

    let (tx, mut rx) = mpsc::unbounded_channel::<Msg>();
    let mut worker = worker::Worker::new(client, tx.clone());

    let mut term = terminal::setup(settings.mouse)?;
    terminal::install_panic_hook();
    let input_tx = tx.clone();
    let input = terminal::InputThread::start(move |ev| {
        let msg = match ev {
            terminal::InputEvent::Event(e) => Msg::Term(e),
            terminal::InputEvent::Closed(why) => Msg::InputClosed(why),
        };
        input_tx.send(msg).is_ok()
    });
    spawn_signals(tx.clone());

    let start_fx = state.start();
    let mut ctx = EffectCtx {
        worker: &mut worker,
        mouse: settings.mouse,
    };
    for fx in start_fx {
        run_effect(fx, &mut state, &mut ctx, &mut term, &input);
    }

    let mut exit_code = 0;
    let mut last_draw = Instant::now() - FRAME;
    let mut dirty = true;
    let mut ticker = tokio::time::interval(TICK);
    ticker.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Skip);
    loop {
        if dirty {
            let wait = FRAME.saturating_sub(last_draw.elapsed());
            if wait.is_zero() {
                let mut metrics = crate::ui::Metrics::default();
                term.draw(|f| metrics = crate::ui::render(f, &state, &theme))?;
                metrics.apply(&mut state);
                last_draw = Instant::now();
                dirty = false;
                // Debug builds only: lets the pty tests prove the panic path
                // restores the terminal and leaks no secret.
                #[cfg(debug_assertions)]
                if state.me.is_some() && std::env::var_os("TASKDECK_DEBUG_PANIC").is_some() {
                    panic!("deliberate test panic (TASKDECK_DEBUG_PANIC)");
                }
            }
        }
        let redraw_in = if dirty {
            FRAME.saturating_sub(last_draw.elapsed())
        } else {
            Duration::from_secs(3600)
        };
        let first = tokio::select! {
            m = rx.recv() => m,
            _ = ticker.tick() => None,
            _ = tokio::time::sleep(redraw_in) => { continue; }
        };
        let mut batch: Vec<Msg> = first.into_iter().collect();
        while let Ok(m) = rx.try_recv() {
            batch.push(m);
        }
        let mut effects = Vec::new();
        for msg in batch {
            match msg {
                Msg::Term(Event::Key(k)) if k.kind != KeyEventKind::Release => {
                    effects.extend(state.on_key(k));
                    dirty = true;
                }
                Msg::Term(Event::Paste(p)) => {
                    state.on_paste(&p);
                    dirty = true;
                }
                Msg::Term(Event::Mouse(m)) => {
                    let size = term.size().unwrap_or_default();
                    let area = ratatui::layout::Rect::new(0, 0, size.width, size.height);
                    effects.extend(state.on_mouse(m, area));
                    dirty = true;
                }
                Msg::Term(Event::Resize(..)) => dirty = true,
                Msg::Term(_) => {}
                Msg::Api(r) => {
                    effects.extend(state.on_api(*r));
                    dirty = true;
                }
                Msg::Signal(sig) => {
                    tracing::info!(sig, "signal received; saving drafts and leaving");
                    state.quit = true;
                    exit_code = 128 + sig;
                }
                Msg::InputClosed(why) => {
                    tracing::warn!(why = %why, "terminal input closed; saving drafts and leaving");
                    state.quit = true;
                    exit_code = 1;
                }
            }
        }
        let (tick_fx, tick_dirty) = state.on_tick(Instant::now());
        effects.extend(tick_fx);
        dirty |= tick_dirty;
        state.autosave_draft(Instant::now(), false);
        let mut ctx = EffectCtx {
            worker: &mut worker,
            mouse: settings.mouse,
        };
        for fx in effects {
            run_effect(fx, &mut state, &mut ctx, &mut term, &input);
        }
        if state.quit {
            break;
        }
    }
    let kept = state.save_drafts_now();
    drop(input);
    terminal::restore();
    if let Some(p) = kept {
        eprintln!("taskdeck: your unsent text is kept in {}", p.display());
    } else {
        let kept = state.drafts.list().len();
        if kept > 0 {
            eprintln!(
                "taskdeck: {kept} unsent draft(s) kept in {}",
                drafts_dir.display()
            );
        }
    }
    Ok(exit_code)
}

struct EffectCtx<'a> {
    worker: &'a mut worker::Worker,
    mouse: bool,
}

fn run_effect(
    fx: Effect,
    state: &mut State,
    ctx: &mut EffectCtx<'_>,
    term: &mut terminal::Term,
    input: &terminal::InputThread,
) {
    match fx {
        Effect::Api { ticket, req } => ctx.worker.spawn(ticket, req),
        Effect::Quit => state.quit = true,
        Effect::ShowLog => {
            let path = crate::config::state_dir().join("taskdeck.log");
            let tail = log_tail(&path, 200).map(|t| (path.display().to_string(), t));
            state.show_log(tail);
        }
        Effect::Copy(text) => {
            if let Ok(tool) = clipboard::copy_native(&text) {
                state.say(
                    Level::Success,
                    format!("copied {} ({tool})", crate::text::clean(&text)),
                );
                return;
            }
            if text.len() > terminal::OSC52_MAX {
                state.say(Level::Error, "too large to copy through the terminal");
                return;
            }
            let seq = terminal::osc52(&text, std::env::var_os("TMUX").is_some());
            use std::io::Write;
            let mut out = std::io::stdout();
            let ok = out
                .write_all(seq.as_bytes())
                .and_then(|_| out.flush())
                .is_ok();
            if ok {
                state.say(
                    Level::Success,
                    format!("copied {} (OSC 52 clipboard)", crate::text::clean(&text)),
                );
            } else {
                state.say(Level::Error, "could not write to the terminal to copy");
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
                std::fs::read_to_string(&path).map_err(|e| format!("cannot read {path}: {e}"))
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
        Effect::Editor { target, initial } => {
            input.pause();
            terminal::restore();
            let result = edit_in_editor(&initial, &target);
            let _ = terminal::resume(term, ctx.mouse);
            input.resume();
            for fx in state.editor_done(target, result) {
                run_effect(fx, state, ctx, term, input);
            }
        }
    }
}

/// The last `n` lines of the log file (reads at most its last 64 KiB).
fn log_tail(path: &std::path::Path, n: usize) -> Option<Vec<String>> {
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

/// Run `$VISUAL`/`$EDITOR` (fallback `vi`) on a private temporary file in
/// the state dir. The text comes back, or an error (and nothing changes).
fn edit_in_editor(initial: &str, target: &EditorTarget) -> Result<String, String> {
    let dir = crate::config::state_dir().join("edit");
    let name = match target {
        EditorTarget::Description { .. } => "description.md",
        EditorTarget::AdditionalContext { .. } => "context.md",
        EditorTarget::Compose => "message.md",
    };
    let path = dir.join(format!("{}-{name}", std::process::id()));
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
        .status();
    let result = match status {
        Ok(s) if s.success() => std::fs::read_to_string(&path).map_err(|e| e.to_string()),
        Ok(s) => Err(format!(
            "{editor} exited with {s}; your text is in {}",
            path.display()
        )),
        Err(e) => Err(format!("cannot start {editor}: {e}")),
    };
    if result.is_ok() {
        let _ = std::fs::remove_file(&path);
    }
    result
}

fn spawn_signals(tx: mpsc::UnboundedSender<Msg>) {
    use futures::StreamExt;
    use signal_hook::consts::{SIGHUP, SIGINT, SIGQUIT, SIGTERM};
    match signal_hook_tokio::Signals::new([SIGTERM, SIGHUP, SIGINT, SIGQUIT]) {
        Ok(mut signals) => {
            tokio::spawn(async move {
                while let Some(sig) = signals.next().await {
                    if tx.send(Msg::Signal(sig)).is_err() {
                        break;
                    }
                }
            });
        }
        Err(e) => tracing::warn!(error = %e, "cannot listen for signals"),
    }
}
