#!/usr/bin/env node
// A rulebook bot: picks a random option (docs/bot-protocol.md).
//   rulebook play hai-noon --agent 1=exec:"node examples/bots/random_bot.js"
const readline = require("readline");

let state = 1;  // mulberry32, seeded from hello's seed: the same game plays the same way
const random = () => {
  state = (state + 0x6d2b79f5) | 0;
  let t = Math.imul(state ^ (state >>> 15), 1 | state);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};

readline.createInterface({ input: process.stdin }).on("line", (line) => {
  const message = JSON.parse(line);
  if (message.type === "hello") state = Number(BigInt(message.seed) & 0xffffffffn);
  if (message.type === "decide") {
    const choice = Math.floor(random() * message.options.length);
    process.stdout.write(JSON.stringify({ choose: choice }) + "\n");
  }
});
