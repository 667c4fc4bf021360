// The lobby in a real browser: Debian's chromium, headless, driven by
// puppeteer-core. Starts `rulebook serve` with no game (a lobby), opens a
// 3-player Hai Noon table on the lobby's page (two people, seat 2 a random
// bot, seat 0 named, an option changed), checks the links it shows (none for the bot's seat),
// plays the whole game on both people's pages by clicking, then finds the
// table finished in the lobby's list, downloads its log there and checks
// that `rulebook replay` verifies it (and that --logs-dir kept the same).
// Screenshots of the lobby before and after land in OUTDIR.
//
// node play_from_lobby.mjs RULEBOOK OUTDIR [SEED]
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { checkLogReplays, DESK, launchBrowser, openPage, startServer } from "./harness.mjs";
import { playToEnd } from "./table_play.mjs";

const [rulebook, outdir, seedText] = process.argv.slice(2);
if (!rulebook || !outdir) {
  console.error("usage: node play_from_lobby.mjs RULEBOOK OUTDIR [SEED]");
  process.exit(2);
}
const seed = Number(seedText || 7);
mkdirSync(outdir, { recursive: true });
const logsDir = `${outdir}/lobby-logs`;
const deadline = Date.now() + 8 * 60 * 1000;  // bounded: the stage never hangs
const fail = (message) => { throw new Error(message); };

const { server, value: lobbyUrl, exited } = await startServer(rulebook, ["serve", "--port", "0", "--logs-dir", logsDir],
  (out) => out.match(/rulebook lobby at (http:\S+)/)?.[1]);
console.log(`lobby: ${lobbyUrl}`);

const browser = await launchBrowser();
let tableId = "";
try {
  const lobby = await openPage(browser, DESK, fail, "lobby page");
  await lobby.goto(lobbyUrl, { waitUntil: "domcontentloaded" });
  await lobby.waitForSelector("body[data-ready]", { timeout: 30000 });

  // The form: Hai Noon, 3 players, seat 2 a random bot, seat 0 named Ann.
  const games = await lobby.$$eval("#game option", (options) => options.map((o) => o.value));
  if (!games.includes("hai-noon") || games.length < 5) fail(`the lobby offers ${games.join(", ")}`);
  await lobby.select("#game", "hai-noon");
  await lobby.select("#players", "3");
  await lobby.select('#seat-rows select[data-seat="2"]', "random");
  await lobby.type('#seat-rows input[data-seat="0"]', "Ann");
  // An option of the game's changed on the form: every shark starts hungry.
  await lobby.click('[data-option="sharks_start"]', { clickCount: 3 });
  await lobby.type('[data-option="sharks_start"]', "hungry");
  await lobby.click("#open");
  await lobby.waitForSelector("#created:not([hidden])", { timeout: 30000 });
  const shown = await lobby.evaluate(() => ({
    title: document.getElementById("created-title").textContent,
    seats: [...document.querySelectorAll("#links li[data-seat]")].map((li) => ({
      seat: Number(li.dataset.seat),
      link: li.querySelector("a.seat-link") ? li.querySelector("a.seat-link").href : null,
      text: li.textContent,
    })),
    watch: document.querySelector("#links a.watch-link").href,
  }));
  tableId = shown.title.match(/Table (\w+) is open/)[1];
  const links = shown.seats.filter((s) => s.link).map((s) => s.link);
  if (links.length !== 2 || shown.seats[2].link !== null || !shown.seats[2].text.includes("random bot"))
    fail(`the lobby showed ${JSON.stringify(shown)}`);
  for (const link of links) if (!link.includes(`/t/${tableId}/play?token=`)) fail(`a seat's link is ${link}`);
  console.log(`table ${tableId}: ${links.join(" ")}`);
  await lobby.screenshot({ path: `${outdir}/lobby-open.png`, fullPage: true });

  const pages = [];
  for (const link of links) {
    const page = await openPage(browser, DESK, fail);
    await page.goto(link, { waitUntil: "domcontentloaded" });
    pages.push(page);
  }
  // Seat 0's page names its player as the lobby's form did.
  await pages[0].waitForFunction(() => document.getElementById("players").textContent.includes("Ann"), { timeout: 30000 });
  await playToEnd(pages, seed, deadline);
  await pages[0].bringToFront();
  await pages[0].screenshot({ path: `${outdir}/lobby-table-seat-0.png`, fullPage: true });

  // Back at the lobby: the table is listed as finished, with its log.
  await lobby.bringToFront();
  await lobby.waitForSelector(`tr[data-table="${tableId}"] a.log-link`, { timeout: 30000 });
  const row = await lobby.$eval(`tr[data-table="${tableId}"]`, (tr) => ({
    state: tr.querySelector(".table-state").textContent,
    log: tr.querySelector("a.log-link").href,
  }));
  if (!row.state.startsWith("finished")) fail(`the lobby lists the table as ${row.state}`);
  await lobby.screenshot({ path: `${outdir}/lobby.png`, fullPage: true });
  const res = await fetch(row.log);
  if (res.status !== 200) fail(`the log link answered ${res.status}`);
  const log = await res.text();
  writeFileSync(`${outdir}/lobby.log.json`, log);
  if (readFileSync(`${logsDir}/${tableId}.json`, "utf8") !== log) fail("--logs-dir kept another log than the download");
  const sets = JSON.parse(log).sets;
  // The lobby writes each option it took as JSON (a text option's text exactly as sent).
  if (JSON.stringify(sets) !== JSON.stringify(["options.sharks_start=\"hungry\""])) fail(`the table was set up with ${JSON.stringify(sets)}`);
} finally {
  await browser.close();
}

server.kill("SIGINT");
await checkLogReplays(rulebook, exited, `${outdir}/lobby.log.json`, fail);
console.log(`the downloaded log replays; screenshots in ${outdir}`);
console.log(`1 passed, 0 failed`);
