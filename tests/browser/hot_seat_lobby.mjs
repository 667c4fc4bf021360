// Pass the device from the lobby: `rulebook serve` (no game) on a phone,
// its page's "Everybody at one screen" box ticked for a 2-person Goofspiel
// table. The lobby shows one link for both people and no seat's own link;
// that link opens the "Pass the device to NAME" screen with nothing of
// either seat on it, a tap on "I am NAME" shows that seat's decision, its
// answer passes the device to the other person. Screenshots in OUTDIR.
//
// node hot_seat_lobby.mjs RULEBOOK OUTDIR
import { mkdirSync } from "node:fs";
import { launchBrowser, openPage, PHONE, startServer } from "./harness.mjs";

const [rulebook, outdir] = process.argv.slice(2);
if (!rulebook || !outdir) {
  console.error("usage: node hot_seat_lobby.mjs RULEBOOK OUTDIR");
  process.exit(2);
}
mkdirSync(outdir, { recursive: true });
const fail = (message) => { throw new Error(message); };
const deadline = Date.now() + 2 * 60 * 1000;

const { server, value: lobbyUrl } = await startServer(rulebook, ["serve", "--port", "0"],
  (out) => out.match(/rulebook lobby at (http:\S+)/)?.[1]);

const browser = await launchBrowser();
try {
  const page = await openPage(browser, PHONE, fail);
  await page.goto(lobbyUrl, { waitUntil: "domcontentloaded" });
  await page.waitForSelector("body[data-ready]", { timeout: 30000 });
  await page.select("#game", "goofspiel");
  await page.select("#players", "2");
  for (const seat of [0, 1]) await page.select(`#seat-rows select[data-seat="${seat}"]`, "human");
  await page.type('#seat-rows input[data-seat="0"]', "Ann");
  await page.type('#seat-rows input[data-seat="1"]', "Bo");
  await page.tap("#hot-seat");
  await page.tap("#open");
  await page.waitForSelector("#created:not([hidden])", { timeout: 30000 });
  const shown = await page.evaluate(() => ({
    hot: [...document.querySelectorAll("#links a.hot-seat-link")].map((a) => a.href),
    seats: [...document.querySelectorAll("#links a.seat-link")].map((a) => a.href),
    width: Math.max(document.documentElement.scrollWidth, document.body.scrollWidth),
    // the lobby's tap targets: the form's button and selects, the links' copy buttons
    small: [...document.querySelectorAll("#open, #create select, #links button")]
      .filter((e) => e.getClientRects().length && e.getBoundingClientRect().height < 44).map((e) => e.id || e.textContent),
  }));
  if (shown.hot.length !== 1 || shown.seats.length) fail(`the lobby showed ${JSON.stringify(shown)}`);
  await page.screenshot({ path: `${outdir}/lobby-hot-seat.png`, fullPage: true });
  if (shown.width > 390) fail(`the lobby's page is ${shown.width} px wide on a 390 px screen`);
  if (shown.small.length) fail(`the lobby's ${shown.small.join(", ")} under 44 px high`);

  await page.goto(shown.hot[0], { waitUntil: "domcontentloaded" });
  const look = () => page.evaluate(() => ({
    pass: !document.getElementById("pass").hidden && !document.getElementById("pass-ready").hidden,
    title: document.getElementById("pass-to").textContent,
    components: document.querySelectorAll("[data-component]").length,
    open: !document.getElementById("decision").hidden && !!document.querySelector("#options button[data-index]:not(:disabled)"),
  }));
  const until = async (what, test) => {
    for (;;) {
      const v = await look();
      if (test(v)) return v;
      if (Date.now() > deadline) fail(`never ${what}: ${JSON.stringify(v)}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  // Both bid at once: the device goes to one, then to the other.
  const passedTo = [];
  for (let turn = 0; turn < 2; ++turn) {
    const v = await until("a pass screen", (v) => v.pass);
    if (v.components) fail(`the pass screen shows ${v.components} components`);
    const m = v.title.match(/^Pass the device to (Ann|Bo)$/);
    if (!m) fail(`the pass screen says "${v.title}"`);
    passedTo.push(m[1]);
    await page.tap("#pass-ready");
    await until("the seat's decision", (v) => v.open && !v.pass);
    await page.tap("#options button[data-index]:not(:disabled)");
  }
  if (passedTo.sort().join() !== "Ann,Bo") fail(`the device went to ${passedTo.join(", ")}`);
  console.log(`hot seat from the lobby: one link, passed to ${passedTo.join(" and ")}, both bid`);
} finally {
  await browser.close();
}
server.kill("SIGTERM");
