//! The real binary as a process, for the CLI tests: an isolated
//! environment (config, state and HOME in a temporary directory; the
//! caller's TASKDECK_* variables removed) and the output as text.

#![allow(dead_code)]

use std::process::{Output, Stdio};
use std::time::Duration;
use taskdeck::sandbox::Sandbox;
use tokio::io::AsyncWriteExt;

pub struct Env {
    pub dir: tempfile::TempDir,
    pub vars: Vec<(String, String)>,
}

impl Env {
    pub fn new() -> Env {
        let dir = tempfile::tempdir().unwrap();
        let vars = vec![
            (
                "TASKDECK_CONFIG".into(),
                dir.path().join("config.toml").display().to_string(),
            ),
            (
                "XDG_STATE_HOME".into(),
                dir.path().join("state").display().to_string(),
            ),
            (
                "XDG_CONFIG_HOME".into(),
                dir.path().join("xdg-config").display().to_string(),
            ),
            ("HOME".into(), dir.path().display().to_string()),
        ];
        Env { dir, vars }
    }
    pub fn for_sandbox(sb: &Sandbox, key: &str) -> Env {
        let mut e = Env::new();
        e.set("TASKDECK_BASE_URL", &sb.base_url());
        e.set("TASKDECK_API_KEY", key);
        e
    }
    pub fn set(&mut self, k: &str, v: &str) {
        self.vars.retain(|(n, _)| n != k);
        self.vars.push((k.into(), v.into()));
    }
    pub fn write_config(&self, text: &str) -> std::path::PathBuf {
        let p = self.dir.path().join("config.toml");
        std::fs::write(&p, text).unwrap();
        p
    }
    pub async fn run(&self, args: &[&str]) -> Output {
        self.run_with_stdin(args, None).await
    }
    pub async fn run_with_stdin(&self, args: &[&str], stdin: Option<&str>) -> Output {
        let mut cmd = tokio::process::Command::new(env!("CARGO_BIN_EXE_taskdeck"));
        cmd.args(args)
            .stdin(if stdin.is_some() {
                Stdio::piped()
            } else {
                Stdio::null()
            })
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .kill_on_drop(true);
        for k in [
            "TASKDECK_BASE_URL",
            "TASKDECK_API_KEY",
            "TASKDECK_PROFILE",
            "TASKDECK_LOG",
            "TASKDECK_ALLOW_CORE_DUMPS",
            "NO_COLOR",
            "CLICOLOR_FORCE",
            "COLUMNS",
            "COLORFGBG",
        ] {
            cmd.env_remove(k);
        }
        for (k, v) in &self.vars {
            cmd.env(k, v);
        }
        let mut child = cmd.spawn().unwrap();
        if let Some(s) = stdin {
            let mut i = child.stdin.take().unwrap();
            i.write_all(s.as_bytes()).await.unwrap();
            drop(i);
        }
        tokio::time::timeout(Duration::from_secs(60), child.wait_with_output())
            .await
            .expect("taskdeck did not finish within 60 s")
            .unwrap()
    }
}

pub fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}
pub fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).unwrap()
}

/// A client of the sandbox acting with `key` (another user's doing, in
/// the tests: assigning, commenting).
pub fn client(sb: &Sandbox, key: &str) -> taskdeck::api::Client {
    taskdeck::api::Client::new(taskdeck::api::ClientConfig::new(
        sb.base_url(),
        taskdeck::api::ApiKey::new(key.to_string()),
    ))
    .unwrap()
}

/// The JSON array a successful `--json` run printed.
pub fn json_items(o: &Output) -> Vec<serde_json::Value> {
    assert_eq!(o.status.code(), Some(0), "{}", stderr(o));
    serde_json::from_slice(&o.stdout).unwrap_or_else(|e| panic!("{e}: {}", stdout(o)))
}
