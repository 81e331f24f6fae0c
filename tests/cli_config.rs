//! The real binary as a process, for its files: `config check`, profiles,
//! `config init`, `validate-layout`, completions and the man page. The user's config and state
//! are never touched: TASKDECK_CONFIG and XDG_STATE_HOME point into a
//! temporary directory.

mod cli_env;

use cli_env::*;
use serde_json::Value;
use taskdeck::sandbox::{Sandbox, SandboxOptions};

async fn sandbox(quirks: bool) -> Sandbox {
    Sandbox::start_local(SandboxOptions {
        tasks: 300,
        quirks,
        ..Default::default()
    })
    .await
    .unwrap()
}

#[tokio::test]
async fn config_file_profiles_and_check() {
    let sb = sandbox(false).await;
    let env = Env::new();
    let path = env.write_config(&format!(
        "base_url = \"http://127.0.0.1:9\"\n\
         theme = \"dark\"\n\
         colour = \"red\"\n\
         \n\
         [profiles.demo]\n\
         base_url = \"{}\"\n\
         api_key_command = \"printf '%s' {}\"\n",
        sb.base_url(),
        sb.keys[1].key
    ));
    let o = env.run(&["config", "check"]).await;
    assert_eq!(o.status.code(), Some(1));
    let out = stdout(&o);
    assert!(
        out.contains(&format!(
            "{}:3: error: unknown key `colour`",
            path.display()
        )),
        "{out}"
    );

    let o = env.run(&["config", "path"]).await;
    assert_eq!(stdout(&o).trim(), path.display().to_string());

    // The profile's connection keys win; the key comes from the command.
    let o = env.run(&["--profile", "demo", "me", "--json"]).await;
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["user_email"], sb.keys[1].user_email.as_str());

    let o = env.run(&["--profile", "nope", "me"]).await;
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("profile `nope` is not defined"));

    // A failing key command: exit status named, output hidden.
    env.write_config(&format!(
        "base_url = \"{}\"\napi_key_command = \"echo hidden-output; exit 7\"\n",
        sb.base_url()
    ));
    let o = env.run(&["me"]).await;
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(err.contains("exit status: 7"), "{err}");
    assert!(
        !err.replace("echo hidden-output", "")
            .contains("hidden-output"),
        "{err}"
    );
}

#[tokio::test]
async fn completions_and_man() {
    let env = Env::new();
    let o = env.run(&["completions", "bash"]).await;
    assert_eq!(o.status.code(), Some(0));
    let out = stdout(&o);
    assert!(
        out.contains("_taskdeck") && out.contains("validate-layout"),
        "{out}"
    );
    let o = env.run(&["man"]).await;
    assert_eq!(o.status.code(), Some(0));
    assert!(stdout(&o).contains(".TH taskdeck"));
}

#[tokio::test]
async fn config_check_reports_bad_key_bindings() {
    let env = Env::new();
    let path = env.write_config(
        "theme = \"dark\"\n\
         \n\
         [keys.list]\n\
         \"ctrl-n\" = \"down\"\n\
         \"K\" = \"fly\"\n\
         \n\
         [keys.bogus]\n\
         x = \"up\"\n",
    );
    let o = env.run(&["config", "check"]).await;
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    let out = stdout(&o);
    let p = path.display();
    let line = |n: usize| {
        out.lines()
            .find(|l| l.starts_with(&format!("{p}:{n}: error: ")))
            .unwrap_or_else(|| panic!("no error on line {n}: {out}"))
            .to_string()
    };
    assert!(line(5).contains("fly"), "{out}");
    assert!(line(7).contains("bogus"), "{out}");
    assert!(!out.contains(&format!("{p}:4:")), "{out}");
    assert!(out.contains("2 errors, 0 warnings"), "{out}");

    // Good bindings only: clean, exit 0.
    env.write_config("[keys.list]\n\"ctrl-n\" = \"down\"\n");
    let o = env.run(&["config", "check"]).await;
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    assert!(stdout(&o).contains("0 errors"), "{}", stdout(&o));
}

#[tokio::test]
async fn config_check_reports_views_and_commands() {
    let env = Env::new();
    let path = env.write_config(
        "[[views]]\n\
         name = \"Due today\"\n\
         filter = \"assigned=me to=someday\"\n\
         \n\
         [[views]]\n\
         name = \"Jay\"\n\
         filter = \"\"\n\
         key = \"j\"\n\
         \n\
         [[commands]]\n\
         description = \"Quoted\"\n\
         run = \"echo '{id}'\"\n\
         \n\
         [[commands]]\n\
         description = \"Fine\"\n\
         run = \"echo {titel} {id}\"\n",
    );
    let o = env.run(&["config", "check"]).await;
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    let out = stdout(&o);
    let p = path.display();
    let at = |n: usize, sev: &str| {
        out.lines()
            .find(|l| l.starts_with(&format!("{p}:{n}: {sev}: ")))
            .unwrap_or_else(|| panic!("no {sev} on line {n}: {out}"))
            .to_string()
    };
    assert!(at(3, "error").contains("someday"), "{out}");
    assert!(at(12, "error").contains("inside quotes"), "{out}");
    assert!(at(16, "warning").contains("{titel}"), "{out}");
    assert!(
        out.lines()
            .any(|l| l.starts_with(&format!("{p}: warning: "))
                && l.contains("key j of view \"Jay\"")),
        "{out}"
    );
    assert!(out.contains("2 errors, 2 warnings"), "{out}");
}

/// Issue 44 §5: an unknown variable, an unknown field value, a phrase the
/// time grammar does not read, a key bound twice — each named, and the
/// check fails; a good macro passes.
#[tokio::test]
async fn config_check_names_each_fault_of_a_macro_and_fails() {
    let env = Env::new();
    let path = env.write_config(
        "[[macros]]\n\
         name = \"typo\"\n\
         description = \"x\"\n\
         reply = \"Hi {requestor}\"\n\
         priority = \"highest\"\n\
         due = \"someday\"\n\
         follow_up = \"whenever\"\n\
         \n\
         [[macros]]\n\
         name = \"twice\"\n\
         description = \"y\"\n\
         key = \"j\"\n\
         status = \"completed\"\n",
    );
    let o = env.run(&["config", "check"]).await;
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    let out = stdout(&o);
    let p = path.display();
    for (what, why) in [
        ("`reply`", "unknown variable {requestor}"),
        ("`priority`", "highest"),
        ("`due`", "someday"),
        ("`follow_up`", "whenever"),
    ] {
        assert!(
            out.lines().any(
                |l| l.starts_with(&format!("{p}:1: error: macro \"typo\" {what}"))
                    && l.contains(why)
            ),
            "{what}: {out}"
        );
    }
    assert!(
        out.lines().any(|l| l.starts_with(&format!("{p}: error: "))
            && l.contains("key j of macro \"twice\" is bound twice")),
        "{out}"
    );
    assert!(out.contains("5 errors"), "{out}");
    env.write_config(
        "[[macros]]\nname = \"ok\"\ndescription = \"x\"\nreply = \"Hi {requester} ({number})\"\nstatus = \"waiting\"\nfollow_up = \"in 3 days\"\n",
    );
    let o = env.run(&["config", "check"]).await;
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
}

#[tokio::test]
async fn config_init_fed_its_answers_writes_a_working_private_config() {
    let sb = sandbox(false).await;
    let env = Env::new();
    let path = env.write_config("# kept: my own note\ntheme = \"light\"\n");
    let answers = format!(
        "{}/api/v1\n1\nprintf %s {}\n",
        sb.base_url(),
        sb.keys[0].key
    );
    let o = env
        .run_with_stdin(&["config", "init"], Some(&answers))
        .await;
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(err.contains("adds /api/v1 itself"), "{err}");
    assert!(err.contains("connected: Alice Martin"), "{err}");
    assert!(err.contains("Acme"), "{err}");
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains("# kept: my own note"), "{text}");
    assert!(text.contains("theme = \"light\""), "{text}");
    assert!(
        text.contains(&format!(
            "base_url = \"{}\"",
            sb.base_url().trim_end_matches('/')
        )),
        "{text}"
    );
    assert!(text.contains("api_key_command = \"printf %s "), "{text}");
    assert!(
        !text.contains("api_key ="),
        "the key is not in the file: {text}"
    );
    use std::os::unix::fs::PermissionsExt;
    let mode = std::fs::metadata(&path).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o600);
    // Its first line points at the schema, written beside it, which is
    // what `taskdeck config schema` prints.
    assert!(
        text.starts_with("#:schema ./taskdeck.schema.json\n# kept: my own note\n"),
        "{text}"
    );
    let written = std::fs::read_to_string(path.with_file_name("taskdeck.schema.json")).unwrap();
    let o = env.run(&["config", "schema"]).await;
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o), written);
    let schema: Value = serde_json::from_str(&written).unwrap();
    assert_eq!(
        schema["$schema"],
        "https://json-schema.org/draft/2020-12/schema"
    );
    assert_eq!(schema["properties"]["page_size"]["maximum"], 100);
    // `taskdeck me` uses it.
    let o = env.run(&["me"]).await;
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(String::from_utf8_lossy(&o.stdout).contains("Alice Martin"));

    // No answers: nothing written, a clear line.
    let bare = Env::new();
    let o = bare.run_with_stdin(&["config", "init"], Some("")).await;
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("nothing written"), "{}", stderr(&o));
    assert!(!bare.dir.path().join("config.toml").exists());
}

#[tokio::test]
async fn config_init_asks_how_to_notify_and_writes_it() {
    let sb = sandbox(false).await;
    let env = Env::new();
    let path = env.write_config("");
    let answers = format!(
        "{}\n1\nprintf %s {}\nbeep\nbell, desktop\n",
        sb.base_url(),
        sb.keys[0].key
    );
    let o = env
        .run_with_stdin(&["config", "init"], Some(&answers))
        .await;
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(err.contains("Notify [title]"), "{err}");
    assert!(err.contains("`notify` takes bell, desktop, title"), "{err}");
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains("notify = [\"bell\", \"desktop\"]"), "{text}");
    // Left unanswered (end of input): the default stays, nothing written.
    let env = Env::new();
    let path = env.write_config("");
    let answers = format!("{}\n1\nprintf %s {}\n", sb.base_url(), sb.keys[0].key);
    let o = env
        .run_with_stdin(&["config", "init"], Some(&answers))
        .await;
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(!text.contains("notify"), "{text}");
}

#[tokio::test]
async fn config_check_suggests_keys_hints_api_v1_and_points_to_init() {
    let env = Env::new();
    let o = env.run(&["config", "check"]).await;
    assert!(
        stdout(&o).contains("nothing configured: `taskdeck config init`"),
        "{}",
        stdout(&o)
    );
    let path = env.write_config("base_url = \"https://h.example/api/v1\"\npage_sise = 20\n");
    let o = env.run(&["config", "check"]).await;
    let out = stdout(&o);
    assert!(
        out.contains(&format!(
            "{}:2: error: unknown key `page_sise` — did you mean `page_size`?",
            path.display()
        )),
        "{out}"
    );
    assert!(
        out.contains(":1: warning: `base_url` ends with /api/v1"),
        "{out}"
    );
}

#[tokio::test]
async fn validate_layout_outcomes() {
    let sb = sandbox(false).await;
    let env = Env::for_sandbox(&sb, &sb.keys[0].key);
    let good = env.dir.path().join("good.json");
    std::fs::write(
        &good,
        r#"{"type": "report", "blocks": [{"type": "heading", "text": "Q3", "level": 1}]}"#,
    )
    .unwrap();
    let o = env.run(&["validate-layout", good.to_str().unwrap()]).await;
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
    assert!(stdout(&o).contains("valid"));

    let bad = r#"{"type": "report", "blocks": [{"type": "heading", "levl": 1}]}"#;
    let o = env
        .run_with_stdin(&["validate-layout", "-"], Some(bad))
        .await;
    assert_eq!(o.status.code(), Some(1));
    let out = stdout(&o);
    assert!(out.contains("invalid"), "{out}");
    assert!(
        out.contains("warning  blocks[0].levl  unknown_field"),
        "{out}"
    );
    assert!(
        out.lines().any(|l| l.starts_with("error  blocks[0]")),
        "{out}"
    );

    let o = env
        .run_with_stdin(&["validate-layout", "-", "--json"], Some(bad))
        .await;
    assert_eq!(o.status.code(), Some(1));
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["valid"], false);

    let o = env
        .run_with_stdin(&["validate-layout", "-"], Some("{\"blocks\": [\n"))
        .await;
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(
        err.contains("standard input") && err.contains("line 2"),
        "{err}"
    );
    let o = env
        .run(&["validate-layout", "/nonexistent/layout.json"])
        .await;
    assert_eq!(o.status.code(), Some(2));

    let gina = sb
        .keys
        .iter()
        .find(|k| k.note.contains("no Visual Builder"))
        .unwrap();
    let env2 = Env::for_sandbox(&sb, &gina.key);
    let o = env2.run(&["validate-layout", good.to_str().unwrap()]).await;
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("the Visual Builder is not enabled for this organisation"),
        "{}",
        stderr(&o)
    );
}

#[tokio::test]
async fn validate_layout_help_unwrapping_and_json_errors() {
    let sb = sandbox(false).await;
    let env = Env::for_sandbox(&sb, &sb.keys[0].key);

    // The help says what FILE holds: the layout itself, not {"layout": ...}.
    for flag in ["-h", "--help"] {
        let o = env.run(&["validate-layout", flag]).await;
        assert_eq!(o.status.code(), Some(0));
        let out = stdout(&o);
        assert!(
            out.contains(r#"{"type": "report", "version": "1", "blocks": [...]}"#),
            "{flag}: {out}"
        );
    }
    let o = env.run(&["validate-layout", "--help"]).await;
    assert!(
        stdout(&o).contains(r#"not wrapped in {"layout": ...}"#),
        "{}",
        stdout(&o)
    );

    // A wrapped layout is unwrapped, with a note, and validated as the inner object.
    let wrapped = env.dir.path().join("wrapped.json");
    std::fs::write(
        &wrapped,
        r#"{"layout": {"type": "report", "blocks": [{"type": "heading", "text": "Q3", "level": 1}]}}"#,
    )
    .unwrap();
    sb.clear_requests();
    let o = env
        .run(&["validate-layout", wrapped.to_str().unwrap()])
        .await;
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
    let err = stderr(&o);
    assert_eq!(
        err.trim_end(),
        format!(
            "note: {} wraps the layout in {{\"layout\": …}}; sending the inner object",
            wrapped.display()
        )
    );
    assert!(stdout(&o).contains(": valid"), "{}", stdout(&o));
    // A FIFO is refused at once, named (it would hang a plain read).
    let fifo = env.dir.path().join("layout.fifo");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(made.success());
    let o = env.run(&["validate-layout", fifo.to_str().unwrap()]).await;
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("a FIFO"), "{}", stderr(&o));
    // Not wrapped: no note.
    let o = env
        .run_with_stdin(
            &["validate-layout", "-"],
            Some(
                r#"{"type": "report", "blocks": [{"type": "heading", "text": "Q3", "level": 1}]}"#,
            ),
        )
        .await;
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(o.stderr.is_empty(), "{}", stderr(&o));

    // Invalid JSON: exit 2, one line naming the file, the line and the column.
    let broken = env.dir.path().join("broken.json");
    std::fs::write(
        &broken,
        "{\n  \"type\": \"report\",\n  \"blocks\": [,]\n}\n",
    )
    .unwrap();
    sb.clear_requests();
    let o = env
        .run(&["validate-layout", broken.to_str().unwrap()])
        .await;
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let err = stderr(&o);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.starts_with(&format!(
            "taskdeck: {}: not valid JSON at line 3, column 14: ",
            broken.display()
        )),
        "{err}"
    );
    assert!(sb.requests().is_empty());
}

/// `ca_file` is read like the config file: a regular file of bounded size,
/// refused at once otherwise (`/dev/zero` grew to 1.7 GB in a second, a
/// FIFO hung); `config check` names what is wrong with it.
#[tokio::test]
async fn config_check_checks_the_ca_file_and_refuses_special_files_at_once() {
    let env = Env::new();
    let tls = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/tls");
    let fifo = env.dir.path().join("ca.fifo");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    assert!(made.unwrap().success());
    let folder = env.dir.path().join("certs");
    std::fs::create_dir(&folder).unwrap();
    let missing = env.dir.path().join("nowhere.pem");
    let cases: Vec<(String, &str)> = vec![
        (tls.join("ca.pem").display().to_string(), "(1 certificate)"),
        (
            "/dev/zero".into(),
            "not a regular file (a character device)",
        ),
        (fifo.display().to_string(), "not a regular file (a FIFO)"),
        (
            folder.display().to_string(),
            "not a regular file (a directory)",
        ),
        (missing.display().to_string(), "no such file"),
        (
            tls.join("README.md").display().to_string(),
            "no certificate in it",
        ),
    ];
    for (ca, says) in cases {
        env.write_config(&format!(
            "base_url = \"https://tasks.example\"\nca_file = \"{ca}\"\n"
        ));
        let o = tokio::time::timeout(
            std::time::Duration::from_secs(20),
            env.run(&["config", "check"]),
        )
        .await
        .unwrap_or_else(|_| panic!("config check hung on ca_file {ca}"));
        let out = stdout(&o);
        assert!(out.contains(says), "{ca}: {out}");
        let good = says.starts_with('(');
        assert_eq!(
            o.status.code(),
            Some(if good { 0 } else { 1 }),
            "{ca}: {out}"
        );
        // The TUI and the commands refuse it at once too (no hang, no growth).
        if !good {
            let mut env2 = Env::new();
            env2.write_config(&format!(
                "base_url = \"https://tasks.example\"\nca_file = \"{ca}\"\n"
            ));
            env2.set("TASKDECK_API_KEY", "k");
            let o = tokio::time::timeout(std::time::Duration::from_secs(20), env2.run(&["me"]))
                .await
                .unwrap_or_else(|_| panic!("`me` hung on ca_file {ca}"));
            assert_ne!(o.status.code(), Some(0));
            assert!(stderr(&o).contains("ca_file"), "{ca}: {}", stderr(&o));
        }
    }
}

/// `config init` with a FIFO at the config path stops with a word before
/// asking anything (it hung reading it); a symlinked config is written
/// through the link, which stays a link.
#[tokio::test]
async fn config_init_stops_at_a_fifo_and_writes_through_a_link() {
    let env = Env::new();
    let path = env.dir.path().join("config.toml");
    let made = std::process::Command::new("mkfifo").arg(&path).status();
    assert!(made.unwrap().success());
    let o = tokio::time::timeout(
        std::time::Duration::from_secs(20),
        env.run_with_stdin(&["config", "init"], Some("")),
    )
    .await
    .expect("config init hung on a FIFO");
    let err = stderr(&o);
    assert_ne!(o.status.code(), Some(0));
    assert!(err.contains("not a regular file (a FIFO)"), "{err}");
    assert!(!err.contains("Base URL"), "asked before refusing: {err}");

    let sb = sandbox(false).await;
    let env = Env::new();
    let dotfiles = env.dir.path().join("dotfiles");
    std::fs::create_dir(&dotfiles).unwrap();
    let target = dotfiles.join("taskdeck.toml");
    std::fs::write(&target, "# mine\n").unwrap();
    let link = env.dir.path().join("config.toml");
    std::os::unix::fs::symlink("dotfiles/taskdeck.toml", &link).unwrap();
    let answers = format!("{}\n1\nprintf %s {}\n", sb.base_url(), sb.keys[0].key);
    let o = env
        .run_with_stdin(&["config", "init"], Some(&answers))
        .await;
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let meta = std::fs::symlink_metadata(&link).unwrap();
    assert!(
        meta.file_type().is_symlink(),
        "the link was replaced by a file"
    );
    let text = std::fs::read_to_string(&target).unwrap();
    assert!(
        text.contains("# mine") && text.contains("base_url"),
        "{text}"
    );
}

/// #42 §9, as a user meets it: `api_key_command = "sleep 30 & echo KEY"`
/// printed the key and its shell exited, but `me` failed after the limit
/// ("did not finish") because the background `sleep` held stdout. The key
/// is taken when the shell has exited and its line is complete; the
/// `sleep` is ended with the rest of the command's process group.
#[tokio::test]
async fn a_key_command_leaving_a_background_child_gives_its_key_and_the_child_is_ended() {
    let sb = sandbox(false).await;
    let env = Env::new();
    let pidfile = env.dir.path().join("sleep.pid");
    env.write_config(&format!(
        "base_url = \"{}\"\n\
         api_key_command_timeout_secs = 20\n\
         api_key_command = \"sleep 30 & echo $! > {}; echo {}\"\n",
        sb.base_url(),
        pidfile.display(),
        sb.keys[0].key
    ));
    let o = env.run(&["me", "--json"]).await;
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["user_email"], sb.keys[0].user_email.as_str());
    let pid: i32 = std::fs::read_to_string(&pidfile)
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    let gone = || {
        std::fs::read_to_string(format!("/proc/{pid}/stat")).map_or(true, |s| {
            s.rsplit(')')
                .next()
                .is_some_and(|r| r.trim_start().starts_with('Z'))
        })
    };
    let started = std::time::Instant::now();
    while !gone() && started.elapsed() < std::time::Duration::from_secs(10) {
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    assert!(
        gone(),
        "the key command's background sleep {pid} still runs"
    );
}

/// Issue 46 §1, as the docs lead a new user: `config init`, then `config
/// init --profile bob`. The top level's connection is the profile
/// `default`: init says how to switch both ways; `--profile default` and
/// `TASKDECK_PROFILE=default` are the top level; `doctor` names it; a
/// `[profiles.default]` table is an error `config check` reports; and
/// `default_profile` renames it.
#[tokio::test]
async fn the_top_level_connection_is_the_profile_default() {
    let sb = sandbox(false).await;
    let mut env = Env::new();
    let path = env.write_config("");
    let answers = |key: &str| format!("{}\n1\nprintf %s {key}\n", sb.base_url());
    let o = env
        .run_with_stdin(&["config", "init"], Some(&answers(&sb.keys[0].key)))
        .await;
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("this connection is the profile default"),
        "{}",
        stdout(&o)
    );
    let o = env
        .run_with_stdin(
            &["--profile", "bob", "config", "init"],
            Some(&answers(&sb.keys[1].key)),
        )
        .await;
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("start with: taskdeck --profile bob"), "{out}");
    assert!(
        out.contains("the profile default") && out.contains("`:profile default`"),
        "{out}"
    );
    let o = env.run(&["config", "check"]).await;
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));

    let who = |o: &std::process::Output| {
        assert_eq!(o.status.code(), Some(0), "{}", stderr(o));
        let v: Value = serde_json::from_slice(&o.stdout).unwrap();
        v["user_email"].as_str().unwrap().to_string()
    };
    let alice = sb.keys[0].user_email.clone();
    let bob = sb.keys[1].user_email.clone();
    assert_eq!(
        who(&env.run(&["--profile", "bob", "me", "--json"]).await),
        bob
    );
    assert_eq!(
        who(&env.run(&["--profile", "default", "me", "--json"]).await),
        alice
    );
    env.set("TASKDECK_PROFILE", "default");
    assert_eq!(who(&env.run(&["me", "--json"]).await), alice);
    let o = env.run(&["config", "check"]).await;
    assert!(
        stdout(&o).contains("profile: default (the top level)"),
        "{}",
        stdout(&o)
    );
    let o = env.run(&["doctor", "--json"]).await;
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    let profiles = v["checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == "profiles")
        .unwrap()["detail"]
        .clone();
    assert_eq!(
        profiles,
        "in use: default (the top level); defined: default, bob"
    );
    env.set("TASKDECK_PROFILE", "bob");
    assert_eq!(who(&env.run(&["me", "--json"]).await), bob);

    // A table of the top level's name: an error with its line.
    let text = std::fs::read_to_string(&path).unwrap();
    let lines = text.lines().count();
    std::fs::write(
        &path,
        format!("{text}\n[profiles.default]\nbase_url = \"https://x.example\"\n"),
    )
    .unwrap();
    let o = env.run(&["config", "check"]).await;
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    let out = stdout(&o);
    assert!(
        out.contains(&format!(
            "{}:{}: error: profile `default` has the name of the top level's connection",
            path.display(),
            lines + 2
        )),
        "{out}"
    );
    // Renamed: `work` is the top level, and the table named `default` is
    // a profile like any other.
    std::fs::write(&path, format!("default_profile = \"work\"\n{text}")).unwrap();
    env.set("TASKDECK_PROFILE", "work");
    assert_eq!(who(&env.run(&["me", "--json"]).await), alice);
    let o = env.run(&["--profile", "default", "me"]).await;
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
}
