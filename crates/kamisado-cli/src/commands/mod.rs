//! One module per subcommand: read the arguments, call the libraries, print.

pub mod book;
pub mod certificate;
pub mod db;
pub mod db_args;
pub mod engine;
pub mod kamon;
pub mod match_engine;
pub mod openings;
pub mod perft;
pub mod play;
pub mod prove;
pub mod query;
pub mod referee_args;
pub mod serve;
pub mod show;
pub mod solve;
pub mod verify;
pub mod whole_match;
