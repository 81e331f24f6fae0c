//! Loading is linear (#24 §1): 1,000 pages of 100 rows fed to the list
//! reducer the way `G` walks them (the cursor following the bottom, the
//! read-ahead planned after each answer); the first 100 pages and the last
//! 100 must cost about the same.

mod support;

use criterion::{criterion_group, criterion_main, Criterion, SamplingMode};
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use std::hint::black_box;
use std::time::{Duration, Instant};
use taskdeck::api::{TaskPage, TaskQuery};
use taskdeck::app::state::{ApiRequest, ApiResult, Reply, State};

const PAGES: usize = 1_000;
const PER: usize = 100;

/// Answer the walk's next page with `p`, then plan as the loop does.
fn feed(s: &mut State, p: &TaskPage) {
    let cursor = s.list.cursor.clone();
    let fx = s.on_api(ApiResult {
        ticket: 0,
        req: ApiRequest::ListPage {
            gen: s.list.gen,
            query: TaskQuery::default(),
            limit: PER as u32,
            cursor,
        },
        result: Ok(Reply::Page(p.clone())),
    });
    black_box(fx);
    black_box(s.plan_prefetch());
}

/// A state that walked `pages` with `G` held from the first page on.
fn walked(pages: &[TaskPage]) -> State {
    let mut s = support::fresh_state();
    feed(&mut s, &pages[0]);
    black_box(s.on_key(KeyEvent::new(KeyCode::Char('G'), KeyModifiers::NONE)));
    for p in &pages[1..] {
        feed(&mut s, p);
    }
    s
}

fn walk(c: &mut Criterion) {
    let base = support::sandbox_items(1000);
    let items = support::task_jsons(&base, PAGES * PER);
    let pages: Vec<TaskPage> = items
        .chunks(PER)
        .enumerate()
        .map(|(i, chunk)| support::page(chunk, (i + 1 < PAGES).then(|| format!("c{}", i + 1))))
        .collect();
    let mut g = c.benchmark_group("walk_1000_pages_of_100");
    g.sample_size(10)
        .sampling_mode(SamplingMode::Flat)
        .warm_up_time(Duration::from_millis(100))
        .measurement_time(Duration::from_secs(5));
    g.bench_function("first_100_pages", |b| {
        b.iter_custom(|iters| {
            let mut total = Duration::ZERO;
            for _ in 0..iters {
                let t = Instant::now();
                let s = walked(&pages[..100]);
                total += t.elapsed();
                assert_eq!(s.list.items.len(), 100 * PER);
            }
            total
        })
    });
    g.bench_function("last_100_pages", |b| {
        b.iter_custom(|iters| {
            let mut total = Duration::ZERO;
            for _ in 0..iters {
                let mut s = walked(&pages[..PAGES - 100]);
                let t = Instant::now();
                for p in &pages[PAGES - 100..] {
                    feed(&mut s, p);
                }
                total += t.elapsed();
                assert_eq!(s.list.items.len(), PAGES * PER);
                assert!(s.list.end_reached);
            }
            total
        })
    });
    g.finish();
}

/// A refresh costs the same at any size (#24 §3): one page of the walk
/// asked again and its answer applied, with 10,000 and 100,000 rows
/// loaded (the page in the middle of the list, the cursor on its row).
fn refresh(c: &mut Criterion) {
    let base = support::sandbox_items(1000);
    let mut g = c.benchmark_group("refresh_one_page");
    g.sample_size(30)
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(3));
    for n in [10_000usize, 100_000] {
        let items = support::task_jsons(&base, n);
        let mut s = support::fresh_state();
        support::load(&mut s, &items, PER);
        assert_eq!(s.list.items.len(), n);
        let k = n / PER / 2;
        s.list.selected = k * PER + 3;
        let again = support::page(&items[k * PER..(k + 1) * PER], Some(format!("c{}", k + 1)));
        let asked = s.list.pages[k].cursor.clone();
        g.bench_function(format!("{n}_rows"), |b| {
            b.iter(|| {
                let fx = s.on_api(ApiResult {
                    ticket: 0,
                    req: ApiRequest::RefreshPage {
                        gen: s.list.gen,
                        page: k,
                        query: TaskQuery::default(),
                        limit: PER as u32,
                        cursor: asked.clone(),
                    },
                    result: Ok(Reply::Page(again.clone())),
                });
                black_box(fx);
                black_box(s.plan_prefetch());
            })
        });
        assert_eq!(s.list.items.len(), n, "the list keeps its rows");
    }
    g.finish();
}

criterion_group!(benches, walk, refresh);
criterion_main!(benches);
