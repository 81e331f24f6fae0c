//! Changing the current task: one change and its inverse (`changes`),
//! fields and names as people type them (`fields`, `names`, `directory`),
//! sharing (`share`), the pickers (`pickers`), three-way conflicts
//! (`conflict`), and writing — the composer, its drafts on disk and what
//! becomes of a send (`composer`, `drafts`, `sends`).

pub mod changes;
pub mod composer;
pub mod conflict;
pub mod directory;
pub mod drafts;
pub mod fields;
pub mod names;
pub mod pickers;
pub mod sends;
pub mod share;
