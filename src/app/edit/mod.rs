//! Changing the current task: its fields (`task`: `:status`, `:due`, …),
//! its links and files (`links`), the service's answers to them
//! (`answers`), one change and its inverse (`changes`),
//! names as people type them resolved or picked (`names`), sharing
//! (`share`), the pickers (`pickers`), three-way conflicts (`conflict`),
//! and what becomes of a send (`sends`). The words they stand on — the
//! directory, the fields, the composer and its drafts — are the state's
//! (`app/state/`), as popups and the list use them too.

pub mod answers;
pub mod changes;
pub mod conflict;
pub mod links;
pub mod names;
pub mod pickers;
pub mod sends;
pub mod share;
pub mod task;
