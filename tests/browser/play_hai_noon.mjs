// The web table in a real browser: Debian's chromium, headless, driven by
// puppeteer-core. Starts `rulebook serve hai-noon --players 2`, opens both
// seats' links and plays the whole game by clicking the pages' buttons, no
// bot at any seat. At every step each page must not show the other seat's
// hand; at the end both pages show the result, each page is saved as a
// screenshot and the server's log must pass `rulebook replay`.
//
// node play_hai_noon.mjs RULEBOOK OUTDIR [SEED]
import { mkdirSync } from "node:fs";
import { checkLogReplays, DESK, launchBrowser, openPage, screenshotEach, startServer } from "./harness.mjs";
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
  await screenshotEach(pages, (seat) => `${outdir}/hai-noon-seat-${seat}.png`);
} finally {
  await browser.close();
}

await checkLogReplays(rulebook, exited, log, fail);
console.log(`the log replays; screenshots in ${outdir}`);
console.log(`1 passed, 0 failed`);
