//! Hand-built positions for every rule of MATCH-RULES.md, each with the expected result
//! worked out by hand from the rules page (square colours from the table in RULES.md).

use crate::board::{Colour, Side, Square};
use crate::position::EndReason;

use super::*;

fn pos(text: &str) -> MatchPosition {
    MatchPosition::parse(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn list(moves: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
    v.sort();
    v
}

/// Plays `mv` and returns the new text and the round end's text.
fn play(text: &str, mv: &str) -> (String, Option<String>) {
    let (next, end) = pos(text)
        .play(mv)
        .unwrap_or_else(|e| panic!("{text} {mv}: {e}"));
    (next.to_text(), end.map(|e| e.to_text()))
}

// ---------------------------------------------------------------- position text

#[test]
fn the_pages_example_text() {
    let text = "obupyrgn/8/8/8/8/8/8/N+GRYPUBO w - 3";
    let p = pos(text);
    assert_eq!(p.to_text(), text);
    assert_eq!(p.target(), 3);
    assert_eq!(p.side_to_move(), Side::White);
    assert_eq!(p.active(), None);
    assert_eq!(
        p.tower_at(Square::new(0, 0)),
        Some(MatchTower {
            side: Side::Black,
            colour: Colour::Brown,
            rank: 1
        })
    );
    assert_eq!((p.score(Side::Black), p.score(Side::White)), (1, 0));
    assert_eq!(match_score(text), Ok((1, 0)));
    assert_eq!(p.round_end(), None);
    // `u++` is White's purple Double Sumo, worth 3.
    let q = pos("obu++pyrgn/8/8/8/8/8/8/NGRYPUBO b - 7");
    assert_eq!((q.score(Side::Black), q.score(Side::White)), (0, 3));
}

#[test]
fn text_round_trips_and_the_default_target() {
    for text in [
        "obupyrgn/8/8/8/8/8/8/NGRYPUBO b -",
        "obupyrgn/8/8/8/8/8/8/NGRYPUBO b - 3",
        "obupyrgn/8/8/8/8/8/8/NGRYPUBO b - 7",
        "obupyrgn/8/8/8/8/8/8/NGRYPUBO b - 15",
        "8/8/8/3b4/3G+4/8/R7/8 b g 3",
        "o+b++u+p+yrgn/8/8/8/8/8/8/NG+++RYPUBO w - 15",
        "8/8/2o5/2G+5/yu6/PU6/8/8 w y 3",
    ] {
        assert_eq!(pos(text).to_text(), text);
    }
    // Target 1 is the single round: the fourth field may be written but is not printed.
    assert_eq!(
        pos("obupyrgn/8/8/8/8/8/8/NGRYPUBO b - 1").to_text(),
        "obupyrgn/8/8/8/8/8/8/NGRYPUBO b -"
    );
    assert_eq!(
        match_start(7),
        Ok("obupyrgn/8/8/8/8/8/8/NGRYPUBO b - 7".to_string())
    );
    assert!(match_start(5).is_err());
}

#[test]
fn bad_texts_are_rejected_with_a_reason() {
    let bad = [
        ("obupyrgn/8/8/8/8/8/8/NGRYPUBO b - 2", "target"),
        ("obupyrgn/8/8/8/8/8/8/NGRYPUBO b - 03", "target"),
        ("obupyrgn/8/8/8/8/8/8/NGRYPUBO b - +3", "target"),
        ("obupyrgn/8/8/8/8/8/8/NGRYPUBO b - 3 x", "fields"),
        ("+obupyrgn/8/8/8/8/8/8/NGRYPUBO b - 3", "'+'"),
        ("obupyrgn/8/8/8/8/8/8/N1+GRYPUB b - 3", "'+'"),
        ("obupyrgn/8/8/8/8/8/8/N+++++GRYPUBO b - 15", "more than 4"),
        // Scores that reach the target: the match would be over.
        ("obupyrgn/8/8/8/8/8/8/N+GRYPUBO b -", "target 1"),
        ("obupyrgn/8/8/8/8/8/8/N++GRYPUBO b - 3", "target 3"),
        ("obupyrgn/8/8/8/8/8/8/N+G+R+YPUBO b - 3", "target 3"),
        ("obupyrgn/8/8/8/8/8/8/N+++GRYPUBO b - 7", "target 7"),
        ("obupyrgn/8/8/8/8/8/8/N++++GRYPUBO b - 15", "target 15"),
        // Finished rounds must be consistent.
        ("3G4/8/8/8/8/8/8/3b4 w p 3", "goal rows"),
        ("3G4/8/8/8/8/8/8/8 b p 3", "cannot be to move"),
        ("3G4/8/8/8/8/8/8/8 w o 3", "active colour"),
        ("GG6/8/8/8/8/8/8/8 w o 3", "2 Green"),
    ];
    for (text, reason) in bad {
        match MatchPosition::parse(text) {
            Ok(p) => panic!("{text:?} accepted as {}", p.to_text()),
            Err(e) => assert!(e.contains(reason), "{text:?}: {e}"),
        }
    }
}

#[test]
fn parse_never_panics_on_random_text() {
    let alphabet: Vec<char> = "obupyrgnOBUPYRGN+0123456789/ -bwxé\n".chars().collect();
    let seed_text = "obu+pyrgn/8/8/8/8/8/8/N+GRYPUBO w - 3";
    let mut rng = 0x2545_F491_4F6C_DD1Du64;
    let mut next = || {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        rng
    };
    for i in 0..20_000 {
        let text: String = if i % 2 == 0 {
            let len = next() % 60;
            (0..len)
                .map(|_| alphabet[(next() % alphabet.len() as u64) as usize])
                .collect()
        } else {
            let mut chars: Vec<char> = seed_text.chars().collect();
            let at = (next() % chars.len() as u64) as usize;
            chars[at] = alphabet[(next() % alphabet.len() as u64) as usize];
            chars.into_iter().collect()
        };
        if let Ok(p) = MatchPosition::parse(&text) {
            assert_eq!(
                MatchPosition::parse(&p.to_text()),
                Ok(p.clone()),
                "{text:?}"
            );
            let _ = (p.round_end(), p.legal_moves());
        }
    }
}

// ---------------------------------------------------------------- ordinary moves

#[test]
fn ordinary_moves_are_limited_by_rank() {
    // Black's tower on d1 on an empty board: straight d2..d8 (7), left c2 b3 a4 (3),
    // right e2 f3 g4 h5 (4). Ranks cut each line at 5, 3 and 1 squares.
    let counts = [(0, 14), (1, 12), (2, 9), (3, 3)];
    for (rank, count) in counts {
        let text = format!("8/8/8/8/8/8/8/3G{}4 b g 15", "+".repeat(rank));
        assert_eq!(pos(&text).legal_moves().len(), count, "{text}");
    }
    assert_eq!(
        pos("8/8/8/8/8/8/8/3G++4 b g 15").legal_moves(),
        list(&["d1-a4", "d1-b3", "d1-c2", "d1-d2", "d1-d3", "d1-d4", "d1-e2", "d1-f3", "d1-g4"])
    );
    assert_eq!(
        pos("8/8/8/8/8/8/8/3G+++4 b g 15").legal_moves(),
        list(&["d1-c2", "d1-d2", "d1-e2"])
    );
    // A White Sumo on e8 moves down: e7..e3 (5), d7 c6 b5 a4 (4), f7 g6 h5 (3).
    let white = pos("4y+3/8/8/8/8/8/8/8 w y 3").legal_moves();
    assert_eq!(white.len(), 12);
    assert!(white.contains(&"e8-e3".to_string()));
    assert!(!white.contains(&"e8-e2".to_string()));
    assert!(white.contains(&"e8-a4".to_string()));
}

// ---------------------------------------------------------------- pushes

#[test]
fn a_sumo_pushes_one_tower_and_moves_again() {
    // Black's Sumo on d4, White's blue tower on d5, d6 empty.
    let text = "8/8/8/3b4/3G+4/8/R7/8 b g 3";
    assert_eq!(
        pos(text).legal_moves(),
        list(&["d4-a7", "d4-b6", "d4-c5", "d4-d5", "d4-e5", "d4-f6", "d4-g7", "d4-h8"])
    );
    // The blue tower goes back to d6 (Red), the Sumo to d5; White's turn is skipped and
    // Black moves again with its Red tower.
    let (after, end) = play(text, "d4-d5");
    assert_eq!(after, "8/8/3b4/3G+4/8/8/R7/8 b r 3");
    assert_eq!(end, None);
    assert!(pos(&after)
        .legal_moves()
        .iter()
        .all(|m| m.starts_with("a2")));
    assert_eq!(match_play(text, "d4-d5"), Ok(after));

    // The same turned half round: a White Sumo pushes downwards.
    let white = "8/7r/8/4g+3/4B3/8/8/8 w g 3";
    let (after, end) = play(white, "e5-e4");
    assert_eq!(after, "8/7r/8/8/4g+3/4B3/8/8 w r 3");
    assert_eq!(end, None);
}

#[test]
fn a_push_can_put_a_tower_back_on_its_home_row() {
    // White's tower on d7 is pushed to d8, its own home row (d8 is Pink).
    let (after, _) = play("8/3b4/3G+4/8/8/8/8/P7 b g 3", "d6-d7");
    assert_eq!(after, "3b4/3G+4/8/8/8/8/8/P7 b p 3");
}

#[test]
fn no_push_when_the_run_reaches_the_edge() {
    // White's pink tower on its home row d8 cannot be pushed: there is no square behind it.
    assert_eq!(
        pos("3p4/3G+4/8/8/8/8/8/8 b g 3").legal_moves(),
        list(&["d7-c8", "d7-e8"])
    );
    // A Double Sumo facing two towers that end at the edge.
    assert_eq!(
        pos("3p4/3y4/3G++4/8/8/8/8/8 b g 7").legal_moves(),
        list(&["d6-b8", "d6-c7", "d6-e7", "d6-f8"])
    );
}

#[test]
fn no_push_when_the_run_holds_an_own_tower() {
    let diagonals = list(&["d4-a7", "d4-b6", "d4-c5", "d4-e5", "d4-f6", "d4-g7"]);
    // Own tower first, or own tower behind an opponent's.
    assert_eq!(
        pos("8/8/3b4/3R4/3G++4/8/8/8 b g 7").legal_moves(),
        diagonals
    );
    assert_eq!(
        pos("8/8/3R4/3b4/3G++4/8/8/8 b g 7").legal_moves(),
        diagonals
    );
    // A plain tower never pushes.
    assert_eq!(
        pos("8/8/8/3b4/3G4/8/8/8 b g 3").legal_moves(),
        list(&["d4-a7", "d4-b6", "d4-c5", "d4-e5", "d4-f6", "d4-g7", "d4-h8"])
    );
}

#[test]
fn a_push_needs_a_strictly_lower_rank() {
    // Sumo against Sumo: no push.
    let equal = pos("8/8/8/3b+4/3G+4/8/8/8 b g 3").legal_moves();
    assert!(!equal.contains(&"d4-d5".to_string()));
    assert_eq!(equal.len(), 7);
    // Double Sumo against Sumo: push.
    assert_eq!(
        pos("8/8/8/3b+4/3G++4/8/8/8 b g 7").legal_moves(),
        list(&["d4-a7", "d4-b6", "d4-c5", "d4-d5", "d4-e5", "d4-f6", "d4-g7"])
    );
    // Sumo against Double Sumo, Double against Double: no push.
    assert!(!pos("8/8/8/3b++4/3G+4/8/8/8 b g 7")
        .legal_moves()
        .contains(&"d4-d5".to_string()));
    assert!(!pos("8/8/8/3b++4/3G++4/8/8/8 b g 15")
        .legal_moves()
        .contains(&"d4-d5".to_string()));
    // Triple Sumo against Double Sumo: push (and one square each way otherwise).
    assert_eq!(
        pos("8/8/8/3b++4/3G+++4/8/8/8 b g 15").legal_moves(),
        list(&["d4-c5", "d4-d5", "d4-e5"])
    );
}

#[test]
fn push_capacity_is_the_rank() {
    // Sumo, two towers: no push.
    assert!(!pos("8/8/3u4/3b4/3G+4/8/8/8 b g 3")
        .legal_moves()
        .contains(&"d4-d5".to_string()));
    // Double Sumo, two towers: both move back. The farthest (purple) lands on d6 (Red), so
    // Black's Red tower moves next, not the Orange one the nearer tower's d5 would name.
    assert_eq!(
        play("8/8/8/3u4/3b4/3G++4/R7/8 b g 7", "d3-d4"),
        ("8/8/3u4/3b4/3G++4/8/R7/8 b r 7".to_string(), None)
    );
    // Double Sumo, three towers: no push.
    assert!(!pos("8/8/3y4/3u4/3b4/3G++4/8/8 b g 7")
        .legal_moves()
        .contains(&"d3-d4".to_string()));
    // Triple Sumo, three towers: all three move back; the farthest lands on d6 (Red).
    assert_eq!(
        play("8/8/8/3y4/3u4/3b4/3G+++4/R7 b g 15", "d2-d3"),
        ("8/8/3y4/3u4/3b4/3G+++4/8/R7 b r 15".to_string(), None)
    );
    // Triple Sumo, four towers: no push, one square diagonally only.
    assert_eq!(
        pos("8/3p4/3y4/3u4/3b4/3G+++4/8/8 b g 15").legal_moves(),
        list(&["d3-c4", "d3-e4"])
    );
}

#[test]
fn a_blocked_extra_move_passes_the_turn() {
    // After the push Black must move its Red tower (d6 is Red), which is blocked on a7 by
    // a8 and b8: a zero-length move, and White moves with the colour of a7, Red.
    let (after, end) = play("ou3r2/R7/8/3b4/3G+4/8/8/8 b g 3", "d4-d5");
    assert_eq!(after, "ou3r2/R7/3b4/3G+4/8/8/8/8 w r 3");
    assert_eq!(end, None);
    // White's Red tower on f8: f7..f1, e7 (d6 is taken), g7, h6.
    assert_eq!(pos(&after).legal_moves().len(), 10);
}

#[test]
fn a_push_can_be_the_only_move() {
    // The Sumo on a4 is boxed in (a5 and b5 taken) but can push a5 back to a6.
    let text = "8/8/8/bu6/G+7/8/8/8 b g 3";
    assert_eq!(pos(text).legal_moves(), list(&["a4-a5"]));
    // a6 is Green: the pusher itself moves again, and may push once more.
    let (after, _) = play(text, "a4-a5");
    assert_eq!(after, "8/8/b7/G+u6/8/8/8/8 b g 3");
    assert_eq!(
        pos(&after).legal_moves(),
        list(&["a5-a6", "a5-b6", "a5-c7", "a5-d8"])
    );
    // perft counts the push and the extra move as two moves.
    let p = pos(text);
    assert_eq!(p.perft(1), 1);
    assert_eq!(p.perft(2), 4);
    assert_eq!(p.divide(2), vec![("a4-a5".to_string(), 4)]);
}

#[test]
fn the_extra_move_after_a_push_may_win() {
    let (after, _) = play("8/8/8/3b4/3G+4/8/R7/8 b g 3", "d4-d5");
    let (won, end) = play(&after, "a2-a8");
    // a8 is Orange. Black's plain Red tower wins: +1, on top of the Sumo's 1.
    assert_eq!(won, "R7/8/3b4/3G+4/8/8/8/8 w o 3");
    assert_eq!(end.as_deref(), Some("b goal a8 r +1 2-0"));
    assert_eq!(match_round_end(&won).unwrap().map(|e| e.to_text()), end);
    assert!(pos(&won).legal_moves().is_empty());
}

// ---------------------------------------------------------------- deadlock

#[test]
fn deadlock_after_an_ordinary_move() {
    // c1-c2 lands on Yellow; White's Yellow (a5) is blocked on Pink, Black's Pink (a4) on
    // Yellow: (White, Yellow) repeats. Black made the last positive move and loses; White's
    // tower of c2's colour, Yellow, gains.
    let text = "8/8/8/yu6/PU6/8/8/2G5 b g";
    let (after, end) = play(text, "c1-c2");
    assert_eq!(after, "8/8/8/yu6/PU6/8/2G5/8 w y");
    assert_eq!(end.as_deref(), Some("w deadlock a5 y +1 0-1 over"));
    assert_eq!(match_round_end(&after).unwrap().map(|e| e.to_text()), end);
    let e = pos(&after).round_end().unwrap();
    assert_eq!((e.winner, e.reason), (Side::White, EndReason::Deadlock));
}

#[test]
fn deadlock_right_after_a_push() {
    // Black's Sumo pushes White's Orange tower from c6 to c7 (Pink): Black must move its
    // Pink tower (a4), blocked; White's Yellow (a5, named by a4) is blocked; Black's Pink
    // (named by a5) repeats. Black, the pusher, made the last positive move and loses.
    // The winner's tower that gains is the one of the colour of the pusher's new square
    // c6, Orange: White's tower on c7.
    let text = "8/8/2o5/yuG+5/PU6/8/8/8 b g 3";
    let (after, end) = pos(text).play("c5-c6").unwrap();
    let end = end.expect("the push ends the round");
    assert_eq!(end.to_text(), "w deadlock c7 o +1 1-1");
    assert_eq!(end.gaining_colour, Colour::Orange);
    // The text is shown after Black's zero-length move, so it reads as lost by Black.
    assert_eq!(after.to_text(), "8/2o5/2G+5/yu6/PU6/8/8/8 w y 3");
    assert!(after.legal_moves().is_empty());
    let read = after.round_end().unwrap();
    assert_eq!(
        (read.winner, read.reason),
        (Side::White, EndReason::Deadlock)
    );
    // What the text alone cannot tell: read as after an ordinary move, it names White's
    // Yellow tower (the active colour), not the Orange one the push named.
    assert_eq!(read.to_text(), "w deadlock a5 y +1 1-1");
    // The refill with the exact end promotes the Orange tower. From the left: Black takes
    // a4 P, b4 U, c6 G+; White (whose left is file h) takes c7 o+, b5 u, a5 y.
    assert_eq!(
        after.refill(&end, RefillFrom::Left).unwrap().to_text(),
        "5yuo+/8/8/8/8/8/8/PUG+5 b - 3"
    );
    // The text API reports the exact end with the move.
    let (text_after, text_end) = match_play_with_end(text, "c5-c6").unwrap();
    assert_eq!(text_after, after.to_text());
    assert_eq!(text_end, Some(end));
}

// ---------------------------------------------------------------- round and match ends

#[test]
fn a_winning_sumo_ends_a_standard_match() {
    // Sumo (1 point) wins: +2, 3 points, the Standard target.
    let (after, end) = play("8/3G+4/8/8/8/8/8/8 b g 3", "d7-d8");
    assert_eq!(after, "3G+4/8/8/8/8/8/8/8 w p 3");
    assert_eq!(end.as_deref(), Some("b goal d8 g +2 3-0 over"));
    assert!(match_refill(&after, "left").is_err());
    // Three plain wins also make 3: two Sumos on the board and a plain tower winning.
    let (_, end) = play("8/3G4/8/8/8/8/8/N+O+6 b g 3", "d7-d8");
    assert_eq!(end.as_deref(), Some("b goal d8 g +1 3-0 over"));
}

#[test]
fn a_winning_double_sumo_ends_a_long_match() {
    let (_, end) = play("8/3G++4/8/8/8/8/8/8 b g 7", "d7-d8");
    assert_eq!(end.as_deref(), Some("b goal d8 g +4 7-0 over"));
    // A winning Sumo in a Long match does not end it; the refill makes it a Double Sumo
    // and White, the loser, starts.
    let (after, end) = play("8/3G+4/8/8/8/8/8/8 b g 7", "d7-d8");
    assert_eq!(end.as_deref(), Some("b goal d8 g +2 3-0"));
    assert_eq!(
        match_refill(&after, "left"),
        Ok("8/8/8/8/8/8/8/G++7 w - 7".to_string())
    );
}

#[test]
fn a_winning_triple_sumo_ends_a_marathon() {
    let (_, end) = play("8/3G+++4/8/8/8/8/8/8 b g 15", "d7-d8");
    assert_eq!(end.as_deref(), Some("b goal d8 g +8 15-0 over"));
}

#[test]
fn a_deadlock_can_end_the_match() {
    // As in the ordinary deadlock, but White's Yellow tower is a Sumo. It cannot push: the
    // run a4-a3 is two towers. It gains its second rank: 1 + 2 = 3.
    let (_, end) = play("8/8/8/y+u6/PU6/N7/8/2G5 b g 3", "c1-c2");
    assert_eq!(end.as_deref(), Some("w deadlock a5 y +2 0-3 over"));
}

// ---------------------------------------------------------------- refill

/// The page's example: Black's towers on a1 Brown, f1 Pink, c3 Red, b5 Green, e5 Blue,
/// d6 Orange, g7 Purple and h8 Yellow (which has just won); White's towers placed by hand.
const REFILL_EXAMPLE: &str = "o1u2r1Y/6U1/1b1O3p/1G2B3/4y3/2Rn4/6g1/N4P2 w n 3";

/// The colours of a home row as the page writes them, in the order given by `files`.
fn home_row_colours(text: &str, home: usize, files: &[usize]) -> Vec<Colour> {
    let p = pos(text);
    files
        .iter()
        .filter_map(|&file| p.tower_at(Square::new(file, home)).map(|t| t.colour))
        .collect()
}

#[test]
fn the_pages_refill_example_from_the_left() {
    use Colour::*;
    let end = pos(REFILL_EXAMPLE).round_end().unwrap();
    assert_eq!(end.to_text(), "b goal h8 y +1 1-0");
    let refilled = match_refill(REFILL_EXAMPLE, "left").unwrap();
    // Black a1..h1 as on the page; the winner gains its rank.
    assert_eq!(
        home_row_colours(&refilled, 0, &[0, 1, 2, 3, 4, 5, 6, 7]),
        vec![Brown, Pink, Red, Green, Blue, Orange, Purple, Yellow]
    );
    // White from its left (file h), rows 8, 7, ..., 1: f8 r, c8 u, a8 o, h6 p, b6 b,
    // e4 y, d3 n, g2 g; set from h8 towards a8. The loser, White, starts with a free move.
    assert_eq!(refilled, "gnybpour/8/8/8/8/8/8/NPRGBOUY+ w - 3");
}

#[test]
fn the_pages_refill_example_from_the_right() {
    use Colour::*;
    let refilled = match_refill(REFILL_EXAMPLE, "right").unwrap();
    // Black h1..a1 as on the page.
    assert_eq!(
        home_row_colours(&refilled, 0, &[7, 6, 5, 4, 3, 2, 1, 0]),
        vec![Pink, Brown, Red, Blue, Green, Orange, Purple, Yellow]
    );
    // White from its right (file a): a8 o, c8 u, f8 r, b6 b, h6 p, e4 y, d3 n, g2 g; set
    // from a8 towards h8.
    assert_eq!(refilled, "ourbpyng/8/8/8/8/8/8/Y+UOGBRNP w - 3");
}

#[test]
fn refill_needs_a_finished_round_and_a_direction() {
    assert!(match_refill("obupyrgn/8/8/8/8/8/8/NGRYPUBO b - 3", "left").is_err());
    assert!(match_refill(REFILL_EXAMPLE, "up").is_err());
    assert!(match_refill(REFILL_EXAMPLE, "").is_err());
}

// ---------------------------------------------------------------- records

/// A Standard match: Black wins round 1 with its Brown tower (a1-a5 names White's Pink,
/// d8-d4 names Black's Brown, which reaches the vacated d8), chooses left; White wins
/// round 2 with its Blue tower on c1, chooses right; Black's Brown Sumo wins round 3
/// (h1-h6 is 5 squares, White's Blue Sumo h8-c3 also 5, c3 is Brown) for 1 + 2 = 3.
const MATCH: &str = "a1-a5 d8-d4 a5-d8 left a8-a4 c1-f4 c8-c1 right h1-h6 h8-c3 h6-h8";

#[test]
fn a_record_plays_a_whole_match() {
    let start = match_start(3).unwrap();
    let outcome = match_play_record(&start, MATCH).unwrap();
    assert_eq!(outcome.position, "ouyrgnpN+/8/8/8/8/2b+5/8/YGRPUBO1 w n 3");
    assert_eq!((outcome.black_score, outcome.white_score), (3, 1));
    assert_eq!(outcome.match_winner, Some(Side::Black));

    // The refills on the way, worked out by hand. After round 1 (left): Black's row from
    // a1, then d8's Brown Sumo; White's from h8 leftwards, then the Pink tower on d4.
    let round2 = match_play_record(&start, "a1-a5 d8-d4 a5-d8 left").unwrap();
    assert_eq!(round2.position, "pobuyrgn/8/8/8/8/8/8/GRYPUBON+ w - 3");
    assert_eq!((round2.black_score, round2.white_score), (1, 0));
    assert_eq!(round2.match_winner, None);
    // After round 2 (right): Black from h1 leftwards, then f4's Yellow; White from a8
    // rightwards, then a4's Pink and c1's Blue (now a Sumo).
    let round3 =
        match_play_record(&start, "a1-a5 d8-d4 a5-d8 left a8-a4 c1-f4 c8-c1 right").unwrap();
    assert_eq!(round3.position, "ouyrgnpb+/8/8/8/8/8/8/YGRPUBON+ b - 3");
    // A record may stop right after a round-ending move: the round's points are counted.
    let mid = match_play_record(&start, "a1-a5 d8-d4 a5-d8").unwrap();
    assert_eq!((mid.black_score, mid.white_score), (1, 0));
    assert_eq!(
        mid.round_end.map(|e| e.to_text()).as_deref(),
        Some("b goal d8 n +1 1-0")
    );
}

#[test]
fn a_bad_record_names_the_first_bad_token() {
    let start = match_start(3).unwrap();
    let cases = [
        // h8-b2 would be 6 squares for White's Blue Sumo.
        (
            format!(
                "{} x",
                "a1-a5 d8-d4 a5-d8 left a8-a4 c1-f4 c8-c1 right h1-h6 h8-b2"
            ),
            "token 10 \"h8-b2\"",
        ),
        ("a1-a5 d8-d4 a5-d8 a8-a4".to_string(), "token 4 \"a8-a4\""),
        ("a1-a5 left".to_string(), "token 2 \"left\""),
        ("a1-a5 d8-d4 a5-d8 up".to_string(), "token 4 \"up\""),
        ("a1-a9".to_string(), "token 1 \"a1-a9\""),
        ("a1-a5 d8-d8".to_string(), "token 2 \"d8-d8\""),
        (format!("{MATCH} left"), "token 12 \"left\""),
    ];
    for (record, wanted) in cases {
        match match_play_record(&start, &record) {
            Ok(outcome) => panic!("{record:?} accepted: {outcome:?}"),
            Err(e) => assert!(e.starts_with(wanted), "{record:?}: {e}"),
        }
    }
    assert!(match_play_record("nonsense", "a1-a5").is_err());
}
