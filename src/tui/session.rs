//! One run of the TUI, as the loop (`super::run`) holds it: the state and
//! everything around it that reacts — the store, the inbox, the other
//! profiles' inboxes, the worker, the writes in flight, the notifier, the
//! terminal. Its methods are the loop's steps: set up, draw a frame, take
//! one [`Msg`] (a table: one line a message, each handing over to the
//! method named for what it does), carry out the effects, finish.

use super::effects::{own_write_answered, run_effect, EffectCtx};
use super::msg::Opened;
use super::store_link::StoreLink;
use super::Msg;
use super::{background, clamped, colors, notify, profiles, terminal, worker};
use crate::api::Client;
use crate::app::state::{drafts, ApiRequest, ApiResult, Effect, Level, State};
use crate::app::{new_state, quit_lines, WritesInFlight};
use crate::config::Settings;
use crate::inbox::{InboxCmd, InboxLink, InboxUpdate, Me};
use crossterm::event::{Event, KeyEvent, KeyEventKind, MouseEvent};
use std::path::PathBuf;
use std::time::{Duration, Instant};
use tokio::sync::mpsc::{UnboundedReceiver, UnboundedSender};

/// The shortest time between two frames.
const FRAME: Duration = Duration::from_millis(16);

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

/// A run of the TUI. The fields drop in the order the loop's locals did
/// (the writes first, the state and the settings last).
pub(super) struct Session {
    /// What this batch of messages asked for, carried out after it.
    effects: Vec<Effect>,
    writes: WritesInFlight,
    notifier: notify::Notifier,
    worker: worker::Worker,
    others: profiles::Walkers,
    /// The inbox of the store's user, once there is one.
    inbox: Option<InboxLink>,
    inbox_client: Client,
    service_dir: PathBuf,
    store: StoreLink,
    tx: UnboundedSender<Msg>,
    theme: crate::ui::Theme,
    state: State,
    settings: Settings,
    screen: terminal::Screen,
    exit_code: i32,
    /// Something changed since the last frame.
    dirty: bool,
    last_draw: Instant,
    /// The signals listened to for this run (closed when it ends).
    _signals: super::signals::Listening,
}

impl Session {
    /// Set up: the state, the store (open before the first frame: the last
    /// view's rows and the last current task are on screen at once), the
    /// inbox, the other profiles' walkers, the worker, the terminal, the
    /// input thread and the signals; then the start's effects.
    pub(super) fn start(
        client: Client,
        settings: Settings,
        launch: LaunchInfo,
        tx: UnboundedSender<Msg>,
        input_tx: tokio::sync::mpsc::Sender<Msg>,
    ) -> color_eyre::Result<Session> {
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
        let inbox = profiles::start_inbox(&state, &inbox_client, &service_dir, &settings, &tx);
        state.inbox.running = inbox.is_some();
        state.inbox.periodic = settings.inbox_refresh_secs > 0;
        if !settings.cache {
            state.inbox.off = Some(
                "the inbox is kept in the local store, and `cache = false` in the config turns it off"
                    .into(),
            );
        }
        let every = (settings.inbox_refresh_secs > 0)
            .then(|| Duration::from_secs(settings.inbox_refresh_secs));
        let mut launch = launch;
        if settings.cache && !launch.others.is_empty() {
            state.inbox.here = launch
                .profile
                .clone()
                .unwrap_or_else(|| settings.default_profile.clone());
        }
        let others = if settings.cache {
            profiles::Walkers::start(std::mem::take(&mut launch.others), every, &tx)
        } else {
            profiles::Walkers::default()
        };
        let worker = worker::Worker::new(client, tx.clone());

        let env = |k: &str| std::env::var(k).ok();
        let depth = colors::depth(settings.colors.as_deref(), &env);
        let notifier = notify::Notifier::new(settings.notify.clone(), &env);
        terminal::keep_title(settings.notify.title);
        let term = terminal::setup(settings.mouse, depth)?;
        terminal::install_panic_hook();
        // `theme = "auto"`: the terminal is asked its background now, its
        // answer read by the input thread; the first frame waits for it
        // [`background::WAIT`] at most.
        // Once a process: a `:profile` switch keeps what the terminal said.
        static CHOSEN: std::sync::OnceLock<background::Choice> = std::sync::OnceLock::new();
        let asking = settings.theme == "auto" && !no_color && CHOSEN.get().is_none();
        if asking {
            let in_tmux = env("TMUX").is_some_and(|v| !v.is_empty());
            if let Err(e) = terminal::ask_background(in_tmux) {
                tracing::debug!(error = %e, "cannot ask the terminal its background");
            }
        }
        let asked = Instant::now();
        let (bg_tx, bg_rx) = std::sync::mpsc::channel();
        // The input's queue is bounded (`super::INPUT_QUEUE`): keys, pastes,
        // clicks, the wheel, resizes and the terminal's end are never
        // dropped (the thread waits for room; the terminal keeps what is
        // typed meanwhile); mouse motion, which changes nothing on screen,
        // is dropped when there is no room.
        let input = terminal::InputThread::start(move |ev| match ev {
            terminal::InputEvent::Event(e) if is_motion(&e) => !matches!(
                input_tx.try_send(Msg::Term(e)),
                Err(tokio::sync::mpsc::error::TrySendError::Closed(_))
            ),
            terminal::InputEvent::Event(e) => input_tx.blocking_send(Msg::Term(e)).is_ok(),
            // An answer after the wait (or a second one) is dropped.
            terminal::InputEvent::Background(rgb) => {
                let _ = bg_tx.send(rgb);
                true
            }
            terminal::InputEvent::Closed(why) => {
                input_tx.blocking_send(Msg::InputClosed(why)).is_ok()
            }
        });
        let theme_name = if settings.theme == "auto" {
            let answer = if asking {
                bg_rx
                    .recv_timeout(background::WAIT.saturating_sub(asked.elapsed()))
                    .ok()
            } else {
                None
            };
            let choice = CHOSEN
                .get_or_init(|| background::choose(asking, answer, env("COLORFGBG").as_deref()));
            tracing::info!(theme = choice.theme(), why = %choice.why, "theme auto");
            choice.theme().to_string()
        } else {
            settings.theme.clone()
        };
        let (mut theme, theme_warnings) = crate::ui::Theme::load(&theme_name, no_color);
        theme.accessible = settings.accessible;
        for w in theme_warnings {
            state.say(Level::Warn, w);
        }
        // Text of an earlier run that no draft could keep (issue: a
        // hang-up with the drafts' folder unwritable): where it is, once
        // a start, never the text.
        if let Some(line) = crate::app::edit::sends::spilled_said(&crate::platform::spill::found())
        {
            state.say(Level::Warn, line);
        }
        let signals = super::signals::spawn_signals(tx.clone());
        let screen = terminal::Screen {
            term,
            input,
            mouse: settings.mouse,
            hangup: false,
        };

        let mut session = Session {
            effects: state.start(),
            writes: WritesInFlight::default(),
            notifier,
            worker,
            others,
            inbox,
            inbox_client,
            service_dir,
            store,
            tx,
            theme,
            state,
            settings,
            screen,
            exit_code: 0,
            dirty: true,
            last_draw: Instant::now(),
            _signals: signals,
        };
        if let Some(row) = launch.open.take() {
            session.effects.extend(session.state.open_switched(row));
        }
        session.run_effects();
        session.last_draw = Instant::now() - FRAME;
        Ok(session)
    }

    /// Something changed and the last frame is a frame's time ago.
    pub(super) fn frame_due(&self) -> bool {
        self.dirty && FRAME.saturating_sub(self.last_draw.elapsed()).is_zero()
    }

    /// Draw a frame. `false`: the terminal is gone (EIO/EOF), a hang-up;
    /// the drafts are saved and the run ends.
    pub(super) fn draw(&mut self) -> bool {
        let mut metrics = crate::ui::Metrics::default();
        let clamped_from = self.screen.term.backend().clamped_from();
        let (state, theme) = (&self.state, &self.theme);
        if let Err(e) = self.screen.term.draw(|f| {
            metrics = crate::ui::render(f, state, theme);
            if let Some(real) = clamped_from {
                clamped::draw_notice(f, real);
            }
        }) {
            tracing::warn!(error = %e, "cannot draw; saving drafts and leaving");
            if terminal::is_hangup(&e) {
                terminal::mark_gone();
            }
            self.exit_code = hangup_code(self.exit_code);
            return false;
        }
        // Outside accessible mode the cursor is hidden but still placed on
        // the focus (braille displays and input methods follow it); the
        // backend writes nothing when it is already there.
        if let Some(at) = metrics
            .cursor
            .filter(|_| !metrics.caret && !self.theme.accessible)
        {
            let _ = self.screen.term.set_cursor_position(at);
            let _ = ratatui::backend::Backend::flush(self.screen.term.backend_mut());
        }
        metrics.apply(&mut self.state);
        self.last_draw = Instant::now();
        self.dirty = false;
        // Debug builds only: lets the pty tests prove the panic path
        // restores the terminal and leaks no secret.
        #[cfg(debug_assertions)]
        if self.state.me.is_some() && std::env::var_os("TASKDECK_DEBUG_PANIC").is_some() {
            panic!("deliberate test panic (TASKDECK_DEBUG_PANIC)");
        }
        true
    }

    /// How long until the frame that is due (an hour when none is).
    pub(super) fn redraw_in(&self) -> Duration {
        if self.dirty {
            FRAME.saturating_sub(self.last_draw.elapsed())
        } else {
            Duration::from_secs(3600)
        }
    }

    /// How long until the cursor that stopped is read, or the `:link task`
    /// picker asks the service for what is typed: once the cursor or the
    /// typing rests, not at the next tick (an hour when neither waits).
    pub(super) fn settle_in(&self) -> Duration {
        [self.state.settle.due(), self.state.link_ask_due()]
            .into_iter()
            .flatten()
            .min()
            .map_or(Duration::from_secs(3600), |t| {
                t.saturating_duration_since(Instant::now())
            })
    }

    /// Take one message: a table, one line a message.
    pub(super) fn apply(&mut self, msg: Msg) {
        match msg {
            Msg::Term(Event::Key(k)) if k.kind != KeyEventKind::Release => self.keyed(k),
            Msg::Term(Event::Paste(p)) => self.pasted(&p),
            Msg::Term(Event::Mouse(m)) => self.moused(m),
            Msg::Term(Event::Resize(..)) => self.dirty = true,
            Msg::Term(_) => {}
            Msg::Api(r) => self.api_answered(*r),
            Msg::StoreRetried(user, opened) => self.store_retried(user, *opened),
            Msg::Inbox(u) => self.inbox_updated(*u),
            Msg::NotifyDone(failure) => self.notify_done(failure),
            Msg::ProfileInbox(p, u) => self.profile_inbox_updated(p, *u),
            Msg::Store(a) => self.store_answered(a),
            Msg::Signal(sig) => self.signalled(sig),
            Msg::CommandDone(d) => self.command_done(*d),
            Msg::InputClosed(why) => self.input_closed(why),
            Msg::Copied(c) => self.copied(c),
        }
    }

    fn keyed(&mut self, k: KeyEvent) {
        self.effects.extend(self.state.on_key(k));
        self.dirty = true;
    }

    fn pasted(&mut self, p: &str) {
        self.state.on_paste(p);
        self.dirty = true;
    }

    /// Motion, or a click on nothing: nothing redrawn.
    fn moused(&mut self, m: MouseEvent) {
        let (fx, changed) = self.state.on_mouse(m, Instant::now());
        self.effects.extend(fx);
        self.dirty |= changed;
    }

    /// The service answered: the request is no longer in flight, the
    /// inbox hears of our own write, the state takes the answer; the
    /// answer to "who am I" binds the store and the inbox to that user.
    fn api_answered(&mut self, r: ApiResult) {
        self.writes.answered(r.ticket);
        if let Some(link) = &self.inbox {
            // A write of ours: its changes are never news.
            own_write_answered(link, &r);
        }
        let me = matches!(r.req, ApiRequest::Me);
        self.effects.extend(self.state.on_api(r));
        if me {
            self.me_answered();
        }
        self.dirty = true;
    }

    /// The service named the user: the store of that user, with its
    /// outbox (sent with this key, which is theirs), and their inbox.
    fn me_answered(&mut self) {
        self.store.bind(&mut self.state);
        self.store.note_waiting(&mut self.state);
        self.effects.extend(self.state.outbox_pump());
        let user = self.state.local.user.clone();
        match (&self.inbox, &self.state.me) {
            // The same user: now with their name, to read mentions by.
            (Some(link), Some(me)) if Some(link.user()) == user.as_deref() => {
                link.send(InboxCmd::SetMe(Me::of(me)))
            }
            // None yet, or another user's: theirs.
            _ => self.inbox_restarted(),
        }
    }

    /// The inbox started afresh for the store's user; what the inbox view
    /// knew of this one is forgotten, the other profiles' inboxes stay.
    fn inbox_restarted(&mut self) {
        let old = std::mem::take(&mut self.state.inbox);
        self.state.inbox = crate::app::inbox::InboxView {
            off: old.off,
            periodic: old.periodic,
            others: old.others,
            here: old.here,
            ..Default::default()
        };
        self.start_inbox();
    }

    /// A store that was busy at start opened (or was given up): its inbox
    /// starts, and what it held goes out now.
    fn store_retried(&mut self, user: String, opened: Result<Opened, String>) {
        if self.store.retried(user, opened, &mut self.state) && self.inbox.is_none() {
            self.start_inbox();
        }
        self.effects.extend(self.state.outbox_pump());
        self.dirty = true;
    }

    fn inbox_updated(&mut self, u: InboxUpdate) {
        self.effects.extend(self.state.on_inbox(u));
        self.dirty = true;
    }

    fn notify_done(&mut self, failure: Option<String>) {
        self.notifier.command_done(failure, &mut self.state);
        self.dirty = true;
    }

    fn profile_inbox_updated(&mut self, profile: String, u: InboxUpdate) {
        self.effects.extend(self.state.on_profile_inbox(profile, u));
        self.dirty = true;
    }

    fn store_answered(&mut self, a: crate::store::worker::StoreAnswer) {
        self.effects.extend(self.state.on_store(a));
        self.dirty = true;
    }

    fn signalled(&mut self, sig: i32) {
        if sig == libc::SIGCONT {
            // Not a request to end: continued after a stop.
            self.screen.continued();
            if self.screen.hangup {
                self.state.quit = true;
                self.exit_code = hangup_code(self.exit_code);
            }
            self.dirty = true;
            return;
        }
        tracing::info!(sig, "signal received; saving drafts and leaving");
        self.state.quit = true;
        self.exit_code = 128 + sig;
    }

    fn command_done(&mut self, d: crate::app::custom::run::Done) {
        self.effects.extend(self.state.custom_done(d));
        self.dirty = true;
    }

    /// Copying off the loop came to this: said, or offered to the
    /// terminal now (a terminal gone meanwhile is a hang-up).
    fn copied(&mut self, c: super::msg::Copied) {
        super::clipboard::copied(c, &mut self.state, &mut self.screen);
        if self.screen.hangup {
            self.state.quit = true;
            self.exit_code = hangup_code(self.exit_code);
        }
        self.dirty = true;
    }

    fn input_closed(&mut self, why: String) {
        tracing::warn!(why = %why, "terminal input closed; saving drafts and leaving");
        self.state.quit = true;
        self.exit_code = hangup_code(self.exit_code);
    }

    /// The clock: what the state does as time passes.
    pub(super) fn tick(&mut self) {
        let (fx, changed) = self.state.on_tick(Instant::now());
        self.effects.extend(fx);
        self.dirty |= changed;
    }

    /// The rows around the cursor, asked for after the user's requests of
    /// this batch: those go out first.
    pub(super) fn prefetch(&mut self) {
        self.effects.extend(self.state.plan_prefetch());
    }

    /// The draft being written, kept now and then, in the user's folder
    /// once the service has named the user.
    pub(super) fn autosave(&mut self) {
        // A save that failed is said at once, not at the next key.
        self.dirty |= self.state.autosave_draft(Instant::now(), false);
    }

    /// Carry out this batch's effects (the worker told whether the
    /// service is out of reach), then what they gave the store.
    pub(super) fn carry_out(&mut self) {
        self.worker.offline = self.state.offline.is_some();
        self.run_effects();
    }

    /// Between frames: the title with the inbox's count.
    pub(super) fn title(&mut self) {
        if !self.notifier.title(&self.state) {
            self.screen.hangup = true;
        }
    }

    /// Whether the run ends here: the user quit, a signal came, or the
    /// terminal went away during this round (a hang-up).
    pub(super) fn quitting(&mut self) -> bool {
        if self.screen.hangup {
            self.exit_code = hangup_code(self.exit_code);
            self.state.quit = true;
        }
        self.state.quit
    }

    /// The effects asked for so far, each handed over by [`run_effect`];
    /// the screen's hang-up is this round's.
    fn run_effects(&mut self) {
        self.screen.hangup = false;
        let mut ctx = EffectCtx {
            worker: &mut self.worker,
            writes: &mut self.writes,
            copy_command: self.settings.copy_command.as_deref(),
            inbox: self.inbox.as_ref(),
            others: &self.others,
            notifier: &mut self.notifier,
            screen: &mut self.screen,
        };
        for fx in std::mem::take(&mut self.effects) {
            run_effect(fx, &mut self.state, &mut ctx);
        }
        self.store.drain(&mut self.state);
    }

    /// The inbox of the store's user started (or none: no store, no
    /// cache), and the view told whether one runs.
    fn start_inbox(&mut self) {
        self.inbox = profiles::start_inbox(
            &self.state,
            &self.inbox_client,
            &self.service_dir,
            &self.settings,
            &self.tx,
        );
        self.state.inbox.running = self.inbox.is_some();
    }

    /// Finish: the drafts saved, the store's last answers taken (`rx`:
    /// the loop's channel), the terminal given back, what was left undone
    /// said on stderr; how the run ended.
    pub(super) fn finish(mut self, rx: &mut UnboundedReceiver<Msg>) -> RunEnd {
        // A session that ends sends nothing more: the writes still waiting
        // for an earlier one of their task never go out (after `:profile`
        // they would, with this profile's client, unanswered); they are
        // kept below as never sent.
        let stopped = self.worker.stop_unsent();
        self.writes.never_sent(&stopped);
        let mut at_quit = self.state.keep_composer_at_quit();
        // Not kept as a draft: written to the last private place left
        // (stderr may be a terminal that is gone).
        if let Some(lost) = at_quit.lost.as_mut() {
            lost.spill();
        }
        // Drafts saved: a signal from now on ends the process at once.
        super::editor::leaving();
        // What the commands started is ended with taskdeck.
        crate::platform::child::end_all_groups();
        // Edits sent and not answered: into the outbox, outcome unknown;
        // those never sent: into the outbox as queued.
        self.state.keep_writes_in_flight(&self.writes);
        self.store.drain(&mut self.state);
        self.store.finish();
        // The store's last answers: whether the edits queued last were kept.
        while let Ok(m) = rx.try_recv() {
            if let Msg::Store(a) = m {
                self.state.on_store(a);
            }
        }
        // A queued edit neither sent nor kept is lost: never a silent exit 0.
        // Nor is the composer's text that could not be kept, nor a cancel.
        let lost = !self.state.outbox_lost().is_empty()
            || !self.writes.lost(&self.state).is_empty()
            || !self.state.cancels_not_kept().is_empty()
            || at_quit.lost.is_some();
        if self.exit_code == 0 && lost {
            self.exit_code = EXIT_EDITS_LOST;
        }
        let terminal::Screen { term, input, .. } = self.screen;
        drop(input);
        terminal::restore();
        // ratatui's `Drop` shows the cursor again (restore did) and, when the
        // terminal is gone, reports the failure with `eprintln!`, which panics
        // when stderr is gone too: it is not run.
        std::mem::forget(term);
        // Never `eprintln!`: stderr may be the terminal that went away.
        let mut err = std::io::stderr();
        let not_kept = at_quit.lost.iter().flat_map(|n| n.lines());
        for line in quit_lines(&self.state, &self.writes, at_quit.kept.as_deref())
            .into_iter()
            .chain(not_kept)
        {
            use std::io::Write;
            // Cleaned as every line on stderr is (issue 42, point 4).
            let _ = writeln!(err, "{}", crate::text::sanitize(&line, true));
        }
        RunEnd {
            code: self.exit_code,
            switch_to: self.state.switch_to.take(),
            open: self.state.inbox.open_next.take(),
        }
    }
}

/// Mouse motion (a drag, a move): nothing the screen shows follows it.
fn is_motion(e: &Event) -> bool {
    use crossterm::event::MouseEventKind;
    matches!(
        e,
        Event::Mouse(MouseEvent {
            kind: MouseEventKind::Drag(_) | MouseEventKind::Moved,
            ..
        })
    )
}

/// The exit status of a hang-up (128 + SIGHUP), unless a signal already
/// set one.
fn hangup_code(current: i32) -> i32 {
    if current == 0 {
        128 + libc::SIGHUP
    } else {
        current
    }
}

/// The exit status when queued edits were neither sent nor kept, or the
/// composer's text could not be kept (named on stderr).
pub const EXIT_EDITS_LOST: i32 = 1;

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
