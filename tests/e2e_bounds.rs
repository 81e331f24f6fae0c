//! The real binary in a pseudo-terminal, for what must stay bounded or
//! restored whatever comes in: the key command's prompt, suspending with
//! ctrl-z, and terminating signals.

mod support;

use support::*;

/// `api_key_command` runs before the screen is taken, in its own process
/// group that holds the terminal while it runs: its prompt on stderr shows,
/// and its answer read from the terminal reaches it.
#[test]
fn the_key_command_prompt_shows_and_can_be_answered() {
    let svc = Service::small();
    let home = Home::new();
    let cfg = home.root().join("config.toml");
    std::fs::write(
        &cfg,
        format!(
            "base_url = \"{}\"\napi_key_command = \"printf 'Passphrase: ' >&2; read -r p; \
             [ \\\"$p\\\" = open-sesame ] && printf {KEY}\"\n",
            svc.sb.base_url()
        ),
    )
    .unwrap();
    let env = vec![("TASKDECK_CONFIG".to_string(), cfg.display().to_string())];
    let mut tui = Tui::spawn(&home, &[], &env, 120, 40);
    tui.wait_for("Passphrase:", WAIT);
    tui.send("open-sesame\r");
    tui.wait_for("Alice Martin", WAIT);
    tui.send("q");
    assert_eq!(tui.wait_exit(WAIT).exit_code(), 0);
    assert_restored(&tui.raw());
}
