//! Heap held by decoded tasks: decodes the sandbox's tasks the way the TUI
//! does and counts live heap bytes with a counting allocator.
//! `cargo run --release --example task_memory [N] [--fields]` (`--fields`:
//! heap of each open-shape field, decoded as `serde_json::Value`).

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

struct Counting;
static LIVE: AtomicUsize = AtomicUsize::new(0);
static COUNT: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        LIVE.fetch_add(l.size(), Relaxed);
        COUNT.fetch_add(1, Relaxed);
        System.alloc(l)
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        LIVE.fetch_sub(l.size(), Relaxed);
        COUNT.fetch_sub(1, Relaxed);
        System.dealloc(p, l)
    }
    unsafe fn realloc(&self, p: *mut u8, l: Layout, n: usize) -> *mut u8 {
        LIVE.fetch_add(n.wrapping_sub(l.size()), Relaxed);
        System.realloc(p, l, n)
    }
}

#[global_allocator]
static A: Counting = Counting;

#[path = "../benches/support/mod.rs"]
mod support;

fn main() {
    let n: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(10_000);
    let base = support::sandbox_items(2000);
    let items = support::task_jsons(&base, n);
    let json: usize = items.iter().map(String::len).sum();
    let mut s = support::fresh_state();
    let (b0, c0) = (LIVE.load(Relaxed), COUNT.load(Relaxed));
    support::load(&mut s, &items, 50);
    let (b1, c1) = (LIVE.load(Relaxed), COUNT.load(Relaxed));
    println!("tasks={n} json_bytes={json} (avg {} B/task)", json / n);
    println!(
        "state_heap_bytes={} ({} B/task, {} allocations/task)",
        b1 - b0,
        (b1 - b0) / n,
        (c1 - c0) / n
    );
    println!(
        "size_of::<Task>()={} size_of::<TaskItem>()={}",
        std::mem::size_of::<taskdeck::api::Task>(),
        std::mem::size_of::<taskdeck::api::TaskItem>()
    );
    if std::env::args().any(|a| a == "--fields") {
        breakdown(&items);
    }
    drop(items);
    std::hint::black_box(&s);
}

fn breakdown(items: &[String]) {
    let fields = [
        "assigned_agent",
        "assigned_team",
        "matter",
        "shared_teams",
        "input_files",
        "output_files",
        "involved_people",
        "linked_items",
        "creator",
        "assigned_to",
        "team",
        "parent_task_id",
        "tags",
        "description",
        "title",
    ];
    for f in fields {
        let vals: Vec<serde_json::Value> = items
            .iter()
            .map(|s| serde_json::from_str::<serde_json::Value>(s).unwrap()[f].take())
            .collect();
        let b0 = LIVE.load(Relaxed);
        let copies: Vec<serde_json::Value> = vals
            .iter()
            .map(|v| {
                let t = v.to_string();
                serde_json::from_str(&t).unwrap()
            })
            .collect();
        let b1 = LIVE.load(Relaxed);
        println!("{f}: {} B/task as Value heap", (b1 - b0) / items.len());
        drop(copies);
    }
}
