//! The world one run happens in, on one thread: the client's `State` and
//! its reducer, the store (the real `Db` on a file of its own, served by
//! the store thread's own code, `store::worker::Server`, synchronously),
//! the model service, the model clock, and a terminal (`TestBackend`)
//! drawn with `ui::draw` after every step. It stands in for the loop
//! (`tui::session`) and the worker (`tui::worker`): what they do with an
//! effect or an answer is done here the same way, without threads or a
//! runtime, so that a seed is a run.

use super::check::{
    self, Before, Broke, Composing, CrashExpect, Ledger, StepFacts, UndoWatch, Violation,
};
use super::faults::{Break, Faults};
use super::rng::{Digest, Rng};
use super::service::Service;
use super::step::Step;

use crate::api::ApiError;
use crate::app::state::{ApiRequest, ApiResult, Effect, Overlay, State};
use crate::app::WritesInFlight;
use crate::config::Settings;
use crate::store::worker::{Server, StoreAnswer, StoreCmd};
use crate::store::Db;
use ratatui::backend::TestBackend;
use ratatui::Terminal;
use std::cell::RefCell;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// The most effects one step may set off before it counts as a loop.
const SETTLE_MAX: usize = 10_000;

pub struct World {
    pub dir: PathBuf,
    pub state: State,
    pub(super) db: Option<(Db, Server)>,
    pub svc: Service,
    /// Requests the service has not answered yet, by ticket.
    pub pending: Vec<(u64, ApiRequest)>,
    pub term: Terminal<TestBackend>,
    /// The model clock: `base` plus what the steps let pass.
    base: Instant,
    pub clock: Duration,
    /// The service cannot be reached.
    pub outage: bool,
    /// The user the key was last seen to be (`store::identity`): a start
    /// opens that user's store before the service answers.
    seen_user: Option<String>,
    /// The stores this process closed at a store switch (`World::bind`):
    /// a claim their release could not give back (the store locked by
    /// another program, failed) is held until the process ends, when
    /// `free_claims_of_the_dead` frees it by the dead pid. The simulator
    /// is one process whose pid never dies: the next start gives them
    /// back (`World::boot`).
    closed: Vec<Db>,
    settings: Settings,
    theme: crate::ui::Theme,
    pub faults: Faults,
    pub broken: Option<Break>,
    pub ledger: Ledger,
    /// Writes sent and not answered, as the loop tracks them
    /// (`Session::writes`): kept in the outbox when the user quits.
    writes: WritesInFlight,
    pub digest: Digest,
    /// The queued edits (their `seq`) the state held after the last
    /// step: the replay's trace names those that came and went.
    queued_seen: std::collections::BTreeMap<i64, String>,
    pub violations: Vec<Violation>,
    pub step_no: usize,
    /// What this step did, for `--replay`'s trace.
    pub notes: Vec<String>,
    /// The user acted in this step (a key, a command, a paste, a click).
    pub user_step: bool,
    /// Each frame goes into the notes (`--frames`).
    pub frames: bool,
    /// Undos under way, checked until they end.
    undos: Vec<UndoWatch>,
    /// What the run did, counted (writes applied, crashes, edits queued…).
    pub stats: std::collections::BTreeMap<&'static str, u64>,
    /// The model disk's fault (`disk.rs`).
    pub(super) disk: super::disk::Disk,
    /// The inbox of the store's user, beside the client (`inbox.rs`).
    pub(super) inbox: Option<super::inbox::Inbox>,
    /// The draws of the inbox walk's reads (their faults).
    pub(super) walk_rng: Rng,
    /// What others did, awaited in the inbox; each user's whole walks.
    pub(super) expect: super::inbox::Expect,
    /// The notifications decided.
    told: super::inbox::Told,
    /// The service's acts already looked at.
    pub(super) acts_seen: usize,
}

/// The run's folder (its store and drafts). Its name is part of what is
/// drawn (a draft's path), so it depends on the seed alone: the first
/// free of `taskdeck-sim/<seed>-0`, `-1`… — runs of one seed one after
/// the other draw the same frames. A folder whose process is gone is
/// taken back.
fn folder(seed: u64) -> PathBuf {
    // A disk in memory where there is one: the model disk's commits
    // are what matters, not the device's speed.
    let shm = std::path::Path::new("/dev/shm");
    let root = if shm.is_dir() {
        shm.to_path_buf()
    } else {
        std::env::temp_dir()
    }
    .join("taskdeck-sim");
    let _ = std::fs::create_dir_all(&root);
    for slot in 0.. {
        let dir = root.join(format!("{seed:016x}-{slot}"));
        let owner = std::fs::read_to_string(dir.join("pid"))
            .ok()
            .and_then(|p| p.trim().parse::<i32>().ok());
        if let Some(pid) = owner {
            let gone = pid > 0 && crate::platform::ffi::process_gone(pid);
            if gone {
                let _ = std::fs::remove_dir_all(&dir);
            }
        }
        if std::fs::create_dir(&dir).is_ok() {
            let _ = std::fs::write(dir.join("pid"), std::process::id().to_string());
            return dir;
        }
    }
    unreachable!("a free folder")
}

impl World {
    pub fn new(seed: u64, faults: Faults, broken: Option<Break>) -> World {
        let dir = folder(seed);
        std::fs::create_dir_all(dir.join("drafts")).expect("the simulator's folder");
        let settings = Settings {
            refresh_secs: 30,
            ..Settings::default()
        };
        let mut w = World {
            state: crate::app::new_state("sim.test".into(), &settings, false),
            db: None,
            svc: Service::new(faults.hostile, 14),
            pending: Vec::new(),
            term: Terminal::new(TestBackend::new(120, 40)).expect("a test terminal"),
            base: Instant::now(),
            clock: Duration::ZERO,
            outage: false,
            seen_user: None,
            closed: Vec::new(),
            theme: crate::ui::Theme::dark(),
            settings,
            faults,
            broken,
            ledger: Ledger::default(),
            writes: WritesInFlight::default(),
            digest: Digest::default(),
            queued_seen: Default::default(),
            violations: Vec::new(),
            step_no: 0,
            notes: Vec::new(),
            user_step: false,
            frames: false,
            undos: Vec::new(),
            stats: Default::default(),
            disk: Default::default(),
            inbox: None,
            walk_rng: Rng::new(seed ^ 0x001b_0c5e_ed0f_ea75),
            expect: Default::default(),
            told: Default::default(),
            acts_seen: 0,
            dir,
        };
        w.set_clock();
        w.boot();
        w
    }

    pub fn now(&self) -> Instant {
        self.base + self.clock
    }

    /// The model clock is the core's clock (`crate::clock`) on this
    /// thread: the calendar starts at the model service's epoch.
    fn set_clock(&self) {
        let secs = super::service::EPOCH + self.clock.as_secs() as i64;
        let ts = jiff::Timestamp::new(secs, self.clock.subsec_nanos() as i32)
            .unwrap_or(jiff::Timestamp::UNIX_EPOCH);
        crate::clock::set_model(Some((self.now(), ts)));
    }

    pub fn count(&mut self, what: &'static str) {
        *self.stats.entry(what).or_default() += 1;
    }

    pub(super) fn broke(&mut self, found: impl IntoIterator<Item = Broke>) {
        for (kind, detail) in found {
            self.violation(kind, detail);
        }
    }

    pub fn violation(&mut self, kind: &'static str, detail: impl Into<String>) {
        let detail = detail.into();
        self.notes.push(format!("VIOLATION {kind}: {detail}"));
        self.violations.push(Violation {
            step: self.step_no,
            kind,
            detail,
        });
    }

    /// A process starts: a new state, the store of the user the key was
    /// last seen to be (with its rows), the first requests.
    pub(super) fn boot(&mut self) {
        let mut state = crate::app::new_state("sim.test".into(), &self.settings, false);
        state.drafts = crate::app::state::drafts::Drafts::per_user(self.dir.join("drafts"));
        state.local.on = true;
        self.state = state;
        self.undos.clear();
        self.inbox = None;
        self.db = None;
        self.writes = WritesInFlight::default();
        self.ledger.booted();
        self.disk_at_start();
        // The process before this one ended: the claims it still held in
        // a store it had switched away from are free, as
        // `free_claims_of_the_dead` finds them in the product.
        for db in std::mem::take(&mut self.closed) {
            let _ = db.outbox_release();
        }
        if let Some(user) = self.seen_user.clone() {
            self.open_store(&user, true);
        }
        self.ledger.observe(&self.state);
        let fx = self.state.start();
        self.carry(fx);
    }

    /// `tui::store_link`'s `open` and `adopt`, synchronously.
    fn open_store(&mut self, user: &str, rows: bool) {
        let path = crate::store::db_path(&self.dir.join("store"), user);
        if let Some(parent) = path.parent() {
            let _ = std::fs::create_dir_all(parent);
        }
        match Db::open_for(&path, user) {
            Ok((db, note, boot)) => {
                self.state.local.read_only = db.read_only().map(str::to_string);
                if let Some(n) = note {
                    self.state.say(crate::app::state::Level::Warn, n);
                }
                if let Some(mut boot) = boot {
                    if !rows {
                        boot.rows.clear();
                        boot.current = None;
                    }
                    self.state.apply_boot(boot);
                }
                self.db = Some((db, Server::new(crate::store::DEFAULT_MAX_TASKS, None)));
                self.state.local.on = true;
                self.state.local.busy = false;
                self.state.local.user = Some(user.to_string());
                self.disk_opened();
            }
            Err(e) => self.violation("store", format!("the store did not open: {e}")),
        }
    }

    /// Carry out effects until nothing more comes of them: requests go
    /// to the service's queue (or are refused at once while offline, as
    /// the worker does), the store's commands are served and answered.
    pub fn carry(&mut self, fx: Vec<Effect>) {
        let mut queue: std::collections::VecDeque<Effect> = fx.into();
        let mut n = 0;
        loop {
            while let Some(e) = queue.pop_front() {
                n += 1;
                if n > SETTLE_MAX {
                    self.violation("unbounded", "effects do not settle in one step");
                    return;
                }
                queue.extend(self.effect(e));
            }
            let answers = self.drain_store();
            if answers.is_empty() {
                break;
            }
            for a in answers {
                queue.extend(self.state.on_store(a));
            }
        }
    }

    fn effect(&mut self, e: Effect) -> Vec<Effect> {
        match e {
            Effect::Api { ticket, req } => {
                self.digest.str(&format!("{req:?}"));
                // Older edits of its task wait in the outbox: it joins them.
                if let Some(fx) = self.state.send_or_hold(ticket, &req) {
                    self.notes.push(format!(
                        "request #{ticket}: {} joins the outbox behind older edits of its task",
                        req.describe()
                    ));
                    self.count("writes held behind older queued edits");
                    return fx;
                }
                let queued = self.ledger.sent(ticket, &req, &self.state);
                let from = queued
                    .map(|q| format!(" (queued edit {q})"))
                    .unwrap_or_default();
                // A write names its task (`#n`, the model's number).
                let on = req
                    .written_task()
                    .map(|id| {
                        format!(
                            " on #{}",
                            id.rsplit('-').next().unwrap_or(id).trim_start_matches('0')
                        )
                    })
                    .unwrap_or_default();
                self.notes
                    .push(format!("request #{ticket}: {}{on}{from}", req.describe()));
                self.writes.started(ticket, &req, &self.state);
                let let_go: usize = self.undos.iter_mut().map(|w| w.wrote(&req)).sum();
                for _ in 0..let_go {
                    self.count("undone records let go: the user set the field again");
                }
                if self.state.offline.is_some() && !matches!(*req, ApiRequest::Me) {
                    // The worker answers at once, without going out.
                    let r = ApiResult {
                        ticket,
                        req: *req,
                        result: Err(ApiError::Unreachable {
                            message: "offline — taskdeck keeps trying in the background".into(),
                        }),
                    };
                    return self.answered(r);
                }
                if let Some(id) = req.written_task() {
                    // The inbox is told: the change this brings is ours.
                    self.inbox_cmd(crate::inbox::InboxCmd::OwnPending(id.to_string()));
                    self.count("writes sent");
                }
                self.pending.push((ticket, *req));
                vec![]
            }
            Effect::Cancel { ticket } => {
                self.pending.retain(|(t, _)| *t != ticket);
                vec![]
            }
            Effect::Quit => {
                self.restart();
                vec![]
            }
            Effect::Notify(n) => {
                self.count("notifications");
                let user = self.state.local.user.clone().unwrap_or_default();
                let mut found = self.told.notice(&user, &n);
                found.extend(check::no_controls("a notification", &n.words));
                for i in &n.items {
                    self.notes
                        .push(format!("notified {user}: {} of task {}", i.key, i.task_id));
                }
                self.digest.str(&n.words);
                self.broke(found);
                vec![]
            }
            Effect::ProfileNotify(_, n) => {
                let found = check::no_controls("a notification", &n.words);
                self.broke(found);
                vec![]
            }
            Effect::Inbox(cmd) => {
                self.inbox_cmd(cmd);
                vec![]
            }
            Effect::Copy(text) => {
                self.count("copies asked");
                let (clip, found) = super::term::copy(&mut self.state, &text);
                if let Some(c) = clip {
                    self.count("copies offered");
                    self.digest.str(&c);
                }
                self.broke(found);
                vec![]
            }
            // The terminal lent to another program, the config file,
            // custom commands, the log and the inbox's walker are not
            // modelled (docs/testing.md).
            Effect::Suspend
            | Effect::Editor { .. }
            | Effect::ShowLog
            | Effect::ReadLayout { .. }
            | Effect::SaveView { .. }
            | Effect::RunCommand(_)
            | Effect::ProfileInbox(..)
            | Effect::ProfileStop(_) => vec![],
        }
    }

    /// An answer reaches the state (`Session::api_answered`); the answer
    /// to "who am I" binds the store to that user (`StoreLink::bind`, for
    /// the one user this model has) and lets the outbox go.
    pub fn answered(&mut self, r: ApiResult) -> Vec<Effect> {
        let me = matches!(r.req, ApiRequest::Me) && r.result.is_ok();
        let write = r.req.written_task().map(str::to_string);
        let failed = r.result.is_err();
        let said = check::said(&self.state);
        let ticket = r.ticket;
        // What our write tells the inbox (`own_write_answered`).
        let own = (self.inbox.as_ref()).and_then(|i| crate::app::inbox::own_answer(&i.user, &r));
        self.writes.answered(ticket);
        self.ledger.observe(&self.state);
        let mut fx = self.state.on_api(r);
        if me {
            let user = self.state.me.as_ref().map(|m| m.user_id.clone());
            if let Some(user) = user {
                self.seen_user = Some(user.clone());
                let old = self.state.local.user.clone().filter(|o| *o != user);
                let queued = old
                    .as_deref()
                    .is_some_and(|o| super::hangup::queued_by(&self.state, o));
                self.bind(&user);
                self.broke(super::hangup::told_of_switch(queued, &said, &self.state));
            }
            fx.extend(self.state.outbox_pump());
        }
        if let Some(cmd) = own {
            self.inbox_cmd(cmd);
        }
        if let Some(q) = self.ledger.heard(ticket, !failed) {
            self.notes
                .push(format!("queued edit {q}: its success heard"));
        }
        if let (Some(task), true) = (write, failed) {
            if let Some((kind, detail)) = self.ledger.failed(ticket, &task, &said, &self.state) {
                self.violation(kind, detail);
            }
        }
        fx
    }

    /// `StoreLink::bind`, synchronously: the state's part is the
    /// product's own `State::switch_store` (the key acts as another user
    /// than the store open — it was reissued — or no store was open). The
    /// old store is served its last commands and closed, the new one
    /// opened and served what the switch left for it.
    fn bind(&mut self, me: &str) {
        let old = self.state.local.user.clone();
        if old.as_deref() == Some(me) {
            return;
        }
        // The other program holding the old store's lock lets go as the
        // client leaves that store, as when the client goes down: a store
        // still locked when a switch comes back to it is not modelled
        // (docs/testing.md) — the open waited its 5 s in real time and
        // failed, which `open_store` takes for a violation (seed
        // 1921649808291061179: u-me's store locked, the key reissued to
        // Eve and back).
        self.disk_down();
        let switch = self.state.switch_store(old.as_deref(), me);
        if old.is_some() {
            if let Some((mut db, mut server)) = self.db.take() {
                for cmd in switch.to_old {
                    server.serve(&mut db, cmd, &|_| {});
                }
                let _ = db.outbox_release();
                // What it could not give back stays claimed by this
                // process until it ends (`World::boot`).
                self.closed.push(db);
            }
        }
        self.db = None;
        self.open_store(me, false);
        // What the switch left for the new store goes to it first, as the
        // loop sends it to the new thread at once.
        let later = std::mem::take(&mut self.state.local.out);
        self.state.local.out = switch.to_new;
        self.state.local.out.extend(later);
        if let Some(old) = old {
            self.notes
                .push(format!("the store of {old} left for {me}'s"));
        }
    }

    /// Serve what the reducer queued for the store (`StoreLink::drain`);
    /// before the user is known it waits in memory, within reason.
    fn drain_store(&mut self) -> Vec<StoreAnswer> {
        if self.db.is_none() {
            let out = &mut self.state.local.out;
            if out.len() > 20_000 {
                out.drain(..out.len() - 20_000);
            }
            return vec![];
        }
        let answers = RefCell::new(Vec::new());
        for cmd in std::mem::take(&mut self.state.local.out) {
            if matches!(cmd, StoreCmd::OutboxAdd { .. }) {
                self.disk_at_edit();
            }
            let Some((db, server)) = self.db.as_mut() else {
                break;
            };
            server.serve(db, cmd, &|a| answers.borrow_mut().push(a));
        }
        self.disk_answers(answers.into_inner())
    }

    /// Carry out one step, then draw.
    pub fn step(&mut self, step: &Step) {
        self.notes.clear();
        self.digest.str(&format!("{step:?}"));
        self.user_step = matches!(
            step,
            Step::Key(_) | Step::Palette(_) | Step::Paste(_) | Step::Mouse(_)
        );
        let before = Before::of(&self.state);
        let undo_top = self.state.history.undo_stack.last().copied();
        let said_before = check::said(&self.state);
        let not_kept_before = super::disk::not_kept(&self.state);
        self.clock += Duration::from_millis(16);
        self.set_clock();
        match step {
            Step::Key(k) => {
                let fx = self.state.on_key(*k);
                self.carry(fx);
            }
            Step::Palette(text) => {
                use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
                let keys = std::iter::once(KeyCode::Char(':'))
                    .chain(text.chars().map(KeyCode::Char))
                    .chain(std::iter::once(KeyCode::Enter));
                for k in keys {
                    let fx = self.state.on_key(KeyEvent::new(k, KeyModifiers::NONE));
                    self.carry(fx);
                }
            }
            Step::Paste(p) => self.state.on_paste(p),
            Step::Resize(w, h) => self.term.backend_mut().resize(*w, *h),
            Step::Mouse(m) => {
                let (fx, _) = self.state.on_mouse(*m, self.now());
                self.carry(fx);
            }
            Step::Deliver(r) => self.deliver(*r),
            Step::Tick(ms) => {
                self.clock += Duration::from_millis(u64::from(*ms));
                self.set_clock();
                let (fx, _) = self.state.on_tick(self.now());
                self.carry(fx);
            }
            Step::Other(r) => self.svc.other(*r, self.faults.thread_off),
            Step::Outage(on) => self.outage = *on,
            Step::Crash(r) => self.crash(*r),
            Step::Restart => self.restart(),
            Step::ServiceClockBack(secs) => {
                self.svc.set_back(*secs);
                self.notes
                    .push(format!("the service's clock set back {secs} s"));
                self.count("service clock set back");
            }
            Step::Reissue => {
                // What the quitting process had sent reaches the service
                // with the key as it was; the next start has it reissued.
                self.quit();
                self.svc.key_owner = if self.svc.key_owner == super::service::ME {
                    super::service::OTHER.into()
                } else {
                    super::service::ME.into()
                };
                self.notes
                    .push(format!("the key reissued to {}", self.svc.key_owner));
                self.count("keys reissued");
                self.boot();
            }
            Step::Disk(r) => self.disk_step(*r),
            Step::HangUp => self.hang_up(),
            Step::KeyReissuedLive => self.key_reissued_live(),
        }
        // What the loop does after each batch: read ahead, keep the draft.
        let fx = self.state.plan_prefetch_at(self.now());
        self.carry(fx);
        self.inbox_after_step();
        self.state.autosave_draft(self.now(), false);
        self.draw();
        self.ledger.observe(&self.state);
        self.trace_queued();
        let restarted = self.notes.iter().any(|n| n == "crash" || n == "restart");
        let served = self.db.is_some() && self.state.local.out.is_empty();
        let failed = self
            .db
            .as_ref()
            .is_some_and(|(_, server)| server.failed.is_some());
        let found = super::disk::check(
            &self.state,
            &not_kept_before,
            &said_before,
            served && !restarted,
            failed,
        );
        self.broke(found);
        if self.user_step && !restarted {
            // One watch an undo: a user's step while it runs (its
            // operation still on top of the stack) starts none again,
            // with what had been said since as its baseline.
            let watched = |w: &UndoWatch| Some(w.op()) == undo_top;
            if !self.undos.iter().any(watched) {
                if let Some(w) = UndoWatch::started(&self.state, undo_top, &said_before) {
                    self.count("undos started");
                    self.undos.push(w);
                }
            }
        }
        self.check_undos();
        let found = check::after_step(
            &self.state,
            &StepFacts {
                before: &before,
                ledger: &self.ledger,
                pending: self.pending.len(),
                user_step: self.user_step,
                restarted,
            },
        );
        self.broke(found);
    }

    /// Each undo under way: what it took back shows as before the
    /// undone edit; what it could not was said.
    fn check_undos(&mut self) {
        let mut undos = std::mem::take(&mut self.undos);
        undos.retain_mut(|w| {
            let svc = &self.svc;
            let others = |id: &str| svc.others_changes.get(id).copied().unwrap_or(0);
            let (found, checked, over) = w.check(&self.state, &self.pending, &others);
            for _ in 0..std::mem::take(&mut w.let_go) {
                self.count(
                    "undone records let go: another user changed the task before its read came",
                );
            }
            for _ in 0..checked {
                self.count("undone fields checked");
            }
            self.broke(found);
            !over
        });
        self.undos = undos;
    }

    fn draw(&mut self) {
        self.count("frames");
        use crate::app::local::outbox::OutState;
        let mut states: Vec<&'static str> = self
            .state
            .outbox
            .iter()
            .map(|i| match i.state {
                OutState::Queued => "steps with an edit queued",
                OutState::Checking(_) => "steps with an edit being checked",
                OutState::Sending(_) => "steps with an edit being sent",
                OutState::Waiting(_) => "steps with an edit waiting for the user",
            })
            .collect();
        // "steps with": a step counts once whatever the number of edits.
        states.sort_unstable();
        states.dedup();
        for s in states {
            self.count(s);
        }
        if self.state.offline.is_some() {
            self.count("steps offline");
        }
        if matches!(self.state.overlay, Overlay::Compose(_)) {
            self.count("steps composing");
        }
        let (state, theme) = (&mut self.state, &self.theme);
        if let Err(e) = self.term.draw(|f| crate::ui::draw(f, state, theme)) {
            self.violation("draw", format!("the frame could not be drawn: {e}"));
            return;
        }
        let buf = self.term.backend().buffer().clone();
        for cell in &buf.content {
            self.digest.str(cell.symbol());
        }
        if self.frames {
            let w = buf.area.width.max(1) as usize;
            for row in buf.content.chunks(w) {
                let line: String = row.iter().map(|c| c.symbol()).collect();
                self.notes.push(format!("| {}", line.trim_end()));
            }
        }
        let found = check::frame(&buf);
        self.broke(found);
        // Between frames the loop writes the title when it changed.
        let (title, found) = super::term::title(&self.state);
        self.digest.str(&String::from_utf8_lossy(&title));
        self.broke(found);
    }

    /// The service answers one request in flight, chosen by `r`, with a
    /// fault drawn from `r` among those asked for.
    fn deliver(&mut self, r: u64) {
        if self.pending.is_empty() {
            return;
        }
        let i = (r % self.pending.len() as u64) as usize;
        let (ticket, req) = self.pending.remove(i);
        let mut rng = Rng::new(r);
        let write = req.written_task().is_some();
        // Each attempt meets a fault; the client's own rule
        // (`api::client::again`) tries a read again, a write never.
        let cfg = super::http::config();
        let (mut attempt, mut fault) = (0, None);
        let result = loop {
            let f = super::http::draw(&mut rng, &self.faults, write, self.outage, fault);
            fault = Some(f);
            let applied = if f.applies() && !self.outage {
                Some(self.apply(ticket, &req))
            } else {
                None
            };
            let result = match (f.error(), applied) {
                (Some(e), _) => Err(e),
                (None, Some(answer)) => answer,
                (None, None) => unreachable!("an answer is applied"),
            };
            if super::http::tried_again(&cfg, write, &result, attempt).is_none() {
                break result;
            }
            attempt += 1;
            self.count("attempts tried again by the client");
            self.notes.push(format!("attempt {attempt} of #{ticket}"));
        };
        self.notes.push(format!(
            "answer #{ticket} ({}): {}",
            req.describe(),
            match &result {
                Ok(_) => "ok".to_string(),
                Err(e) => e.to_string(),
            }
        ));
        let fx = self.answered(ApiResult {
            ticket,
            req,
            result,
        });
        self.carry(fx);
    }

    /// The model service applies a request (twice, when the simulator's
    /// own test breaks the client that way).
    fn apply(
        &mut self,
        ticket: u64,
        req: &ApiRequest,
    ) -> Result<crate::app::state::Reply, ApiError> {
        let before = self.svc.applied.len();
        let id = self.ledger.id(ticket);
        let out = self.svc.answer(id, req);
        let creates = matches!(
            req,
            ApiRequest::AddComment { .. }
                | ApiRequest::ReplyComment { .. }
                | ApiRequest::ReplyRequester { .. }
                | ApiRequest::CreateSubtask { .. }
        );
        if self.broken == Some(Break::DoubleSend) && creates {
            let _ = self.svc.answer(id, req);
        }
        let applied: Vec<_> = self.svc.applied[before..].to_vec();
        for a in applied {
            self.count("writes applied");
            for (kind, detail) in self.ledger.applied(&a) {
                self.violation(kind, detail);
            }
        }
        out
    }

    /// Requests sent before the process went away may still reach the
    /// service (`r` decides which).
    fn abandon_pending(&mut self, r: u64) {
        let mut rng = Rng::new(r);
        for (ticket, req) in std::mem::take(&mut self.pending) {
            if req.written_task().is_some() && rng.chance(50) && !self.outage {
                let _ = self.apply(ticket, &req);
            }
        }
    }

    /// The replay's trace: the queued edits that entered the outbox and
    /// left it since the last step, by their `seq`.
    fn trace_queued(&mut self) {
        let now: std::collections::BTreeMap<i64, String> = self
            .state
            .outbox
            .iter()
            .map(|i| (i.seq, format!("{:?}", i.state)))
            .collect();
        for i in &self.state.outbox {
            match self.queued_seen.get(&i.seq) {
                None => self.notes.push(format!(
                    "queued edit {}: {} on {} ({:?})",
                    i.seq, i.what, i.label, i.state
                )),
                Some(was) if *was != now[&i.seq] => self
                    .notes
                    .push(format!("queued edit {}: {}", i.seq, now[&i.seq])),
                Some(_) => {}
            }
        }
        for q in self.queued_seen.keys().filter(|q| !now.contains_key(q)) {
            self.notes.push(format!("queued edit {q}: left the outbox"));
        }
        self.queued_seen = now;
    }

    /// The process dies: nothing of its memory is kept; the store is
    /// reopened as last committed, the drafts folder as written.
    fn crash(&mut self, r: u64) {
        let mut expect = CrashExpect::of(&self.state, self.composing());
        self.abandon_pending(r);
        expect.may_return = self.may_return();
        self.disk_down();
        if let Some((db, _)) = self.db.take() {
            // The dead process's claims are free for the next start, as
            // `free_claims_of_the_dead` finds them (its pid is gone).
            let _ = db.outbox_release();
            if self.broken == Some(Break::ForgetOutbox) {
                for row in db.outbox().unwrap_or_default() {
                    let _ = db.outbox_remove(row.seq);
                }
            }
        }
        self.notes.push("crash".into());
        self.count("crashes");
        if !expect_empty(&self.state) {
            self.count("crashes with edits queued");
        }
        self.boot();
        let found = expect.check(&self.state);
        self.broke(found);
    }

    /// The user quits (drafts saved, the store's queue written, its
    /// claims given back) and starts again.
    fn restart(&mut self) {
        self.quit();
        self.boot();
    }

    /// The user quits as `Session::finish` does: drafts saved, the edits
    /// sent and not answered kept in the outbox (outcome unknown,
    /// `State::keep_writes_in_flight`), the store's queue written and its
    /// last answers taken, its claims given back; what was sent may or
    /// may not arrive. Answers the queued edits that may come back at the
    /// next start ([`World::may_return`]) as the store stands once its
    /// last commands are served: the store may fail in them (an edit in
    /// flight kept as the user quits, the disk locked just then).
    pub(super) fn quit(&mut self) -> std::collections::BTreeSet<i64> {
        self.state.save_drafts_now();
        self.state.keep_writes_in_flight(&self.writes);
        for a in self.drain_store() {
            let _ = self.state.on_store(a);
        }
        let may_return = self.may_return();
        self.abandon_pending(self.step_no as u64);
        self.disk_down();
        if let Some((db, _)) = self.db.take() {
            let _ = db.outbox_release();
        }
        self.notes.push("restart".into());
        self.count("restarts");
        may_return
    }

    /// The composer's task, kind and text, when one is open.
    pub fn composing(&self) -> Option<Composing> {
        match &self.state.overlay {
            Overlay::Compose(c) => Some(Composing {
                task: c.task_id.clone(),
                key: c.kind.draft_key(),
                text: c.text(),
                owner: c.owner.clone(),
                // A blank text is no draft (`Drafts::save` deletes it).
                kept: c.dirty_since.is_none()
                    && c.text() != c.initial
                    && !c.text().trim().is_empty(),
            }),
            _ => None,
        }
    }
}

fn expect_empty(s: &State) -> bool {
    s.outbox.is_empty()
}

impl Drop for World {
    fn drop(&mut self) {
        self.db = None;
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}
