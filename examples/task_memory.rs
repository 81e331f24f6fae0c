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
    if std::env::args().any(|a| a == "--parts") {
        parts(s, n);
    }
}

/// Where the state's heap is: each part dropped in turn, its bytes a row.
fn parts(mut s: taskdeck::app::state::State, n: usize) {
    let mut part = |name: &str, f: &mut dyn FnMut(&mut taskdeck::app::state::State)| {
        let b0 = LIVE.load(Relaxed);
        f(&mut s);
        let freed = b0.saturating_sub(LIVE.load(Relaxed));
        println!("part {name}: {} B/row ({freed} B)", freed / n);
    };
    part("list.page_of", &mut |s| {
        drop(std::mem::take(&mut s.list.page_of))
    });
    part("list.rows", &mut |s| drop(std::mem::take(&mut s.list.rows)));
    part("list.previous", &mut |s| {
        drop(std::mem::take(&mut s.list.previous))
    });
    part("local.known", &mut |s| {
        drop(std::mem::take(&mut s.local.known))
    });
    part("local.seen", &mut |s| {
        drop(std::mem::take(&mut s.local.seen))
    });
    part("local.out", &mut |s| drop(std::mem::take(&mut s.local.out)));
    part("versions", &mut |s| drop(std::mem::take(&mut s.versions)));
    part("directory", &mut |s| drop(std::mem::take(&mut s.directory)));
    part("fields of list.items", &mut |s| {
        if std::env::args().any(|a| a == "--task-fields") {
            task_fields(&mut s.list.items, n);
        }
    });
    part("list.items", &mut |s| {
        drop(std::mem::take(&mut s.list.items))
    });
    part("the rest", &mut |s| {
        drop(std::mem::replace(s, support::fresh_state()));
    });
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

/// Heap of each field of the loaded tasks, dropped one after the other
/// (interned strings stay in their pool, so they show as free).
fn task_fields(items: &mut [taskdeck::api::TaskItem], n: usize) {
    use taskdeck::api::{Task, TaskItem};
    let mut field = |name: &str, f: &dyn Fn(&mut Task)| {
        let b0 = LIVE.load(Relaxed);
        for i in items.iter_mut() {
            if let TaskItem::Task(t) = i {
                f(t);
            }
        }
        println!(
            "field {name}: {} B/row",
            b0.saturating_sub(LIVE.load(Relaxed)) / n
        );
    };
    field("id", &|t| t.id = Default::default());
    field("display_id", &|t| t.display_id = Default::default());
    field("title", &|t| t.title = Default::default());
    field("description", &|t| t.description = None);
    field("additional_context", &|t| t.additional_context = None);
    field("team", &|t| t.team = None);
    field("creator", &|t| t.creator = None);
    field("assigned_to", &|t| t.assigned_to = None);
    field("assigned_agent", &|t| t.assigned_agent = Default::default());
    field("assigned_team", &|t| t.assigned_team = Default::default());
    field("matter", &|t| t.matter = Default::default());
    field("complete_by", &|t| t.complete_by = None);
    field("tags", &|t| t.tags = Default::default());
    field("source_channel", &|t| t.source_channel = None);
    field("involved_people", &|t| {
        t.involved_people = Default::default()
    });
    field("shared_teams", &|t| t.shared_teams = Default::default());
    field("linked_items", &|t| t.linked_items = Default::default());
    field("input_files", &|t| t.input_files = Default::default());
    field("output_files", &|t| t.output_files = Default::default());
    field("created_at", &|t| t.created_at = None);
    field("updated_at", &|t| t.updated_at = None);
    field("extra", &|t| t.extra = Default::default());
}
