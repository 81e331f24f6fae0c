//! `pty_probe known-number BIN [OPENS]`: `:open #N` of tasks listed in an
//! earlier session (known to the store's number index) but not loaded in
//! this one, over the same 150 ms link as `slow-walk`.
//!
//! A first session walks the whole list (`G`), goes back to the top (`g`)
//! and quits. A second session starts (its list refills the 1,000 stored
//! rows of the view) and opens tasks listed past them — rows it never
//! loaded — on the Comments tab: `:open #N` → the task's newest comment on
//! screen. Also printed: the requests each open sent to the list (a search
//! or walk for the number; 0 expected).

use super::{first_frame_complete, median, snippet, Probe};
use std::time::{Duration, Instant};

/// Rows the second session may have loaded: the stored view's 1,000 rows
/// refilled, and a page more.
const LOADED_ROWS: usize = 1000 + 50;

pub fn known_number(bin: &str, opens: usize) {
    use taskdeck::api::{ApiKey, Client, ClientConfig, TaskQuery};
    const KEY: &str = "demo-alice-acme";
    let (rt, sb) = super::local_sandbox(3000);
    let client = Client::new(ClientConfig::new(sb.base_url(), ApiKey::new(KEY))).unwrap();
    // The list's order, and the newest comment of the rows past those the
    // second session loads — but for those the first session's cursor
    // rested near and read ahead whole (tabs stored, shown without a round
    // trip): the last few, and the last rows of each page as `G` followed
    // the pages down (50 a page).
    let (order, latest) = rt.block_on(async {
        let mut order = Vec::new();
        let mut cursor: Option<String> = None;
        loop {
            let page = client
                .list_tasks(&TaskQuery::default(), 100, cursor.as_deref())
                .await
                .unwrap();
            for t in page.items.iter().filter_map(|i| i.task()) {
                let label = t.label().split(' ').next().unwrap_or("").to_string();
                order.push((label, t.id.as_str().to_string()));
            }
            match page.cursor {
                Some(c) => cursor = Some(c),
                None => break,
            }
        }
        let mut latest = Vec::new();
        let far = order.len().saturating_sub(5);
        for (i, (label, id)) in order.iter().enumerate().take(far).skip(LOADED_ROWS + 20) {
            if !(5..45).contains(&(i % 50)) {
                continue;
            }
            let mut v = client.list_comments(id).await.unwrap_or_default();
            v.sort_by(|a, b| a.created_at.cmp(&b.created_at));
            if let Some(c) = v.last() {
                latest.push((label.clone(), snippet(c.content.raw())));
            }
        }
        (order, latest)
    });
    assert!(
        latest.len() >= opens * 3,
        "{} rows listed, {} candidates",
        order.len(),
        latest.len()
    );
    sb.set_faults("delay=150".parse().unwrap());
    let state = tempfile::tempdir().unwrap();
    std::env::set_var("TASKDECK_BASE_URL", sb.base_url());
    std::env::set_var("TASKDECK_API_KEY", KEY);
    std::env::set_var("XDG_STATE_HOME", state.path().join("state"));
    std::env::set_var("XDG_CACHE_HOME", state.path().join("cache"));
    // First session: the whole list is walked, then the top made current.
    let mut p = Probe::spawn(bin, 50, 200);
    p.wait_for(Duration::from_secs(30), first_frame_complete)
        .expect("first frame");
    let walk = Instant::now();
    p.send("G");
    let last = order.last().unwrap().0.clone();
    p.wait_for(Duration::from_secs(120), |s| {
        s.contents().contains(&format!("> {last} "))
    })
    .expect("the end of the list");
    println!("known_first_session_walk_ms={}", walk.elapsed().as_millis());
    p.send("g");
    p.settle(Duration::from_millis(1000), Duration::from_secs(5));
    p.send("q");
    p.settle(Duration::from_millis(300), Duration::from_secs(5));
    p.finish();
    // Second session: the Comments tab, focus back on the list, the
    // refill of the stored rows let finish.
    let mut p = Probe::spawn(bin, 50, 200);
    p.wait_for(Duration::from_secs(30), first_frame_complete)
        .expect("first frame");
    p.send("]");
    p.settle(Duration::from_millis(100), Duration::from_secs(1));
    p.send("\x1b");
    p.settle(Duration::from_millis(1500), Duration::from_secs(20));
    let mut ms = Vec::new();
    let mut looked_for = 0;
    let mut candidates = latest.iter().step_by(3);
    for _ in 0..opens {
        // A target whose newest comment reads like what is on screen
        // already could not be told apart: the next one is taken.
        let (want, shown) = loop {
            let (want, shown) = candidates.next().expect("enough targets");
            if !p.parser.screen().contents().contains(shown.as_str()) {
                break (want.clone(), shown.clone());
            }
        };
        sb.clear_requests();
        ms.push(super::open_timed(&mut p, &want, &shown));
        p.settle(Duration::from_millis(500), Duration::from_secs(3));
        looked_for += sb
            .requests()
            .iter()
            .filter(|r| {
                let q = r.query.as_deref().unwrap_or("");
                r.path.ends_with("/api/v1/tasks")
                    && (q.contains("query=") || q.contains("limit=100"))
            })
            .count();
        if std::env::var_os("PROBE_DEBUG").is_some() {
            for r in sb.requests() {
                eprintln!("{} {} {:?}", r.method, r.path, r.query);
            }
        }
    }
    let max = ms.iter().cloned().fold(0.0, f64::max);
    println!("known_rows_listed={}", order.len());
    println!("known_open_samples_ms={ms:?}");
    println!("known_open_to_comments_ms={:.1}", median(&mut ms));
    println!("known_open_to_comments_max_ms={max:.1}");
    println!("known_open_list_requests={looked_for}");
    p.finish();
}
