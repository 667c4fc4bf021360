// The designer's report in a real browser: `rulebook report` writes a page
// and its JSON; chromium opens the page from the disk with every request
// to the network refused (the page must need none), every figure on it
// (each names its JSON value: data-json, a JSON pointer, and data-value)
// must equal the JSON's and read as that value, the plots must be drawn
// (inline SVG), and a screenshot of the whole page lands in OUT.
//
//   node tests/browser/open_report.mjs RULEBOOK OUT
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { launchBrowser, openPage } from "./harness.mjs";

const [rulebook, out] = process.argv.slice(2);
const fail = (message) => {
  console.error(`open_report: ${message}`);
  process.exit(1);
};
mkdirSync(out, { recursive: true });
const page_file = `${out}/report.html`, json_file = `${out}/report.json`;
const started = Date.now();
const made = spawnSync(rulebook, ["report", "pass-the-pandas", "--variant", "panda-monium", "--games", "2000", "--jobs", "2",
                                  "--skill-games", "20", "--budgets", "10,20,40,80", "--out", page_file,
                                  "--json", json_file], { encoding: "utf8" });
if (made.status !== 0) fail(`rulebook report exited with ${made.status}:\n${made.stderr}`);
const seconds = (Date.now() - started) / 1000;
const report = JSON.parse(readFileSync(json_file, "utf8"));

const pointer = (doc, path) => path.split("/").slice(1).reduce((at, key) => {
  if (at === undefined) return undefined;
  return at[key.replace(/~1/g, "/").replace(/~0/g, "~")];
}, doc);

const browser = await launchBrowser();
try {
  const page = await openPage(browser, { width: 1100, height: 900 }, fail);
  await page.setRequestInterception(true);
  const elsewhere = [];
  page.on("request", (request) => {
    const url = request.url();
    if (url.startsWith("file:") || url.startsWith("data:")) return request.continue();
    elsewhere.push(url);
    return request.abort();
  });
  await page.goto(pathToFileURL(page_file).href, { waitUntil: "load" });
  if (elsewhere.length) fail(`the page asked the network for ${elsewhere.join(", ")}`);
  const shown = await page.evaluate(() => [...document.querySelectorAll("[data-json]")].map((e) => ({
    path: e.dataset.json, value: e.dataset.value, text: e.textContent })));
  if (shown.length < 50) fail(`only ${shown.length} figures on the page`);
  for (const { path, value, text } of shown) {
    const expected = pointer(report, path);
    if (expected === undefined) fail(`${path} is not in the JSON`);
    if (JSON.stringify(JSON.parse(value)) !== JSON.stringify(expected)) fail(`${path}: page ${value}, JSON ${JSON.stringify(expected)}`);
    if (typeof expected === "number") {
      const printed = parseFloat(text);
      const scaled = text.endsWith("%") ? expected * 100 : expected;
      const decimals = (text.replace("%", "").split(".")[1] || "").length;
      if (Math.abs(printed - scaled) > 0.5 * 10 ** -decimals + 1e-9) fail(`${path}: shows ${text}, JSON ${expected}`);
    }
  }
  const svgs = await page.evaluate(() => document.querySelectorAll("svg.plot").length);
  if (svgs < 3) fail(`${svgs} plots drawn, expected win rates, length and the skill curve`);
  const verdict = await page.evaluate(() => document.getElementById("verdict").textContent);
  if (!verdict.includes(report.verdict)) fail("the verdict differs from the JSON's");
  await page.screenshot({ path: `${out}/report.png`, fullPage: true });
  console.log(`open_report: ${shown.length} figures equal the JSON's, ${svgs} plots, no network; report made in ` +
              `${seconds.toFixed(1)} s (skill trace ${report.skill.seconds.toFixed(1)} s); screenshot ${out}/report.png`);
} finally {
  await browser.close();
}
