// The web table's page: draws any game from the messages of one seat's
// stream (or the spectators'). Nothing here knows a game: boards, zones,
// components and decisions come from the server as the seat may know them.
"use strict";

const params = new URLSearchParams(location.search);
const token = params.get("token") || "";
let query = token ? "?token=" + encodeURIComponent(token) : "";

const table = {
  hello: null,      // the table: the game, the seat, boards' sizes, component types
  names: null,      // the players' names (the seat protocol's hello)
  view: null,       // the latest view of the game
  decide: null,     // the open decision of this seat, or null
  waiting: null,    // the seat (or seats) another decision waits for; "others" once this seat answered a simultaneous one
  end: null,        // the end message
  answering: false, // an answer (or an undo) is on its way
  decided: false,   // this seat has answered a decision (undo may take it back)
  source: null,     // the EventSource
  moved: new Set(), // the components the last change of the view moved (highlighted)
  changed: new Set(), // the zones whose count it changed
};

const $ = (id) => document.getElementById(id);
function el(tag, className, text) {
  const e = document.createElement(tag);
  if (className) e.className = className;
  if (text !== undefined) e.textContent = text;
  return e;
}

function playerName(seat) {
  const players = table.view && table.view.players;
  if (players && players[seat]) return players[seat].name;
  if (table.names && table.names[seat]) return table.names[seat];
  return "seat " + seat;
}

// How a component looks: the game's display (game.yaml) for its type and
// face, over the defaults the server filled in (title, colour attribute).
function lookOf(c) {
  const t = table.hello && table.hello.types[c.type];
  return (t && t.looks && t.looks[c.face]) || { label: (t && t.title) || c.type, glyph: "" };
}

function swatch(look) {
  const colour = look.colour;
  if (typeof colour === "string" && CSS.supports("color", colour)) return colour;
  return null;
}

function drawComponent(c) {
  if (c.hidden) {
    const back = el("div", "component back", "?");
    back.title = "hidden";
    return back;
  }
  const t = (table.hello && table.hello.types[c.type]) || { title: c.type, faces: [c.face], kind: "" };
  const look = lookOf(c);
  const e = el("div", "component " + (t.kind || ""));
  e.dataset.component = c.id;
  e.dataset.type = c.type;
  e.dataset.face = c.face;
  if (look.image) {
    const img = el("img", "image");
    img.src = look.image;
    img.alt = look.label;
    e.appendChild(img);
  }
  if (look.glyph) e.appendChild(el("span", "glyph", look.glyph));
  e.appendChild(el("span", "name", look.label));
  if (c.owner !== undefined) {
    e.appendChild(el("span", "owner", playerName(c.owner)));
    if (table.hello && c.owner === table.hello.seat) e.classList.add("mine");
  }
  if (c.facing) e.appendChild(el("span", "facing", "facing " + c.facing));
  if (table.moved.has(c.id)) e.classList.add("moved");
  const colour = swatch(look);
  if (colour) e.style.setProperty("--swatch", colour);
  e.title = c.type + (c.known ? " (known to you)" : "");
  return e;
}

// The game's layout hints (game.yaml display: layout:), per zone name.
function hintOf(zoneId) {
  const zones = (table.hello && table.hello.layout && table.hello.layout.zones) || {};
  return zones[zoneId.split("@")[0]] || null;
}

function seatOfZone(zoneId) {
  const at = zoneId.indexOf("@");
  return at < 0 ? null : Number(zoneId.slice(at + 1));
}

function drawBoards(besides) {
  const root = $("boards");
  root.replaceChildren();
  const boards = (table.hello && table.hello.boards) || {};
  const cells = (table.view && table.view.boards) || {};
  for (const [name, board] of Object.entries(boards)) {
    // The board in the middle of a frame; zones hinted to its sides around it.
    const frame = el("div", "board-frame");
    const box = el("div", "board");
    box.appendChild(el("h3", "", board.title || name));
    const grid = el("div", "grid");
    grid.style.gridTemplateColumns = "repeat(" + board.width + ", auto)";
    grid.style.setProperty("--columns", board.width);  // a phone's grid shares its width among them
    for (let y = 1; y <= board.height; ++y) {
      for (let x = 1; x <= board.width; ++x) {
        const key = x + "," + y;
        const cell = el("div", "cell");
        cell.dataset.board = name;
        cell.dataset.cell = key;
        for (const c of (cells[name] && cells[name][key]) || []) cell.appendChild(drawComponent(c));
        cell.appendChild(el("span", "coord", key));
        grid.appendChild(cell);
      }
    }
    box.appendChild(grid);
    frame.appendChild(box);
    for (const side of ["north", "south", "east", "west"]) {
      const beside = (besides[name] && besides[name][side]) || [];
      if (!beside.length) continue;
      const strip = el("div", "beside " + side);
      for (const zone of beside) strip.appendChild(zone);
      frame.appendChild(strip);
    }
    root.appendChild(frame);
  }
}

const MAX_BACKS = 12;  // a long hidden pile shows a few backs and its count

// A phone's width: other seats fold (the seats a player unfolded stay open).
const narrow = window.matchMedia("(max-width: 600px)");
const unfolded = new Set();
narrow.addEventListener("change", () => draw());

function drawZone(id, zone) {
  const box = el("div", "zone");
  box.dataset.zone = id;
  box.dataset.count = zone.count;
  if (table.changed.has(id)) box.classList.add("changed");
  const heading = el("h3", "", zone.title + " ");
  heading.appendChild(el("span", "count", "(" + zone.count + ")"));
  box.appendChild(heading);
  const row = el("div", "row");
  if (zone.components) {
    for (const c of zone.components) row.appendChild(drawComponent(c));
  } else {
    for (let i = 0; i < Math.min(zone.count, MAX_BACKS); ++i) row.appendChild(drawComponent({ hidden: true }));
    if (zone.count > MAX_BACKS) row.appendChild(el("span", "more", "+" + (zone.count - MAX_BACKS)));
  }
  box.appendChild(row);
  return box;
}

// Where each seat sits: the viewer's own at the bottom (seat 0's for the
// spectators), the others clockwise around: left, top, right.
function seatPlaces(count, own) {
  const places = {};
  places[own] = "bottom";
  const others = [];
  for (let i = 1; i < count; ++i) others.push((own + i) % count);
  const around = others.length === 1 ? ["top"] : others.length === 2 ? ["left", "right"]
      : ["left"].concat(Array(others.length - 2).fill("top"), ["right"]);
  others.forEach((seat, i) => { places[seat] = around[i]; });
  return places;
}

// The table: boards with the zones beside them, the row of piles, each
// seat's place with its hand; zones without a hint are listed below.
function drawTable() {
  const zones = (table.view && table.view.zones) || {};
  const besides = {};
  const piles = [];
  const seatZones = {};  // seat -> [hands, then the seat's other zones]
  const rest = [];
  for (const [id, zone] of Object.entries(zones)) {
    const hint = hintOf(id);
    const seat = seatOfZone(id);
    if (hint && hint.place === "side") {
      besides[hint.board] = besides[hint.board] || {};
      (besides[hint.board][hint.side] = besides[hint.board][hint.side] || []).push(drawZone(id, zone));
    } else if (hint && hint.place === "row") {
      piles.push(drawZone(id, zone));
    } else if (hint && seat !== null && (hint.place === "hand" || hint.place === "seat")) {
      const list = (seatZones[seat] = seatZones[seat] || { hand: [], seat: [] });
      list[hint.place].push(drawZone(id, zone));
    } else if (zone.count) {
      rest.push(drawZone(id, zone));
    }
  }
  drawBoards(besides);
  $("piles").replaceChildren(...piles);
  $("zones").replaceChildren(...rest);
  for (const where of ["top", "left", "right", "bottom"]) $("seats-" + where).replaceChildren();
  const players = (table.view && table.view.players) || [];
  if (!players.length || !Object.keys(seatZones).length) return;
  const own = table.hello && table.hello.seat !== null && table.hello.seat !== undefined ? table.hello.seat : 0;
  const places = seatPlaces(players.length, own);
  const current = table.view.turn ? table.view.turn.current : -1;
  for (const p of players) {
    const own = table.hello && p.seat === table.hello.seat;
    const list = seatZones[p.seat] || { hand: [], seat: [] };
    const zonesOf = list.hand.concat(list.seat);
    // Another seat's place folds on a narrow screen: its name and how many
    // components it holds, the rest a tap away (kept open once opened).
    const place = el(own ? "div" : "details", "seat");
    place.dataset.seat = p.seat;
    if (p.seat === current && !table.end) place.classList.add("turn");
    if (own) {
      place.classList.add("own");
      place.appendChild(el("h3", "", p.name));
    } else {
      const held = zonesOf.reduce((n, z) => n + Number(z.dataset.count || 0), 0);
      const summary = el("summary", "", p.name + " ");
      summary.appendChild(el("span", "count", "(" + held + ")"));
      place.appendChild(summary);
      place.open = !narrow.matches || unfolded.has(p.seat);
      place.addEventListener("toggle", () => { if (narrow.matches) (place.open ? unfolded.add(p.seat) : unfolded.delete(p.seat)); });
    }
    for (const zone of zonesOf) place.appendChild(zone);
    $("seats-" + places[p.seat]).appendChild(place);
  }
}

// What the last change of the view moved: components now somewhere else
// (or newly seen) and zones whose count changed.
function whereEach(view) {
  const where = new Map();
  const counts = new Map();
  if (!view) return { where, counts };
  for (const [id, zone] of Object.entries(view.zones || {})) {
    counts.set(id, zone.count);
    for (const c of zone.components || []) if (c.id !== undefined) where.set(c.id, id + (c.face ? "/" + c.face : ""));
  }
  for (const [board, cells] of Object.entries(view.boards || {}))
    for (const [cell, list] of Object.entries(cells))
      for (const c of list) if (c.id !== undefined) where.set(c.id, board + "@" + cell + (c.face ? "/" + c.face : ""));
  return { where, counts };
}

function noteChanges(before, after) {
  table.moved = new Set();
  table.changed = new Set();
  if (!before) return;
  const was = whereEach(before), now = whereEach(after);
  for (const [id, place] of now.where) if (was.where.get(id) !== place) table.moved.add(id);
  for (const [id, count] of now.counts) if (was.counts.has(id) && was.counts.get(id) !== count) table.changed.add(id);
}

function drawPlayers() {
  const list = $("players");
  list.replaceChildren();
  if (!table.view) return;
  const current = table.view.turn ? table.view.turn.current : -1;
  for (const p of table.view.players) {
    const item = el("li", "", p.name + " — " + p.score + (p.score === 1 ? " point" : " points"));
    if (p.seat === current && !table.end) item.classList.add("turn");
    if (p.eliminated) item.classList.add("out");
    if (table.hello && p.seat === table.hello.seat) item.classList.add("you");
    list.appendChild(item);
  }
}

function describeValue(v) {
  if (v === null || typeof v !== "object") return String(v);
  if (Array.isArray(v)) return v.map(describeValue).join(", ");
  return Object.entries(v).map(([k, x]) => k + ": " + describeValue(x)).join("; ");
}

function drawState() {
  const list = $("state");
  list.replaceChildren();
  // The rules' own words (rules.describe), when they give them.
  const describe = table.view && table.view.describe;
  if (describe) {
    $("state-heading").hidden = describe.length === 0;
    $("state-heading").textContent = "At a glance";
    for (const item of describe) {
      if (typeof item === "string") {
        list.appendChild(el("dd", "line", item));
      } else {
        list.appendChild(el("dt", "", item.label));
        list.appendChild(el("dd", "", describeValue(item.value)));
      }
    }
    return;
  }
  const state = table.view && table.view.state;
  $("state-heading").hidden = !state;
  $("state-heading").textContent = "Game state";
  if (!state || typeof state !== "object") return;
  for (const [key, value] of Object.entries(state)) {
    list.appendChild(el("dt", "", key.replace(/_/g, " ")));
    list.appendChild(el("dd", "", describeValue(value)));
  }
}

function drawUndo() {
  const seat = table.hello && table.hello.seat;
  const button = $("undo");
  button.hidden = seat === null || seat === undefined || !!table.end || !table.decided;
  button.disabled = table.answering;
}

function drawStatus() {
  const status = $("status");
  status.className = "status";
  if (table.end) {
    status.classList.add("over");
    if (table.end.error) {
      status.textContent = "The game stopped: " + table.end.error;
    } else {
      const r = table.end.result || {};
      const winners = (r.winners || []).map(playerName);
      let text = "Game over. ";
      if (winners.length) text += (winners.length > 1 ? "Winners: " : "Winner: ") + winners.join(", ") + ". ";
      if (r.summary) text += r.summary;
      status.textContent = text;
    }
    return;
  }
  if (table.decide) status.textContent = table.decide.together ? "Your decision (everybody decides at once)." : "Your decision.";
  else if (table.waiting === "others") status.textContent = "Your answer is in. Waiting for the others…";
  else if (Array.isArray(table.waiting)) status.textContent = "Waiting for " + table.waiting.map(playerName).join(" and ") + "…";
  else if (table.waiting !== null && table.waiting !== undefined) status.textContent = "Waiting for " + playerName(table.waiting) + "…";
  else status.textContent = "";
}

function drawDecision() {
  const box = $("decision");
  const d = table.decide;
  box.hidden = !d || !!table.end;
  if (box.hidden) return;
  $("prompt").textContent = d.prompt;
  const options = $("options");
  options.replaceChildren();
  options.dataset.decision = d.decision;
  const button = (o) => {
    const b = el("button", "", o.label);
    b.dataset.index = o.index;
    b.disabled = table.answering;
    b.addEventListener("click", () => answer(d.decision, o.index));
    return b;
  };
  // Options on the same component (cell, zone) go together under its name;
  // a long list folds each group, to choose the component, then the option.
  const groups = new Map();
  const loose = [];
  for (const o of d.options) {
    const key = targetKey(o.target);
    if (key === null) loose.push(o);
    else groups.set(key, (groups.get(key) || []).concat([o]));
  }
  const shared = [...groups.values()].some((g) => g.length > 1);
  if (!shared) {
    for (const o of d.options) options.appendChild(button(o));
    return;
  }
  const fold = d.options.length > FOLD_OPTIONS;
  for (const [key, list] of groups) {
    if (list.length === 1) { loose.push(list[0]); continue; }
    const title = targetName(list[0].target, key) + " (" + list.length + ")";
    const group = el(fold ? "details" : "div", "group");
    group.dataset.target = key;
    if (fold) {
      group.appendChild(el("summary", "", title));
      const row = el("div", "row");
      for (const o of list) row.appendChild(button(o));
      group.appendChild(row);
      group.open = openGroup === key;
      group.addEventListener("toggle", () => { if (group.open) openGroup = key; });
    } else {
      group.appendChild(el("div", "group-title", title));
      for (const o of list) group.appendChild(button(o));
    }
    options.appendChild(group);
  }
  if (loose.length) {
    const group = el("div", "group");
    for (const o of loose.sort((a, b) => a.index - b.index)) group.appendChild(button(o));
    options.appendChild(group);
  }
}

const FOLD_OPTIONS = 16;  // more options than this: pick the component first
let openGroup = null;     // the folded group the player opened

function targetKey(t) {
  if (!t) return null;
  if (t.component !== undefined) return "component:" + t.component;
  if (t.board !== undefined) return "cell:" + t.board + "@" + t.cell;
  if (t.zone !== undefined) return "zone:" + t.zone;
  return null;
}

// What the player calls a target: the component's look, the cell, the zone's title.
function targetName(t, key) {
  const view = table.view || {};
  if (t.component !== undefined) {
    for (const zone of Object.values(view.zones || {}))
      for (const c of zone.components || []) if (c.id === t.component) return lookOf(c).label;
    for (const cells of Object.values(view.boards || {}))
      for (const list of Object.values(cells))
        for (const c of list) if (c.id === t.component) return lookOf(c).label;
  }
  if (t.zone !== undefined && view.zones && view.zones[t.zone]) return view.zones[t.zone].title;
  if (t.board !== undefined) return t.cell;
  return key;
}

// Options that are components or cells on the table are offered there
// too: a click on the component, cell or zone answers like its button.
function markTargets() {
  const d = table.decide;
  if (!d || table.end) return;
  const offered = new Map();  // element -> the options on it
  for (const o of d.options) {
    const t = o.target;
    if (!t) continue;
    let selector = null;
    if (t.component !== undefined) selector = '[data-component="' + t.component + '"]';
    else if (t.board !== undefined) selector = '.cell[data-board="' + CSS.escape(t.board) + '"][data-cell="' + t.cell + '"]';
    else if (t.zone !== undefined) selector = '.zone[data-zone="' + CSS.escape(t.zone) + '"]';
    const element = selector && document.querySelector(selector);
    if (element) offered.set(element, (offered.get(element) || []).concat([o]));
  }
  for (const [element, options] of offered) {
    if (options.length !== 1) continue;  // two options on one thing: only their buttons tell them apart
    const o = options[0];
    element.classList.add("choosable");
    element.title = o.label;
    element.dataset.option = o.index;
    element.addEventListener("click", (e) => { e.stopPropagation(); answer(d.decision, o.index); });
  }
}

function draw() {
  if (table.hello) {
    $("title").textContent = table.hello.title || table.hello.game;
    document.title = (table.hello.title || table.hello.game) + " — rulebook";
    $("who").textContent = table.hello.seat === null ? "watching" : "you are " + playerName(table.hello.seat);
  }
  drawStatus();
  drawUndo();
  drawDecision();
  drawTable();
  drawPlayers();
  drawState();
  markTargets();
}

// Takes back this seat's last decision (and every one after it), unless
// something was revealed since: the server says why it refuses.
async function undo() {
  if (table.answering) return;
  table.answering = true;
  $("undo-error").textContent = "";
  drawUndo();
  try {
    const res = await fetch("api/undo" + query, { method: "POST" });
    if (!res.ok) {
      const body = await res.json().catch(() => ({ error: "HTTP " + res.status }));
      $("undo-error").textContent = body.error || "HTTP " + res.status;
    }
  } catch (e) {
    $("undo-error").textContent = "could not reach the table: " + e;
  } finally {
    table.answering = false;
    drawUndo();
  }
}

async function answer(decision, index) {
  if (table.answering) return;
  table.answering = true;
  $("answer-error").textContent = "";
  drawDecision();
  try {
    const res = await fetch("api/answer" + query, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ choose: index, decision: decision }),
    });
    if (!res.ok) {
      const body = await res.json().catch(() => ({ error: "HTTP " + res.status }));
      $("answer-error").textContent = body.error || "HTTP " + res.status;
    }
  } catch (e) {
    $("answer-error").textContent = "could not reach the table: " + e;
  } finally {
    table.answering = false;
    drawDecision();
  }
}

function narrate(lines) {
  const box = $("narration");
  const atEnd = box.scrollTop + box.clientHeight >= box.scrollHeight - 4;
  for (const line of lines) box.appendChild(el("p", "", line));
  if (atEnd || !narrate.scrolled) box.scrollTop = box.scrollHeight;
}

function receive(m) {
  switch (m.type) {
    case "table":
      // The table's first message again: the server restarted and brought
      // the table back, and the stream starts over. Start the page over.
      if (table.hello) { if (table.source) table.source.close(); location.reload(); return; }
      table.hello = m;
      break;
    case "hello": table.names = m.players; break;
    case "view":
      noteChanges(table.view, m.view);
      table.view = m.view;
      if (table.waiting === "others") table.waiting = null;  // views come once the game moved on
      // Every stream gets a view at the same moments of the game: pages
      // showing the same count show the same moment (tests compare them).
      document.body.dataset.views = (Number(document.body.dataset.views) || 0) + 1;
      break;
    case "narration":
      // The game moved on: nobody is waited for until told again.
      if (table.waiting === "others") { table.waiting = null; drawStatus(); }
      narrate(m.lines);
      return;
    case "event": return;  // the view that follows shows what changed
    case "decide": table.decide = m; table.waiting = null; break;
    // A simultaneous decision names every seat it waits for.
    case "waiting": table.waiting = m.seats || m.seat; break;
    case "answered":
      if (table.decide && table.decide.decision === m.decision) {
        // Everybody decides at once: the others have not all answered yet.
        if (table.decide.together) table.waiting = "others";
        table.decide = null;
      }
      table.decided = true;
      break;
    case "undo":
      // Decisions from m.decision on were taken back: the game is back
      // where this seat's decision m.decision is about to be asked.
      table.decide = null;
      noteChanges(null, m.view);
      table.view = m.view;
      table.decided = m.decision > 1;
      $("undo-error").textContent = "";
      break;
    case "end":
      table.end = m;
      table.decide = null;
      // Nothing follows the end: no reconnecting once the server is gone.
      if (table.source) table.source.close();
      $("connection").textContent = "game over";
      $("connection").className = "connection";
      break;
    default: return;
  }
  draw();
}

$("narration").addEventListener("wheel", () => { narrate.scrolled = true; });
$("undo").addEventListener("click", undo);

function connect() {
  const source = new EventSource("api/events" + query);
  table.source = source;
  source.onopen = () => { $("connection").textContent = "connected"; $("connection").className = "connection"; };
  source.onmessage = (e) => { receive(JSON.parse(e.data)); afterSeatMessage(); };
  source.onerror = () => {
    if (table.end) return;
    $("connection").textContent = "reconnecting…";
    $("connection").className = "connection down";
  };
}

// ---- Pass the device (rulebook serve --hot-seat) -------------------------
// ?seats=SEAT:TOKEN,SEAT:TOKEN...: one screen for several seats. The page
// follows the spectators' stream (public: whom the game waits for) and
// opens a seat's own stream only after its player tapped "I am NAME":
// between two seats it shows "pass to NAME" and holds nothing of the
// previous seat's (its view, narration and decision are dropped).
const hot = parseSeats(params.get("seats"));

function parseSeats(text) {
  if (!text) return null;
  const tokens = new Map();
  for (const part of text.split(",")) {
    const at = part.indexOf(":");
    if (at > 0) tokens.set(Number(part.slice(0, at)), part.slice(at + 1));
  }
  return tokens.size ? { tokens, shown: null, names: {}, waiting: null, served: new Set(), watch: null, over: false } : null;
}

// Forgets everything the seat shown so far saw, and its stream.
function forgetSeat() {
  if (table.source) table.source.close();
  table.source = null;
  Object.assign(table, { hello: null, names: null, view: null, decide: null, waiting: null, end: null, answering: false,
                         decided: false, moved: new Set(), changed: new Set() });
  $("narration").replaceChildren();
  $("answer-error").textContent = "";
  $("undo-error").textContent = "";
  document.body.dataset.views = 0;
  draw();
}

function showSeat(seat) {
  forgetSeat();
  hot.shown = seat;
  $("pass").hidden = true;
  document.body.dataset.shown = seat === null ? "" : seat;
  query = seat === null ? "" : "?token=" + encodeURIComponent(hot.tokens.get(seat));
  connect();
}

function passTo(seat) {
  forgetSeat();
  hot.shown = null;
  document.body.dataset.shown = "";
  const name = hot.names[seat] || "seat " + seat;
  $("pass-to").textContent = "Pass the device to " + name;
  $("pass-note").textContent = "The screen hides every hand until " + name + " taps.";
  const ready = $("pass-ready");
  ready.textContent = "I am " + name + ": show my hand";
  ready.dataset.seat = seat;
  ready.hidden = false;
  $("pass").hidden = false;
  $("pass").dataset.seat = seat;
}

// The hot seats the game waits for now and that have not answered.
function hotSeatsWaited() {
  if (!hot.waiting) return [];
  return hot.waiting.seats.filter((s) => hot.tokens.has(s) && !hot.served.has(hot.waiting.index + ":" + s));
}

// Whom the screen belongs to now.
function steer() {
  if (hot.over) return;
  const next = hotSeatsWaited();
  if (!next.length) return;                  // a bot or a remote player decides: the screen stays
  if (next.includes(hot.shown)) return;      // the seat shown decides again
  if ($("pass").hidden || Number($("pass").dataset.seat) !== next[0]) passTo(next[0]);
}

function watchForHotSeat() {
  let index = 0;
  const source = new EventSource("api/events");
  hot.watch = source;
  source.onmessage = (e) => {
    const m = JSON.parse(e.data);
    ++index;
    if (m.type === "table" && index > 1) { source.close(); location.reload(); return; }  // the server restarted
    if (m.type === "view" && m.view && m.view.players) for (const p of m.view.players) hot.names[p.seat] = p.name;
    if (m.type === "waiting") {
      const seats = m.seats || [m.seat];
      const names = m.players || [m.player];
      seats.forEach((s, i) => { if (names[i]) hot.names[s] = names[i]; });
      hot.waiting = { index, seats };
      steer();
    }
    if (m.type === "end") {
      hot.over = true;
      source.close();
      showSeat(null);  // the end, as everybody may see it
    }
  };
}

// A seat's answer to a simultaneous decision is in: the next hot seat of
// it. Looked at once the seat's stream is quiet (a stream opened late
// replays earlier answers first).
let settling = null;
function afterSeatMessage() {
  if (!hot || hot.shown === null) return;
  clearTimeout(settling);
  settling = setTimeout(() => {
    if (hot.shown === null || !hot.waiting || table.waiting !== "others") return;
    hot.served.add(hot.waiting.index + ":" + hot.shown);
    steer();
  }, 250);
}

if (hot) {
  $("pass-ready").addEventListener("click", () => showSeat(Number($("pass-ready").dataset.seat)));
  $("pass-to").textContent = "Waiting for the game…";
  $("pass").hidden = false;
  watchForHotSeat();
} else {
  connect();
}
