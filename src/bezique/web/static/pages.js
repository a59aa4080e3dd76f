// The pages beside the table: the replay of finished deals, How to play (the same rules text as the terminal's rules screen,
// served by /api/rules), the player's statistics (/api/stats) with a small SVG chart, and the
// player's name kept in this browser. Loaded before app.js; uses its helpers at call time.
"use strict";

const PlayerName = {
  get() { return (localStorage.getItem("bezique.name") || "").slice(0, 24); },
  set(name) { const n = (name || "").trim().slice(0, 24); if (n) localStorage.setItem("bezique.name", n); },
};

function helpPage() {
  const rules = h("div", { class: "rules", id: "rules" }, h("p", { class: "muted" }, "Loading the rules…"));
  show(h("section", { class: "panel help" },
    h("h2", {}, "How to play"),
    h("p", {}, "New to Bezique? ", h("a", { href: "#/tutorial", id: "tutorial-link" }, "Play the tutorial deal"),
      ": a short hand that shows tricks, melds and the seven of trumps, step by step."),
    h("h3", {}, "Keyboard"),
    h("ul", {},
      h("li", {}, "1–9, 0: play the card with that number"),
      h("li", {}, "a, b, c…: declare the meld with that letter; x: exchange the seven; s: declare the seven"),
      h("li", {}, "d or Enter: draw (end your declaring turn); n: next deal"),
      h("li", {}, "o: offer the declaring turn to your partner (four-handed, in partnership)"),
      h("li", {}, "c: carte blanche, a hand without a king, queen or jack (Rubicon, Six-pack)"),
      h("li", {}, "Tab moves between the cards and buttons; Enter or Space presses the one in focus"),
      h("li", {}, "h: hint; u: undo (against the computer, and at a table of you and the computer)")),
    h("p", { class: "muted" }, "At the table: tick “Explain hints” and a hint also says why; “Motion” and “Sound” turn the card animations and the sounds on or off (nothing moves when your system asks for reduced motion). Your statistics are under Statistics."),
    rules));
  api("/api/rules").then((r) => {
    rules.innerHTML = r.html; // built on the server from the package's own text (escaped there)
    rules.dataset.sections = r.sections.join("|");
  }).catch((e) => rules.replaceChildren(h("p", { class: "error-box" }, e.message)));
}

// ------------------------------------------------------------------ statistics
const SVG_NS = "http://www.w3.org/2000/svg";
function svg(tag, attrs, ...kids) {
  const el = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs || {})) el.setAttribute(k, v);
  for (const kid of kids) el.append(kid instanceof Node ? kid : document.createTextNode(String(kid)));
  return el;
}

// the win rate after each finished game, as a line over 0..100 %
function rateChart(points) {
  const W = 320, H = 120, P = 24;
  const n = points.length;
  const x = (i) => P + (n <= 1 ? (W - 2 * P) / 2 : (i * (W - 2 * P)) / (n - 1));
  const y = (r) => H - P - r * (H - 2 * P);
  const chart = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "rate-chart", role: "img",
    "aria-label": `win rate over ${n} games: ${points.map((p) => Math.round(p.rate * 100) + "%").join(", ")}` });
  for (const r of [0, 0.5, 1]) {
    chart.append(svg("line", { x1: P, x2: W - P, y1: y(r), y2: y(r), class: "grid" }),
      svg("text", { x: 2, y: y(r) + 4, class: "axis" }, `${r * 100}%`));
  }
  if (n) {
    chart.append(svg("polyline", { points: points.map((p, i) => `${x(i)},${y(p.rate)}`).join(" "), class: "rate" }));
    points.forEach((p, i) => chart.append(svg("circle", { cx: x(i), cy: y(p.rate), r: 3, class: "dot" },
      svg("title", {}, `game ${i + 1}: ${Math.round(p.rate * 100)}% (${new Date(p.when * 1000).toLocaleDateString()})`))));
  }
  return chart;
}

function statsPage() {
  const box = h("div", { id: "stats" }, h("p", { class: "muted" }, "Counting…"));
  show(h("section", { class: "panel" }, h("h2", {}, "Your statistics"),
    h("p", { class: "muted" }, "From the games this browser holds a seat in, per name and per opponent (the tables of three and four by their kind: won when you, or your side, win)."), box));
  const saved = Saved.all();
  const games = {};
  for (const [id, v] of Object.entries(saved)) games[id] = v.token;
  api("/api/stats", { games }).then((r) => {
    if (!r.groups.length) { box.replaceChildren(h("p", {}, "No games yet: play one and come back.")); return; }
    const pct = (x) => `${Math.round(x * 100)}%`;
    box.replaceChildren(
      h("table", { class: "scoreboard stats-table", id: "stats-table" },
        h("thead", {}, h("tr", {}, ["Player", "Against", "Games won", "Deals won", "Points a deal", "Best meld"].map((t) => h("th", {}, t)))),
        h("tbody", {}, r.groups.map((g) => h("tr", { class: g.against === "all" ? "total" : "" },
          h("td", {}, g.player), h("td", {}, g.against === "all" ? "everyone" : g.table ? `at ${g.against}` : g.against),
          h("td", {}, `${g.games_won} of ${g.games}${g.games ? ` (${pct(g.win_rate)})` : ""}`),
          h("td", {}, `${g.deals_won} of ${g.deals}`), h("td", {}, g.average_points),
          h("td", {}, g.best_meld ? `${g.best_meld.name} ${g.best_meld.points}` : "—"))))),
      ...r.groups.filter((g) => g.against === "all").map((g) => h("figure", { class: "chart" },
        rateChart(g.rate_over_time), h("figcaption", { class: "muted" }, `${g.player}: win rate over time (finished games)`))),
      h("h3", {}, "Recent games"),
      h("ul", { class: "log", id: "recent" }, r.recent.map((g) => h("li", {},
        `${new Date(g.when * 1000).toLocaleString()} · ${g.table ? "at" : "against"} ${g.against} · ${g.won === null ? "unfinished" : g.won ? "won" : "lost"} · ${g.deals} deals, ${g.points} points`))));
  }).catch((e) => box.replaceChildren(h("p", { class: "error-box" }, e.message)));
}

// a checkbox kept in this browser: obj[prop] is read and set
function toggle(id, label, title, obj, prop) {
  return h("label", { class: "auto-draw", title },
    h("input", { type: "checkbox", id, checked: !!obj[prop], disabled: id === "motion" && BezMotion.reduced(),
      onchange: (e) => { obj[prop] = e.target.checked; } }), ` ${label}`);
}

// ------------------------------------------------------------------ replay
class ReplayPage {
  constructor(id) {
    this.id = id;
    const saved = Saved.get(id);
    if (!saved) { show(h("p", { class: "error-box" }, "This browser holds no seat in that game.")); return; }
    show(h("p", { class: "loading" }, "Loading the replay…"));
    api(`/api/games/${encodeURIComponent(id)}/replay?token=${encodeURIComponent(saved.token)}`).then((r) => {
      this.data = r; this.deal = 0; this.pos = 0;
      if (!r.deals.length) { show(h("section", { class: "panel" }, h("p", {}, "No deal of this game is finished yet: a deal can be replayed once it is over."), h("a", { class: "btn", href: `#/game/${id}` }, "Back to the table"))); return; }
      keyHandler = (ev) => this.onKey(ev);
      this.render();
    }).catch((e) => show(h("p", { class: "error-box" }, e.message)));
  }
  frames() { return this.data.deals[this.deal].frames; }
  go(pos) { this.pos = Math.max(0, Math.min(this.frames().length - 1, pos)); this.render(); }
  trickStep(dir) {
    const f = this.frames();
    let p = this.pos + dir;
    while (p > 0 && p < f.length - 1 && !f[p].trick_done) p += dir;
    this.go(p);
  }
  onKey(ev) {
    if (ev.key === "ArrowRight") { this.go(this.pos + 1); return true; }
    if (ev.key === "ArrowLeft") { this.go(this.pos - 1); return true; }
    if (ev.key === "ArrowDown" || ev.key === "PageDown") { this.trickStep(1); return true; }
    if (ev.key === "ArrowUp" || ev.key === "PageUp") { this.trickStep(-1); return true; }
    return false;
  }
  render() {
    const r = this.data, f = this.frames()[this.pos], names = r.names;
    const dealSel = h("select", { "aria-label": "deal", onchange: (e) => { this.deal = +e.target.value; this.pos = 0; this.render(); } },
      r.deals.map((d, i) => h("option", { value: i, selected: i === this.deal }, `Deal ${i + 1}`)));
    const seat = (s) => h("section", { class: "seat" },
      h("div", { class: "seat-head" }, h("span", { class: "name" }, names[s]), r.deals[this.deal].dealer === s ? h("span", { class: "dealer" }, "dealer") : null,
        h("span", { class: "muted" }, `score ${f.scores[s]}`)),
      h("div", { class: "cards small" }, f.hands[s].map(staticCard)),
      f.shown[s].length ? h("div", {}, h("div", { class: "label" }, "On the table"), h("div", { class: "cards small" }, f.shown[s].map(staticCard))) : null);
    const what = f.action === null ? "The deal" :
      `${names[f.player]}: ${f.action}` + (f.trick_done ? ` — ${names[f.winner]} wins trick ${f.tricks}` : "");
    show(h("div", { class: "replay-board" },
      h("div", { class: "replay-controls" },
        h("a", { class: "btn ghost", href: `#/game/${this.id}` }, "Back to the table"), dealSel,
        h("button", { class: "btn secondary", "aria-label": "start of the deal", onclick: () => this.go(0) }, "Start"),
        h("button", { class: "btn secondary", "aria-label": "previous trick", onclick: () => this.trickStep(-1) }, "◀◀ trick"),
        h("button", { class: "btn secondary", "aria-label": "previous step", onclick: () => this.go(this.pos - 1) }, "◀"),
        h("button", { class: "btn", "aria-label": "next step", onclick: () => this.go(this.pos + 1) }, "▶"),
        h("button", { class: "btn", "aria-label": "next trick", id: "next-trick", onclick: () => this.trickStep(1) }, "trick ▶▶"),
        h("span", { class: "pos" }, `step ${this.pos} of ${this.frames().length - 1}`)),
      h("div", { class: "status", id: "replay-step" }, what),
      // the other seats (one for two players; from my left at a table of three or four)
      f.hands.length > 2 ? h("div", { class: "replay-others" }, f.hands.map((_, k) => (r.you + 1 + k) % f.hands.length)
        .filter((s) => s !== r.you).map(seat)) : seat(1 - r.you),
      h("section", { class: "middle" },
        h("div", { class: "stock-area" }, h("div", { class: "trump-box" }, f.trump ? h("img", { src: `/suits/${f.trump}.svg`, alt: "" }) : null,
          h("div", { class: "t", id: "replay-trump" }, `Trumps: ${f.trump ? SUIT_NAMES[f.trump] : "not fixed"} · stock ${f.stock}`)),
          f.turnup ? h("figure", {}, staticCard(f.turnup), h("figcaption", { class: "muted" }, "turn-up")) : null),
        h("div", { class: "trick-area" },
          h("div", { class: "trick-cards" + (f.played.length ? " faded" : "") },
            f.played.length ? f.played.map(staticCard) : f.trick.length ? f.trick.map(staticCard) : h("div", { class: "slot" })),
          h("div", { class: "label" }, f.played.length ? `Trick ${f.tricks}: ${names[f.winner]} wins` : f.trick.length ? "Current trick" : ""))),
      seat(r.you)));
  }
}
