//! The shipped opening book (`data/book.kdb`) against the naive reference, which shares no
//! code with the crates: positions the reference reaches by random play within the book's
//! plies and one move further are all in the file; where a stored result is short enough
//! for the reference's exhaustive minimax, the minimax agrees; and a sample of the book's
//! deepest positions is proved afresh in a certificate that the reference's own checker
//! accepts, claiming exactly what the book stores.

use kamisado_cert::prove;
use kamisado_core::{Kamisado, Position, Side};
use kamisado_db::Database;
use kamisado_solver::{Cancel, Options, Solver, Value};
use reference::{check_certificate, minimax_within, random_position, RefPosition};

fn book() -> Database {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/data/book.kdb");
    Database::open(std::path::Path::new(path)).expect("data/book.kdb is shipped")
}

/// The reference's position as the crates read it, if the game is still on.
fn in_play(r: &RefPosition) -> Option<Position> {
    if r.game_end().is_some() {
        return None;
    }
    Some(
        r.to_text()
            .parse()
            .expect("the crates read the reference's text"),
    )
}

/// What the book stores for `pos`: who wins and in how many moves; `None` if the file
/// has no record of it.
fn stored(db: &Database, pos: &Position) -> Option<(Side, u32)> {
    let s = db.lookup(pos).expect("the book reads")?;
    let remoteness = s
        .remoteness
        .unwrap_or_else(|| panic!("{pos}: no exact remoteness in the book"));
    let winner = if s.value == Value::Win {
        pos.turn()
    } else {
        !pos.turn()
    };
    Some((winner, remoteness))
}

#[test]
fn every_position_the_reference_reaches_is_in_the_book_and_short_results_agree() {
    let db = book();
    let plies = db.header().book_plies;
    assert!(plies >= 2, "the shipped book covers at least two moves");
    let (mut found, mut compared) = (0, 0);
    for seed in 0..400 {
        for moves in 1..=plies + 1 {
            let r = random_position(seed, moves);
            let Some(pos) = in_play(&r) else {
                break;
            };
            // Every position of the book's plies and one move further has an exact record,
            // but for those the rules decide: the side to move wins at once.
            let Some((winner, remoteness)) = stored(&db, &pos) else {
                assert_eq!(
                    minimax_within(&r, 1),
                    Some((true, 1)),
                    "{pos} is not in the book"
                );
                continue;
            };
            found += 1;
            if remoteness <= 4 {
                let (wins, r_ref) = minimax_within(&r, remoteness + 1).unwrap_or_else(|| {
                    panic!(
                        "{pos}: the reference finds no end within {}",
                        remoteness + 1
                    )
                });
                let winner_ref = if wins { pos.turn() } else { !pos.turn() };
                assert_eq!((winner_ref, r_ref), (winner, remoteness), "{pos}");
                compared += 1;
            }
        }
    }
    assert!(found > 1000, "{found} positions looked up");
    assert!(compared > 50, "only {compared} short results compared");
}

#[test]
fn deepest_book_positions_are_proved_to_the_reference_as_the_book_says() {
    let db = book();
    let plies = db.header().book_plies;
    // Positions of the deepest ply reached by the reference's random play, in play.
    let positions: Vec<Position> = (1000..)
        .filter_map(|seed| in_play(&random_position(seed, plies)))
        .take(2)
        .collect();
    let solver = Solver::new(
        Kamisado,
        Options {
            threads: 2,
            table_bytes: 128 << 20,
        },
    )
    .unwrap();
    let certificate = prove(&solver, &positions, &Cancel::new(), &mut |_| {}).unwrap();
    let proved = check_certificate(&certificate.encode()).expect("the reference accepts it");
    let expected: Vec<String> = positions
        .iter()
        .map(|pos| {
            let (winner, remoteness) =
                stored(&db, pos).unwrap_or_else(|| panic!("{pos} is not in the book"));
            let winner = if winner == Side::Black {
                "Black"
            } else {
                "White"
            };
            format!("{pos}: {winner} wins in {remoteness}")
        })
        .collect();
    assert_eq!(proved, expected);
}
