//! Why a move is not legal in a match position.

use kamisado_core::{attacks, Colour, EndReason, Move, Side, Square};

use crate::push::step_forward;
use crate::{rank, MatchPosition};

/// Why a move is not legal: the single round's reasons, a Sumo's limited reach, and the
/// four ways a push can be impossible.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum IllegalMatchMove {
    /// The match is over (in a single round: the game, its only round).
    #[error("the {} is over: {winner} won it", crate::over_word(*single_round))]
    MatchOver { winner: Side, single_round: bool },
    #[error("the round is over ({winner} won it by {}): the next one starts after the winner's refill choice", reason.name())]
    RoundOver { winner: Side, reason: EndReason },
    #[error("there is no tower on {0}")]
    NoTower(Square),
    #[error("the tower on {square} is {owner}'s, and it is {turn}'s turn")]
    NotYours {
        square: Square,
        owner: Side,
        turn: Side,
    },
    #[error("{turn} must move the {active} tower (on {active_square}), not the {colour} tower on {square}")]
    WrongTower {
        square: Square,
        colour: Colour,
        turn: Side,
        active: Colour,
        active_square: Square,
    },
    #[error("the {colour} tower on {square} can neither move nor push: its only move is the zero-length move {square}-{square}")]
    MustPass { square: Square, colour: Colour },
    #[error("a zero-length move is only made by an active tower that cannot move, and the tower on {0} can move")]
    NotBlocked(Square),
    #[error("{to} is not straight or diagonally forward from {from} for {turn}")]
    NotForward {
        from: Square,
        to: Square,
        turn: Side,
    },
    #[error("the tower on {from} is a {}, which moves at most {} square(s), and {to} is {distance} away", rank::name(*rank), rank::max_distance(*rank))]
    TooFar {
        from: Square,
        to: Square,
        distance: u8,
        rank: u8,
    },
    #[error("the way from {from} to {to} is blocked at {at}")]
    PathBlocked {
        from: Square,
        to: Square,
        at: Square,
    },
    #[error("{to} is occupied (only a Sumo pushes, and only the tower straight ahead of it, one square away)")]
    Occupied { to: Square },
    #[error("{to} is occupied, and the tower on {from} is a plain tower: only a Sumo can push")]
    NotASumo { from: Square, to: Square },
    #[error("the push from {from} would move the pusher's own tower on {at}: only the opponent's towers can be pushed")]
    PushOwnTower { from: Square, at: Square },
    #[error("the tower on {at} is a {}, and a {} on {from} pushes only towers of lower rank", rank::name(*rank), rank::name(*pusher_rank))]
    PushTooStrong {
        from: Square,
        at: Square,
        rank: u8,
        pusher_rank: u8,
    },
    #[error("the towers in front of {from} reach the board's edge at {last}: there is no empty square behind them to push them into")]
    PushAtEdge { from: Square, last: Square },
    #[error("{count} towers stand in a row in front of {from}, and a {} pushes at most {}", rank::name(*pusher_rank), rank::push_capacity(*pusher_rank))]
    PushTooMany {
        from: Square,
        count: u8,
        pusher_rank: u8,
    },
}

impl MatchPosition {
    /// Says why `m` is not legal here, or `Ok(())` if it is. A push is written as a move of
    /// one square straight ahead onto the occupied square (`c3-c4`).
    pub fn check_move(&self, m: Move) -> Result<(), IllegalMatchMove> {
        if let Some(end) = self.round_end() {
            return Err(match self.match_winner() {
                Some(winner) => IllegalMatchMove::MatchOver {
                    winner,
                    single_round: self.target() == crate::Target::Single,
                },
                None => IllegalMatchMove::RoundOver {
                    winner: end.winner,
                    reason: end.reason,
                },
            });
        }
        let (from, to) = (m.from(), m.to());
        let turn = self.turn();
        let tower = self
            .board
            .tower_at(from)
            .ok_or(IllegalMatchMove::NoTower(from))?;
        if tower.side != turn {
            return Err(IllegalMatchMove::NotYours {
                square: from,
                owner: tower.side,
                turn,
            });
        }
        if let Some(active) = self.active() {
            if tower.colour != active {
                return Err(IllegalMatchMove::WrongTower {
                    square: from,
                    colour: tower.colour,
                    turn,
                    active,
                    active_square: self
                        .board
                        .square_of(kamisado_core::Tower::new(turn, active)),
                });
            }
        }
        if self.must_pass() {
            return if m.is_zero_length() {
                Ok(())
            } else {
                Err(IllegalMatchMove::MustPass {
                    square: from,
                    colour: tower.colour,
                })
            };
        }
        if m.is_zero_length() {
            return Err(IllegalMatchMove::NotBlocked(from));
        }
        let between = attacks::between(turn, from, to).ok_or(IllegalMatchMove::NotForward {
            from,
            to,
            turn,
        })?;
        let occupied = self.board.occupied();
        let r = self.board_rank(tower);
        if occupied.contains(to) && between.is_empty() && step_forward(turn, from) == Some(to) {
            return self.check_push(turn, from, r).map(|_| ());
        }
        if m.distance() > rank::max_distance(r) {
            return Err(IllegalMatchMove::TooFar {
                from,
                to,
                distance: m.distance(),
                rank: r,
            });
        }
        let blockers = between & occupied;
        // Report the blocker nearest the moving tower.
        let nearest = match turn {
            Side::Black => blockers.first(),
            Side::White => blockers.last(),
        };
        if let Some(at) = nearest {
            return Err(IllegalMatchMove::PathBlocked { from, to, at });
        }
        if occupied.contains(to) {
            return Err(IllegalMatchMove::Occupied { to });
        }
        Ok(())
    }

    pub fn is_legal(&self, m: Move) -> bool {
        self.check_move(m).is_ok()
    }
}
