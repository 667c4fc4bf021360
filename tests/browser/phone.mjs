// The web table on a phone: every bundled game's table at 390 x 844 CSS px
// (touch, device scale factor 3), in Debian's headless chromium. For each
// game, `rulebook serve GAME` with seat 0 a person and the others bots:
// the page is as wide as the screen (no sideways scroll), the decision's
// buttons and the folded seats' names lie inside it and are at least 44 px
// high, and a tap answers.
// A screenshot of each table lands in OUTDIR/phone-GAME.png (the whole
// page) and phone-GAME-screen.png (the first screen).
//
// node phone.mjs RULEBOOK OUTDIR
import { mkdirSync, readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { launchBrowser, openPage, PHONE, startServer } from "./harness.mjs";

const [rulebook, outdir] = process.argv.slice(2);
if (!rulebook || !outdir) {
  console.error("usage: node phone.mjs RULEBOOK OUTDIR");
  process.exit(2);
}
mkdirSync(outdir, { recursive: true });
const fail = (message) => { throw new Error(message); };
const WIDTH = PHONE.width, HEIGHT = PHONE.height;
const games = readdirSync(join(dirname(fileURLToPath(import.meta.url)), "../../rules"), { withFileTypes: true })
  .filter((d) => d.isDirectory()).map((d) => d.name).sort();

// `rulebook serve GAME`, seat 0 a person, every other seat a random bot.
async function serve(game) {
  const { server, value: link } = await startServer(rulebook,
    ["serve", game, "--seed", "7", "--port", "0", "--agent", "all=random", "--agent", "0=human"],
    (out) => /spectators: /.test(out) && out.match(/seat 0: (http:\S+)/)?.[1]);
  return { server, link };
}

// What the phone shows of the open decision: its tap targets (the option
// buttons, or a folded group's component to open first) and the page's width.
const measure = (page) => page.evaluate(() => {
  const options = document.getElementById("options");
  const box = document.getElementById("decision");
  const visible = (e) => e.getClientRects().length > 0;
  const targets = [...options.querySelectorAll("button[data-index], details.group > summary")].filter(visible).map((e) => {
    const r = e.getBoundingClientRect();
    return { left: r.left, right: r.right, height: r.height, text: e.textContent, index: e.dataset.index };
  });
  // The other seats' names, tapped to unfold what they show.
  const seats = [...document.querySelectorAll("details.seat > summary")].filter(visible).map((e) => {
    const r = e.getBoundingClientRect();
    return { left: r.left, right: r.right, height: r.height, text: e.textContent };
  });
  const open = !box.hidden && !!options.querySelector("button[data-index]:not(:disabled)");
  return {
    open,
    decision: open ? Number(options.dataset.decision) : null,
    over: document.getElementById("status").classList.contains("over"),
    scrollWidth: document.documentElement.scrollWidth,
    bodyWidth: document.body.scrollWidth,
    targets,
    seats,
  };
});

const browser = await launchBrowser();
let passed = 0;
try {
  for (const game of games) {
    const { server, link } = await serve(game);
    try {
      const page = await openPage(browser, PHONE, fail, `${game}: page`);
      await page.goto(link, { waitUntil: "domcontentloaded" });
      const deadline = Date.now() + 60000;
      let seen = await measure(page);
      while (!seen.open && !seen.over) {
        if (Date.now() > deadline) fail(`${game}: seat 0 was never asked anything`);
        await new Promise((r) => setTimeout(r, 50));
        seen = await measure(page);
      }
      if (!seen.open) fail(`${game}: the game ended before seat 0 decided`);
      if (seen.scrollWidth > WIDTH || seen.bodyWidth > WIDTH)
        fail(`${game}: the page is ${Math.max(seen.scrollWidth, seen.bodyWidth)} px wide on a ${WIDTH} px screen`);
      if (!seen.targets.length) fail(`${game}: no decision button is visible`);
      for (const t of seen.targets) {
        if (t.left < 0 || t.right > WIDTH) fail(`${game}: the button "${t.text}" lies outside the screen (${t.left} to ${t.right})`);
        if (t.height < 44) fail(`${game}: the button "${t.text}" is ${t.height} px high (at least 44)`);
      }
      for (const t of seen.seats) {
        if (t.left < 0 || t.right > WIDTH) fail(`${game}: the seat "${t.text}" lies outside the screen (${t.left} to ${t.right})`);
        if (t.height < 44) fail(`${game}: the seat "${t.text}" is ${t.height} px high to tap (at least 44)`);
      }
      await page.screenshot({ path: `${outdir}/phone-${game}.png`, fullPage: true });
      await page.screenshot({ path: `${outdir}/phone-${game}-screen.png` });  // what the phone shows first
      // A tap answers: the server's stream for seat 0 says its decision was answered.
      const visibleButton = () => page.evaluateHandle(() =>
        [...document.querySelectorAll("#options button[data-index]:not(:disabled)")].find((b) => b.getClientRects().length > 0) || null);
      let button = (await visibleButton()).asElement();
      if (!button) {  // a folded list: the component first, then the option
        await page.tap("details.group > summary");
        button = (await visibleButton()).asElement();
      }
      if (!button) fail(`${game}: no option to tap`);
      await button.tap();
      const before = seen.decision;
      for (;;) {
        if (Date.now() > deadline) fail(`${game}: the tap did not answer decision ${before}`);
        const answered = await page.evaluate(async (d) => {
          const messages = await (await fetch("api/messages" + location.search)).json();
          return messages.some((m) => m.type === "answered" && m.decision === d);
        }, before);
        if (answered) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      console.log(`${game}: ${seen.targets.length + seen.seats.length} tap targets, all inside ${WIDTH} px and at least 44 px high; a tap answered`);
      ++passed;
      await page.close();
    } finally {
      server.kill("SIGTERM");
    }
  }
} finally {
  await browser.close();
}
console.log(`phone: ${passed} of ${games.length} games fit ${WIDTH} x ${HEIGHT}; screenshots in ${outdir}`);
