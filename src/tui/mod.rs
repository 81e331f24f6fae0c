//! The TUI: one task owns the state. Terminal events, ticks and API results
//! arrive on one channel; the loop drains what is queued, applies it, and
//! renders once, only when something changed. The side effects live here,
//! above the state (`crate::app`) and the drawing (`crate::ui`): the
//! terminal, the worker, the store link, the clipboard, the inbox's link.

pub mod clamped;
pub mod clipboard;
pub mod colors;
mod msg;
mod store_link;
pub mod terminal;
pub mod worker;

pub use msg::Msg;

use crate::api::Client;
use crate::app::custom;
use crate::app::drafts;
use crate::app::editor;
use crate::app::new_state;
use crate::app::quit_lines;
use crate::app::state;
use crate::app::WritesInFlight;
use crate::config::Settings;
use crossterm::event::{Event, KeyEventKind};
use state::{EditorTarget, Effect, Level, State};
use std::time::{Duration, Instant};
use store_link::StoreLink;
use tokio::sync::mpsc;

/// How the TUI was started.
#[derive(Clone, Debug, Default)]
pub struct LaunchInfo {
    /// Set in `taskdeck demo`: shown as a DEMO badge.
    pub demo: bool,
    /// The profile in use (shown in the header; `:profile` switches).
    pub profile: Option<String>,
    /// The API key's fingerprint in this service's store folder: which
    /// user's store may open before the service answers (`None`: none).
    pub key_print: Option<crate::store::identity::KeyPrint>,
}

/// How a run ended.
#[derive(Clone, Debug, PartialEq)]
pub struct RunEnd {
    /// The process exit code.
    pub code: i32,
    /// `:profile NAME`: start again with that profile.
    pub switch_to: Option<String>,
}

const FRAME: Duration = Duration::from_millis(16);
const TICK: Duration = Duration::from_millis(200);

/// Run the TUI until the user quits; returns the process exit code.
pub async fn run(
    client: Client,
    settings: Settings,
    launch: LaunchInfo,
) -> color_eyre::Result<RunEnd> {
    let mut state = new_state(client.host(), &settings, launch.demo);
    state.profile = launch.profile.clone();
    // Drafts belong to the service and to the user: the user's folder is
    // used once the service has said who the user is.
    let drafts_dir = crate::store::identity::service_folder(
        &crate::config::state_dir().join("drafts"),
        client.base_url(),
        launch.demo,
    );
    state.drafts = drafts::Drafts::per_user(drafts_dir);
    let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
    let (theme, theme_warnings) = crate::ui::Theme::load(&settings.theme, no_color);
    for w in theme_warnings {
        state.say(Level::Warn, w);
    }

    let (tx, mut rx) = mpsc::unbounded_channel::<Msg>();
    // The store opens before the first frame: the last view's rows and
    // the last current task are on screen at once.
    let mut store = StoreLink::new(
        crate::store::service_dir(client.base_url(), launch.demo),
        launch.key_print.clone(),
        settings.cache,
        tx.clone(),
    );
    store.open_for_key(&mut state);
    let service_dir = crate::store::service_dir(client.base_url(), launch.demo);
    let inbox_client = client.clone();
    // The inbox of the store's user: what it holds shows at once, offline
    // too; it walks once the service has named that user.
    let mut inbox: Option<crate::inbox::InboxLink> =
        start_inbox(&state, &inbox_client, &service_dir, &settings, &tx);
    state.inbox.running = inbox.is_some();
    state.inbox.periodic = settings.inbox_refresh_secs > 0;
    if !settings.cache {
        state.inbox.off = Some(
            "the inbox is kept in the local store, and `cache = false` in the config turns it off"
                .into(),
        );
    }
    let mut worker = worker::Worker::new(client, tx.clone());

    let env = |k: &str| std::env::var(k).ok();
    let depth = colors::depth(settings.colors.as_deref(), &env);
    let mut term = terminal::setup(settings.mouse, depth)?;
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

    let mut writes = WritesInFlight::default();
    let start_fx = state.start();
    let mut ctx = EffectCtx {
        worker: &mut worker,
        mouse: settings.mouse,
        writes: &mut writes,
        hangup: false,
        copy_command: settings.copy_command.clone(),
        inbox: None,
    };
    for fx in start_fx {
        run_effect(fx, &mut state, &mut ctx, &mut term, &input);
    }
    store.drain(&mut state);

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
                let clamped_from = term.backend().clamped_from();
                if let Err(e) = term.draw(|f| {
                    metrics = crate::ui::render(f, &state, &theme);
                    if let Some(real) = clamped_from {
                        clamped::draw_notice(f, real);
                    }
                }) {
                    // The terminal is gone (EIO/EOF): a hang-up.
                    tracing::warn!(error = %e, "cannot draw; saving drafts and leaving");
                    exit_code = hangup_code(exit_code);
                    break;
                }
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
        // A cursor that stops is read once it rests, not at the next tick.
        let settle_in = state.settle.due().map_or(Duration::from_secs(3600), |t| {
            t.saturating_duration_since(Instant::now())
        });
        let first = tokio::select! {
            m = rx.recv() => m,
            _ = ticker.tick() => None,
            _ = tokio::time::sleep(settle_in) => None,
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
                    writes.answered(r.ticket);
                    if let Some(link) = &inbox {
                        // A write of ours: its changes are never news.
                        own_write_answered(link, &r);
                    }
                    let me = matches!(r.req, state::ApiRequest::Me);
                    effects.extend(state.on_api(*r));
                    if me {
                        store.bind(&mut state);
                        // The store of the user the service named, with
                        // its outbox: sent with this key, which is theirs.
                        effects.extend(state.outbox_pump());
                        let user = state.local.user.clone();
                        match (&inbox, &state.me) {
                            // The same user: now with their name, to read
                            // mentions by.
                            (Some(link), Some(me)) if Some(link.user()) == user.as_deref() => {
                                link.send(crate::inbox::InboxCmd::SetMe(crate::inbox::Me::of(me)))
                            }
                            // None yet, or another user's: theirs.
                            _ => {
                                inbox = start_inbox(
                                    &state,
                                    &inbox_client,
                                    &service_dir,
                                    &settings,
                                    &tx,
                                );
                                let (off, periodic) =
                                    (state.inbox.off.take(), state.inbox.periodic);
                                state.inbox = Default::default();
                                state.inbox.off = off;
                                state.inbox.periodic = periodic;
                                state.inbox.running = inbox.is_some();
                            }
                        }
                    }
                    dirty = true;
                }
                Msg::Inbox(u) => {
                    state.on_inbox(*u);
                    dirty = true;
                }
                Msg::Store(a) => {
                    effects.extend(state.on_store(a));
                    dirty = true;
                }
                Msg::Signal(sig) => {
                    tracing::info!(sig, "signal received; saving drafts and leaving");
                    state.quit = true;
                    exit_code = 128 + sig;
                }
                Msg::CommandDone(d) => {
                    effects.extend(state.custom_done(*d));
                    dirty = true;
                }
                Msg::InputClosed(why) => {
                    tracing::warn!(why = %why, "terminal input closed; saving drafts and leaving");
                    state.quit = true;
                    exit_code = hangup_code(exit_code);
                }
            }
        }
        let (tick_fx, tick_dirty) = state.on_tick(Instant::now());
        effects.extend(tick_fx);
        dirty |= tick_dirty;
        // After the user's requests of this batch: they go out first.
        effects.extend(state.plan_prefetch());
        state.autosave_draft(Instant::now(), false);
        if let Some(me) = &state.me {
            let id = me.user_id.clone();
            state.drafts.bind_user(&id);
        }
        let mut ctx = EffectCtx {
            worker: &mut worker,
            mouse: settings.mouse,
            writes: &mut writes,
            hangup: false,
            copy_command: settings.copy_command.clone(),
            inbox: inbox.as_ref(),
        };
        ctx.worker.offline = state.offline.is_some();
        for fx in effects {
            run_effect(fx, &mut state, &mut ctx, &mut term, &input);
        }
        store.drain(&mut state);
        if ctx.hangup {
            exit_code = hangup_code(exit_code);
            state.quit = true;
        }
        if state.quit {
            break;
        }
    }
    let kept = state.save_drafts_now();
    store.drain(&mut state);
    store.finish();
    // The store's last answers: whether the edits queued last were kept.
    while let Ok(m) = rx.try_recv() {
        if let Msg::Store(a) = m {
            state.on_store(a);
        }
    }
    // A queued edit neither sent nor kept is lost: never a silent exit 0.
    if exit_code == 0 && !state.outbox_lost().is_empty() {
        exit_code = EXIT_EDITS_LOST;
    }
    drop(input);
    terminal::restore();
    // ratatui's `Drop` shows the cursor again (restore did) and, when the
    // terminal is gone, reports the failure with `eprintln!`, which panics
    // when stderr is gone too: it is not run.
    std::mem::forget(term);
    // Never `eprintln!`: stderr may be the terminal that went away.
    let mut err = std::io::stderr();
    for line in quit_lines(&state, &writes, kept.as_deref()) {
        use std::io::Write;
        let _ = writeln!(err, "{line}");
    }
    Ok(RunEnd {
        code: exit_code,
        switch_to: state.switch_to.take(),
    })
}

/// The exit status when queued edits were neither sent nor kept (named
/// on stderr).
pub const EXIT_EDITS_LOST: i32 = 1;

/// The exit status of a hang-up (128 + SIGHUP), unless a signal already
/// set one.
fn hangup_code(current: i32) -> i32 {
    if current == 0 {
        128 + libc::SIGHUP
    } else {
        current
    }
}

struct EffectCtx<'a> {
    worker: &'a mut worker::Worker,
    mouse: bool,
    writes: &'a mut WritesInFlight,
    /// The terminal went away during an effect (a write, a resume).
    hangup: bool,
    /// `copy_command` from the config: copying goes through it.
    copy_command: Option<String>,
    /// The inbox, once it runs.
    inbox: Option<&'a crate::inbox::InboxLink>,
}

/// Start the inbox of the user the service named, in their store.
fn start_inbox(
    state: &State,
    client: &Client,
    service_dir: &std::path::Path,
    settings: &Settings,
    tx: &mpsc::UnboundedSender<Msg>,
) -> Option<crate::inbox::InboxLink> {
    if !settings.cache {
        return None;
    }
    // Only the user whose store is open (never another's).
    let user = state.local.user.as_ref()?;
    let me = match &state.me {
        Some(me) if me.user_id == *user => crate::inbox::Me::of(me),
        Some(_) => return None,
        None => crate::inbox::Me {
            id: user.clone(),
            ..Default::default()
        },
    };
    let path = crate::store::db_path(service_dir, user);
    let every =
        (settings.inbox_refresh_secs > 0).then(|| Duration::from_secs(settings.inbox_refresh_secs));
    let tx = tx.clone();
    Some(crate::inbox::InboxLink::start(
        client.clone(),
        path,
        me,
        every,
        move |u| tx.send(Msg::Inbox(Box::new(u))).is_ok(),
    ))
}

/// A write of ours was answered: the inbox takes the task as it now is
/// (nothing of it is news), or forgets the write that failed.
fn own_write_answered(link: &crate::inbox::InboxLink, r: &state::ApiResult) {
    use crate::inbox::InboxCmd;
    let Some(id) = r.req.written_task() else {
        return;
    };
    match &r.result {
        Ok(state::Reply::Task(t)) => link.send(InboxCmd::Own(t.clone())),
        Ok(_) => link.send(InboxCmd::OwnFailed(id.to_string())),
        Err(_) => link.send(InboxCmd::OwnFailed(id.to_string())),
    }
}

fn run_effect(
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
            let path = crate::config::state_dir().join("taskdeck.log");
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
            let done = custom::run::run_interactive(*job);
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
                let done = custom::run::run_job(*job).await;
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

/// Every signal whose default action ends the process and that can be
/// caught and is not a fault of the program itself (SIGABRT has a handler
/// of its own; SIGSEGV and the like cannot be survived). Each one leaves the
/// terminal restored and drafts saved, and exits with 128 + the signal.
const TERMINATING: &[i32] = &[
    libc::SIGTERM,
    libc::SIGHUP,
    libc::SIGINT,
    libc::SIGQUIT,
    libc::SIGUSR1,
    libc::SIGUSR2,
    libc::SIGALRM,
    libc::SIGVTALRM,
    libc::SIGPROF,
    libc::SIGXCPU,
    libc::SIGXFSZ,
    libc::SIGIO,
    #[cfg(target_os = "linux")]
    libc::SIGPWR,
    #[cfg(target_os = "linux")]
    libc::SIGSTKFLT,
];

fn spawn_signals(tx: mpsc::UnboundedSender<Msg>) {
    let flag = editor::HUNG_UP.get_or_init(Default::default).clone();
    if let Err(e) = signal_hook::flag::register(signal_hook::consts::SIGHUP, flag) {
        tracing::warn!(error = %e, "cannot watch for SIGHUP");
    }
    use futures::StreamExt;
    match signal_hook_tokio::Signals::new(TERMINATING) {
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
