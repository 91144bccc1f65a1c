//! One module per subcommand: read the arguments, call the libraries, print.

pub mod db;
pub mod db_args;
pub mod openings;
pub mod perft;
pub mod play;
pub mod query;
pub mod show;
pub mod solve;
