//! The commit taskdeck is built from, for `taskdeck doctor` and bug
//! reports: `git rev-parse --short HEAD` when the source is a git checkout
//! and git is there; nothing otherwise (doctor then says "unknown").

fn main() {
    // Rebuilt when HEAD moves (a commit, a checkout); a tree without git
    // never reruns this.
    for p in [".git/HEAD", ".git/index"] {
        if std::path::Path::new(p).exists() {
            println!("cargo:rerun-if-changed={p}");
        }
    }
    println!("cargo:rerun-if-changed=build.rs");
    let out = std::process::Command::new("git")
        .args(["rev-parse", "--short=10", "HEAD"])
        .output();
    if let Ok(o) = out {
        let commit = String::from_utf8_lossy(&o.stdout).trim().to_string();
        if o.status.success() && commit.chars().all(|c| c.is_ascii_hexdigit()) && !commit.is_empty()
        {
            println!("cargo:rustc-env=TASKDECK_GIT_COMMIT={commit}");
        }
    }
}
