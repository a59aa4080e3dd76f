// The pages beside the table: How to play (the same rules text as the terminal's rules screen,
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
      h("li", {}, "h: hint; u: undo (against the computer)")),
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
    h("p", { class: "muted" }, "From the games this browser holds a seat in, per name and per opponent."), box));
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
          h("td", {}, g.player), h("td", {}, g.against === "all" ? "everyone" : g.against),
          h("td", {}, `${g.games_won} of ${g.games}${g.games ? ` (${pct(g.win_rate)})` : ""}`),
          h("td", {}, `${g.deals_won} of ${g.deals}`), h("td", {}, g.average_points),
          h("td", {}, g.best_meld ? `${g.best_meld.name} ${g.best_meld.points}` : "—"))))),
      ...r.groups.filter((g) => g.against === "all").map((g) => h("figure", { class: "chart" },
        rateChart(g.rate_over_time), h("figcaption", { class: "muted" }, `${g.player}: win rate over time (finished games)`))),
      h("h3", {}, "Recent games"),
      h("ul", { class: "log", id: "recent" }, r.recent.map((g) => h("li", {},
        `${new Date(g.when * 1000).toLocaleString()} · against ${g.against} · ${g.won === null ? "unfinished" : g.won ? "won" : "lost"} · ${g.deals} deals, ${g.points} points`))));
  }).catch((e) => box.replaceChildren(h("p", { class: "error-box" }, e.message)));
}
