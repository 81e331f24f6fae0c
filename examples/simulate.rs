//! The simulator's command line (issue 43, `docs/testing.md`):
//!
//! ```text
//! cargo run --release --example simulate -- --seed S --steps N [--faults LIST] [--replay] [--frames] [--break NAME]
//! cargo run --release --example simulate -- --script FILE [--replay] [--frames]
//! ```
//!
//! Runs the client core against the model service, disk, clock and
//! terminal (`taskdeck::sim`). A failure prints its seed, step and the
//! shortest step list found, written as a script (`sim::script`: save it
//! as `tests/simulate/NAME.steps` and CI runs it); `--script FILE` runs
//! one; `--replay` prints a trace of every step.
//! The last line is always `simulated N steps (seed S): K violations,
//! digest H`; the exit code is 0 only when K is 0.

use taskdeck::sim::{self, Break, Config, Faults};

fn main() {
    let mut cfg = Config::new(0, 10_000);
    let mut replay = false;
    let mut twice = false;
    let mut shrink_tries = 300usize;
    let mut script: Option<sim::Script> = None;
    let mut faults_given = "all".to_string();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut value = |name: &str| {
            args.next().unwrap_or_else(|| {
                eprintln!("{name} needs a value");
                std::process::exit(2)
            })
        };
        match a.as_str() {
            "--seed" => cfg.seed = number(&value("--seed")),
            "--steps" => cfg.steps = number(&value("--steps")) as usize,
            "--faults" => {
                faults_given = value("--faults");
                cfg.faults = Faults::parse(&faults_given).unwrap_or_else(|e| fail(&e))
            }
            "--script" => {
                let path = value("--script");
                let text = std::fs::read_to_string(&path)
                    .unwrap_or_else(|e| fail(&format!("{path}: {e}")));
                script = Some(
                    sim::Script::parse(&text).unwrap_or_else(|e| fail(&format!("{path}: {e}"))),
                );
            }
            "--break" => {
                cfg.broken = Some(Break::parse(&value("--break")).unwrap_or_else(|e| fail(&e)))
            }
            "--shrink" => shrink_tries = number(&value("--shrink")) as usize,
            "--replay" => replay = true,
            "--twice" => twice = true,
            "--frames" => {
                replay = true;
                cfg.frames = true;
            }
            "-h" | "--help" => {
                println!("simulate --seed S --steps N [--faults all|none|NAME,-NAME…] [--replay] [--frames] [--break NAME] [--shrink TRIES] [--twice]");
                println!("simulate --script FILE [--replay] [--frames]: run a script (a failure's shrunk steps; tests/simulate/*.steps)");
                println!("--twice: run the seed again and compare the two step by step (a seed must be a run)");
                println!("faults: {}", sim::faults::NAMES.join(", "));
                println!("breaks (a rule broken on purpose): {}", Break::names(", "));
                return;
            }
            other => fail(&format!("unknown argument {other:?} (--help)")),
        }
    }
    let steps = match script {
        Some(s) => {
            cfg.seed = s.seed;
            cfg.steps = s.steps.len();
            cfg.faults = s.faults();
            faults_given = s.faults;
            s.steps
        }
        None => {
            let keymap =
                taskdeck::app::new_state("sim.test".into(), &Default::default(), false).keymap;
            sim::step::plan(cfg.seed, cfg.steps, &keymap, &cfg.faults)
        }
    };
    let started = std::time::Instant::now();
    let mut out = sim::run_steps(&cfg, &steps, replay);
    let mut runs = 1;
    if twice && out.violations.is_empty() {
        let again = sim::run_steps(&cfg, &steps, false);
        runs = 2;
        if let Some(i) = sim::first_difference(&out, &again) {
            out.violations.push(sim::Violation {
                step: i,
                kind: "not a run",
                detail: format!(
                    "a second run of the seed differs from step {i} on (digest {:016x}, then {:016x}): diff two --replay traces",
                    out.step_digests.get(i).copied().unwrap_or(0),
                    again.step_digests.get(i).copied().unwrap_or(0)
                ),
            });
        }
    }
    let secs = started.elapsed().as_secs_f64();
    for line in &out.trace {
        println!("{line}");
    }
    if let Some(v) = out.violations.first().filter(|v| v.kind == "not a run") {
        println!(
            "seed {}: step {}: {}: {}",
            cfg.seed, v.step, v.kind, v.detail
        );
    } else if let Some(v) = out.violations.first() {
        println!(
            "seed {}: step {}: {}: {}",
            cfg.seed, v.step, v.kind, v.detail
        );
        let failing = &steps[..=v.step.min(steps.len() - 1)];
        let short = sim::shrink(&cfg, failing, v.kind, shrink_tries);
        let n = (short.len(), failing.len());
        let written = sim::Script {
            seed: cfg.seed,
            faults: faults_given.clone(),
            steps: short,
        };
        match written.write() {
            Some(text) => {
                println!(
                    "shrunk to {} steps (of {}), as a script (save it as tests/simulate/NAME.steps: CI runs it; run it with --script FILE):",
                    n.0, n.1
                );
                println!(
                    "# {}: {}",
                    v.kind,
                    taskdeck::text::clean(v.detail.lines().next().unwrap_or(""))
                );
                print!("{text}");
            }
            None => {
                println!("shrunk to {} steps (of {}):", n.0, n.1);
                for s in &written.steps {
                    println!("    {s:?}");
                }
            }
        }
        println!(
            "replay: cargo run --release --example simulate -- --seed {} --steps {} --replay",
            cfg.seed,
            v.step + 1
        );
    }
    for (what, n) in &out.stats {
        eprintln!("{n:>8} {what}");
    }
    eprintln!(
        "{:.0} steps/s ({} steps in {:.2} s)",
        (runs * out.steps) as f64 / secs.max(1e-9),
        runs * out.steps,
        secs
    );
    println!("{}", out.summary(cfg.seed));
    std::process::exit(if out.violations.is_empty() { 0 } else { 1 });
}

fn number(s: &str) -> u64 {
    s.parse()
        .unwrap_or_else(|_| fail(&format!("not a number: {s:?}")))
}

fn fail(e: &str) -> ! {
    eprintln!("{e}");
    std::process::exit(2)
}
