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
try {
  const pages = [];
  for (const link of links) {
    const page = await browser.newPage();
    await page.setViewport({ width: 1280, height: 900 });
    page.on("pageerror", (e) => fail(`page error: ${e.message}`));
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
