//! The words shared by config, cli, app and ui: dates as people say them,
//! keys and the actions they bind, filter words (and their completion), custom-command
//! templates, fuzzy ranking, the keys popups read in code (`fixed_keys`), the one name matcher (`names`), the live filter's match (`narrow`), and small words (`3 files`, `2h ago`). Below all of them: it imports nothing of `app`, `ui`, `cli`
//! or `config` (the config file applies the time zone at start, through
//! [`dates::set_zone`]).

pub mod custom;
pub mod dates;
pub mod filter_complete;
pub mod filters;
pub mod fixed_keys;
pub mod fuzzy;
pub mod keymap;
pub mod later;
pub mod macros;
pub mod names;
pub mod narrow;
pub mod task_field;
pub mod words;
