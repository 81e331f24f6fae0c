//! `pty_probe slow-walk BIN [MOVES] [PACE_MS]`: a walk down the list at a
//! reading pace against an in-process sandbox, counting what is read ahead
//! and what opening a task then costs (see the usage at the top of
//! `pty_probe.rs`).

use super::{
    first_frame_complete, local_sandbox, median, open_timed, selected_number, snippet, Probe,
};
use std::time::{Duration, Instant};

/// Rows the walk may have loaded beyond the cursor (the page fetched ahead).
const AHEAD_ROWS: usize = 50;

pub fn slow_walk(bin: &str, moves: usize, pace: Duration) {
    use std::collections::HashMap;
    use std::sync::atomic::{AtomicU64, Ordering};
    use std::sync::Arc;
    use taskdeck::api::{ApiKey, Client, ClientConfig, TaskQuery};
    const KEY: &str = "demo-alice-acme";
    let (rt, sb) = local_sandbox(2000);
    // A proxy in front of it: every connection taskdeck opens is counted.
    // Those that open with the HTTP/2 preface (`PRI`) are counted apart.
    let conns = Arc::new(AtomicU64::new(0));
    let h2_conns = Arc::new(AtomicU64::new(0));
    let listener = rt
        .block_on(tokio::net::TcpListener::bind("127.0.0.1:0"))
        .unwrap();
    let proxy = format!("http://{}", listener.local_addr().unwrap());
    let (target, counted, h2_counted) = (sb.addr, conns.clone(), h2_conns.clone());
    rt.spawn(async move {
        use tokio::io::{AsyncReadExt, AsyncWriteExt};
        while let Ok((mut inbound, _)) = listener.accept().await {
            counted.fetch_add(1, Ordering::SeqCst);
            let h2_counted = h2_counted.clone();
            tokio::spawn(async move {
                let mut head = [0u8; 3];
                if inbound.read_exact(&mut head).await.is_err() {
                    return;
                }
                if &head == b"PRI" {
                    h2_counted.fetch_add(1, Ordering::SeqCst);
                }
                if let Ok(mut out) = tokio::net::TcpStream::connect(target).await {
                    if out.write_all(&head).await.is_ok() {
                        let _ = tokio::io::copy_bidirectional(&mut inbound, &mut out).await;
                    }
                }
            });
        }
    });
    // What each task's newest comment says (the walk's order: the first
    // pages of the default list, 50 a page as taskdeck asks; 12 pages, for
    // the `:open #N` targets on 5 pages of the search's walk below).
    let client = Client::new(ClientConfig::new(sb.base_url(), ApiKey::new(KEY))).unwrap();
    let (order, ids, latest) = rt.block_on(async {
        let mut order = Vec::new();
        let mut ids = Vec::new();
        let mut cursor: Option<String> = None;
        for _ in 0..12 {
            let page = client
                .list_tasks(&TaskQuery::default(), 50, cursor.as_deref())
                .await
                .unwrap();
            for t in page.items.iter().filter_map(|i| i.task()) {
                order.push(t.label().split(' ').next().unwrap_or("").to_string());
                ids.push(t.id.as_str().to_string());
            }
            match page.cursor {
                Some(c) => cursor = Some(c),
                None => break,
            }
        }
        let mut latest = HashMap::new();
        for (n, id) in order.iter().zip(&ids) {
            let mut v = client.list_comments(id).await.unwrap_or_default();
            v.sort_by(|a, b| a.created_at.cmp(&b.created_at));
            let shown = match v.last() {
                Some(c) => snippet(c.content.raw()),
                None => "no comments yet".to_string(),
            };
            latest.insert(n.clone(), shown);
        }
        (order, ids, latest)
    });
    sb.set_faults("delay=150".parse().unwrap());
    let state = tempfile::tempdir().unwrap();
    std::env::set_var("TASKDECK_BASE_URL", &proxy);
    std::env::set_var("TASKDECK_API_KEY", KEY);
    std::env::set_var("XDG_STATE_HOME", state.path().join("state"));
    std::env::set_var("XDG_CACHE_HOME", state.path().join("cache"));
    let mut p = Probe::spawn(bin, 50, 200);
    p.wait_for(Duration::from_secs(30), first_frame_complete)
        .expect("first frame");
    // The Comments tab, focus back on the list.
    p.send("]");
    p.settle(Duration::from_millis(100), Duration::from_secs(1));
    p.send("\x1b");
    let shows = |n: &str, s: &vt100::Screen| {
        let text = s.contents();
        selected_number(s).as_deref() == Some(n)
            && !text.contains("loading comments")
            && latest.get(n).is_some_and(|w| text.contains(w.as_str()))
    };
    let first = order[0].clone();
    if p.wait_for(Duration::from_secs(10), |s| shows(&first, s))
        .is_none()
    {
        eprintln!(
            "{first}'s comments never shown ({:?}):\n{}",
            latest.get(&first),
            p.rows().join("\n")
        );
        std::process::exit(1);
    }
    p.settle(Duration::from_millis(1000), Duration::from_secs(3));
    sb.clear_requests();
    let conns_before = conns.load(Ordering::SeqCst);
    let mut ms = Vec::new();
    let mut missed = Vec::new();
    for want in order.iter().take(moves + 1).skip(1) {
        let want = want.clone();
        let sent = Instant::now();
        p.send("j");
        match p.wait_for(pace, |s| shows(&want, s)) {
            Some(at) => ms.push((at - sent).as_secs_f64() * 1000.0),
            None => {
                missed.push(want.clone());
                ms.push(f64::INFINITY);
            }
        }
        if let Some(left) = pace.checked_sub(sent.elapsed()) {
            p.settle(left, left);
        }
    }
    p.settle(Duration::from_millis(600), Duration::from_secs(3));
    let walk_reqs = sb.requests().len();
    let walk_conns = conns.load(Ordering::SeqCst) - conns_before;
    let within = |limit: f64| ms.iter().filter(|m| **m <= limit).count();
    let mut sorted = ms.clone();
    sorted.sort_by(|a, b| a.partial_cmp(b).unwrap());
    println!(
        "walk_samples_ms={:?}",
        ms.iter()
            .map(|m| (m * 10.0).round() / 10.0)
            .collect::<Vec<_>>()
    );
    println!("walk_moves={moves}");
    println!("walk_rows_known={}", order.len());
    println!("walk_pace_ms={}", pace.as_millis());
    println!("walk_key_to_comments_ms={:.1}", median(&mut ms.clone()));
    println!(
        "walk_key_to_comments_max_ms={:.1}",
        sorted.last().copied().unwrap_or(f64::NAN)
    );
    println!("walk_within_50ms={}", within(50.0));
    println!("walk_missed={}", missed.join(","));
    println!("walk_requests={walk_reqs}");
    println!(
        "walk_requests_per_move={:.2}",
        walk_reqs as f64 / moves as f64
    );
    // The least a client can read to show each newly current task whole:
    // the task, its comments, its thread and its subtasks, once.
    println!("walk_requests_minimum={}", 4 * moves);
    println!("walk_connections={walk_conns}");
    // `:open #N` of a task far down the list, not loaded, nor known to the
    // store: every row a search-and-walk reads goes into the store's number
    // index (`known-number` measures those), so each target is on a later
    // page of that walk (100 rows a page) than the one before — its rows
    // were never read — and whose newest comment is not on screen before
    // (a task without comments would read as shown at once).
    let mut open_ms = Vec::new();
    let mut walked = 0;
    for page in 1..=5usize {
        let i = (page * 100..page * 100 + 100)
            .filter(|i| *i > moves + AHEAD_ROWS + 50 && *i < order.len())
            .find(|i| {
                let w = &latest[&order[*i]];
                w != "no comments yet" && !p.parser.screen().contents().contains(w.as_str())
            })
            .expect("a target on every page");
        sb.clear_requests();
        let want = order[i].clone();
        let shown = latest[&want].clone();
        open_ms.push(open_timed(&mut p, &want, &shown));
        // It was looked for on the service (not known): the walk went.
        walked += usize::from(sb.requests().iter().any(|r| {
            let q = r.query.as_deref().unwrap_or("");
            r.path.ends_with("/api/v1/tasks") && q.contains("limit=100") && !q.contains("query=")
        }));
        if std::env::var_os("PROBE_DEBUG").is_some() {
            for r in sb.requests() {
                eprintln!("{} {} {:?}", r.method, r.path, r.query);
            }
        }
        p.settle(Duration::from_millis(500), Duration::from_secs(3));
    }
    let max = open_ms.iter().cloned().fold(0.0, f64::max);
    println!("open_samples_ms={open_ms:?}");
    println!("open_to_comments_ms={:.1}", median(&mut open_ms));
    println!("open_to_comments_max_ms={max:.1}");
    println!("open_walked={walked}");
    // Targets far down the list for `:open UUID`.
    let targets: Vec<usize> = (0..order.len())
        .rev()
        .filter(|i| *i > moves + AHEAD_ROWS + 50 && latest[&order[*i]] != "no comments yet")
        .step_by(3)
        .take(40)
        .collect();
    let mut targets = targets.into_iter();
    // A target whose newest comment reads like what is on screen already
    // could not be told apart: the next one is taken.
    let mut next_target = |p: &Probe| loop {
        let i = targets.next().expect("enough targets");
        if !p
            .parser
            .screen()
            .contents()
            .contains(latest[&order[i]].as_str())
        {
            return i;
        }
    };
    // `:open UUID` of a task not loaded (a link, another tool's output).
    let mut id_ms = Vec::new();
    for _ in 0..5 {
        let i = next_target(&p);
        let shown = latest[&order[i]].clone();
        id_ms.push(open_timed(&mut p, &ids[i], &shown));
        p.settle(Duration::from_millis(500), Duration::from_secs(3));
    }
    let max = id_ms.iter().cloned().fold(0.0, f64::max);
    println!("open_id_samples_ms={id_ms:?}");
    println!("open_id_to_comments_ms={:.1}", median(&mut id_ms));
    println!("open_id_to_comments_max_ms={max:.1}");
    println!("session_connections={}", conns.load(Ordering::SeqCst));
    println!("session_connections_h2={}", h2_conns.load(Ordering::SeqCst));
    p.finish();
}
