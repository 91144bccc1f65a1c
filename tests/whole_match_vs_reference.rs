//! Whole-match solving against methods that share no code with it: the naive reference's
//! minimax over rounds and refill choices (tests/reference/match_play/whole.rs) on
//! positions decided within a few steps, and, where the match goes on into a round that
//! any win ends, the round solver chained by hand over the refill choices, the round
//! played by the reference.
//!
//! What is checked: [`WholeMatch`] (values and remoteness in moves and refill choices),
//! [`ClinchRound`] (can a side end the match within the round), and the match search with
//! the round solver and proof store behind `Game::known` ([`MatchSolver`]), which must give
//! the values of the plain game.

use std::collections::HashMap;
use std::time::Duration;

use kamisado_match::{
    ClinchPosition, ClinchRound, MatchPosition, MatchRound, Side, Target, WholeMatch,
};
use kamisado_match_solver::{
    estimate, EstimateOptions, MatchOptions, MatchSolveError, MatchSolver, Run, Share,
    ShareOutcome, SpeculativeProof,
};
use kamisado_solver::{with_time_limit, Game, Options, Outcome, SolveError, Solver, Value};

fn fast(text: &str) -> MatchPosition {
    text.parse()
        .unwrap_or_else(|e| panic!("the match crate refuses `{text}`: {e}"))
}

fn options(threads: usize, mib: usize) -> Options {
    Options {
        threads,
        table_bytes: mib << 20,
    }
}

/// The match search; with `ask_rounds`, round starts are settled by the round solver (a
/// round solve each: seconds, so only where the test can afford them).
fn match_solver(ask_rounds: bool) -> MatchSolver {
    MatchSolver::new(
        MatchOptions {
            threads: 2,
            table_bytes: 64 << 20,
            round_table_bytes: 32 << 20,
            ask_rounds,
        },
        None,
    )
    .unwrap()
}

/// Late positions of random matches (every target but the single round) whose round is
/// still in play.
fn late_positions(seeds: std::ops::Range<u64>) -> impl Iterator<Item = String> {
    seeds.filter_map(|seed| {
        let target = [3, 7, 15][seed as usize % 3];
        let text = reference::random_match_position(seed, target, 30 + (seed % 40) as u32).unwrap();
        reference::match_round_end(&text)
            .unwrap()
            .is_none()
            .then_some(text)
    })
}

#[test]
fn whole_match_outcomes_agree_with_minimax_on_late_positions() {
    const DEPTH: u32 = 4;
    let solver = Solver::new(WholeMatch, options(2, 64)).unwrap();
    let checker = match_solver(false);
    let (mut checked, mut wins, mut round_goes_on, mut slow) = (0, 0, 0, 0);
    for text in late_positions(0..3_000) {
        if checked == 20 {
            break;
        }
        // Positions the reference decides within a few steps: a whole match from a late
        // position may otherwise go on for rounds.
        let Ok((value, remoteness)) = reference::match_whole_solve(&text, DEPTH) else {
            continue;
        };
        let pos = WholeMatch::root(&fast(&text));
        // df-pn may wander into later rounds before it finds a short proof: such positions
        // are left out (a handful).
        let limit = Some(Duration::from_secs(1));
        let Ok(outcome) = with_time_limit(limit, |cancel| solver.outcome(&pos, cancel)) else {
            slow += 1;
            continue;
        };
        assert_eq!(
            (outcome.value.name(), outcome.remoteness),
            (value.as_str(), remoteness),
            "{text}"
        );
        // The match search with the round solver behind it gives the same value.
        let proof = checker.value(&pos, &Run::default()).unwrap();
        assert_eq!(proof.value, outcome.value, "{text}");
        // Somewhere in the tree a round ends without ending the match.
        if !every_round_end_ends_the_match(&pos) {
            round_goes_on += 1;
        }
        checked += 1;
        wins += (outcome.value == Value::Win) as u32;
    }
    assert_eq!(checked, 20, "not enough late positions");
    assert!(slow < 10, "{slow} positions too slow to solve");
    assert!(wins > 0 && wins < checked, "{wins} wins of {checked}");
    assert!(
        round_goes_on >= 3,
        "only {round_goes_on} positions where a round end does not end the match"
    );
}

/// Whether every round win of either side from `pos` ends the match.
fn every_round_end_ends_the_match(pos: &MatchPosition) -> bool {
    Side::ALL
        .into_iter()
        .all(|side| ClinchRound::every_win_clinches(pos, side))
}

#[test]
fn clinching_agrees_with_minimax_on_late_positions() {
    const DEPTH: u32 = 5;
    let solver = Solver::new(ClinchRound, options(2, 32)).unwrap();
    let (mut checked, mut clinched, mut partial) = (0, 0, 0);
    for text in late_positions(5_000..9_000) {
        if checked >= 50 {
            break;
        }
        let pos = fast(&text).resolve();
        for clincher in Side::ALL {
            let p = ClinchPosition { pos, clincher };
            let code = if clincher == Side::Black { "b" } else { "w" };
            let Ok((value, remoteness)) = reference::match_clinch_solve(&text, code, DEPTH) else {
                continue;
            };
            let outcome = solver.outcome(&p, &kamisado_solver::Cancel::new()).unwrap();
            assert_eq!(
                (outcome.value.name(), outcome.remoteness),
                (value.as_str(), remoteness),
                "{text}, clincher {clincher:?}"
            );
            checked += 1;
            clinched += ((outcome.value == Value::Win) == (clincher == pos.turn())) as u32;
            partial += (!ClinchRound::every_win_clinches(&pos, clincher)
                && ClinchRound::can_ever_clinch(&pos, clincher)) as u32;
        }
    }
    assert!(checked >= 50, "not enough late positions");
    assert!(
        clinched > 5 && clinched < 45,
        "{clinched} clinches of {checked}"
    );
    assert!(
        partial >= 8,
        "only {partial} questions where some wins clinch and some do not"
    );
}

/// The match value (winner, and remoteness in moves and refill choices) of a round in play,
/// by the reference's minimax over this round (cut off at `depth` moves), where every
/// round end that does not end the match leads to a round that any win ends: that round's
/// value and remoteness come from the round solver, and the round's winner picks the
/// refill. `Err` if a round end leads to a round that not every win ends.
fn chained(
    pos: &reference::MatchPosition,
    depth: u32,
    next_round: &mut dyn FnMut(&str) -> Outcome,
) -> Result<Option<(Side, u32)>, ()> {
    let Some(ready) = in_play(pos) else {
        return Ok(None);
    };
    if depth == 0 {
        return Ok(None);
    }
    let me = side_of(ready.side_to_move());
    let mut results = Vec::new();
    for mv in ready.legal_moves() {
        let (child, end) = ready.play(&mv).unwrap();
        let result = match end {
            Some(end) if end.match_over => Some((side_of(end.winner), 0)),
            Some(end) => {
                let winner = side_of(end.winner);
                let mut refills = Vec::new();
                for from in [reference::RefillFrom::Left, reference::RefillFrom::Right] {
                    let next = child.refill(&end, from).unwrap().to_text();
                    let next_pos = fast(&next);
                    if !every_round_end_ends_the_match(&next_pos) {
                        return Err(());
                    }
                    let o = next_round(&next);
                    let to_move = next_pos.turn();
                    let w = if o.value == Value::Win {
                        to_move
                    } else {
                        !to_move
                    };
                    refills.push(Some((w, o.remoteness + 1)));
                }
                best_for(winner, &refills)
            }
            None => chained(&child, depth - 1, next_round)?,
        };
        results.push(result.map(|(w, r)| (w, r + 1)));
    }
    Ok(best_for(me, &results))
}

/// The position if its round is in play. The reference's positions after a move have their
/// zero-length chains played, so the side to move of the text is the side that moves.
fn in_play(pos: &reference::MatchPosition) -> Option<&reference::MatchPosition> {
    (!pos.legal_moves().is_empty()).then_some(pos)
}

fn side_of(side: reference::Side) -> Side {
    match side {
        reference::Side::Black => Side::Black,
        reference::Side::White => Side::White,
    }
}

fn best_for(me: Side, results: &[Option<(Side, u32)>]) -> Option<(Side, u32)> {
    if let Some(r) = results
        .iter()
        .flatten()
        .filter(|(w, _)| *w == me)
        .map(|&(_, r)| r)
        .min()
    {
        return Some((me, r));
    }
    if results.iter().any(Option::is_none) {
        return None;
    }
    results.iter().flatten().copied().max_by_key(|&(_, r)| r)
}

#[test]
#[ignore = "minutes: every round end leads to a whole round solved twice; run with --ignored"]
fn matches_that_go_on_into_a_last_round_agree_with_the_round_solver_chained_by_hand() {
    const DEPTH: u32 = 3;
    let round = Solver::new(MatchRound, options(2, 64)).unwrap();
    let plain = Solver::new(WholeMatch, options(2, 64)).unwrap();
    let checker = match_solver(true);
    let mut memo: HashMap<String, Outcome> = HashMap::new();
    let (mut checked, mut refills_decided) = (0, 0);
    for seed in 0..20_000u64 {
        if checked == 4 {
            break;
        }
        let text = reference::random_match_position(seed, 3, 30 + (seed % 40) as u32).unwrap();
        if reference::match_round_end(&text).unwrap().is_some() {
            continue;
        }
        let pos = WholeMatch::root(&fast(&text));
        // A Standard match at 2-1 or 1-2: the next round, if any, is one that any win ends.
        let scores = (pos.score(Side::Black), pos.score(Side::White));
        if scores != (2, 1) && scores != (1, 2) {
            continue;
        }
        let limit = Some(Duration::from_millis(300));
        let Ok(round_outcome) = with_time_limit(limit, |cancel| round.outcome(&pos, cancel)) else {
            continue;
        };
        if round_outcome.remoteness > DEPTH {
            continue;
        }
        let mut next_round = |next: &str| {
            *memo.entry(next.to_owned()).or_insert_with(|| {
                round
                    .outcome(&fast(next), &kamisado_solver::Cancel::new())
                    .unwrap()
            })
        };
        let reference_pos = reference::MatchPosition::parse(&text).unwrap();
        let Ok(Some((winner, remoteness))) = chained(&reference_pos, DEPTH, &mut next_round) else {
            continue;
        };
        let value = if winner == pos.turn() {
            Value::Win
        } else {
            Value::Loss
        };
        // Values: the plain game, and the match search with the round solver behind it.
        let cancel = kamisado_solver::Cancel::new();
        assert_eq!(plain.value(&pos, &cancel).unwrap(), value, "{text}");
        assert_eq!(
            checker.value(&pos, &Run::default()).unwrap().value,
            value,
            "{text}"
        );
        // Remoteness, moves and refill choices, where the match goes on past this round.
        if remoteness > round_outcome.remoteness {
            let outcome = checker.solver().outcome(&pos, checker.stop()).unwrap();
            assert_eq!(outcome, Outcome::new(value, remoteness), "{text}");
            refills_decided += 1;
        }
        checked += 1;
    }
    assert_eq!(checked, 4, "not enough positions at 2-1 late in a round");
    assert!(
        refills_decided >= 1,
        "only {refills_decided} matches that went on past the round"
    );
}

#[test]
fn a_match_to_one_point_is_the_single_round() {
    let solver = Solver::new(WholeMatch, options(2, 64)).unwrap();
    let single = Solver::new(kamisado_core::Kamisado, options(2, 64)).unwrap();
    let cancel = kamisado_solver::Cancel::new();
    let start = MatchPosition::start(Target::Single);
    assert_eq!(solver.value(&start, &cancel).unwrap(), Value::Win);
    for moves in [
        "h1-h5 e8-e3 c1-c5",
        "a1-a2 c8-c3",
        "d1-d5 a8-a5 e1-e6 c8-c3 a1-a4",
    ] {
        let mut pos = start;
        let mut core = kamisado_core::Position::start();
        for m in moves.split(' ') {
            pos = pos.play(m.parse().unwrap()).unwrap();
            core = core.play(m.parse().unwrap()).unwrap();
        }
        assert_eq!(
            solver.outcome(&pos, &cancel).unwrap(),
            single.outcome(&core, &cancel).unwrap(),
            "{moves}"
        );
    }
}

#[test]
fn symmetric_images_have_one_match_value() {
    use kamisado_match::Symmetry;
    let solver = Solver::new(WholeMatch, options(2, 32)).unwrap();
    let mut checked = 0;
    for text in late_positions(0..3_000).skip(1) {
        if checked == 4 {
            break;
        }
        if reference::match_whole_solve(&text, 4).is_err() {
            continue;
        }
        let pos = WholeMatch::root(&fast(&text));
        let limit = Some(Duration::from_secs(1));
        let Ok(outcome) = with_time_limit(limit, |cancel| solver.outcome(&pos, cancel)) else {
            continue;
        };
        for sym in [
            Symmetry::Mirror,
            Symmetry::HalfTurn,
            Symmetry::HalfTurnMirror,
        ] {
            let image = pos.transformed(sym);
            let fresh = Solver::new(WholeMatch, options(1, 8)).unwrap();
            let o = fresh
                .outcome(&image, &kamisado_solver::Cancel::new())
                .unwrap();
            assert_eq!(o, outcome, "{text} through {sym:?}");
        }
        checked += 1;
    }
    assert_eq!(checked, 4);
}

/// The match's winner after `mv` from `text` by the reference's minimax within `depth`
/// steps, the refill choice of a round's winner included; `None` if not decided.
fn reference_winner_after(text: &str, mv: &str, depth: u32) -> Option<Side> {
    let (child, end) = reference::match_play_with_end(text, mv).unwrap();
    // Positions after a move or a refill have their zero-length chains played: the side
    // to move of the text moves.
    let winner_from = |text: &str| -> Option<Side> {
        let (value, _) = reference::match_whole_solve(text, depth).ok()?;
        let mover = side_of(
            reference::MatchPosition::parse(text)
                .unwrap()
                .side_to_move(),
        );
        Some(if value == "win" { mover } else { !mover })
    };
    match end {
        Some(end) if end.match_over => Some(side_of(end.winner)),
        Some(end) => {
            let chooser = side_of(end.winner);
            let after: Vec<Option<Side>> = ["left", "right"]
                .iter()
                .map(|from| winner_from(&reference::match_refill(&child, from).unwrap()))
                .collect();
            if after.contains(&Some(chooser)) {
                Some(chooser)
            } else if after.iter().all(|w| *w == Some(!chooser)) {
                Some(!chooser)
            } else {
                None
            }
        }
        None => winner_from(&child),
    }
}

#[test]
fn every_moves_match_value_agrees_with_minimax_on_late_positions() {
    // What `kamisado whole-match query` prints: each move searched in turn with a time
    // limit, its value for the player making it. Positions where the reference decides
    // every move within a few steps.
    const DEPTH: u32 = 3;
    let solver = match_solver(true);
    let run = Run {
        time_limit: Some(Duration::from_secs(5)),
        ..Run::default()
    };
    let (mut positions, mut moves, mut losing_moves) = (0, 0, 0);
    for text in late_positions(0..3_000) {
        if positions == 12 {
            break;
        }
        let mut expected: Vec<(String, Side)> = Vec::new();
        for mv in reference::match_legal_moves(&text).unwrap() {
            match reference_winner_after(&text, &mv, DEPTH) {
                Some(winner) => expected.push((mv, winner)),
                None => break,
            }
        }
        if expected.len() != reference::match_legal_moves(&text).unwrap().len() {
            continue;
        }
        let pos = WholeMatch::root(&fast(&text));
        let mover = WholeMatch::side_to_move(&pos);
        let mut values: Vec<(String, Value)> = solver
            .move_values(&pos, &run, &mut |_| {})
            .unwrap()
            .into_iter()
            .map(|(m, proof)| {
                let proof = proof.unwrap_or_else(|| panic!("{text}: {m} not proven in 5 s"));
                (m.to_string(), proof.value)
            })
            .collect();
        values.sort();
        expected.sort();
        let expected: Vec<(String, Value)> = expected
            .into_iter()
            .map(|(mv, winner)| {
                let value = if winner == mover {
                    Value::Win
                } else {
                    Value::Loss
                };
                (mv, value)
            })
            .collect();
        assert_eq!(values, expected, "{text}");
        positions += 1;
        moves += values.len();
        losing_moves += values.iter().filter(|(_, v)| *v == Value::Loss).count();
    }
    assert_eq!(positions, 12, "not enough late positions");
    assert!(
        moves >= 30 && losing_moves > 0 && losing_moves < moves,
        "{moves} moves checked, {losing_moves} losing"
    );
}

/// Speculation (final rounds assumed won by their opener, then the ones the proof rests on
/// verified) against the match search that asks the round solver about every final round
/// it meets: the same value at late positions of Standard matches at 2-1 and 1-2, where
/// the round's end leads into a final round; again with every final round guessed lost by
/// its opener, so that the searches run again after wrong guesses; and again with assumed
/// final rounds free (no price), whose walk must find every winning move in the table
/// (no search of its own) and whose proofs rest on at least as many final rounds.
#[test]
fn speculation_gives_the_match_searchs_values_at_two_round_positions() {
    let checker = match_solver(true);
    let mut speculating = match_solver(true);
    let (mut checked, mut relied_on, mut wrong, mut searches, mut slow) = (0, 0, 0, 0, 0);
    let (mut priced_relied_on, mut free_relied_on) = (0, 0);
    let mut free_speculating = free_speculation();
    for seed in 0..400u64 {
        if checked == 12 {
            break;
        }
        let Some(text) = late_in_a_round_at_two_one(seed) else {
            continue;
        };
        let Some((pos, expected)) = searched_value(&checker, &text) else {
            continue;
        };
        let patient = patient();
        let Some(proof) = speculation_checked(&mut speculating, &pos, expected, &text, &mut slow)
        else {
            continue;
        };
        relied_on += (proof.speculation.relied_on > 0) as u32;
        // Free assumed final rounds, by a solver that like the priced one keeps the facts
        // of the positions before.
        let Some(free) = in_time(
            free_speculating.value_by_speculation(&pos, &patient),
            &text,
            &mut slow,
        ) else {
            continue;
        };
        assert_eq!(free.proof.value, expected, "{text}, final rounds free");
        assert_eq!(
            free.speculation.walk_searches, 0,
            "{text}, final rounds free"
        );
        priced_relied_on += proof.speculation.relied_on;
        free_relied_on += free.speculation.relied_on;
        // The loop after a wrong guess: every final round guessed lost by its opener.
        // (A solver of its own: the other's proof file knows the final rounds verified.)
        let Some(proof) = in_time(
            match_solver(true).value_by_speculation_guessing(&pos, &patient, Value::Loss),
            &text,
            &mut slow,
        ) else {
            continue;
        };
        assert_eq!(proof.proof.value, expected, "{text}, guessing wrong");
        checked += 1;
        wrong += proof.speculation.wrong;
        searches += proof.speculation.searches;
    }
    assert_eq!(checked, 12, "not enough positions at 2-1 in a round");
    assert!(slow <= 3, "{slow} positions too slow to speculate");
    assert!(
        relied_on >= 3,
        "only {relied_on} proofs rested on a final round"
    );
    assert!(
        wrong >= 3 && searches > checked,
        "the wrong guess was found wrong {wrong} times in {searches} searches"
    );
    assert!(
        priced_relied_on <= free_relied_on,
        "priced proofs rest on {priced_relied_on} final rounds, free ones on {free_relied_on}"
    );
    eprintln!("{checked} positions, {relied_on} resting on final rounds, {wrong} wrong guesses, {searches} searches; final rounds relied on, priced {priced_relied_on}, free {free_relied_on}");
}

/// The late position `text` as a match search's root, with its value by the plain match
/// search asking the round solver, if that search finds it within 2 s: the value
/// speculation must give.
fn searched_value(checker: &MatchSolver, text: &str) -> Option<(MatchPosition, Value)> {
    let pos = WholeMatch::root(&fast(text));
    let quick = Run {
        time_limit: Some(Duration::from_secs(2)),
        ..Run::default()
    };
    Some((pos, checker.value(&pos, &quick).ok()?.value))
}

/// Generous: the limit only keeps a rare slow position from holding a test up, and a
/// loaded machine (load 10 on two cores) is three to five times slower.
fn patient() -> Run<'static> {
    Run {
        time_limit: Some(Duration::from_secs(30)),
        ..Run::default()
    }
}

/// `solver`'s speculative proof of `pos` (`text`), if in time, with the value `expected`
/// and every assumption it rests on verified.
fn speculation_checked(
    solver: &mut MatchSolver,
    pos: &MatchPosition,
    expected: Value,
    text: &str,
    slow: &mut u32,
) -> Option<SpeculativeProof> {
    let proof = in_time(solver.value_by_speculation(pos, &patient()), text, slow)?;
    assert_eq!(proof.proof.value, expected, "{text}");
    assert!(
        proof.speculation.verified >= proof.speculation.relied_on,
        "{text}"
    );
    Some(proof)
}

/// `Some` of a speculation's proof, `None` if it ran out of time (counted in `slow`: a
/// loaded machine makes a rare position slow); any other error fails the test.
fn in_time(
    result: Result<SpeculativeProof, MatchSolveError>,
    text: &str,
    slow: &mut u32,
) -> Option<SpeculativeProof> {
    match result {
        Ok(proof) => Some(proof),
        Err(MatchSolveError::Solve(SolveError::Stopped)) => {
            *slow += 1;
            None
        }
        Err(e) => panic!("{text}: {e}"),
    }
}

/// A match solver whose speculation assumes final rounds free (no price): its proofs rest
/// on more of them, so that there is more to split into shares.
fn free_speculation() -> MatchSolver {
    let mut solver = match_solver(true);
    solver.set_assumed_prices(&[None]);
    solver
}

/// Speculation in tiers of the score against the match search that asks the round solver
/// about every round start it meets: at late positions of rounds at 2-0 and 0-2, whose
/// round ends lead to round starts at 2-1 or 1-2 (not final rounds), those round starts
/// are assumed (the side with more points wins) and then verified, by the round solver's
/// clinch questions or, where they settle nothing, by a proof of their own; the values
/// must be the plain search's, with the prediction as it is and turned round.
#[test]
fn speculation_in_tiers_gives_the_match_searchs_values_at_three_round_positions() {
    let checker = match_solver(true);
    let mut speculating = match_solver(true);
    let (mut checked, mut relied_on, mut wrong, mut slow) = (0, 0, 0, 0);
    for seed in 0..400u64 {
        if checked == 8 {
            break;
        }
        let Some(text) = late_in_a_round_at_two_nil(seed) else {
            continue;
        };
        let Some((pos, expected)) = searched_value(&checker, &text) else {
            continue;
        };
        let patient = patient();
        let Some(proof) = speculation_checked(&mut speculating, &pos, expected, &text, &mut slow)
        else {
            continue;
        };
        relied_on += proof.speculation.relied_on;
        let Some(turned) = in_time(
            match_solver(true).value_by_speculation_guessing(&pos, &patient, Value::Loss),
            &text,
            &mut slow,
        ) else {
            continue;
        };
        assert_eq!(turned.proof.value, expected, "{text}, guessing wrong");
        wrong += turned.speculation.wrong;
        checked += 1;
    }
    assert_eq!(checked, 8, "not enough positions at 2-0 in a round");
    assert!(slow <= 3, "{slow} positions too slow to speculate");
    // (Measured: 4 and 3; fewer positions when a loaded machine makes the checker slow.)
    assert!(
        relied_on >= 2,
        "the proofs rested on only {relied_on} round starts of the next tier"
    );
    assert!(wrong >= 1, "the wrong guess was found wrong {wrong} times");
    eprintln!("{checked} positions, {relied_on} round starts at 2-1 or 1-2 relied on, {wrong} wrong guesses");
}

/// Speculation with two prices (one search each) verifies the proof of the search that
/// rests on fewer round starts: its count is the smaller of the two single-price counts,
/// the round starts it lists are what its proof verifies, and the value is the plain
/// match search's.
#[test]
fn speculation_with_two_prices_verifies_the_proof_that_rests_on_fewer() {
    let checker = match_solver(true);
    let (mut checked, mut slow, mut differed) = (0, 0, 0);
    let both = [None, Some(16)];
    for seed in 0..400u64 {
        if checked == 6 {
            break;
        }
        let Some(text) = late_in_a_round_at_two_one(seed) else {
            continue;
        };
        let Some((pos, expected)) = searched_value(&checker, &text) else {
            continue;
        };
        let mut counts = Vec::new();
        for prices in [&both[..1], &both[1..], &both[..]] {
            let mut solver = match_solver(true);
            solver.set_assumed_prices(prices);
            match solver.count_by_speculation(&pos, &patient()) {
                Ok(count) => counts.push(count),
                Err(MatchSolveError::Solve(SolveError::Stopped)) => break,
                Err(e) => panic!("{text}: {e}"),
            }
        }
        if counts.len() < 3 {
            slow += 1;
            continue;
        }
        let (free, priced, two) = (&counts[0], &counts[1], &counts[2]);
        let fewer = free.relied_on.len().min(priced.relied_on.len());
        assert_eq!(two.relied_on.len(), fewer, "{text}");
        assert_eq!(two.proof.speculation.searches, 2, "{text}");
        assert_eq!(two.proof.speculation.relied_on as usize, fewer, "{text}");
        differed += (free.relied_on.len() != priced.relied_on.len()) as u32;
        for start in &two.relied_on {
            assert!(
                start.active().is_none() && start.round_number() == pos.round_number() + 1,
                "{text}: {start} is not a round start of the next round"
            );
        }
        let mut solver = match_solver(true);
        solver.set_assumed_prices(&both);
        let Some(proof) = speculation_checked(&mut solver, &pos, expected, &text, &mut slow) else {
            continue;
        };
        assert!(
            proof.speculation.verified >= fewer as u64,
            "{text}: the proof verified {} of the {fewer} round starts listed",
            proof.speculation.verified
        );
        checked += 1;
    }
    assert_eq!(checked, 6, "not enough positions at 2-1 in a round");
    assert!(slow <= 3, "{slow} positions too slow to speculate");
    assert!(differed >= 1, "the two prices never gave different counts");
}

/// The cost estimate by sampling the tiers: with more samples than round starts it
/// measures every one, so its counts are the proofs' own (the root's list, and the lists
/// of the round starts that are not settled by a clinch question, counted again here)
/// and its spread is nil; with two samples, the first tier's count is still exact and the
/// same seed gives the same counts.
#[test]
fn an_estimate_that_samples_everything_counts_what_the_proofs_rest_on() {
    let checker = match_solver(true);
    let options = MatchOptions {
        threads: 1,
        table_bytes: 64 << 20,
        round_table_bytes: 32 << 20,
        ask_rounds: true,
    };
    let every = EstimateOptions {
        samples: 1 << 16,
        seed: 1,
        prices: vec![Some(16)],
    };
    let (mut checked, mut deeper) = (0, 0);
    for seed in 0..400u64 {
        if checked == 3 {
            break;
        }
        let Some(text) = late_in_a_round_at_two_nil(seed) else {
            continue;
        };
        let Some((pos, _)) = searched_value(&checker, &text) else {
            continue;
        };
        let Ok(count) = match_solver(true).count_by_speculation(&pos, &patient()) else {
            continue;
        };
        if count.relied_on.is_empty() {
            continue;
        }
        let Ok(all) = estimate(&pos, options, &every, &patient(), &|_| {}) else {
            continue;
        };
        let n = count.relied_on.len();
        assert_eq!(all.tiers[0].counted, 1, "{text}");
        assert_eq!(all.tiers[0].relied_on_max as usize, n, "{text}");
        assert_eq!(all.tiers[1].estimated_starts, n as f64, "{text}");
        let tier1 = &all.tiers[1];
        let by_score: f64 = tier1.estimated_by_score.values().sum();
        assert_eq!(by_score, n as f64, "{text}");
        assert_eq!(tier1.settled + tier1.counted, n as u64, "{text}");
        assert_eq!(all.standard_error, 0.0, "{text}");
        assert_eq!(all.tiers[0].relied_on_total as usize, n, "{text}");
        assert_eq!(all.tiers[0].relied_on_distinct as usize, n, "{text}");
        // The round starts no clinch question settles: their own counts, summed, and the
        // distinct round starts they rest on.
        let mut below = 0;
        let mut distinct = std::collections::HashSet::new();
        let clincher = match_solver(true);
        for start in &count.relied_on {
            if clincher
                .solver()
                .game()
                .settle_round_start(start)
                .unwrap()
                .is_none()
            {
                let relied_on = match_solver(true)
                    .count_by_speculation(start, &patient())
                    .unwrap()
                    .relied_on;
                below += relied_on.len();
                distinct.extend(relied_on);
            }
        }
        let tier2 = all.tiers.get(2).map_or(0.0, |t| t.estimated_starts);
        assert_eq!(tier2, below as f64, "{text}");
        let (total, shared) = (tier1.relied_on_total, tier1.relied_on_distinct);
        assert_eq!(total as usize, below, "{text}");
        assert_eq!(shared as usize, distinct.len(), "{text}");
        deeper += (below > 0) as u32;
        let two = EstimateOptions {
            samples: 2,
            seed: 7,
            prices: vec![Some(16)],
        };
        let a = estimate(&pos, options, &two, &patient(), &|_| {}).unwrap();
        let b = estimate(&pos, options, &two, &patient(), &|_| {}).unwrap();
        assert_eq!(a.tiers[1].estimated_starts, n as f64, "{text}");
        let starts = |e: &kamisado_match_solver::Estimate| -> Vec<f64> {
            e.tiers.iter().map(|t| t.estimated_starts).collect()
        };
        assert_eq!(starts(&a), starts(&b), "{text}: one seed, two estimates");
        checked += 1;
    }
    assert_eq!(checked, 3, "not enough positions at 2-0 in a round");
    eprintln!("{checked} positions, {deeper} with proofs apart below");
}

/// A speculative proof verified in shares (as array tasks on a cluster verify it): two
/// shares searched apart from the same (empty) proof file find the same proof and split its
/// final rounds between them, each verified once; a solver given both shares' facts then
/// proves the value the match search gives, and verifies nothing more unless a share found
/// a wrong guess (then only the final rounds of the search run again).
#[test]
fn speculation_verified_in_shares_gives_the_match_searchs_values() {
    let checker = match_solver(true);
    let (mut checked, mut split) = (0, 0);
    for seed in 0..400u64 {
        if checked == 6 {
            break;
        }
        let Some(text) = late_in_a_round_at_two_one(seed) else {
            continue;
        };
        let Some((pos, expected)) = searched_value(&checker, &text) else {
            continue;
        };
        let patient = patient();
        let shares = [Share::new(1, 2).unwrap(), Share::new(2, 2).unwrap()];
        let mut parts = Vec::new();
        for share in shares {
            let mut solver = free_speculation();
            match solver.verify_share_by_speculation(&pos, &patient, share) {
                Ok(outcome) => parts.push((solver, outcome)),
                Err(MatchSolveError::Solve(SolveError::Stopped)) => break,
                Err(e) => panic!("{text}, share {share}: {e}"),
            }
        }
        if parts.len() < 2 {
            continue;
        }
        checked += 1;
        let outcomes: Vec<SpeculativeProof> = parts
            .iter()
            .map(|(_, outcome)| match outcome {
                ShareOutcome::Proven(p) | ShareOutcome::Verified(p) => *p,
            })
            .collect();
        let (first, second) = (outcomes[0].speculation, outcomes[1].speculation);
        // The same search in both: the same proof, resting on the same final rounds.
        assert_eq!(first.relied_on, second.relied_on, "{text}");
        assert_eq!(first.proof_positions, second.proof_positions, "{text}");
        if let ShareOutcome::Proven(p) = parts[0].1 {
            // Nothing to verify: both shares are the whole proof.
            assert_eq!(first.relied_on, 0, "{text}");
            assert_eq!(p.proof.value, expected, "{text}");
            assert!(matches!(parts[1].1, ShareOutcome::Proven(_)), "{text}");
            continue;
        }
        split += 1;
        assert_eq!(first.verified, first.relied_on.div_ceil(2), "{text}");
        assert_eq!(second.verified, first.relied_on / 2, "{text}");
        let merged = free_speculation();
        for (solver, _) in &parts {
            for (key, fact) in solver.store().facts() {
                merged.store().insert(key, fact);
            }
        }
        let mut merged = merged;
        let proof = merged
            .value_by_speculation(&pos, &patient)
            .unwrap_or_else(|e| panic!("{text}, after the shares: {e}"));
        assert_eq!(proof.proof.value, expected, "{text}");
        if first.wrong + second.wrong == 0 {
            assert_eq!(proof.speculation.verified, 0, "{text}");
            assert_eq!(proof.speculation.searches, 1, "{text}");
        }
    }
    assert_eq!(checked, 6, "not enough positions at 2-1 in a round");
    assert!(split >= 2, "only {split} proofs rested on final rounds");
}

/// A position a few random moves before the end of a round at 2-1 or 1-2 of a Standard
/// match, the trailing side to move at the round's start (the round starts of
/// data/match-standard.json that are not proven), by a random walk of the round.
fn late_in_a_round_at_two_one(seed: u64) -> Option<String> {
    const STARTS: [&str; 4] = [
        "ypo+ngrbu/8/8/8/8/8/8/OU+NBPYGR+ w - 3",
        "gobyrupn+/8/8/8/8/8/8/R+BYN+GUOP w - 3",
        "urgnob+yp+/8/8/8/8/8/8/OPRY+UGBN b - 3",
        "g+orn+ybpu/8/8/8/8/8/8/GRNUYPO+B b - 3",
    ];
    late_in_a_round_from(&STARTS, seed)
}

/// A position 2 to 6 moves before the end of a random round from one of the round starts
/// at 2-0 and 0-2 of `data/match-standard.json` (the trailing side to move): a round won
/// by the trailing side leads to a round start at 2-1 or 1-2, which is not a final round.
fn late_in_a_round_at_two_nil(seed: u64) -> Option<String> {
    const STARTS: [&str; 4] = [
        "unogbrpy/8/8/8/8/8/8/GPURBY+NO+ w - 3",
        "pgnyrobu/8/8/8/8/8/8/BRUPYOG+N+ w - 3",
        "p+nobuygr+/8/8/8/8/8/8/OUYBPNRG b - 3",
        "n+rupyg+ob/8/8/8/8/8/8/YONRPGUB b - 3",
    ];
    late_in_a_round_from(&STARTS, seed)
}

/// A position 2 to 6 moves before the end of a round played at random from one of `starts`.
fn late_in_a_round_from(starts: &[&str], seed: u64) -> Option<String> {
    let mut rng = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut next = move || {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        rng
    };
    let mut pos = WholeMatch::root(&fast(starts[seed as usize % starts.len()]));
    let mut round = Vec::new();
    while !pos.is_round_over() {
        round.push(pos);
        let moves = WholeMatch::moves_of(&pos);
        if moves.is_empty() {
            break;
        }
        pos = WholeMatch.play(&pos, moves[(next() % moves.len() as u64) as usize]);
    }
    let back = 2 + (seed % 5) as usize;
    round.len().checked_sub(back).map(|i| round[i].to_string())
}
