//! The sandbox scales (#24 §7): one page of 100 of the task list, the
//! first and the 50th, with the organisations of `--tasks 19400` and
//! `--tasks 194000` (the demo user sees about half): a page must cost
//! about the same at both sizes.

use criterion::{criterion_group, criterion_main, Criterion};
use std::hint::black_box;
use std::time::Duration;
use taskdeck::sandbox::{Sandbox, SandboxOptions};

fn page(c: &mut Criterion) {
    let mut g = c.benchmark_group("sandbox_list_page_of_100");
    g.sample_size(30)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(3));
    for n in [19_400usize, 194_000] {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        let sb = rt
            .block_on(Sandbox::start_local(SandboxOptions {
                tasks: n,
                ..Default::default()
            }))
            .unwrap();
        let http = reqwest::Client::new();
        let url = |cursor: Option<&str>| {
            let mut u = format!("{}/api/v1/tasks?limit=100", sb.base_url());
            if let Some(c) = cursor {
                u.push_str(&format!("&cursor={c}"));
            }
            u
        };
        let get = |u: String| {
            rt.block_on(async {
                let r = http
                    .get(u)
                    .bearer_auth("demo-alice-acme")
                    .send()
                    .await
                    .unwrap();
                assert!(r.status().is_success());
                r.json::<serde_json::Value>().await.unwrap()
            })
        };
        // The cursor of page 50.
        let mut cursor: Option<String> = None;
        for _ in 0..49 {
            let v = get(url(cursor.as_deref()));
            cursor = v["cursor"].as_str().map(str::to_string);
        }
        let deep = url(Some(cursor.as_deref().expect("50 pages")));
        g.bench_function(format!("{n}_tasks_first_page"), |b| {
            b.iter(|| black_box(get(url(None))))
        });
        g.bench_function(format!("{n}_tasks_page_50"), |b| {
            b.iter(|| black_box(get(deep.clone())))
        });
    }
    g.finish();
}

criterion_group!(benches, page);
criterion_main!(benches);
