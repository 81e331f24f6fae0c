//! Everything seen, searchable offline (#36 §2): a store of 100,000 tasks
//! and 200,000 comments (two on every task). Measured: a search at each
//! key of a word typed (`z`, `ze`, … `zebra`, and a common word), a
//! 28 KB query (cut to 32 words), the
//! index's size per task, and storing a page of 100 tasks (new versions
//! of stored ones) — also on a store of 5,000 tasks (the default cap).
//! It uses only what `main` had too (`Db::open`, `put_tasks`, `put_tab`,
//! `search`), so the same file measures the code before the index grew.
//!
//! `cargo bench --bench search`; TASKDECK_BENCH_TASKS sets the size.

use criterion::{criterion_group, criterion_main, BatchSize, Criterion};
use std::hint::black_box;
use std::time::Duration;
use taskdeck::store::{Db, StoredTask};

const WORDS: &[&str] = &[
    "invoice",
    "contract",
    "review",
    "merger",
    "filing",
    "deadline",
    "client",
    "board",
    "minutes",
    "payroll",
    "audit",
    "tax",
    "lease",
    "renewal",
    "share",
    "purchase",
    "draft",
    "signature",
    "memo",
    "court",
    "hearing",
    "brief",
    "motion",
    "discovery",
    "settlement",
];

fn text(seed: usize, n: usize) -> String {
    (0..n)
        .map(|i| WORDS[(seed * 31 + i * 7 + i * i) % WORDS.len()])
        .collect::<Vec<_>>()
        .join(" ")
}

fn stamp(v: usize) -> String {
    let (d, h, m, s) = (1 + v / 86_400, (v / 3600) % 24, (v / 60) % 60, v % 60);
    format!("2026-01-{d:02}T{h:02}:{m:02}:{s:02}Z")
}

fn task(i: usize, version: usize) -> StoredTask {
    let title = format!(
        "{} {} {}",
        text(i, 4),
        i,
        if i % 1000 == 7 { "zebra" } else { "" }
    );
    let json = serde_json::json!({
        "id": format!("t{i}"), "task_number": i, "display_id": format!("#{i}"),
        "title": title, "description": text(i + 1, 30),
        "additional_context": text(i + 2, 12), "tags": ["legal", "q4"],
        "assigned_to": {"id": "u1", "name": "Dana Scully", "email": "dana@x.test"},
        "creator": {"id": "u2", "name": "Fox Mulder", "email": "fox@x.test"},
        "status": "in_progress", "priority": "high",
        "updated_at": stamp(version),
    });
    StoredTask {
        id: format!("t{i}"),
        number: Some(i as i64),
        title,
        updated_at: Some(stamp(version)),
        json: json.to_string(),
        full: true,
    }
}

fn comments(i: usize) -> String {
    let v: Vec<_> = (0..2)
        .map(|k| {
            let extra = if (i + k) % 500 == 3 {
                " the zebra memo"
            } else {
                ""
            };
            serde_json::json!({"id": format!("c{i}-{k}"), "task_id": format!("t{i}"),
                "content": format!("{}{extra}", text(i * 2 + k, 25)),
                "author": {"id": "u3", "name": "Bob Okafor", "email": "bob@x.test"}})
        })
        .collect();
    serde_json::to_string(&v).unwrap()
}

/// A store of `n` tasks with two comments each.
fn filled(dir: &std::path::Path, n: usize) -> Db {
    let path = dir.join(format!("bench-{n}.sqlite3"));
    let (mut db, _) = Db::open(&path).unwrap();
    let t0 = std::time::Instant::now();
    for start in (0..n).step_by(1000) {
        let page: Vec<StoredTask> = (start..(start + 1000).min(n)).map(|i| task(i, 0)).collect();
        db.put_tasks(&page, 1).unwrap();
    }
    for i in 0..n {
        db.put_tab(&format!("t{i}"), "comments", &comments(i), 1)
            .unwrap();
    }
    eprintln!("filled {n} tasks, {} comments in {:?}", 2 * n, t0.elapsed());
    let conn = rusqlite::Connection::open(&path).unwrap();
    let bytes = |like: &str| -> i64 {
        conn.query_row(
            &format!("SELECT coalesce(sum(pgsize),0) FROM dbstat WHERE {like}"),
            [],
            |r| r.get(0),
        )
        .unwrap()
    };
    let index = bytes("name LIKE 'words%' OR name LIKE 'tasks_fts%'");
    let all = bytes("1");
    eprintln!(
        "store {:.1} MB; search index {:.1} MB = {} bytes per task (with its 2 comments)",
        all as f64 / 1e6,
        index as f64 / 1e6,
        index / n as i64
    );
    db
}

fn bench(c: &mut Criterion) {
    let n: usize = std::env::var("TASKDECK_BENCH_TASKS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(100_000);
    let dir = tempfile::tempdir().unwrap();
    let db = filled(dir.path(), n);
    let mut g = c.benchmark_group(format!("search_{n}"));
    g.sample_size(20).measurement_time(Duration::from_secs(3));
    for q in [
        "z",
        "ze",
        "zeb",
        "zebr",
        "zebra",
        "zebra memo",
        "memo",
        "c",
        "dana",
    ] {
        g.bench_function(format!("keystroke {q:?}"), |b| {
            b.iter(|| black_box(db.search(q, 50).unwrap()))
        });
    }
    // A pasted page (#42 §5: 52 s against 3,000 tasks before queries
    // were cut at 32 words and 512 bytes).
    let long = "review ".repeat(4000);
    g.bench_function("a 28 KB query (review × 4000)", |b| {
        b.iter(|| black_box(db.search(&long, 50).unwrap()))
    });
    g.finish();
    let mut db = db;
    store_page(c, n, &mut db);
    let mut small = filled(dir.path(), 5_000);
    store_page(c, 5_000, &mut small);
}

/// Storing a page of 100 tasks, each a newer version of a stored one.
fn store_page(c: &mut Criterion, n: usize, db: &mut Db) {
    let mut g = c.benchmark_group(format!("store_{n}"));
    g.sample_size(20).measurement_time(Duration::from_secs(5));
    let mut version = 1usize;
    g.bench_function("a page of 100 tasks", |b| {
        b.iter_batched(
            || {
                version += 1;
                let start = (version * 100) % n.saturating_sub(100).max(1);
                (start..start + 100)
                    .map(|i| task(i, version))
                    .collect::<Vec<_>>()
            },
            |page| db.put_tasks(&page, 2).unwrap(),
            BatchSize::SmallInput,
        )
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
