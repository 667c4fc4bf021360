// The web table in a real browser: Debian's chromium, headless, driven by
// puppeteer-core. Starts `rulebook serve hai-noon --players 2`, opens both
// seats' links and plays the whole game by clicking the pages' buttons, no
// bot at any seat. At every step each page must not show the other seat's
// hand; at the end both pages show the result, each page is saved as a
// screenshot and the server's log must pass `rulebook replay`.
//
// node play_hai_noon.mjs RULEBOOK OUTDIR [SEED]
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import puppeteer from "puppeteer-core";

const [rulebook, outdir, seedText] = process.argv.slice(2);
if (!rulebook || !outdir) {
  console.error("usage: node play_hai_noon.mjs RULEBOOK OUTDIR [SEED]");
  process.exit(2);
}
const seed = Number(seedText || 7);
mkdirSync(outdir, { recursive: true });
const log = `${outdir}/hai-noon.log.json`;
const deadline = Date.now() + 8 * 60 * 1000;  // bounded: the stage never hangs
const fail = (message) => { throw new Error(message); };

// The server, on a free loopback port; it prints a link per seat.
const server = spawn(rulebook, ["serve", "hai-noon", "--players", "2", "--seed", String(seed), "--port", "0",
                                "--log", log, "--linger", "3"], { stdio: ["ignore", "pipe", "inherit"] });
let output = "";
const links = await new Promise((resolve, reject) => {
  server.stdout.on("data", (chunk) => {
    output += chunk;
    const seats = [...output.matchAll(/seat (\d): (http:\S+)/g)].map((m) => m[2]);
    if (seats.length === 2 && /spectators: /.test(output)) resolve(seats);
  });
  server.on("exit", (code) => reject(new Error(`rulebook serve exited with ${code}:\n${output}`)));
});
const exited = new Promise((resolve) => server.on("exit", (code) => resolve(code)));
// However this script ends, the server does not outlive it.
process.on("exit", () => server.kill("SIGTERM"));
console.log(`serving: ${links.join(" ")}`);

const browser = await puppeteer.launch({
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  headless: true,
  protocolTimeout: 60000,
  args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
});
let clicks = 0;
let tableClicks = 0;  // of them on a component or cell of the table
try {
  const pages = [];
  for (const link of links) {
    const page = await browser.newPage();
    await page.setViewport({ width: 1280, height: 900 });
    page.on("pageerror", (e) => fail(`page error: ${e.message}`));
    await page.goto(link, { waitUntil: "domcontentloaded" });
    pages.push(page);
  }

  // What a page shows: its open decision, whether the game is over, the ids
  // of the cards in each hand it can see, and what it shows of each hand.
  const look = (page) => page.evaluate(() => {
    const options = document.getElementById("options");
    const open = !document.getElementById("decision").hidden && options.children.length > 0 &&
                 !options.children[0].disabled;
    const hands = {};
    for (const zone of document.querySelectorAll('[data-zone^="hand@"]')) {
      hands[zone.dataset.zone] = {
        ids: [...zone.querySelectorAll("[data-component]")].map((c) => c.dataset.component),
        backs: zone.querySelectorAll(".component.back").length,
      };
    }
    const ids = [...document.querySelectorAll("[data-component]")].map((c) => c.dataset.component);
    return {
      views: Number(document.body.dataset.views) || 0,
      decision: open ? Number(options.dataset.decision) : null,
      count: options.children.length,
      over: document.getElementById("status").classList.contains("over"),
      status: document.getElementById("status").textContent,
      hands, ids,
    };
  });

  // Neither page ever shows a card of the other seat's hand. Compared when
  // both pages show the same moment of the game (the same number of views).
  const checkSecrets = (views) => {
    for (let seat = 0; seat < 2; ++seat) {
      const mine = views[seat].hands[`hand@${seat}`] || { ids: [], backs: 0 };
      const theirs = views[1 - seat].hands[`hand@${seat}`];
      if (theirs && theirs.ids.length) fail(`seat ${1 - seat}'s page shows cards of seat ${seat}'s hand`);
      for (const id of mine.ids)
        if (views[1 - seat].ids.includes(id)) fail(`seat ${1 - seat}'s page shows card ${id} of seat ${seat}'s hand`);
      if (theirs && theirs.backs !== Math.min(mine.ids.length, 12))
        fail(`seat ${1 - seat}'s page shows ${theirs.backs} backs for ${mine.ids.length} cards in seat ${seat}'s hand`);
    }
  };

  let state = seed >>> 0;
  const pick = (n) => { state = (Math.imul(state, 1664525) + 1013904223) >>> 0; return state % n; };
  const clicked = [0, 0], clickedAt = [0, 0];
  for (;;) {
    if (Date.now() > deadline) fail("the game did not end within 8 minutes");
    const views = [await look(pages[0]), await look(pages[1])];
    if (views[0].views !== views[1].views) {  // one page is still catching up
      await new Promise((r) => setTimeout(r, 25));
      continue;
    }
    if (views[0].over && views[1].over) {
      checkSecrets(views);
      console.log(`over after ${clicks} clicks (${tableClicks} on the table): ${views[0].status}`);
      break;
    }
    let acted = false;
    for (let seat = 0; seat < 2; ++seat) {
      const v = views[seat];
      if (v.decision === null) continue;
      // A click that landed on buttons redrawn under it is tried again.
      if (v.decision < clicked[seat] || (v.decision === clicked[seat] && Date.now() - clickedAt[seat] < 2000)) continue;
      checkSecrets(views);
      const index = pick(v.count);
      clicked[seat] = v.decision;
      clickedAt[seat] = Date.now();
      // A real mouse click, on the page in front (a background tab is not
      // drawn, and a click needs the button laid out).
      await pages[seat].bringToFront();
      // An option that is a component or a cell on the table is answered
      // by clicking it there (the page outlines it); the others by a button.
      const onTable = await pages[seat].$(`.choosable[data-option="${index}"]`);
      if (onTable) {
        await onTable.click();
        ++tableClicks;
      } else {
        await pages[seat].click(`#options button[data-index="${index}"]`);
      }
      ++clicks;
      acted = true;
    }
    if (!acted) await new Promise((r) => setTimeout(r, 25));
  }
  // Each page in front for its picture: a background tab is not drawn, and
  // a screenshot of it waits for a frame that never comes.
  for (let seat = 0; seat < 2; ++seat) {
    await pages[seat].bringToFront();
    await pages[seat].screenshot({ path: `${outdir}/hai-noon-seat-${seat}.png`, fullPage: true });
  }
} finally {
  await browser.close();
}

const code = await exited;
if (code !== 0) fail(`rulebook serve exited with ${code}`);
const replay = spawnSync(rulebook, ["replay", "--quiet", log], { encoding: "utf8" });
if (replay.status !== 0) fail(`rulebook replay failed: ${replay.stdout}${replay.stderr}`);
console.log(`the log replays; screenshots in ${outdir}`);
console.log(`1 passed, 0 failed`);
