//! The referee end to end: real engine processes (the random engine built with this
//! crate, and shell one-liners that misbehave) against the perfect player, and the
//! perfect engine's protocol loop.

use std::io::Cursor;
use std::time::Duration;

use kamisado_analysis::{Oracle, Rounds};
use kamisado_core::Kamisado;
use kamisado_core::Side;
use kamisado_match::{MatchPosition, MatchRecord, Refill, Target};
use kamisado_referee::{
    run_match, serve, Action, EngineFault, EngineSides, Identity, Judge, Mark, MatchOptions,
    MatchReport, PerfectPlayer, PlayedGame,
};
use kamisado_solver::{Options, Solver, Value};

const RANDOM_ENGINE: &str = env!("CARGO_BIN_EXE_kamisado-random-engine");

/// Black (to move) wins in 10: short games, solved in milliseconds.
const LATE: &str = "h1-h7 c8-c4 b1-b2 h8-d4";

fn player() -> PerfectPlayer {
    let options = Options {
        threads: 2,
        table_bytes: 32 << 20,
    };
    PerfectPlayer::new(Oracle::new(None, Solver::new(Kamisado, options).unwrap()))
}

/// A player whose oracle answers rounds with and without Sumos (whole matches).
fn match_player() -> PerfectPlayer {
    let options = Options {
        threads: 2,
        table_bytes: 64 << 20,
    };
    PerfectPlayer::new(Oracle::with_budget(None, options, Rounds::Both).unwrap())
}

fn late_position() -> MatchPosition {
    late_in(Target::Single)
}

/// `LATE` as a position of a match to `target`, still in its first round.
fn late_in(target: Target) -> MatchPosition {
    MatchRecord::parse(MatchPosition::start(target), LATE)
        .unwrap()
        .current()
}

fn play(command: &str, games: usize, time_limit_ms: u64) -> MatchReport {
    let options = MatchOptions {
        command: command.to_owned(),
        games,
        engine_sides: EngineSides::Alternate,
        time_limit: Duration::from_millis(time_limit_ms),
        start: late_position(),
        seed: 7,
    };
    run_match(&player(), &options, &mut |_| {}).unwrap()
}

#[test]
fn the_random_engine_is_refereed_and_judged() {
    let report = play(&format!("{RANDOM_ENGINE} --seed 5"), 4, 5000);
    assert!(report.engine_started);
    assert_eq!(
        report.engine_name.as_deref(),
        Some("kamisado-random-engine")
    );
    assert_eq!(report.games.len(), 4);
    for game in &report.games {
        assert_eq!(game.fault, None, "game {}", game.number);
        assert_eq!(
            game.engine_side,
            EngineSides::Alternate.in_game(game.number)
        );
        // The record replays, and the perfect player never errs.
        let replayed = PlayedGame::parse(&game.record);
        assert_eq!(replayed.error, None);
        assert_eq!(replayed.moves.len(), game.moves);
        assert!(replayed.end().is_round_over());
        assert_eq!(replayed.end().round_end().unwrap().winner, game.winner);
        assert_eq!((game.rounds, game.target), (1, 1));
        assert_eq!((game.perfect.blunders, game.perfect.inaccuracies), (0, 0));
        // Black is winning at the start: the engine as White cannot win, and the engine
        // as Black loses only by giving its win away.
        match game.engine_side {
            Side::White => {
                assert_eq!(game.winner, Side::Black);
                assert_eq!(game.engine.blunders, 0);
            }
            Side::Black if game.winner == Side::White => {
                let blunder = game.engine_first_blunder.as_ref().expect("a blunder");
                assert_eq!(blunder.mover, Side::Black);
                assert_eq!(blunder.mark, Some(Mark::Blunder));
                assert_eq!(blunder.before.unwrap().value, Value::Win);
                assert_eq!(blunder.after.unwrap().value, Value::Loss);
            }
            Side::Black => assert_eq!(game.engine.blunders, 0),
        }
    }
    let s = &report.summary;
    assert_eq!(s.engine_wins + s.engine_losses, 4);
    assert_eq!(s.forfeits, 0);
    assert_eq!(s.perfect_blunders, 0);
}

/// Two `bestmove`s written at once to one `go` forfeit the same way in every game: the
/// first is the answer, the second is unasked, whichever thread runs first (it was once
/// taken for the answer to the next `go` in some games, an illegal move there).
#[test]
fn a_second_answer_forfeits_for_the_same_reason_in_every_game() {
    let report = play(
        &format!("{RANDOM_ENGINE} --fault twice --fault-after 0"),
        8,
        2000,
    );
    assert_eq!(report.games.len(), 8);
    for (i, game) in report.games.iter().enumerate() {
        let fault = game
            .fault
            .as_ref()
            .unwrap_or_else(|| panic!("game {i}: no fault"));
        assert_eq!(
            fault.kind(),
            "unasked",
            "game {i} ({}): {fault}",
            game.record
        );
        let EngineFault::Unasked { line } = fault else {
            unreachable!()
        };
        // The engine's own answer again (the move it played), and nothing else of it.
        let mv = line.strip_prefix("bestmove ").unwrap();
        assert!(
            game.record.split_whitespace().any(|t| t == mv),
            "game {i}: {fault} ({})",
            game.record
        );
        assert_eq!(game.engine.moves, 1, "game {i}: {}", game.record);
    }
}

#[test]
fn misbehaving_engines_forfeit_and_the_next_game_gets_a_fresh_engine() {
    for (fault, kind) in [
        ("garbage", "garbage"),
        ("silent", "time_out"),
        ("exit", "exited"),
        ("illegal", "illegal"),
        ("none", "no_move"),
        ("twice", "unasked"),
    ] {
        let report = play(
            &format!("{RANDOM_ENGINE} --fault {fault} --fault-after 1"),
            2,
            400,
        );
        assert!(report.engine_started, "{fault}");
        let first = &report.games[0];
        let got = first
            .fault
            .as_ref()
            .unwrap_or_else(|| panic!("{fault}: no fault"));
        assert_eq!(got.kind(), kind, "{fault}: {got}");
        assert!(!first.engine_won);
        assert_eq!(first.winner, Side::White);
        // The engine (Black) answered one `go` before failing at its second; `twice`
        // answers the second too, and its extra answer is caught before the third.
        let answered = if fault == "twice" { 2 } else { 1 };
        assert_eq!(first.engine.moves, answered, "{fault}: {}", first.record);
        // The match went on with a new process.
        assert_eq!(report.games.len(), 2);
        assert!(
            report
                .summary
                .forfeits_by_kind
                .get(kind)
                .copied()
                .unwrap_or(0)
                >= 1
        );
        let text = got.to_string();
        match got {
            EngineFault::Illegal { reason, .. } => assert!(reason.contains("no tower"), "{text}"),
            EngineFault::Exited { stderr, .. } => {
                assert!(
                    stderr.as_deref().unwrap_or("").contains("on purpose"),
                    "{text}"
                )
            }
            EngineFault::TimeOut { command, limit_ms } => {
                assert_eq!((command.as_str(), *limit_ms), ("go", 400))
            }
            EngineFault::Garbage { line, .. } => assert_eq!(line, "the quick brown fox"),
            _ => {}
        }
    }
}

#[test]
fn engines_that_never_start_are_reported() {
    for (command, kind) in [
        ("true", "exited"),
        ("echo hello", "garbage"),
        ("cat > /dev/null", "time_out"),
        ("exec kamisado-no-such-engine-anywhere", "exited"),
        ("echo bestmove a1-a2", "garbage"),
        ("head -c 70000 /dev/zero | tr '\\0' x", "line_too_long"),
    ] {
        // An engine that never starts is tried once, not once per game.
        let report = play(command, 3, 300);
        assert!(!report.engine_started, "{command}");
        assert_eq!(report.games.len(), 1, "{command}");
        let game = &report.games[0];
        assert_eq!(game.moves, 0);
        assert!(!game.engine_won);
        let fault = game.fault.as_ref().unwrap();
        assert_eq!(fault.kind(), kind, "{command}: {fault}");
        if command.starts_with("exec") {
            assert!(fault.to_string().contains("not found"), "{fault}");
        }
    }
}

/// `play`, failing the test instead of hanging it if the match does not end in `within`.
fn play_within(command: &str, games: usize, time_limit_ms: u64, within: Duration) -> MatchReport {
    let (done, report) = std::sync::mpsc::channel();
    let command = command.to_owned();
    std::thread::spawn(move || {
        let _ = done.send(play(&command, games, time_limit_ms));
    });
    report
        .recv_timeout(within)
        .unwrap_or_else(|_| panic!("the match did not end within {within:?}"))
}

#[test]
fn an_engine_that_writes_without_end_forfeits_in_time() {
    // Endless lines the referee ignores (`info`, empty lines) once shaken hands, and
    // during the handshake: the time limit holds, and what is held unread is bounded
    // (the engine forfeits as flooded when it writes faster than the referee reads).
    let cases = [
        ("read l; echo keiok; exec yes 'info x'", true),
        ("exec yes ''", false),
        ("exec yes 'id name flood'", false),
    ];
    for (command, starts) in cases {
        let started = std::time::Instant::now();
        let report = play_within(command, 2, 500, Duration::from_secs(60));
        assert_eq!(report.engine_started, starts, "{command}");
        let faults: Vec<&EngineFault> = report
            .games
            .iter()
            .map(|g| g.fault.as_ref().expect("a forfeit"))
            .collect();
        for fault in &faults {
            assert!(
                matches!(fault, EngineFault::Flooded | EngineFault::TimeOut { .. }),
                "{command}: {fault}"
            );
        }
        // Each game costs at most one time limit (and a restart), plus the judging.
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "{command}: {:?}",
            started.elapsed()
        );
    }
}

#[test]
fn the_perfect_engine_speaks_kei() {
    let input = "\
kei
hello there
go
position startpos moves h1-h7 c8-c4 b1-b2 h8-d4
go movetime 10000
position startpos moves h1-h7 c8-c1
go
position 1b1pyrgn/7O/2u5/3o4/8/8/8/NGRYPUB1 b o
go
quit
position startpos
go
";
    let identity = Identity {
        name: "test".into(),
        author: "tests".into(),
    };
    let player = player();
    let mut output = Vec::new();
    serve(&player, &identity, Cursor::new(input), &mut output).unwrap();
    let output = String::from_utf8(output).unwrap();
    let lines: Vec<&str> = output.lines().collect();
    assert_eq!(&lines[..3], ["id name test", "id author tests", "keiok"]);
    let bestmoves: Vec<&str> = lines
        .iter()
        .filter_map(|l| l.strip_prefix("bestmove "))
        .collect();
    // No position yet; the late position; an illegal line; a pending zero-length move.
    assert_eq!(bestmoves.len(), 4, "{output}");
    assert_eq!(bestmoves[0], "(none)");
    assert_eq!(bestmoves[2], "(none)");
    assert!(output.contains("info string ignored unknown command `hello`"));
    assert!(output.contains("info string error: position: move 2 `c8-c1`"));

    // The late position's answer is one of its perfect moves.
    let late = late_position();
    let (verdict, best) = player
        .best_moves(&late, &kamisado_solver::Cancel::new())
        .unwrap();
    assert_eq!(
        (verdict.outcome.value, verdict.outcome.remoteness),
        (Value::Win, 10)
    );
    assert!(best.contains(&bestmoves[1].parse().unwrap()), "{output}");
    let _ = Action::Refill(Refill::Left);

    // Black's blocked tower passes: White's purple tower on c6 answers.
    assert!(bestmoves[3].starts_with("c6-"), "{output}");
    // Nothing after quit.
    assert_eq!(
        lines.last().map(|l| l.starts_with("bestmove c6-")),
        Some(true)
    );
}

#[test]
fn the_judge_marks_blunders_and_inaccuracies_for_the_mover() {
    // After h1-h7 c8-c4: Black wins in 15. b1-b2 keeps it; White's h8-d4 loses in 11
    // where 14 was possible; Black's a1-a2 then gives the win away.
    let line = "position ob1pyrgn/7O/8/8/2u5/8/8/NGRYPUB1 b g moves b1-b2 h8-d4";
    let game = PlayedGame::parse(line);
    assert_eq!(game.error, None);
    let player = player();
    let mut judge = Judge::new(player.oracle(), None);
    let mut asked = 0;
    let judged = judge.judge(&game, &mut || asked += 1);
    assert_eq!(asked, Judge::questions(&game));
    let [b1b2, h8d4] = judged.moves.as_slice() else {
        panic!("{judged:?}")
    };
    assert_eq!(b1b2.mark, None);
    assert_eq!(b1b2.before, b1b2.after);
    assert_eq!(b1b2.before.unwrap().remoteness, 15);
    assert_eq!(h8d4.mover, Side::White);
    assert_eq!(h8d4.mark, Some(Mark::Inaccuracy));
    assert_eq!(
        (
            h8d4.before.unwrap().remoteness,
            h8d4.after.unwrap().remoteness
        ),
        (14, 11)
    );
    assert_eq!(judged.white.inaccuracies, 1);
    assert_eq!(judged.first_blunder, None);
}

/// Round 1 of a Standard match near its end: Black wins it (in 10), and round 2, with
/// one Sumo on the board, is played from a refilled home row.
fn late_standard() -> MatchPosition {
    late_in(Target::Standard)
}

#[test]
fn whole_matches_are_refereed_round_by_round_with_refill_choices() {
    let options = MatchOptions {
        command: format!("{RANDOM_ENGINE} --seed 9"),
        games: 2,
        engine_sides: EngineSides::Alternate,
        time_limit: Duration::from_millis(5000),
        start: late_standard(),
        seed: 3,
    };
    let player = match_player();
    let mut refills = Vec::new();
    let report = run_match(&player, &options, &mut |event| {
        if let kamisado_referee::MatchEvent::Refilled {
            by_engine, choice, ..
        } = event
        {
            refills.push((by_engine, choice));
        }
    })
    .unwrap();
    assert_eq!(report.target, 3);
    assert_eq!(report.games.len(), 2);
    let mut rounds = 0;
    for game in &report.games {
        assert_eq!(game.fault, None, "{}", game.describe());
        assert_eq!(game.target, 3);
        // A Standard match takes at least two rounds (a plain tower's win scores 1, a
        // Sumo's 2); the winner reaches 3 points, the loser has less.
        assert!(game.rounds >= 2, "{}", game.describe());
        assert_eq!(game.engine_won, game.winner == game.engine_side);
        let (winner_points, loser_points) = if game.engine_won {
            (game.engine_points, game.perfect_points)
        } else {
            (game.perfect_points, game.engine_points)
        };
        assert!(
            winner_points >= 3 && loser_points < 3,
            "{}",
            game.describe()
        );
        assert!(game.describe().contains("the match"), "{}", game.describe());
        // The record is a match record: it replays to the same finished match, with one
        // refill choice between each two rounds.
        let replayed = PlayedGame::parse(&game.record);
        assert_eq!(replayed.error, None, "{}", game.record);
        assert!(replayed.end().is_match_over());
        assert_eq!(replayed.end().match_winner(), Some(game.winner));
        assert_eq!(replayed.record.rounds().len(), game.rounds);
        let words = game.record.split_whitespace();
        let choices = words.filter(|w| *w == "left" || *w == "right").count();
        assert_eq!(choices, game.rounds - 1, "{}", game.record);
        // Every refill choice was judged, and the perfect player's are never marked.
        assert_eq!(game.judgement.refills.len(), game.rounds - 1);
        for judged in &game.judgement.refills {
            assert!(judged.left.is_some() && judged.right.is_some());
            if judged.chooser != game.engine_side {
                assert_eq!(judged.mark, None, "{judged:?}");
            }
        }
        assert_eq!((game.perfect.blunders, game.perfect.inaccuracies), (0, 0));
        rounds += game.rounds;
    }
    assert_eq!(report.summary.rounds, rounds);
    assert_eq!(refills.len(), rounds - 2);
    // Round 1 is Black's (it wins in 10 and the perfect player does not let it go when it
    // is Black; the engine as Black may throw it away).
    let first_game = &report.games[0];
    assert_eq!(first_game.engine_side, Side::Black);
}

#[test]
fn the_perfect_player_refills_for_the_next_round_and_says_why() {
    // Black wins round 1 with g1-g7 h8-h6 g7-h8; both directions are solved for round 2
    // (White to move), and the choice is the better one for Black.
    let player = match_player();
    let cancel = kamisado_solver::Cancel::new();
    let finished = MatchRecord::parse(MatchPosition::start(Target::Standard), "g1-g7 h8-h6 g7-h8")
        .unwrap()
        .current();
    let choice = player.refill_choice(&finished, &cancel).unwrap().unwrap();
    assert_eq!(choice.chooser, Side::Black);
    for direction in Refill::ALL {
        let next = finished.refill(direction).unwrap();
        let (value, _) = player.oracle().value(&next, &cancel).unwrap();
        assert_eq!(next.turn(), Side::White);
        assert_eq!(choice.after(direction), value.flip());
        assert!(choice.after(choice.choice) >= choice.after(direction));
    }
    let explained = choice.explain(2);
    assert!(explained.starts_with(choice.choice.word()), "{explained}");
    assert!(explained.contains("round 2"), "{explained}");
    // No choice is due in a round being played, or after the match's last round.
    assert_eq!(
        player.refill_choice(&late_standard(), &cancel).unwrap(),
        None
    );

    // The engine loop answers the same choice, with its reason.
    let input = "kei\nposition obupyrgn/8/8/8/8/8/8/NGRYPUBO b - 3 moves g1-g7 h8-h6 g7-h8\ngo\nposition obupyrgn/8/8/8/8/8/8/NGRYPUBO b - moves g1-g7 h8-h6 g7-h8\ngo\nposition obupyrgn/8/8/8/8/8/8/NGRYPUBO b - 3 moves g1-g7 h8-h6 g7-h8 left\ngo\n";
    let identity = Identity {
        name: "test".into(),
        author: "tests".into(),
    };
    let mut output = Vec::new();
    serve(&player, &identity, Cursor::new(input), &mut output).unwrap();
    let output = String::from_utf8(output).unwrap();
    let bestmoves: Vec<&str> = output
        .lines()
        .filter_map(|l| l.strip_prefix("bestmove "))
        .collect();
    assert_eq!(bestmoves.len(), 3, "{output}");
    assert_eq!(bestmoves[0], choice.choice.word(), "{output}");
    // A single round's end is the end of the match: nothing to choose.
    assert_eq!(bestmoves[1], "(none)", "{output}");
    assert!(
        output.contains("the game is over: black won by goal"),
        "{output}"
    );
    // Round 2 from the left: White's move.
    let round_two = finished.refill(Refill::Left).unwrap();
    let mv: kamisado_match::Move = bestmoves[2].parse().unwrap();
    assert!(round_two.is_legal(mv), "{output}");
}

#[test]
fn a_refill_answer_where_a_move_is_due_and_the_other_way_round_is_illegal() {
    // An engine that always answers `left`: its first move is refused with the reason.
    let options = MatchOptions {
        command: "while read line; do case \"$line\" in kei) echo keiok;; go*) echo bestmove left;; esac; done".to_owned(),
        games: 1,
        engine_sides: EngineSides::Black,
        time_limit: Duration::from_millis(2000),
        start: late_standard(),
        seed: 1,
    };
    let report = run_match(&match_player(), &options, &mut |_| {}).unwrap();
    let fault = report.games[0].fault.as_ref().unwrap();
    assert_eq!(fault.kind(), "illegal");
    let text = fault.to_string();
    assert!(
        text.starts_with(
            "illegal refill choice left: a refill choice is due only after a round ends"
        ),
        "{text}"
    );
}

/// The random engine's `--help` explains its fault modes, with an example.
#[test]
fn the_random_engine_explains_its_fault_modes() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_kamisado-random-engine"))
        .arg("--help")
        .output()
        .unwrap();
    assert!(out.status.success());
    let help = String::from_utf8(out.stdout).unwrap();
    for mode in [
        "garbage",
        "silent",
        "exit",
        "illegal",
        "none",
        "twice",
        "--fault-after",
        "Example:",
    ] {
        assert!(help.contains(mode), "{mode}: {help}");
    }
    assert!(help.contains("answer two bestmoves"), "{help}");
}
