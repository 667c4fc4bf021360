// Pass the device (`rulebook serve goofspiel --players 2 --hot-seat`): one
// page, on a phone-sized screen, for both seats of a game where both bid at
// once. Between seats it shows "Pass the device to NAME" and holds nothing
// of any seat's (no component is drawn); a seat's own stream is requested
// only after its player tapped "I am NAME"; the game is played to its end
// by tapping, and the page shows the result.
//
// node hot_seat.mjs RULEBOOK OUTDIR
import { mkdirSync } from "node:fs";
import { launchBrowser, openPage, PHONE, startServer } from "./harness.mjs";

const [rulebook, outdir] = process.argv.slice(2);
if (!rulebook || !outdir) {
  console.error("usage: node hot_seat.mjs RULEBOOK OUTDIR");
  process.exit(2);
}
mkdirSync(outdir, { recursive: true });
const fail = (message) => { throw new Error(message); };
const deadline = Date.now() + 4 * 60 * 1000;

const { server, value: link, output } = await startServer(rulebook, ["serve", "goofspiel", "--players", "2", "--seed", "3",
  "--port", "0", "--hot-seat", "--name", "Ann", "--name", "Bo"],
  (out) => /spectators: /.test(out) && out.match(/at one screen[^:]*: (http:\S+)/)?.[1]);
if (/seat 0: http/.test(output())) fail("--hot-seat printed a seat's own link");
const tokens = new Map([...new URL(link).searchParams.get("seats").split(",")].map((p) => p.split(":")).map(([s, t]) => [t, Number(s)]));

const browser = await launchBrowser();
try {
  const page = await openPage(browser, PHONE, fail);
  // Which seats' players tapped "I am NAME" so far: no seat's stream before.
  const tapped = new Set();
  page.on("request", (r) => {
    const token = new URL(r.url()).searchParams.get("token");
    if (token && !tapped.has(tokens.get(token))) fail(`seat ${tokens.get(token)}'s stream was requested before its player tapped`);
  });
  await page.goto(link, { waitUntil: "domcontentloaded" });
  const look = () => page.evaluate(() => ({
    pass: !document.getElementById("pass").hidden && !document.getElementById("pass-ready").hidden,
    passTo: Number(document.getElementById("pass").dataset.seat),
    title: document.getElementById("pass-to").textContent,
    components: document.querySelectorAll("[data-component]").length,
    zones: document.querySelectorAll("[data-zone]").length,
    over: document.getElementById("status").classList.contains("over"),
    status: document.getElementById("status").textContent,
    shown: document.body.dataset.shown,
    open: !document.getElementById("decision").hidden && !!document.querySelector("#options button[data-index]:not(:disabled)"),
    decision: Number(document.getElementById("options").dataset.decision),
  }));
  let passes = 0, answers = 0, pictured = false;
  const answered = new Set();
  for (;;) {
    if (Date.now() > deadline) fail("the game did not end within 4 minutes");
    const v = await look();
    if (v.over) {
      console.log(`over after ${passes} passes and ${answers} answers: ${v.status}`);
      break;
    }
    if (v.pass) {
      // The pass screen: nothing of either seat is on the page.
      if (v.components || v.zones) fail(`the pass screen to seat ${v.passTo} still shows ${v.components} components in ${v.zones} zones`);
      if (!/^Pass the device to (Ann|Bo)$/.test(v.title)) fail(`the pass screen says "${v.title}"`);
      if (!pictured) {
        await page.screenshot({ path: `${outdir}/hot-seat-pass.png` });
        pictured = true;
      }
      tapped.add(v.passTo);
      await page.tap("#pass-ready");
      ++passes;
      await new Promise((r) => setTimeout(r, 100));
      continue;
    }
    const key = `${v.shown}/${v.decision}`;
    if (v.open && !answered.has(key)) {
      if (answers === 0) await page.screenshot({ path: `${outdir}/hot-seat-seat.png`, fullPage: true });
      answered.add(key);
      await page.tap("#options button[data-index]:not(:disabled)");
      ++answers;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  if (passes < 2 || answers < 2) fail(`only ${passes} passes and ${answers} answers`);
  await page.screenshot({ path: `${outdir}/hot-seat-end.png`, fullPage: true });
} finally {
  await browser.close();
}
console.log("hot seat: 1 passed, 0 failed");
// The server lingers on after the game; its output pipe would keep this
// process alive (and "exit" would never come to stop it).
server.kill("SIGTERM");
