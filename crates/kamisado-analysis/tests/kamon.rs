//! Kamon's answers (the `kamon` module) against a brute-force minimax written here, and
//! against the solver asked directly.

use kamisado_analysis::kamon::{self, MovesReport};
use kamisado_solver::{Cancel, Options, Outcome, Solver, Value};
use kamon_core::{KamonGame, Outcome as Ended, Position, Record};

/// Late enough that a minimax over every placement to the end is instant.
const AFTER: u32 = 26;

fn solver(record: &Record) -> Solver<KamonGame> {
    let options = Options {
        threads: 1,
        table_bytes: 8 << 20,
    };
    Solver::new(KamonGame::new(record.layout().clone()), options).unwrap()
}

fn late(seed: u64) -> Record {
    Record::random(seed, AFTER).expect("a random game reaches the placements")
}

/// Who wins a position with best play and in how many placements, for its side to move:
/// fastest win, slowest loss (all draws alike: their length is the free cells').
fn minimax(record: &Record, pos: &Position) -> Outcome {
    let value = |e: Ended| match e {
        Ended::Win => Value::Win,
        Ended::Draw => Value::Draw,
        Ended::Loss => Value::Loss,
    };
    if let Some(e) = pos.outcome() {
        return Outcome::new(value(e), 0);
    }
    let layout = record.layout();
    pos.legal_cells(layout)
        .map(|cell| {
            through(
                pos,
                &pos.play_unchecked(layout, cell),
                minimax(record, &pos.play_unchecked(layout, cell)),
            )
        })
        .max_by(rank)
        .expect("an unfinished position has a legal cell")
}

/// The mover's outcome through a placement from `pos` to `child`.
fn through(pos: &Position, child: &Position, o: Outcome) -> Outcome {
    let value = if child.turn() == pos.turn() {
        o.value
    } else {
        o.value.flip()
    };
    Outcome::new(value, o.remoteness + 1)
}

/// Better outcomes rank higher: any win over a draw over any loss; the faster win, the
/// slower loss; draws alike.
fn rank(a: &Outcome, b: &Outcome) -> std::cmp::Ordering {
    let key = |o: &Outcome| match o.value {
        Value::Win => (2, -(o.remoteness as i64)),
        Value::Draw => (1, 0),
        Value::Loss => (0, o.remoteness as i64),
    };
    key(a).cmp(&key(b))
}

fn same(a: &Outcome, b: &Outcome) -> bool {
    rank(a, b) == std::cmp::Ordering::Equal
}

#[test]
fn every_cell_is_answered_as_a_minimax_answers_it_best_first() {
    let mut values_seen = Vec::new();
    for seed in 1..=8 {
        let record = late(seed);
        let pos = *record.position();
        let solver = solver(&record);
        let analysis = kamon::analyse(&solver, &record, &Cancel::new(), &|_| {}).unwrap();
        assert!(analysis.complete() && analysis.pv_complete, "seed {seed}");
        let legal: Vec<_> = pos.legal_cells(record.layout()).collect();
        assert!(!legal.is_empty(), "seed {seed}: an unfinished position");
        assert_eq!(analysis.legal, legal);
        assert_eq!(analysis.answered.len(), legal.len());
        for a in &analysis.answered {
            let child = pos.play_unchecked(record.layout(), a.cell);
            let expected = through(&pos, &child, minimax(&record, &child));
            assert!(
                same(&a.outcome, &expected),
                "seed {seed} cell {}: {:?} vs {expected:?}",
                a.cell,
                a.outcome
            );
        }
        let expected = minimax(&record, &pos);
        let solution = analysis.solution.as_ref().unwrap();
        assert!(same(&solution.outcome, &expected), "seed {seed}");
        values_seen.push(expected.value);

        // The report: best first, `best` marking exactly the cells of the best outcome,
        // and the perfect line as long as the remoteness, ending the game.
        let report = MovesReport::of(&analysis);
        assert!(report.complete);
        assert_eq!(report.report.value, Some(expected.value));
        let ranks: Vec<Outcome> = report
            .cells
            .iter()
            .map(|c| Outcome::new(Value::from_name(c.value).unwrap(), c.remoteness))
            .collect();
        assert!(
            ranks.windows(2).all(|w| rank(&w[0], &w[1]).is_ge()),
            "seed {seed}"
        );
        for (c, o) in report.cells.iter().zip(&ranks) {
            assert_eq!(c.best, same(o, &expected), "seed {seed} cell {}", c.cell);
        }
        let pv = report.report.pv.as_ref().unwrap();
        if expected.value != Value::Draw {
            assert_eq!(pv.len() as u32, expected.remoteness, "seed {seed}");
        }
        let mut end = record.clone();
        end.play_text(&pv.join(" ")).unwrap();
        assert!(
            end.position().is_over(),
            "seed {seed}: the line ends the game"
        );
    }
    assert!(
        values_seen.contains(&Value::Win) || values_seen.contains(&Value::Loss),
        "the sample has decided games: {values_seen:?}"
    );
}

#[test]
fn solve_reports_what_the_solver_finds() {
    let record = late(3);
    let s = solver(&record);
    let direct = s
        .solve(&s.game().node(record.position()), &Cancel::new())
        .unwrap();
    let report = kamon::solve(&solver(&record), &record, false, &Cancel::new()).unwrap();
    assert_eq!(report.value, Some(direct.outcome.value));
    assert_eq!(report.remoteness, Some(direct.outcome.remoteness));
    assert_eq!(report.best, Some(kamon::cells_text(&direct.best)));
    assert_eq!(report.pv, Some(kamon::cells_text(&direct.pv)));
    let json = serde_json::to_value(&report).unwrap();
    assert_eq!(json["layout"], record.layout().to_string());
    assert!(
        json["nodes"].is_u64(),
        "the search statistics are flattened in"
    );

    let value_only = kamon::solve(&solver(&record), &record, true, &Cancel::new()).unwrap();
    assert_eq!(value_only.value, Some(direct.outcome.value));
    assert_eq!(value_only.remoteness, None);
    assert_eq!(value_only.pv, None);
}

#[test]
fn a_stopped_analysis_is_truthful_and_a_stopped_solve_is_an_error() {
    let record = late(2);
    let stopped = Cancel::new();
    stopped.cancel();
    let analysis = kamon::analyse(&solver(&record), &record, &stopped, &|_| {}).unwrap();
    assert!(!analysis.complete());
    assert!(analysis.solution.is_none());
    let report = MovesReport::of(&analysis);
    assert_eq!(report.report.value, None);
    assert!(report.cells.len() < report.legal_cells.len());
    // A cell answered before the stop is exact all the same: only those the rules or
    // the table knew at once.
    let full = kamon::analyse(&solver(&record), &record, &Cancel::new(), &|_| {}).unwrap();
    for a in &analysis.answered {
        assert!(full.answered.contains(a));
    }
    assert_eq!(
        kamon::solve(&solver(&record), &record, false, &stopped).unwrap_err(),
        kamisado_solver::SolveError::Stopped
    );
}

#[test]
fn progress_counts_the_cells() {
    let record = late(4);
    let seen = std::sync::Mutex::new(Vec::new());
    kamon::analyse(&solver(&record), &record, &Cancel::new(), &|p| {
        seen.lock().unwrap().push((p.done, p.total))
    })
    .unwrap();
    let legal = record.position().legal_cells(record.layout()).count() as usize;
    let expected: Vec<_> = (1..=legal).map(|d| (d, legal)).collect();
    assert_eq!(*seen.lock().unwrap(), expected);
}

#[test]
fn the_perfect_player_keeps_the_minimax_outcome_and_falls_back_when_stopped() {
    for seed in 1..=6 {
        let record = late(seed);
        let pos = *record.position();
        let solver = solver(&record);
        let reply = kamon::reply(&solver, &pos, &Cancel::new()).unwrap();
        let expected = minimax(&record, &pos);
        let child = pos.play_unchecked(record.layout(), reply.cell);
        let got = through(&pos, &child, minimax(&record, &child));
        assert!(
            same(&got, &expected),
            "seed {seed}: {} gives {got:?}",
            reply.cell
        );
        assert!(same(&reply.outcome.unwrap(), &expected), "seed {seed}");

        // Stopped before it could prove anything: still a legal cell, unproven unless a
        // win at once.
        let stopped = Cancel::new();
        stopped.cancel();
        let fallback = kamon::reply(&self::solver(&record), &pos, &stopped).unwrap();
        assert!(pos.legal_cells(record.layout()).contains(fallback.cell));
        if pos.winning_move(record.layout()).is_none() {
            assert_eq!(fallback.outcome, None, "seed {seed}");
        }
    }
}
