// What every browser test starts from: the real `rulebook serve` on a free
// port, a headless Chromium, and pages whose script errors fail the test.
import { spawn, spawnSync } from "node:child_process";
import puppeteer from "puppeteer-core";

// A phone's screen: 390 x 844 CSS pixels, touch.
export const PHONE = { width: 390, height: 844, deviceScaleFactor: 3, isMobile: true, hasTouch: true };
// A desk's screen.
export const DESK = { width: 1280, height: 900 };

// However a script ends, no server it started outlives it.
const running = new Set();
process.on("exit", () => { for (const server of running) server.kill("SIGTERM"); });

// Runs `rulebook ARGS` until `ready(output so far)` returns something, and
// returns that as `value`, with the process, a promise of its exit code and
// its output so far; rejects with the output if it exits first.
export async function startServer(rulebook, args, ready) {
  const server = spawn(rulebook, args, { stdio: ["ignore", "pipe", "inherit"] });
  running.add(server);
  let output = "";
  const exited = new Promise((resolve) => server.on("exit", (code) => {
    running.delete(server);
    resolve(code);
  }));
  const value = await new Promise((resolve, reject) => {
    server.stdout.on("data", (chunk) => {
      output += chunk;
      const found = ready(output);
      if (found) resolve(found);
    });
    server.on("exit", (code) => reject(new Error(`rulebook ${args.join(" ")} exited with ${code}:\n${output}`)));
  });
  return { server, value, exited, output: () => output };
}

export function launchBrowser() {
  return puppeteer.launch({
    executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    headless: true,
    protocolTimeout: 60000,
    args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking"],
  });
}

// A new page at `viewport` (none: Chromium's default) whose script errors
// call `fail` with `name` (the page's name in the message).
export async function openPage(browser, viewport, fail, name = "page") {
  const page = await browser.newPage();
  if (viewport) await page.setViewport(viewport);
  page.on("pageerror", (e) => fail(`${name} error: ${e.message}`));
  return page;
}

// A picture of each page, each brought to the front first: a background tab
// is not drawn, and a screenshot of it waits for a frame that never comes.
export async function screenshotEach(pages, pathOf) {
  for (let i = 0; i < pages.length; ++i) {
    await pages[i].bringToFront();
    await pages[i].screenshot({ path: pathOf(i), fullPage: true });
  }
}

// The server ended with exit code 0, and `rulebook replay` plays `log` back.
export async function checkLogReplays(rulebook, exited, log, fail) {
  const code = await exited;
  if (code !== 0) fail(`rulebook serve exited with ${code}`);
  const replay = spawnSync(rulebook, ["replay", "--quiet", log], { encoding: "utf8" });
  if (replay.status !== 0) fail(`rulebook replay failed: ${replay.stdout}${replay.stderr}`);
}
