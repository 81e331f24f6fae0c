//! A macro rendered and reviewed on 100 marked tasks (issue 44: under
//! 50 ms): tasks as the sandbox serves them, loaded into the real state,
//! all marked; each round is `:macro` (the macro read for every task, its
//! reply and comment rendered with that task's variables, the review
//! built) and one 120×40 frame of the review drawn. Nothing is sent.
//! Prints `key=value` lines; docs/performance.md quotes them.
//!
//! macro_bench [TASKS] [ROUNDS]    defaults: 100 tasks, 30 rounds

#[path = "../benches/support/mod.rs"]
mod support;

use ratatui::backend::TestBackend;
use ratatui::Terminal;
use std::time::{Duration, Instant};
use taskdeck::domain::macros::Macro;

fn main() {
    let mut args = std::env::args().skip(1);
    let n: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(100);
    let rounds: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(30);
    let base = support::sandbox_items(n.min(1000));
    let items = support::task_jsons(&base, n);
    let mut s = support::fresh_state();
    support::load(&mut s, &items, 100);
    s.inbox.running = true;
    s.macros = vec![Macro {
        name: "await-signature".into(),
        description: "Ask for the signed copy".into(),
        reply: Some(
            "Hello {requester}, could you send the signed copy of {title} ({number})?".into(),
        ),
        comment: Some("Asked {requester} for the signed copy; due {due}.".into()),
        status: Some("waiting".into()),
        priority: Some("high".into()),
        due: Some("fri 17:00".into()),
        tags: vec!["+awaiting-signature".into(), "-new".into()],
        follow_up: Some("in 3 days".into()),
        snooze: Some("tomorrow 9:00".into()),
        ..Default::default()
    }];
    let tasks: Vec<taskdeck::api::Task> = s
        .list
        .items
        .iter()
        .filter_map(|i| match i {
            taskdeck::api::TaskItem::Task(t) => Some((**t).clone()),
            _ => None,
        })
        .collect();
    for t in tasks.iter().take(n) {
        s.marks.insert(t);
    }
    assert_eq!(s.marks.len(), n);
    let theme = taskdeck::ui::Theme::dark();
    let mut term = Terminal::new(TestBackend::new(120, 40)).unwrap();
    let mut times: Vec<Duration> = Vec::with_capacity(rounds);
    let mut review_only: Vec<Duration> = Vec::with_capacity(rounds);
    for _ in 0..rounds {
        s.overlay = taskdeck::app::state::Overlay::None;
        s.engine.prepared = None;
        let t0 = Instant::now();
        let fx = s.command("macro await-signature");
        review_only.push(t0.elapsed());
        term.draw(|f| taskdeck::ui::draw(f, &mut s, &theme))
            .unwrap();
        times.push(t0.elapsed());
        assert!(fx.is_empty(), "nothing is sent before y");
    }
    let lines = match &s.overlay {
        taskdeck::app::state::Overlay::Confirm { lines, .. } => lines.len(),
        _ => panic!("the review expected: {:?}", s.status),
    };
    times.sort();
    review_only.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    println!("tasks={n}");
    println!("review_lines={lines}");
    println!("rounds={rounds}");
    println!("median_ms={:.2}", ms(times[rounds / 2]));
    println!("max_ms={:.2}", ms(times[rounds - 1]));
    println!("review_only_median_ms={:.2}", ms(review_only[rounds / 2]));
}
