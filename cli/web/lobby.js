// The lobby's page: the games this server offers, a form that opens a
// table (POST api/tables) and shows its links, and the tables being
// played, refreshed every few seconds. Everything comes from the lobby's
// API (docs/serving.md); nothing here knows a game.
"use strict";

const $ = (id) => document.getElementById(id);
let catalogue = null;  // GET api/games: games, agents, limits

function element(tag, attributes = {}, ...children) {
  const e = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) {
    if (key === "text") e.textContent = value;
    else e.setAttribute(key, value);
  }
  for (const child of children) e.append(child);
  return e;
}

const chosenGame = () => catalogue.games.find((g) => g.name === $("game").value);

// The form for the chosen game: its players, seats, variants and options.
function showGame() {
  const game = chosenGame();
  $("description").textContent = game.description || "";
  const players = $("players");
  players.replaceChildren();
  for (let n = game.players.min; n <= game.players.max; ++n) players.append(element("option", { value: n, text: n }));
  players.value = game.players.default;
  showSeats();

  $("variant-rows").replaceChildren(...game.variants.map((v) =>
    element("label", { class: "check", title: v.description || "" },
            element("input", { type: "checkbox", name: "variant", value: v.name }), `${v.title} (${v.name})`)));
  $("variants").hidden = game.variants.length === 0;

  const options = Object.entries(game.options);
  $("option-rows").replaceChildren(...options.map(([name, option]) => {
    const value = option.default;
    const input = typeof value === "boolean" ? element("input", { type: "checkbox" })
                : typeof value === "number" ? element("input", { type: "number", step: "any", value })
                : element("input", { type: "text", value: typeof value === "string" ? value : JSON.stringify(value) });
    if (typeof value === "boolean") input.checked = value;
    input.dataset.option = name;
    return element("div", { class: "option" }, element("label", {}, input, element("code", { text: name })),
                   element("div", { class: "muted", text: option.help || "" }));
  }));
  $("options").hidden = options.length === 0;
}

function showSeats() {
  const count = Number($("players").value);
  const rows = $("seat-rows");
  const kept = [...rows.children].map((row) => ({ name: row.querySelector("input").value, kind: row.querySelector("select").value }));
  rows.replaceChildren();
  for (let seat = 0; seat < count; ++seat) {
    const kind = element("select", { "data-seat": seat });
    for (const agent of catalogue.agents) kind.append(element("option", { value: agent.kind, text: agent.kind, title: agent.summary }));
    const name = element("input", { type: "text", placeholder: "name (optional)", "data-seat": seat });
    if (kept[seat]) {
      kind.value = kept[seat].kind;
      name.value = kept[seat].name;
    }
    rows.append(element("div", { class: "seat-row" }, element("span", { text: `Seat ${seat}` }), name, kind));
  }
}

// The request the form describes (docs/serving.md: POST /api/tables).
function request() {
  const game = chosenGame();
  const body = { game: game.name, players: Number($("players").value) };
  body.variants = [...document.querySelectorAll('input[name="variant"]:checked')].map((v) => v.value);
  body.set = [];
  for (const input of document.querySelectorAll("[data-option]")) {
    const name = input.dataset.option;
    const initial = game.options[name].default;
    const value = input.type === "checkbox" ? input.checked : input.value;
    if (String(value) !== (typeof initial === "string" ? initial : JSON.stringify(initial))) body.set.push(`options.${name}=${value}`);
  }
  body.agents = {};
  for (const select of document.querySelectorAll("#seat-rows select")) if (select.value !== "human") body.agents[select.dataset.seat] = select.value;
  const names = [...document.querySelectorAll("#seat-rows input")].map((i) => i.value.trim());
  if (names.some((n) => n)) body.names = names;  // a blank one: the game's own name for the seat
  return body;
}

async function openTable(event) {
  event.preventDefault();
  $("create-error").textContent = "";
  $("open").disabled = true;
  try {
    const res = await fetch("api/tables", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(request()) });
    const answer = await res.json();
    if (!res.ok) {
      $("create-error").textContent = answer.error || `the lobby answered ${res.status}`;
      return;
    }
    showLinks(answer);
    refresh();
  } catch (e) {
    $("create-error").textContent = "the lobby could not be reached";
  } finally {
    $("open").disabled = false;
  }
}

function showLinks(answer) {
  $("created-title").textContent = `Table ${answer.table} is open`;
  const items = [];
  // One screen for every person: one link, which shows "pass to NAME" between seats.
  const hotSeat = $("hot-seat").checked && answer.links.hot_seat;
  if (hotSeat)
    items.push(element("li", { "data-seat": "hot" }, "Everybody at this screen: ",
                       element("a", { href: answer.links.hot_seat, target: "_blank", class: "hot-seat-link", text: "open the table" })));
  for (const seat of answer.seats) {
    const link = hotSeat ? null : answer.links[String(seat.seat)];
    if (hotSeat && seat.agent === "human") continue;
    const label = link ? `Seat ${seat.seat}: ` : `Seat ${seat.seat}: ${seat.agent} bot`;
    const item = element("li", { "data-seat": seat.seat }, label);
    if (link) {
      const copy = element("button", { type: "button", text: "copy" });
      copy.addEventListener("click", () => navigator.clipboard && navigator.clipboard.writeText(link));
      item.append(element("a", { href: link, target: "_blank", class: "seat-link", text: link }), copy);
    }
    items.push(item);
  }
  items.push(element("li", {}, "Spectators: ", element("a", { href: answer.links.spectators, target: "_blank", class: "watch-link", text: answer.links.spectators })));
  $("links").replaceChildren(...items);
  $("created").hidden = false;
}

// The tables being played and those ended a short while ago.
async function refresh() {
  try {
    const res = await fetch("api/tables", { cache: "no-store" });
    const tables = await res.json();
    $("connection").textContent = "";
    $("connection").classList.remove("down");
    $("none").hidden = tables.length > 0;
    $("tables").replaceChildren(...tables.reverse().map((t) => {
      const seats = t.seats.map((s) => {
        const who = s.agent === "human" ? "person" : `${s.agent} bot`;
        return s.name ? `${s.name} (${who})` : who;
      }).join(", ");
      const state = t.state + (t.result ? `: ${t.result}` : "") + (t.error ? `: ${t.error}` : "");
      const links = element("td");
      links.append(element("a", { href: t.links.spectators, target: "_blank", text: "watch" }));
      if (t.links.log) links.append(element("a", { href: t.links.log, class: "log-link", download: "", text: "log" }));
      return element("tr", { "data-table": t.table },
                     element("td", { text: t.table }),
                     element("td", { text: t.title + (t.variants.length ? ` (${t.variants.join(", ")})` : "") }),
                     element("td", { text: seats }),
                     element("td", { class: `table-state state-${t.state}`, text: state }),
                     element("td", { text: t.created.replace("T", " ").replace("Z", "") }),
                     links);
    }));
  } catch (e) {
    $("connection").textContent = "the lobby cannot be reached; retrying";
    $("connection").classList.add("down");
  }
}

async function start() {
  const res = await fetch("api/games", { cache: "no-store" });
  catalogue = await res.json();
  const select = $("game");
  for (const g of catalogue.games) select.append(element("option", { value: g.name, text: `${g.title} (${g.players.min}-${g.players.max} players)` }));
  select.addEventListener("change", showGame);
  $("players").addEventListener("change", showSeats);
  $("create").addEventListener("submit", openTable);
  showGame();
  const l = catalogue.limits;
  $("limits").textContent = `A table where nobody plays for ${l.idle_minutes} minutes is stopped; an ended table, with its log, ` +
                            `goes ${l.keep_minutes} minutes after its end. At most ${l.max_tables} tables at once.`;
  document.body.dataset.ready = "1";
  refresh();
  setInterval(refresh, 5000);
}

start();
