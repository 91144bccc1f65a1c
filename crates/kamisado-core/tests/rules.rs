//! One test per rule of RULES.md, each on a hand-built position whose expected outcome is
//! worked out in the comments from the rules alone.

use kamisado_core::notation::play_line;
use kamisado_core::{Colour, EndReason, IllegalMove, Move, Position, Side, Square};

fn pos(text: &str) -> Position {
    text.parse()
        .unwrap_or_else(|e| panic!("test position `{text}`: {e}"))
}

fn mv(text: &str) -> Move {
    text.parse().unwrap()
}

fn sq(text: &str) -> Square {
    text.parse().unwrap()
}

fn moves(p: &Position) -> Vec<String> {
    let mut v: Vec<String> = p.legal_moves().iter().map(|m| m.to_string()).collect();
    v.sort();
    v
}

#[test]
fn square_colours_match_the_rules_table() {
    let rank8 = [
        "orange", "blue", "purple", "pink", "yellow", "red", "green", "brown",
    ];
    let rank1 = [
        "brown", "green", "red", "yellow", "pink", "purple", "blue", "orange",
    ];
    let rank5 = [
        "pink", "purple", "blue", "orange", "brown", "green", "red", "yellow",
    ];
    for file in 0..8u8 {
        assert_eq!(
            Square::from_coords(file, 7).colour().name(),
            rank8[file as usize]
        );
        assert_eq!(
            Square::from_coords(file, 0).colour().name(),
            rank1[file as usize]
        );
        assert_eq!(
            Square::from_coords(file, 4).colour().name(),
            rank5[file as usize]
        );
    }
    for i in 0..8u8 {
        // Each colour once per rank and file; the two long diagonals.
        let mut in_rank: Vec<_> = (0..8).map(|f| Square::from_coords(f, i).colour()).collect();
        let mut in_file: Vec<_> = (0..8).map(|r| Square::from_coords(i, r).colour()).collect();
        in_rank.sort();
        in_rank.dedup();
        in_file.sort();
        in_file.dedup();
        assert_eq!((in_rank.len(), in_file.len()), (8, 8));
        assert_eq!(Square::from_coords(i, i).colour(), Colour::Brown);
        assert_eq!(Square::from_coords(7 - i, i).colour(), Colour::Orange);
    }
    for s in Square::all() {
        assert_eq!(s.half_turned().colour(), s.colour());
        assert_eq!(s.mirrored().colour(), s.colour().mirrored());
    }
}

#[test]
fn start_position_and_free_opening_move() {
    let start = Position::start();
    assert_eq!(start.to_string(), "obupyrgn/8/8/8/8/8/8/NGRYPUBO b -");
    assert_eq!(start.turn(), Side::Black);
    assert_eq!(start.active(), None);
    let ms = start.legal_moves();
    assert_eq!(ms.len(), 102);
    // Every one of the eight towers may open.
    let mut from: Vec<Square> = ms.iter().map(|m| m.from()).collect();
    from.dedup();
    assert_eq!(from.len(), 8);
    // a1's tower: straight a2..a7 (a8 occupied), diagonal b2..g7 (h8 occupied).
    let a1 = ms.iter().filter(|m| m.from() == sq("a1")).count();
    assert_eq!(a1, 12);
    // After the opening, White must move the tower of the landing square's colour.
    let after = start.play(mv("e1-e4")).unwrap();
    assert_eq!(after.turn(), Side::White);
    assert_eq!(after.active(), Some(Colour::Orange)); // e4 is orange
    assert!(after.legal_moves().iter().all(|m| m.from() == sq("a8")));
}

#[test]
fn active_tower_is_named_by_the_landing_square_not_the_moving_tower() {
    // Black's Brown tower (a1) lands on a5, a pink square: White must move Pink (d8).
    let p = Position::start().play(mv("a1-a5")).unwrap();
    assert_eq!(p.active(), Some(Colour::Pink));
    let e = p.play(mv("h8-h7")).unwrap_err();
    assert!(
        matches!(
            e,
            IllegalMove::WrongTower {
                active: Colour::Pink,
                ..
            }
        ),
        "{e}"
    );
}

#[test]
fn corner_touching_towers_leave_the_diagonal_open() {
    // Black's Brown tower on d4; White towers on d5 and e4 touch corner to corner across
    // the d4-e5 diagonal, which stays open: e5, f6, g7 (h8 is occupied). d5 closes the
    // straight line; the other diagonal runs c5, b6, a7 to the edge of the board.
    let p = pos("obu2rgn/8/8/3p4/3Ny3/8/8/1GRYPUBO b n");
    assert_eq!(
        moves(&p),
        ["d4-a7", "d4-b6", "d4-c5", "d4-e5", "d4-f6", "d4-g7"]
    );
    assert!(p.is_legal(mv("d4-f6")));
}

#[test]
fn path_and_landing_square_must_be_empty_and_lines_forward() {
    let p = pos("obu2rgn/8/8/3p4/3Ny3/8/8/1GRYPUBO b n");
    assert!(matches!(
        p.check_move(mv("d4-d6")),
        Err(IllegalMove::PathBlocked { at, .. }) if at == sq("d5")
    ));
    assert!(matches!(
        p.check_move(mv("d4-d5")),
        Err(IllegalMove::Occupied { .. })
    ));
    assert!(matches!(
        p.check_move(mv("d4-d3")),
        Err(IllegalMove::NotForward { .. })
    ));
    assert!(matches!(
        p.check_move(mv("d4-c4")),
        Err(IllegalMove::NotForward { .. })
    ));
    assert!(matches!(
        p.check_move(mv("d4-e6")),
        Err(IllegalMove::NotForward { .. })
    ));
    assert!(matches!(
        p.check_move(mv("d4-d4")),
        Err(IllegalMove::NotBlocked(_))
    ));
    assert!(matches!(
        p.check_move(mv("b1-b2")),
        Err(IllegalMove::WrongTower { .. })
    ));
    assert!(matches!(
        p.check_move(mv("d5-d3")),
        Err(IllegalMove::NotYours { .. })
    ));
    assert!(matches!(
        p.check_move(mv("c4-c5")),
        Err(IllegalMove::NoTower(_))
    ));
}

#[test]
fn blocked_tower_passes_the_colour_of_its_square() {
    // Black's Red tower stands on b6 (a pink square) under White towers on a7, b7, c7.
    // White's Yellow tower goes e8-e3, a red square: Black must move Red, which is blocked,
    // so it makes the zero-length move b6-b6 and the colour of b6, pink (not red), names
    // White's next tower. White moves again, with Pink.
    let p = pos("3pyrgn/obu5/1R6/8/8/8/8/NG1YPUBO w y");
    let after = p.play(mv("e8-e3")).unwrap();
    assert_eq!(after.turn(), Side::White);
    assert_eq!(after.active(), Some(Colour::Pink));
    assert!(after
        .legal_moves()
        .iter()
        .all(|m| m.from() == sq("d8") && !m.is_zero_length()));
    // Step by step: the ply after White's move is Black's forced zero-length move.
    let mid = p.step(mv("e8-e3")).unwrap();
    assert_eq!((mid.turn(), mid.active()), (Side::Black, Some(Colour::Red)));
    assert!(mid.must_pass());
    assert_eq!(mid.legal_moves().as_slice(), &[mv("b6-b6")]);
    assert_eq!(mid.pending_zero_moves().as_slice(), &[mv("b6-b6")]);
    assert_eq!(mid.step(mv("b6-b6")).unwrap(), after);
    assert_eq!(mid.resolve(), after);
}

#[test]
fn several_zero_length_moves_in_a_row() {
    // Black plays d1-d5 (orange). White's Orange tower on a2 is blocked by a1 and b1 and
    // passes purple (a2); Black's Purple tower on g7 is blocked by f8, g8, h8 and passes
    // brown (g7); White's Brown tower on h8 is blocked by g7 and h7 and passes brown (h8);
    // Black's Brown tower on a1 can move to b2 and beyond. Three zero-length moves, then the
    // player who just moved, Black, moves again.
    let p = pos("1bupyrgn/6UO/8/8/8/8/o7/NGRYP1B1 b y");
    let mid = p.step(mv("d1-d5")).unwrap();
    assert_eq!(
        mid.pending_zero_moves()
            .iter()
            .map(|m| m.to_string())
            .collect::<Vec<_>>(),
        ["a2-a2", "g7-g7", "h8-h8"]
    );
    let after = p.play(mv("d1-d5")).unwrap();
    assert!(!after.is_over());
    assert_eq!(
        (after.turn(), after.active()),
        (Side::Black, Some(Colour::Brown))
    );
    assert_eq!(moves(&after), ["a1-b2", "a1-c3", "a1-d4", "a1-e5", "a1-f6"]);
    // The same chain, typed out in a move list, is accepted and never required.
    let typed = play_line(&p, "d1-d5 a2-a2 g7-g7 h8-h8 a1-c3").unwrap();
    let untyped = play_line(&p, "d1-d5 a1-c3").unwrap();
    assert_eq!(typed.end, untyped.end);
    assert_eq!(typed.moves, untyped.moves);
}

#[test]
fn deadlock_is_lost_by_the_last_positive_mover_though_the_other_side_passed_last() {
    // Black plays d1-d5 (orange). White's Orange tower on b2 is blocked by a1, b1, c1 and
    // passes brown (b2); Black's Brown tower on g7 is blocked by f8, g8, h8 and passes brown
    // (g7); White's Brown tower on h8 is blocked by g7, h7 and passes brown (h8): Black to
    // move Brown again, a repeated state. The last zero-length move was White's, but Black
    // made the last move of positive length, so Black loses.
    let p = pos("1bupyrgn/6NO/8/8/8/8/1o6/UGRYP1B1 b y");
    let after = p.play(mv("d1-d5")).unwrap();
    let end = after.end().expect("deadlock ends the game");
    assert_eq!((end.winner, end.reason), (Side::White, EndReason::Deadlock));
    assert!(after.legal_moves().is_empty());
    // The finished position keeps the state right after the move, and reads back the same.
    assert_eq!(
        (after.turn(), after.active()),
        (Side::White, Some(Colour::Orange))
    );
    let reread = pos(&after.to_string());
    assert_eq!(reread, after);
    // Counting zero-length moves as plies, the game still ends right after d1-d5.
    let stepped = p.step(mv("d1-d5")).unwrap();
    assert_eq!(stepped.end(), after.end());
    // A record may spell the chain out, around the cycle.
    assert!(play_line(&p, "d1-d5 b2-b2 g7-g7 h8-h8 g7-g7").is_ok());
    assert!(play_line(&p, "d1-d5 b2-b2 g7-g7 h8-h8 b1-b2").is_err());
}

#[test]
fn a_move_that_causes_deadlock_loses_for_its_maker_even_when_the_mover_passed_last() {
    // As above but Black's Brown tower also blocked on a1 (by a2 and b2) with White's
    // Orange tower on a2 and Black's Purple on g7: after d1-d5 the chain runs
    // a2 (White, orange) -> g7 (Black, purple) -> h8 (White, brown) -> a1 (Black, brown)
    // -> h8 again. The last pass is Black's; Black still loses.
    let p = pos("1bupyrgn/6UO/8/8/8/8/oG6/NR1YP1B1 b y");
    let end = p.play(mv("d1-d5")).unwrap().end().unwrap();
    assert_eq!((end.winner, end.reason), (Side::White, EndReason::Deadlock));
}

#[test]
fn winning_on_any_empty_square_of_the_home_row() {
    // Black's Red tower on c6 reaches the empty a8 along the diagonal: an immediate win,
    // though no tower is captured and the home row is otherwise full.
    let p = pos("1bupyrgn/8/2R5/8/8/o7/8/NG1YPUBO b r");
    assert_eq!(moves(&p), ["c6-a8", "c6-b7", "c6-c7", "c6-d7"]);
    assert_eq!(p.winning_move(), Some(mv("c6-a8")));
    let won = p.play(mv("c6-a8")).unwrap();
    let end = won.end().unwrap();
    assert_eq!((end.winner, end.reason), (Side::Black, EndReason::Goal));
    assert!(won.legal_moves().is_empty());
    assert!(matches!(
        won.play(mv("a3-a2")),
        Err(IllegalMove::GameOver { .. })
    ));
    assert_eq!(pos(&won.to_string()), won);
    // White wins on rank 1 just the same, on the square Black's Brown tower left.
    let w = pos("obupyrgn/8/8/8/8/1N6/8/1GRYPUBO w o");
    assert_eq!(w.winning_move(), Some(mv("a8-a1")));
    let end = w.play(mv("a8-a1")).unwrap().end().unwrap();
    assert_eq!((end.winner, end.reason), (Side::White, EndReason::Goal));
}

#[test]
fn a_position_given_in_the_middle_of_a_chain() {
    // The deadlock position above, given right after d1-d5: the chain deadlocks, so the
    // game is over and the side not to move, which made the last positive move, has lost.
    let p = pos("1bupyrgn/6NO/8/3Y4/8/8/1o6/UGR1P1B1 w o");
    let end = p.end().unwrap();
    assert_eq!((end.winner, end.reason), (Side::White, EndReason::Deadlock));
    // The three-pass chain given mid-way: Black's Purple must move but is blocked.
    let p = pos("1bupyrgn/6UO/8/3Y4/8/8/o7/NGR1P1B1 b u");
    assert!(p.must_pass() && !p.is_over());
    assert_eq!(p.resolve().active(), Some(Colour::Brown));
    assert_eq!(p.resolve().turn(), Side::Black);
}

#[test]
fn invalid_positions_are_refused_with_the_reason() {
    use kamisado_core::PositionError as E;
    let err = |t: &str| t.parse::<Position>().unwrap_err().to_string();
    assert!(err("obupyrg1/8/8/8/8/8/8/NGRYPUBO b -").contains("white brown tower is missing"));
    assert!(err("obupyrgn/8/8/8/8/8/8/NGRYPUBO b x").contains("active colour `x`"));
    let illegal = |t: &str| match t.parse::<Position>() {
        Err(kamisado_core::notation::ParsePositionError::Illegal(e)) => e,
        other => panic!("{t}: {other:?}"),
    };
    assert!(matches!(
        illegal("Nbupyrgn/8/8/8/8/8/8/oGRYPUBO b o"),
        E::BothSidesOnGoal
    ));
    assert!(matches!(
        illegal("NGupyrgn/8/8/8/8/8/8/obRYPUBO w o"),
        E::BothSidesOnGoal | E::SeveralOnGoal(_)
    ));
    assert!(matches!(
        illegal("obupyrgN/8/8/8/8/8/8/nGRYPUBO b n"),
        E::BothSidesOnGoal
    ));
    assert!(matches!(
        illegal("obupyrgN/8/8/7n/8/8/8/1GRYPUBO b n"),
        E::WinnerToMove(Side::Black)
    ));
    assert!(matches!(
        illegal("obupyrgN/8/8/7n/8/8/8/1GRYPUBO w o"),
        E::WinNotLast { .. }
    ));
    // Active Orange for Black needs a White tower on an orange square; none after a8-a5.
    assert!(matches!(
        illegal("1bupyrgn/8/8/o7/8/8/8/NGRYPUBO b o"),
        E::ActiveNotNamed { .. }
    ));
    assert!(matches!(
        illegal("obupyrgn/NGRYPUBO/8/8/8/8/8/8 b -"),
        E::NoTowerCanMove(Side::Black)
    ));
    assert!(matches!(
        kamisado_core::notation::play_line(&Position::start(), "a1-a5 x")
            .unwrap_err()
            .number,
        2
    ));
}
