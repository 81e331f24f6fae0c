//! Shared harness for the end-to-end tests: the real binary in a
//! pseudo-terminal (portable-pty), its output fed to a `vt100` screen, and a
//! sandbox started inside the test so that its request log and store can be
//! inspected.
//!
//! The user's own configuration and state are never touched: every run gets
//! `TASKDECK_CONFIG`, `XDG_STATE_HOME`, `XDG_CONFIG_HOME` and `HOME` inside a
//! temporary directory.

#![allow(dead_code)]

use portable_pty::{Child, CommandBuilder, ExitStatus, MasterPty, PtySize};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use taskdeck::sandbox::{Faults, RecordedRequest, Sandbox, SandboxOptions};

mod hangup;
#[allow(unused_imports)] // not every test binary hangs up
pub use hangup::HangupTui;

pub const KEY: &str = "demo-alice-acme";

/// A generous bound for anything that goes over HTTP to the local sandbox.
pub const WAIT: Duration = Duration::from_secs(15);

/// A sandbox on 127.0.0.1:0 with the runtime that serves it.
pub struct Service {
    pub sb: Sandbox,
    pub rt: tokio::runtime::Runtime,
}

impl Service {
    pub fn start(opts: SandboxOptions) -> Service {
        let rt = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .unwrap();
        let sb = rt.block_on(Sandbox::start_local(opts)).unwrap();
        Service { sb, rt }
    }

    pub fn small() -> Service {
        Service::start(SandboxOptions {
            tasks: 120,
            ..Default::default()
        })
    }

    pub fn env(&self) -> Vec<(String, String)> {
        vec![
            ("TASKDECK_BASE_URL".into(), self.sb.base_url()),
            ("TASKDECK_API_KEY".into(), KEY.into()),
        ]
    }

    pub fn requests(&self) -> Vec<RecordedRequest> {
        self.sb.requests()
    }

    pub fn requests_matching(&self, method: &str, path_suffix: &str) -> Vec<RecordedRequest> {
        self.requests()
            .into_iter()
            .filter(|r| r.method == method && r.path.ends_with(path_suffix))
            .collect()
    }

    pub fn set_faults(&self, spec: &str) {
        self.sb.set_faults(spec.parse::<Faults>().unwrap());
    }

    /// The user id the service answers for `key`'s `GET /me`.
    pub fn user_id(&self, key: &str) -> String {
        let c = taskdeck::api::Client::new(taskdeck::api::ClientConfig::new(
            self.sb.base_url(),
            taskdeck::api::ApiKey::new(key),
        ))
        .unwrap();
        self.rt.block_on(c.me()).unwrap().user_id
    }

    /// The folder of `key`'s user's drafts against this service in `home`.
    pub fn drafts_of(&self, home: &Home, key: &str) -> PathBuf {
        home.drafts()
            .join(taskdeck::app::state::drafts::service_key(
                &self.sb.base_url(),
                false,
            ))
            .join(taskdeck::app::state::drafts::user_key(&self.user_id(key)))
    }

    /// The draft file of `key`'s user for a task and kind.
    pub fn draft_file(&self, home: &Home, key: &str, task_id: &str, kind: &str) -> PathBuf {
        self.drafts_of(home, key)
            .join(format!("{task_id}.{kind}.txt"))
    }

    /// Every task Alice sees in the unfiltered list, walked over plain
    /// HTTP (not through taskdeck), as the service sent them.
    pub fn raw_tasks(&self) -> Vec<serde_json::Value> {
        let base = self.sb.base_url();
        self.rt.block_on(async {
            let http = reqwest::Client::new();
            let mut out = Vec::new();
            let mut cursor: Option<String> = None;
            loop {
                let mut req = http
                    .get(format!("{base}/api/v1/tasks"))
                    .bearer_auth(KEY)
                    .query(&[("limit", "100")]);
                if let Some(c) = &cursor {
                    req = req.query(&[("cursor", c)]);
                }
                let mut page: serde_json::Value = req.send().await.unwrap().json().await.unwrap();
                if let Some(items) = page["items"].as_array_mut() {
                    out.append(items);
                }
                match page["cursor"].as_str() {
                    Some(c) => cursor = Some(c.to_string()),
                    None => break,
                }
            }
            out
        })
    }

    pub fn task_id(&self, display: &str) -> String {
        self.sb.task_json(display).unwrap()["id"]
            .as_str()
            .unwrap()
            .to_string()
    }
}

/// A private home for one or more runs of the binary.
pub struct Home {
    pub dir: tempfile::TempDir,
}

impl Home {
    pub fn new() -> Home {
        let dir = tempfile::tempdir().unwrap();
        // `$XDG_RUNTIME_DIR`: the private folder for text no draft could
        // keep goes here, never in the machine's /tmp.
        {
            use std::os::unix::fs::DirBuilderExt;
            std::fs::DirBuilder::new()
                .mode(0o700)
                .create(dir.path().join("run"))
                .unwrap();
        }
        Home { dir }
    }
    /// `$XDG_RUNTIME_DIR/taskdeck`: the composer's text no draft could keep.
    pub fn spilled(&self) -> PathBuf {
        self.root().join("run").join("taskdeck")
    }
    pub fn root(&self) -> &Path {
        self.dir.path()
    }
    pub fn state(&self) -> PathBuf {
        self.root().join("state")
    }
    /// Where the local stores go (`$XDG_CACHE_HOME/taskdeck`).
    pub fn cache(&self) -> PathBuf {
        self.root().join("cache")
    }
    pub fn drafts(&self) -> PathBuf {
        self.state().join("taskdeck").join("drafts")
    }
    pub fn env(&self) -> Vec<(String, String)> {
        let r = self.root();
        vec![
            // Does not exist: the defaults apply.
            (
                "TASKDECK_CONFIG".into(),
                r.join("no-config.toml").display().to_string(),
            ),
            ("XDG_STATE_HOME".into(), self.state().display().to_string()),
            (
                "XDG_RUNTIME_DIR".into(),
                r.join("run").display().to_string(),
            ),
            ("XDG_CACHE_HOME".into(), self.cache().display().to_string()),
            (
                "XDG_CONFIG_HOME".into(),
                r.join("config").display().to_string(),
            ),
            ("HOME".into(), r.join("home").display().to_string()),
            ("TERM".into(), "xterm-256color".into()),
            ("PATH".into(), std::env::var("PATH").unwrap_or_default()),
        ]
    }
    /// Every regular file under the home, recursively.
    pub fn files(&self) -> Vec<PathBuf> {
        fn walk(p: &Path, out: &mut Vec<PathBuf>) {
            if let Ok(rd) = std::fs::read_dir(p) {
                for e in rd.flatten() {
                    let p = e.path();
                    if p.is_dir() {
                        walk(&p, out);
                    } else {
                        out.push(p);
                    }
                }
            }
        }
        let mut v = Vec::new();
        walk(self.root(), &mut v);
        v
    }
}

/// The binary running in a pseudo-terminal.
pub struct Tui {
    child: Box<dyn Child + Send + Sync>,
    master: Box<dyn MasterPty + Send>,
    writer: Arc<Mutex<Box<dyn Write + Send>>>,
    parser: Arc<Mutex<vt100::Parser>>,
    raw: Arc<Mutex<Vec<u8>>>,
    reader_done: Arc<AtomicBool>,
    pub status: Option<ExitStatus>,
}

impl Tui {
    /// Start `taskdeck ARGS` in a `cols`×`rows` terminal with the home's
    /// environment plus `extra`.
    pub fn spawn(
        home: &Home,
        args: &[&str],
        extra: &[(String, String)],
        cols: u16,
        rows: u16,
    ) -> Tui {
        let program = env!("CARGO_BIN_EXE_taskdeck");
        Tui::spawn_program(home, program, args, extra, cols, rows)
    }

    /// Start `program ARGS` (a shell that starts taskdeck, say) the same way.
    pub fn spawn_program(
        home: &Home,
        program: &str,
        args: &[&str],
        extra: &[(String, String)],
        cols: u16,
        rows: u16,
    ) -> Tui {
        Tui::spawn_answering(home, program, args, extra, cols, rows, None)
    }

    /// [`Tui::spawn_program`] in a terminal that answers OSC 11 (its
    /// background asked: `ESC ] 11 ; ?`) with `background` (the answer's
    /// bytes); `None`: a terminal that does not answer it.
    pub fn spawn_answering(
        home: &Home,
        program: &str,
        args: &[&str],
        extra: &[(String, String)],
        cols: u16,
        rows: u16,
        background: Option<String>,
    ) -> Tui {
        let pty = portable_pty::native_pty_system();
        let pair = pty
            .openpty(PtySize {
                rows,
                cols,
                pixel_width: 0,
                pixel_height: 0,
            })
            .unwrap();
        let mut cmd = CommandBuilder::new(program);
        cmd.args(args);
        cmd.env_clear();
        for (k, v) in home.env().iter().chain(extra.iter()) {
            cmd.env(k, v);
        }
        cmd.cwd(home.root());
        let child = pair.slave.spawn_command(cmd).unwrap();
        // Only the child holds the slave: its exit gives the reader EOF/EIO.
        drop(pair.slave);
        let writer = Arc::new(Mutex::new(pair.master.take_writer().unwrap()));
        let mut reader = pair.master.try_clone_reader().unwrap();
        let parser = Arc::new(Mutex::new(vt100::Parser::new(rows, cols, 0)));
        let raw = Arc::new(Mutex::new(Vec::new()));
        let reader_done = Arc::new(AtomicBool::new(false));
        {
            let (parser, raw, done, writer) = (
                parser.clone(),
                raw.clone(),
                reader_done.clone(),
                writer.clone(),
            );
            std::thread::spawn(move || {
                let mut buf = [0u8; 8192];
                loop {
                    match reader.read(&mut buf) {
                        Ok(0) | Err(_) => break,
                        Ok(n) => {
                            let chunk = &buf[..n];
                            // Answer a cursor position query, as a terminal would.
                            if chunk.windows(4).any(|w| w == b"\x1b[6n") {
                                let _ = writer.lock().unwrap().write_all(b"\x1b[1;1R");
                            }
                            // Answer its background, as a terminal would.
                            if let Some(bg) = &background {
                                if chunk.windows(6).any(|w| w == b"\x1b]11;?") {
                                    let _ = writer.lock().unwrap().write_all(bg.as_bytes());
                                }
                            }
                            raw.lock().unwrap().extend_from_slice(chunk);
                            parser.lock().unwrap().process(chunk);
                        }
                    }
                }
                done.store(true, Ordering::SeqCst);
            });
        }
        Tui {
            child,
            master: pair.master,
            writer,
            parser,
            raw,
            reader_done,
            status: None,
        }
    }

    pub fn pid(&self) -> i32 {
        self.child.process_id().unwrap() as i32
    }

    pub fn send(&self, keys: &str) {
        let mut w = self.writer.lock().unwrap();
        w.write_all(keys.as_bytes()).unwrap();
        w.flush().unwrap();
    }

    /// Send `bytes` from a thread of its own: a write the program does not
    /// read blocks that thread, never the test (which then fails on its
    /// own timeout).
    pub fn send_in_background(&self, bytes: String) -> std::thread::JoinHandle<()> {
        let writer = self.writer.clone();
        std::thread::spawn(move || {
            let mut w = writer.lock().unwrap();
            let _ = w.write_all(bytes.as_bytes());
            let _ = w.flush();
        })
    }

    /// Send keys one at a time with a short pause, for keys whose meaning
    /// depends on what arrives after them (Esc).
    pub fn key(&self, key: &str) {
        self.send(key);
        std::thread::sleep(Duration::from_millis(60));
    }

    /// The screen as text, one line per row.
    pub fn screen(&self) -> String {
        self.parser.lock().unwrap().screen().contents()
    }

    /// Rows of the screen restricted to columns `start..start+width`.
    pub fn region(&self, start: u16, width: u16) -> Vec<String> {
        self.parser
            .lock()
            .unwrap()
            .screen()
            .rows(start, width)
            .collect()
    }

    /// The foreground colours on screen (vt100's, e.g. `Idx(6)`).
    pub fn colours(&self) -> std::collections::BTreeSet<String> {
        let p = self.parser.lock().unwrap();
        let screen = p.screen();
        let (rows, cols) = screen.size();
        let mut out = std::collections::BTreeSet::new();
        for r in 0..rows {
            for c in 0..cols {
                if let Some(cell) = screen.cell(r, c) {
                    out.insert(format!("{:?}", cell.fgcolor()));
                }
            }
        }
        out
    }

    /// Where the terminal's cursor is (row, column), and whether it is
    /// shown.
    pub fn cursor(&self) -> (u16, u16, bool) {
        let p = self.parser.lock().unwrap();
        let (row, col) = p.screen().cursor_position();
        (row, col, !p.screen().hide_cursor())
    }

    pub fn raw(&self) -> Vec<u8> {
        self.raw.lock().unwrap().clone()
    }

    /// Wait until the screen satisfies `cond`; panics with the screen after
    /// `timeout`.
    pub fn wait_until(&self, what: &str, timeout: Duration, cond: impl Fn(&str) -> bool) {
        let start = Instant::now();
        loop {
            let s = self.screen();
            if cond(&s) {
                return;
            }
            if start.elapsed() > timeout {
                panic!("timed out after {timeout:?} waiting for {what}; screen:\n{s}");
            }
            std::thread::sleep(Duration::from_millis(25));
        }
    }

    pub fn wait_for(&self, text: &str, timeout: Duration) {
        self.wait_until(&format!("{text:?}"), timeout, |s| s.contains(text));
    }

    /// The screen and the cursor (row, column, shown), read under one
    /// lock: one state of the terminal, never the screen of one moment and
    /// the cursor of a later one.
    pub fn frame(&self) -> (String, (u16, u16, bool)) {
        let p = self.parser.lock().unwrap();
        let screen = p.screen();
        let (row, col) = screen.cursor_position();
        (screen.contents(), (row, col, !screen.hide_cursor()))
    }

    /// Wait until a frame — the screen and the cursor read together, and
    /// the same at two reads in a row (a frame arrives in several writes:
    /// a read between them holds parts of two) — satisfies `cond`; that
    /// frame. Panics with the screen after `timeout`.
    pub fn wait_frame(
        &self,
        what: &str,
        timeout: Duration,
        cond: impl Fn(&str, (u16, u16, bool)) -> bool,
    ) -> (String, (u16, u16, bool)) {
        let start = Instant::now();
        let mut last: Option<(String, (u16, u16, bool))> = None;
        loop {
            let now = self.frame();
            if last.as_ref() == Some(&now) && cond(&now.0, now.1) {
                return now;
            }
            if start.elapsed() > timeout {
                panic!(
                    "timed out after {timeout:?} waiting for {what}; cursor {:?}, screen:\n{}",
                    now.1, now.0
                );
            }
            last = Some(now);
            std::thread::sleep(Duration::from_millis(25));
        }
    }

    /// Wait for the process to end (and for its output to be read).
    pub fn wait_exit(&mut self, timeout: Duration) -> ExitStatus {
        let start = Instant::now();
        let status = loop {
            if let Some(s) = self.child.try_wait().unwrap() {
                break s;
            }
            if start.elapsed() > timeout {
                panic!(
                    "the program did not exit within {timeout:?}; screen:\n{}",
                    self.screen()
                );
            }
            std::thread::sleep(Duration::from_millis(20));
        };
        while !self.reader_done.load(Ordering::SeqCst) && start.elapsed() < timeout {
            std::thread::sleep(Duration::from_millis(20));
        }
        self.status = Some(status.clone());
        status
    }

    pub fn signal(&self, sig: i32) {
        // SAFETY: kill(2) on our own child's pid.
        let rc = unsafe { libc::kill(self.pid(), sig) };
        assert_eq!(rc, 0, "kill({sig}) failed");
    }

    /// The terminal's foreground process group (who reads the keys typed
    /// now), as the terminal sees it.
    pub fn foreground_group(&self) -> Option<i32> {
        let fd = self.master.as_raw_fd()?;
        // SAFETY: tcgetpgrp on a valid fd.
        let pgrp = unsafe { libc::tcgetpgrp(fd) };
        (pgrp > 0).then_some(pgrp)
    }

    /// The pty's line discipline flags (`c_lflag`), as the terminal would
    /// see them after the program.
    pub fn local_flags(&self) -> Option<libc::tcflag_t> {
        let fd = self.master.as_raw_fd()?;
        // SAFETY: tcgetattr on a valid fd into a zeroed struct.
        unsafe {
            let mut t: libc::termios = std::mem::zeroed();
            (libc::tcgetattr(fd, &mut t) == 0).then_some(t.c_lflag)
        }
    }
}

impl Drop for Tui {
    fn drop(&mut self) {
        if self.status.is_none() {
            if let Ok(None) = self.child.try_wait() {
                unsafe {
                    libc::kill(self.pid(), libc::SIGKILL);
                }
                let _ = self.child.wait();
            }
        }
    }
}

/// Assert the terminal was restored at the end of `raw`: the last
/// alternate-screen, cursor and bracketed-paste switches are "off", and no
/// escape sequence was drawn after them.
pub fn assert_restored(raw: &[u8]) {
    fn last(hay: &[u8], needle: &[u8]) -> Option<usize> {
        hay.windows(needle.len()).rposition(|w| w == needle)
    }
    let tail = String::from_utf8_lossy(&raw[raw.len().saturating_sub(400)..]).into_owned();
    for (on, off, what) in [
        (&b"\x1b[?1049h"[..], &b"\x1b[?1049l"[..], "alternate screen"),
        (b"\x1b[?25l", b"\x1b[?25h", "cursor hidden"),
        (b"\x1b[?2004h", b"\x1b[?2004l", "bracketed paste"),
    ] {
        let on_at = last(raw, on);
        assert!(on_at.is_some(), "{what} was never switched on");
        let off_at =
            last(raw, off).unwrap_or_else(|| panic!("{what} never restored; tail {tail:?}"));
        assert!(
            off_at > on_at.unwrap(),
            "{what} switched on again after being restored; tail {tail:?}"
        );
    }
    let end = [&b"\x1b[?1049l"[..], b"\x1b[?25h", b"\x1b[?2004l"]
        .iter()
        .map(|n| last(raw, n).unwrap() + n.len())
        .max()
        .unwrap();
    assert!(
        !raw[end..].contains(&0x1b),
        "escape sequences written after the terminal was restored: {:?}",
        String::from_utf8_lossy(&raw[end..])
    );
}

/// The binary at 120×40 against `svc`, once identity and the first page show.
#[allow(dead_code)]
pub fn launch_ready(svc: &Service, home: &Home) -> Tui {
    let tui = Tui::spawn(home, &[], &svc.env(), 120, 40);
    tui.wait_for("Alice Martin", WAIT);
    tui.wait_until("the first page", WAIT, |s| {
        s.contains("(more below)") || s.contains("(all)")
    });
    tui
}

/// A session ready on the small sandbox and the task current in it: the
/// start the outbox's and identity's tests share.
pub struct OnTask {
    pub svc: Service,
    pub home: Home,
    pub tui: Tui,
    /// The current row's display id (`#12`) and the task's id.
    pub current: String,
    pub id: String,
    /// Its priority on the service before the test touches it.
    pub priority: serde_json::Value,
}

/// [`launch_ready`] on a new small sandbox, on its current task.
#[allow(dead_code)]
pub fn ready_on_current() -> OnTask {
    let svc = Service::small();
    let home = Home::new();
    let tui = launch_ready(&svc, &home);
    let current = current_row(&tui.screen());
    let id = svc.task_id(&current);
    let priority = svc.sb.task_json(&current).unwrap()["priority"].clone();
    OnTask {
        svc,
        home,
        tui,
        current,
        id,
        priority,
    }
}

/// The PATCHes of task `id` the service received.
#[allow(dead_code)]
pub fn patches_of(svc: &Service, id: &str) -> Vec<RecordedRequest> {
    svc.requests_matching("PATCH", &format!("/api/v1/tasks/{id}"))
}

/// `:open #n`, until the detail shows it focused and found (not the
/// `#n (looking for it…)` shown while it is looked for: a key pressed then
/// has no task to act on).
#[allow(dead_code)]
pub fn open_number(tui: &Tui, n: u32) {
    tui.send(&format!(":open #{n}\r"));
    let title = format!("▶ #{n} ");
    tui.wait_until(&format!("#{n} found and shown"), WAIT, |s| {
        s.contains(&title) && !s.contains("looking for it")
    });
}

/// The display id of the list's current row (`#12`), read from a screen.
#[allow(dead_code)]
pub fn current_row(screen: &str) -> String {
    screen
        .lines()
        .find_map(|l| l.strip_prefix("┃> #"))
        .and_then(|r| r.split_whitespace().next())
        .map(|n| format!("#{n}"))
        .expect("a current row")
}

/// The display id of the list's second row, read from a screen.
#[allow(dead_code)]
pub fn second_row(screen: &str) -> String {
    screen
        .lines()
        .filter_map(|l| l.strip_prefix("┃> #").or_else(|| l.strip_prefix("┃  #")))
        .filter(|r| r.starts_with(|c: char| c.is_ascii_digit()))
        .nth(1)
        .and_then(|r| r.split_whitespace().next())
        .map(|n| format!("#{n}"))
        .expect("a second row")
}

/// `env` with `name` set to `value` (replacing it, or added).
#[allow(dead_code)]
pub fn env_with(env: Vec<(String, String)>, name: &str, value: &str) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = env.into_iter().filter(|(k, _)| k != name).collect();
    out.push((name.to_string(), value.to_string()));
    out
}
