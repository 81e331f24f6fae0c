//! `taskdeck demo`: the TUI against an embedded sandbox, in a home of its
//! own (issue 34 §4). Everything the demo would write — the config file
//! (`:view save`), the local store, drafts and editor files, the first-run
//! hint's mark — goes to a fresh private folder under the temp directory,
//! removed when the demo ends: the user's config, store and drafts are
//! never touched. Only the log goes where every run's log goes (so that a
//! problem in the demo can be reported).

use super::commands::{Failure, Outcome};
use crate::api::{Client, ClientConfig};
use crate::config;
use crate::sandbox::{Sandbox, SandboxOptions};
use crate::tui::LaunchInfo;
use std::path::{Path, PathBuf};

/// The demo's own folder; removed (with all it holds) when dropped.
pub struct DemoHome {
    root: PathBuf,
}

/// Keys of the config file that name a service or a key: the demo uses
/// neither, so its copy of the user's config leaves them out (no key is
/// ever copied into the temp folder).
const CONNECTION_KEYS: &[&str] = &[
    "base_url",
    "api_key",
    "api_key_command",
    "api_key_command_timeout_secs",
    "ca_file",
    "profiles",
];

impl DemoHome {
    /// Make the folder and point every path taskdeck writes into it:
    /// `TASKDECK_CONFIG` (a copy of the user's config file without its
    /// connection keys, so the look-and-feel settings still apply),
    /// `XDG_STATE_HOME` and `XDG_CACHE_HOME`. Call before any thread starts
    /// (it sets environment variables).
    pub fn enter() -> std::io::Result<DemoHome> {
        let root = fresh_dir(&std::env::temp_dir())?;
        let home = DemoHome { root };
        let config = home.config_file();
        let user = config::read_regular_file(&config::config_path(), config::CONFIG_MAX_BYTES)
            .map(|text| without_connection(&text))
            .unwrap_or_default();
        let user = with_demo_macros(user);
        config::write_private_file(&config, user.as_bytes())?;
        std::env::set_var(config::ENV_CONFIG, &config);
        std::env::set_var("XDG_STATE_HOME", home.root.join("state"));
        std::env::set_var("XDG_CACHE_HOME", home.root.join("cache"));
        Ok(home)
    }

    pub fn config_file(&self) -> PathBuf {
        self.root.join("config").join("config.toml")
    }
}

impl Drop for DemoHome {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.root);
    }
}

/// A new folder `taskdeck-demo-…` in `parent`, 0700, that did not exist
/// before (never one planted there).
fn fresh_dir(parent: &Path) -> std::io::Result<PathBuf> {
    let mut last = None;
    for _ in 0..8 {
        let p = parent.join(format!(
            "taskdeck-demo-{}-{:08x}",
            std::process::id(),
            getrandom::u32().unwrap_or(0)
        ));
        let mut b = std::fs::DirBuilder::new();
        #[cfg(unix)]
        {
            use std::os::unix::fs::DirBuilderExt;
            b.mode(0o700);
        }
        match b.create(&p) {
            Ok(()) => return Ok(p),
            Err(e) => last = Some(e),
        }
    }
    Err(last.unwrap_or_else(|| std::io::Error::other("no folder")))
}

/// Two macros a newcomer can try (`:macro` in the demo), unless the
/// user's own config brings macros (docs/macros.md).
pub const DEMO_MACROS: &str = r#"
[[macros]]
name = "await-signature"
description = "Ask for the signed copy, wait, follow up in 3 days"
reply = "Hello {requester}, could you send the signed copy of {title} ({number})?"
comment = "Asked {requester} for the signed copy."
status = "waiting_on_external"
tags = ["+awaiting-signature"]
follow_up = "in 3 days"

[[macros]]
name = "done-closing"
description = "Tell the requester it is done, and complete the task"
reply = "Hello {requester}, {title} is done: closing it. Thank you!"
status = "completed"
tags = ["-awaiting-signature"]
"#;

fn with_demo_macros(config: String) -> String {
    let has_macros = config
        .parse::<toml_edit::DocumentMut>()
        .is_ok_and(|d| d.contains_key("macros"));
    if has_macros {
        config
    } else {
        format!("{config}{DEMO_MACROS}")
    }
}

/// The config text less its connection keys; a file that is not TOML
/// gives an empty config (the user's own file reports its errors).
fn without_connection(text: &str) -> String {
    let Ok(mut doc) = text.parse::<toml_edit::DocumentMut>() else {
        return String::new();
    };
    for k in CONNECTION_KEYS {
        doc.remove(k);
    }
    doc.to_string()
}

/// The demo itself (the caller has checked the terminal).
pub(super) async fn demo(tasks: Option<usize>, accessible: bool) -> Outcome {
    // Only the look-and-feel settings are used; connection settings are
    // not (and are not in the demo's copy of the config).
    let mut settings = config::load(None).settings;
    settings.accessible |= accessible;
    let mut opts = SandboxOptions::default();
    if let Some(n) = tasks {
        opts.tasks = n;
    }
    let sandbox = Sandbox::start_local(opts)
        .await
        .map_err(|e| Failure::failed(format!("cannot start the demo sandbox: {e}")))?;
    let Some(key) = sandbox.keys.first() else {
        return Err(Failure::failed("the demo sandbox has no API keys"));
    };
    let base = sandbox.base_url();
    tracing::info!(%base, "demo sandbox started");
    settings.base_url = Some(base.clone());
    let key_print = settings
        .cache
        .then(|| {
            crate::store::identity::KeyPrint::of(&crate::store::service_dir(&base, true), &key.key)
        })
        .flatten();
    let mut cfg = ClientConfig::new(base, crate::api::ApiKey::new(key.key.clone()));
    cfg.http2 = settings.http2;
    cfg.h2c = settings.http2_always;
    let client = Client::new(cfg).map_err(Failure::failed)?;
    // The inbox holds an example of each reason (issue 46 §2); without it
    // the demo still runs.
    if settings.cache {
        if let Err(e) = super::demo_inbox::seed(&sandbox, &client, key_print.as_ref()).await {
            tracing::warn!(error = %e, "the demo's inbox was not seeded");
        }
    }
    crate::tui::run(
        client,
        settings,
        LaunchInfo {
            demo: true,
            profile: None,
            key_print,
            others: vec![],
            open: None,
        },
    )
    .await
    .map(|end| end.code)
    .map_err(|e| Failure::failed(format!("{e:#}").replace('\n', " ")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_demo_ships_two_macros_without_a_fault_unless_the_user_has_some() {
        let c = config::from_str(&with_demo_macros("theme = \"light\"\n".into()), None);
        assert!(c.diagnostics.is_empty(), "{:?}", c.diagnostics);
        let names: Vec<&str> = c.settings.macros.iter().map(|m| m.name.as_str()).collect();
        assert_eq!(names, vec!["await-signature", "done-closing"]);
        let own = "[[macros]]\nname = \"mine\"\ndescription = \"x\"\nstatus = \"completed\"\n";
        assert_eq!(with_demo_macros(own.into()), own);
    }

    #[test]
    fn the_demo_copy_keeps_the_look_and_no_key() {
        let user = "# mine\ntheme = \"light\"\nbase_url = \"https://t.example\"\napi_key = \"sekrit\"\n\n[[views]]\nname = \"Due today\"\nfilter = \"to=today\"\n\n[profiles.w]\napi_key = \"sekrit2\"\n";
        let copy = without_connection(user);
        assert!(copy.contains("theme = \"light\""), "{copy}");
        assert!(
            copy.contains("# mine") && copy.contains("Due today"),
            "{copy}"
        );
        assert!(
            !copy.contains("sekrit") && !copy.contains("t.example"),
            "{copy}"
        );
        assert_eq!(without_connection("not [toml"), "");
    }

    #[test]
    fn a_fresh_dir_is_new_and_private() {
        let parent = tempfile::tempdir().unwrap();
        let a = fresh_dir(parent.path()).unwrap();
        let b = fresh_dir(parent.path()).unwrap();
        assert_ne!(a, b);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&a).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o700);
        }
    }
}
