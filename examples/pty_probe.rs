//! Drives the real `taskdeck` binary in a pseudo-terminal and measures what a
//! person would feel. Used by `scripts/bench.sh`; prints `key=value` lines.
//!
//! pty_probe first-frame BIN RUNS       time to identity + first page shown
//! pty_probe bytes BIN                  bytes written per `j` and per Enter
//! pty_probe rss BIN                    peak RSS with the whole list loaded
//! pty_probe latency BIN                keypress-to-frame with the service stalled
//! pty_probe stored-start BIN RUNS      a second start against a stalled
//!                                      service: time to the stored rows
//! pty_probe slow-walk BIN [MOVES] [PACE_MS]
//!                                      against an in-process sandbox whose
//!                                      every request takes 150 ms (behind a
//!                                      proxy counting connections): key →
//!                                      next task's latest comment on screen,
//!                                      requests per move, connections
//!                                      (and how many of them HTTP/2),
//!                                      `:open #N` of a task not loaded
//! pty_probe known-number BIN [OPENS]   `:open #N` over the same link of
//!                                      tasks listed in an earlier session
//!                                      (the store's number index), not
//!                                      loaded in this one
//! pty_probe refresh BIN                list requests and CPU per periodic
//!                                      refresh, one page / every task loaded
//! pty_probe walk-floor BIN [LIMIT]     `tasks --all --json` vs a one-process
//!                                      keep-alive walk of the same pages
//! pty_probe input-burst BIN [KEYS]     key → frame (p50/p99/max) with a
//!                                      burst of 2,000 mouse drag reports
//!                                      before each key and the store held
//!                                      locked by another connection
//!
//! The service address and key come from the environment (TASKDECK_BASE_URL,
//! TASKDECK_API_KEY); the script sets them.

#[path = "probe/input_burst.rs"]
mod input_burst;
#[path = "probe/known_number.rs"]
mod known_number;
#[path = "probe/refresh.rs"]
mod refresh;
#[path = "probe/slow_walk.rs"]
mod slow_walk;

use portable_pty::{native_pty_system, Child, CommandBuilder, PtySize};
use std::io::{Read, Write};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

struct Probe {
    child: Box<dyn Child + Send + Sync>,
    writer: Box<dyn Write + Send>,
    rx: Receiver<Vec<u8>>,
    parser: vt100::Parser,
    cols: u16,
    start: Instant,
    bytes: usize,
    _master: Box<dyn portable_pty::MasterPty + Send>,
}

impl Probe {
    fn spawn(bin: &str, rows: u16, cols: u16) -> Probe {
        let pair = native_pty_system()
            .openpty(PtySize {
                rows,
                cols,
                pixel_width: 0,
                pixel_height: 0,
            })
            .expect("openpty");
        let mut cmd = CommandBuilder::new(bin);
        cmd.env("TERM", "xterm-256color");
        cmd.env(
            "TASKDECK_CONFIG",
            std::env::var("PROBE_CONFIG").unwrap_or("/nonexistent/taskdeck.toml".into()),
        );
        for k in [
            "TASKDECK_BASE_URL",
            "TASKDECK_API_KEY",
            "XDG_STATE_HOME",
            "XDG_CACHE_HOME",
            "HOME",
            "PATH",
        ] {
            if let Ok(v) = std::env::var(k) {
                cmd.env(k, v);
            }
        }
        let mut reader = pair.master.try_clone_reader().expect("reader");
        let writer = pair.master.take_writer().expect("writer");
        let start = Instant::now();
        let child = pair.slave.spawn_command(cmd).expect("spawn taskdeck");
        drop(pair.slave);
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            let mut buf = [0u8; 65536];
            loop {
                match reader.read(&mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(n) => {
                        if tx.send(buf[..n].to_vec()).is_err() {
                            break;
                        }
                    }
                }
            }
        });
        Probe {
            child,
            writer,
            rx,
            parser: vt100::Parser::new(rows, cols, 0),
            cols,
            start,
            bytes: 0,
            _master: pair.master,
        }
    }

    fn feed(&mut self, chunk: &[u8]) {
        self.bytes += chunk.len();
        self.parser.process(chunk);
    }

    /// Read until `done(screen)` holds; the moment the deciding bytes arrived.
    fn wait_for(
        &mut self,
        timeout: Duration,
        mut done: impl FnMut(&vt100::Screen) -> bool,
    ) -> Option<Instant> {
        let until = Instant::now() + timeout;
        if done(self.parser.screen()) {
            return Some(Instant::now());
        }
        loop {
            let left = until.checked_duration_since(Instant::now())?;
            match self.rx.recv_timeout(left) {
                Ok(chunk) => {
                    let at = Instant::now();
                    self.feed(&chunk);
                    if done(self.parser.screen()) {
                        return Some(at);
                    }
                }
                Err(RecvTimeoutError::Timeout) => return None,
                Err(RecvTimeoutError::Disconnected) => return None,
            }
        }
    }

    /// Read until nothing arrives for `quiet`; bytes read meanwhile.
    fn settle(&mut self, quiet: Duration, max: Duration) -> usize {
        let before = self.bytes;
        let until = Instant::now() + max;
        while Instant::now() < until {
            match self.rx.recv_timeout(quiet) {
                Ok(chunk) => self.feed(&chunk),
                Err(_) => break,
            }
        }
        self.bytes - before
    }

    fn send(&mut self, keys: &str) {
        self.writer.write_all(keys.as_bytes()).unwrap();
        self.writer.flush().unwrap();
    }

    fn rows(&self) -> Vec<String> {
        self.parser.screen().rows(0, self.cols).collect()
    }

    fn pid(&self) -> u32 {
        self.child.process_id().unwrap_or(0)
    }

    fn finish(mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Index of the screen row holding the list's selection mark.
fn selected_row(s: &vt100::Screen) -> Option<usize> {
    let (_, cols) = s.size();
    s.rows(0, cols)
        .position(|r| r.trim_start_matches(['│', '┃']).starts_with('>'))
}

/// Identity shown, and a first task row (the selection mark on a `#` id).
fn first_frame_complete(s: &vt100::Screen) -> bool {
    let text = s.contents();
    text.contains("Alice Martin")
        && selected_row(s).is_some_and(|i| {
            let (_, cols) = s.size();
            s.rows(0, cols).nth(i).is_some_and(|r| r.contains('#'))
        })
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    let n = v.len();
    if n == 0 {
        return f64::NAN;
    }
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

fn first_frame(bin: &str, runs: usize) {
    let mut ms = Vec::new();
    for _ in 0..runs {
        let mut p = Probe::spawn(bin, 50, 200);
        let start = p.start;
        match p.wait_for(Duration::from_secs(20), first_frame_complete) {
            Some(at) => ms.push((at - start).as_secs_f64() * 1000.0),
            None => {
                eprintln!(
                    "first frame never complete; screen:\n{}",
                    p.rows().join("\n")
                );
                std::process::exit(1);
            }
        }
        p.finish();
    }
    let all: Vec<String> = ms.iter().map(|m| format!("{m:.1}")).collect();
    println!("first_frame_runs_ms={}", all.join(","));
    println!("first_frame_ms={:.1}", median(&mut ms));
}

/// The stored rows of the last view are on screen, marked cached, with
/// the cursor on a task.
fn stored_rows_shown(s: &vt100::Screen) -> bool {
    s.contents().contains("cached ")
        && selected_row(s).is_some_and(|i| {
            let (_, cols) = s.size();
            s.rows(0, cols).nth(i).is_some_and(|r| r.contains('#'))
        })
}

fn stored_start(bin: &str, runs: usize) {
    // One session against the (slow) service fills the store.
    let mut p = Probe::spawn(bin, 50, 200);
    if p.wait_for(Duration::from_secs(120), first_frame_complete)
        .is_none()
    {
        eprintln!(
            "the warm-up session never loaded; screen:\n{}",
            p.rows().join("\n")
        );
        std::process::exit(1);
    }
    // Every answer of the first page in (and stored) before quitting.
    p.settle(Duration::from_millis(1500), Duration::from_secs(30));
    p.send("q");
    p.settle(Duration::from_millis(300), Duration::from_secs(5));
    p.finish();
    let mut ms = Vec::new();
    for _ in 0..runs {
        let mut p = Probe::spawn(bin, 50, 200);
        let start = p.start;
        if std::env::var_os("PROBE_DEBUG").is_some() {
            p.settle(Duration::from_millis(800), Duration::from_secs(1));
            eprintln!("{}", p.rows().join("\n"));
        }
        match p.wait_for(Duration::from_secs(20), stored_rows_shown) {
            Some(at) => ms.push((at - start).as_secs_f64() * 1000.0),
            None => {
                eprintln!("stored rows never shown; screen:\n{}", p.rows().join("\n"));
                std::process::exit(1);
            }
        }
        p.finish();
    }
    let max = ms.iter().cloned().fold(0.0, f64::max);
    let all: Vec<String> = ms.iter().map(|m| format!("{m:.1}")).collect();
    println!("stored_start_runs_ms={}", all.join(","));
    println!("stored_start_max_ms={max:.1}");
    println!("stored_start_ms={:.1}", median(&mut ms));
}

fn bytes(bin: &str) {
    let mut p = Probe::spawn(bin, 50, 200);
    p.wait_for(Duration::from_secs(20), first_frame_complete)
        .expect("first frame");
    p.settle(Duration::from_millis(400), Duration::from_secs(5));
    let full = p.bytes;
    let mut per_j = Vec::new();
    for _ in 0..20 {
        p.send("j");
        per_j.push(p.settle(Duration::from_millis(250), Duration::from_secs(3)) as f64);
    }
    let mut per_open = Vec::new();
    for _ in 0..8 {
        p.send("j");
        p.settle(Duration::from_millis(250), Duration::from_secs(3));
        p.send("\r");
        per_open.push(p.settle(Duration::from_millis(400), Duration::from_secs(5)) as f64);
        p.send("\x1b");
        p.settle(Duration::from_millis(250), Duration::from_secs(3));
    }
    println!("startup_bytes={full}");
    println!("bytes_per_j_samples={per_j:?}");
    println!("bytes_per_j={:.0}", median(&mut per_j));
    println!("bytes_per_open_samples={per_open:?}");
    println!("bytes_per_open={:.0}", median(&mut per_open));
    p.finish();
}

fn proc_status(pid: u32, key: &str) -> Option<u64> {
    let s = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    s.lines()
        .find(|l| l.starts_with(key))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|v| v.parse().ok())
}

/// `:open TARGET`, and the milliseconds until `shown` (its newest
/// comment) is on screen with nothing loading; exits if it never is.
fn open_timed(p: &mut Probe, target: &str, shown: &str) -> f64 {
    let sent = Instant::now();
    p.send(&format!(":open {target}\r"));
    let done = p.wait_for(Duration::from_secs(10), |s| {
        let text = s.contents();
        text.contains(shown) && !text.contains("loading comments")
    });
    match done {
        Some(at) => (at - sent).as_secs_f64() * 1000.0,
        None => {
            eprintln!("{target} never shown:\n{}", p.rows().join("\n"));
            std::process::exit(1);
        }
    }
}

/// `G` until the list title says `(all)`: every row loaded.
fn load_all(p: &mut Probe) {
    let started = Instant::now();
    let all_loaded = |s: &vt100::Screen| s.contents().contains("(all)");
    loop {
        p.send("G");
        if p.wait_for(Duration::from_millis(40), all_loaded).is_some() {
            return;
        }
        if started.elapsed() > Duration::from_secs(300) {
            eprintln!("the list never said (all):\n{}", p.rows().join("\n"));
            std::process::exit(1);
        }
    }
}

fn rss(bin: &str) {
    let mut p = Probe::spawn(bin, 50, 200);
    p.wait_for(Duration::from_secs(20), first_frame_complete)
        .expect("first frame");
    let started = Instant::now();
    load_all(&mut p);
    p.settle(Duration::from_millis(500), Duration::from_secs(5));
    let title = p
        .rows()
        .into_iter()
        .find(|r| r.contains("(all)"))
        .unwrap_or_default();
    let loaded: String = title
        .split('|')
        .find(|part| part.contains("(all)"))
        .unwrap_or("")
        .trim()
        .chars()
        .take_while(|c| c.is_ascii_digit())
        .collect();
    let pid = p.pid();
    println!("rss_tasks_loaded={loaded}");
    println!("rss_load_seconds={:.1}", started.elapsed().as_secs_f64());
    println!("rss_hwm_kb={}", proc_status(pid, "VmHWM:").unwrap_or(0));
    println!("rss_now_kb={}", proc_status(pid, "VmRSS:").unwrap_or(0));
    // For attributing it: the process's mappings at that moment, and a
    // clean exit (`q`) for tools that report at exit (heaptrack).
    if let Ok(path) = std::env::var("PROBE_SMAPS") {
        let _ = std::fs::copy(format!("/proc/{pid}/smaps"), path);
    }
    if std::env::var_os("PROBE_QUIT").is_some() {
        p.send("q");
        let until = Instant::now() + Duration::from_secs(30);
        while Instant::now() < until && matches!(p.child.try_wait(), Ok(None)) {
            p.settle(Duration::from_millis(100), Duration::from_millis(200));
        }
    }
    p.finish();
}

fn latency(bin: &str) {
    let mut p = Probe::spawn(bin, 50, 200);
    // Every request is stalled: the first page arrives after the delay.
    p.wait_for(Duration::from_secs(30), first_frame_complete)
        .expect("first frame");
    p.settle(Duration::from_millis(200), Duration::from_secs(2));
    // A refresh goes out and stalls at the service; keys meanwhile.
    p.send("r");
    p.settle(Duration::from_millis(100), Duration::from_secs(1));
    let mut ms = Vec::new();
    for i in 0..16 {
        let before = selected_row(p.parser.screen());
        let key = if i % 2 == 0 { "j" } else { "k" };
        let sent = Instant::now();
        p.send(key);
        match p.wait_for(Duration::from_secs(5), |s| selected_row(s) != before) {
            Some(at) => ms.push((at - sent).as_secs_f64() * 1000.0),
            None => {
                eprintln!("no frame after {key:?}:\n{}", p.rows().join("\n"));
                std::process::exit(1);
            }
        }
        p.settle(Duration::from_millis(60), Duration::from_millis(150));
    }
    let stalled = p.rows()[0].contains("request");
    let mut sorted = ms.clone();
    sorted.sort_by(|a, b| a.partial_cmp(b).unwrap());
    println!(
        "latency_samples_ms={:?}",
        ms.iter()
            .map(|m| (m * 10.0).round() / 10.0)
            .collect::<Vec<_>>()
    );
    println!("latency_ms={:.1}", median(&mut ms));
    println!(
        "latency_max_ms={:.1}",
        sorted.last().copied().unwrap_or(f64::NAN)
    );
    println!("latency_request_still_in_flight={stalled}");
    p.finish();
}

/// The plain words of a comment's first line that the screen will show
/// (Markdown marks and long lines aside): the longest run of letters,
/// digits and spaces, at most 18 characters.
fn snippet(text: &str) -> String {
    let line = text.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
    let mut best = String::new();
    let mut cur = String::new();
    for c in line.chars().chain(std::iter::once('\u{0}')) {
        if c.is_ascii_alphanumeric() || c == ' ' {
            cur.push(c);
        } else {
            if cur.trim().len() > best.trim().len() {
                best = cur.clone();
            }
            cur.clear();
        }
    }
    best.trim()
        .chars()
        .take(18)
        .collect::<String>()
        .trim()
        .to_string()
}

/// The `#N` on the selected list row.
fn selected_number(s: &vt100::Screen) -> Option<String> {
    let (_, cols) = s.size();
    let row = s.rows(0, cols).nth(selected_row(s)?)?;
    let at = row.find('#')?;
    let n: String = row[at + 1..]
        .chars()
        .take_while(|c| c.is_ascii_digit())
        .collect();
    (!n.is_empty()).then(|| format!("#{n}"))
}

/// A sandbox seeded with `tasks` on 127.0.0.1, in this process, with the
/// runtime that serves it (its request log and faults at hand).
fn local_sandbox(tasks: usize) -> (tokio::runtime::Runtime, taskdeck::sandbox::Sandbox) {
    use taskdeck::sandbox::{Sandbox, SandboxOptions};
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let sb = rt
        .block_on(Sandbox::start_local(SandboxOptions {
            tasks,
            ..Default::default()
        }))
        .unwrap();
    (rt, sb)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let usage = "usage: pty_probe first-frame|bytes|rss|latency|stored-start|slow-walk|known-number|refresh|walk-floor|input-burst BIN [RUNS]";
    let (Some(cmd), Some(bin)) = (args.get(1), args.get(2)) else {
        eprintln!("{usage}");
        std::process::exit(2);
    };
    match cmd.as_str() {
        "first-frame" => first_frame(bin, args.get(3).and_then(|r| r.parse().ok()).unwrap_or(7)),
        "bytes" => bytes(bin),
        "rss" => rss(bin),
        "latency" => latency(bin),
        "slow-walk" => slow_walk::slow_walk(
            bin,
            args.get(3).and_then(|r| r.parse().ok()).unwrap_or(50),
            Duration::from_millis(args.get(4).and_then(|r| r.parse().ok()).unwrap_or(500)),
        ),
        "known-number" => {
            known_number::known_number(bin, args.get(3).and_then(|r| r.parse().ok()).unwrap_or(7))
        }
        "stored-start" => stored_start(bin, args.get(3).and_then(|r| r.parse().ok()).unwrap_or(7)),
        "refresh" => refresh::refresh(bin),
        "input-burst" => {
            input_burst::input_burst(bin, args.get(3).and_then(|r| r.parse().ok()).unwrap_or(200))
        }
        "walk-floor" => {
            refresh::walk_floor(bin, args.get(3).and_then(|r| r.parse().ok()).unwrap_or(100))
        }
        _ => {
            eprintln!("{usage}");
            std::process::exit(2);
        }
    }
}
