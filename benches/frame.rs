//! One full frame (list + open detail, 200×60) at 100, 10,000, 50,000 and
//! 100,000 loaded tasks; a key (`j`, then `k`: the reducer and the frame it
//! draws) at the same sizes; and applying a page of 100 tasks to the
//! state.

mod support;

use criterion::{criterion_group, criterion_main, BatchSize, Criterion};
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::backend::TestBackend;
use ratatui::Terminal;
use std::hint::black_box;
use std::time::Duration;
use taskdeck::ui::Theme;

fn frame(c: &mut Criterion) {
    let base = support::sandbox_items(1000);
    let theme = Theme::dark();
    let mut g = c.benchmark_group("frame_200x60");
    g.sample_size(60)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(3));
    for n in [100usize, 10_000, 50_000, 100_000] {
        let items = support::task_jsons(&base, n);
        let mut s = support::fresh_state();
        support::load(&mut s, &items, 100);
        assert_eq!(s.list.items.len(), n);
        // Somewhere in the middle of the list, with the detail open.
        let target = n / 2;
        let mut term = Terminal::new(TestBackend::new(200, 60)).unwrap();
        term.draw(|f| taskdeck::ui::draw(f, &mut s, &theme))
            .unwrap();
        s.list.selected = target;
        let _ = s.on_key(KeyEvent::new(KeyCode::Enter, KeyModifiers::NONE));
        assert!(s.detail.is_some(), "Enter opens the detail");
        // Back to the list, the detail stays open beside it.
        s.focus = taskdeck::app::state::Focus::List;
        s.list.loading = false;
        g.bench_function(format!("{n}_tasks"), |b| {
            let mut flip = false;
            b.iter(|| {
                // Alternate the selection so each frame really changes.
                flip = !flip;
                s.list.selected = if flip { target } else { target + 1 };
                term.draw(|f| taskdeck::ui::draw(f, &mut s, &theme))
                    .unwrap();
                black_box(term.backend());
            })
        });
        // A key as the user presses it: the reducer, then the frame.
        s.list.selected = target;
        g.bench_function(format!("{n}_tasks_key_j_k"), |b| {
            let mut down = false;
            b.iter(|| {
                down = !down;
                let c = if down { 'j' } else { 'k' };
                black_box(s.on_key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE)));
                term.draw(|f| taskdeck::ui::draw(f, &mut s, &theme))
                    .unwrap();
                black_box(term.backend());
            })
        });
    }
    g.finish();
}

fn apply_page(c: &mut Criterion) {
    let base = support::sandbox_items(1000);
    let items = support::task_jsons(&base, 1100);
    let (before, page_items) = items.split_at(1000);
    let mut s0 = support::fresh_state();
    support::load(&mut s0, before, 100);
    let page = support::page(page_items, Some("next".into()));
    let mut g = c.benchmark_group("state");
    g.sample_size(50)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(3));
    g.bench_function("apply_page_100_after_1000", |b| {
        b.iter_batched(
            || {
                let mut s = support::fresh_state();
                support::load(&mut s, before, 100);
                s.list.loading = true;
                (s, page.clone())
            },
            |(mut s, p)| {
                let cursor = s.list.cursor.clone();
                let fx = s.on_api(taskdeck::app::state::ApiResult {
                    ticket: 0,
                    req: taskdeck::app::state::ApiRequest::ListPage {
                        gen: s.list.gen,
                        query: Default::default(),
                        limit: 100,
                        cursor,
                    },
                    result: Ok(taskdeck::app::state::Reply::Page(p)),
                });
                black_box(fx);
                s
            },
            BatchSize::LargeInput,
        )
    });
    g.finish();
}

/// Accessible mode's drawing (#33): the same frame and key at 10,000
/// tasks, drawn as usual and in accessible mode (blank borders, `>` and
/// brackets in the text, the cursor placed on the focus).
fn accessible(c: &mut Criterion) {
    let base = support::sandbox_items(1000);
    let mut g = c.benchmark_group("accessible_200x60");
    g.sample_size(60)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(3));
    let items = support::task_jsons(&base, 10_000);
    for on in [false, true] {
        let mut theme = Theme::dark();
        theme.accessible = on;
        let mut s = support::fresh_state();
        support::load(&mut s, &items, 100);
        let target = 5_000;
        let mut term = Terminal::new(TestBackend::new(200, 60)).unwrap();
        term.draw(|f| taskdeck::ui::draw(f, &mut s, &theme))
            .unwrap();
        s.list.selected = target;
        let _ = s.on_key(KeyEvent::new(KeyCode::Enter, KeyModifiers::NONE));
        s.focus = taskdeck::app::state::Focus::List;
        s.list.loading = false;
        let name = if on { "accessible" } else { "usual" };
        g.bench_function(format!("{name}_frame"), |b| {
            let mut flip = false;
            b.iter(|| {
                flip = !flip;
                s.list.selected = if flip { target } else { target + 1 };
                term.draw(|f| taskdeck::ui::draw(f, &mut s, &theme))
                    .unwrap();
                black_box(term.backend());
            })
        });
        g.bench_function(format!("{name}_key_j_k"), |b| {
            let mut down = false;
            b.iter(|| {
                down = !down;
                let c = if down { 'j' } else { 'k' };
                black_box(s.on_key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE)));
                term.draw(|f| taskdeck::ui::draw(f, &mut s, &theme))
                    .unwrap();
                black_box(term.backend());
            })
        });
    }
    g.finish();
}

criterion_group!(benches, frame, apply_page, accessible);
criterion_main!(benches);
