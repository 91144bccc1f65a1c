//! `kamisado engine`: the perfect player over KEI on standard input and output.

use kamisado_analysis::Rounds;
use kamisado_referee::{serve, Identity, PerfectPlayer};

use super::referee_args::EngineArgs;
use crate::failure::{Failure, Result};
use crate::input;

pub fn run(args: EngineArgs) -> Result<()> {
    // An engine is sent whatever the referee plays, single rounds or whole matches: the
    // two tables share the budget, each made when first searched.
    // A player must move: a database found damaged mid-game is set aside for search.
    let player = PerfectPlayer::new(
        input::oracle(args.db.as_deref(), &args.search, Rounds::Both)?.falling_back_to_search(),
    );
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
