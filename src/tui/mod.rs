//! The TUI: one task owns the state. Terminal events, ticks and API results
//! arrive on one channel; the loop drains what is queued, applies it, and
//! renders once, only when something changed. The side effects live here,
//! above the state (`crate::app`) and the drawing (`crate::ui`): the
//! terminal, the worker, the store link, the clipboard, the inbox's link.

pub mod clamped;
pub mod clipboard;
pub mod colors;
pub mod editor;
mod effects;
mod msg;
pub mod notify;
pub mod profiles;
pub mod runner;
mod signals;
mod store_link;
pub mod terminal;
pub mod worker;

pub use msg::Msg;

use crate::api::Client;
use crate::app::new_state;
use crate::app::quit_lines;
use crate::app::state;
use crate::app::state::drafts;
use crate::app::WritesInFlight;
use crate::config::Settings;
use crossterm::event::{Event, KeyEventKind};
use effects::{run_effect, EffectCtx};
use signals::spawn_signals;
use state::{Level, State};
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
    /// The other profiles whose inboxes are shown beside this one's
    /// (`inbox_profiles = "all"`, issue 36); empty: this one's only.
    pub others: Vec<profiles::OtherProfile>,
    /// Enter on another profile's inbox row switched to this profile:
    /// that row, opened once started.
    pub open: Option<crate::inbox::InboxRow>,
}

/// How a run ended.
#[derive(Clone, Debug, PartialEq)]
pub struct RunEnd {
    /// The process exit code.
    pub code: i32,
    /// `:profile NAME`: start again with that profile.
    pub switch_to: Option<String>,
    /// … and open this inbox row there (Enter on another profile's row).
    pub open: Option<crate::inbox::InboxRow>,
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
    // The first start says where help is and how to leave, once.
    state.welcome = first_start(&crate::config::state_dir());
    if launch.demo {
        // What the demo does with what you do (issue 34 §4).
        state.say(Level::Info, DEMO_NOTE);
    }
    let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
    let (mut theme, theme_warnings) = crate::ui::Theme::load(&settings.theme, no_color);
    theme.accessible = settings.accessible;
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
    let every =
        (settings.inbox_refresh_secs > 0).then(|| Duration::from_secs(settings.inbox_refresh_secs));
    let mut launch = launch;
    if settings.cache && !launch.others.is_empty() {
        state.inbox.here = launch.profile.clone().unwrap_or_else(|| "default".into());
    }
    let others = if settings.cache {
        profiles::Walkers::start(std::mem::take(&mut launch.others), every, &tx)
    } else {
        profiles::Walkers::default()
    };
    let mut worker = worker::Worker::new(client, tx.clone());

    let env = |k: &str| std::env::var(k).ok();
    let depth = colors::depth(settings.colors.as_deref(), &env);
    let mut notifier = notify::Notifier::new(settings.notify.clone(), &env);
    terminal::keep_title(settings.notify.title);
    let term = terminal::setup(settings.mouse, depth)?;
    terminal::install_panic_hook();
    let input_tx = tx.clone();
    let input = terminal::InputThread::start(move |ev| {
        let msg = match ev {
            terminal::InputEvent::Event(e) => Msg::Term(e),
            terminal::InputEvent::Closed(why) => Msg::InputClosed(why),
        };
        input_tx.send(msg).is_ok()
    });
    let mut screen = terminal::Screen {
        term,
        input,
        mouse: settings.mouse,
        hangup: false,
    };
    spawn_signals(tx.clone());

    let mut writes = WritesInFlight::default();
    let start_fx = state.start();
    let mut ctx = EffectCtx {
        worker: &mut worker,
        writes: &mut writes,
        copy_command: settings.copy_command.as_deref(),
        inbox: inbox.as_ref(),
        others: &others,
        notifier: &mut notifier,
        screen: &mut screen,
    };
    let mut start_fx = start_fx;
    if let Some(row) = launch.open.take() {
        start_fx.extend(state.open_switched(row));
    }
    for fx in start_fx {
        run_effect(fx, &mut state, &mut ctx);
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
                let clamped_from = screen.term.backend().clamped_from();
                if let Err(e) = screen.term.draw(|f| {
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
                // Outside accessible mode the cursor is hidden but still
                // placed on the focus (braille displays and input methods
                // follow it); the backend writes nothing when it is
                // already there.
                if let Some(at) = metrics
                    .cursor
                    .filter(|_| !metrics.caret && !theme.accessible)
                {
                    let _ = screen.term.set_cursor_position(at);
                    let _ = ratatui::backend::Backend::flush(screen.term.backend_mut());
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
                    // Motion, or a click on nothing: nothing redrawn.
                    let (fx, changed) = state.on_mouse(m, Instant::now());
                    effects.extend(fx);
                    dirty |= changed;
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
                        store.note_waiting(&mut state);
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
                                // The other profiles' inboxes stay.
                                let others = std::mem::take(&mut state.inbox.others);
                                let here = std::mem::take(&mut state.inbox.here);
                                state.inbox = Default::default();
                                state.inbox.off = off;
                                state.inbox.periodic = periodic;
                                state.inbox.others = others;
                                state.inbox.here = here;
                                state.inbox.running = inbox.is_some();
                            }
                        }
                    }
                    dirty = true;
                }
                Msg::StoreRetried(user, opened) => {
                    if store.retried(user, *opened, &mut state) && inbox.is_none() {
                        inbox = start_inbox(&state, &inbox_client, &service_dir, &settings, &tx);
                        state.inbox.running = inbox.is_some();
                    }
                    // What the store held goes out now.
                    effects.extend(state.outbox_pump());
                    dirty = true;
                }
                Msg::Inbox(u) => {
                    effects.extend(state.on_inbox(*u));
                    dirty = true;
                }
                Msg::NotifyDone(failure) => {
                    notifier.command_done(failure, &mut state);
                    dirty = true;
                }
                Msg::ProfileInbox(p, u) => {
                    effects.extend(state.on_profile_inbox(p, *u));
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
        screen.hangup = false;
        let mut ctx = EffectCtx {
            worker: &mut worker,
            writes: &mut writes,
            copy_command: settings.copy_command.as_deref(),
            inbox: inbox.as_ref(),
            others: &others,
            notifier: &mut notifier,
            screen: &mut screen,
        };
        ctx.worker.offline = state.offline.is_some();
        for fx in effects {
            run_effect(fx, &mut state, &mut ctx);
        }
        store.drain(&mut state);
        // Between frames: the title with the inbox's count.
        if !ctx.notifier.title(&state) {
            ctx.screen.hangup = true;
        }
        if ctx.screen.hangup {
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
    let terminal::Screen { term, input, .. } = screen;
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
        open: state.inbox.open_next.take(),
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
        // Own sharing and deletions are no news either (the user's own
        // access removed, a draft rejected: the task leaves by their doing).
        Ok(state::Reply::Sharing(s)) => {
            let access = s
                .users
                .iter()
                .find(|m| {
                    m.id == link.user() && m.role.as_ref().is_none_or(|r| r.raw() != "assignee")
                })
                .map(|m| {
                    m.access_level
                        .as_ref()
                        .map(|a| a.to_string())
                        .unwrap_or_default()
                });
            link.send(InboxCmd::OwnShared(id.to_string(), access))
        }
        Ok(state::Reply::Deleted) => link.send(InboxCmd::OwnDeleted(id.to_string())),
        Ok(_) => link.send(InboxCmd::OwnFailed(id.to_string())),
        Err(_) => link.send(InboxCmd::OwnFailed(id.to_string())),
    }
}

/// The demo's first words: nothing of the user's is written.
pub const DEMO_NOTE: &str =
    "demo: nothing of yours is touched; what you change here is discarded at exit";

/// The mark in the state folder that the first start's hint was shown.
const WELCOMED: &str = "welcomed";

/// Whether this is the first start (no mark in `state_dir` yet); the mark
/// is written now, so the hint shows once. A folder that cannot be written
/// shows it again next time, which is harmless.
fn first_start(state_dir: &std::path::Path) -> bool {
    let mark = state_dir.join(WELCOMED);
    if mark.exists() {
        return false;
    }
    if let Err(e) = crate::config::write_private_file(&mark, b"the first start's hint was shown\n")
    {
        tracing::warn!(error = %e, "cannot keep the first start's mark");
    }
    true
}

#[cfg(test)]
mod first_start_tests {
    #[test]
    fn the_hint_shows_once_per_state_folder() {
        let dir = tempfile::tempdir().unwrap();
        let state = dir.path().join("taskdeck");
        assert!(super::first_start(&state));
        assert!(!super::first_start(&state));
        assert!(state.join(super::WELCOMED).is_file());
    }
}
