//! Kamon: the bitboard rules (kamon-core) and the generic solver against the naive
//! reference (tests/reference/kamon), which shares no code with either. Everything goes
//! through the page's text (layout text, move lists, cell names), so the two sides meet
//! only where a user would: perft and divide from many layouts and prefixes, legal cells
//! and game results on thousands of positions (finished ones included), and solved values
//! with remoteness of late positions (won, lost and drawn) against exhaustive minimax,
//! with every best move and the whole perfect line checked move by move.

use kamisado_solver::{Cancel, Options, Score, Solver, Value};
use kamon_core::perft::{divide, perft};
use kamon_core::{KamonGame, Layout, Record};
use reference::{
    kamon_divide, kamon_legal_cells, kamon_perft, kamon_random_moves, kamon_result, kamon_solve,
};

/// The fast crate's record of `layout` and `moves` (as text).
fn record(layout: &str, moves: &str) -> Record {
    format!("{layout} {moves}")
        .parse()
        .unwrap_or_else(|e| panic!("kamon-core refuses `{layout} {moves}`: {e}"))
}

/// A random layout and a reference random game of `placements` placements on it, which
/// avoids placements that end the game while it can.
fn random_game(seed: u64, placements: usize) -> (String, String) {
    let layout = Layout::random(seed).to_string();
    let moves = kamon_random_moves(&layout, "", seed.wrapping_mul(31) + 7, placements).unwrap();
    (layout, moves)
}

fn solver(layout: &str, threads: usize) -> Solver<KamonGame> {
    let game = KamonGame::new(layout.parse().unwrap());
    Solver::new(
        game,
        Options {
            threads,
            table_bytes: 16 << 20,
        },
    )
    .unwrap()
}

#[test]
fn perft_and_divide_agree_from_many_layouts_and_prefixes() {
    let mut total = 0;
    for seed in 0..60u64 {
        // From the start, from the opening and from the middle game.
        let (placements, depth) = [(0, 3), (2, 4), (8, 4), (16, 5), (24, 6)][seed as usize % 5];
        let (layout, moves) = random_game(seed, placements);
        let r = record(&layout, &moves);
        let fast = perft(r.layout(), r.position(), depth);
        assert_eq!(
            fast,
            kamon_perft(&layout, &moves, depth).unwrap(),
            "perft({depth}) of {r}"
        );
        let fast_divide: Vec<(String, u64)> = divide(r.layout(), r.position(), depth)
            .into_iter()
            .map(|(cell, n)| (cell.to_string(), n))
            .collect();
        assert_eq!(
            fast_divide,
            kamon_divide(&layout, &moves, depth).unwrap(),
            "divide({depth}) of {r}"
        );
        total += fast;
    }
    assert!(total > 100_000, "only {total} sequences compared");
}

#[test]
fn legal_cells_and_results_agree_on_thousands_of_positions() {
    let (mut positions, mut finished) = (0, [0usize; 4]);
    for seed in 0..1000u64 {
        // Every other game as long as it goes, to meet full boards.
        let placements = if seed % 2 == 0 {
            35
        } else {
            2 + (seed as usize * 7) % 34
        };
        let (layout, moves) = random_game(seed, placements);
        let r = record(&layout, &moves);
        // The position and every position one placement on, finished games included.
        let mut texts = vec![moves.clone()];
        texts.extend(
            r.position()
                .legal_cells(r.layout())
                .map(|cell| format!("{moves} {cell}")),
        );
        for moves in texts {
            let r = record(&layout, &moves);
            let fast: Vec<String> = r
                .position()
                .legal_cells(r.layout())
                .map(|c| c.to_string())
                .collect();
            assert_eq!(fast, kamon_legal_cells(&layout, &moves).unwrap(), "{r}");
            let fast_result = r.position().end().map(|end| {
                let winner = end.winner.map_or("draw", |w| w.name());
                (winner.to_string(), end.reason.name().to_string())
            });
            assert_eq!(fast_result, kamon_result(&layout, &moves).unwrap(), "{r}");
            if let Some(end) = r.position().end() {
                finished[end.reason as usize] += 1;
            }
            positions += 1;
        }
    }
    assert!(positions >= 2000, "only {positions} positions");
    // Every way a game ends was met: connection, loop, full board, no legal cell.
    eprintln!("finished games by reason: {finished:?}");
    assert!(finished.iter().all(|&n| n > 0), "{finished:?}");
}

/// Late positions (8 to 12 free cells) of random games that are not over, with the free
/// cell count wanted for each.
fn late_positions(seeds: std::ops::Range<u64>) -> Vec<(String, String)> {
    seeds
        .map(|seed| random_game(seed, 24 + (seed as usize % 5)))
        .filter(|(layout, moves)| !record(layout, moves).position().is_over())
        .collect()
}

/// Checks the solver's value, remoteness, best moves and perfect line of one position
/// against the reference; returns the value.
fn check_solution(solver: &Solver<KamonGame>, layout: &str, moves: &str) -> Value {
    let r = record(layout, moves);
    let node = solver.game().node(r.position());
    let (value, remoteness) = kamon_solve(layout, moves).unwrap();
    let solution = solver.solve(&node, &Cancel::new()).unwrap();
    assert_eq!(
        (solution.outcome.value.name(), solution.outcome.remoteness),
        (value.as_str(), remoteness),
        "{r}"
    );
    // Every best move keeps the outcome, by the reference's own count.
    assert!(!solution.best.is_empty(), "{r}");
    for cell in &solution.best {
        let (child_value, child_remoteness) =
            kamon_solve(layout, &format!("{moves} {cell}")).unwrap();
        let through = Value::from_name(&child_value).unwrap().flip();
        assert_eq!(
            (through, child_remoteness + 1),
            (solution.outcome.value, remoteness),
            "best move {cell} of {r}"
        );
    }
    // The perfect line is legal, lasts exactly the remoteness and ends as the value says.
    assert_eq!(solution.pv.len() as u32, remoteness, "{r}");
    let pv: Vec<String> = solution.pv.iter().map(|c| c.to_string()).collect();
    let end_moves = format!("{moves} {}", pv.join(" "));
    let end = kamon_result(layout, &end_moves)
        .unwrap()
        .unwrap_or_else(|| panic!("the perfect line of {r} does not end the game"));
    let mover = r.position().turn().name();
    let expected_winner = match solution.outcome.value {
        Value::Win => mover.to_string(),
        Value::Loss => (!r.position().turn()).name().to_string(),
        Value::Draw => "draw".to_string(),
    };
    assert_eq!(end.0, expected_winner, "{r} then {}", pv.join(" "));
    solution.outcome.value
}

#[test]
fn late_values_and_remoteness_agree_with_exhaustive_minimax() {
    let mut counts = [0usize; 3];
    for (i, (layout, moves)) in late_positions(0..260).iter().enumerate() {
        let solver = solver(layout, 1 + i % 2);
        let value = check_solution(&solver, layout, moves);
        counts[value as usize] += 1;
    }
    eprintln!("late positions: {counts:?} (loss, draw, win)");
    let [losses, _, wins] = counts;
    assert!(losses >= 40 && wins >= 40, "{counts:?}");
    assert!(counts.iter().sum::<usize>() >= 200, "{counts:?}");
}

/// Drawn positions are rare, so they are looked for: late positions of random games
/// whose value the solver finds cheaply, each then checked in full by the reference. (A
/// solver that missed draws would find too few; one that invented them would fail the
/// check.)
#[test]
fn drawn_positions_agree_too() {
    let mut drawn = 0;
    for seed in 1000..20000u64 {
        let (layout, moves) = random_game(seed, 26 + (seed as usize % 3));
        let r = record(&layout, &moves);
        if r.position().is_over() {
            continue;
        }
        let solver = solver(&layout, 1);
        let node = solver.game().node(r.position());
        if solver.value(&node, &Cancel::new()).unwrap() != Value::Draw {
            continue;
        }
        assert_eq!(check_solution(&solver, &layout, &moves), Value::Draw);
        drawn += 1;
        if drawn == 30 {
            break;
        }
    }
    assert!(drawn == 30, "only {drawn} drawn positions found");
}

/// A loss is two questions ("do I win?", "do I at least draw?"); when the first's proof
/// has no draw in it, the bounds it leaves answer the second without a node (seed 7 eight
/// placements in: before, the second question cost about as much as the first). The loss
/// is confirmed by a fresh solver asking the second question alone, and on every late
/// position above by the reference.
#[test]
fn a_loss_without_draws_in_its_proof_is_one_search() {
    let record = Record::random(7, 8).unwrap();
    let layout = record.layout().to_string();
    let asked = solver(&layout, 1);
    let node = asked.game().node(record.position());
    assert!(!asked
        .at_least(&node, Score::ABOVE_DRAW, &Cancel::new())
        .unwrap());
    let first = asked.nodes();
    assert!(first > 1000, "{first}");
    assert!(!asked.at_least(&node, Score::DRAW, &Cancel::new()).unwrap());
    assert_eq!(asked.nodes(), first, "the second question searched");
    let alone = solver(&layout, 1);
    assert!(!alone.at_least(&node, Score::DRAW, &Cancel::new()).unwrap());
    assert_eq!(alone.value(&node, &Cancel::new()).unwrap(), Value::Loss);
}
