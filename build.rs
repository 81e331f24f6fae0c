//! The commit taskdeck is built from, for `taskdeck doctor` and bug
//! reports: `git rev-parse --short HEAD` when the source is a git checkout
//! and git is there; nothing otherwise (doctor then says "unknown").

fn main() {
    // Run again when HEAD moves: HEAD itself (a checkout) and the branch
    // it names (a commit), or packed refs. Not the index, which changes at
    // every `git add` and `git status` and would rebuild the crate each time.
    println!("cargo:rerun-if-changed=build.rs");
    if let Ok(head) = std::fs::read_to_string(".git/HEAD") {
        println!("cargo:rerun-if-changed=.git/HEAD");
        if let Some(r) = head.strip_prefix("ref: ") {
            let r = format!(".git/{}", r.trim());
            if std::path::Path::new(&r).exists() {
                println!("cargo:rerun-if-changed={r}");
            }
            // (A path that is not there would run this at every build.)
            if std::path::Path::new(".git/packed-refs").exists() {
                println!("cargo:rerun-if-changed=.git/packed-refs");
            }
        }
    }
    let out = std::process::Command::new("git")
        .args(["rev-parse", "--short=10", "HEAD"])
        .output();
    if let Ok(o) = out {
        let commit = String::from_utf8_lossy(&o.stdout).trim().to_string();
        if o.status.success() && !commit.is_empty() && commit.chars().all(|c| c.is_ascii_hexdigit())
        {
            println!("cargo:rustc-env=TASKDECK_GIT_COMMIT={commit}");
        }
    }
}
