// Two browsers deciding at once: a sealed-bid game (game:choose_together)
// served with two people's seats. At every round both pages must show their
// own decision at the same time; the seat that answers first sees "waiting
// for the others" while the other page still shows its decision and nothing
// of the answer; the answers alternate which seat goes first. At the end
// both pages show the result and the server's log replays.
//
// node play_together.mjs RULEBOOK OUTDIR
import { mkdirSync, writeFileSync } from "node:fs";
import { checkLogReplays, launchBrowser, openPage, screenshotEach, startServer } from "./harness.mjs";

const [rulebook, outdir] = process.argv.slice(2);
if (!rulebook || !outdir) {
  console.error("usage: node play_together.mjs RULEBOOK OUTDIR");
  process.exit(2);
}
const game = `${outdir}/sealed-bids`;
mkdirSync(game, { recursive: true });
writeFileSync(`${game}/game.yaml`, "name: sealed-bids\ntitle: Sealed bids\nplayers: {min: 2, max: 2}\nscript: rules.lua\n");
writeFileSync(`${game}/rules.lua`, `local rules = {}
function rules.setup(game) end
function rules.play(game)
  for round = 1, 4 do
    local bids = game:choose_together({0, 1}, "Seal a bid", {1, 2, 3, 4, 5})
    local winner = bids[0] >= bids[1] and 0 or 1
    game:add_score(winner, 1)
    game:say("Round %d goes to %s", round, game:player_name(winner))
  end
  game:finish{winners = {game:score(0) >= game:score(1) and 0 or 1}}
end
return rules
`);
const log = `${outdir}/sealed-bids.log.json`;
const deadline = Date.now() + 4 * 60 * 1000;
const fail = (message) => { throw new Error(message); };

const { value: links, exited } = await startServer(rulebook, ["serve", game, "--players", "2", "--seed", "3", "--port", "0",
  "--log", log, "--linger", "3"], (out) => {
    const seats = [...out.matchAll(/seat (\d): (http:\S+)/g)].map((m) => m[2]);
    return seats.length === 2 && /spectators: /.test(out) && seats;
  });

const browser = await launchBrowser();
try {
  const pages = [];
  for (const link of links) {
    const page = await openPage(browser, null, fail);
    await page.goto(link, { waitUntil: "domcontentloaded" });
    pages.push(page);
  }
  const look = (page) => page.evaluate(() => {
    const options = document.getElementById("options");
    const open = !document.getElementById("decision").hidden && options.querySelector("button[data-index]") &&
                 !options.querySelector("button[data-index]").disabled;
    return {
      decision: open ? Number(options.dataset.decision) : null,
      over: document.getElementById("status").classList.contains("over"),
      status: document.getElementById("status").textContent,
      narration: document.getElementById("narration").textContent,
    };
  });
  const until = async (what, test) => {
    for (;;) {
      if (Date.now() > deadline) fail(`timed out waiting for ${what}`);
      const views = [await look(pages[0]), await look(pages[1])];
      if (test(views)) return views;
      await new Promise((r) => setTimeout(r, 25));
    }
  };
  for (let round = 1; round <= 4; ++round) {
    // Both pages decide at once.
    const open = await until(`round ${round}'s decisions`, (v) => v[0].decision === round && v[1].decision === round);
    const first = round % 2, second = 1 - first;
    const before = open[second].narration;
    await pages[first].bringToFront();
    await pages[first].click(`#options button[data-index="${round % 5}"]`);
    const waiting = await until(`seat ${first} waiting for the others`,
                                (v) => /waiting for the others/i.test(v[first].status));
    // The other page still decides and has heard nothing of the answer.
    if (waiting[second].decision !== round) fail(`seat ${second}'s decision closed before it answered`);
    if (waiting[second].narration !== before) fail(`seat ${second}'s page heard something of seat ${first}'s answer`);
    await pages[second].bringToFront();
    await pages[second].click(`#options button[data-index="${(round + 2) % 5}"]`);
    await until(`round ${round}'s result`, (v) => v.every((p) => p.narration.includes(`Round ${round} goes to`)));
    console.log(`round ${round}: seat ${first} answered first, then seat ${second}`);
  }
  const end = await until("the end", (v) => v[0].over && v[1].over);
  console.log(`over: ${end[0].status}`);
  await screenshotEach(pages, (seat) => `${outdir}/sealed-bids-seat-${seat}.png`);
} finally {
  await browser.close();
}
await checkLogReplays(rulebook, exited, log, fail);
console.log("the log replays; 1 passed, 0 failed");
