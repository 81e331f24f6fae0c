//! `pty_probe refresh BIN`: list requests (and taskdeck's CPU) per periodic
//! refresh with one page loaded and with every task loaded, against an
//! in-process sandbox with 19,400 tasks (Alice sees about 10,000), or
//! `PROBE_TASKS` (194000: about 100,000).
//!
//! `pty_probe walk-floor BIN [LIMIT]`: the fair floor for `taskdeck tasks
//! --all --json`: one process, one keep-alive connection, walking the
//! same pages of the service at TASKDECK_BASE_URL (reading each body and
//! its cursor), against the CLI walking them; median of 5 each.

use super::{first_frame_complete, median, proc_status, Probe};
use std::time::{Duration, Instant};
use taskdeck::sandbox::Sandbox;

const KEY: &str = "demo-alice-acme";
const PERIOD: Duration = Duration::from_secs(2);
const PERIODS: u32 = 5;

/// User + system CPU time of `pid` so far, in milliseconds.
fn cpu_ms(pid: u32) -> f64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    // Fields after the command (which may hold spaces) start after ')'.
    let rest = stat.rsplit_once(')').map(|(_, r)| r).unwrap_or("");
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks = |i: usize| f.get(i).and_then(|v| v.parse::<f64>().ok()).unwrap_or(0.0);
    // utime and stime are fields 14 and 15 (index 11 and 12 after ')').
    let hz = 100.0;
    (ticks(11) + ticks(12)) * 1000.0 / hz
}

/// List requests the service saw and taskdeck's CPU over `PERIODS` periods.
fn window(sb: &Sandbox, p: &mut Probe) -> (f64, f64) {
    sb.clear_requests();
    let cpu0 = cpu_ms(p.pid());
    p.settle(PERIOD * PERIODS, PERIOD * PERIODS);
    let lists = sb
        .requests()
        .iter()
        .filter(|r| r.method == "GET" && r.path.ends_with("/tasks"))
        .count();
    (
        lists as f64 / PERIODS as f64,
        (cpu_ms(p.pid()) - cpu0) / PERIODS as f64,
    )
}

pub fn refresh(bin: &str) {
    // The runtime serves the sandbox: kept to the end.
    let tasks = std::env::var("PROBE_TASKS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(19_400);
    let (_rt, sb) = super::local_sandbox(tasks);
    let dir = tempfile::tempdir().unwrap();
    let cfg = dir.path().join("config.toml");
    std::fs::write(
        &cfg,
        format!(
            "refresh_secs = {}\nprefetch = false\ncache = false\n",
            PERIOD.as_secs()
        ),
    )
    .unwrap();
    std::env::set_var("TASKDECK_BASE_URL", sb.base_url());
    std::env::set_var("TASKDECK_API_KEY", KEY);
    std::env::set_var("PROBE_CONFIG", &cfg);
    std::env::set_var("XDG_STATE_HOME", dir.path().join("state"));
    std::env::set_var("XDG_CACHE_HOME", dir.path().join("cache"));
    let mut p = Probe::spawn(bin, 50, 200);
    p.wait_for(Duration::from_secs(30), first_frame_complete)
        .expect("first frame");
    p.settle(Duration::from_millis(500), Duration::from_secs(3));
    let (one_reqs, one_cpu) = window(&sb, &mut p);
    // Every task loaded.
    super::load_all(&mut p);
    let loaded: usize = p
        .rows()
        .into_iter()
        .find_map(|r| {
            r.split('|')
                .find(|part| part.contains("(all)"))
                .and_then(|part| part.split_whitespace().next()?.parse().ok())
        })
        .unwrap_or(0);
    p.settle(Duration::from_millis(500), Duration::from_secs(3));
    let (all_reqs, all_cpu) = window(&sb, &mut p);
    println!("refresh_period_s={}", PERIOD.as_secs());
    println!("refresh_rows_all={loaded}");
    println!("refresh_requests_one_page={one_reqs:.1}");
    println!("refresh_requests_all={all_reqs:.1}");
    println!("refresh_cpu_ms_one_page={one_cpu:.1}");
    println!("refresh_cpu_ms_all={all_cpu:.1}");
    println!(
        "refresh_rss_kb={}",
        proc_status(p.pid(), "VmRSS:").unwrap_or(0)
    );
    p.finish();
}

pub fn walk_floor(bin: &str, limit: u32) {
    let base = std::env::var("TASKDECK_BASE_URL").expect("TASKDECK_BASE_URL");
    let key = std::env::var("TASKDECK_API_KEY").expect("TASKDECK_API_KEY");
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let client = reqwest::Client::new();
    let url = format!("{}/api/v1/tasks", base.trim_end_matches('/'));
    let walk = || async {
        let mut cursor: Option<String> = None;
        let (mut pages, mut bytes) = (0usize, 0usize);
        loop {
            let mut q = vec![("limit", limit.to_string())];
            if let Some(c) = &cursor {
                q.push(("cursor", c.clone()));
            }
            let body = client
                .get(&url)
                .bearer_auth(&key)
                .query(&q)
                .send()
                .await
                .unwrap()
                .bytes()
                .await
                .unwrap();
            pages += 1;
            bytes += body.len();
            let v: serde_json::Value = serde_json::from_slice(&body).unwrap();
            match v.get("cursor").and_then(|c| c.as_str()) {
                Some(c) => cursor = Some(c.to_string()),
                None => break,
            }
        }
        (pages, bytes)
    };
    let (mut floor, mut cli) = (Vec::new(), Vec::new());
    let mut pages = 0;
    for _ in 0..5 {
        let t0 = Instant::now();
        pages = rt.block_on(walk()).0;
        floor.push(t0.elapsed().as_secs_f64() * 1000.0);
        let t0 = Instant::now();
        let out = std::process::Command::new(bin)
            .args(["tasks", "--all", "--json", "--limit", &limit.to_string()])
            .output()
            .unwrap();
        assert!(out.status.success(), "taskdeck tasks failed");
        cli.push(t0.elapsed().as_secs_f64() * 1000.0);
    }
    println!("floor_pages={pages}");
    println!("floor_keepalive_ms={:.1}", median(&mut floor));
    println!("floor_cli_ms={:.1}", median(&mut cli));
}
