//! Books: every position of the first plies, derived from an exactly solved frontier,
//! built resumably from a journal, and audited.

use std::collections::HashSet;
use std::path::PathBuf;

use kamisado_analysis::{Oracle, Source};
use kamisado_core::notation::play_line;
use kamisado_core::{Kamisado, Position, Symmetry};
use kamisado_db::book::{audit, derive, solve_frontier, BookPlan, Journal};
use kamisado_db::{encode, Database, Record};
use kamisado_match::{MatchPosition, Target};
use kamisado_solver::{Cancel, Options, Score, Solver};

/// Six moves into a perfect game: a book of two plies from here solves in a second.
const LATE: &str = "h1-h7 c8-c4 b1-b2 h8-d4 a1-a6 g8-g4";

fn root() -> Position {
    play_line(&Position::start(), LATE).unwrap().end
}

fn solver() -> Solver<Kamisado> {
    Solver::new(
        Kamisado,
        Options {
            threads: 1,
            table_bytes: 16 << 20,
        },
    )
    .unwrap()
}

fn temp_path(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("kamisado-db-book-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// The book's records, built in one go.
fn build(plan: &BookPlan, journal_name: &str) -> Vec<Record> {
    let path = temp_path(journal_name);
    let _ = std::fs::remove_file(&path);
    let mut journal = Journal::open(&path, plan).unwrap();
    solve_frontier(plan, &mut journal, &solver(), &Cancel::new(), &mut |_| {}).unwrap();
    let records = derive(plan, journal.solved()).unwrap();
    journal.remove();
    records
}

/// Distinct positions reached after exactly `ply` moves and not before, counted by
/// comparing every symmetric image (not by the canonical key the book uses).
fn naive_layers(root: &Position, plies: u32) -> Vec<usize> {
    let id = |p: &Position| {
        Symmetry::ALL
            .iter()
            .map(|&s| p.transformed(s))
            .filter(|img| img.turn() == kamisado_core::Side::Black)
            .map(|img| img.to_string())
            .min()
            .unwrap()
    };
    let root = Kamisado::root(root);
    let mut seen: HashSet<String> = HashSet::from([id(&root)]);
    let mut layer = vec![root];
    let mut counts = vec![1];
    for _ in 0..plies {
        let mut next = Vec::new();
        for p in &layer {
            for m in p.legal_moves() {
                let c = p.play_unchecked(m);
                if !c.is_over() && seen.insert(id(&c)) {
                    next.push(c);
                }
            }
        }
        counts.push(next.len());
        layer = next;
    }
    counts
}

#[test]
fn a_book_holds_every_position_with_its_exact_result_and_a_best_move() {
    let plan = BookPlan::new(&root(), 2);
    let layers: Vec<usize> = plan.layers.iter().map(Vec::len).collect();
    assert_eq!(layers, naive_layers(&root(), 2));
    let records = build(&plan, "complete.journal");
    let db = Database::from_bytes(encode(&records, "book").unwrap()).unwrap();
    let solver = solver();
    for pos in plan.layers.iter().flatten() {
        let record = db
            .find(pos.key())
            .unwrap()
            .expect("every book position is stored");
        let exact = solver.score(pos, &Cancel::new()).unwrap();
        assert_eq!(
            Score::new(record.value(), record.remoteness().unwrap()),
            exact,
            "{pos}"
        );
        let best = record
            .best_move()
            .expect("book positions carry a best move");
        let child = pos.play_unchecked(best);
        let through = solver
            .score(&child, &Cancel::new())
            .unwrap()
            .through_move(child.turn() != pos.turn());
        assert_eq!(through, exact, "{pos}: {best} is not best");
    }
    for pos in &plan.frontier {
        let record = db.find(pos.key()).unwrap().unwrap();
        assert!(record.best_move().is_none());
        assert_eq!(
            Score::new(record.value(), record.remoteness().unwrap()),
            solver.score(pos, &Cancel::new()).unwrap()
        );
    }
    // Every move of every book position is answered by the file or the rules, and all
    // best moves come out of the children's records.
    let oracle = Oracle::new(
        Some(db),
        Solver::new(
            Kamisado,
            Options {
                threads: 1,
                table_bytes: 1 << 16,
            },
        )
        .unwrap(),
    );
    for pos in plan.layers.iter().flatten() {
        let analysis = oracle
            .analyse(
                &MatchPosition::from_single_round(pos, Target::Single),
                &Cancel::new(),
                &mut |_| {},
            )
            .unwrap();
        assert!(
            analysis.moves.iter().all(|m| m.source != Source::Search),
            "{pos}"
        );
        let best = solver
            .best_moves(pos, analysis.verdict.score(), &Cancel::new())
            .unwrap();
        assert_eq!(analysis.best, best, "{pos}");
    }
}

#[test]
fn an_interrupted_build_resumes_from_its_journal() {
    let plan = BookPlan::new(&root(), 2);
    let whole = build(&plan, "whole.journal");
    let path = temp_path("interrupted.journal");
    let _ = std::fs::remove_file(&path);
    // A first run gets half way...
    let solver = solver();
    let half = plan.frontier.len() / 2;
    let mut journal = Journal::open(&path, &plan).unwrap();
    let first: Vec<(u128, Score)> = plan.frontier[..half]
        .iter()
        .map(|p| (p.key(), solver.score(p, &Cancel::new()).unwrap()))
        .collect();
    journal.append(&first).unwrap();
    drop(journal);
    // ... and dies in the middle of writing its next chunk.
    let mut torn = std::fs::read(&path).unwrap();
    torn.extend_from_slice(&7u32.to_le_bytes());
    torn.extend_from_slice(&[0xab; 40]);
    std::fs::write(&path, &torn).unwrap();
    // The next run keeps the complete chunk, drops the torn one, and solves the rest.
    let mut journal = Journal::open(&path, &plan).unwrap();
    assert_eq!(journal.solved().len(), half);
    let mut solved_so_far = Vec::new();
    solve_frontier(&plan, &mut journal, &solver, &Cancel::new(), &mut |n| {
        solved_so_far.push(n)
    })
    .unwrap();
    assert_eq!(solved_so_far.first(), Some(&half));
    assert_eq!(solved_so_far.last(), Some(&plan.frontier.len()));
    assert_eq!(derive(&plan, journal.solved()).unwrap(), whole);
    // A journal belongs to its plan: another book's build refuses it.
    let other = BookPlan::new(&root(), 1);
    let error = Journal::open(&path, &other).err().unwrap().to_string();
    assert!(error.contains("belongs to another book build"), "{error}");
}

#[test]
fn the_audit_finds_what_a_book_lacks() {
    let plan = BookPlan::new(&root(), 2);
    let records = build(&plan, "audit.journal");
    let path = temp_path("audit.kdb");
    kamisado_db::write_book(&path, &records, "book", Some((&plan.root, 2)), &mut |_| {}).unwrap();
    let db = Database::open(&path).unwrap();
    assert_eq!(db.header().book_plies, 2);
    let report = audit(&db, 5, &solver(), &Cancel::new()).unwrap().unwrap();
    assert!(report.passed(), "{report:?}");
    assert_eq!(report.positions_per_ply, naive_layers(&root(), 2));
    assert_eq!(report.solved, 5);
    // Without one frontier record, a move of a book position is not answered.
    let missing = plan.frontier[0].key();
    let fewer: Vec<Record> = records
        .iter()
        .copied()
        .filter(|r| r.key() != missing)
        .collect();
    kamisado_db::write_book(&path, &fewer, "book", Some((&plan.root, 2)), &mut |_| {}).unwrap();
    let db = Database::open(&path).unwrap();
    let report = audit(&db, 0, &solver(), &Cancel::new()).unwrap().unwrap();
    assert!(report.problems > 0);
    assert!(
        report.listed[0].contains("is not answered by the book"),
        "{:?}",
        report.listed
    );
    // A database that is not a book has no audit.
    let plain = Database::from_bytes(encode(&records, "plain").unwrap()).unwrap();
    assert!(audit(&plain, 5, &solver(), &Cancel::new())
        .unwrap()
        .is_none());
}
