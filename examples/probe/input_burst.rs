//! `pty_probe input-burst BIN [KEYS]` (issue 41 §6): key → frame while a
//! burst of 2,000 mouse drag reports and a slow store are in flight.
//!
//! Against an in-process sandbox, with `mouse = true`. Another connection
//! holds `BEGIN EXCLUSIVE` on taskdeck's store for 2 s at a time (10 ms
//! free between), so every store write waits; a refresh (`r`) every 10 keys
//! keeps store work queued behind the lock. For each key, one writer thread
//! writes 2,000 SGR reports of a button-1 drag (23,500 B, one write), then
//! `j` or `k` (a write of its own). Two figures per key: from the moment
//! the key's write starts (key → frame; the burst's tail may still be
//! unread), and from the moment the burst's write starts (burst + key →
//! frame, which includes reading the whole burst). The frame is the
//! moment the selection mark shows on its new row.
//!
//! For a baseline on the same machine at the same moment:
//! `PROBE_REPORTS=0` writes no burst, `PROBE_LOCK=0` leaves the store free.

use super::{first_frame_complete, selected_row, Probe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::channel;
use std::sync::Arc;
use std::time::{Duration, Instant};

const HOLD: Duration = Duration::from_secs(2);

/// `n` SGR reports of a drag with button 1 held (as in tests/e2e_freeze.rs).
fn drag_burst(n: usize) -> Vec<u8> {
    (0..n)
        .map(|i| format!("\x1b[<32;{};{}M", 10 + i % 60, 5 + i % 20))
        .collect::<String>()
        .into_bytes()
}

/// The store's database under `dir` (taskdeck's XDG_CACHE_HOME).
fn find_store(dir: &std::path::Path) -> Option<std::path::PathBuf> {
    for e in std::fs::read_dir(dir).ok()?.flatten() {
        let p = e.path();
        if p.is_dir() {
            if let Some(found) = find_store(&p) {
                return Some(found);
            }
        } else if p.extension().is_some_and(|x| x == "sqlite3") {
            return Some(p);
        }
    }
    None
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let rank = ((p / 100.0) * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

fn report(name: &str, ms: &[f64]) {
    let mut s = ms.to_vec();
    s.sort_by(|a, b| a.partial_cmp(b).unwrap());
    println!("{name}_p50_ms={:.1}", percentile(&s, 50.0));
    println!("{name}_p99_ms={:.1}", percentile(&s, 99.0));
    println!("{name}_max_ms={:.1}", s.last().copied().unwrap_or(f64::NAN));
}

pub fn input_burst(bin: &str, keys: usize) {
    let reports: usize = std::env::var("PROBE_REPORTS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(2000);
    let lock = !matches!(std::env::var("PROBE_LOCK").as_deref(), Ok("0"));
    const KEY: &str = "demo-alice-acme";
    let (_rt, sb) = super::local_sandbox(500);
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("config.toml");
    std::fs::write(&config, "mouse = true\nrefresh_secs = 0\n").unwrap();
    std::env::set_var("PROBE_CONFIG", &config);
    std::env::set_var("TASKDECK_BASE_URL", sb.base_url());
    std::env::set_var("TASKDECK_API_KEY", KEY);
    std::env::set_var("XDG_STATE_HOME", dir.path().join("state"));
    std::env::set_var("XDG_CACHE_HOME", dir.path().join("cache"));
    let mut p = Probe::spawn(bin, 50, 200);
    p.wait_for(Duration::from_secs(30), first_frame_complete)
        .expect("first frame");
    p.settle(Duration::from_millis(500), Duration::from_secs(5));
    let store = find_store(&dir.path().join("cache")).expect("taskdeck's store");

    // The slow store: held 2 s at a time by another connection.
    let stop = Arc::new(AtomicBool::new(false));
    let (locked_tx, locked_rx) = channel();
    let locker = {
        let stop = stop.clone();
        std::thread::spawn(move || {
            let c = rusqlite::Connection::open(&store).unwrap();
            c.busy_timeout(Duration::from_secs(10)).unwrap();
            let mut held = Duration::ZERO;
            let mut first = true;
            if !lock {
                let _ = locked_tx.send(());
                return held;
            }
            while !stop.load(Ordering::SeqCst) {
                c.execute_batch("BEGIN EXCLUSIVE;").unwrap();
                if first {
                    let _ = locked_tx.send(());
                    first = false;
                }
                let t = Instant::now();
                while t.elapsed() < HOLD && !stop.load(Ordering::SeqCst) {
                    std::thread::sleep(Duration::from_millis(20));
                }
                held += t.elapsed();
                c.execute_batch("COMMIT;").unwrap();
                std::thread::sleep(Duration::from_millis(10));
            }
            held
        })
    };
    locked_rx.recv().unwrap();

    // One writer: the burst, then the key; it says when each write began.
    let writer = std::mem::replace(&mut p.writer, Box::new(std::io::sink()));
    let (job_tx, job_rx) = channel::<&'static str>();
    let (at_tx, at_rx) = channel::<(Instant, Instant)>();
    let burst = drag_burst(reports);
    let writing = std::thread::spawn(move || {
        let mut w = writer;
        for key in job_rx {
            let burst_at = Instant::now();
            w.write_all(&burst).unwrap();
            w.flush().unwrap();
            let key_at = Instant::now();
            w.write_all(key.as_bytes()).unwrap();
            w.flush().unwrap();
            let _ = at_tx.send((burst_at, key_at));
        }
        w
    });

    let (mut from_key, mut from_burst) = (Vec::new(), Vec::new());
    let mut refreshes = 0;
    for i in 0..keys {
        if i % 10 == 5 {
            job_tx.send("r").unwrap();
            at_rx.recv().unwrap();
            refreshes += 1;
            p.settle(Duration::from_millis(50), Duration::from_millis(300));
        }
        let before = selected_row(p.parser.screen()).expect("a selected row");
        let (key, want) = if i % 2 == 0 {
            ("j", before + 1)
        } else {
            ("k", before - 1)
        };
        job_tx.send(key).unwrap();
        let shown = p.wait_for(Duration::from_secs(10), |s| selected_row(s) == Some(want));
        let (burst_at, key_at) = at_rx.recv().unwrap();
        match shown {
            Some(at) => {
                from_key.push(at.saturating_duration_since(key_at).as_secs_f64() * 1000.0);
                from_burst.push((at - burst_at).as_secs_f64() * 1000.0);
            }
            None => {
                eprintln!("no frame after {key:?} (key {i}):\n{}", p.rows().join("\n"));
                std::process::exit(1);
            }
        }
        p.settle(Duration::from_millis(30), Duration::from_millis(200));
    }
    drop(job_tx);
    p.writer = writing.join().unwrap();
    stop.store(true, Ordering::SeqCst);
    let held = locker.join().unwrap();
    let alive = matches!(p.child.try_wait(), Ok(None));

    println!("input_burst_keys={keys}");
    println!("input_burst_reports={reports}");
    println!("input_burst_bytes={}", drag_burst(reports).len());
    println!("input_burst_refreshes={refreshes}");
    println!("input_burst_store_locked_s={:.1}", held.as_secs_f64());
    report("input_burst_key_to_frame", &from_key);
    report("input_burst_burst_to_frame", &from_burst);
    println!("input_burst_alive={alive}");
    p.send("q");
    p.settle(Duration::from_millis(300), Duration::from_secs(10));
    p.finish();
}
