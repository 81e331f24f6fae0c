//! The cost of a notification (issue 33): after a walk, the inbox's unread
//! items are read from the store's rows (`unread_items`), compared with
//! what was seen (`Watch::observe`), and a notice becomes bytes
//! (`Notifier::bytes`: bell, OSC 9 wrapped for tmux). 1,000 unread items,
//! three of them new. The figures are in docs/performance.md.

use criterion::{criterion_group, criterion_main, Criterion};
use std::hint::black_box;
use taskdeck::inbox::notify::unread_items;
use taskdeck::inbox::{UnreadItem, Watch};
use taskdeck::store::InboxItem;
use taskdeck::tui::notify::Notifier;

const UNREAD: usize = 1_000;

fn item(i: usize) -> InboxItem {
    InboxItem {
        task_id: format!("00000000-0000-4000-8000-{i:012}"),
        key: format!("comment:{i}"),
        kind: if i % 3 == 0 { "mentioned" } else { "changed" }.into(),
        rank: 0,
        words: "Bob Okafor mentioned you: “can you look at this?”".into(),
        changes: "[]".into(),
        label: format!("#{i}"),
        title: format!("Reconcile the invoices of customer {i}"),
        target: None,
        at: 1_700_000_000 + i as i64,
        read_at: None,
    }
}

fn bench(c: &mut Criterion) {
    let rows: Vec<InboxItem> = (0..UNREAD).map(item).collect();
    let now = 1_800_000_000;
    c.bench_function("unread_items, 1,000 stored items", |b| {
        b.iter(|| black_box(unread_items(black_box(&rows), &[], now)))
    });

    let before: Vec<UnreadItem> = unread_items(&rows[..UNREAD - 3], &[], now);
    let after: Vec<UnreadItem> = unread_items(&rows, &[], now);
    let mut started = Watch::default();
    started.observe(&before, &[], true);
    c.bench_function("observe, 1,000 unread, nothing new", |b| {
        let mut w = started.clone();
        w.observe(&after, &[], true);
        b.iter(|| black_box(w.observe(black_box(&after), &[], true)))
    });
    c.bench_function("observe, 1,000 unread, 3 new (one notice)", |b| {
        // By reference: the watch's drop is not timed.
        b.iter_batched_ref(
            || started.clone(),
            |w| black_box(w.observe(black_box(&after), &[], true)),
            criterion::BatchSize::SmallInput,
        )
    });

    let mut w = started.clone();
    let notice = w.observe(&after, &[], true).expect("three new");
    assert_eq!(notice.items.len(), 3);
    assert!(notice.items.iter().all(|i| i.kind.is_some()));
    let cfg = taskdeck::config::Notify {
        bell: true,
        desktop: true,
        title: true,
        command: None,
        osc: None,
    };
    let env = |k: &str| (k == "TMUX").then(|| "/tmp/tmux-1000/default,1,0".to_string());
    let n = Notifier::new(cfg, &env);
    c.bench_function("a notice's bytes (bell, OSC 9 wrapped for tmux)", |b| {
        b.iter(|| black_box(n.bytes(black_box(&notice))))
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
