//! The view switcher (`0`, `:view`): every view with its key, its filter
//! and its count (the rows of its first page, `+` when there are more),
//! asked for each time it opens and filled in as the answers come.

mod handle;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Switcher {
    pub selected: usize,
}
