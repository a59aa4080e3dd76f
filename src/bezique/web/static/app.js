// Bezique in the browser: a small single-page client (no framework, no external assets).
"use strict";

const SUIT_NAMES = { S: "spades", H: "hearts", D: "diamonds", C: "clubs" };
const SUIT_SYM = { S: "♠", H: "♥", D: "♦", C: "♣" };
// the same names as the terminal game's (bezique.narrate.LEVEL_NAMES; a test keeps them equal)
const LEVEL_NAMES = { 1: "Beginner", 2: "Casual", 3: "Club", 4: "Strong", 5: "Expert" };
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
function cardImg(code) {
  return h("img", { src: `/cards/${code}.svg`, alt: cardText(code), draggable: "false" });
}
function backImg() { return h("img", { src: "/cards/back.svg", alt: "face-down card", draggable: "false" }); }
function staticCard(code) { return h("div", { class: "card", role: "img", "aria-label": cardText(code), "data-card": code }, cardImg(code)); }

const Saved = {
  all() {
    try { return JSON.parse(localStorage.getItem("bezique.games") || "{}"); } catch (e) { return {}; }
  },
  get(id) { return this.all()[id] || null; },
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
}
window.addEventListener("hashchange", route);
document.addEventListener("keydown", (ev) => {
  if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
  const t = ev.target;
  if (t && (t.tagName === "INPUT" || t.tagName === "SELECT" || t.tagName === "TEXTAREA")) return;
  if (pressesFocused(ev)) return;
  if (keyHandler && keyHandler(ev)) ev.preventDefault();
});

// ------------------------------------------------------------------ home
function homePage() {
  const level = h("select", { id: "level", name: "level" },
    [1, 2, 3, 4, 5].map((lv) => h("option", { value: lv, selected: lv === 3 }, `${lv} · ${LEVEL_NAMES[lv]}`)));
  // the one-deal games have no target: its choice is off while one of them is chosen
  const variant = (id) => h("select", { id, name: "variant", onchange: (e) => {
      const t = document.getElementById(id.replace("variant", "target"));
      if (t) t.disabled = ONE_DEAL.includes(e.target.value);
    } },
    h("option", { value: "bezique" }, "Bezique (64 cards)"), h("option", { value: "binocle" }, "Binocle (48 cards)"),
    h("option", { value: "rubicon" }, "Rubicon (128 cards, one deal)"), h("option", { value: "sixpack" }, "Six-pack (192 cards, one deal)"),
    h("option", { value: "eightpack" }, "Eight-pack (256 cards, one deal)"));
  const target = (id) => h("select", { id, name: "target" },
    [[1000, "1000 (standard)"], [1500, "1500"], [2000, "2000"], [500, "500 (quick)"]].map(([v, t]) => h("option", { value: v }, t)));
  const err = h("div", { class: "msg", role: "alert" });
  const nameIn = h("input", { type: "text", id: "name", maxlength: 24, placeholder: "Your name", autocomplete: "nickname", value: PlayerName.get() });
  const seedIn = h("input", { type: "text", id: "seed", inputmode: "numeric", maxlength: 15, placeholder: "random" });

  async function start(opponent) {
    err.className = "msg"; err.textContent = "";
    const body = opponent === "computer"
      ? { opponent, level: +level.value, variant: document.getElementById("cvariant").value,
          target: +document.getElementById("ctarget").value, name: nameIn.value }
      : null;
    if (body && seedIn.value.trim()) {
      if (!/^[0-9]{1,15}$/.test(seedIn.value.trim())) { err.className = "msg error"; err.textContent = "The deal number must be a whole number."; return; }
      body.seed = +seedIn.value.trim();
    }
    const req = body || { opponent, variant: document.getElementById("fvariant").value,
          target: +document.getElementById("ftarget").value, name: nameIn.value };
    PlayerName.set(nameIn.value);
    try {
      const g = await api("/api/games", req);
      Saved.set(g.id, g.token, g.seat, g.invite);
      location.hash = `#/game/${g.id}`;
    } catch (e) { err.className = "msg error"; err.textContent = e.message; }
  }

  show(
    h("section", { class: "hero" },
      h("div", { class: "fan", "aria-hidden": "true" }, ["AH", "TH", "KH", "QH", "JH"].map(cardImg)),
      h("h1", {}, "Bezique"),
      h("p", {}, "The classic card game of marriages, beziques and brisques, for two, three or four."),
      h("div", { class: "field name-field" }, h("label", { for: "name" }, "Your name (shown to your opponent and in the records)"), nameIn),
      PlayerName.get() ? null : h("p", { class: "new-player" }, "New to the game? ", h("a", { href: "#/tutorial", class: "btn secondary", id: "start-tutorial" }, "Try the tutorial deal"))),
    h("div", { class: "panels" },
      h("section", { class: "panel" },
        h("h2", {}, "Play the computer"),
        h("div", { class: "field" }, h("label", { for: "level" }, "Level"), level),
        h("div", { class: "field" }, h("label", { for: "cvariant" }, "Game"), variant("cvariant")),
        h("div", { class: "field" }, h("label", { for: "ctarget" }, "Play to"), target("ctarget")),
        h("details", { class: "field" }, h("summary", {}, "Deal number"),
          h("label", { for: "seed" }, "The same number deals the same cards."), seedIn),
        h("button", { class: "btn", id: "start-computer", onclick: () => start("computer") }, "Deal the cards")),
      h("section", { class: "panel" },
        h("h2", {}, "Play a friend"),
        h("div", { class: "field" }, h("label", { for: "fvariant" }, "Game"), variant("fvariant")),
        h("div", { class: "field" }, h("label", { for: "ftarget" }, "Play to"), target("ftarget")),
        h("button", { class: "btn", id: "start-friend", onclick: () => start("friend") }, "Create a game and get a link")),
      BezTable.panel(nameIn, err),
      gamesPanel()),
    err);
}

function gamesPanel() {
  const list = h("ul", { class: "games-list", id: "games" }, h("li", { class: "muted" }, "Looking…"));
  const panel = h("section", { class: "panel" }, h("h2", {}, "Your games"), list);
  const saved = Saved.all();
  const games = {};
  for (const [id, v] of Object.entries(saved)) games[id] = v.token;
  if (!Object.keys(games).length) { list.replaceChildren(h("li", { class: "muted" }, "No games yet.")); return panel; }
  api("/api/mine", { games }).then((r) => {
    if (!r.games.length) { list.replaceChildren(h("li", { class: "muted" }, "No games yet.")); return; }
    list.replaceChildren(...r.games.map((g) => {
      const me = g.seat, opp = 1 - g.seat, table = g.opponent === "table";
      let state;
      if (table && g.winner !== null && g.winner !== undefined) state = "Game over";
      else if (g.winner !== null && g.winner !== undefined) state = g.winner === me ? "You won" : `${g.names[g.winner]} won`;
      else if (g.waiting_for_friend) state = table ? "Waiting for players" : "Waiting for your friend";
      else if (g.deal_over && ONE_DEAL.includes(g.variant)) state = "A draw";
      else if (g.deal_over) state = "Deal over";
      else state = g.turn === me ? "Your turn" : `${g.names[table ? g.turn : opp]} to play`;
      if (table) {
        return h("li", {},
          h("div", {},
            h("div", {}, h("strong", {}, `Table: ${g.names.filter((_, i) => i !== me).join(", ")}`), ` · ${g.variant} ${playTo(g.variant, g.target)}`),
            h("div", { class: "meta" }, `${state} · deal ${g.deal} · ${g.scores.join("–")} · ${new Date(g.updated * 1000).toLocaleString()}`)),
          h("div", { class: "actions" }, h("a", { class: "btn", href: `#/game/${g.id}` }, g.winner === null ? "Continue" : "Open")));
      }
      const token = encodeURIComponent(saved[g.id].token);
      const finished = g.deal - 1 + (g.deal_over ? 1 : 0);
      return h("li", {},
        h("div", {},
          h("div", {}, h("strong", {}, `vs ${g.names[opp]}`), ` · ${g.variant} ${playTo(g.variant, g.target)}`),
          h("div", { class: "meta" }, `${state} · deal ${g.deal} · ${g.scores[me]}–${g.scores[opp]} · ${new Date(g.updated * 1000).toLocaleString()}`)),
        h("div", { class: "actions" },
          h("a", { class: "btn", href: `#/game/${g.id}` }, g.winner === null && !(g.deal_over && ONE_DEAL.includes(g.variant)) ? "Continue" : "Open"),
          finished ? h("a", { class: "btn secondary", href: `#/replay/${g.id}` }, "Replay") : null,
          finished ? h("a", { class: "btn ghost", href: `/api/games/${g.id}/record?token=${token}`, download: `bezique-${g.id}.json` }, "Record") : null));
    }));
  }).catch((e) => list.replaceChildren(h("li", { class: "error-box" }, e.message)));
  return panel;
}

function gamesPage() { show(gamesPanel()); }

// ------------------------------------------------------------------ join
function joinPage(id, invite) {
  const nameIn = h("input", { type: "text", id: "name", maxlength: 24, placeholder: "Your name", value: PlayerName.get() });
  const err = h("div", { class: "msg", role: "alert" });
  const existing = Saved.get(id);
  async function join() {
    PlayerName.set(nameIn.value);
    try {
      const r = await api(`/api/games/${encodeURIComponent(id)}/join`, { invite, name: nameIn.value });
      Saved.set(r.id, r.token, r.seat);
      location.hash = `#/game/${r.id}`;
    } catch (e) { err.className = "msg error"; err.textContent = e.message; }
  }
  show(h("section", { class: "panel" },
    h("h2", {}, "You are invited to a game of Bezique"),
    // one browser keeps one seat a game: taking the friend's seat here would lose this one
    existing ? h("p", { id: "have-seat" }, "This browser already holds a seat in this game: this invitation is for your friend, to open on their own device. ",
      h("a", { class: "btn", href: `#/game/${id}` }, "Go to your table")) : null,
    existing ? null : h("div", { class: "field" }, h("label", { for: "name" }, "Your name"), nameIn),
    existing ? null : h("button", { class: "btn", id: "join", onclick: join }, "Take my seat"),
    err));
}

// ------------------------------------------------------------------ the game
class GamePage {
  constructor(id) {
    this.id = id;
    this.saved = Saved.get(id);
    this.view = null;
    this.msg = null; // {kind, text}
    this.ref = 0;
    this.stopped = false;
    this.retry = 500; this.sentAt = new Map(); // ref -> the version of the view a request was made from
    if (!this.saved) {
      show(h("section", { class: "panel" }, h("h2", {}, "No seat here"),
        h("p", {}, "This browser holds no seat in that game. Open the private link you were given, or start a new game."),
        h("a", { class: "btn", href: "#/" }, "New game")));
      return;
    }
    show(h("p", { class: "loading" }, "Connecting to the table…"));
    keyHandler = (ev) => this.onKey(ev);
    this.connect();
  }
  stop() { this.stopped = true; if (this.ws) this.ws.close(); }
  connect() {
    const proto = location.protocol === "https:" ? "wss" : "ws";
    const ws = new WebSocket(`${proto}://${location.host}/ws/${encodeURIComponent(this.id)}?token=${encodeURIComponent(this.saved.token)}`);
    this.ws = ws;
    ws.onmessage = (ev) => this.onMessage(JSON.parse(ev.data));
    ws.onopen = () => { this.retry = 500; };
    ws.onclose = () => {
      if (this.stopped || this.fatal) return;
      this.setMsg("error", "Connection lost; reconnecting…");
      setTimeout(() => { if (!this.stopped) this.connect(); }, this.retry);
      this.retry = Math.min(this.retry * 2, 8000);
    };
  }
  send(obj) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) { this.setMsg("error", "Not connected yet; try again in a moment."); return; }
    obj.ref = ++this.ref; if (obj.version !== undefined) this.sentAt.set(obj.ref, obj.version);
    this.ws.send(JSON.stringify(obj));
  }
  request(type) { this.send({ type, version: this.view.game.version }); } // refused once the game moved on: a double click acts once
  hint() {
    if (!this.view.deal.your_turn) return;
    this.send({ type: "hint" });
    this.setMsg("hint", "Thinking…");
  }
  seatLink() {
    const link = `${location.origin}/#/game/${this.id}/${encodeURIComponent(this.saved.token)}`;
    if (navigator.clipboard) navigator.clipboard.writeText(link).catch(() => {});
    this.setMsg("hint", `Your private link to this seat (open it on another device; keep it secret): ${link}`);
  }
  get autoDraw() { return localStorage.getItem("bezique.autodraw") !== "off"; }
  set autoDraw(on) { localStorage.setItem("bezique.autodraw", on ? "on" : "off"); }
  // a trick won with nothing to declare: the only thing to do is to draw
  onlyDraw() { const d = this.view.deal; return d.your_turn && d.phase === "declare" && d.legal.length === 1 && d.legal[0] === "pass"; }
  act(action) { this.msg = null; this.send({ type: "action", action, version: this.view.game.version }); }
  onMessage(m) {
    const at = this.sentAt.get(m.ref); this.sentAt.delete(m.ref); // the reply's request's view
    if (m.type === "state") {
      if (this.view && m.game.version < this.view.game.version) return;
      const before = this.view;
      this.view = m;
      if (before && before.game.version !== m.game.version) {
        this.hinted = null;
        if (this.msg && this.msg.kind === "hint") this.msg = null;
      }
      if (this.msg && this.msg.text.startsWith("Connection lost")) this.msg = null;
      if (this.msg && this.msg.at !== undefined && this.msg.at < m.game.version) this.msg = null;
      const snap = before ? BezMotion.snapshot() : null;
      this.render();
      if (!m.game.seats) BezMotion.animate(before, m, snap); // (two seats: the table's moves)
      BezSound.after(before, m);
    } else if (m.type === "error") {
      if (!m.fatal && at !== undefined && this.view && at < this.view.game.version) return; // made from an older view (a second click): shown already
      if (m.fatal) {
        this.fatal = true;
        show(h("section", { class: "panel" }, h("h2", {}, "Cannot open this game"), h("p", { class: "error-box" }, m.message),
          h("a", { class: "btn", href: "#/" }, "New game")));
        return;
      }
      this.setMsg("error", m.message);
      this.msg.at = at; // cleared by a newer view
    } else if (m.type === "hint") {
      this.hinted = Teach.target(m);
      const version = this.view.game.version, action = Teach.pick(this.hinted, this.view);
      this.setMsg("hint", `Hint: ${m.text}.`);
      if (Teach.explain && action && !this.view.game.seats) { // (why: two seats only)
        Teach.why(this, action).then((why) => {
          if (this.view.game.version === version && why.length) this.setMsg("hint", `Hint: ${m.text}. Why: ${why.join("; ")}.`);
        }).catch(() => {});
      }
    }
  }
  setMsg(kind, text) { this.msg = { kind, text }; if (this.view) this.render(); }

  name(seat) { const g = this.view.game; return seat === g.you ? "You" : g.names[seat]; }

  onKey(ev) {
    const v = this.view;
    if (!v) return false;
    const k = ev.key.toLowerCase();
    if (k === "h" && (v.game.opponent === "computer" || BezTable.alone(v))) { this.hint(); return true; }
    if (k === "u" && v.game.can_undo) { this.request("undo"); return true; }
    if (k === "n" && v.deal.phase === "over" && v.game.winner === null && !v.deal.one_deal) { this.request("next"); return true; }
    if (k === "n" && (v.game.winner !== null || (v.deal.one_deal && v.deal.phase === "over"))) { this.playAgain(); return true; }
    if (!v.deal.your_turn) return false;
    const pi = PLAY_KEYS.indexOf(k);
    if (pi >= 0 && this.playable[pi]) { this.act(this.playable[pi]); return true; }
    const mi = MELD_KEYS.indexOf(k);
    if (mi >= 0 && v.deal.melds_available[mi]) { this.act(v.deal.melds_available[mi].action); return true; }
    if ((k === "d" || k === "enter") && v.deal.specials.includes("pass")) { this.act("pass"); return true; }
    if (k === "x" && v.deal.specials.includes("exchange")) { this.act("exchange"); return true; }
    if (k === "s" && v.deal.specials.includes("seven")) { this.act("seven"); return true; }
    if (k === "o" && v.deal.specials.includes("offer")) { this.act("offer"); return true; }
    if (k === "c" && v.deal.specials.includes("carte")) { this.act("carte"); return true; }
    return false;
  }

  statusLine() {
    const { game: g, deal: d } = this.view;
    const opp = g.names[1 - g.you];
    if (g.winner !== null) return g.winner === g.you ? "You win the game!" : `${opp} wins the game.`;
    if (d.phase === "over") return d.one_deal ? `The deal is over: ${d.settlement || ""}` : `Deal ${g.deal} is over.`;
    if (g.waiting_for_friend) return "Waiting for your friend: the game starts when they take their seat.";
    if (!d.your_turn) {
      if (d.phase === "declare") return `${opp} won the trick and is declaring…`;
      return `${opp} to play…`;
    }
    if (d.phase === "guess") return "The dealer cut the pack: guess how many cards (a right guess scores 150).";
    if (d.phase === "declare" && this.onlyDraw() && this.autoDraw) return "You won the trick; nothing to declare: drawing…";
    if (d.phase === "declare") return "You won the trick: declare a meld, or draw.";
    if (d.phase === "lead") return d.end_phase ? "Your lead. (Last tricks: follow suit and win if you can.)" : "Your lead: play any card.";
    const lead = d.trick[0] ? cardText(d.trick[0].card) : "";
    return d.end_phase ? `Play to ${lead}: follow suit and win if you can.` : `Play any card to ${lead}.`;
  }

  render() {
    if (this.view.game.seats) { BezTable.render(this); return; } // a table of three or four
    const { game: g, deal: d } = this.view;
    const me = g.you, opp = 1 - me;
    this.playable = [];
    const playKey = (action) => {
      if (!action || !d.your_turn) return null;
      this.playable.push(action);
      return PLAY_KEYS[this.playable.length - 1] || null;
    };
    const hinted = Teach.pick(this.hinted, this.view);
    const hintCls = (action) => action && action === hinted ? " hinted" : "";
    const cardButton = (c, where) => {
      const key = playKey(c.action);
      return h("button", {
        class: "card" + (c.action && d.your_turn ? " playable" : "") + hintCls(c.action),
        disabled: !(c.action && d.your_turn),
        "data-card": c.card, "data-action": c.action, "data-where": where,
        "aria-label": `${c.action ? "Play" : ""} ${cardText(c.card)}${where === "table" ? " (on the table)" : ""}`.trim(),
        title: key ? `Key ${key}` : null,
        onclick: () => c.action && this.act(c.action),
      }, cardImg(c.card), key ? h("span", { class: "k" }, key) : null);
    };
    const meldTags = (seat) => d.melds[seat].length
      ? h("div", { class: "meld-tags" }, d.melds[seat].map((m) =>
          h("span", { class: "meld-tag" + (m.intact ? "" : " broken"),
            title: m.cards.map(cardText).join(" ") + (m.intact ? "" : " · broken: a card of it was played; its points stay scored") },
            `${m.name} ${m.points}`, m.intact ? null : h("span", { class: "why" }, " · broken (a card was played)"))),
          d.melds[seat].some((m) => !m.intact) ? h("span", { class: "legend muted" }, "Faded melds are broken: a card of them was played. Their points stay scored.") : null)
      : null;
    const head = (seat) => h("div", { class: "seat-head" },
      h("span", { class: "dot" + (g.online[seat] || (g.opponent === "computer" && seat !== me) ? " on" : "") , title: "online" }),
      h("span", { class: "name" }, seat === me ? `${g.names[seat]} (you)` : g.names[seat]),
      d.dealer === seat ? h("span", { class: "dealer" }, "dealer") : null,
      d.turn === seat && d.phase !== "over" && !g.waiting_for_friend ? h("span", { class: "turn-flag" }, seat === me ? "your turn" : "to play") : null);

    // opponent
    const backs = [];
    for (let i = 0; i < d.opponent_hidden; i++) backs.push(h("div", { class: "card" }, backImg()));
    const oppSeat = h("section", { class: "seat opp", "aria-label": "opponent" },
      head(opp),
      h("div", { class: "backs", "aria-label": `${d.opponent_hidden} cards in hand` }, backs),
      d.table[opp].length ? h("div", {}, h("div", { class: "label" }, "On the table"),
        h("div", { class: "cards small", id: "opp-table" }, d.table[opp].map((c) => staticCard(c.card)))) : null,
      meldTags(opp));

    // middle: stock, trick
    const stock = h("div", { class: "stock-area" },
      h("div", { class: "stock-pile", "aria-label": `stock: ${d.stock} cards; turn-up ${d.turnup ? cardText(d.turnup) : "taken"}` },
        d.turnup ? h("div", { class: "turnup" }, cardImg(d.turnup)) : null,
        d.stock > 0 ? h("div", { class: "top" }, backImg(), h("span", { class: "count", id: "stock-count" }, d.stock)) : null),
      h("div", { class: "trump-box" },
        d.trump ? h("img", { src: `/suits/${d.trump}.svg`, alt: "" }) : null,
        h("div", { class: "t", id: "trump" }, d.trump ? `Trumps: ${SUIT_NAMES[d.trump]}`
          : "Trumps: not yet fixed (the first marriage or sequence fixes them)")));
    let trick;
    if (d.trick.length) {
      trick = h("div", { class: "trick-cards", id: "trick" },
        d.trick.map((t) => h("figure", {}, staticCard(t.card), h("figcaption", {}, `${this.name(t.seat)} led`))),
        h("div", { class: "slot" }));
    } else if (d.last_trick) {
      const lt = d.last_trick;
      trick = h("div", { class: "trick-cards faded", id: "trick" },
        h("figure", {}, staticCard(lt.lead), h("figcaption", {}, `${this.name(lt.leader)} led`)),
        h("figure", {}, staticCard(lt.follow), h("figcaption", {}, this.name(1 - lt.leader))));
    } else {
      trick = h("div", { class: "trick-cards", id: "trick" }, h("div", { class: "slot" }), h("div", { class: "slot" }));
    }
    const trickCaption = d.trick.length ? "Current trick" :
      d.last_trick ? `${this.name(d.last_trick.winner)} won the last trick` : "No trick yet";
    const middle = h("section", { class: "middle" }, stock,
      h("div", { class: "trick-area" }, trick, h("div", { class: "label", id: "trick-caption" }, trickCaption)));

    // me
    const declare = h("div", { class: "declare", id: "declare" });
    const seven = d.trump ? cardText((g.variant === "binocle" ? "9" : "7") + d.trump) : "";
    const drawing = this.onlyDraw() && this.autoDraw;
    if (d.your_turn && d.phase === "declare" && !drawing) {
      d.melds_available.forEach((m, i) => declare.append(h("button", {
        class: "btn" + hintCls(m.action), "data-action": m.action, onclick: () => this.act(m.action),
        title: m.cards.map(cardText).join(" "),
      }, h("span", { class: "key" }, MELD_KEYS[i] || ""), `${m.name} ${m.cards.map(cardText).join(" ")} · ${m.points}`)));
      if (d.specials.includes("exchange")) declare.append(h("button", { class: "btn" + hintCls("exchange"), "data-action": "exchange", onclick: () => this.act("exchange") },
        h("span", { class: "key" }, "x"), `Exchange ${seven} for ${d.turnup ? cardText(d.turnup) : "the turn-up"} · 10`));
      if (d.specials.includes("seven")) declare.append(h("button", { class: "btn" + hintCls("seven"), "data-action": "seven", onclick: () => this.act("seven") },
        h("span", { class: "key" }, "s"), `Declare the ${seven} · 10`));
      if (d.specials.includes("pass")) declare.append(h("button", { class: "btn secondary" + hintCls("pass"), "data-action": "pass", id: "pass", onclick: () => this.act("pass") },
        h("span", { class: "key" }, "d"), d.melds_available.length || d.specials.length > 1 ? "Draw (done declaring)" : "Draw"));
    }
    if (d.your_turn && d.specials.includes("carte")) declare.append(h("button", { class: "btn" + hintCls("carte"), "data-action": "carte", id: "carte", onclick: () => this.act("carte") },
      h("span", { class: "key" }, "c"), "Carte blanche: show a hand without a court card"));
    if (d.your_turn && d.phase === "guess") d.guesses.forEach((n) => declare.append(h("button", { class: "btn", "data-action": `guess ${n}`, onclick: () => this.act(`guess ${n}`) }, `${n} cards`)));
    let summary = null;
    if (d.one_deal && d.phase === "over") {
      summary = h("div", { class: "summary game-over", id: "summary" },
        h("h3", {}, `${this.name(me)} ${d.scores[me]}, ${g.names[opp]} ${d.scores[opp]}`),
        h("div", { class: "winner-banner", id: "winner" }, g.winner === null ? "A draw." : g.winner === me ? "You win the game." : `${g.names[opp]} wins the game.`),
        h("div", { id: "settlement" }, `Settled: ${d.settlement || ""}`),
        h("button", { class: "btn", id: "play-again", onclick: () => this.playAgain() }, h("span", { class: "key" }, "n"), "Play again"));
    } else if (g.winner !== null) {
      summary = this.gameOver();
    } else if (d.phase === "over") {
      summary = h("div", { class: "summary", id: "summary" },
        h("h3", {}, `Deal ${g.deal}: ${this.name(me)} ${d.scores[me]}, ${g.names[opp]} ${d.scores[opp]}`),
        h("div", { class: "muted" }, `Brisques: you ${d.brisques[me]}, ${g.names[opp]} ${d.brisques[opp]}. Game: ${g.totals[me]}–${g.totals[opp]} (to ${g.target}).`),
        h("button", { class: "btn", id: "next-deal", onclick: () => this.request("next") }, h("span", { class: "key" }, "n"), "Next deal"));
    }
    const msg = this.msg ? h("div", { class: `msg ${this.msg.kind}`, role: "alert", id: "msg" }, this.msg.text) : h("div", { class: "msg", role: "alert", id: "msg" });
    const tools = h("div", { class: "tools" },
      g.opponent === "computer" ? h("button", { class: "btn ghost", id: "hint", disabled: !d.your_turn, onclick: () => this.hint() }, h("span", { class: "key" }, "h"), "Hint") : null,
      g.opponent === "computer" ? h("button", { class: "btn ghost", id: "undo", disabled: !g.can_undo, onclick: () => this.request("undo") }, h("span", { class: "key" }, "u"), "Undo") : null,
      h("button", { class: "btn ghost", id: "seat-link", onclick: () => this.seatLink() }, "My seat link"),
      h("label", { class: "auto-draw", title: "After a trick you win with nothing to declare, draw without a click" },
        h("input", { type: "checkbox", id: "auto-draw", checked: this.autoDraw, onchange: (e) => { this.autoDraw = e.target.checked; this.render(); } }), " Draw by itself"),
      g.opponent === "computer" ? toggle("explain", "Explain hints", "A hint also says why", Teach, "explain") : null,
      toggle("motion", "Motion", BezMotion.reduced() ? "Your system asks for reduced motion: cards do not move" : "Cards slide to the trick and to its winner", BezMotion, "on"),
      toggle("sound", "Sound", "Short sounds for cards, melds and your turn", BezSound, "on"),
      g.finished_deals > 0 ? h("a", { class: "btn ghost", href: `#/replay/${g.id}` }, "Replay") : null,
      g.finished_deals > 0 ? h("a", { class: "btn ghost", href: `/api/games/${g.id}/record?token=${encodeURIComponent(this.saved.token)}`, download: `bezique-${g.id}.json` }, "Download record") : null);
    const handButtons = d.hand.map((c) => cardButton(c, "hand")); // numbered first: 1, 2, ...
    const tableButtons = d.table[me].map((c) => cardButton(c, "table"));
    const mySeat = h("section", { class: "seat me" + (d.your_turn && !drawing ? " my-turn" : ""), "aria-label": "your seat" },
      h("div", { class: "me-head" }, head(me), tools),
      h("div", { class: "status", id: "status", "aria-live": "polite" }, this.statusLine(),
        d.drew ? h("span", { class: "sub" }, `You drew ${cardText(d.drew)}.`) : null),
      summary,
      declare,
      d.table[me].length ? h("div", {}, h("div", { class: "label" }, "Your cards on the table"),
        h("div", { class: "cards small keyed", id: "my-table" }, tableButtons)) : null,
      meldTags(me),
      d.hand.length ? h("div", { class: "label" }, "Your hand") : null,
      h("div", { class: "cards hand", id: "hand" }, handButtons),
      msg);

    // side: scores, invite, log
    const row = (label, a, b, cls) => h("tr", { class: cls || null }, h("td", {}, label), h("td", {}, a), h("td", {}, b));
    const side = h("aside", { class: "side" },
      g.waiting_for_friend ? this.invitePanel() : null,
      h("section", { class: "panel" },
        h("table", { class: "scoreboard", id: "scores" },
          h("thead", {}, h("tr", {}, h("th", {}, `Deal ${g.deal} · ${playTo(g.variant, g.target)}`), h("th", {}, "You"), h("th", {}, g.names[opp]))),
          h("tbody", {},
            row("This deal", d.scores[me], d.scores[opp]),
            row("Brisques won", d.brisques[me], d.brisques[opp]),
            row("Game", g.totals[me], g.totals[opp], "total"))),
        h("div", { class: "muted trick-count" },
          d.phase === "over" ? `All ${d.tricks_played} tricks played` : `Trick ${d.tricks_played + 1} · stock ${d.stock}`)),
      h("section", { class: "panel" }, h("div", { class: "label" }, "This deal"),
        h("ul", { class: "log", id: "log" }, d.log.slice().reverse().map((e) => h("li", { class: e.seat === me ? "mine" : "" }, e.text)))));

    document.body.dataset.version = String(g.version);
    show(this.tutorial ? this.tutorial.box(this.view) : "", h("div", { class: "table" }, oppSeat, middle, mySeat, side));
    if (drawing && this.autoSent !== g.version) { this.autoSent = g.version; this.act("pass"); }
  }

  gameOver() {
    const g = this.view.game, me = g.you, opp = 1 - me;
    const rows = g.deal_scores.map((sc, i) => h("tr", {}, h("td", {}, `Deal ${i + 1}`), h("td", {}, sc[me]), h("td", {}, sc[opp])));
    return h("div", { class: "summary game-over", id: "summary" },
      h("div", { class: "winner-banner", id: "winner" }, g.winner === me ? "You win the game!" : `${g.names[opp]} wins the game.`),
      g.win_reason ? h("div", { class: "muted", id: "win-reason" }, g.win_reason) : null,
      h("table", { class: "scoreboard", id: "final-scores" },
        h("thead", {}, h("tr", {}, h("th", {}, `Game to ${g.target}`), h("th", {}, "You"), h("th", {}, g.names[opp]))),
        h("tbody", {}, rows, h("tr", { class: "total" }, h("td", {}, "Final score"), h("td", {}, g.totals[me]), h("td", {}, g.totals[opp])))),
      h("button", { class: "btn", id: "play-again", onclick: () => this.playAgain() }, h("span", { class: "key" }, "n"), "Play again"));
  }

  async playAgain() {
    const g = this.view.game;
    if (g.seats) { BezTable.playAgain(this); return; } // the same table again
    const body = g.opponent === "computer"
      ? { opponent: "computer", level: g.level, variant: g.variant, target: g.target }
      : { opponent: "friend", variant: g.variant, target: g.target };
    if (this.view.deal.one_deal) delete body.target; // one deal, settled: no target
    body.name = g.names[g.you];
    try {
      const n = await api("/api/games", body);
      Saved.set(n.id, n.token, n.seat, n.invite);
      location.hash = `#/game/${n.id}`;
    } catch (e) { this.setMsg("error", e.message); }
  }

  invitePanel() {
    const base = SERVER.public_url || location.origin;
    const link = `${base}/#/join/${this.id}/${this.saved.invite || ""}`;
    const known = !!this.saved.invite;
    const local = !SERVER.public_url && (SERVER.loopback || ["127.0.0.1", "localhost", "[::1]"].includes(location.hostname));
    return h("section", { class: "invite", id: "invite" },
      h("strong", {}, "Invite a friend"),
      local ? h("p", { class: "note", id: "loopback-note" }, SERVER.loopback
        ? "This server listens only on this computer, so a friend elsewhere cannot open the link. Start it with: bezique serve --host 0.0.0.0 --public-url URL (the address your friend can reach, with the port)"
        : "This link names this computer (127.0.0.1 / localhost): it works only here. Open this page by your network address, or start the server with --public-url.") : null,
      known ? h("input", { type: "text", readonly: true, value: link, id: "invite-link", onfocus: (e) => e.target.select() })
        : h("p", {}, "Send your friend the invitation link you were given when you created the game."),
      known ? h("button", { class: "btn", onclick: () => navigator.clipboard && navigator.clipboard.writeText(link) }, "Copy link") : null);
  }
}

api("/api/server").then((s) => { SERVER = s; if (current && current.view) current.render(); }).catch(() => {});
route();
