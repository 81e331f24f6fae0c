#![deny(unsafe_code)]
fn main() {
    ignore_file_size_signal();
    install_error_reports();
    std::process::exit(taskdeck::cli::main());
}

/// color-eyre's hooks: the eyre hook formats the `color_eyre::Report`s the
/// TUI returns, the panic hook prints a readable report. The TUI installs
/// its own panic hook later (`tui::terminal::install_panic_hook`), which
/// restores the terminal first and then calls this one. Colours only on a
/// terminal and without `NO_COLOR`.
fn install_error_reports() {
    use std::io::IsTerminal;
    let colour = std::io::stderr().is_terminal()
        && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty());
    let theme = if colour {
        color_eyre::config::Theme::dark()
    } else {
        color_eyre::config::Theme::new()
    };
    // Fails only if a hook is already installed, which nothing does before.
    let _ = color_eyre::config::HookBuilder::default()
        .theme(theme)
        .display_env_section(false)
        .install();
}

/// A file-size limit (`ulimit -f`) must not end taskdeck: by default a
/// write past it kills the process with SIGXFSZ (exit 153, a blank
/// screen). Caught and nothing done (not SIG_IGN, which the commands
/// taskdeck starts would inherit), the write fails with `EFBIG` instead
/// and is handled like any failed write (the store says what is not kept;
/// the log loses lines). First of all, before any thread or file exists;
/// the one place SIGXFSZ is handled.
fn ignore_file_size_signal() {
    let _ = taskdeck::platform::ffi::leave_alone(libc::SIGXFSZ);
}
