// Two seats of a 2-player Hai Noon game (or of more players, the others
// bots) played to the end in a real browser by clicking their pages, as
// people would: shared by play_hai_noon.mjs (rulebook serve GAME) and
// play_from_lobby.mjs (a table opened from the lobby's page).
const fail = (message) => { throw new Error(message); };

// What a page shows: its open decision, whether the game is over, the ids
// of the cards in each hand it can see, and what it shows of each hand.
export const look = (page) => page.evaluate(() => {
  const options = document.getElementById("options");
  const open = !document.getElementById("decision").hidden && options.querySelector("button[data-index]") &&
               !options.querySelector("button[data-index]").disabled;
  const hands = {};
  for (const zone of document.querySelectorAll('[data-zone^="hand@"]')) {
    hands[zone.dataset.zone] = {
      ids: [...zone.querySelectorAll("[data-component]")].map((c) => c.dataset.component),
      backs: zone.querySelectorAll(".component.back").length,
    };
  }
  const ids = [...document.querySelectorAll("[data-component]")].map((c) => c.dataset.component);
  return {
    views: Number(document.body.dataset.views) || 0,
    decision: open ? Number(options.dataset.decision) : null,
    count: options.querySelectorAll("button[data-index]").length,
    over: document.getElementById("status").classList.contains("over"),
    status: document.getElementById("status").textContent,
    hands, ids,
  };
});

// Neither page ever shows a card of the other seat's hand. Compared when
// both pages show the same moment of the game (the same number of views).
export const checkSecrets = (views) => {
  for (let seat = 0; seat < 2; ++seat) {
    const mine = views[seat].hands[`hand@${seat}`] || { ids: [], backs: 0 };
    const theirs = views[1 - seat].hands[`hand@${seat}`];
    if (theirs && theirs.ids.length) fail(`seat ${1 - seat}'s page shows cards of seat ${seat}'s hand`);
    for (const id of mine.ids)
      if (views[1 - seat].ids.includes(id)) fail(`seat ${1 - seat}'s page shows card ${id} of seat ${seat}'s hand`);
    if (theirs && theirs.backs !== Math.min(mine.ids.length, 12))
      fail(`seat ${1 - seat}'s page shows ${theirs.backs} backs for ${mine.ids.length} cards in seat ${seat}'s hand`);
  }
};

export async function playToEnd(pages, seed, deadline) {
  let clicks = 0;
  let tableClicks = 0;  // of them on a component or cell of the table
  let state = seed >>> 0;
  const pick = (n) => { state = (Math.imul(state, 1664525) + 1013904223) >>> 0; return state % n; };
  const clicked = [0, 0], clickedAt = [0, 0];
  for (;;) {
    if (Date.now() > deadline) fail("the game did not end within 8 minutes");
    const views = [await look(pages[0]), await look(pages[1])];
    if (views[0].views !== views[1].views) {  // one page is still catching up
      await new Promise((r) => setTimeout(r, 25));
      continue;
    }
    if (views[0].over && views[1].over) {
      checkSecrets(views);
      console.log(`over after ${clicks} clicks (${tableClicks} on the table): ${views[0].status}`);
      return { clicks, tableClicks, status: views[0].status };
    }
    let acted = false;
    for (let seat = 0; seat < 2; ++seat) {
      const v = views[seat];
      if (v.decision === null) continue;
      // A click that landed on buttons redrawn under it is tried again.
      if (v.decision < clicked[seat] || (v.decision === clicked[seat] && Date.now() - clickedAt[seat] < 2000)) continue;
      checkSecrets(views);
      const index = pick(v.count);
      clicked[seat] = v.decision;
      clickedAt[seat] = Date.now();
      // A real mouse click, on the page in front (a background tab is not
      // drawn, and a click needs the button laid out).
      await pages[seat].bringToFront();
      // An option that is a component or a cell on the table is answered
      // by clicking it there (the page outlines it); the others by a button.
      const onTable = await pages[seat].$(`.choosable[data-option="${index}"]`);
      if (onTable) {
        await onTable.click();
        ++tableClicks;
      } else {
        await pages[seat].click(`#options button[data-index="${index}"]`);
      }
      ++clicks;
      acted = true;
    }
    if (!acted) await new Promise((r) => setTimeout(r, 25));
  }
}
