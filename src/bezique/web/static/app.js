// Bezique in the browser: a small single-page client (no framework, no external assets).
// This file is the shell: the shared helpers (h, the card images and names, the seats saved in
// this browser, api), keeping a keyboard player's focus, the page's keys and the routing.
// Loaded last: it starts the routing. The screen of a game of two is in game.js, the other
// pages in pages.js, a table of three or four in table.js, hints and the tutorial in
// teach.js, animation, sound and what is said aloud in motion.js.
"use strict";

const SUIT_NAMES = { S: "spades", H: "hearts", D: "diamonds", C: "clubs" };
const SUIT_SYM = { S: "♠", H: "♥", D: "♦", C: "♣" };
// the same names as the terminal game's (bezique.narrate.LEVEL_NAMES; a test keeps them equal)
const LEVEL_NAMES = { 1: "Beginner", 2: "Casual", 3: "Club", 4: "Strong", 5: "Expert" };
// a computer's level beside its name ("level 5 expert", as the records' names say it)
const levelWords = (level) => `level ${level}${LEVEL_NAMES[level] ? " " + LEVEL_NAMES[level].toLowerCase() : ""}`;
// what the server says about itself: the address for invitation links, and whether it listens
// only on this computer (filled in by /api/server at start)
let SERVER = { public_url: null, loopback: false };
const MELD_KEYS = "abcefgijklmoqrtvwyz";
// the one-deal games (RULES.md 9.0): no target, each deal a game settled at its end
const ONE_DEAL = ["rubicon", "sixpack", "eightpack"];
function playTo(variant, target) { return ONE_DEAL.includes(variant) ? "one deal" : `to ${target}`; }
const PLAY_KEYS = "1234567890";

// ------------------------------------------------------------------ helpers
function h(tag, attrs, ...kids) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else if (k === "class") el.className = v;
    else el.setAttribute(k, v === true ? "" : v);
  }
  for (const kid of kids.flat()) {
    if (kid === null || kid === undefined || kid === false) continue;
    el.append(kid instanceof Node ? kid : document.createTextNode(String(kid)));
  }
  return el;
}
function cardText(code) {
  const r = code[0] === "T" ? "10" : code[0];
  return r + SUIT_SYM[code[1]];
}
// a card in words, as a screen reader says it ("queen of spades"); spoken() puts the words for
// the symbols ("Q♠") in a sentence of the server's
const RANK_WORDS = { A: "ace", T: "ten", K: "king", Q: "queen", J: "jack", 9: "nine", 8: "eight", 7: "seven" };
function cardName(code) { return `${RANK_WORDS[code[0]]} of ${SUIT_NAMES[code[1]]}`; }
function capital(s) { return s.charAt(0).toUpperCase() + s.slice(1); }
function spoken(text) {
  return text.replace(/(10|[AKQJ987])([♠♥♦♣])/g, (_, r, s) =>
    cardName((r === "10" ? "T" : r) + Object.keys(SUIT_SYM).find((k) => SUIT_SYM[k] === s)));
}
// a sentence with cards as symbols for the eye ("Q♠") and in words for a screen reader
function said(text) {
  return text.split(/((?:10|[AKQJ987])[♠♥♦♣])/).map((part, i) => i % 2 === 0 ? part
    : h("span", {}, h("span", { "aria-hidden": "true" }, part), h("span", { class: "visually-hidden" }, spoken(part))));
}
// A drawn table's buttons: a key is a shortcut, not part of the name; the hinted one is said
// and shown in words (a badge), not by colour only.  (The game of two and the tables.)
function markButtons(root) {
  for (const b of root.querySelectorAll("button")) {
    const key = b.querySelector(":scope > .key");
    if (key && key.textContent) { key.setAttribute("aria-hidden", "true"); b.setAttribute("aria-keyshortcuts", key.textContent); }
    if (!b.classList.contains("hinted")) continue;
    b.append(h("span", { class: "hint-badge", "aria-hidden": "true" }, "hint"));
    if (b.hasAttribute("aria-label")) b.setAttribute("aria-label", `${b.getAttribute("aria-label")} (the hint)`);
    else b.append(h("span", { class: "visually-hidden" }, " (the hint)"));
  }
}
// The declaring turn's buttons for the seven of trumps (``seven``, as text): exchange it for
// the turn-up, or declare it; those the deal offers, each calling ``act`` with its action.
function sevenButtons(d, seven, hintCls, act) {
  return [
    d.specials.includes("exchange") ? h("button", { class: "btn" + hintCls("exchange"), "data-action": "exchange", onclick: () => act("exchange"),
      "aria-label": `Exchange the ${spoken(seven)} for ${d.turnup ? `the turn-up, the ${cardName(d.turnup)}` : "the turn-up"}, 10 points` },
      h("span", { class: "key" }, "x"), `Exchange ${seven} for ${d.turnup ? cardText(d.turnup) : "the turn-up"} · 10`) : null,
    d.specials.includes("seven") ? h("button", { class: "btn" + hintCls("seven"), "data-action": "seven", onclick: () => act("seven"),
      "aria-label": `Declare the ${spoken(seven)}, 10 points` },
      h("span", { class: "key" }, "s"), `Declare the ${seven} · 10`) : null,
  ].filter(Boolean);
}
// A seat's melds as tags (``tag`` draws one): the broken ones (a card of each was played; their
// points stay scored) shown as they are while few, and past MANY_BROKEN folded into one line
// to open: in a long Six- or Eight-pack deal they pushed the trick and the hand off a phone's
// screen. ``legend`` explains the faded tags when they are shown.
const MANY_BROKEN = 3;
function meldList(melds, tag, legend) {
  const broken = melds.filter((m) => !m.intact);
  if (broken.length <= MANY_BROKEN) return h("div", { class: "meld-tags" }, melds.map(tag), broken.length ? legend : null);
  return h("div", { class: "meld-tags" }, melds.filter((m) => m.intact).map(tag),
    h("details", { class: "broken-melds" },
      h("summary", { class: "legend muted" }, `${broken.length} broken melds (a card of each was played; their points stay scored)`),
      h("div", { class: "meld-tags" }, broken.map(tag))));
}
function cardImg(code) {
  return h("img", { src: `/cards/${code}.svg`, alt: capital(cardName(code)), draggable: "false" });
}
function backImg() { return h("img", { src: "/cards/back.svg", alt: "face-down card", draggable: "false" }); }
function staticCard(code) { // (one picture with one name: its image is the picture's)
  return h("div", { class: "card", role: "img", "aria-label": capital(cardName(code)), "data-card": code },
    h("img", { src: `/cards/${code}.svg`, alt: "", draggable: "false" }));
}

const Saved = {
  all() {
    try { return JSON.parse(localStorage.getItem("bezique.games") || "{}"); } catch (e) { return {}; }
  },
  get(id) { return this.all()[id] || null; },
  // the newest ``n`` games' tokens {id: token} (kept in the order they were started): the server
  // answers for so many at a time (the list of games 100, the statistics 200), and refused the
  // whole list of a browser that had played more
  recent(n) { return Object.fromEntries(Object.entries(this.all()).slice(-n).map(([id, v]) => [id, v.token])); },
  set(id, token, seat, invite) {
    const a = this.all(); a[id] = { token, seat, invite: invite || (a[id] && a[id].invite) || null };
    localStorage.setItem("bezique.games", JSON.stringify(a));
  },
};

async function api(path, body) {
  const res = await fetch(path, {
    method: body === undefined ? "GET" : "POST",
    headers: { "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  let data = {};
  try { data = await res.json(); } catch (e) { /* not JSON */ }
  if (!res.ok) throw new Error(data.error || `the server answered ${res.status}`);
  return data;
}

// A game's record saved as a file: asked for with the seat's token in the body (POST), never in
// an address (which lands in the history and the server's logs), and saved through a link to
// the answer in memory.  recordButton: the button that does it ("Download record", "Record"),
// ``failed(error, button)`` told if it cannot.
async function saveRecord(id, token) {
  const res = await fetch(`/api/games/${encodeURIComponent(id)}/record`, {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ token }) });
  if (!res.ok) {
    let data = {};
    try { data = await res.json(); } catch (e) { /* not JSON */ }
    throw new Error(data.error || `the server answered ${res.status}`);
  }
  const url = URL.createObjectURL(await res.blob());
  const link = h("a", { href: url, download: `bezique-${id}.json`, hidden: true });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60000);
}
function recordButton(id, token, label, failed) {
  const b = h("button", { class: "btn ghost", "data-record": id, title: "Save this game's record (JSON) as a file",
    onclick: () => saveRecord(id, token).catch((e) => failed(e, b)) }, label);
  return b;
}

const app = document.getElementById("app");
let current = null; // the running page controller (has stop())
let keyHandler = null;

// Every view is drawn afresh; a keyboard player keeps their place: the card or button in focus
// (or, if it has gone, the first one to press) has the focus again after each redraw.
let keyboardFocus = null, keyboardUsed = false;
document.addEventListener("keydown", (ev) => { if (ev.key === "Tab" || ev.key.startsWith("Arrow")) keyboardUsed = true; }, true);
document.addEventListener("pointerdown", () => { keyboardUsed = false; keyboardFocus = null; }, true);
document.addEventListener("focusin", (ev) => { if (keyboardUsed && app.contains(ev.target)) keyboardFocus = focusKey(ev.target); });
function focusKey(el) {
  if (!el || !el.getAttribute) return null;
  if (el.id) return `#${CSS.escape(el.id)}`;
  const action = el.getAttribute("data-action"), card = el.getAttribute("data-card");
  if (action) return `[data-action="${CSS.escape(action)}"]`;
  if (card) return `[data-card="${CSS.escape(card)}"]`;
  return null;
}
function show(...nodes) {
  app.replaceChildren(...nodes);
  if (!keyboardFocus || (document.activeElement && document.activeElement !== document.body)) return;
  const usable = (el) => el && !el.disabled;
  let el = app.querySelector(keyboardFocus);
  if (!usable(el)) el = app.querySelector("#declare button, #hand button:not([disabled]), #my-table button:not([disabled]), #summary button");
  if (usable(el)) el.focus({ preventScroll: true });
}
// Enter or Space on a focused button or link presses it (the page's keys never take them then)
function pressesFocused(ev) {
  const t = ev.target;
  return (ev.key === "Enter" || ev.key === " ") && !!(t && t.closest && t.closest("button, a[href], summary, [role=button]"));
}

// ------------------------------------------------------------------ routing
function route() {
  if (current && current.stop) current.stop();
  BezMotion.clear();
  keyboardFocus = null;
  current = null;
  keyHandler = null;
  const parts = location.hash.replace(/^#\/?/, "").split("/").filter(Boolean).map(decodeURIComponent);
  if (parts[0] === "game" && parts[1]) {
    if (parts[2]) { // a private seat link: remember the token, then drop it from the address bar
      Saved.set(parts[1], parts[2], null);
      history.replaceState(null, "", `#/game/${encodeURIComponent(parts[1])}`);
    }
    current = new GamePage(parts[1]);
  } else if (parts[0] === "join" && parts[1] && parts[2]) {
    joinPage(parts[1], parts[2]);
  } else if (parts[0] === "replay" && parts[1]) {
    current = new ReplayPage(parts[1]);
  } else if (parts[0] === "games") {
    gamesPage();
  } else if (parts[0] === "help") {
    helpPage();
  } else if (parts[0] === "stats") {
    statsPage();
  } else if (parts[0] === "tutorial") {
    current = new TutorialPage();
  } else {
    homePage();
  }
  if (keyboardUsed) app.focus({ preventScroll: true }); // a keyboard player goes on in the new page
}
window.addEventListener("hashchange", route);
document.addEventListener("keydown", (ev) => {
  if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
  const t = ev.target;
  if (t && (t.tagName === "INPUT" || t.tagName === "SELECT" || t.tagName === "TEXTAREA")) return;
  if (pressesFocused(ev)) return;
  if (keyHandler && keyHandler(ev)) ev.preventDefault();
});

api("/api/server").then((s) => { SERVER = s; if (current && current.view) current.render(); }).catch(() => {});
route();
