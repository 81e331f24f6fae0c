//! The list and moving through it: the service's answers to what is
//! read (`answers`: pages, a task, its tabs), the walk and the cursor
//! (`navigation`), a refresh in O(page) (`refresh`), `#N` lookups
//! (`numbers`), resting or passing rows (`settle`), read-ahead
//! (`prefetch`), marks (`marks`), and what the current task's pane
//! shows and gives (`pane`: zoom, raw text, copy). The live filter's words are
//! `domain::narrow`.

pub mod answers;
pub mod marks;
pub mod navigation;
pub mod numbers;
pub mod pane;
pub mod prefetch;
pub mod refresh;
pub mod settle;
