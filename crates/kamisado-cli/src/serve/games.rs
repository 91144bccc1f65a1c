//! The games the board knows, for its selector: single-round Kamisado, match play and
//! Kamon.

use kamisado_analysis::GameKind;
use kamisado_core::{Colour, Position, Square};
use kamisado_match::{MatchPosition, Target};
use serde::Serialize;

/// The game a request names when it names none.
const DEFAULT: GameKind = GameKind::Kamisado;

#[derive(Serialize)]
pub struct Game {
    id: GameKind,
    name: &'static str,
    /// Whether `/api/query` answers for it yet.
    available: bool,
    /// The start position's text.
    #[serde(skip_serializing_if = "Option::is_none")]
    start: Option<String>,
    /// The colour letter of every square, rank 8 first, file a to h: the board the page
    /// draws (its rules live on the server only).
    #[serde(skip_serializing_if = "Option::is_none")]
    squares: Option<Vec<String>>,
    /// The query the page asks first when the game is chosen (a game with no single
    /// start: Kamon's layouts are random).
    #[serde(skip_serializing_if = "Option::is_none")]
    first_query: Option<&'static str>,
    /// Match play: the targets offered, the first the default.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    targets: Vec<TargetJson>,
}

/// A match target for the selector: its points, name and start position.
#[derive(Serialize)]
struct TargetJson {
    points: u32,
    name: &'static str,
    start: String,
}

fn match_targets() -> Vec<TargetJson> {
    [Target::Standard, Target::Long, Target::Marathon]
        .into_iter()
        .map(|t| TargetJson {
            points: t.points(),
            name: t.name(),
            start: MatchPosition::start(t).to_string(),
        })
        .collect()
}

#[derive(Serialize)]
pub struct Games {
    default: GameKind,
    games: Vec<Game>,
}

fn square_colours() -> Vec<String> {
    (0..8)
        .rev()
        .map(|rank| {
            (0..8)
                .map(|file| Colour::of_square(Square::from_coords(file, rank)).char())
                .collect()
        })
        .collect()
}

pub fn all() -> Games {
    Games {
        default: DEFAULT,
        games: vec![
            Game {
                id: GameKind::Kamisado,
                name: GameKind::Kamisado.name(),
                available: true,
                start: Some(Position::start().to_string()),
                squares: Some(square_colours()),
                first_query: None,
                targets: Vec::new(),
            },
            Game {
                id: GameKind::Match,
                name: GameKind::Match.name(),
                available: true,
                start: Some(MatchPosition::start(Target::Standard).to_string()),
                squares: Some(square_colours()),
                first_query: None,
                targets: match_targets(),
            },
            Game {
                id: GameKind::Kamon,
                name: GameKind::Kamon.name(),
                available: true,
                start: None,
                squares: None,
                // A late position of a random layout, solved at once; the empty board
                // of a layout is not solvable within a request's time limit.
                first_query: Some("seed=1&after=14"),
                targets: Vec::new(),
            },
        ],
    }
}
