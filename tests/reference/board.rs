//! Board geometry: the two sides, the eight colours, towers, squares and the fixed colour
//! pattern of the 64 squares (copied by hand from the table in RULES.md).

/// One of the two players. Black moves first and starts on rank 1; White starts on rank 8.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Side {
    /// The player whose home row is rank 1 and who opens the game.
    Black,
    /// The player whose home row is rank 8 (called Gold in some texts).
    White,
}

impl Side {
    /// The other player.
    pub fn opponent(self) -> Side {
        match self {
            Side::Black => Side::White,
            Side::White => Side::Black,
        }
    }

    /// How the rank changes with one forward step: Black moves up the board (towards
    /// rank 8), White moves down (towards rank 1).
    pub fn forward_step(self) -> i32 {
        match self {
            Side::Black => 1,
            Side::White => -1,
        }
    }

    /// Zero-based rank index of the opponent's home row, where this side's towers win
    /// (Black wins on rank 8 = index 7, White on rank 1 = index 0).
    pub fn goal_rank_index(self) -> usize {
        match self {
            Side::Black => 7,
            Side::White => 0,
        }
    }

    /// The letter used for this side in position text: `b` or `w`.
    pub fn code(self) -> char {
        match self {
            Side::Black => 'b',
            Side::White => 'w',
        }
    }
}

/// The eight colours of squares and towers.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Colour {
    /// Code `o`.
    Orange,
    /// Code `b`.
    Blue,
    /// Code `u`.
    Purple,
    /// Code `p`.
    Pink,
    /// Code `y`.
    Yellow,
    /// Code `r`.
    Red,
    /// Code `g`.
    Green,
    /// Code `n`.
    Brown,
}

impl Colour {
    /// All eight colours, in the order of White's home row a8..h8.
    pub const ALL: [Colour; 8] = [
        Colour::Orange,
        Colour::Blue,
        Colour::Purple,
        Colour::Pink,
        Colour::Yellow,
        Colour::Red,
        Colour::Green,
        Colour::Brown,
    ];

    /// The lowercase one-letter code of the colour.
    pub fn code(self) -> char {
        match self {
            Colour::Orange => 'o',
            Colour::Blue => 'b',
            Colour::Purple => 'u',
            Colour::Pink => 'p',
            Colour::Yellow => 'y',
            Colour::Red => 'r',
            Colour::Green => 'g',
            Colour::Brown => 'n',
        }
    }

    /// The colour whose lowercase code is `c`, if any (uppercase letters are not accepted
    /// here; callers lowercase first when they want to).
    pub fn from_code(c: char) -> Option<Colour> {
        Colour::ALL
            .iter()
            .copied()
            .find(|colour| colour.code() == c)
    }
}

/// A tower: which player owns it and which colour it has.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub struct Tower {
    /// The owner.
    pub side: Side,
    /// The tower's own colour (not the colour of the square it stands on).
    pub colour: Colour,
}

impl Tower {
    /// The letter used in position text: the colour code, uppercase for Black, lowercase
    /// for White.
    pub fn letter(self) -> char {
        match self.side {
            Side::Black => self.colour.code().to_ascii_uppercase(),
            Side::White => self.colour.code(),
        }
    }

    /// The tower written by `letter` in position text, if the letter is one of the
    /// sixteen tower letters.
    pub fn from_letter(letter: char) -> Option<Tower> {
        // Only ASCII letters can be tower letters; checking first keeps the case test exact.
        if !letter.is_ascii_alphabetic() {
            return None;
        }
        let side = if letter.is_ascii_uppercase() {
            Side::Black
        } else {
            Side::White
        };
        let colour = Colour::from_code(letter.to_ascii_lowercase())?;
        Some(Tower { side, colour })
    }
}

/// A square of the board, zero-based: `file` 0 = a .. 7 = h, `rank` 0 = rank 1 .. 7 = rank 8.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub struct Square {
    /// 0 = file a, ..., 7 = file h.
    pub file: usize,
    /// 0 = rank 1, ..., 7 = rank 8.
    pub rank: usize,
}

/// The colour table of RULES.md, written in the same order as there (rank 8 first, files a..h)
/// so it can be compared line by line with the rules page.
const COLOUR_TABLE_RANK8_FIRST: [[Colour; 8]; 8] = {
    use Colour::*;
    [
        [Orange, Blue, Purple, Pink, Yellow, Red, Green, Brown], // rank 8
        [Red, Orange, Pink, Green, Blue, Yellow, Brown, Purple], // rank 7
        [Green, Pink, Orange, Red, Purple, Brown, Yellow, Blue], // rank 6
        [Pink, Purple, Blue, Orange, Brown, Green, Red, Yellow], // rank 5
        [Yellow, Red, Green, Brown, Orange, Blue, Purple, Pink], // rank 4
        [Blue, Yellow, Brown, Purple, Red, Orange, Pink, Green], // rank 3
        [Purple, Brown, Yellow, Blue, Green, Pink, Orange, Red], // rank 2
        [Brown, Green, Red, Yellow, Pink, Purple, Blue, Orange], // rank 1
    ]
};

impl Square {
    /// The square on `file` (0 = a) and `rank` (0 = rank 1). Both must be below 8.
    pub fn new(file: usize, rank: usize) -> Square {
        debug_assert!(file < 8 && rank < 8, "square off the board");
        Square { file, rank }
    }

    /// All 64 squares in the order a1, b1, ..., h1, a2, ..., h8.
    pub fn all() -> Vec<Square> {
        let mut squares = Vec::new();
        for rank in 0..8 {
            for file in 0..8 {
                squares.push(Square::new(file, rank));
            }
        }
        squares
    }

    /// The square's name, e.g. `a1` or `h8`.
    pub fn name(self) -> String {
        let file_letter = (b'a' + self.file as u8) as char;
        let rank_digit = (b'1' + self.rank as u8) as char;
        format!("{file_letter}{rank_digit}")
    }

    /// Reads a square name such as `e4`; `None` for anything else.
    pub fn parse(text: &str) -> Option<Square> {
        let chars: Vec<char> = text.chars().collect();
        if chars.len() != 2 {
            return None;
        }
        let file = match chars[0] {
            c @ 'a'..='h' => c as usize - 'a' as usize,
            _ => return None,
        };
        let rank = match chars[1] {
            c @ '1'..='8' => c as usize - '1' as usize,
            _ => return None,
        };
        Some(Square::new(file, rank))
    }

    /// The colour of this square according to the RULES.md table.
    pub fn colour(self) -> Colour {
        COLOUR_TABLE_RANK8_FIRST[7 - self.rank][self.file]
    }

    /// The square `dfile` files to the right and `drank` ranks up, or `None` if that is off
    /// the board.
    pub fn offset(self, dfile: i32, drank: i32) -> Option<Square> {
        let file = self.file as i32 + dfile;
        let rank = self.rank as i32 + drank;
        if (0..8).contains(&file) && (0..8).contains(&rank) {
            Some(Square::new(file as usize, rank as usize))
        } else {
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_colour_once_per_rank_and_file() {
        for colour in Colour::ALL {
            for line in 0..8 {
                let in_rank = (0..8)
                    .filter(|&f| Square::new(f, line).colour() == colour)
                    .count();
                let in_file = (0..8)
                    .filter(|&r| Square::new(line, r).colour() == colour)
                    .count();
                assert_eq!(in_rank, 1);
                assert_eq!(in_file, 1);
            }
        }
    }

    #[test]
    fn diagonals_and_a_few_squares() {
        for i in 0..8 {
            assert_eq!(Square::new(i, i).colour(), Colour::Brown); // a1-h8
            assert_eq!(Square::new(7 - i, i).colour(), Colour::Orange); // h1-a8
        }
        let sq = |t: &str| Square::parse(t).unwrap();
        assert_eq!(sq("a1").colour(), Colour::Brown);
        assert_eq!(sq("h1").colour(), Colour::Orange);
        assert_eq!(sq("a8").colour(), Colour::Orange);
        assert_eq!(sq("h8").colour(), Colour::Brown);
        assert_eq!(sq("d6").colour(), Colour::Red);
        assert_eq!(sq("c7").colour(), Colour::Pink);
        assert_eq!(sq("e3").colour(), Colour::Red);
        assert_eq!(sq("g5").colour(), Colour::Red);
    }

    #[test]
    fn half_turn_keeps_colours_and_mirror_swaps_pairs() {
        let mirror = |c: Colour| match c {
            Colour::Orange => Colour::Brown,
            Colour::Brown => Colour::Orange,
            Colour::Blue => Colour::Green,
            Colour::Green => Colour::Blue,
            Colour::Purple => Colour::Red,
            Colour::Red => Colour::Purple,
            Colour::Pink => Colour::Yellow,
            Colour::Yellow => Colour::Pink,
        };
        for sq in Square::all() {
            let turned = Square::new(7 - sq.file, 7 - sq.rank);
            assert_eq!(sq.colour(), turned.colour());
            let mirrored = Square::new(7 - sq.file, sq.rank);
            assert_eq!(mirror(sq.colour()), mirrored.colour());
        }
    }

    #[test]
    fn square_names_round_trip() {
        for sq in Square::all() {
            assert_eq!(Square::parse(&sq.name()), Some(sq));
        }
        for bad in ["", "a", "a0", "a9", "i1", "A1", "a10", "é1", "1a"] {
            assert_eq!(Square::parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn tower_letters_round_trip() {
        for colour in Colour::ALL {
            for side in [Side::Black, Side::White] {
                let tower = Tower { side, colour };
                assert_eq!(Tower::from_letter(tower.letter()), Some(tower));
            }
        }
        for bad in ['x', 'X', '1', '-', 'ß', 'Ö'] {
            assert_eq!(Tower::from_letter(bad), None);
        }
    }
}
