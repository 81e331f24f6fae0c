//! A key in the composer holding a huge text (issue: a 1 MB paste made
//! each key take 0.25–0.7 s): the text area's key handling and one frame
//! of it (100×40), with soft wrap always on (before) and as the composer
//! sets it (`composer::fit_wrap`: none above `WRAP_LIMIT`), at 1 MB of
//! 100-column lines and 1 MB on one line. Figures: docs/performance.md.

use criterion::{criterion_group, criterion_main, Criterion};
use ratatui::backend::TestBackend;
use ratatui::Terminal;
use ratatui_textarea::{Input, Key, TextArea, WrapMode};
use std::hint::black_box;
use std::time::Duration;
use taskdeck::app::state::composer::fit_wrap;

fn editor(text: &str, wrap_always: bool) -> TextArea<'static> {
    let mut e = TextArea::from(text.split('\n').map(str::to_string).collect::<Vec<_>>());
    if wrap_always {
        e.set_wrap_mode(WrapMode::WordOrGlyph);
    } else {
        fit_wrap(&mut e);
    }
    e
}

fn composer(c: &mut Criterion) {
    let lines: String = (0..10_000)
        .map(|i| format!("line {i:05} {}\n", "word ".repeat(18)))
        .collect();
    let one_line = "x".repeat(1_000_000);
    let mut g = c.benchmark_group("composer_1MB_key");
    g.sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(3));
    for (name, text) in [("lines", &lines), ("one_line", &one_line)] {
        for (how, always) in [("wrap_always", true), ("fit_wrap", false)] {
            let mut e = editor(text, always);
            let mut term = Terminal::new(TestBackend::new(100, 40)).unwrap();
            term.draw(|f| f.render_widget(&e, f.area())).unwrap();
            g.bench_function(format!("{name}_{how}"), |b| {
                let mut add = false;
                b.iter(|| {
                    add = !add;
                    let k = if add { Key::Char('a') } else { Key::Backspace };
                    e.input(Input {
                        key: k,
                        ..Default::default()
                    });
                    if !always {
                        fit_wrap(&mut e);
                    }
                    term.draw(|f| f.render_widget(&e, f.area())).unwrap();
                    black_box(term.backend());
                })
            });
        }
    }
    g.finish();
}

criterion_group!(benches, composer);
criterion_main!(benches);
