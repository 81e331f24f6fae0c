//! Changing the current task: one change and its inverse (`changes`),
//! names as people type them resolved or picked (`names`), sharing
//! (`share`), the pickers (`pickers`), three-way conflicts (`conflict`),
//! and what becomes of a send (`sends`). The words they stand on — the
//! directory, the fields, the composer and its drafts — are the state's
//! (`app/state/`), as popups and the list use them too.

pub mod changes;
pub mod conflict;
pub mod names;
pub mod pickers;
pub mod sends;
pub mod share;
