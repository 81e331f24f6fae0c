//! Decoding a page of 100 tasks the way the client does (RawValue items,
//! then `TaskItem::from_json` each), and sanitising a page of text.

mod support;

use criterion::{criterion_group, criterion_main, Criterion};
use serde_json::value::RawValue;
use std::hint::black_box;
use std::time::Duration;
use taskdeck::api::TaskItem;

fn decode(c: &mut Criterion) {
    let base = support::sandbox_items(300);
    let items = support::task_jsons(&base, 100);
    let body = support::page_body(&items, Some("abc"));
    let mut g = c.benchmark_group("decode");
    g.sample_size(50)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(3));
    g.throughput(criterion::Throughput::Bytes(body.len() as u64));
    g.bench_function("page_of_100_tasks", |b| {
        b.iter(|| {
            #[derive(serde::Deserialize)]
            struct Page<'a> {
                #[serde(borrow)]
                items: Option<Vec<&'a RawValue>>,
                #[allow(dead_code)]
                cursor: Option<String>,
            }
            let page: Page = serde_json::from_str(black_box(&body)).unwrap();
            let tasks: Vec<TaskItem> = page
                .items
                .unwrap_or_default()
                .iter()
                .map(|r| TaskItem::from_json(r.get()))
                .collect();
            black_box(tasks)
        })
    });
    g.finish();
}

fn sanitize(c: &mut Criterion) {
    let base = support::sandbox_items(300);
    // Every piece of text of 100 tasks as it is shown: titles, descriptions
    // and tags, plus a share of hostile text (escapes, bidi, tabs).
    let mut texts: Vec<String> = Vec::new();
    for raw in base.iter().take(100) {
        let v: serde_json::Value = serde_json::from_str(raw).unwrap();
        for key in ["title", "description", "additional_context", "display_id"] {
            if let Some(s) = v[key].as_str() {
                texts.push(s.to_string());
            }
        }
        for t in v["tags"].as_array().into_iter().flatten() {
            if let Some(s) = t.as_str() {
                texts.push(s.to_string());
            }
        }
    }
    for i in 0..20 {
        texts.push(format!(
            "evil {i}\u{1b}[2J\u{9b}31m\tbidi \u{202e}gnp.exe\u{2066} and\r\nlines"
        ));
    }
    let bytes: usize = texts.iter().map(String::len).sum();
    let mut g = c.benchmark_group("sanitize");
    g.sample_size(50)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2));
    g.throughput(criterion::Throughput::Bytes(bytes as u64));
    g.bench_function("page_of_text_line", |b| {
        b.iter(|| {
            let mut n = 0;
            for t in &texts {
                n += taskdeck::text::sanitize(black_box(t), false).len();
            }
            n
        })
    });
    g.bench_function("page_of_text_multiline", |b| {
        b.iter(|| {
            let mut n = 0;
            for t in &texts {
                n += taskdeck::text::sanitize(black_box(t), true).len();
            }
            n
        })
    });
    g.finish();
}

criterion_group!(benches, decode, sanitize);
criterion_main!(benches);
