//! One module per subcommand: read the arguments, call the libraries, print.

pub mod openings;
pub mod perft;
pub mod show;
pub mod solve;
