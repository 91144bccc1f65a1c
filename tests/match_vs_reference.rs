//! The match-play rules crate and its round solver against the naive match reference
//! (tests/reference/match_play), which shares no code with them: legal moves, positions
//! and round ends after every move, perft, and who wins a round in how many moves, on
//! positions of random matches that seek out Sumos and pushes.

use kamisado_core::Kamisado;
use kamisado_match::perft::{divide, perft};
use kamisado_match::{MatchPosition, MatchRound};
use kamisado_solver::{with_time_limit, Cancel, Options, Solver, Value};

fn fast(text: &str) -> MatchPosition {
    text.parse()
        .unwrap_or_else(|e| panic!("the match crate refuses `{text}`: {e}"))
}

fn sorted(mut v: Vec<String>) -> Vec<String> {
    v.sort();
    v
}

/// Positions of random matches of every target: a third with a legal push.
fn positions(count: u64) -> Vec<String> {
    let mut out = Vec::new();
    for seed in 0..count {
        let target = [1, 3, 7, 15][seed as usize % 4];
        let moves = 4 + (seed * 7 % 40) as u32;
        let text = if seed % 3 == 0 {
            reference::random_match_push_position(seed, target, moves).unwrap()
        } else {
            None
        };
        let text =
            text.unwrap_or_else(|| reference::random_match_position(seed, target, moves).unwrap());
        // Finished rounds have nothing to compare move by move.
        if reference::match_round_end(&text).unwrap().is_none() {
            out.push(text);
        }
    }
    out
}

#[test]
fn the_generator_reaches_sumos_and_pushes() {
    let all = positions(300);
    let with_push = all
        .iter()
        .filter(|t| {
            let pos = fast(t);
            pos.legal_moves().iter().any(|m| {
                // A push moves one square straight ahead onto an occupied square.
                pos.board().occupied().contains(m.to())
            })
        })
        .count();
    // About two in five walks end in a finished round or match, which are left out.
    assert!(all.len() >= 100, "{}", all.len());
    assert!(
        with_push >= 25,
        "only {with_push} of {} positions with a legal push",
        all.len()
    );
}

#[test]
fn moves_positions_and_round_ends_agree_after_every_move() {
    for text in positions(800) {
        let pos = fast(&text);
        assert_eq!(pos.to_string(), text, "text round trip");
        let moves: Vec<String> = pos.legal_moves().iter().map(|m| m.to_string()).collect();
        assert_eq!(
            sorted(moves.clone()),
            reference::match_legal_moves(&text).unwrap(),
            "legal moves of {text}"
        );
        for m in &moves {
            let next = pos.play(m.parse().unwrap()).unwrap();
            let (naive_next, naive_end) = reference::match_play_with_end(&text, m).unwrap();
            assert_eq!(next.to_string(), naive_next, "{text} after {m}");
            match (next.round_end(), naive_end) {
                (None, None) => {}
                (Some(end), Some(naive)) => {
                    // The two implementations share no types: compare their names.
                    let name = |x: &dyn std::fmt::Debug| format!("{x:?}");
                    assert_eq!(name(&end.winner), name(&naive.winner), "{text} {m}");
                    assert_eq!(name(&end.reason), name(&naive.reason), "{text} {m}");
                    assert_eq!(
                        name(&end.promoted.colour),
                        name(&naive.gaining_colour),
                        "the tower that gains, {text} {m}"
                    );
                }
                (a, b) => panic!("{text} after {m}: round end {a:?} vs {b:?}"),
            }
        }
    }
}

#[test]
fn perft_and_divide_agree_from_many_positions() {
    let all = positions(500);
    for (i, text) in all.iter().enumerate() {
        let depth = if i % 8 == 0 { 4 } else { 3 };
        let pos = fast(text);
        assert_eq!(
            perft(&pos, depth),
            reference::match_perft(text, depth).unwrap(),
            "perft({depth}) of {text}"
        );
        if i % 10 == 0 {
            let lines: Vec<(String, u64)> = divide(&pos, 2)
                .into_iter()
                .map(|(m, n)| (m.to_string(), n))
                .collect();
            let mut naive = reference::match_divide(text, 2).unwrap();
            naive.sort();
            let mut lines = lines;
            lines.sort();
            assert_eq!(lines, naive, "divide(2) of {text}");
        }
    }
}

#[test]
fn a_single_round_is_a_match_to_one_point() {
    // Same start, same perft as the single-round core, and the same solved value.
    let start = MatchPosition::start(kamisado_match::Target::Single);
    assert_eq!(
        start.to_string(),
        kamisado_core::Position::start().to_string()
    );
    for depth in 0..=4 {
        assert_eq!(
            perft(&start, depth),
            kamisado_core::perft::perft(
                &kamisado_core::Position::start(),
                depth,
                kamisado_core::perft::Counting::PositiveMoves
            )
        );
    }
    let options = Options {
        threads: 1,
        table_bytes: 16 << 20,
    };
    let pos = "ob1pyrgn/7O/8/8/2u5/8/8/NGRYPUB1 b g";
    let single = Solver::new(Kamisado, options).unwrap();
    let round = Solver::new(MatchRound, options).unwrap();
    let cancel = Cancel::new();
    assert_eq!(
        round.outcome(&fast(pos), &cancel).unwrap(),
        single.outcome(&pos.parse().unwrap(), &cancel).unwrap()
    );
}

#[test]
fn round_values_and_remoteness_agree_with_minimax_on_late_positions() {
    let solver = Solver::new(
        MatchRound,
        Options {
            threads: 2,
            table_bytes: 32 << 20,
        },
    )
    .unwrap();
    let (mut checked, mut with_sumo, mut wins) = (0, 0, 0);
    for seed in 0..2_000u64 {
        if checked == 60 {
            break;
        }
        let target = [3, 7, 15][seed as usize % 3];
        let text = reference::random_match_position(seed, target, 36 + (seed % 30) as u32).unwrap();
        if reference::match_round_end(&text).unwrap().is_some() {
            continue;
        }
        let pos = fast(&text);
        // Late positions solve in milliseconds; skip the rare long round.
        let limit = Some(std::time::Duration::from_millis(200));
        let Ok(solution) = with_time_limit(limit, |cancel| solver.solve(&pos, cancel)) else {
            continue;
        };
        // Brute force is only affordable near the end of a round.
        if solution.outcome.remoteness > 5 {
            continue;
        }
        let (value, remoteness) = reference::match_round_solve(&text, 5).unwrap();
        assert_eq!(solution.outcome.value.name(), value, "{text}");
        assert_eq!(solution.outcome.remoteness, remoteness, "{text}");
        // The perfect line ends the round after exactly that many moves.
        let mut p = pos;
        for m in &solution.pv {
            p = p.play(*m).unwrap();
        }
        assert!(p.round_end().is_some() && solution.pv.len() as u32 == remoteness);
        checked += 1;
        with_sumo += (pos.score(kamisado_core::Side::Black) + pos.score(kamisado_core::Side::White)
            > 0) as u32;
        wins += (solution.outcome.value == Value::Win) as u32;
    }
    assert_eq!(checked, 60, "not enough late positions");
    assert!(with_sumo >= 30, "only {with_sumo} positions with a Sumo");
    assert!(wins > 5 && wins < 55, "{wins} wins of {checked}");
}

/// The positions of MATCH-RULES.md's cases, as the match crate's rules tests build them
/// (crates/kamisado-match/tests/rules.rs), each with the case it shows.
const PAGE_CASES: &[(&str, &str)] = &[
    (
        "push of one tower",
        "ob1pyrgn/8/8/8/2u5/2R+5/8/NG1YPUBO b r 3",
    ),
    (
        "no push: a plain tower",
        "ob1pyrgn/8/8/8/2u5/2R5/8/NG1YPUBO b r 3",
    ),
    (
        "no push: the edge, a tower on its home row",
        "ob1pyrgn/8/8/8/8/G7/2u+5/N1RYPUBO w u 3",
    ),
    (
        "no push: the run reaches the edge",
        "ob1pyrgn/8/8/8/8/2u++5/2Y5/NGR1PUBO w u 7",
    ),
    (
        "no push: own tower ahead",
        "obupyrgn/8/8/8/2Y5/2R+5/8/NG2PUBO b r 3",
    ),
    (
        "no push: own tower in the run",
        "ob1pyrgn/8/8/2Y5/2u5/2R++5/8/NG2PUBO b r 7",
    ),
    (
        "no push: equal rank",
        "ob1pyrgn/8/8/8/2u+5/2R+5/8/NG1YPUBO b r 7",
    ),
    (
        "no push: higher rank",
        "ob1pyrgn/8/8/8/2u++5/2R+5/8/NG1YPUBO b r 7",
    ),
    (
        "a Double Sumo pushes a Sumo",
        "ob1pyrgn/8/8/8/2u+5/2R++5/8/NG1YPUBO b r 7",
    ),
    (
        "no push: equal rank behind",
        "o2pyrgn/8/8/2b++5/2u+5/2R++5/8/NG1YPUBO b r 15",
    ),
    (
        "capacity 1: two is too many",
        "o2pyrgn/8/8/2b5/2u5/2R+5/8/NG1YPUBO b r 3",
    ),
    ("capacity 2", "o2pyrgn/8/8/2b5/2u5/2R++5/8/NG1YPUBO b r 7"),
    (
        "capacity 2: three is too many",
        "3pyrgn/8/2o5/2b5/2u5/2R++5/8/NG1YPUBO b r 7",
    ),
    (
        "capacity 3",
        "3pyrgn/8/2o5/2b5/2u5/2R+++5/8/NG1YPUBO b r 15",
    ),
    (
        "capacity 3: four is too many",
        "4yrgn/2p5/2o5/2b5/2u5/2R+++5/8/NG1YPUBO b r 15",
    ),
    (
        "the extra move blocked",
        "ob1pyrgn/5B2/8/8/2u5/2R+5/8/NG1YPU1O b r 3",
    ),
    (
        "the extra move pushes again",
        "obupyr1n/8/8/8/6g1/6R+1/8/NG1YPUBO b r 3",
    ),
    (
        "a push as the only move",
        "ob1pyrgn/8/8/8/1GuY4/2R+5/8/N3PUBO b r 3",
    ),
    (
        "a push forced after the reply",
        "ob1pyrgn/8/8/8/1GuY4/2R+5/8/N3PUBO w p 3",
    ),
    (
        "a push then a winning extra move",
        "ob1pyrgn/8/4B3/8/2u5/2R+5/8/NG1YPU1O b r 3",
    ),
    (
        "deadlock right after a push",
        "1bupyrgn/6NO/8/8/4o3/4Y+3/8/1GR1PUB1 b y 3",
    ),
    (
        "deadlock after an ordinary move",
        "1bupyrgn/6NO/8/8/8/8/1o6/UGRYP1B1 b y",
    ),
    (
        "Standard: a winning Sumo ends the match",
        "ob1pyrgn/2U+5/4u3/8/8/8/8/NGRYP1BO b u 3",
    ),
    (
        "Long: a winning Sumo does not",
        "ob1pyrgn/2U+5/4u3/8/8/8/8/NGRYP1BO b u 7",
    ),
    (
        "Long: a winning Double Sumo ends it",
        "ob1pyrgn/2U++5/4u3/8/8/8/8/NGRYP1BO b u 7",
    ),
    (
        "Marathon: a winning Triple Sumo ends it",
        "ob1pyrgn/2U+++5/4u3/8/8/8/8/NGRYP1BO b u 15",
    ),
    (
        "a plain tower reaching the target",
        "ob1pyrgn/2U5/4u3/8/8/8/8/N+G+RYP1BO b u 3",
    ),
];

#[test]
fn the_pages_cases_agree_move_by_move_with_the_reference() {
    // Every push case, match end and deadlock of the page, by both implementations: the
    // same legal moves, the same position and round end after each (the tower that gains
    // a rank included), the same perft, and after a round that leaves the match open, the
    // same next round from the left and from the right. The match crate's own rules tests
    // check these positions against the hand-worked results; this checks that the
    // reference, written apart, reads every case the same way.
    let mut ended = 0;
    for (case, text) in PAGE_CASES {
        let pos = fast(text);
        assert_eq!(pos.to_string(), *text, "{case}");
        let moves: Vec<String> = pos.legal_moves().iter().map(|m| m.to_string()).collect();
        assert_eq!(
            sorted(moves.clone()),
            reference::match_legal_moves(text).unwrap(),
            "{case}: legal moves of {text}"
        );
        for depth in 1..=3 {
            assert_eq!(
                perft(&pos, depth),
                reference::match_perft(text, depth).unwrap(),
                "{case}: perft({depth}) of {text}"
            );
        }
        for m in &moves {
            let next = pos.play(m.parse().unwrap()).unwrap();
            let (naive_next, naive_end) = reference::match_play_with_end(text, m).unwrap();
            assert_eq!(next.to_string(), naive_next, "{case}: {text} after {m}");
            let name = |x: &dyn std::fmt::Debug| format!("{x:?}");
            match (next.round_end(), naive_end) {
                (None, None) => continue,
                (Some(end), Some(naive)) => {
                    assert_eq!(name(&end.winner), name(&naive.winner), "{case} {m}");
                    assert_eq!(name(&end.reason), name(&naive.reason), "{case} {m}");
                    assert_eq!(
                        name(&end.promoted.colour),
                        name(&naive.gaining_colour),
                        "{case} {m}: the tower that gains a rank"
                    );
                }
                (a, b) => panic!("{case}: {text} after {m}: round end {a:?} vs {b:?}"),
            }
            ended += 1;
            // The match end, and the score with the round's gain, as a record tells it.
            let outcome = reference::match_play_record(text, m).unwrap();
            assert_eq!(
                name(&next.match_winner()),
                name(&outcome.match_winner),
                "{case} {m}: the match's winner"
            );
            assert_eq!(
                (
                    next.score(kamisado_core::Side::Black),
                    next.score(kamisado_core::Side::White)
                ),
                (outcome.black_score, outcome.white_score),
                "{case} {m}: the score"
            );
            for choice in kamisado_match::Refill::ALL {
                let word = choice.to_string();
                match next.refill(choice) {
                    Ok(round) => {
                        // The reference refills from the text, which names the gaining
                        // tower exactly except after a deadlock right after a push.
                        let reread = reference::match_refill(&naive_next, &word);
                        if let Some(naive_round) = reread.ok().filter(|_| {
                            next.round_end().unwrap().reason != kamisado_core::EndReason::Deadlock
                        }) {
                            assert_eq!(round.to_string(), naive_round, "{case} {m} {word}");
                        }
                    }
                    Err(_) => assert!(outcome.match_winner.is_some(), "{case} {m} {word}"),
                }
            }
        }
    }
    assert!(
        ended >= 10,
        "only {ended} round ends among the page's cases"
    );
}

#[test]
fn the_pages_refill_example_agrees_both_ways() {
    // MATCH-RULES.md's example: Black's Yellow won on h8; both directions, by both.
    let text = "1bupyrgY/o5U1/3O2n1/1G2B3/8/2R5/8/N4P2 w n 3";
    let pos = fast(text);
    for choice in kamisado_match::Refill::ALL {
        let word = choice.to_string();
        assert_eq!(
            pos.refill(choice).unwrap().to_string(),
            reference::match_refill(text, &word).unwrap(),
            "refill {word}"
        );
    }
    // The page's home rows: from the left a1..h1 Brown Pink Red Green Blue Orange Purple
    // Yellow; from the right h1..a1 Pink Brown Red Blue Green Orange Purple Yellow.
    let row = |choice| {
        let text = pos.refill(choice).unwrap().to_string();
        text.split(['/', ' ']).nth(7).unwrap().to_owned()
    };
    assert_eq!(row(kamisado_match::Refill::Left), "NPRGBOUY+");
    assert_eq!(row(kamisado_match::Refill::Right), "Y+UOGBRNP");
}
