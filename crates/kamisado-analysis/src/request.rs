//! What a front end asks, read from plain text (no command-line parser): which game, and
//! the position, as the command line reads `--position`, `--moves` and `--target` (and
//! Kamon's `--layout`, `--seed`, `--after`, `--moves`), with the same one-line errors.
//! The command line, the board and the Python package read requests here, once.

use std::fmt;
use std::str::FromStr;

use kamisado_core::quote;
use kamisado_match::{MatchPosition, MatchRecord, ParseMatchPositionError, RecordError, Target};
use kamon_core::Record;

/// The three games every front end answers for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameKind {
    /// A single round of Kamisado.
    Kamisado,
    /// Kamisado match play, to a target of 3, 7 or 15 points, with Sumo towers.
    Match,
    /// The sister game Kamon.
    Kamon,
}

impl GameKind {
    pub const ALL: [GameKind; 3] = [GameKind::Kamisado, GameKind::Match, GameKind::Kamon];

    /// `kamisado`, `match` or `kamon`: the game's id in requests.
    pub const fn id(self) -> &'static str {
        match self {
            GameKind::Kamisado => "kamisado",
            GameKind::Match => "match",
            GameKind::Kamon => "kamon",
        }
    }

    /// What a selector shows.
    pub const fn name(self) -> &'static str {
        match self {
            GameKind::Kamisado => "Kamisado: single round",
            GameKind::Match => "Kamisado: match play",
            GameKind::Kamon => "Kamon",
        }
    }
}

/// As its id, in every answer.
impl serde::Serialize for GameKind {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.id())
    }
}

impl fmt::Display for GameKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

impl FromStr for GameKind {
    type Err = RequestError;

    fn from_str(text: &str) -> Result<GameKind, RequestError> {
        GameKind::ALL
            .into_iter()
            .find(|g| g.id() == text)
            .ok_or_else(|| RequestError::NotAGame(text.to_owned()))
    }
}

/// Why a request cannot be answered: one line, with its cause kept as the source.
#[derive(Debug, thiserror::Error)]
pub enum RequestError {
    #[error("game `{0}` is not a game: expected kamisado, match or kamon")]
    NotAGame(String),
    #[error("--position: {0}")]
    Position(#[source] ParseMatchPositionError),
    #[error("--moves: {}", .error.text(*.in_match))]
    Moves {
        #[source]
        error: RecordError,
        in_match: bool,
    },
    #[error("--layout: {0}")]
    Layout(#[source] kamon_core::ParseLayoutError),
    #[error("--moves: {0}")]
    Placements(#[source] kamon_core::notation::MoveListError),
    #[error(
        "seed {seed}: no random game reaches {after} placements without ending (1000 attempts)"
    )]
    NoRandomGame { seed: u64, after: u32 },
    /// Parameters that do not go together, or a number out of its range.
    #[error("{0}")]
    Invalid(String),
    /// A database file (named as given) that cannot be opened or fails its check.
    #[error("{path}: {error}")]
    Database {
        path: String,
        #[source]
        error: kamisado_db::DbError,
    },
}

fn invalid(message: impl Into<String>) -> RequestError {
    RequestError::Invalid(message.into())
}

/// A Kamisado line: where it starts, the record played from there, the position reached.
#[derive(Clone, Debug)]
pub struct Line {
    /// The position given, or the start of a round (of a match to the target).
    pub start: MatchPosition,
    /// The moves of positive length and the refill choices played from `start`.
    pub record: MatchRecord,
    /// The position they reach: without moves the one given, pending zero-length moves
    /// and all; after moves, the zero-length moves after the last one still pending.
    pub given: MatchPosition,
}

impl Line {
    /// Reads `position` (a position text, else the start of a match to `target` points, a
    /// single round by default) and `moves` played from it, as the command line reads
    /// `--position`, `--target` and `--moves`.
    pub fn read(
        position: Option<&str>,
        moves: Option<&str>,
        target: Option<Target>,
    ) -> Result<Line, RequestError> {
        let start = match position {
            None => MatchPosition::start(target.unwrap_or(Target::Single)),
            Some(text) => text.parse().map_err(RequestError::Position)?,
        };
        let record = match moves {
            None => MatchRecord::new(start),
            Some(moves) => {
                MatchRecord::parse(start, moves).map_err(|error| RequestError::Moves {
                    error,
                    in_match: start.target() != Target::Single,
                })?
            }
        };
        let given = if moves.is_some() {
            record.current()
        } else {
            start
        };
        Ok(Line {
            start,
            record,
            given,
        })
    }

    /// Whether the line is of a match (a target above one point).
    pub fn is_match(&self) -> bool {
        self.start.target() != Target::Single
    }
}

/// The target a match request gets when it names none (and gives no position): Standard.
pub const DEFAULT_TARGET: Target = Target::Standard;

/// The placements `after` allows: a random opening cannot fill the board.
pub const MOST_AFTER: u32 = 35;

/// A request of any game, read and checked.
#[derive(Clone, Debug)]
pub enum Request {
    /// A single round (`game` is [`GameKind::Kamisado`]) or match play.
    Kamisado {
        game: GameKind,
        line: Line,
    },
    Kamon(Box<Record>),
}

/// The text fields of a request, absent when not given (an empty value counts as absent,
/// as a form sends them).
#[derive(Clone, Debug, Default)]
pub struct RequestText<'a> {
    pub game: Option<&'a str>,
    pub position: Option<&'a str>,
    pub moves: Option<&'a str>,
    /// Match play: the points of a match from the standard start (3, 7 or 15).
    pub target: Option<&'a str>,
    /// Kamon: the layout text, or the seed of a random layout and its random placements.
    pub layout: Option<&'a str>,
    pub seed: Option<&'a str>,
    pub after: Option<&'a str>,
}

impl Request {
    /// Reads a request of any game (Kamisado by default). A single round refuses match
    /// positions and match play refuses single rounds; each game refuses the other
    /// games' fields.
    pub fn read(text: &RequestText) -> Result<Request, RequestError> {
        let game: GameKind = given(text.game).unwrap_or("kamisado").parse()?;
        let (position, moves, target) =
            (given(text.position), given(text.moves), given(text.target));
        let (layout, seed, after) = (given(text.layout), given(text.seed), given(text.after));
        if game == GameKind::Kamon {
            if position.is_some() {
                return Err(invalid(
                    "position= is a Kamisado position; a Kamon game is layout=TEXT or seed=N, then moves=",
                ));
            }
            if target.is_some() {
                return Err(invalid(
                    "target= is for game=match; a Kamon game is layout=TEXT or seed=N, then moves=",
                ));
            }
            return Ok(Request::Kamon(Box::new(read_kamon(
                layout, seed, after, moves,
            )?)));
        }
        if layout.is_some() || seed.is_some() || after.is_some() {
            return Err(invalid(format!(
                "layout=, seed= and after= are for game=kamon, not game={game}"
            )));
        }
        let is_match = game == GameKind::Match;
        let target = match (target, is_match) {
            (None, _) => None,
            (Some(_), false) => {
                return Err(invalid(format!(
                    "target= is for game=match, not game={game}"
                )))
            }
            (Some(_), true) if position.is_some() => return Err(invalid(
                "target= starts a match from the standard start; a position text gives its own target (its fourth field)",
            )),
            (Some(text), true) => match text.trim().parse::<Target>() {
                Ok(t) if t != Target::Single => Some(t),
                _ => {
                    return Err(invalid(format!(
                        "target={}: expected the points of a match: 3 (Standard), 7 (Long) or 15 (Marathon)",
                        quote(text.trim())
                    )))
                }
            },
        };
        let target = if is_match && position.is_none() {
            Some(target.unwrap_or(DEFAULT_TARGET))
        } else {
            target
        };
        let line = Line::read(position, moves, target)?;
        if !is_match && line.is_match() {
            return Err(invalid(format!(
                "a match position (a target, or Sumos) is played with game=match; game={game} is the single round"
            )));
        }
        if is_match && !line.is_match() {
            return Err(invalid(
                "position=: a single round's position (no target, or target 1): match play is to 3, 7 or 15 points; a single round is played with game=kamisado",
            ));
        }
        Ok(Request::Kamisado { game, line })
    }

    pub fn game(&self) -> GameKind {
        match self {
            Request::Kamisado { game, .. } => *game,
            Request::Kamon(_) => GameKind::Kamon,
        }
    }
}

/// `v` unless it is empty (as a form sends what is not filled in).
fn given(v: Option<&str>) -> Option<&str> {
    v.filter(|v| !v.trim().is_empty())
}

/// A Kamon game from text: `seed` and `after` as numbers, then [`kamon_record`].
pub fn read_kamon(
    layout: Option<&str>,
    seed: Option<&str>,
    after: Option<&str>,
    moves: Option<&str>,
) -> Result<Record, RequestError> {
    if layout.is_some() && seed.is_some() {
        return Err(invalid(
            "give --layout TEXT or --seed N, not both: a seed names its own layout",
        ));
    }
    let seed = seed
        .map(|text| {
            text.trim().parse::<u64>().map_err(|_| {
                invalid(format!(
                    "--seed: `{}` is not a seed: expected a number from 0 to {}",
                    quote(text),
                    u64::MAX
                ))
            })
        })
        .transpose()?;
    let after = after
        .map(|text| match text.trim().parse::<u32>() {
            Ok(k) if k <= MOST_AFTER => Ok(k),
            _ => Err(invalid(format!(
                "--after: `{}` is not a number of random placements: expected 0 to {MOST_AFTER}",
                quote(text)
            ))),
        })
        .transpose()?;
    kamon_record(layout, seed, after, moves)
}

/// The Kamon game `kamisado kamon` commands describe by `--layout` (or the random layout
/// of `--seed`, after its `--after` random placements), then `--moves`.
pub fn kamon_record(
    layout: Option<&str>,
    seed: Option<u64>,
    after: Option<u32>,
    moves: Option<&str>,
) -> Result<Record, RequestError> {
    if after.is_some() && seed.is_none() {
        return Err(invalid(
            "--after plays the random placements of a seed: give --seed N with it",
        ));
    }
    let mut record = match (layout, seed) {
        (Some(text), _) => Record::new(text.trim().parse().map_err(RequestError::Layout)?),
        (None, Some(seed)) => random_record(seed, after.unwrap_or(0))?,
        (None, None) => return Err(invalid("give --layout TEXT or --seed N")),
    };
    if let Some(moves) = moves {
        record.play_text(moves).map_err(RequestError::Placements)?;
    }
    Ok(record)
}

/// The layout of `seed` after its `after` random placements.
pub fn random_record(seed: u64, after: u32) -> Result<Record, RequestError> {
    Record::random(seed, after).ok_or(RequestError::NoRandomGame { seed, after })
}

#[cfg(test)]
mod tests {
    use super::*;
    use kamisado_match::Refill;

    fn read(fields: &[(&str, &str)]) -> Result<Request, RequestError> {
        let get = |k: &str| fields.iter().find(|f| f.0 == k).map(|f| f.1);
        Request::read(&RequestText {
            game: get("game"),
            position: get("position"),
            moves: get("moves"),
            target: get("target"),
            layout: get("layout"),
            seed: get("seed"),
            after: get("after"),
        })
    }

    fn message(fields: &[(&str, &str)]) -> String {
        read(fields).unwrap_err().to_string()
    }

    #[test]
    fn games_are_named_by_their_ids() {
        for game in GameKind::ALL {
            assert_eq!(game.id().parse::<GameKind>().unwrap(), game);
            assert_eq!(serde_json::to_value(game).unwrap(), game.id());
        }
        assert_eq!(
            "chess".parse::<GameKind>().unwrap_err().to_string(),
            "game `chess` is not a game: expected kamisado, match or kamon"
        );
        // No game named, or an empty field: a single round of Kamisado.
        for fields in [&[][..], &[("game", " ")][..]] {
            assert_eq!(read(fields).unwrap().game(), GameKind::Kamisado);
        }
    }

    #[test]
    fn a_line_is_the_record_played_from_its_start() {
        let moves = "a1-a5 d8-d3";
        let line = Line::read(None, Some(moves), None).unwrap();
        assert_eq!(line.start, MatchPosition::start(Target::Single));
        let record = MatchRecord::parse(line.start, moves).unwrap();
        assert_eq!(line.given, record.current());
        assert_eq!(line.record.rounds().len(), record.rounds().len());
        assert!(!line.is_match());

        // Without moves the position given stays as given.
        let text = line.given.to_string();
        let again = Line::read(Some(&text), None, None).unwrap();
        assert_eq!(again.given, line.given);
        assert_eq!(again.start, line.given);
    }

    #[test]
    fn match_play_starts_at_the_standard_target_and_refuses_single_rounds() {
        let Request::Kamisado { game, line } = read(&[("game", "match")]).unwrap() else {
            panic!("a Kamisado request")
        };
        assert_eq!(game, GameKind::Match);
        assert_eq!(line.start, MatchPosition::start(DEFAULT_TARGET));
        let Request::Kamisado { line, .. } = read(&[("game", "match"), ("target", "7")]).unwrap()
        else {
            panic!("a Kamisado request")
        };
        assert_eq!(line.start.target(), Target::Long);
        assert!(message(&[("game", "match"), ("target", "1")])
            .starts_with("target=1: expected the points of a match"));
        assert!(message(&[("target", "3")]).starts_with("target= is for game=match"));
        let single = MatchPosition::start(Target::Single).to_string();
        assert!(message(&[("game", "match"), ("position", &single)])
            .contains("a single round is played with game=kamisado"));
        let of_match = MatchPosition::start(Target::Standard).to_string();
        assert!(message(&[("position", &of_match)]).contains("is played with game=match"));
    }

    #[test]
    fn bad_moves_say_which_and_why_and_keep_their_cause() {
        let e = Line::read(None, Some("a1-a5 zz"), None).unwrap_err();
        assert!(matches!(e, RequestError::Moves { .. }));
        assert!(std::error::Error::source(&e).is_some(), "the cause is kept");
        assert!(e.to_string().starts_with("--moves: move 2"), "{e}");
        assert!(!e.to_string().contains('\n'));
        // In a match the round is named; a refill word needs a finished round.
        let e = Line::read(None, Some(Refill::Left.word()), Some(Target::Standard)).unwrap_err();
        assert!(e.to_string().starts_with("--moves: round 1, move 1"), "{e}");
        let e = Line::read(Some("not a position"), None, None).unwrap_err();
        assert!(e.to_string().starts_with("--position: "), "{e}");
    }

    #[test]
    fn kamon_requests_read_as_the_kamon_commands_read_them() {
        let Request::Kamon(record) =
            read(&[("game", "kamon"), ("seed", "1"), ("after", "3")]).unwrap()
        else {
            panic!("a Kamon request")
        };
        assert_eq!(*record, Record::random(1, 3).unwrap());
        let layout = Record::random(1, 0).unwrap().layout().to_string();
        let Request::Kamon(with_moves) =
            read(&[("game", "kamon"), ("layout", &layout), ("moves", "b1")]).unwrap()
        else {
            panic!("a Kamon request")
        };
        assert_eq!(with_moves.moves().len(), 1);
        for (fields, start) in [
            (&[("game", "kamon")][..], "give --layout TEXT or --seed N"),
            (
                &[("game", "kamon"), ("seed", "x")][..],
                "--seed: `x` is not a seed",
            ),
            (
                &[("game", "kamon"), ("seed", "1"), ("after", "36")][..],
                "--after: `36`",
            ),
            (
                &[("game", "kamon"), ("layout", "nonsense")][..],
                "--layout: ",
            ),
            (
                &[("game", "kamon"), ("position", "x")][..],
                "position= is a Kamisado position",
            ),
            (
                &[("seed", "1")][..],
                "layout=, seed= and after= are for game=kamon",
            ),
            (
                &[("game", "kamon"), ("layout", &layout), ("seed", "1")][..],
                "give --layout TEXT or --seed N, not both",
            ),
        ] {
            let got = message(fields);
            assert!(got.starts_with(start), "{fields:?}: {got}");
        }
        assert!(matches!(
            kamon_record(None, None, Some(2), None).unwrap_err(),
            RequestError::Invalid(_)
        ));
    }
}
