//! The games the board knows, for its selector: single-round Kamisado is served; match
//! play and Kamon are listed so that the page and the API already have their place.

use kamisado_core::{Colour, Position, Square};
use serde::Serialize;

/// The game a request names when it names none.
pub const DEFAULT: &str = "kamisado";

#[derive(Serialize)]
pub struct Game {
    id: &'static str,
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
}

#[derive(Serialize)]
pub struct Games {
    default: &'static str,
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
                id: "kamisado",
                name: "Kamisado: single round",
                available: true,
                start: Some(Position::start().to_string()),
                squares: Some(square_colours()),
            },
            Game {
                id: "match",
                name: "Kamisado: match play",
                available: false,
                start: None,
                squares: None,
            },
            Game {
                id: "kamon",
                name: "Kamon",
                available: false,
                start: None,
                squares: None,
            },
        ],
    }
}

/// The id of the game `requested` names if the server answers for it, else why not.
pub fn served(requested: Option<&str>) -> Result<&'static str, String> {
    let id = requested.unwrap_or(DEFAULT);
    match all().games.into_iter().find(|g| g.id == id) {
        Some(g) if g.available => Ok(g.id),
        Some(g) => Err(format!(
            "game `{id}` ({}) is not served yet; this server answers for `{DEFAULT}`",
            g.name
        )),
        None => Err(format!(
            "game `{id}` is not a game: expected kamisado, match or kamon"
        )),
    }
}
