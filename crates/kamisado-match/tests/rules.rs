//! One test per rule of MATCH-RULES.md, each on a hand-built position whose expected outcome
//! is worked out in the comments from the rules alone.
//!
//! Square colours used below (RULES.md): c5 Blue, c6 Orange, c7 Pink, e4 Orange, e5 Brown,
//! f7 Yellow, g5 Red, g6 Yellow, g7 Brown, h6 Blue, h8 Brown, f8 Red, e8 Yellow, c8 Purple.

use kamisado_match::{Colour, ParseMatchPositionError, RecordErrorReason};
use kamisado_match::{
    EndReason, IllegalMatchMove, MatchPosition, MatchPositionError, MatchRecord, Move, Refill,
    RefillError, Side, Square, Target, Tower,
};

fn pos(text: &str) -> MatchPosition {
    text.parse()
        .unwrap_or_else(|e| panic!("test position `{text}`: {e}"))
}

fn mv(text: &str) -> Move {
    text.parse().unwrap()
}

fn sq(text: &str) -> Square {
    text.parse().unwrap()
}

fn moves(p: &MatchPosition) -> Vec<String> {
    let mut v: Vec<String> = p.legal_moves().iter().map(|m| m.to_string()).collect();
    v.sort();
    v
}

fn moves_from(p: &MatchPosition, from: &str) -> Vec<String> {
    let from = sq(from);
    let mut v: Vec<String> = p
        .legal_moves()
        .iter()
        .filter(|m| m.from() == from)
        .map(|m| m.to_string())
        .collect();
    v.sort();
    v
}

fn tower(side: Side, colour: Colour) -> Tower {
    Tower::new(side, colour)
}

fn illegal(p: &MatchPosition, m: &str) -> IllegalMatchMove {
    p.check_move(mv(m)).expect_err("the move should be illegal")
}

#[test]
fn ranks_give_points_and_the_score_is_their_sum() {
    // Black: a Sumo (1) and a Double Sumo (3); White: a Triple Sumo (7). A Marathon.
    let p = pos("obupyrg1/8/8/8/7n+++/8/8/N+G++RYPUBO b - 15");
    assert_eq!(p.rank(tower(Side::Black, Colour::Brown)), 1);
    assert_eq!(p.rank(tower(Side::Black, Colour::Green)), 2);
    assert_eq!(p.rank(tower(Side::White, Colour::Brown)), 3);
    assert_eq!(p.score(Side::Black), 4);
    assert_eq!(p.score(Side::White), 7);
    // Six ranks were won, so this is the seventh round.
    assert_eq!(p.round_number(), 7);
    assert_eq!(MatchPosition::start(Target::Long).round_number(), 1);
}

#[test]
fn a_sumo_moves_at_most_five_a_double_three_a_triple_one_square() {
    // Black's Yellow tower on d1 on a free move. Plain: d2..d7 (d8 is occupied), c2 b3 a4,
    // e2 f3 g4 h5: 13 moves. Sumo: d2..d6, 12. Double: d2..d4, c2 b3 a4, e2 f3 g4: 9.
    // Triple: d2 c2 e2.
    let counts: Vec<usize> = ["", "+", "++", "+++"]
        .iter()
        .map(|plus| {
            let p = pos(&format!("obupyrgn/8/8/8/8/8/8/NGRY{plus}PUBO b - 15"));
            moves_from(&p, "d1").len()
        })
        .collect();
    assert_eq!(counts, [13, 12, 9, 3]);
    let sumo = pos("obupyrgn/8/8/8/8/8/8/NGRY+PUBO b - 3");
    assert!(sumo.is_legal(mv("d1-d6")));
    assert!(matches!(
        illegal(&sumo, "d1-d7"),
        IllegalMatchMove::TooFar {
            distance: 6,
            rank: 1,
            ..
        }
    ));
    let triple = pos("obupyrgn/8/8/8/8/8/8/NGRY+++PUBO b - 15");
    assert_eq!(moves_from(&triple, "d1"), ["d1-c2", "d1-d2", "d1-e2"]);
    assert!(matches!(
        illegal(&triple, "d1-f3"),
        IllegalMatchMove::TooFar {
            distance: 2,
            rank: 3,
            ..
        }
    ));
}

/// Black's Red Sumo on c3, White's Purple tower on c4, c5 empty; Black to move Red (named by
/// White's Red tower on the red f8).
const PUSH: &str = "ob1pyrgn/8/8/8/2u5/2R+5/8/NG1YPUBO b r 3";

#[test]
fn a_sumo_pushes_the_tower_straight_ahead_one_square_back_and_moves_again() {
    let p = pos(PUSH);
    // The push is written as a one-square move onto the occupied square; the diagonals are
    // ordinary moves (g7 is 4 squares away; h8 is occupied).
    assert_eq!(
        moves(&p),
        ["c3-a5", "c3-b4", "c3-c4", "c3-d4", "c3-e5", "c3-f6", "c3-g7"]
    );
    let after = p.play(mv("c3-c4")).unwrap();
    assert_eq!(
        after.board().tower_at(sq("c5")),
        Some(tower(Side::White, Colour::Purple))
    );
    assert_eq!(
        after.board().tower_at(sq("c4")),
        Some(tower(Side::Black, Colour::Red))
    );
    assert!(after.board().tower_at(sq("c3")).is_none());
    // White's turn is skipped: Black moves again, its tower of the colour of c5 (blue).
    assert_eq!(
        (after.turn(), after.active()),
        (Side::Black, Some(Colour::Blue))
    );
    assert!(after.round_end().is_none());
    assert_eq!(
        after.to_string(),
        "ob1pyrgn/8/8/2u5/2R+5/8/8/NG1YPUBO b b 3"
    );
    // A plain tower cannot push.
    let plain = pos("ob1pyrgn/8/8/8/2u5/2R5/8/NG1YPUBO b r 3");
    assert_eq!(moves_from(&plain, "c3").len(), 6);
    assert!(matches!(
        illegal(&plain, "c3-c4"),
        IllegalMatchMove::NotASumo { .. }
    ));
    // Only straight ahead, only one square: a tower diagonally ahead, or two squares ahead,
    // is just an occupied square.
    let diagonal = pos("ob1pyrgn/8/8/8/3u4/2R+5/8/NG1YPUBO b r 3");
    assert!(matches!(
        illegal(&diagonal, "c3-d4"),
        IllegalMatchMove::Occupied { .. }
    ));
    let two_ahead = pos("ob1pyrgn/8/8/2u5/8/2R+5/8/NG1YPUBO b r 3");
    assert!(matches!(
        illegal(&two_ahead, "c3-c5"),
        IllegalMatchMove::Occupied { .. }
    ));
}

#[test]
fn push_blocked_by_the_edge_and_a_tower_on_its_home_row_is_never_pushed() {
    // White's Purple Sumo on c2 (to move: Black's Purple tower stands on the purple f1) faces
    // Black's Red tower on c1, on its own home row: nothing lies behind c1.
    let p = pos("ob1pyrgn/8/8/8/8/G7/2u+5/N1RYPUBO w u 3");
    assert!(matches!(
        illegal(&p, "c2-c1"),
        IllegalMatchMove::PushAtEdge { last, .. } if last == sq("c1")
    ));
    assert!(!moves(&p).contains(&"c2-c1".to_owned()));
    // Its one move is the win on the empty b1.
    assert_eq!(moves(&p), ["c2-b1"]);
    assert_eq!(p.winning_move(), Some(mv("c2-b1")));
    // A Double Sumo on c3 against c2 and c1: the run reaches the edge.
    let p = pos("ob1pyrgn/8/8/8/8/2u++5/2Y5/NGR1PUBO w u 7");
    assert!(matches!(
        illegal(&p, "c3-c2"),
        IllegalMatchMove::PushAtEdge { last, .. } if last == sq("c1")
    ));
}

#[test]
fn push_blocked_by_an_own_tower_in_the_run() {
    // Black's own Yellow tower straight ahead of the Red Sumo.
    let p = pos("obupyrgn/8/8/8/2Y5/2R+5/8/NG2PUBO b r 3");
    assert!(matches!(
        illegal(&p, "c3-c4"),
        IllegalMatchMove::PushOwnTower { at, .. } if at == sq("c4")
    ));
    // A Double Sumo: White's Purple on c4, Black's own Yellow on c5 behind it.
    let p = pos("ob1pyrgn/8/8/2Y5/2u5/2R++5/8/NG2PUBO b r 7");
    assert!(matches!(
        illegal(&p, "c3-c4"),
        IllegalMatchMove::PushOwnTower { at, .. } if at == sq("c5")
    ));
    assert!(!moves(&p).contains(&"c3-c4".to_owned()));
}

#[test]
fn push_blocked_by_a_tower_of_equal_or_higher_rank() {
    // A Sumo cannot push a Sumo.
    let p = pos("ob1pyrgn/8/8/8/2u+5/2R+5/8/NG1YPUBO b r 7");
    assert!(matches!(
        illegal(&p, "c3-c4"),
        IllegalMatchMove::PushTooStrong {
            rank: 1,
            pusher_rank: 1,
            ..
        }
    ));
    // ... nor a Double Sumo.
    let p = pos("ob1pyrgn/8/8/8/2u++5/2R+5/8/NG1YPUBO b r 7");
    assert!(matches!(
        illegal(&p, "c3-c4"),
        IllegalMatchMove::PushTooStrong {
            rank: 2,
            pusher_rank: 1,
            ..
        }
    ));
    // A Double Sumo pushes a Sumo, but not a run holding another Double Sumo.
    let p = pos("ob1pyrgn/8/8/8/2u+5/2R++5/8/NG1YPUBO b r 7");
    assert!(p.is_legal(mv("c3-c4")));
    let p = pos("o2pyrgn/8/8/2b++5/2u+5/2R++5/8/NG1YPUBO b r 15");
    assert!(matches!(
        illegal(&p, "c3-c4"),
        IllegalMatchMove::PushTooStrong { at, rank: 2, pusher_rank: 2, .. } if at == sq("c5")
    ));
}

#[test]
fn push_capacity_one_two_three_and_one_more_is_refused() {
    // Sumo: one tower, not two.
    let p = pos("o2pyrgn/8/8/2b5/2u5/2R+5/8/NG1YPUBO b r 3");
    assert!(matches!(
        illegal(&p, "c3-c4"),
        IllegalMatchMove::PushTooMany {
            count: 2,
            pusher_rank: 1,
            ..
        }
    ));
    // Double Sumo: two towers (c4, c5 -> c5, c6). The farthest pushed tower lands on c6,
    // orange, so Black's extra move is with its Orange tower (h1), not Blue (c5's colour).
    let p = pos("o2pyrgn/8/8/2b5/2u5/2R++5/8/NG1YPUBO b r 7");
    let after = p.play(mv("c3-c4")).unwrap();
    assert_eq!(
        after.to_string(),
        "o2pyrgn/8/2b5/2u5/2R++5/8/8/NG1YPUBO b o 7"
    );
    // Three in a row is one too many for a Double Sumo.
    let p = pos("3pyrgn/8/2o5/2b5/2u5/2R++5/8/NG1YPUBO b r 7");
    assert!(matches!(
        illegal(&p, "c3-c4"),
        IllegalMatchMove::PushTooMany {
            count: 3,
            pusher_rank: 2,
            ..
        }
    ));
    // Triple Sumo: three towers (c4, c5, c6 -> c5, c6, c7); the farthest lands on c7, pink:
    // Black moves its Pink tower (e1) next.
    let p = pos("3pyrgn/8/2o5/2b5/2u5/2R+++5/8/NG1YPUBO b r 15");
    let after = p.play(mv("c3-c4")).unwrap();
    assert_eq!(
        after.to_string(),
        "3pyrgn/2o5/2b5/2u5/2R+++5/8/8/NG1YPUBO b p 15"
    );
    // Four in a row (c8 empty behind them) is one too many for a Triple Sumo.
    let p = pos("4yrgn/2p5/2o5/2b5/2u5/2R+++5/8/NG1YPUBO b r 15");
    assert!(matches!(
        illegal(&p, "c3-c4"),
        IllegalMatchMove::PushTooMany {
            count: 4,
            pusher_rank: 3,
            ..
        }
    ));
}

#[test]
fn the_extra_move_may_be_blocked_and_then_the_turn_passes_as_usual() {
    // As PUSH, but Black's Blue tower stands on f7 under e8, f8, g8. After c3-c4 Black
    // must move Blue (c5's colour), which is blocked: it makes the zero-length move, and
    // the colour of f7, yellow, names White's tower. White's Yellow (e8) can move.
    let p = pos("ob1pyrgn/5B2/8/8/2u5/2R+5/8/NG1YPU1O b r 3");
    let after = p.play(mv("c3-c4")).unwrap();
    assert_eq!(
        (after.turn(), after.active()),
        (Side::White, Some(Colour::Yellow))
    );
    assert_eq!(
        after.to_string(),
        "ob1pyrgn/5B2/8/2u5/2R+5/8/8/NG1YPU1O w y 3"
    );
    assert!(after.legal_moves().iter().all(|m| m.from() == sq("e8")));
}

#[test]
fn the_extra_move_may_push_again() {
    // Black's Red Sumo on g3 pushes White's Green tower from g4 to g5, a red square: Black
    // moves Red again and pushes it on to g6 (yellow); then Black moves its Yellow tower.
    let p = pos("obupyr1n/8/8/8/6g1/6R+1/8/NG1YPUBO b r 3");
    let once = p.play(mv("g3-g4")).unwrap();
    assert_eq!(
        (once.turn(), once.active()),
        (Side::Black, Some(Colour::Red))
    );
    assert!(once.legal_moves().contains(&mv("g4-g5")));
    let twice = once.play(mv("g4-g5")).unwrap();
    assert_eq!(
        twice.to_string(),
        "obupyr1n/8/6g1/6R+1/8/8/8/NG1YPUBO b y 3"
    );
}

#[test]
fn a_push_may_be_the_only_move() {
    // The Red Sumo's diagonals are closed by Black's own towers on b4 and d4: its one move
    // is the push, which is a move of positive length, not a reason to pass.
    let p = pos("ob1pyrgn/8/8/8/1GuY4/2R+5/8/N3PUBO b r 3");
    assert_eq!(moves(&p), ["c3-c4"]);
    assert!(!p.must_pass());
    assert_eq!(p.count_moves(), 1);
    assert!(matches!(
        illegal(&p, "c3-c3"),
        IllegalMatchMove::NotBlocked(_)
    ));
    // White's d8-d6 (red) names the Red tower. As a Sumo it must push; as a plain tower it
    // has no move at all, makes the zero-length move, and c3's colour, brown, names White's
    // Brown tower.
    let sumo = pos("ob1pyrgn/8/8/8/1GuY4/2R+5/8/N3PUBO w p 3")
        .play(mv("d8-d6"))
        .unwrap();
    assert_eq!(
        (sumo.turn(), sumo.active()),
        (Side::Black, Some(Colour::Red))
    );
    assert_eq!(moves(&sumo), ["c3-c4"]);
    let plain = pos("ob1pyrgn/8/8/8/1GuY4/2R5/8/N3PUBO w p 3")
        .play(mv("d8-d6"))
        .unwrap();
    assert_eq!(
        (plain.turn(), plain.active()),
        (Side::White, Some(Colour::Brown))
    );
}

#[test]
fn a_push_followed_by_a_winning_extra_move() {
    // As PUSH, but Black's Blue tower stands on e6 with d7 and c8 empty: the push names Blue,
    // which wins at once on c8. The push itself never wins.
    let p = pos("ob1pyrgn/8/4B3/8/2u5/2R+5/8/NG1YPU1O b r 3");
    assert_eq!(p.winning_move(), None);
    let after = p.play(mv("c3-c4")).unwrap();
    assert!(after.round_end().is_none());
    assert_eq!(after.winning_move(), Some(mv("e6-c8")));
    let won = after.play(mv("e6-c8")).unwrap();
    let end = won.round_end().unwrap();
    assert_eq!((end.winner, end.reason), (Side::Black, EndReason::Goal));
    assert_eq!(end.promoted, tower(Side::Black, Colour::Blue));
    // The Blue tower gains a rank: Black has a Sumo of each colour, 2 points, below 3.
    assert_eq!(won.rank(tower(Side::Black, Colour::Blue)), 1);
    assert_eq!(won.score(Side::Black), 2);
    assert!(!won.is_match_over());
    // The text shows the board as the move left it; the rules add the rank.
    assert_eq!(won.to_string(), "obBpyrgn/8/8/2u5/2R+5/8/8/NG1YPU1O w u 3");
    assert_eq!(pos(&won.to_string()), won);
}

#[test]
fn deadlock_right_after_a_push_is_lost_by_the_pusher_and_promotes_at_the_pushers_square() {
    // Black's Yellow Sumo on e3 pushes White's Orange tower from e4 to e5, a brown square.
    // Black must move Brown (g7), blocked by f8 g8 h8: zero-length, g7 is brown. White's
    // Brown (h8) is blocked by g7 and h7: zero-length, h8 is brown. Black's Brown again: the
    // state repeats, a deadlock. The push was the last positive move, so Black loses. The
    // tower that gains a rank is White's of the colour of the pusher's new square e4,
    // orange (not brown, the colour of e5 where the pushed tower went).
    let p = pos("1bupyrgn/6NO/8/8/4o3/4Y+3/8/1GR1PUB1 b y 3");
    let after = p.play(mv("e3-e4")).unwrap();
    let end = after.round_end().expect("deadlock ends the round");
    assert_eq!((end.winner, end.reason), (Side::White, EndReason::Deadlock));
    assert_eq!(end.promoted, tower(Side::White, Colour::Orange));
    assert_eq!(after.rank(tower(Side::White, Colour::Orange)), 1);
    assert_eq!(after.rank(tower(Side::White, Colour::Brown)), 0);
    assert_eq!((after.score(Side::White), after.score(Side::Black)), (1, 1));
    assert!(after.legal_moves().is_empty());
    // The text is the state one zero-length move on, White to move Brown, which reads back
    // as the same deadlock won by White; but no text names e4, so the reading promotes the
    // tower of the active colour (the one case the position text cannot express).
    assert_eq!(
        after.to_string(),
        "1bupyrgn/6NO/8/4o3/4Y+3/8/8/1GR1PUB1 w n 3"
    );
    let reread = pos(&after.to_string()).round_end().unwrap();
    assert_eq!((reread.winner, reread.reason), (end.winner, end.reason));
    assert_eq!(reread.promoted, tower(Side::White, Colour::Brown));
    // The keys hold it exactly.
    assert_eq!(MatchPosition::from_match_key(after.match_key()), Ok(after));
    // So does a record's result.
    let record = MatchRecord::parse(p, "e3-e4").unwrap();
    assert_eq!(record.rounds()[0].result, Some(end));
}

#[test]
fn deadlock_after_an_ordinary_move_promotes_the_tower_named_by_its_landing_square() {
    // RULES.md's example: Black's d1-d5 (orange) deadlocks; White wins and White's Orange
    // tower (the one d5 names) gains the rank.
    let p = pos("1bupyrgn/6NO/8/8/8/8/1o6/UGRYP1B1 b y");
    let after = p.play(mv("d1-d5")).unwrap();
    let end = after.round_end().unwrap();
    assert_eq!((end.winner, end.reason), (Side::White, EndReason::Deadlock));
    assert_eq!(end.promoted, tower(Side::White, Colour::Orange));
    assert_eq!(after.rank(tower(Side::White, Colour::Orange)), 1);
    // A single round: 1 point ends the match.
    assert_eq!(after.match_winner(), Some(Side::White));
    assert_eq!(pos(&after.to_string()), after);
}

/// Black's Purple tower on c7 (c8 empty) and White's Purple on the purple e6.
fn purple_on_c7(plus: &str, target: u32) -> MatchPosition {
    pos(&format!(
        "ob1pyrgn/2U{plus}5/4u3/8/8/8/8/NGRYP1BO b u {target}"
    ))
}

#[test]
fn the_three_match_ends() {
    // Standard: a winning Sumo becomes a Double Sumo worth 3: the match is over.
    let won = purple_on_c7("+", 3).play(mv("c7-c8")).unwrap();
    assert_eq!(won.rank(tower(Side::Black, Colour::Purple)), 2);
    assert_eq!(won.match_winner(), Some(Side::Black));
    assert_eq!(won.to_string(), "obU+pyrgn/8/4u3/8/8/8/8/NGRYP1BO w u 3");
    assert_eq!(pos(&won.to_string()), won);
    assert_eq!(
        won.refill(Refill::Left),
        Err(RefillError::MatchOver {
            winner: Side::Black,
            single_round: false
        })
    );
    assert!(won.refill_choices().is_empty());
    // Long: a Double Sumo becomes a Triple Sumo worth 7.
    let won = purple_on_c7("++", 7).play(mv("c7-c8")).unwrap();
    assert_eq!(
        (won.score(Side::Black), won.match_winner()),
        (7, Some(Side::Black))
    );
    // ... but a Sumo's win in a Long match scores 2 and the match goes on.
    let won = purple_on_c7("+", 7).play(mv("c7-c8")).unwrap();
    assert_eq!((won.score(Side::Black), won.match_winner()), (3, None));
    assert_eq!(won.refill_choices(), Refill::ALL);
    // Marathon: a Triple Sumo (its one move is c7-c8) becomes a Quadruple Sumo worth 15.
    let p = purple_on_c7("+++", 15);
    assert_eq!(moves(&p), ["c7-c8"]);
    let won = p.play(mv("c7-c8")).unwrap();
    assert_eq!(won.rank(tower(Side::Black, Colour::Purple)), 4);
    assert_eq!(
        (won.score(Side::Black), won.match_winner()),
        (15, Some(Side::Black))
    );
    assert_eq!(won.to_string(), "obU+++pyrgn/8/4u3/8/8/8/8/NGRYP1BO w u 15");
    assert_eq!(pos(&won.to_string()), won);
    // A plain tower that brings the score to the target ends the match as well: two Sumos
    // and a winning plain tower in a Standard match.
    let p = pos("ob1pyrgn/2U5/4u3/8/8/8/8/N+G+RYP1BO b u 3");
    assert_eq!(
        p.play(mv("c7-c8")).unwrap().match_winner(),
        Some(Side::Black)
    );
    // After the match, nothing more: no move, no refill.
    assert!(matches!(
        won.check_move(mv("a1-a2")),
        Err(IllegalMatchMove::MatchOver {
            winner: Side::Black,
            single_round: false
        })
    ));
}

/// The page's refill example: Black on a1 (Brown), f1 (Pink), c3 (Red), b5 (Green), e5
/// (Blue), d6 (Orange), g7 (Purple) and h8 (Yellow, which won and becomes a Sumo). White
/// on a7 (Orange), b8 c8 d8 e8 f8 g8 (Blue Purple Pink Yellow Red Green) and g6 (Brown).
const REFILL: &str = "1bupyrgY/o5U1/3O2n1/1G2B3/8/2R5/8/N4P2 w n 3";

#[test]
fn refill_from_the_left_as_on_the_page() {
    let p = pos(REFILL);
    assert_eq!(p.round_end().unwrap().winner, Side::Black);
    let next = p.refill(Refill::Left).unwrap();
    // Black, a1..h1: Brown Pink Red Green Blue Orange Purple Yellow (the page).
    // White reads rows 8, 7, 6 each from h (its left): g8 f8 e8 d8 c8 b8 (h8 is Black's),
    // a7, g6: Green Red Yellow Pink Purple Blue Orange Brown, set from h8 leftwards.
    assert_eq!(next.to_string(), "nobupyrg/8/8/8/8/8/8/NPRGBOUY+ w - 3");
    // The loser starts with a free move; ranks carry over.
    assert_eq!((next.turn(), next.active()), (Side::White, None));
    assert_eq!(next.rank(tower(Side::Black, Colour::Yellow)), 1);
    assert!(next.round_end().is_none());
    assert_eq!(next.round_number(), 2);
}

#[test]
fn refill_from_the_right_as_on_the_page() {
    let next = pos(REFILL).refill(Refill::Right).unwrap();
    // Black, h1..a1: Pink Brown Red Blue Green Orange Purple Yellow (the page).
    // White reads rows 8, 7, 6 each from a (its right): b8 c8 d8 e8 f8 g8, a7, g6: Blue
    // Purple Pink Yellow Red Green Orange Brown, set from a8 rightwards.
    assert_eq!(next.to_string(), "bupyrgon/8/8/8/8/8/8/Y+UOGBRNP w - 3");
    assert_eq!(pos(REFILL).refill(Refill::Right), Ok(next));
}

#[test]
fn no_refill_before_the_round_ends() {
    assert_eq!(
        MatchPosition::start(Target::Standard).refill(Refill::Left),
        Err(RefillError::RoundNotOver)
    );
}

#[test]
fn a_record_plays_rounds_and_refills() {
    // Round 1: g1-g7 (brown) names White's Brown, h8-h6 (blue) names Black's Blue on g7,
    // which wins on h8. Black's Blue becomes a Sumo; Black chooses `left`: Black reads
    // a1 b1 c1 d1 e1 f1 h1 then h8 (Brown Green Red Yellow Pink Purple Orange Blue); White
    // reads g8 f8 e8 d8 c8 b8 a8 then h6 (Green Red Yellow Pink Purple Blue Orange Brown),
    // set from h8 leftwards. White, the loser, starts round 2.
    let start = MatchPosition::start(Target::Standard);
    let record = MatchRecord::parse(start, "g1-g7 h8-h6 g7-h8 left").unwrap();
    assert_eq!(
        record.current().to_string(),
        "nobupyrg/8/8/8/8/8/8/NGRYPUOB+ w - 3"
    );
    assert_eq!(record.round_number(), 2);
    let first = &record.rounds()[0];
    assert_eq!(first.moves.len(), 3);
    assert_eq!(first.refill, Some(Refill::Left));
    let result = first.result.unwrap();
    assert_eq!(result.winner, Side::Black);
    assert_eq!(result.promoted, tower(Side::Black, Colour::Blue));
    assert_eq!(record.to_string(), "g1-g7 h8-h6 g7-h8 left");
    // Round 2 goes on from there.
    let longer = MatchRecord::parse(start, "g1-g7 h8-h6 g7-h8 left b8-b2 a1-a4").unwrap();
    assert_eq!(longer.rounds().len(), 2);
    assert_eq!(longer.rounds()[1].moves.len(), 2);
    assert_eq!(longer.to_string(), "g1-g7 h8-h6 g7-h8 left b8-b2 a1-a4");
}

#[test]
fn record_errors_name_what_is_wrong_and_where() {
    let start = MatchPosition::start(Target::Standard);
    let err = |text: &str| MatchRecord::parse(start, text).unwrap_err();
    // A refill word where none is due.
    let e = err("g1-g7 left");
    assert_eq!((e.token_number, e.round, e.move_number), (2, 1, 2));
    assert_eq!(e.reason, RecordErrorReason::RefillNotDue);
    // A move where the refill word is due.
    let e = err("g1-g7 h8-h6 g7-h8 b8-b2");
    assert_eq!(e.token_number, 4);
    assert!(matches!(
        e.reason,
        RecordErrorReason::RefillMissing {
            winner: Side::Black,
            ..
        }
    ));
    // A move after the match ended (a single round: one point ends it), and a refill word.
    let single = MatchPosition::start(Target::Single);
    for tail in ["left", "b8-b2"] {
        let e = MatchRecord::parse(single, &format!("g1-g7 h8-h6 g7-h8 {tail}")).unwrap_err();
        assert_eq!(e.token_number, 4);
        assert_eq!(
            e.reason,
            RecordErrorReason::AfterMatchEnd {
                winner: Side::Black,
                single_round: true
            }
        );
        // Said as a single round says it: the game is over, there is no match.
        assert_eq!(
            e.reason.to_string(),
            "the game is over (black won it): nothing may follow"
        );
    }
    // After the push the pushed tower stands on c5, across Blue's diagonal from g1; the
    // position has one Sumo, so one round was played before it and this is round 2.
    let e = MatchRecord::parse(pos(PUSH), "c3-c4 g1-b6 c4-c5").unwrap_err();
    assert_eq!((e.token_number, e.round, e.move_number), (2, 2, 2));
    assert!(matches!(
        e.reason,
        RecordErrorReason::Illegal(IllegalMatchMove::PathBlocked { at, .. }) if at == sq("c5")
    ));
    // An impossible push says why.
    let e =
        MatchRecord::parse(pos("ob1pyrgn/8/8/8/2u+5/2R+5/8/NG1YPUBO b r 7"), "c3-c4").unwrap_err();
    assert_eq!(e.token_number, 1);
    assert!(matches!(
        e.reason,
        RecordErrorReason::Illegal(IllegalMatchMove::PushTooStrong { .. })
    ));
    assert!(e.to_string().contains("lower rank"), "{e}");
    // Not a token at all; a zero-length move written out.
    assert_eq!(err("g1-g7 middle").reason, RecordErrorReason::NotAToken);
    assert!(matches!(err("g1-g9").reason, RecordErrorReason::Parse(_)));
    assert_eq!(err("g1-g1").reason, RecordErrorReason::ZeroLength);
}

#[test]
fn position_text_ranks_and_target() {
    let p = pos("obupyrgn/8/8/8/8/8/8/N+GRYPUBO w - 3");
    assert_eq!(p.target(), Target::Standard);
    assert_eq!(p.score(Side::Black), 1);
    assert_eq!((p.turn(), p.active()), (Side::White, None));
    assert_eq!(p.to_string(), "obupyrgn/8/8/8/8/8/8/N+GRYPUBO w - 3");
    // No target: a single round, printed without one, as the core prints it.
    let single = pos("obupyrgn/8/8/8/8/8/8/NGRYPUBO b -");
    assert_eq!(single.target(), Target::Single);
    assert_eq!(single, MatchPosition::start(Target::Single));
    assert_eq!(single.to_string(), "obupyrgn/8/8/8/8/8/8/NGRYPUBO b -");
}

#[test]
fn position_text_errors() {
    let err = |t: &str| t.parse::<MatchPosition>().unwrap_err();
    let illegal = |t: &str| match err(t) {
        ParseMatchPositionError::Illegal(e) => e,
        other => panic!("{t}: {other}"),
    };
    assert!(matches!(
        err("obupyrgn/8/8/8/8/8/8/NGRYPUBO b - 5"),
        ParseMatchPositionError::Target(_)
    ));
    assert!(matches!(
        err("obupyrgn/8/8/8/8/8/8/NGRYPUBO b - 3 x"),
        ParseMatchPositionError::Fields { found: 5 }
    ));
    assert!(matches!(
        err("obupyrgn/8/8/8/8/8/8/+NGRYPUBO b - 3"),
        ParseMatchPositionError::StrayPlus { rank: 1 }
    ));
    assert!(matches!(
        err("obupyrgn/8/8/8/8/8/8/N3+GRYPUBO b - 3"),
        ParseMatchPositionError::StrayPlus { rank: 1 }
    ));
    // The core's reasons come through, the rank shown as written.
    let e = err("obupyrgn/8/8/8/8/8/8/N+GRYPUB b - 3").to_string();
    assert!(e.contains("`N+GRYPUB`") && e.contains("7 squares"), "{e}");
    assert!(matches!(
        illegal("obupyrg1/8/8/8/8/8/8/NGRYPUBO b - 3"),
        MatchPositionError::Round(_)
    ));
    // A Double Sumo in a Standard match: a Sumo that wins ends the match, so none is ever
    // on the board while a round is played. A Sumo in a single round likewise.
    let e = illegal("obupyrgn/8/8/8/8/8/8/N++GRYPUBO b - 3");
    assert!(matches!(
        e,
        MatchPositionError::RankBeyondTarget { rank: 2, .. }
    ));
    assert!(e.to_string().contains("Double Sumo"), "{e}");
    assert!(matches!(
        illegal("obupyrgn/8/8/8/8/8/8/N+GRYPUBO b -"),
        MatchPositionError::RankBeyondTarget { rank: 1, .. }
    ));
    // No text shows a Quadruple Sumo: only a finished Marathon has one, after its last
    // move, which the text shows as it left the board.
    assert!(matches!(
        illegal("obupyrgn/8/8/8/8/8/8/NGRY++++PUBO b - 15"),
        MatchPositionError::RankBeyondTarget { rank: 4, .. }
    ));
    assert!(matches!(
        illegal("obupyrgn/8/8/8/8/8/8/NGRY+++++PUBO b - 15"),
        MatchPositionError::RankBeyondTarget { rank: 5, .. }
    ));
    // Three Sumos are 3 points: the Standard match would be over.
    assert!(matches!(
        illegal("obupyrgn/8/8/8/8/8/8/N+G+R+YPUBO b - 3"),
        MatchPositionError::ScoreReached { score: 3, .. }
    ));
    // The winner of a finished round, Sumo or not, is shown before its gain: the
    // single round's finished texts read as they do in the core, a Sumo's win in a Standard
    // match is shown as a Sumo on the goal row, and three Sumos are too many even then.
    let won = pos("obupyrgN/8/8/8/8/1n6/8/1GRYPUBO w n");
    assert_eq!(
        won.round_end().unwrap().promoted,
        tower(Side::Black, Colour::Brown)
    );
    assert_eq!(won.match_winner(), Some(Side::Black));
    let deadlock = pos("1bupyrgn/6NO/8/3Y4/8/8/1o6/UGR1P1B1 w o")
        .round_end()
        .unwrap();
    assert_eq!(deadlock.promoted, tower(Side::White, Colour::Orange));
    assert_eq!(
        pos("obupyrgN+/8/8/8/8/1n6/8/1GRYPUBO w n 3").match_winner(),
        Some(Side::Black)
    );
    assert!(matches!(
        illegal("obupyrgN+/8/8/8/8/1n6/8/1G+R+YPUBO w n 3"),
        MatchPositionError::ScoreReached { score: 3, .. }
    ));
}

#[test]
fn towers_of_every_rank_on_a_free_move() {
    // Black on a free move with a Double Sumo on a1 (a2-a4, b2-d4: 6), a Sumo on b1 (b2-b6,
    // a2, c2-g6: 11), plain towers on c1 (c2-c7, b2 a3, d2-h6: 13), e1 (e2-e7, d2-a5, f2-h4:
    // 13), f1 (f2-f7, e2-a6, g2 h3: 13), g1 (g2-g7, f2-a7, h2: 13), h1 (h2-h7, g2-b7: 12) and
    // a Triple Sumo on d1 (c2 d2 e2: 3): 84 moves.
    let p = pos("o+b+u++pyrgn/8/8/8/8/8/8/N++G+RY+++PUBO b - 15");
    assert_eq!(p.legal_moves().len(), 84);
    assert_eq!(kamisado_match::perft::perft(&p, 1), 84);
    assert_eq!((p.score(Side::Black), p.score(Side::White)), (11, 5));
}

#[test]
fn a_tower_promoted_by_a_deadlock_does_not_unfreeze_the_board_it_won_on() {
    // Found by the random tests. Black's f6-f7 (yellow) names White's Yellow on f8, blocked
    // by e7 f7 g7: zero-length, f8 is red; Black's Red on f7 is blocked by e8 f8 g8:
    // zero-length, f7 is yellow: a deadlock, lost by Black. White's Yellow gains a rank and
    // White, with two Sumos already, reaches 3 points. As a Sumo, that tower could push f7
    // (f6 behind it is empty): the text therefore shows it as the last move left it, plain,
    // and reads back as this finished round, not as a round in which White's Sumo moves.
    let p = pos("3r+gyob+/4O1BG/1npu1R2/8/2P5/4Y3/3U+4/1N+6 b r 3");
    let after = p.play(mv("f6-f7")).unwrap();
    let end = after.round_end().unwrap();
    assert_eq!((end.winner, end.reason), (Side::White, EndReason::Deadlock));
    assert_eq!(end.promoted, tower(Side::White, Colour::Yellow));
    assert_eq!(after.match_winner(), Some(Side::White));
    assert_eq!(
        after.to_string(),
        "3r+gyob+/4ORBG/1npu4/8/2P5/4Y3/3U+4/1N+6 w y 3"
    );
    assert_eq!(pos(&after.to_string()), after);
}
