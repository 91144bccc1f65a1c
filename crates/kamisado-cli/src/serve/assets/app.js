// The analysis board. It knows no rules: every legal move, every value, every
// zero-length move comes from the server's /api/query; the page draws them and keeps the
// line being looked at (its start, its moves, how far along it the board is).
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
  start: null,     // position text of the line's start; null: the start of a round
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

// The board field of a position text: the tower on each square.
function readPosition(text) {
  const [board, side, active] = text.trim().split(/\s+/);
  const towers = {};
  board.split("/").forEach((row, i) => {
    const rank = 8 - i;
    let file = 0;
    for (const ch of row) {
      if (ch >= "1" && ch <= "8") { file += Number(ch); continue; }
      towers[FILES[file] + rank] = {
        side: ch === ch.toUpperCase() ? "black" : "white",
        colour: ch.toLowerCase(),
      };
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

function badgeText(value, remoteness) {
  if (value === "win") return `W${remoteness}`;
  if (value === "loss") return `L${remoteness}`;
  if (value === "draw") return "D";
  return "?";
}

const SOURCES = { db: "from the database", search: "searched live", rules: "by the rules" };

function queryParams(moveCount) {
  const p = new URLSearchParams();
  if (state.game !== "kamisado") p.set("game", state.game);
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
      const error = new Error(body.error || `HTTP ${response.status}`);
      error.status = response.status;
      throw error;
    }
    return body;
  }
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
    // Zero-length moves written out in a pasted list are not moves: keep the line as the
    // server played it.
    const played = answer.line.moves.map((m) => m.move);
    if (played.join(" ") !== state.moves.slice(0, state.cursor).join(" ")) {
      state.moves = played.concat(state.moves.slice(state.cursor));
      state.cursor = played.length;
    }
    state.played.length = Math.max(state.played.length, answer.line.moves.length);
    answer.line.moves.forEach((m, i) => { state.played[i] = m; });
    state.startZeros = answer.line.zero_length_moves;
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
        sq.append(t);
        if (byFrom.has(square)) {
          sq.classList.add("clickable");
          sq.addEventListener("click", () => { state.selected = square; renderBoard(state.answer); });
        }
      }
      const dest = destinations.get(square);
      if (dest) {
        const value = dest.answer ? dest.answer.value : null;
        const remoteness = dest.answer ? dest.answer.remoteness : null;
        const badge = el("span", {
          class: `badge ${value || "unknown"}${dest.best ? " best" : ""}`,
          dataset: value ? { move: dest.move, value, remoteness: String(remoteness) } : { move: dest.move },
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
  if (a.winner) {
    turn.textContent = "Game over";
    value.textContent = `${capitalise(a.winner)} won: ${REASONS[a.reason] || a.reason}`;
    value.classList.add("over");
  } else {
    const active = a.active ? `, the ${a.active} tower` : ", any tower (free move)";
    turn.textContent = `${capitalise(a.to_move)} to move${active}`;
    if (a.value) {
      value.textContent = `${capitalise(a.to_move)} ${describe(a.value, a.remoteness)}`;
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
  if (a.reason === "deadlock") {
    notes.push(`The blocked towers name each other in a circle: deadlock; ${a.winner === "black" ? "White" : "Black"} made the last move and loses.`);
  }
  const event = $("event");
  event.replaceChildren(...notes.map((n) => el("div", {}, n)));
  event.hidden = notes.length === 0;
  showMessage(a.message || "");
}

function renderHistory() {
  const list = $("history");
  list.replaceChildren();
  if (state.startZeros.length) {
    list.append(el("li", { class: "empty" }, `start: zero-length ${state.startZeros.join(" ")}`));
  }
  if (!state.moves.length) {
    list.append(el("li", { class: "empty" }, "none yet: click a tower, then where it goes"));
    return;
  }
  state.moves.forEach((mv, i) => {
    const info = state.played[i];
    const cls = i === state.cursor - 1 ? "current" : i >= state.cursor ? "future" : "";
    const item = el("li", { class: cls, dataset: { index: String(i + 1) }, title: "go to this move" },
      el("span", { class: "n" }, `${i + 1}.`),
      info ? el("span", { class: `dot ${info.side}` }) : null,
      mv,
      info && info.zero_length_moves.length
        ? el("span", { class: "zero", title: "zero-length moves that followed" }, `(${info.zero_length_moves.join(" ")})`)
        : null);
    item.addEventListener("click", () => goTo(i + 1));
    list.append(item);
  });
  const current = list.querySelector(".current");
  if (current) current.scrollIntoView({ block: "nearest" });
}

function renderLine(a) {
  const line = $("pv");
  line.replaceChildren();
  if (a.winner) {
    line.append(el("span", { class: "muted" }, "the game is over"));
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
  for (const m of rows) {
    const row = el("tr", { dataset: { move: m.move } },
      el("td", {}, m.move),
      el("td", { class: `res ${m.value || ""}` }, m.value ? describe(m.value, m.remoteness) : "not answered"),
      el("td", { class: "src" }, m.source || ""));
    row.addEventListener("click", () => play([m.move]));
    row.addEventListener("mouseenter", () => { state.hover = m.move; renderBoard(a); });
    row.addEventListener("mouseleave", () => { state.hover = null; renderBoard(a); });
    body.append(row);
  }
  if (!rows.length) body.append(el("tr", {}, el("td", { colspan: "3" }, "no moves: the game is over")));
}

function renderShare(a) {
  const params = queryParams(state.cursor);
  const query = params.toString();
  const url = `${location.origin}/${query ? `?${query}` : ""}`;
  const link = $("share");
  link.href = url;
  link.textContent = url;
  history.replaceState(null, "", url);
  $("fen").textContent = a.position;
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
    let rest = words.slice(3);
    if (rest[0] === "moves") rest = rest.slice(1);
    return { start: words.slice(0, 3).join(" "), moves: rest };
  }
  return { start: null, moves: words };
}

async function load(event) {
  event.preventDefault();
  const pasted = readPasted($("paste").value);
  const before = { start: state.start, moves: state.moves, cursor: state.cursor, played: state.played };
  Object.assign(state, { start: pasted.start, moves: pasted.moves, cursor: pasted.moves.length, played: [] });
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
  state.game = listing.games.some((g) => g.id === wanted && g.available) ? wanted : listing.default;
  select.value = state.game;
  select.addEventListener("change", () => {
    state.game = select.value;
    Object.assign(state, { start: null, moves: [], cursor: 0, played: [] });
    show();
  });
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
    Object.assign(state, { start: null, moves: [], cursor: 0, played: [] });
    show();
  });
}

init();
