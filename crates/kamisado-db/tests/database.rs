//! Databases end to end: collect, write, read back, check, answer.

use std::collections::HashMap;
use std::path::PathBuf;

use kamisado_analysis::{Oracle, Rounds, Source};
use kamisado_core::notation::play_line;
use kamisado_core::Kamisado;
use kamisado_core::{Move, Position, Symmetry};
use kamisado_db::{
    check, check_by_search, collect, encode, write, Database, DbError, Record, Selection,
};
use kamisado_match::{MatchPosition, Target};
use kamisado_solver::Score;
use kamisado_solver::{Cancel, Options, Solver, Value};

/// A mid-game position that solves in a fraction of a second (black wins in 15).
const MID_GAME: &str = "h1-h7 c8-c4";
/// Four moves from the end of a perfect line from `MID_GAME`: small enough to search
/// exhaustively.
const END_GAME: &str = "h1-h7 c8-c4 b1-b2 h8-d4 a1-a6 g8-g4 f1-d3 c4-c2 d1-f3 a8-a7 c1-f4 b8-b5";

/// A late position (win in 4 for Black) whose whole game tree, 27,232 positions, is small
/// enough to search exhaustively; in 3,967 of them a move gives the turn back to the
/// player who made it.
const SMALL_TREE: &str = "8/Bu6/2Upy2R/5r2/2Y1P3/o6O/gb3n2/NG6 b g";

/// The oracle's view of a single-round position: a match to one point.
fn m(pos: &Position) -> MatchPosition {
    MatchPosition::from_single_round(pos, Target::Single)
}

fn position(moves: &str) -> Position {
    play_line(&Position::start(), moves).unwrap().end
}

fn solver() -> Solver<Kamisado> {
    Solver::new(
        Kamisado,
        Options {
            threads: 2,
            table_bytes: 16 << 20,
        },
    )
    .unwrap()
}

fn temp_path(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("kamisado-db-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// The records of a solve of `moves`, and the solver that made them.
fn solved_records(moves: &str) -> (Vec<Record>, Solver<Kamisado>) {
    let solver = solver();
    let pos = position(moves);
    let solution = solver.solve(&pos, &Cancel::new()).unwrap();
    let line = kamisado_db::Solved::along_line(&pos, solution.outcome, &solution.pv);
    (collect(&solver, &line), solver)
}

#[test]
fn round_trip_keeps_every_record() {
    let (records, _) = solved_records(MID_GAME);
    assert!(records.len() > 1000, "only {} records", records.len());
    assert!(records.windows(2).all(|w| w[0].key() < w[1].key()));
    let path = temp_path("round-trip.kdb");
    let header = write(&path, &records, "test", &mut |_| {}).unwrap();
    assert_eq!(header.records, records.len() as u64);

    let db = Database::open(&path).unwrap();
    assert_eq!(db.header(), &header);
    assert_eq!(db.records().collect::<Vec<_>>(), records);
    db.verify_checksum(&mut |_| {}).unwrap();
    db.verify_layout().unwrap();
    assert_eq!(
        db.file_bytes(),
        std::fs::metadata(&path).unwrap().len(),
        "the file is what the reader mapped"
    );
    // No temporary file is left beside the database.
    let leftovers: Vec<_> = std::fs::read_dir(path.parent().unwrap())
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().ends_with(".tmp"))
        .collect();
    assert!(leftovers.is_empty());

    // Every record is found by binary search, from every symmetric image of its position,
    // with the best move mapped onto that image.
    for record in &records {
        assert_eq!(db.find(record.key()).unwrap(), Some(*record));
        let canonical = Position::from_key(record.key()).unwrap();
        for sym in Symmetry::ALL {
            let image = canonical.transformed(sym);
            let stored = db.lookup(&image).unwrap().unwrap();
            assert_eq!(stored.value, record.value());
            assert_eq!(stored.remoteness, record.remoteness());
            assert_eq!(stored.best, record.best_move().map(|m| sym.apply_move(m)));
        }
    }
    assert_eq!(db.lookup(&Position::start()).unwrap(), None);
    assert!(db.find(0).unwrap().is_none());
    std::fs::remove_file(&path).unwrap();
}

#[test]
fn writing_is_all_or_nothing() {
    let (records, _) = solved_records(END_GAME);
    // Into a directory that does not exist yet: made on the way.
    let path = temp_path("nested/dir/db.kdb");
    write(&path, &records, "test", &mut |_| {}).unwrap();
    assert!(Database::open(&path).is_ok());
    // Over a directory: refused, and nothing is left behind.
    let dir = temp_path("a-directory");
    std::fs::create_dir_all(&dir).unwrap();
    assert!(matches!(
        write(&dir, &records, "test", &mut |_| {}),
        Err(DbError::Write(_))
    ));
    let leftovers = std::fs::read_dir(dir.parent().unwrap())
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().ends_with(".tmp"))
        .count();
    assert_eq!(leftovers, 0);
    // Records out of order are refused before anything is written.
    let mut shuffled = records.clone();
    shuffled.reverse();
    let path = temp_path("unsorted.kdb");
    assert!(matches!(
        write(&path, &shuffled, "test", &mut |_| {}),
        Err(DbError::Unsorted { .. })
    ));
    assert!(!path.exists());
}

#[test]
fn opening_names_what_is_wrong() {
    let (records, _) = solved_records(END_GAME);
    let bytes = encode(&records, "test").unwrap();
    let len = bytes.len();
    let open = |b: &[u8]| Database::from_bytes(b.to_vec());
    assert!(open(&bytes).is_ok());
    assert!(matches!(open(&[]), Err(DbError::NotADatabase)));
    assert!(matches!(open(b"{\"json\": 1}"), Err(DbError::NotADatabase)));
    assert!(matches!(
        open(&bytes[..len - 5]),
        Err(DbError::Truncated { .. })
    ));
    assert!(matches!(open(&bytes[..20]), Err(DbError::BadHeader(_))));
    let mut longer = bytes.clone();
    longer.extend_from_slice(&[0; 16]);
    assert!(matches!(open(&longer), Err(DbError::TrailingBytes { .. })));
    let mut later = bytes.clone();
    later[8] = 9;
    assert!(matches!(
        open(&later),
        Err(DbError::UnsupportedVersion { found: 9, .. })
    ));
    // A flipped byte in the block checksums at the end: the header's checksum, which
    // covers them, fails when the file is opened.
    let mut flipped = bytes.clone();
    flipped[len - 3] ^= 0x10;
    assert!(matches!(open(&flipped), Err(DbError::Checksum { .. })));
    // A flipped byte in the last record: its block fails, named by its records.
    let mut flipped = bytes.clone();
    let blocks = records.len().div_ceil(256);
    flipped[len - 4 * blocks - 3] ^= 0x10;
    let error = open(&flipped).err().unwrap();
    assert!(matches!(error, DbError::BlockChecksum { .. }), "{error}");
    let last = records.len() - 1;
    let first = last / 256 * 256;
    assert_eq!(
        error.to_string(),
        format!("damaged: records {first} to {last} do not match their block's checksum")
    );
    // Missing files and directories are read errors.
    assert!(matches!(
        Database::open(&temp_path("no-such-file.kdb")),
        Err(DbError::Read(_))
    ));
    assert!(matches!(
        Database::open(&std::env::temp_dir()),
        Err(DbError::Input(_))
    ));
}

/// Whatever the bytes, reading never panics, and any single damaged byte is noticed by
/// opening or by the checksum.
#[test]
fn damaged_files_never_panic_and_are_noticed() {
    let (records, _) = solved_records(END_GAME);
    let good = encode(&records, "fuzz").unwrap();
    let probes: Vec<Position> = records
        .iter()
        .take(50)
        .map(|r| Position::from_key(r.key()).unwrap())
        .collect();
    // Seeded, so that the damage is the same on every run.
    let mut rng = fastrand::Rng::with_seed(7);
    for round in 0..3000 {
        let mut bytes = good.clone();
        let single_byte = round % 3 == 0;
        if single_byte {
            let i = rng.usize(..bytes.len());
            bytes[i] ^= rng.u8(1..);
        } else {
            match rng.usize(..4) {
                0 => bytes.truncate(rng.usize(..good.len())),
                1 => {
                    for _ in 0..1 + rng.usize(..8) {
                        let i = rng.usize(..bytes.len());
                        bytes[i] = rng.u8(..);
                    }
                }
                2 => {
                    // Garbage in the header, where lengths and counts live.
                    let i = rng.usize(..64.min(bytes.len()));
                    bytes[i] = rng.u8(..);
                }
                _ => {
                    let extra = rng.usize(..40);
                    bytes.extend((0..extra).map(|_| rng.u8(..)));
                }
            }
        }
        let Ok(db) = Database::from_bytes(bytes) else {
            continue;
        };
        let checksum = db.verify_checksum(&mut |_| {});
        let _ = db.verify_layout();
        for pos in &probes {
            let _ = db.lookup(pos);
        }
        let _ = db.get(db.len());
        let _ = db.records().count();
        let _ = check(&db, Selection::Sample(20), &|_| {});
        if single_byte {
            assert!(
                checksum.is_err(),
                "round {round}: a changed byte went unnoticed"
            );
        }
    }
}

/// The score for the mover through a move to `child` (score `c` for its side to move):
/// the sides are compared, never assumed to alternate, since the chain of zero-length
/// moves may give the turn back to the player who moved.
fn through(mover: kamisado_core::Side, child: &Position, c: Score) -> Score {
    c.through_move(child.turn() != mover)
}

fn finished_score(pos: &Position) -> Option<Score> {
    pos.end().map(|end| {
        let value = if end.winner == pos.turn() {
            Value::Win
        } else {
            Value::Loss
        };
        Score::new(value, 0)
    })
}

/// The exact score of every position reachable from `pos`, by exhaustive search, keyed by
/// canonical key; finished games are not stored.
fn exhaustive(pos: &Position, scores: &mut HashMap<u128, Score>) -> Score {
    if let Some(s) = finished_score(pos) {
        return s;
    }
    let key = pos.canonical_key().0;
    if let Some(&s) = scores.get(&key) {
        return s;
    }
    assert!(
        scores.len() < 2_000_000,
        "the end game is too big to search"
    );
    let mut best = Score::BELOW_ALL;
    for m in pos.legal_moves() {
        let child = pos.play_unchecked(m);
        let c = exhaustive(&child, scores);
        best = best.max(through(pos.turn(), &child, c));
    }
    scores.insert(key, best);
    best
}

/// The score of `m` from `pos` for the mover, from finished scores.
fn move_score(pos: &Position, m: Move, scores: &HashMap<u128, Score>) -> Score {
    let child = pos.play_unchecked(m);
    let c = finished_score(&child).unwrap_or_else(|| scores[&child.canonical_key().0]);
    through(pos.turn(), &child, c)
}

/// Records for every position below `pos`, made without the solver: exact values,
/// remoteness and best moves. Returns the scores too.
fn exhaustive_records(pos: &Position) -> (Vec<Record>, HashMap<u128, Score>) {
    let mut scores = HashMap::new();
    exhaustive(pos, &mut scores);
    let mut records: Vec<Record> = scores
        .iter()
        .map(|(&key, &s)| {
            let image = Position::from_key(key).unwrap();
            let best = image
                .legal_moves()
                .into_iter()
                .find(|&m| move_score(&image, m, &scores) == s);
            Record::new(key, s.value(), s.remoteness(), best)
        })
        .collect();
    records.sort();
    (records, scores)
}

#[test]
fn check_verifies_a_correct_database_and_finds_planted_errors() {
    let pos: Position = SMALL_TREE.parse().unwrap();
    let (records, scores) = exhaustive_records(&pos);
    assert_eq!(records.len(), 27_232);
    let db = Database::from_bytes(encode(&records, "exhaustive").unwrap()).unwrap();
    let report = check(&db, Selection::All, &|_| {});
    assert!(report.passed(), "{:?}", report.disagreements);
    assert_eq!(report.checked, records.len() as u64);
    // Every child of every position is in the database or decided by the rules.
    assert_eq!(report.verified, records.len() as u64);

    // Plant errors: a flipped value, a wrong remoteness, a best move that is not best.
    let target = records.len() / 2;
    let r = records[target];
    let image = Position::from_key(r.key()).unwrap();
    let flipped = Record::new(r.key(), r.value().flip(), r.remoteness(), None);
    let longer = Record::new(r.key(), r.value(), r.remoteness().map(|x| x + 2), None);
    let stored = Score::new(r.value(), r.remoteness().unwrap());
    let worse_move = image
        .legal_moves()
        .into_iter()
        .find(|&m| move_score(&image, m, &scores) != stored);
    let mut plants = vec![flipped, longer];
    if let Some(m) = worse_move {
        plants.push(Record::new(r.key(), r.value(), r.remoteness(), Some(m)));
    }
    // A move that is not legal at all.
    let illegal = Move::new(
        kamisado_core::Square::new(0),
        kamisado_core::Square::new(63),
    );
    plants.push(Record::new(
        r.key(),
        r.value(),
        r.remoteness(),
        Some(illegal),
    ));
    for planted in plants {
        let mut damaged = records.clone();
        damaged[target] = planted;
        let db = Database::from_bytes(encode(&damaged, "damaged").unwrap()).unwrap();
        // The checksum is right: the damage is in the meaning.
        db.verify_checksum(&mut |_| {}).unwrap();
        let report = check(&db, Selection::All, &|_| {});
        assert!(
            report
                .disagreements
                .iter()
                .any(|d| d.index == target as u64),
            "planted {planted:?} not found: {:?}",
            report.disagreements
        );
    }
}

#[test]
fn database_answers_equal_live_search() {
    let (records, _) = solved_records(MID_GAME);
    let db = Database::from_bytes(encode(&records, "test").unwrap()).unwrap();
    let with_db = Oracle::new(Some(db), solver());
    let live = Oracle::new(None, solver());
    let cancel = Cancel::new();
    let exact: Vec<&Record> = records
        .iter()
        .filter(|r| r.remoteness().is_some())
        .collect();
    assert!(exact.len() > 100);
    let step = exact.len() / 40;
    for (i, record) in exact.iter().step_by(step).enumerate() {
        // Any image of the stored position, so that the symmetry mapping is exercised.
        let pos = Position::from_key(record.key())
            .unwrap()
            .transformed(Symmetry::ALL[i % 4]);
        let from_db = with_db.position(&m(&pos), &cancel).unwrap();
        let searched = live.position(&m(&pos), &cancel).unwrap();
        assert_eq!(from_db.source, Source::Database, "{pos}");
        assert_eq!(searched.source, Source::Search, "{pos}");
        assert_eq!(
            (from_db.outcome.value, from_db.outcome.remoteness),
            (searched.outcome.value, searched.outcome.remoteness),
            "{pos}"
        );
        if i % 8 == 0 {
            let a = with_db.moves(&m(&pos), &cancel).unwrap();
            let b = live.moves(&m(&pos), &cancel).unwrap();
            let summary = |v: &[kamisado_analysis::MoveVerdict]| {
                v.iter()
                    .map(|m| (m.mv, m.outcome.value, m.outcome.remoteness))
                    .collect::<Vec<_>>()
            };
            assert_eq!(summary(&a), summary(&b), "{pos}");
            if let Some(best) = with_db
                .database()
                .unwrap()
                .lookup(&pos)
                .unwrap()
                .unwrap()
                .best
            {
                assert!(live.best_moves(&m(&pos), &cancel).unwrap().contains(&best));
            }
        }
    }
}

#[test]
fn oracle_compares_sides_across_zero_length_chains() {
    // White's c8-c6 blocks Black's orange tower on h7; its zero-length move names White's
    // purple tower, so White moves again.
    let pos: Position = "1bupyrgn/7O/8/3o4/8/8/8/NGRYPUB1 w u".parse().unwrap();
    let mv: Move = "c8-c6".parse().unwrap();
    let oracle = Oracle::new(None, solver());
    let cancel = Cancel::new();
    let verdict = oracle.move_verdict(&m(&pos), mv, &cancel).unwrap();
    assert_eq!(verdict.next.turn(), pos.turn());
    let after = oracle.position(&verdict.next, &cancel).unwrap();
    assert_eq!(
        verdict.outcome.value, after.outcome.value,
        "same player, same value"
    );
    assert_eq!(verdict.outcome.remoteness, after.outcome.remoteness + 1);
}

#[test]
fn oracle_answers_finished_games_and_pending_moves_by_the_rules() {
    let oracle = Oracle::new(None, solver());
    let cancel = Cancel::new();
    let mut pos = position(END_GAME);
    while !pos.is_over() {
        let best = oracle.best_moves(&m(&pos), &cancel).unwrap()[0];
        pos = pos.play(best).unwrap();
    }
    let v = oracle.position(&m(&pos), &cancel).unwrap();
    assert_eq!(
        (v.outcome.value, v.outcome.remoteness, v.source),
        (Value::Loss, 0, Source::Rules)
    );
    assert!(oracle.moves(&m(&pos), &cancel).unwrap().is_empty());

    // A position whose side to move must make a zero-length move first.
    let pending: Position = "1b1pyrgn/7O/2u5/3o4/8/8/8/NGRYPUB1 b o".parse().unwrap();
    assert!(pending.must_pass());
    let v = oracle.position(&m(&pending), &cancel).unwrap();
    assert_eq!(v.position, m(&Kamisado::root(&pending)));
    assert_ne!(v.position.turn(), pending.turn());
}

#[test]
fn a_stopped_search_says_so() {
    let oracle = Oracle::new(None, solver());
    let cancel = Cancel::new();
    cancel.cancel();
    assert_eq!(
        oracle.position(&m(&Position::start()), &cancel),
        Err(kamisado_analysis::OracleError::Stopped)
    );
}

/// What `db check` says of a database the solver wrote, on a game tree where moves give
/// the turn back to their player: it must agree with the exhaustive search.
#[test]
fn a_database_from_the_solver_passes_its_check() {
    let pos: Position = SMALL_TREE.parse().unwrap();
    let (_, scores) = exhaustive_records(&pos);
    let solver = solver();
    let solution = solver.solve(&pos, &Cancel::new()).unwrap();
    assert_eq!(
        Score::of(solution.outcome),
        scores[&pos.canonical_key().0],
        "the solver's value of {pos}"
    );
    let line = kamisado_db::Solved::along_line(&pos, solution.outcome, &solution.pv);
    let records = collect(&solver, &line);
    let db = Database::from_bytes(encode(&records, "solver").unwrap()).unwrap();
    for r in db.records() {
        let s = scores[&r.key()];
        assert_eq!(
            r.value(),
            s.value(),
            "{}",
            Position::from_key(r.key()).unwrap()
        );
        if let Some(stored) = r.remoteness() {
            assert_eq!(Some(stored), s.remoteness());
        }
    }
    let report = check(&db, Selection::All, &|_| {});
    assert!(report.passed(), "{:?}", report.disagreements);
}

/// Records the file alone cannot settle (a child missing) are put to a fresh solve: all
/// agree in a sound database, and every one is caught once their values are flipped.
#[test]
fn a_fresh_solve_settles_what_the_file_cannot() {
    let (records, _) = solved_records(MID_GAME);
    let solve_afresh = |records: &[Record]| {
        let db = Database::from_bytes(encode(records, "test").unwrap()).unwrap();
        check_by_search(&db, Selection::All, 300, &solver(), &Cancel::new(), &|_| {}).unwrap()
    };
    let report = solve_afresh(&records);
    assert_eq!(
        report.checked, 300,
        "a mid-game solve leaves many records unsettled"
    );
    assert_eq!(report.verified, 300, "{:?}", report.disagreements.first());

    let flipped: Vec<Record> = records
        .iter()
        .map(|r| Record::new(r.key(), r.value().flip(), r.remoteness(), r.best_move()))
        .collect();
    let report = solve_afresh(&flipped);
    assert!(report.checked > 0);
    assert_eq!(report.disagreement_count, report.checked);
    assert!(report.disagreements[0].problem.contains("fresh solve"));
}

/// Round 2 of a Standard match: Black's blue tower became a Sumo in round 1 (`g1-g7
/// h8-h6 g7-h8 left`), and White, who lost, starts.
const ROUND_TWO: &str = "nobupyrg/8/8/8/8/8/8/NGRYPUOB+ w - 3";

#[test]
fn a_round_without_sumos_is_answered_as_a_single_round_with_its_database() {
    // A position of a Standard match's first round: the database of single rounds knows
    // it (its records are keyed by the single round's key), and the answer is the
    // single round's.
    let (records, _) = solved_records(MID_GAME);
    let db = Database::from_bytes(encode(&records, "test").unwrap()).unwrap();
    let single = position(MID_GAME);
    let in_match = MatchPosition::from_single_round(&single, Target::Standard);
    let options = Options {
        threads: 1,
        table_bytes: 16 << 20,
    };
    let oracle = Oracle::with_budget(Some(db), options, Rounds::Both).unwrap();
    assert_eq!(oracle.table_bytes(), 8 << 20, "half the budget each");
    assert!(oracle.round_solver().is_none(), "made only when needed");
    let cancel = Cancel::new();
    let v = oracle.position(&in_match, &cancel).unwrap();
    assert_eq!(v.source, Source::Database);
    let live = Oracle::new(None, solver())
        .position(&m(&single), &cancel)
        .unwrap();
    assert_eq!(v.outcome, live.outcome);
    assert_eq!(v.position.target(), Target::Standard);
    assert!(oracle.round_solver().is_none());
}

#[test]
fn a_round_with_a_sumo_is_searched_as_a_match_round() {
    use kamisado_match::MatchRound;
    let cancel = Cancel::new();
    let options = Options {
        threads: 2,
        table_bytes: 32 << 20,
    };
    // Late in round 2, so that the search is quick: the answers are the match round's
    // own solver's, move by move.
    let start: MatchPosition = ROUND_TWO.parse().unwrap();
    let record = kamisado_match::MatchRecord::parse(
        MatchPosition::start(Target::Standard),
        "g1-g7 h8-h6 g7-h8 left",
    )
    .unwrap();
    assert_eq!(record.current(), start);
    // Eight moves into the round, each the middle one of the rules' list.
    let mut pos = start;
    for _ in 0..8 {
        let moves = pos.legal_moves();
        pos = pos.play_unchecked(moves[moves.len() / 2]);
    }
    assert!(pos.has_sumo() && !pos.is_round_over(), "{pos}");

    let oracle = Oracle::with_budget(None, options, Rounds::Both).unwrap();
    let direct = Solver::new(MatchRound, options).unwrap();
    let expected = direct.outcome(&pos, &cancel).unwrap();
    let v = oracle.position(&pos, &cancel).unwrap();
    assert_eq!((v.outcome, v.source), (expected, Source::Search));
    assert!(oracle.round_solver().is_some());
    let analysis = oracle.analyse(&pos, &cancel, &mut |_| {}).unwrap();
    assert_eq!(analysis.verdict.outcome, expected);
    for mv in &analysis.moves {
        let child = direct.outcome(&mv.next, &cancel).unwrap();
        assert_eq!(
            mv.outcome,
            child.through_move(mv.next.turn() != pos.turn()),
            "{}",
            mv.mv
        );
    }
    let best = oracle
        .best_moves_at(&pos, analysis.verdict.score(), &cancel)
        .unwrap();
    assert_eq!(best, analysis.best);
    let solution = oracle.solve(&pos, &cancel).unwrap();
    assert_eq!(solution.outcome, expected);
    assert_eq!(solution.pv.len() as u32, expected.remoteness);

    // An oracle set up for one kind of round refuses the other, saying why.
    let plain = Oracle::new(None, solver());
    let refused = plain.position(&pos, &cancel).unwrap_err();
    assert_eq!(
        refused,
        kamisado_analysis::OracleError::NotPrepared { sumo: true }
    );
    assert!(refused.to_string().contains("with a Sumo"), "{refused}");
    let sumo_only = Oracle::with_budget(None, options, Rounds::Sumo).unwrap();
    assert_eq!(sumo_only.table_bytes(), 32 << 20);
    assert!(sumo_only.single_round_solver().is_none());
    assert_eq!(
        sumo_only.position(&MatchPosition::start(Target::Standard), &cancel),
        Err(kamisado_analysis::OracleError::NotPrepared { sumo: false })
    );
    // A finished round is the rules' to answer, whatever the oracle's tables.
    let round_one = kamisado_match::MatchRecord::parse(
        MatchPosition::start(Target::Standard),
        "g1-g7 h8-h6 g7-h8",
    )
    .unwrap();
    let v = sumo_only.position(&round_one.current(), &cancel).unwrap();
    assert_eq!((v.outcome.value, v.source), (Value::Loss, Source::Rules));
}
