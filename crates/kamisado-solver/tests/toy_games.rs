//! The generic claim, tested: games that are not Kamisado, with draws, with turns that do
//! not alternate, with keys of every width, with and without the optional hooks, solved
//! by the same search and compared with plain minimax over their whole trees.
//!
//! The minimax here is deliberately naive and shares nothing with the solver: it compares
//! (value, remoteness) pairs directly, with no scores, no table and no pruning.

use std::collections::HashMap;

use kamisado_solver::{
    Cancel, Depth, Game, Known, Options, Outcome, Player, Score, Solver, Value, WinInOne,
};

/// The perfect outcome for the side to move, by the definition: the best over the moves
/// of the mover's outcome through each (a win as fast as possible, a loss as slow as
/// possible, a draw whatever its length: every draw of these games has one length).
fn minimax<G: Game>(game: &G, pos: &G::Position, memo: &mut HashMap<G::Key, Outcome>) -> Outcome
where
    G::Key: std::hash::Hash,
{
    if let Some(value) = game.outcome(pos) {
        return Outcome::new(value, 0);
    }
    if let Some(&o) = memo.get(&game.key(pos)) {
        return o;
    }
    let mut moves = Vec::new();
    game.moves(pos, &mut moves);
    let me = game.player(pos);
    let mut best: Option<(Value, i64, u32)> = None;
    for m in moves {
        let child = game.play(pos, m);
        let c = minimax(game, &child, memo);
        let value = if game.player(&child) == me {
            c.value
        } else {
            c.value.flip()
        };
        let r = c.remoteness + 1;
        // Rank: value first, then sooner wins and later losses.
        let rank = match value {
            Value::Win => -(r as i64),
            Value::Draw => 0,
            Value::Loss => r as i64,
        };
        if best.is_none_or(|(bv, brank, _)| (value, rank) > (bv, brank)) {
            best = Some((value, rank, r));
        }
    }
    let (value, _, r) = best.expect("an unfinished position has a move");
    let o = Outcome::new(value, r);
    memo.insert(game.key(pos), o);
    o
}

// ---------------------------------------------------------------------------------------
// Tic-tac-toe: draws on a full board, symmetric keys, optional hooks on or off.

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Board {
    x: u16,
    o: u16,
}

const LINES: [u16; 8] = [0o007, 0o070, 0o700, 0o111, 0o222, 0o444, 0o421, 0o124];

impl Board {
    fn x_to_move(&self) -> bool {
        self.x.count_ones() == self.o.count_ones()
    }

    fn has_line(stones: u16) -> bool {
        LINES.iter().any(|&line| line & !stones == 0)
    }

    fn empty(&self) -> u16 {
        !(self.x | self.o) & 0o777
    }
}

/// The eight symmetries of the square, as cell permutations.
fn transform(stones: u16, t: usize) -> u16 {
    let mut out = 0;
    for cell in 0..9 {
        if stones >> cell & 1 == 1 {
            let (r, c) = (cell / 3, cell % 3);
            let (r, c) = if t & 4 != 0 { (c, r) } else { (r, c) };
            let r = if t & 1 != 0 { 2 - r } else { r };
            let c = if t & 2 != 0 { 2 - c } else { c };
            out |= 1 << (r * 3 + c);
        }
    }
    out
}

/// Tic-tac-toe with switches for every optional part of the contract.
struct TicTacToe {
    /// Answer [`Game::win_in_one`] (else keep the default, which says nothing).
    checks_wins: bool,
    /// Fold the eight symmetries into one key.
    folds_symmetry: bool,
    /// Give estimates (else keep the default).
    estimates: bool,
}

impl TicTacToe {
    fn code(&self, b: &Board) -> u64 {
        let ts: &[usize] = if self.folds_symmetry {
            &[0, 1, 2, 3, 4, 5, 6, 7]
        } else {
            &[0]
        };
        ts.iter()
            .map(|&t| (transform(b.x, t) as u64) << 9 | transform(b.o, t) as u64)
            .min()
            .unwrap()
    }
}

impl Game for TicTacToe {
    type Position = Board;
    type Move = u8;
    type Key = u64;
    const DRAWS: bool = true;

    fn outcome(&self, b: &Board) -> Option<Value> {
        // The player who just moved made a line: the side to move has lost.
        let last = if b.x_to_move() { b.o } else { b.x };
        if Board::has_line(last) {
            Some(Value::Loss)
        } else if b.empty() == 0 {
            Some(Value::Draw)
        } else {
            None
        }
    }

    fn player(&self, b: &Board) -> Player {
        if b.x_to_move() {
            Player::First
        } else {
            Player::Second
        }
    }

    fn moves(&self, b: &Board, out: &mut Vec<u8>) {
        out.clear();
        out.extend((0..9).filter(|&c| b.empty() >> c & 1 == 1));
    }

    fn play(&self, b: &Board, m: u8) -> Board {
        let mut next = *b;
        if b.x_to_move() {
            next.x |= 1 << m;
        } else {
            next.o |= 1 << m;
        }
        next
    }

    fn key(&self, b: &Board) -> u64 {
        self.code(b)
    }

    fn drawn_length(&self, b: &Board) -> u32 {
        b.empty().count_ones()
    }

    fn win_in_one(&self, b: &Board) -> WinInOne<u8> {
        if !self.checks_wins {
            return WinInOne::NotChecked;
        }
        let mine = if b.x_to_move() { b.x } else { b.o };
        (0..9)
            .filter(|&c| b.empty() >> c & 1 == 1)
            .find(|&c| Board::has_line(mine | 1 << c))
            .map_or(WinInOne::No, WinInOne::Wins)
    }

    fn estimate(&self, b: &Board) -> (u32, u32) {
        if self.estimates {
            (1, b.empty().count_ones().max(1))
        } else {
            (1, 1)
        }
    }
}

/// The same game with a three-word key whose information sits in the last word only,
/// so that a table that dropped or mixed up any word would confuse positions.
struct WideTicTacToe(TicTacToe);

impl Game for WideTicTacToe {
    type Position = Board;
    type Move = u8;
    type Key = [u64; 3];
    const DRAWS: bool = true;

    fn outcome(&self, b: &Board) -> Option<Value> {
        self.0.outcome(b)
    }
    fn player(&self, b: &Board) -> Player {
        self.0.player(b)
    }
    fn moves(&self, b: &Board, out: &mut Vec<u8>) {
        self.0.moves(b, out)
    }
    fn play(&self, b: &Board, m: u8) -> Board {
        self.0.play(b, m)
    }
    fn key(&self, b: &Board) -> [u64; 3] {
        [0, u64::MAX, self.0.code(b) << 40]
    }
    fn drawn_length(&self, b: &Board) -> u32 {
        self.0.drawn_length(b)
    }
    fn win_in_one(&self, b: &Board) -> WinInOne<u8> {
        self.0.win_in_one(b)
    }
}

/// Every position reachable from the empty board.
fn all_boards() -> Vec<Board> {
    let game = TicTacToe {
        checks_wins: false,
        folds_symmetry: false,
        estimates: false,
    };
    let mut seen = std::collections::HashSet::new();
    let mut stack = vec![Board { x: 0, o: 0 }];
    let mut moves = Vec::new();
    while let Some(b) = stack.pop() {
        if !seen.insert(b) {
            continue;
        }
        if game.outcome(&b).is_none() {
            game.moves(&b, &mut moves);
            stack.extend(moves.iter().map(|&m| game.play(&b, m)));
        }
    }
    let mut all: Vec<Board> = seen.into_iter().collect();
    all.sort_by_key(|b| (b.x, b.o));
    all
}

/// Solves every position of `positions` and checks outcome, best moves and the perfect
/// line against minimax.
fn check_against_minimax<G: Game>(game: G, positions: &[G::Position], options: Options)
where
    G::Key: std::hash::Hash,
{
    let mut memo = HashMap::new();
    let solver = Solver::new(game, options).unwrap();
    let game = solver.game();
    let cancel = Cancel::new();
    for pos in positions {
        let expected = minimax(game, pos, &mut memo);
        let solution = solver.solve(pos, &cancel).unwrap();
        assert_eq!(solution.outcome, expected, "{pos:?}");
        assert_eq!(
            solver.value(pos, &cancel).unwrap(),
            expected.value,
            "{pos:?}"
        );

        // Best moves: exactly the moves whose minimax outcome for the mover is the best.
        let mut moves = Vec::new();
        if game.outcome(pos).is_none() {
            game.moves(pos, &mut moves);
        }
        let best: Vec<G::Move> = moves
            .iter()
            .copied()
            .filter(|&m| {
                let child = game.play(pos, m);
                let passed = game.player(&child) != game.player(pos);
                minimax(game, &child, &mut memo).through_move(passed) == expected
            })
            .collect();
        assert_eq!(solution.best, best, "{pos:?}");

        // The perfect line ends the game after exactly `remoteness` moves, every move
        // keeping the outcome.
        assert_eq!(solution.pv.len() as u32, expected.remoteness, "{pos:?}");
        let mut p = *pos;
        for &m in &solution.pv {
            let before = minimax(game, &p, &mut memo);
            let child = game.play(&p, m);
            let passed = game.player(&child) != game.player(&p);
            assert_eq!(
                minimax(game, &child, &mut memo).through_move(passed),
                before
            );
            p = child;
        }
        assert!(game.outcome(&p).is_some());
    }
}

fn options(threads: usize, table_bytes: usize) -> Options {
    Options {
        threads,
        table_bytes,
    }
}

#[test]
fn tic_tac_toe_is_a_draw_in_nine() {
    let game = TicTacToe {
        checks_wins: true,
        folds_symmetry: true,
        estimates: true,
    };
    let solver = Solver::new(game, options(2, 1 << 20)).unwrap();
    let start = Board { x: 0, o: 0 };
    let solution = solver.solve(&start, &Cancel::new()).unwrap();
    assert_eq!(solution.outcome, Outcome::new(Value::Draw, 9));
    // Every first move draws.
    assert_eq!(solution.best.len(), 9);
}

#[test]
fn every_tic_tac_toe_position_agrees_with_minimax_whatever_the_optional_hooks() {
    let boards = all_boards();
    assert_eq!(boards.len(), 5478);
    for checks_wins in [false, true] {
        for folds_symmetry in [false, true] {
            for estimates in [false, true] {
                let game = TicTacToe {
                    checks_wins,
                    folds_symmetry,
                    estimates,
                };
                // One thread and a roomy table, and two threads with a table of a few
                // buckets, where entries are replaced all the time.
                let threads = if estimates { 2 } else { 1 };
                let bytes = if folds_symmetry { 1 << 8 } else { 1 << 20 };
                check_against_minimax(game, &boards, options(threads, bytes));
            }
        }
    }
}

#[test]
fn three_word_keys_solve_exactly() {
    let boards = all_boards();
    for checks_wins in [false, true] {
        let game = WideTicTacToe(TicTacToe {
            checks_wins,
            folds_symmetry: true,
            estimates: true,
        });
        check_against_minimax(game, &boards, options(2, 1 << 14));
    }
}

// ---------------------------------------------------------------------------------------
// Random layered games: transpositions, turns that do not alternate, draws.

/// A random game on a layered graph: every move goes one layer down; a node is finished
/// with a fixed value (win or loss for the side to move) or, on the last layer, a draw, so
/// every draw from layer `d` lasts `LAYERS - 1 - d` moves, as the contract asks. Some
/// moves give the mover the next turn again (each node's player is drawn at random).
/// `DRAWS` says whether the last layer draws or is won and lost at random.
struct Layered<const DRAWS: bool> {
    layers: usize,
    width: usize,
    nodes: Vec<Node>,
}

struct Node {
    second_to_move: bool,
    ending: Option<Value>,
    moves: Vec<u16>,
}

impl<const D: bool> Layered<D> {
    fn random(seed: u64, layers: usize, width: usize) -> Layered<D> {
        let mut rng = fastrand::Rng::with_seed(seed);
        let count = layers * width;
        let mut nodes: Vec<Node> = (0..count)
            .map(|_| Node {
                second_to_move: rng.bool(),
                ending: None,
                moves: Vec::new(),
            })
            .collect();
        for (i, node) in nodes.iter_mut().enumerate() {
            let layer = i / width;
            if layer + 1 == layers {
                node.ending = Some(if D {
                    Value::Draw
                } else if rng.bool() {
                    Value::Win
                } else {
                    Value::Loss
                });
            } else if layer > 0 && rng.u8(0..10) == 0 {
                node.ending = Some(if rng.bool() { Value::Win } else { Value::Loss });
            } else {
                let n = rng.usize(1..=4);
                for _ in 0..n {
                    let child = (layer + 1) * width + rng.usize(0..width);
                    if !node.moves.contains(&(child as u16)) {
                        node.moves.push(child as u16);
                    }
                }
            }
        }
        Layered {
            layers,
            width,
            nodes,
        }
    }
}

impl<const D: bool> Game for Layered<D> {
    type Position = u16;
    type Move = u16;
    type Key = u128;
    const DRAWS: bool = D;

    fn outcome(&self, p: &u16) -> Option<Value> {
        self.nodes[*p as usize].ending
    }
    fn player(&self, p: &u16) -> Player {
        if self.nodes[*p as usize].second_to_move {
            Player::Second
        } else {
            Player::First
        }
    }
    fn moves(&self, p: &u16, out: &mut Vec<u16>) {
        out.clear();
        out.extend_from_slice(&self.nodes[*p as usize].moves);
    }
    fn play(&self, _p: &u16, m: u16) -> u16 {
        m
    }
    fn key(&self, p: &u16) -> u128 {
        // Node numbers in the top bits: a table that lost high key bits would collide.
        (*p as u128) << 112 | 1
    }
    fn drawn_length(&self, p: &u16) -> u32 {
        assert!(D, "a game without draws is never asked");
        (self.layers - 1 - *p as usize / self.width) as u32
    }
}

#[test]
fn random_layered_games_with_and_without_draws_agree_with_minimax() {
    for seed in 0..40 {
        let (threads, bytes) = if seed % 4 < 2 {
            (1, 1 << 16)
        } else {
            (2, 1 << 7)
        };
        let all: Vec<u16> = (0..12 * 6).collect();
        if seed % 2 == 0 {
            check_against_minimax(
                Layered::<true>::random(seed, 12, 6),
                &all,
                options(threads, bytes),
            );
        } else {
            check_against_minimax(
                Layered::<false>::random(seed, 12, 6),
                &all,
                options(threads, bytes),
            );
        }
    }
}

// ---------------------------------------------------------------------------------------
// Remoteness by proof-number search: threshold questions and every move's exact score.

/// Every threshold question [`Solver::at_least`] answers ("win within n?", "lose in no
/// fewer than n?", the value questions) agrees with minimax's exact score. The questions
/// are asked in turn of one table, in a different order at each position, so that each
/// meets the numbers and bounds the others left: an off-by-one in how a threshold crosses
/// a move (to the opponent, or back to the mover), or a bound an answer claims without
/// proving it, fails here.
fn check_thresholds<G: Game>(game: G, positions: &[G::Position], options: Options)
where
    G::Key: std::hash::Hash,
{
    let mut memo = HashMap::new();
    let solver = Solver::new(game, options).unwrap();
    let cancel = Cancel::new();
    let thresholds: Vec<Score> = (0..=13)
        .flat_map(|r| [Score::new(Value::Win, r), Score::new(Value::Loss, r)])
        .chain([Score::DRAW, Score::ABOVE_DRAW, Score::BELOW_DRAW])
        .collect();
    // 31 thresholds; stepping by 7 visits each once.
    assert_eq!(thresholds.len(), 31);
    for (i, pos) in positions.iter().enumerate() {
        let exact = Score::of(minimax(solver.game(), pos, &mut memo));
        for k in 0..thresholds.len() {
            let t = thresholds[(k * 7 + i) % thresholds.len()];
            assert_eq!(
                solver.at_least(pos, t, &cancel).unwrap(),
                exact >= t,
                "{pos:?}: at least {t:?}? its score is {exact}"
            );
        }
    }
}

/// `analyse_moves` to every move's exact remoteness (`Depth::Every`) gives each move the
/// score minimax gives it through the move, and `Depth::Best` leaves every move bounds
/// that hold its exact score.
fn check_every_move<G: Game>(game: G, positions: &[G::Position], options: Options)
where
    G::Key: std::hash::Hash,
{
    let mut memo = HashMap::new();
    let solver = Solver::new(game, options).unwrap();
    let game = solver.game();
    let cancel = Cancel::new();
    let mut checked = 0;
    for pos in positions {
        if game.outcome(pos).is_some() {
            continue;
        }
        let every = solver.analyse_moves(pos, Depth::Every, &|_| None, &cancel, &|_| {});
        let best = solver.analyse_moves(pos, Depth::Best, &|_| None, &cancel, &|_| {});
        assert!(every.complete && best.complete);
        for (e, b) in every.moves.iter().zip(&best.moves) {
            let child = game.play(pos, e.mv);
            let passed = game.player(&child) != game.player(pos);
            let expected = Score::of(minimax(game, &child, &mut memo).through_move(passed));
            assert_eq!(e.exact(), Some(expected), "{pos:?}: move {}", e.mv);
            assert!(b.low <= expected && expected <= b.high, "{pos:?}: {}", b.mv);
            checked += 1;
        }
    }
    assert!(checked > positions.len(), "only {checked} moves checked");
}

#[test]
fn threshold_questions_agree_with_minimax_with_draws_and_turns_that_do_not_alternate() {
    let boards = all_boards();
    for (folds_symmetry, bytes) in [(false, 1 << 20), (true, 1 << 8)] {
        let game = TicTacToe {
            checks_wins: true,
            folds_symmetry,
            estimates: true,
        };
        check_thresholds(game, &boards, options(1, bytes));
    }
    let all: Vec<u16> = (0..12 * 6).collect();
    for seed in 0..20 {
        let bytes = if seed % 4 < 2 { 1 << 16 } else { 1 << 7 };
        if seed % 2 == 0 {
            check_thresholds(
                Layered::<true>::random(seed, 12, 6),
                &all,
                options(1, bytes),
            );
        } else {
            check_thresholds(
                Layered::<false>::random(seed, 12, 6),
                &all,
                options(1, bytes),
            );
        }
    }
}

#[test]
fn every_moves_remoteness_agrees_with_minimax() {
    let boards = all_boards();
    let game = TicTacToe {
        checks_wins: true,
        folds_symmetry: true,
        estimates: true,
    };
    check_every_move(game, &boards, options(2, 1 << 16));
    let all: Vec<u16> = (0..12 * 6).collect();
    for seed in 0..20 {
        let bytes = if seed % 4 < 2 { 1 << 16 } else { 1 << 7 };
        if seed % 2 == 0 {
            check_every_move(
                Layered::<true>::random(seed, 12, 6),
                &all,
                options(2, bytes),
            );
        } else {
            check_every_move(
                Layered::<false>::random(seed, 12, 6),
                &all,
                options(2, bytes),
            );
        }
    }
}

/// A game that raises a stop flag after its `limit`-th move is played: a time limit that
/// strikes at an exact point of the search, the same on every run.
struct StopsAfter<G> {
    inner: G,
    played: std::sync::atomic::AtomicUsize,
    limit: usize,
    stop: std::sync::Arc<Cancel<'static>>,
}

impl<G: Game> Game for StopsAfter<G> {
    type Position = G::Position;
    type Move = G::Move;
    type Key = G::Key;
    const DRAWS: bool = G::DRAWS;

    fn outcome(&self, p: &G::Position) -> Option<Value> {
        self.inner.outcome(p)
    }
    fn player(&self, p: &G::Position) -> Player {
        self.inner.player(p)
    }
    fn moves(&self, p: &G::Position, out: &mut Vec<G::Move>) {
        self.inner.moves(p, out)
    }
    fn play(&self, p: &G::Position, m: G::Move) -> G::Position {
        let n = self
            .played
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed)
            + 1;
        if n >= self.limit {
            self.stop.cancel();
        }
        self.inner.play(p, m)
    }
    fn key(&self, p: &G::Position) -> G::Key {
        self.inner.key(p)
    }
    fn drawn_length(&self, p: &G::Position) -> u32 {
        self.inner.drawn_length(p)
    }
}

/// A search stopped part way says so: it never passes off what it had found so far as the
/// exact result. Stopped after every possible number of moves played, each solve either
/// reports the stop or gives minimax's outcome.
#[test]
fn a_search_stopped_at_any_point_is_stopped_or_exact() {
    for seed in [1, 3, 5, 7, 9, 11] {
        let expected = minimax(
            &Layered::<false>::random(seed, 12, 6),
            &0,
            &mut HashMap::new(),
        );
        let solve = |limit: usize| {
            let stop = std::sync::Arc::new(Cancel::new());
            let game = StopsAfter {
                inner: Layered::<false>::random(seed, 12, 6),
                played: std::sync::atomic::AtomicUsize::new(0),
                limit,
                stop: std::sync::Arc::clone(&stop),
            };
            let solver = Solver::new(game, options(1, 1 << 16)).unwrap();
            let outcome = solver.outcome(&0, &stop);
            (
                outcome,
                solver
                    .game()
                    .played
                    .load(std::sync::atomic::Ordering::Relaxed),
            )
        };
        let (full, plays) = solve(usize::MAX);
        assert_eq!(full, Ok(expected), "seed {seed}");
        let mut stopped = 0;
        for limit in 1..=plays {
            match solve(limit).0 {
                Ok(outcome) => assert_eq!(
                    outcome, expected,
                    "seed {seed}, stopped after {limit} moves"
                ),
                Err(_) => stopped += 1,
            }
        }
        assert!(stopped > 0, "seed {seed}: no limit stopped the search");
    }
}

// ---------------------------------------------------------------------------------------
// What a game knows from elsewhere (Game::known): an oracle that answers for some
// positions, with the whole outcome or the value only.

/// `inner` with an oracle that knows the minimax truth of every position whose key's
/// hash falls in a chosen third: the exact outcome for one third, the value only for
/// another, nothing for the rest. Counts how often it is asked, per key.
struct Oracle<G: Game> {
    inner: G,
    truth: HashMap<G::Key, Outcome>,
    asked: std::sync::Mutex<HashMap<G::Key, usize>>,
    /// Answer for the root too (else never for `root`).
    root: Option<G::Position>,
    /// Whether the positions `known` does not answer are answered by
    /// `known_when_expanded` (else by nothing).
    when_expanded: bool,
}

impl<G: Game> Oracle<G>
where
    G::Key: std::hash::Hash,
{
    fn new(inner: G, positions: &[G::Position], root: Option<G::Position>) -> Oracle<G> {
        let mut memo = HashMap::new();
        let truth = positions
            .iter()
            .filter(|p| inner.outcome(p).is_none())
            .map(|p| (inner.key(p), minimax(&inner, p, &mut memo)))
            .collect();
        Oracle {
            inner,
            truth,
            asked: std::sync::Mutex::new(HashMap::new()),
            root,
            when_expanded: false,
        }
    }

    /// This oracle answering the positions `known` leaves open once they are expanded.
    fn answering_when_expanded(mut self) -> Oracle<G> {
        self.when_expanded = true;
        self
    }

    fn third(key: G::Key) -> u64 {
        use std::hash::{BuildHasher, BuildHasherDefault};
        BuildHasherDefault::<std::collections::hash_map::DefaultHasher>::default().hash_one(key) % 3
    }
}

impl<G: Game> Game for Oracle<G>
where
    G::Key: std::hash::Hash,
{
    type Position = G::Position;
    type Move = G::Move;
    type Key = G::Key;
    const DRAWS: bool = G::DRAWS;

    fn outcome(&self, p: &G::Position) -> Option<Value> {
        self.inner.outcome(p)
    }
    fn player(&self, p: &G::Position) -> Player {
        self.inner.player(p)
    }
    fn moves(&self, p: &G::Position, out: &mut Vec<G::Move>) {
        self.inner.moves(p, out)
    }
    fn play(&self, p: &G::Position, m: G::Move) -> G::Position {
        self.inner.play(p, m)
    }
    fn key(&self, p: &G::Position) -> G::Key {
        self.inner.key(p)
    }
    fn drawn_length(&self, p: &G::Position) -> u32 {
        self.inner.drawn_length(p)
    }
    fn win_in_one(&self, p: &G::Position) -> WinInOne<G::Move> {
        self.inner.win_in_one(p)
    }
    fn known(&self, p: &G::Position) -> Option<Known> {
        let key = self.inner.key(p);
        *self.asked.lock().unwrap().entry(key).or_default() += 1;
        if self.root.is_some_and(|r| self.inner.key(&r) == key) {
            return None;
        }
        let truth = self.truth[&key];
        match Self::third(key) {
            0 => Some(Known::Outcome(truth)),
            1 => Some(Known::Value(truth.value)),
            _ => None,
        }
    }
    fn known_when_expanded(&self, p: &G::Position) -> Option<Known> {
        let key = self.inner.key(p);
        let answers = self.when_expanded && Self::third(key) == 2;
        // Alternately the whole outcome and the value alone.
        answers.then(|| match self.truth[&key] {
            truth if truth.remoteness % 2 == 0 => Known::Outcome(truth),
            truth => Known::Value(truth.value),
        })
    }
}

#[test]
fn what_the_game_knows_from_elsewhere_solves_exactly() {
    let boards = all_boards();
    for (threads, bytes) in [(1, 1 << 20), (2, 1 << 8)] {
        let game = || TicTacToe {
            checks_wins: true,
            folds_symmetry: true,
            estimates: true,
        };
        check_against_minimax(
            Oracle::new(game(), &boards, None),
            &boards,
            options(threads, bytes),
        );
        check_against_minimax(
            Oracle::new(game(), &boards, None).answering_when_expanded(),
            &boards,
            options(threads, bytes),
        );
    }
    for seed in 0..20 {
        let all: Vec<u16> = (0..12 * 6).collect();
        let (threads, bytes) = if seed % 4 < 2 {
            (1, 1 << 16)
        } else {
            (2, 1 << 7)
        };
        let when_expanded = seed % 8 >= 4;
        if seed % 2 == 0 {
            let mut game = Oracle::new(Layered::<true>::random(seed, 12, 6), &all, None);
            game.when_expanded = when_expanded;
            check_against_minimax(game, &all, options(threads, bytes));
        } else {
            let mut game = Oracle::new(Layered::<false>::random(seed, 12, 6), &all, None);
            game.when_expanded = when_expanded;
            check_against_minimax(game, &all, options(threads, bytes));
        }
    }
}

#[test]
fn the_game_is_asked_only_what_the_table_does_not_know() {
    let boards = all_boards();
    let start = Board { x: 0, o: 0 };
    let game = TicTacToe {
        checks_wins: false,
        folds_symmetry: true,
        estimates: true,
    };
    let solver = Solver::new(Oracle::new(game, &boards, Some(start)), options(1, 1 << 20)).unwrap();
    let outcome = solver.outcome(&start, &Cancel::new()).unwrap();
    assert_eq!(outcome, Outcome::new(Value::Draw, 9));
    let asked = solver.game().asked.lock().unwrap();
    // Only unfinished positions are asked about, and with a table that never drops an
    // entry, a position the game knew something about is asked once: the answer stays
    // in the table. (An unknown one is asked again until the search stores something of
    // its own: "nothing known" is not stored.)
    assert!(asked.keys().all(|k| solver.game().truth.contains_key(k)));
    let answered: Vec<usize> = asked
        .iter()
        .filter(|(&k, _)| Oracle::<TicTacToe>::third(k) < 2 && k != 0)
        .map(|(_, &n)| n)
        .collect();
    assert!(answered.len() > 5, "{asked:?}");
    assert!(answered.iter().all(|&n| n == 1), "{asked:?}");
}

/// Nim (take 1 or 2, taking the last wins) whose oracle may claim that a heap of 3 is won
/// for the side to move (it is lost: 3 is a multiple of 3).
struct Liar {
    lies: bool,
}

impl Game for Liar {
    type Position = (u8, bool);
    type Move = u8;
    type Key = u64;

    fn outcome(&self, p: &(u8, bool)) -> Option<Value> {
        (p.0 == 0).then_some(Value::Loss)
    }
    fn player(&self, p: &(u8, bool)) -> Player {
        if p.1 {
            Player::Second
        } else {
            Player::First
        }
    }
    fn moves(&self, p: &(u8, bool), out: &mut Vec<u8>) {
        out.clear();
        out.extend((1..=2).filter(|&t| t <= p.0));
    }
    fn play(&self, p: &(u8, bool), take: u8) -> (u8, bool) {
        (p.0 - take, !p.1)
    }
    fn key(&self, p: &(u8, bool)) -> u64 {
        p.0 as u64
    }
    fn known(&self, p: &(u8, bool)) -> Option<Known> {
        (p.0 == 3 && self.lies).then_some(Known::Value(Value::Win))
    }
}

/// The search believes what the game knows and never looks below it: a lie about one
/// position decides the result above it, at the root and one move away. (Which shows
/// that answers are used, and why the contract asks for true ones.)
#[test]
fn the_search_believes_what_the_game_knows() {
    for lies in [false, true] {
        let solver = Solver::new(Liar { lies }, options(1, 1 << 12)).unwrap();
        let cancel = Cancel::new();
        let value = |heap| solver.value(&(heap, false), &cancel).unwrap();
        let (three, four) = if lies {
            (Value::Win, Value::Loss)
        } else {
            (Value::Loss, Value::Win)
        };
        assert_eq!(value(3), three, "lies: {lies}");
        assert_eq!(value(4), four, "lies: {lies}");
    }
}

/// Progress: a position's proof and disproof numbers as the table knows them, from the
/// game's estimates before any search to a proof or disproof after one.
#[test]
fn root_numbers_follow_the_search() {
    let solver = Solver::new(Liar { lies: false }, options(1, 1 << 12)).unwrap();
    let (seven, six) = ((7, false), (6, false));
    // Two children, neither searched: each (1, 1) by the default estimate, and to win
    // one of them must be refuted (1), to lose both (1 + 1).
    assert_eq!(solver.root_numbers(&seven), (1, 2));
    assert_eq!(solver.value(&seven, &Cancel::new()).unwrap(), Value::Win);
    assert_eq!(solver.value(&six, &Cancel::new()).unwrap(), Value::Loss);
    assert_eq!(solver.root_numbers(&seven), (0, u32::MAX));
    assert_eq!(solver.root_numbers(&six), (u32::MAX, 0));
    assert!(solver.nodes() > 0);
}

/// A game whose root wins two ways: by moving to position 1, whose value the game knows
/// only when the search expands it ([`Game::known_when_expanded`]) and prices by its
/// estimate, or through position 2, a short real win (three replies, each lost at once).
/// Every non-root position is lost by its mover: 1 and 2 have moves to positions 3..=5,
/// whose movers win at once by moving to 6 (finished, lost by its mover).
struct Priced {
    price: u32,
    expanded: std::sync::atomic::AtomicU32,
}

impl Game for Priced {
    type Position = u8;
    type Move = u8;
    type Key = u64;

    fn outcome(&self, p: &u8) -> Option<Value> {
        (*p == 6).then_some(Value::Loss)
    }
    fn player(&self, p: &u8) -> Player {
        match p {
            0 | 3..=5 => Player::First,
            _ => Player::Second,
        }
    }
    fn moves(&self, p: &u8, out: &mut Vec<u8>) {
        out.clear();
        match p {
            0 => out.extend([1, 2]),
            1 => out.push(3),
            2 => out.extend([3, 4, 5]),
            _ => out.push(6),
        }
    }
    fn play(&self, _: &u8, to: u8) -> u8 {
        to
    }
    fn key(&self, p: &u8) -> u64 {
        *p as u64 + 1
    }
    fn estimate(&self, p: &u8) -> (u32, u32) {
        // Position 1 is assumed lost by its mover: disproving it costs the price.
        match p {
            1 => (1 << 20, self.price),
            _ => (1, 1),
        }
    }
    fn known_when_expanded(&self, p: &u8) -> Option<Known> {
        (*p == 1).then(|| {
            self.expanded
                .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            Known::Value(Value::Loss)
        })
    }
}

/// A priced answer is taken only where the search comes to expand it: cheap, the search
/// goes there first and takes it; dear, the root is proven the other way and the answer
/// is never asked for. The value is the same.
#[test]
fn a_priced_answer_is_taken_only_where_it_is_cheapest() {
    for (price, asked) in [(1, 1), (100, 0)] {
        let game = Priced {
            price,
            expanded: Default::default(),
        };
        let solver = Solver::new(game, options(1, 1 << 12)).unwrap();
        assert_eq!(solver.value(&0, &Cancel::new()).unwrap(), Value::Win);
        let expanded = solver
            .game()
            .expanded
            .load(std::sync::atomic::Ordering::Relaxed);
        assert_eq!(expanded, asked, "price {price}");
    }
}
