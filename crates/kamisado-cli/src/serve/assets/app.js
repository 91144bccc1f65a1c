// The analysis board, for Kamisado (a single round or match play) and Kamon. It knows no rules: every legal move, every
// value, every zero-length move, every legal cell comes from the server's /api/query; the
// page draws them and keeps the line being looked at (its start, its moves, how far along
// it the board is).
"use strict";

const FILES = "abcdefgh";
const COLOUR_NAMES = {
  o: "orange", b: "blue", u: "purple", p: "pink",
  y: "yellow", r: "red", g: "green", n: "brown",
};
const REASONS = { goal: "reached the goal row", deadlock: "deadlock" };

const state = {
  games: [],
  game: "kamisado",
  target: 3,       // match play: the points of a match from the standard start
  start: null,     // position text of the line's start; null: the start of a round
  layout: null,    // Kamon: the line's layout, {seed: "N"} or {text: "1a2b.../..."}
  after: null,     // Kamon: random placements of the seed to ask for once (then moves)
  moves: [],       // the line's moves; those past `cursor` are the way forward
  cursor: 0,       // moves played on the board
  played: [],      // what the server said about each move: {side, zero_length_moves}
  startZeros: [],  // the start's pending zero-length moves
  answer: null,
  selected: null,  // square of the tower whose moves are shown
  hover: null,     // a move to outline, from the lists
  flipped: false,
  request: null,   // the AbortController of the request in flight
  serial: 0,
};

const $ = (id) => document.getElementById(id);

function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "class") e.className = v;
    else if (k === "dataset") Object.assign(e.dataset, v);
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v);
  }
  for (const c of children) if (c != null) e.append(c);
  return e;
}

function capitalise(s) { return s.charAt(0).toUpperCase() + s.slice(1); }

// The board field of a position text: the tower on each square, with its rank (in match
// play a `+` per rank follows a tower's letter).
function readPosition(text) {
  const [board, side, active] = text.trim().split(/\s+/);
  const towers = {};
  board.split("/").forEach((row, i) => {
    const rank = 8 - i;
    let file = 0;
    let last = null;
    for (const ch of row) {
      if (ch >= "1" && ch <= "8") { file += Number(ch); continue; }
      if (ch === "+") { if (last) last.rank += 1; continue; }
      last = {
        side: ch === ch.toUpperCase() ? "black" : "white",
        colour: ch.toLowerCase(),
        rank: 0,
      };
      towers[FILES[file] + rank] = last;
      file += 1;
    }
  });
  return { towers, side: side === "b" ? "black" : "white", active: active === "-" ? null : active };
}

function currentGame() { return state.games.find((g) => g.id === state.game); }

function describe(value, remoteness) {
  if (value === "win") return `wins in ${remoteness}`;
  if (value === "loss") return `loses in ${remoteness}`;
  if (value === "draw") return "draws";
  return "";
}

// A move's remoteness as the page prints it: exact, or, for a move that is not a best
// move (its search stopped once it was shown not to be better), the bounds proved.
function remotenessOf(m) {
  if (m.remoteness != null) return m.remoteness;
  if (m.remoteness_at_most != null) return `${m.remoteness_at_least}\u2013${m.remoteness_at_most}`;
  if (m.remoteness_at_least != null) return `\u2265${m.remoteness_at_least}`;
  return "";
}

function badgeText(value, remoteness) {
  if (value === "win") return `W${remoteness}`;
  if (value === "loss") return `L${remoteness}`;
  if (value === "draw") return "D";
  return "?";
}

const SUMO_NAMES = { 1: "Sumo", 2: "Double Sumo", 3: "Triple Sumo", 4: "Quadruple Sumo" };
const REFILL_WORDS = {
  left: ["From the left", "each player sets their towers on their home row from their own left (Black from a1, White from h8)"],
  right: ["From the right", "each player sets their towers on their home row from their own right (Black from h1, White from a8)"],
};

const SOURCES = { db: "from the database", search: "searched live", rules: "by the rules" };

function queryParams(moveCount) {
  const p = new URLSearchParams();
  if (state.game !== "kamisado") p.set("game", state.game);
  if (state.game === "kamon") {
    if (state.layout && state.layout.seed != null) p.set("seed", state.layout.seed);
    else if (state.layout) p.set("layout", state.layout.text);
    if (state.after) p.set("after", state.after);
  }
  if (state.game === "match" && !state.start) p.set("target", String(state.target));
  if (state.start) p.set("position", state.start);
  const moves = state.moves.slice(0, moveCount);
  if (moves.length) p.set("moves", moves.join(" "));
  return p;
}

// ---- Talking to the server -------------------------------------------------------------

async function fetchAnswer(params, signal) {
  for (let attempt = 0; ; attempt++) {
    const response = await fetch(`/api/query?${params}`, { signal });
    const body = await response.json().catch(() => ({ error: `HTTP ${response.status}` }));
    if (response.status === 503 && attempt < 10) {
      showMessage(`${body.error} (retrying)`);
      await new Promise((r) => setTimeout(r, 1000));
      continue;
    }
    if (!response.ok) {
      const error = new Error(inPageTerms(body.error || `HTTP ${response.status}`));
      error.status = response.status;
      throw error;
    }
    return body;
  }
}

// The server refuses input in the command line's words (the API promises them), naming
// its flags; the page names what the visitor typed or followed instead.
const PAGE_TERMS = [
  [/^(--moves|moves=): /, "the move list: "],
  [/^(--position|position=): /, "the position text: "],
  [/^(--layout|layout=): /, "the layout: "],
  [/^(--seed|seed=): /, "the seed: "],
  [/^(--after|after=): /, "the random placements: "],
  [/^give --layout TEXT or --seed N, not both/, "give a layout or a seed, not both"],
];

function inPageTerms(message) {
  for (const [flag, words] of PAGE_TERMS) message = message.replace(flag, words);
  return message;
}

// Shows the line up to `cursor`. Returns false (and keeps the old line) if the server
// refused it.
async function show(onRefused) {
  if (state.request) state.request.abort();
  const controller = new AbortController();
  state.request = controller;
  const serial = ++state.serial;
  $("status").dataset.state = "loading";
  const busyTimer = setTimeout(() => { $("busy").hidden = false; }, 150);
  try {
    const answer = await fetchAnswer(queryParams(state.cursor), controller.signal);
    if (serial !== state.serial) return true;
    state.answer = answer;
    if (answer.game === "kamon") {
      // A seed's random placements come back as moves: from now on they are the line's.
      const placed = answer.moves;
      if (placed.join(" ") !== state.moves.slice(0, state.cursor).join(" ")) {
        state.moves = placed.concat(state.moves.slice(state.cursor));
        state.cursor = placed.length;
      }
      state.after = null;
      // Black places first and the players alternate.
      state.played = state.moves.map((_, i) => ({ side: i % 2 ? "white" : "black", zero_length_moves: [] }));
      state.startZeros = [];
    } else {
      // Zero-length moves written out in a pasted list are not moves: keep the line as
      // the server played it.
      const played = answer.line.moves.map((m) => m.move);
      if (played.join(" ") !== state.moves.slice(0, state.cursor).join(" ")) {
        state.moves = played.concat(state.moves.slice(state.cursor));
        state.cursor = played.length;
      }
      state.played.length = Math.max(state.played.length, answer.line.moves.length);
      answer.line.moves.forEach((m, i) => { state.played[i] = m; });
      state.startZeros = answer.line.zero_length_moves;
    }
    state.selected = null;
    state.hover = null;
    render();
    $("status").dataset.state = "ready";
    return true;
  } catch (e) {
    if (e.name === "AbortError" || serial !== state.serial) return true;
    $("status").dataset.state = "error";
    if (e.status === 400 && onRefused) onRefused(e.message);
    else showMessage(e.message);
    return false;
  } finally {
    clearTimeout(busyTimer);
    if (serial === state.serial) {
      $("busy").hidden = true;
      state.request = null;
    }
  }
}

function showMessage(text) {
  const m = $("message");
  m.textContent = text || "";
  m.hidden = !text;
}

// ---- Moving along the line ---------------------------------------------------------------

function play(moves) {
  // Playing the move the line already continues with keeps the rest of the line.
  const ahead = state.moves.slice(state.cursor, state.cursor + moves.length);
  if (ahead.join(" ") !== moves.join(" ")) {
    state.moves = state.moves.slice(0, state.cursor).concat(moves);
    state.played.length = state.cursor;
  }
  state.cursor += moves.length;
  show();
}

function goTo(cursor) {
  const c = Math.max(0, Math.min(state.moves.length, cursor));
  if (c === state.cursor && state.answer) return;
  state.cursor = c;
  show();
}

// ---- Drawing ---------------------------------------------------------------------------

function render() {
  const a = state.answer;
  if (!a) return;
  if (a.game === "kamon") {
    renderKamon(a);
    return;
  }
  renderBoard(a);
  renderStatus(a);
  renderHistory();
  renderLine(a);
  renderMoves(a);
  renderShare(a);
}

// The moves of the position by starting square, each with its answer (if any).
function movesByTower(a) {
  const answers = new Map(a.moves.map((m) => [m.move, m]));
  const best = new Set(a.best);
  const byFrom = new Map();
  for (const mv of a.legal_moves) {
    const [from, to] = mv.split("-");
    if (!byFrom.has(from)) byFrom.set(from, []);
    byFrom.get(from).push({ move: mv, to, answer: answers.get(mv), best: best.has(mv) });
  }
  return byFrom;
}

function renderBoard(a) {
  const game = currentGame();
  const pos = readPosition(a.position);
  const byFrom = movesByTower(a);
  // With one tower to move (every move but the first), its moves show at once.
  let selected = state.selected;
  if (!byFrom.has(selected)) selected = byFrom.size === 1 ? [...byFrom.keys()][0] : null;
  const destinations = new Map((byFrom.get(selected) || []).map((d) => [d.to, d]));
  const lastIndex = state.cursor - 1;
  const last = lastIndex >= 0 ? state.moves[lastIndex].split("-") : [];
  const passed = new Set(
    (lastIndex >= 0 ? (state.played[lastIndex] || {}).zero_length_moves || [] : state.startZeros)
      .map((z) => z.split("-")[0]));
  const pushed = new Set((lastIndex >= 0 ? (state.played[lastIndex] || {}).pushed || [] : []).map((p) => p.to));
  // Match play: the ranks as the server gives them (a round's winner with its gain).
  const sumos = new Map((a.sumos || []).map((t) => [t.square, t]));
  const hover = state.hover ? state.hover.split("-") : [];

  const board = $("board");
  board.replaceChildren();
  const ranks = state.flipped ? [1, 2, 3, 4, 5, 6, 7, 8] : [8, 7, 6, 5, 4, 3, 2, 1];
  const files = state.flipped ? [...FILES].reverse() : [...FILES];
  ranks.forEach((rank, row) => {
    files.forEach((file, col) => {
      const square = file + rank;
      const colour = game.squares[8 - rank][FILES.indexOf(file)];
      const sq = el("div", {
        class: `sq c-${colour}`,
        dataset: { square, colour: COLOUR_NAMES[colour] },
        title: `${square} (${COLOUR_NAMES[colour]})`,
      });
      if (last.includes(square)) sq.classList.add("last");
      if (hover.includes(square)) sq.classList.add("hover");
      if (row === 7) sq.append(el("span", { class: "coord file" }, file));
      if (col === 0) sq.append(el("span", { class: "coord rank" }, String(rank)));
      const tower = pos.towers[square];
      if (tower) {
        const t = el("div", {
          class: `tower ${tower.side}`,
          style: `--tc: var(--${COLOUR_NAMES[tower.colour]})`,
          dataset: { side: tower.side, colour: COLOUR_NAMES[tower.colour] },
          title: `${capitalise(tower.side)}'s ${COLOUR_NAMES[tower.colour]} tower on ${square}`,
        });
        const isActive = !a.winner && tower.side === pos.side && pos.active === tower.colour;
        if (isActive) t.classList.add("active");
        if (square === selected) t.classList.add("selected");
        if (passed.has(square)) t.classList.add("passed");
        if (pushed.has(square)) t.classList.add("pushed");
        const sumo = sumos.get(square);
        const rank = sumo ? sumo.rank : tower.rank;
        if (rank > 0) {
          t.classList.add("sumo");
          t.dataset.rank = String(rank);
          if (sumo && sumo.promoted) t.classList.add("promoted");
          const teeth = el("span", { class: "teeth" });
          for (let i = 0; i < rank; i++) teeth.append(el("i"));
          t.append(teeth, el("span", { class: "rank-number" }, String(rank)));
          t.title = `${capitalise(tower.side)}'s ${COLOUR_NAMES[tower.colour]} ${SUMO_NAMES[rank] || "Sumo"} on ${square}`;
        }
        sq.append(t);
        if (byFrom.has(square)) {
          sq.classList.add("clickable");
          sq.addEventListener("click", () => { state.selected = square; renderBoard(state.answer); });
        }
      }
      const dest = destinations.get(square);
      if (dest) {
        const value = dest.answer ? dest.answer.value : null;
        const remoteness = dest.answer ? remotenessOf(dest.answer) : null;
        const exact = dest.answer && dest.answer.remoteness != null ? String(dest.answer.remoteness) : "";
        const badge = el("span", {
          class: `badge ${value || "unknown"}${dest.best ? " best" : ""}`,
          dataset: value ? { move: dest.move, value, remoteness: exact } : { move: dest.move },
          title: `${dest.move}: ${value ? `the mover ${describe(value, remoteness)}` : "not answered in time"}`,
        }, badgeText(value, remoteness));
        sq.append(badge);
        sq.classList.add("dest");
        sq.addEventListener("click", () => play([dest.move]));
      }
      board.append(sq);
    });
  });

  const toMove = a.winner ? null : a.to_move;
  const label = (side) => el("span", {}, el("span", { class: `dot ${side}` }), " ", capitalise(side),
    side === toMove ? el("span", { class: "arrow" }, " \u2190 to move") : null);
  const [top, bottom] = state.flipped ? ["black", "white"] : ["white", "black"];
  $("player-top").replaceChildren(label(top));
  $("player-top").classList.toggle("to-move", top === toMove);
  $("player-bottom").replaceChildren(label(bottom));
  $("player-bottom").classList.toggle("to-move", bottom === toMove);
  $("player-bottom").hidden = false;
  $("first").disabled = state.cursor === 0;
  $("back").disabled = state.cursor === 0;
  $("forward").disabled = state.cursor >= state.moves.length;
  $("last").disabled = state.cursor >= state.moves.length;
}

function renderStatus(a) {
  const turn = $("turn");
  const value = $("value");
  value.className = "value";
  value.dataset.value = a.value || "";
  value.dataset.remoteness = a.remoteness == null ? "" : String(a.remoteness);
  renderStanding(a);
  if (a.game === "match" && a.winner) {
    const promoted = (a.sumos || []).find((t) => t.promoted);
    turn.textContent = a.match_over ? "Match over" : `Round ${a.round} over`;
    value.textContent = a.match_over
      ? `${capitalise(a.match_winner)} won the match ${a.score[a.match_winner]}\u2013${a.score[a.match_winner === "black" ? "white" : "black"]}`
      : `${capitalise(a.winner)} won the round: ${REASONS[a.reason] || a.reason}`;
    value.classList.add("over");
    if (promoted) {
      turn.textContent += `: ${capitalise(promoted.side)}'s ${promoted.colour} tower becomes a ${SUMO_NAMES[promoted.rank] || "Sumo"}`;
    }
  } else if (a.winner) {
    turn.textContent = "Game over";
    value.textContent = `${capitalise(a.winner)} won: ${REASONS[a.reason] || a.reason}`;
    value.classList.add("over");
  } else {
    const active = a.active ? `, the ${a.active} tower` : ", any tower (free move)";
    turn.textContent = `${capitalise(a.to_move)} to move${active}`;
    if (a.value) {
      value.textContent = `${capitalise(a.to_move)} ${describe(a.value, a.remoteness)}`;
      if (a.game === "match") value.append(el("span", { class: "hint" }, " (round value)"));
      const matchValue = (a.match_values || {}).value;
      if (matchValue) {
        value.append(el("span", { id: "match-value", class: `res ${matchValue}`, dataset: { value: matchValue } },
          `; ${a.to_move === a.match_values.winner ? "wins" : "loses"} the match`));
      }
      value.classList.add(a.value);
    } else {
      value.textContent = "not solved within the time limit";
    }
  }
  const source = SOURCES[a.source] || "";
  $("source").textContent = a.value
    ? `${source}${a.best.length ? `; best: ${a.best.join(" ")}` : ""}; ${a.seconds.toFixed(3)} s`
    : "";

  // What the last move caused: zero-length moves and a deadlock.
  const lastIndex = state.cursor - 1;
  const zeros = lastIndex >= 0 ? (state.played[lastIndex] || {}).zero_length_moves || [] : state.startZeros;
  const notes = [];
  if (zeros.length) {
    const board = readPosition(a.position).towers;
    const who = zeros.map((z) => {
      const sq = z.split("-")[0];
      const t = board[sq];
      return t ? `${capitalise(t.side)}'s ${COLOUR_NAMES[t.colour]} tower on ${sq} is blocked: zero-length move ${z}`
               : `zero-length move ${z}`;
    });
    notes.push(...who);
    notes.push(`${capitalise(a.to_move)} moves next.`);
  }
  const pushes = lastIndex >= 0 ? (state.played[lastIndex] || {}).pushed || [] : [];
  if (pushes.length) {
    const mover = state.played[lastIndex].side;
    const what = pushes.map((p) => `${capitalise(p.side)}'s ${p.colour} tower from ${p.from} to ${p.to}`).join(", ");
    notes.push(`Sumo push ${state.moves[lastIndex]}: ${what}. The opponent's turn is skipped: ${capitalise(mover)} moves again.`);
  }
  if (a.reason === "deadlock") {
    notes.push(`The blocked towers name each other in a circle: deadlock; ${a.winner === "black" ? "White" : "Black"} made the last move and loses.`);
  }
  const event = $("event");
  event.replaceChildren(...notes.map((n) => el("div", {}, n)));
  event.hidden = notes.length === 0;
  renderRefill(a);
  // The answer's own message first; else why match values are missing (serve --match-db).
  showMessage(a.message || (a.match_values && a.match_values.message) || "");
}

// Match play: the target, the round and the score.
function renderStanding(a) {
  const standing = $("standing");
  if (a.game !== "match") { standing.replaceChildren(); return; }
  const target = (currentGame().targets || []).find((t) => t.points === a.target);
  Object.assign(standing.dataset, {
    round: String(a.round), black: String(a.score.black), white: String(a.score.white), target: String(a.target),
  });
  standing.replaceChildren(
    el("span", { class: "muted" }, `${target ? target.name : "Match"} to ${a.target}`),
    el("span", {}, `Round ${a.round}`),
    el("span", { class: "score", title: "points: each tower of rank r is worth 2^r \u2212 1" },
      el("span", { class: "dot black" }), ` Black ${a.score.black} \u2013 ${a.score.white} White `,
      el("span", { class: "dot white" })));
}

// Between rounds: the winner's refill choice, as two buttons.
function renderRefill(a) {
  const box = $("refill");
  const choices = a.game === "match" && a.refill_by ? a.refill_choices || [] : [];
  box.hidden = choices.length === 0;
  if (!choices.length) { box.replaceChildren(); return; }
  box.replaceChildren(el("div", {}, `${capitalise(a.refill_by)} won the round and chooses how both home rows are refilled for round ${a.round + 1} (${a.refill_by === "black" ? "White" : "Black"}, the loser, starts):`),
    ...choices.map((c) => {
      const [title, what] = REFILL_WORDS[c] || [c, ""];
      const b = el("button", { type: "button", id: `refill-${c}`, dataset: { refill: c } }, title,
        refillValue(a, (a.refills || []).find((r) => r.choice === c)), el("small", {}, what));
      b.addEventListener("click", () => play([c]));
      return b;
    }));
}

// What a refill choice leads to, for the round's winner who makes it, coloured as the
// move list colours a move for its mover: "Black wins round 3 in 12".
function refillValue(a, r) {
  const next = a.round + 1;
  if (!r || !r.value) {
    return el("span", { class: "res unknown" }, ` \u2014 round ${next} not solved within the time limit`);
  }
  const verb = r.value === "win" ? "wins" : "loses";
  const length = r.remoteness != null ? ` in ${r.remoteness}` : " (in how many moves: not found within the time limit)";
  return el("span", {
    class: `res ${r.value}`,
    dataset: { value: r.value, remoteness: r.remoteness == null ? "" : String(r.remoteness) },
  }, ` \u2014 ${capitalise(a.refill_by)} ${verb} round ${next}${length}`);
}

function renderHistory() {
  const list = $("history");
  list.replaceChildren();
  if (state.startZeros.length) {
    list.append(el("li", { class: "empty" }, `start: zero-length ${state.startZeros.join(" ")}`));
  }
  if (!state.moves.length) {
    list.append(el("li", { class: "empty" },
      state.game === "kamon" ? "none yet: click a cell to place a piece" : "none yet: click a tower, then where it goes"));
    return;
  }
  let round = 0;
  state.moves.forEach((mv, i) => {
    const info = state.played[i];
    if (state.game === "match" && info && info.round && info.round !== round && !info.refill) {
      round = info.round;
      list.append(el("li", { class: "round-sep" }, `Round ${round}`));
    }
    let cls = i === state.cursor - 1 ? "current" : i >= state.cursor ? "future" : "";
    if (info && info.refill) cls += " refill-choice";
    const item = el("li", { class: cls, dataset: { index: String(i + 1) }, title: "go to this move" },
      el("span", { class: "n" }, `${i + 1}.`),
      info ? el("span", { class: `dot ${info.side}` }) : null,
      mv,
      info && info.zero_length_moves.length
        ? el("span", { class: "zero", title: "zero-length moves that followed" }, `(${info.zero_length_moves.join(" ")})`)
        : null,
      info && info.pushed && info.pushed.length ? el("span", { class: "zero", title: "a Sumo push" }, "(push)") : null);
    item.addEventListener("click", () => goTo(i + 1));
    list.append(item);
  });
  // The list scrolls to its current move when it scrolls at all, never the page: on a
  // narrow screen the list is below the board, and the page opens at its top.
  const current = list.querySelector(".current");
  if (current && list.scrollHeight > list.clientHeight) {
    list.scrollTop = current.offsetTop - list.offsetTop - list.clientHeight / 2;
  }
}

function renderLine(a) {
  const line = $("pv");
  line.replaceChildren();
  if (a.winner) {
    line.append(el("span", { class: "muted" }, a.game === "match" ? "the round is over" : "the game is over"));
    return;
  }
  if (!a.pv.length) {
    line.append(el("span", { class: "muted" }, "not found within the time limit"));
    return;
  }
  a.pv.forEach((mv, i) => {
    const b = el("button", { type: "button", dataset: { index: String(i) }, title: `play the line up to ${mv}` }, mv);
    b.addEventListener("click", () => play(a.pv.slice(0, i + 1)));
    b.addEventListener("mouseenter", () => { if (i === 0) { state.hover = mv; renderBoard(a); } });
    b.addEventListener("mouseleave", () => { if (state.hover) { state.hover = null; renderBoard(a); } });
    line.append(b);
  });
  if (!a.pv_complete) line.append(el("span", { class: "muted" }, "\u2026 (cut short)"));
}

function renderMoves(a) {
  const body = $("moves").tBodies[0];
  body.replaceChildren();
  const answered = new Set(a.moves.map((m) => m.move));
  const rows = a.moves.concat(a.legal_moves.filter((m) => !answered.has(m)).map((m) => ({ move: m })));
  // With a proof file (serve --match-db): each move's match value beside its round value.
  const matchValues = a.match_values || null;
  const matchOf = new Map(((matchValues || {}).moves || []).map((m) => [m.move, m]));
  $("moves-match").hidden = !matchValues;
  for (const m of rows) {
    const row = el("tr", { dataset: { move: m.move } },
      el("td", {}, m.move),
      el("td", { class: `res ${m.value || ""}` }, m.value ? describe(m.value, remotenessOf(m)) : "not answered"),
      el("td", { class: "src" }, m.source || ""));
    if (matchValues) {
      const mv = matchOf.get(m.move);
      const value = mv && mv.value;
      row.append(el("td", { class: `res match ${value || "unknown"}`, dataset: { matchValue: value || "" } },
        value === "win" ? "wins the match" : value === "loss" ? "loses the match" : "\u2014"));
    }
    row.addEventListener("click", () => play([m.move]));
    row.addEventListener("mouseenter", () => { state.hover = m.move; renderBoard(a); });
    row.addEventListener("mouseleave", () => { state.hover = null; renderBoard(a); });
    body.append(row);
  }
  if (!rows.length) {
    const over = a.game !== "match" ? "the game is over"
      : a.match_over ? "the match is over" : "the round is over: the winner chooses the refill";
    body.append(el("tr", {}, el("td", { colspan: matchValues ? "4" : "3" }, `no moves: ${over}`)));
  }
}

function renderShare(a) {
  const params = queryParams(state.cursor);
  const query = params.toString();
  const url = `${location.origin}/${query ? `?${query}` : ""}`;
  const link = $("share");
  link.href = url;
  link.textContent = url;
  history.replaceState(null, "", url);
  $("fen").textContent = a.game === "kamon" ? `${a.layout}${a.moves.length ? ` ${a.moves.join(" ")}` : ""}` : a.position;
}

// ---- Input -----------------------------------------------------------------------------

// A pasted text: a share link, a position text (with moves after it), or a move list.
function readPasted(text) {
  text = text.trim();
  if (/^https?:\/\//.test(text) || text.startsWith("/?") || text.startsWith("?")) {
    const p = new URL(text, location.origin).searchParams;
    return { start: p.get("position") || null, moves: (p.get("moves") || "").split(/\s+/).filter(Boolean) };
  }
  const words = text.split(/\s+/).filter(Boolean);
  if (words.length && words[0].includes("/")) {
    // A match position has a fourth field, its target.
    const fields = /^\d+$/.test(words[3] || "") ? 4 : 3;
    let rest = words.slice(fields);
    if (rest[0] === "moves") rest = rest.slice(1);
    return { start: words.slice(0, fields).join(" "), moves: rest };
  }
  return { start: null, moves: words };
}

async function load(event) {
  event.preventDefault();
  const pasted = state.game === "kamon" ? readPastedKamon($("paste").value) : readPasted($("paste").value);
  const before = {
    start: state.start, layout: state.layout, after: state.after,
    moves: state.moves, cursor: state.cursor, played: state.played,
  };
  Object.assign(state, {
    start: pasted.start || null, layout: pasted.layout || state.layout, after: pasted.after || null,
    moves: pasted.moves, cursor: pasted.moves.length, played: [],
  });
  $("load-error").hidden = true;
  const ok = await show((message) => {
    Object.assign(state, before);
    $("load-error").textContent = message;
    $("load-error").hidden = false;
    $("status").dataset.state = "ready";
  });
  if (ok) $("paste").value = "";
}

function keys(event) {
  if (event.target.tagName === "INPUT" || event.target.tagName === "SELECT") return;
  if (event.key === "ArrowLeft") goTo(state.cursor - 1);
  else if (event.key === "ArrowRight") goTo(state.cursor + 1);
  else if (event.key === "Home") goTo(0);
  else if (event.key === "End") goTo(state.moves.length);
  else return;
  event.preventDefault();
}

async function init() {
  const response = await fetch("/api/games");
  const listing = await response.json();
  state.games = listing.games;
  const select = $("game");
  for (const g of listing.games) {
    select.append(el("option", g.available ? { value: g.id } : { value: g.id, disabled: "" },
      g.available ? g.name : `${g.name} (coming)`));
  }
  const params = new URLSearchParams(location.search);
  const wanted = params.get("game");
  selectGame(listing.games.some((g) => g.id === wanted && g.available) ? wanted : listing.default);
  select.addEventListener("change", () => {
    selectGame(select.value);
    show();
  });
  const targets = $("target");
  for (const t of (listing.games.find((g) => g.id === "match") || {}).targets || []) {
    targets.append(el("option", { value: String(t.points) }, `${t.name} (${t.points} points)`));
  }
  if (state.game === "match" && params.get("target")) {
    state.target = Number(params.get("target"));
    targets.value = params.get("target");
  }
  targets.addEventListener("change", () => {
    const target = Number(targets.value);
    selectGame("match");
    state.target = target;
    targets.value = String(target);
    show();
  });
  if (state.game === "kamon" && (params.get("seed") || params.get("layout"))) {
    state.layout = params.get("seed") ? { seed: params.get("seed") } : { text: params.get("layout") };
    state.after = params.get("after") || null;
  }
  state.start = params.get("position") || null;
  state.moves = (params.get("moves") || "").split(/\s+/).filter(Boolean);
  state.cursor = state.moves.length;

  $("first").addEventListener("click", () => goTo(0));
  $("back").addEventListener("click", () => goTo(state.cursor - 1));
  $("forward").addEventListener("click", () => goTo(state.cursor + 1));
  $("last").addEventListener("click", () => goTo(state.moves.length));
  $("flip").addEventListener("click", () => { state.flipped = !state.flipped; renderBoard(state.answer); });
  $("load").addEventListener("submit", load);
  $("copy").addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText($("share").href);
      $("copy").textContent = "Copied";
    } catch (_) {
      getSelection().selectAllChildren($("share"));
      $("copy").textContent = "Press Ctrl-C";
    }
    setTimeout(() => { $("copy").textContent = "Copy link"; }, 1500);
  });
  document.addEventListener("keydown", keys);

  await show((message) => {
    // A shared link the server refuses: say why and show the start instead.
    $("load-error").textContent = `the link's position: ${message}`;
    $("load-error").hidden = false;
    selectGame(state.game);
    show();
  });
}

// Chooses a game: the page's parts for it, and its first line (the start of a round; for
// Kamon, the position the server lists: a late one of a random layout, solved at once).
function selectGame(id) {
  state.game = id;
  $("game").value = id;
  document.body.dataset.game = id;
  const kamon = id === "kamon";
  $("title").textContent = kamon ? "Kamon" : id === "match" ? "Kamisado match" : "Kamisado";
  $("paste").placeholder = kamon
    ? "a seed (7), a layout text with placements after it, or placements (b1 d4)"
    : id === "match"
      ? "a match record (g1-g7 h8-h6 g7-h8 left ...) or a match position text"
      : "a move list (a1-a5 d8-d3) or a position text";
  $("paste").setAttribute("aria-label", kamon ? "layout, seed or placements" : "position or moves");
  $("moves-title").textContent = kamon ? "Every cell" : "Every move";
  $("moves-col").textContent = kamon ? "cell" : "move";
  $("moves-extra").textContent = kamon ? "chip" : "source";
  if (kamon) $("moves-match").hidden = true;
  Object.assign(state, { start: null, layout: null, after: null, moves: [], cursor: 0, played: [], answer: null });
  if (id === "match") {
    const targets = (currentGame() || {}).targets || [];
    state.target = targets.length ? targets[0].points : 3;
    $("target").value = String(state.target);
  }
  if (kamon) {
    const first = new URLSearchParams((currentGame() || {}).first_query || "seed=1");
    state.layout = first.get("layout") ? { text: first.get("layout") } : { seed: first.get("seed") || "1" };
    state.after = first.get("after");
  }
}

// ---- Kamon -------------------------------------------------------------------------------

const KAMON_ROWS = [4, 5, 6, 7, 6, 5, 4];
// The six symbols, each with its shape; the colour is the stylesheet's `--sym-x`.
const SYMBOL_GLYPHS = { a: "\u25CF", b: "\u25B2", c: "\u25A0", d: "\u25C6", e: "\u2605", f: "\u271A" };
const SYMBOL_NAMES = { a: "circles", b: "triangles", c: "squares", d: "diamonds", e: "stars", f: "crosses" };
const KAMON_REASONS = { connection: "a connection", loop: "a loop", "full board": "a full board", "no legal cell": "no legal cell" };

function describeKamon(value, remoteness) {
  const s = remoteness === 1 ? "" : "s";
  if (value === "win") return `wins in ${remoteness} placement${s}`;
  if (value === "loss") return `loses in ${remoteness} placement${s}`;
  if (value === "draw") return `draws (the board fills in ${remoteness})`;
  return "";
}

function kamonBadge(value, remoteness) {
  if (value === "win") return `W${remoteness}`;
  if (value === "loss") return `L${remoteness}`;
  if (value === "draw") return `D${remoteness}`;
  return "?";
}

// A chip drawn: `count` copies of its symbol in the symbol's colour; `--` is the
// first-player chip.
function chipView(chip) {
  if (chip === "--") return el("span", { class: "chip first" });
  const count = Number(chip[0]);
  const symbol = chip[1];
  const view = el("span", { class: `chip s-${symbol} n${count}` });
  for (let i = 0; i < count; i++) view.append(el("span", {}, SYMBOL_GLYPHS[symbol] || symbol));
  return view;
}

function chipTitle(chip) {
  if (chip === "--") return "the first-player chip: forbidden to both players";
  return `${chip}: ${chip[0]} ${SYMBOL_NAMES[chip[1]] || chip[1]}`;
}

function renderKamon(a) {
  renderKamonBoard(a);
  renderKamonStatus(a);
  renderHistory();
  renderKamonLine(a);
  renderKamonCells(a);
  renderShare(a);
}

function renderKamonBoard(a) {
  const answers = new Map(a.cells.map((c) => [c.cell, c]));
  const legal = new Set(a.legal_cells);
  const hover = state.hover;
  const board = $("hexboard");
  board.replaceChildren();
  // Pointy-topped hexagons: a row is half a cell in from a longer one, rows overlap by
  // a quarter of a hexagon's height.
  const w = board.clientWidth / 7 || 77;
  const h = w * 1.1547;
  let index = 0;
  KAMON_ROWS.forEach((n, row) => {
    for (let k = 0; k < n; k++) {
      const info = a.board[index++];
      const hex = el("div", {
        class: "hex",
        dataset: { cell: info.cell, chip: info.chip },
        style: `left: ${((7 - n) / 2 + k) * w}px; top: ${row * 0.75 * h}px`,
        title: `${info.cell}: ${chipTitle(info.chip)}`,
      });
      const face = el("div", { class: "face" });
      hex.append(face);
      if (info.chip === "--") hex.classList.add("forbidden");
      else face.append(chipView(info.chip), el("span", { class: "chip-name" }, info.chip));
      face.append(el("span", { class: "cell-name" }, info.cell));
      if (info.piece) {
        face.append(el("span", { class: `piece ${info.piece}`, dataset: { piece: info.piece } }));
        hex.title = `${info.cell}: ${capitalise(info.piece)}'s piece (chip ${info.chip})`;
      }
      if (info.cell === a.last_move) hex.classList.add("last");
      if (info.cell === hover) hex.classList.add("hover");
      if (legal.has(info.cell)) {
        const answer = answers.get(info.cell);
        const value = answer ? answer.value : null;
        const remoteness = answer ? answer.remoteness : null;
        hex.classList.add("legal");
        if (value) hex.classList.add(value);
        const badge = el("span", {
          class: `badge ${value || "unknown"}${answer && answer.best ? " best" : ""}`,
          dataset: value ? { cell: info.cell, value, remoteness: String(remoteness) } : { cell: info.cell },
          title: `${info.cell}: ${value ? `the mover ${describeKamon(value, remoteness)}` : "not answered in time"}`,
        }, kamonBadge(value, remoteness));
        hex.append(badge);
        hex.addEventListener("click", () => play([info.cell]));
      }
      board.append(hex);
    }
  });

  // Both players on one line above the board: in Kamon no edge of the board is a
  // player's (either connects any two opposite sides), so none is labelled as theirs.
  const toMove = a.end ? null : a.to_move;
  const label = (side) => el("span", { class: `side${side === toMove ? " to-move" : ""}`, dataset: { side } },
    el("span", { class: `dot ${side}` }), " ", capitalise(side),
    side === toMove ? el("span", { class: "arrow" }, " \u2190 to move") : null);
  $("player-top").replaceChildren(label("black"), label("white"));
  $("player-top").classList.remove("to-move");
  $("player-bottom").replaceChildren();
  $("player-bottom").hidden = true;
  $("first").disabled = state.cursor === 0;
  $("back").disabled = state.cursor === 0;
  $("forward").disabled = state.cursor >= state.moves.length;
  $("last").disabled = state.cursor >= state.moves.length;
}

function renderKamonStatus(a) {
  const turn = $("turn");
  const value = $("value");
  value.className = "value";
  value.dataset.value = a.value || "";
  value.dataset.remoteness = a.remoteness == null ? "" : String(a.remoteness);
  turn.textContent = capitalise(a.status);
  if (a.end) {
    value.textContent = a.end.winner
      ? `${capitalise(a.end.winner)} won by ${KAMON_REASONS[a.end.reason] || a.end.reason}`
      : "Drawn: the board is full";
    value.classList.add("over");
  } else if (a.value) {
    value.textContent = `${capitalise(a.to_move)} ${describeKamon(a.value, a.remoteness)}`;
    value.classList.add(a.value);
  } else {
    value.textContent = "not solved within the limit";
  }
  const parts = [];
  if (a.value && !a.end && a.best && a.best.length) parts.push(`best: ${a.best.join(" ")}`);
  if (a.ends_by && !a.end) parts.push(`the perfect line ends by ${KAMON_REASONS[a.ends_by] || a.ends_by}`);
  parts.push(`searched live: ${a.nodes.toLocaleString("en")} nodes, ${a.seconds.toFixed(3)} s`);
  $("source").textContent = parts.join("; ");

  const notes = [];
  if (a.last_move) {
    const top = a.board.find((c) => c.cell === a.last_move);
    notes.push(el("div", {}, "Top of the stack: ",
      el("span", { class: "stack-chip", title: chipTitle(top.chip) }, chipView(top.chip), top.chip),
      ` (from ${a.last_move}): the next piece goes on a free cell with the same symbol or the same count.`));
  }
  const event = $("event");
  event.replaceChildren(...notes);
  event.hidden = notes.length === 0;
  showMessage(a.message || "");
}

function renderKamonLine(a) {
  const line = $("pv");
  line.replaceChildren();
  if (a.end) {
    line.append(el("span", { class: "muted" }, "the game is over"));
    return;
  }
  if (!a.pv || !a.pv.length) {
    line.append(el("span", { class: "muted" }, "not found within the time limit"));
    return;
  }
  a.pv.forEach((cell, i) => {
    const b = el("button", { type: "button", dataset: { index: String(i) }, title: `play the line up to ${cell}` }, cell);
    b.addEventListener("click", () => play(a.pv.slice(0, i + 1)));
    b.addEventListener("mouseenter", () => { if (i === 0) { state.hover = cell; renderKamonBoard(a); } });
    b.addEventListener("mouseleave", () => { if (state.hover) { state.hover = null; renderKamonBoard(a); } });
    line.append(b);
  });
  if (!a.pv_complete) line.append(el("span", { class: "muted" }, "\u2026 (cut short)"));
}

function renderKamonCells(a) {
  const body = $("moves").tBodies[0];
  body.replaceChildren();
  const chips = new Map(a.board.map((c) => [c.cell, c.chip]));
  const answered = new Set(a.cells.map((c) => c.cell));
  const rows = a.cells.concat(a.legal_cells.filter((c) => !answered.has(c)).map((c) => ({ cell: c })));
  for (const c of rows) {
    const row = el("tr", { dataset: { move: c.cell } },
      el("td", {}, c.cell),
      el("td", { class: `res ${c.value || ""}` }, c.value ? describeKamon(c.value, c.remoteness) : "not answered"),
      el("td", { class: "src" }, chips.get(c.cell) || ""));
    row.addEventListener("click", () => play([c.cell]));
    row.addEventListener("mouseenter", () => { state.hover = c.cell; renderKamonBoard(a); });
    row.addEventListener("mouseleave", () => { state.hover = null; renderKamonBoard(a); });
    body.append(row);
  }
  if (!rows.length) body.append(el("tr", {}, el("td", { colspan: "3" }, "no cells: the game is over")));
}

// A pasted text for Kamon: a share link, a seed, a layout text with placements after it,
// or placements on the current layout.
function readPastedKamon(text) {
  text = text.trim();
  if (/^https?:\/\//.test(text) || text.startsWith("/?") || text.startsWith("?")) {
    const p = new URL(text, location.origin).searchParams;
    const layout = p.get("seed") ? { seed: p.get("seed") } : p.get("layout") ? { text: p.get("layout") } : null;
    return { layout, after: p.get("after"), moves: (p.get("moves") || "").split(/\s+/).filter(Boolean) };
  }
  const seed = text.match(/^(?:seed\s*)?(\d+)(?:\s+after\s+(\d+))?$/i);
  if (seed) return { layout: { seed: seed[1] }, after: seed[2] || null, moves: [] };
  const words = text.split(/\s+/).filter(Boolean);
  if (words.length && words[0].includes("/")) return { layout: { text: words[0] }, moves: words.slice(1) };
  return { layout: null, moves: words };
}

init();
