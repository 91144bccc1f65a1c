//! A Kamon request read into a game record, exactly as `kamisado kamon solve` reads its
//! `--layout`, `--seed`, `--after` and `--moves`: the same records, the same one-line
//! errors. Only what clap checks on the command line (numbers, which arguments go
//! together) is checked here, in words of the same kind.

use kamon_core::Record;

use crate::commands::kamon::{input, KamonPositionArgs};
use crate::failure::{Failure, Result};

/// The placements `--after` allows: a random opening cannot fill the board.
const MOST_AFTER: u32 = 35;

/// A Kamon request read and checked: the game it asks about.
pub struct KamonRequest {
    pub record: Record,
}

impl KamonRequest {
    /// Reads the query's `layout`, `seed`, `after` and `moves` (absent when empty).
    pub fn read(
        layout: Option<String>,
        seed: Option<String>,
        after: Option<String>,
        moves: Option<String>,
    ) -> Result<KamonRequest> {
        if layout.is_some() && seed.is_some() {
            return Err(Failure::input(
                "give --layout TEXT or --seed N, not both: a seed names its own layout",
            ));
        }
        let seed = seed
            .map(|text| {
                text.trim().parse::<u64>().map_err(|_| {
                    Failure::input(format!(
                        "--seed: `{}` is not a seed: expected a number from 0 to {}",
                        kamisado_core::quote(&text),
                        u64::MAX
                    ))
                })
            })
            .transpose()?;
        let after = after
            .map(|text| match text.trim().parse::<u32>() {
                Ok(k) if k <= MOST_AFTER => Ok(k),
                _ => Err(Failure::input(format!(
                    "--after: `{}` is not a number of random placements: expected 0 to {MOST_AFTER}",
                    kamisado_core::quote(&text)
                ))),
            })
            .transpose()?;
        let record = input::record(&KamonPositionArgs {
            layout,
            seed,
            after,
            moves,
        })?;
        Ok(KamonRequest { record })
    }
}
