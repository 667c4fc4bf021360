// The web table in a real browser: Debian's chromium, headless, driven by
// puppeteer-core. Starts `rulebook serve hai-noon --players 2`, opens both
// seats' links and plays the whole game by clicking the pages' buttons, no
// bot at any seat. At every step each page must not show the other seat's
// hand; at the end both pages show the result, each page is saved as a
// screenshot and the server's log must pass `rulebook replay`.
//
// node play_hai_noon.mjs RULEBOOK OUTDIR [SEED]
import { spawnSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import { DESK, launchBrowser, openPage, startServer } from "./harness.mjs";
import { playToEnd } from "./table_play.mjs";

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
const { value: links, exited } = await startServer(rulebook, ["serve", "hai-noon", "--players", "2", "--seed", String(seed),
  "--port", "0", "--log", log, "--linger", "3"], (out) => {
    const seats = [...out.matchAll(/seat (\d): (http:\S+)/g)].map((m) => m[2]);
    return seats.length === 2 && /spectators: /.test(out) && seats;
  });
console.log(`serving: ${links.join(" ")}`);

const browser = await launchBrowser();
try {
  const pages = [];
  for (const link of links) {
    const page = await openPage(browser, DESK, fail);
    await page.goto(link, { waitUntil: "domcontentloaded" });
    pages.push(page);
  }

  await playToEnd(pages, seed, deadline);
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
