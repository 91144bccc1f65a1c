//! KEI, the Kamisado Engine Interface: the line-based protocol between a referee (or a
//! GUI) and an engine, modelled on UCI. `PROTOCOL.md` beside this crate's `Cargo.toml`
//! is the specification for engine authors; this module is its parser and printer.
//!
//! Referee to engine: `kei`, `keinewgame`, `position startpos [moves ...]`,
//! `position <board> <side> <active> [<target>] [moves ...]`, `go [movetime <ms>]`,
//! `quit`. Engine to referee: `id name ...`, `id author ...`, `keiok`, `bestmove <move>`,
//! `bestmove left` / `bestmove right` (a refill choice between the rounds of a match) or
//! `bestmove (none)`, `info ...`.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use kamisado_core::{quote, Move, ParseMoveError};

use crate::record::RecordError;
use kamisado_match::{MatchPosition, MatchRecord, ParseMatchPositionError, Refill, Target};

/// The longest line either side needs to accept: a position with 97 moves is about
/// 650 bytes (a Marathon's record a few KiB). A longer line from an engine is garbage,
/// and reading stops there.
pub const MAX_LINE_BYTES: usize = 64 * 1024;

/// What a player does on its turn in a match record: a move, or, between rounds, the
/// round winner's refill choice.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    Move(Move),
    Refill(Refill),
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Move(m) => m.fmt(f),
            Action::Refill(r) => r.fmt(f),
        }
    }
}

impl FromStr for Action {
    type Err = ParseMoveError;

    /// `left`, `right`, or a move like `a1-a5`; a word that is neither is reported as the
    /// move it is not.
    fn from_str(text: &str) -> Result<Action, ParseMoveError> {
        match text.parse::<Refill>() {
            Ok(r) => Ok(Action::Refill(r)),
            Err(_) => text.parse().map(Action::Move),
        }
    }
}

impl From<Move> for Action {
    fn from(m: Move) -> Action {
        Action::Move(m)
    }
}

impl From<Refill> for Action {
    fn from(r: Refill) -> Action {
        Action::Refill(r)
    }
}

/// The text of a list of actions, separated by spaces.
pub fn actions_text(actions: &[Action]) -> String {
    let words: Vec<String> = actions.iter().map(Action::to_string).collect();
    words.join(" ")
}

/// A position and what was played from it: the argument of `position`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionSpec {
    /// Where the moves start, as given: pending zero-length moves not yet played.
    pub start: MatchPosition,
    /// Whether `start` is written `startpos` (the single-round start) or as text.
    pub startpos: bool,
    /// Moves of positive length (the zero-length moves between them are implied) and,
    /// after a round-ending move in a match, the winner's refill choice.
    pub actions: Vec<Action>,
}

/// Why the argument of `position` (or the `position ...` head of a game record) is not a
/// position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SpecError {
    #[error("`position` needs `startpos` or a position text `<board> <side> <active> [<target>]`")]
    Missing,
    #[error("position text: {0}")]
    Position(#[from] ParseMatchPositionError),
    #[error("unexpected `{}` after the position: expected `moves` or the end of the line", quote(.token))]
    Unexpected { token: String },
    #[error("move {number}: {error}")]
    Move {
        number: usize,
        error: ParseMoveError,
    },
}

/// The parts of a `position` argument: the start, whether it was `startpos`, and the text
/// after `moves` (possibly empty), left unparsed so that a game record can report a bad
/// move by its number.
pub fn split_position_args(args: &str) -> Result<(MatchPosition, bool, &str), SpecError> {
    let args = args.trim();
    let (head, moves) = match find_word(args, "moves") {
        Some(at) => (&args[..at], &args[at + "moves".len()..]),
        None => (args, ""),
    };
    let fields: Vec<&str> = head.split_whitespace().collect();
    let unexpected = |token: &str| SpecError::Unexpected {
        token: token.to_owned(),
    };
    match fields.as_slice() {
        [] => Err(SpecError::Missing),
        ["startpos", rest @ ..] => match rest.first() {
            Some(token) => Err(unexpected(token)),
            None => Ok((MatchPosition::start(Target::Single), true, moves.trim())),
        },
        [board, side, active, rest @ ..] => {
            // A fourth field is the match target if it reads as one.
            let (target, rest) = match rest {
                [target, rest @ ..] if target.parse::<Target>().is_ok() => (Some(*target), rest),
                rest => (None, rest),
            };
            if let Some(token) = rest.first() {
                return Err(unexpected(token));
            }
            let text = match target {
                Some(target) => format!("{board} {side} {active} {target}"),
                None => format!("{board} {side} {active}"),
            };
            let start: MatchPosition = text.parse()?;
            Ok((start, false, moves.trim()))
        }
        short => Err(ParseMatchPositionError::Fields { found: short.len() }.into()),
    }
}

/// The byte offset of `word` as a whole whitespace-separated word in `text`.
fn find_word(text: &str, word: &str) -> Option<usize> {
    let mut offset = 0;
    for piece in text.split_inclusive(char::is_whitespace) {
        if piece.trim_end() == word {
            return Some(offset);
        }
        offset += piece.len();
    }
    None
}

impl PositionSpec {
    /// `startpos` if `start` is the single-round start, else the position text.
    pub fn new(start: MatchPosition, actions: Vec<Action>) -> PositionSpec {
        PositionSpec {
            startpos: start == MatchPosition::start(Target::Single),
            start,
            actions,
        }
    }

    /// Parses the argument of `position`: `startpos [moves ...]` or
    /// `<board> <side> <active> [<target>] [moves ...]`.
    pub fn parse(args: &str) -> Result<PositionSpec, SpecError> {
        let (start, startpos, moves) = split_position_args(args)?;
        let actions = moves
            .split_whitespace()
            .enumerate()
            .map(|(i, token)| {
                token.parse().map_err(|error| SpecError::Move {
                    number: i + 1,
                    error,
                })
            })
            .collect::<Result<_, _>>()?;
        Ok(PositionSpec {
            start,
            startpos,
            actions,
        })
    }

    /// The record the actions make from the start: every round, and where they lead
    /// (after the zero-length moves that follow the last move).
    pub fn play(&self) -> Result<MatchRecord, RecordError> {
        MatchRecord::parse(self.start, &actions_text(&self.actions))
            .map_err(|e| RecordError::of_record(e, &self.start))
    }
}

impl fmt::Display for PositionSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.startpos {
            f.write_str("startpos")?;
        } else {
            write!(f, "{}", self.start)?;
        }
        if !self.actions.is_empty() {
            write!(f, " moves {}", actions_text(&self.actions))?;
        }
        Ok(())
    }
}

/// A line from the referee to the engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `kei`: identify yourself and answer `keiok`.
    Kei,
    /// `keinewgame`: the next position belongs to a new game (a hint; may be ignored).
    NewGame,
    /// `position ...`: the position to think about at the next `go`.
    Position(PositionSpec),
    /// `go [movetime <ms>]`: answer `bestmove`; `movetime` is the time the referee allows.
    Go { movetime: Option<Duration> },
    /// `quit`: exit.
    Quit,
}

/// Why a line that names a KEI command is not that command.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CommandError {
    #[error("position: {0}")]
    Position(#[from] SpecError),
}

impl Command {
    /// The command on a line. `Ok(None)` for an empty line and for a first word KEI does
    /// not define: engines ignore those, so that the protocol can grow.
    pub fn parse(line: &str) -> Result<Option<Command>, CommandError> {
        let line = line.trim();
        let (word, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        Ok(Some(match word {
            "kei" => Command::Kei,
            "keinewgame" => Command::NewGame,
            "position" => Command::Position(PositionSpec::parse(rest)?),
            "go" => Command::Go {
                movetime: go_movetime(rest).unwrap_or(None),
            },
            "quit" => Command::Quit,
            _ => return Ok(None),
        }))
    }
}

/// The longest `movetime` taken as a time limit, in milliseconds (about 31 years); a
/// longer one is no limit at all (and a deadline that far would overflow the clock).
pub const LONGEST_MOVETIME_MS: u64 = 1_000_000_000_000;

/// The `movetime` among the arguments of `go`: `Ok(None)` without one. Arguments other
/// than `movetime <ms>` are for later versions and ignored. A `movetime` whose value is
/// not a whole number of milliseconds (`-5`, `nan`, missing) is an error naming it: an
/// engine ignores it, and says so, rather than guess. A whole number past
/// [`LONGEST_MOVETIME_MS`] (however many digits) is no time limit: longer than any search.
pub fn go_movetime(args: &str) -> Result<Option<Duration>, String> {
    let mut tokens = args.split_whitespace();
    if tokens.by_ref().all(|t| t != "movetime") {
        return Ok(None);
    }
    match tokens.next() {
        Some(ms) if !ms.is_empty() && ms.bytes().all(|b| b.is_ascii_digit()) => Ok(ms
            .parse::<u64>()
            .ok()
            .filter(|&ms| ms <= LONGEST_MOVETIME_MS)
            .map(Duration::from_millis)),
        Some(ms) => Err(format!("`movetime {}`", quote(ms))),
        None => Err("`movetime` without a value".to_owned()),
    }
}

impl fmt::Display for Command {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Command::Kei => f.write_str("kei"),
            Command::NewGame => f.write_str("keinewgame"),
            Command::Position(spec) => write!(f, "position {spec}"),
            Command::Go { movetime: None } => f.write_str("go"),
            Command::Go {
                movetime: Some(limit),
            } => write!(f, "go movetime {}", limit.as_millis()),
            Command::Quit => f.write_str("quit"),
        }
    }
}

/// A line from the engine to the referee.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reply {
    /// `id name <text>`, `id author <text>` (other fields are kept too).
    Id { field: String, value: String },
    /// `keiok`: the answer to `kei`.
    KeiOk,
    /// `bestmove <move>`, `bestmove left` / `bestmove right` (a refill choice), or
    /// `bestmove (none)` from an engine that has nothing to give.
    BestMove(Option<Action>),
    /// `info <anything>`: for people and logs; a referee ignores it.
    Info(String),
}

/// Why an engine's line is not a KEI reply.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ReplyError {
    #[error("`{}` is not a KEI reply (expected keiok, bestmove, id or info)", quote(.line))]
    Unknown { line: String },
    #[error("{error}")]
    BadMove { line: String, error: ParseMoveError },
    #[error("`{}`: bestmove without a move", quote(.line))]
    MissingMove { line: String },
}

impl Reply {
    /// The reply on a line; `Ok(None)` for an empty line, which both sides ignore.
    pub fn parse(line: &str) -> Result<Option<Reply>, ReplyError> {
        let line = line.trim();
        if line.is_empty() {
            return Ok(None);
        }
        let (word, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        let rest = rest.trim();
        Ok(Some(match word {
            "keiok" if rest.is_empty() => Reply::KeiOk,
            "id" => {
                let (field, value) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
                Reply::Id {
                    field: field.to_owned(),
                    value: value.trim().to_owned(),
                }
            }
            "info" => Reply::Info(rest.to_owned()),
            "bestmove" => {
                // Words after the move are for later versions (like UCI's `ponder`).
                match rest.split_whitespace().next() {
                    None => {
                        return Err(ReplyError::MissingMove {
                            line: line.to_owned(),
                        })
                    }
                    Some("(none)") => Reply::BestMove(None),
                    Some(token) => Reply::BestMove(Some(token.parse().map_err(|error| {
                        ReplyError::BadMove {
                            line: line.to_owned(),
                            error,
                        }
                    })?)),
                }
            }
            _ => {
                return Err(ReplyError::Unknown {
                    line: line.to_owned(),
                })
            }
        }))
    }
}

impl fmt::Display for Reply {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reply::Id { field, value } => write!(f, "id {field} {value}"),
            Reply::KeiOk => f.write_str("keiok"),
            Reply::BestMove(Some(action)) => write!(f, "bestmove {action}"),
            Reply::BestMove(None) => f.write_str("bestmove (none)"),
            Reply::Info(text) => write!(f, "info {text}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mv(text: &str) -> Move {
        text.parse().unwrap()
    }

    fn start() -> MatchPosition {
        MatchPosition::start(Target::Single)
    }

    #[test]
    fn commands_round_trip() {
        let lines = [
            "kei",
            "keinewgame",
            "position startpos",
            "position startpos moves a1-a5 d8-d3",
            "position obupyrgn/8/8/8/8/8/8/NGRYPUBO b - moves h1-h7",
            "go",
            "go movetime 1500",
            "quit",
        ];
        for line in lines {
            let command = Command::parse(line).unwrap().unwrap();
            assert_eq!(command.to_string(), line);
        }
    }

    #[test]
    fn position_text_equal_to_the_start_is_startpos() {
        let spec = PositionSpec::new(start(), vec![mv("a1-a5").into()]);
        assert_eq!(spec.to_string(), "startpos moves a1-a5");
        let parsed = PositionSpec::parse("obupyrgn/8/8/8/8/8/8/NGRYPUBO b - moves a1-a5").unwrap();
        assert_eq!(parsed.start, spec.start);
        assert!(!parsed.startpos);
    }

    #[test]
    fn commands_tolerate_spacing_and_ignore_the_unknown() {
        assert_eq!(
            Command::parse("  position   startpos   moves  a1-a5  \r").unwrap(),
            Some(Command::Position(PositionSpec::new(
                start(),
                vec![mv("a1-a5").into()]
            )))
        );
        assert_eq!(Command::parse("").unwrap(), None);
        assert_eq!(Command::parse("setoption name Hash value 1").unwrap(), None);
        assert_eq!(
            Command::parse("go wtime 100 movetime 20 depth 3").unwrap(),
            Some(Command::Go {
                movetime: Some(Duration::from_millis(20))
            })
        );
        assert_eq!(
            Command::parse("go movetime soon").unwrap(),
            Some(Command::Go { movetime: None })
        );
    }

    #[test]
    fn bad_positions_say_why() {
        let cases = [
            ("position", "needs `startpos`"),
            ("position startpos a1-a5", "unexpected `a1-a5`"),
            ("position startpos moves a1-a5 x9", "move 2"),
            ("position 8/8 b", "3"),
            (
                "position obupyrgn/8/8/8/8/8/8/NGRYPUBO b - extra",
                "unexpected `extra`",
            ),
        ];
        for (line, expected) in cases {
            let error = Command::parse(line).unwrap_err().to_string();
            assert!(error.contains(expected), "{line}: {error}");
        }
    }

    #[test]
    fn split_keeps_the_move_text() {
        let (given, startpos, moves) = split_position_args("startpos moves a1-a5 zz").unwrap();
        assert_eq!((given, startpos, moves), (start(), true, "a1-a5 zz"));
        let (_, _, none) = split_position_args("startpos").unwrap();
        assert_eq!(none, "");
    }

    #[test]
    fn replies() {
        assert_eq!(Reply::parse("keiok").unwrap(), Some(Reply::KeiOk));
        assert_eq!(Reply::parse("   ").unwrap(), None);
        assert_eq!(
            Reply::parse("bestmove a1-a5 ponder d8-d3").unwrap(),
            Some(Reply::BestMove(Some(mv("a1-a5").into())))
        );
        assert_eq!(
            Reply::parse("bestmove (none)").unwrap(),
            Some(Reply::BestMove(None))
        );
        assert_eq!(
            Reply::parse("id name Random Mover 1.0").unwrap(),
            Some(Reply::Id {
                field: "name".into(),
                value: "Random Mover 1.0".into()
            })
        );
        assert_eq!(
            Reply::parse("info value win remoteness 3").unwrap(),
            Some(Reply::Info("value win remoteness 3".into()))
        );
        for garbage in [
            "hello",
            "bestmove",
            "bestmove a9-a5",
            "keiok now",
            "BESTMOVE a1-a5",
        ] {
            assert!(Reply::parse(garbage).is_err(), "{garbage}");
        }
        for reply in [
            Reply::KeiOk,
            Reply::BestMove(None),
            Reply::BestMove(Some(mv("h8-h2").into())),
            Reply::BestMove(Some(Refill::Right.into())),
        ] {
            assert_eq!(Reply::parse(&reply.to_string()).unwrap(), Some(reply));
        }
    }

    #[test]
    fn match_positions_and_records_round_trip() {
        let lines = [
            "position obupyrgn/8/8/8/8/8/8/NGRYPUBO b - 3",
            "position obupyrgn/8/8/8/8/8/8/NGRYPUBO b - 3 moves g1-g7 h8-h6 g7-h8 left b8-b2",
            "position obupyrgn/8/8/8/8/8/8/N+GRYPUBO w - 7 moves a8-a7",
        ];
        for line in lines {
            let command = Command::parse(line).unwrap().unwrap();
            assert_eq!(command.to_string(), line);
        }
        let spec =
            PositionSpec::parse("obupyrgn/8/8/8/8/8/8/NGRYPUBO b - 3 moves g1-g7 h8-h6 g7-h8 left")
                .unwrap();
        assert_eq!(spec.actions[3], Action::Refill(Refill::Left));
        let record = spec.play().unwrap();
        assert_eq!(
            record.current().to_string(),
            "nobupyrg/8/8/8/8/8/8/NGRYPUOB+ w - 3"
        );
        // A refill word where none is due is the record's error, named by its place.
        let early = PositionSpec::parse("obupyrgn/8/8/8/8/8/8/NGRYPUBO b - 3 moves g1-g7 left")
            .unwrap()
            .play()
            .unwrap_err();
        assert!(
            early
                .to_string()
                .starts_with("round 1, move 2 `left`: a refill choice comes only"),
            "{early}"
        );
        // A fourth field that is not a target is not part of the position.
        let error = Command::parse("position obupyrgn/8/8/8/8/8/8/NGRYPUBO b - 4").unwrap_err();
        assert!(error.to_string().contains("unexpected `4`"), "{error}");
        assert_eq!(
            Reply::parse("bestmove left").unwrap(),
            Some(Reply::BestMove(Some(Action::Refill(Refill::Left))))
        );
        assert!(Reply::parse("bestmove middle").is_err());
    }
}
