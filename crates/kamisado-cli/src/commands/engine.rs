//! `kamisado engine`: the perfect player over KEI on standard input and output.

use kamisado_db::Oracle;
use kamisado_referee::{serve, Identity, PerfectPlayer};

use super::referee_args::EngineArgs;
use crate::failure::{Failure, Result};
use crate::input;

pub fn run(args: EngineArgs) -> Result<()> {
    let db = super::db::open_optional(args.db.as_deref())?;
    let solver = input::solver(&args.search)?;
    let player = PerfectPlayer::new(Oracle::new(db, solver));
    let identity = Identity {
        name: format!("kamisado {} (perfect player)", env!("CARGO_PKG_VERSION")),
        author: "the kamisado project".to_owned(),
    };
    let stdin = std::io::stdin().lock();
    let stdout = std::io::stdout().lock();
    serve(&player, &identity, stdin, stdout)
        // A referee that hangs up mid-game is an ordinary end, not worth a message.
        .or_else(|e| match e.kind() {
            std::io::ErrorKind::BrokenPipe => Ok(()),
            _ => Err(Failure::internal(format!("engine input/output: {e}"))),
        })
}
