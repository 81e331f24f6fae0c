//! The list and moving through it: the walk and the cursor
//! (`navigation`), a refresh in O(page) (`refresh`), the live filter
//! (`narrow`), `#N` lookups (`numbers`), resting or passing rows
//! (`settle`), read-ahead (`prefetch`) and marks (`marks`).

pub mod marks;
pub mod narrow;
pub mod navigation;
pub mod numbers;
pub mod prefetch;
pub mod refresh;
pub mod settle;
