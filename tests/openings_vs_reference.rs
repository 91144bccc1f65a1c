//! The shipped opening table (data/openings.json, which a CLI test re-derives from
//! scratch) against the rules core and the naive reference: every perfect line is legal,
//! ends the game after exactly its remoteness with the right winner, and the reference's
//! own exhaustive minimax agrees on the value and remoteness of the end of every line.
use kamisado_analysis::OpeningTable;
use kamisado_core::notation::play_line;
use kamisado_core::Position;
use reference::{minimax_within, RefPosition};

fn table() -> OpeningTable {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/data/openings.json");
    OpeningTable::parse(&std::fs::read_to_string(path).unwrap()).unwrap()
}

#[test]
fn every_opening_line_is_a_perfect_game_to_its_end() {
    let table = table();
    let start = Position::start();
    assert_eq!(table.position, start.to_string());
    let moves = &table.moves;
    assert_eq!(moves.len(), start.legal_moves().len());
    let (mut best_win, mut wins) = (u64::MAX, 0);
    for entry in moves {
        let mv = entry.mv.as_str();
        let remoteness = entry.remoteness as usize;
        let pv = &entry.pv;
        assert_eq!(pv[0], mv);
        assert_eq!(pv.len(), remoteness, "{mv}");
        let end = play_line(&start, &pv.join(" "))
            .unwrap_or_else(|e| panic!("{mv}: {e}"))
            .end;
        let winner = end
            .end()
            .unwrap_or_else(|| panic!("{mv}: the line does not end the game"))
            .winner;
        let black_wins = entry.value == "win";
        assert_eq!(winner == kamisado_core::Side::Black, black_wins, "{mv}");
        if black_wins {
            wins += 1;
            best_win = best_win.min(remoteness as u64);
        }
        // The reference, on its own: the exact value and remoteness of every position of
        // the line's last five moves after the opening move itself (which is given, not
        // chosen; earlier positions are beyond its exhaustive minimax in test time).
        let line = play_line(&start, &pv.join(" ")).unwrap();
        let mut pos = start;
        for (ply, m) in line.moves.iter().enumerate() {
            let left = remoteness - ply;
            if ply > 0 && left <= 5 {
                let reference =
                    minimax_within(&RefPosition::parse(&pos.to_string()).unwrap(), left as u32);
                assert_eq!(
                    reference,
                    Some((pos.turn() == winner, left as u32)),
                    "{mv}: {pos}"
                );
            }
            pos = pos.play(*m).unwrap();
        }
    }
    // The top of the table agrees with its moves.
    assert_eq!(table.value, if wins > 0 { "win" } else { "loss" });
    assert_eq!(u64::from(table.remoteness), best_win);
    for entry in moves {
        let is_best = entry.value == "win" && u64::from(entry.remoteness) == best_win;
        assert_eq!(table.best.contains(&entry.mv), is_best);
    }
}
