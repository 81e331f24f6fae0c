//! The list and moving through it: the walk and the cursor
//! (`navigation`), a refresh in O(page) (`refresh`), `#N` lookups
//! (`numbers`), resting or passing rows (`settle`), read-ahead
//! (`prefetch`) and marks (`marks`). The live filter's words are
//! `domain::narrow`.

pub mod marks;
pub mod navigation;
pub mod numbers;
pub mod prefetch;
pub mod refresh;
pub mod settle;
