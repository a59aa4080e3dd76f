// The pages beside the table: the home page (new games against the computer or a friend),
// the player's games, the invitation to join, the replay of finished deals, How to play (the
// same rules text as the terminal's rules screen, served by /api/rules), the player's
// statistics (/api/stats) with a small SVG chart, and the player's name kept in this browser.
// Loaded before app.js; uses its helpers at call time.
"use strict";

const PlayerName = {
  get() { return (localStorage.getItem("bezique.name") || "").slice(0, 24); },
  set(name) { const n = (name || "").trim().slice(0, 24); if (n) localStorage.setItem("bezique.name", n); },
};

// ------------------------------------------------------------------ home
// a message about the button just pressed, brought into view (on a phone the home page's
// message is a screen or two below the panels' buttons)
// (centred: "nearest" left it a fraction of a pixel below the screen's edge, scrolled to whole pixels)
function seen(el) { el.scrollIntoView({ block: "center" }); }
// The house rules typed on the home page ("last_trick=stock seven=played"): the rule options
// of a new game (the server checks them against the variant and says what is wrong).
function houseRules() {
  const box = document.getElementById("house-rules");
  const options = {};
  for (const item of (box ? box.value : "").split(/[\s,]+/).filter(Boolean)) {
    const [name, value, more] = item.split("=");
    if (!name || value === undefined || value === "" || more !== undefined) throw new Error(`House rule "${item}" must be written name=value, such as last_trick=stock`);
    if (name === "target") throw new Error("The game's length is chosen under \"Play to\", not among the house rules");
    options[name] = value === "true" ? true : value === "false" ? false : /^[0-9]+$/.test(value) ? +value : value;
  }
  return options;
}
function houseRulesText(options) {
  const items = Object.entries(options || {}).filter(([k]) => k !== "target" && k !== "partnership");
  return items.length ? `House rules: ${items.map(([k, v]) => `${k}=${v}`).join(", ")}` : null;
}

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
  // each panel's choices named apart for a screen reader ("Game against the computer")
  const againstComputer = () => h("span", { class: "visually-hidden" }, " against the computer");
  const againstFriend = () => h("span", { class: "visually-hidden" }, " with a friend");
  const nameIn = h("input", { type: "text", id: "name", maxlength: 24, placeholder: "Your name", autocomplete: "nickname", value: PlayerName.get() });
  const seedIn = h("input", { type: "text", id: "seed", inputmode: "numeric", maxlength: 15, placeholder: "random" });

  async function start(opponent) {
    err.className = "msg"; err.textContent = "";
    const body = opponent === "computer"
      ? { opponent, level: +level.value, variant: document.getElementById("cvariant").value,
          target: +document.getElementById("ctarget").value, name: nameIn.value }
      : null;
    if (body && seedIn.value.trim()) {
      if (!/^[0-9]{1,15}$/.test(seedIn.value.trim())) { err.className = "msg error"; err.textContent = "The deal number must be a whole number."; seen(err); return; }
      body.seed = +seedIn.value.trim();
    }
    const req = body || { opponent, variant: document.getElementById("fvariant").value,
          target: +document.getElementById("ftarget").value, name: nameIn.value };
    PlayerName.set(nameIn.value);
    try {
      const options = houseRules();
      if (Object.keys(options).length) req.options = options;
      const g = await api("/api/games", req);
      Saved.set(g.id, g.token, g.seat, g.invite);
      location.hash = `#/game/${g.id}`;
    } catch (e) { err.className = "msg error"; err.textContent = e.message; seen(err); }
  }

  show(
    h("section", { class: "hero" },
      h("div", { class: "fan", "aria-hidden": "true" }, ["AH", "TH", "KH", "QH", "JH"].map(cardImg)),
      h("h1", {}, "Bezique"),
      h("p", {}, "The classic card game of marriages, beziques and brisques, for two, three or four."),
      h("div", { class: "field name-field" }, h("label", { for: "name" }, "Your name (shown to your opponent and in the records)"), nameIn),
      h("details", { class: "field name-field" }, h("summary", {}, "House rules"),
        h("label", { for: "house-rules" }, "Rule options for the next game, name=value (the list is under House rules in How to play): e.g. last_trick=stock seven=played"),
        h("input", { type: "text", id: "house-rules", maxlength: 300, placeholder: "none: the standard rules", autocomplete: "off" })),
      PlayerName.get() ? null : h("p", { class: "new-player" }, "New to the game? ", h("a", { href: "#/tutorial", class: "btn secondary", id: "start-tutorial" }, "Try the tutorial deal"))),
    h("div", { class: "panels" },
      h("section", { class: "panel" },
        h("h2", {}, "Play the computer"),
        h("div", { class: "field" }, h("label", { for: "level" }, "Level"), level),
        h("div", { class: "field" }, h("label", { for: "cvariant" }, "Game", againstComputer()), variant("cvariant")),
        h("div", { class: "field" }, h("label", { for: "ctarget" }, "Play to", againstComputer()), target("ctarget")),
        h("details", { class: "field" }, h("summary", {}, "Deal number"),
          h("label", { for: "seed" }, "The same number deals the same cards."), seedIn),
        h("button", { class: "btn", id: "start-computer", onclick: () => start("computer") }, "Deal the cards")),
      h("section", { class: "panel" },
        h("h2", {}, "Play a friend"),
        h("div", { class: "field" }, h("label", { for: "fvariant" }, "Game", againstFriend()), variant("fvariant")),
        h("div", { class: "field" }, h("label", { for: "ftarget" }, "Play to", againstFriend()), target("ftarget")),
        h("button", { class: "btn", id: "start-friend", onclick: () => start("friend") }, "Create a game and get a link")),
      BezTable.panel(nameIn, err),
      gamesPanel()),
    err);
}

// how many games the server looks up at a time: POST /api/mine, POST /api/stats
const MINE_LIMIT = 100, STATS_LIMIT = 200;
function gamesPanel() {
  const list = h("ul", { class: "games-list", id: "games" }, h("li", { class: "muted" }, "Looking…"));
  const panel = h("section", { class: "panel" }, h("h2", {}, "Your games"), list);
  const saved = Saved.all();
  const games = Saved.recent(MINE_LIMIT), more = Object.keys(saved).length - Object.keys(games).length;
  if (!Object.keys(games).length) { list.replaceChildren(h("li", { class: "muted" }, "No games yet.")); return panel; }
  api("/api/mine", { games }).then((r) => {
    if (!r.games.length) { list.replaceChildren(h("li", { class: "muted" }, "No games yet.")); return; }
    list.replaceChildren(...r.games.map((g) => {
      const me = g.seat, opp = 1 - g.seat, table = g.opponent === "table";
      let state;
      if (table && g.winner !== null && g.winner !== undefined) {
        // a partnership's winner is a side (seats 0 & 2, 1 & 3), else a seat
        state = g.sides ? (g.winner === me % 2 ? "Your side won" : "Their side won") : g.winner === me ? "You won" : `${g.names[g.winner]} won`;
      } else if (g.winner !== null && g.winner !== undefined) state = g.winner === me ? "You won" : `${g.names[g.winner]} won`;
      else if (g.waiting_for_friend) state = table ? "Waiting for players" : "Waiting for your friend";
      else if (g.deal_over && ONE_DEAL.includes(g.variant)) state = "A draw";
      else if (g.deal_over) state = "Deal over";
      else state = g.turn === me ? "Your turn" : `${g.names[table ? g.turn : opp]} to play`;
      const finished = g.deal - 1 + (g.deal_over ? 1 : 0);
      const past = finished ? [h("a", { class: "btn secondary", href: `#/replay/${g.id}` }, "Replay"),
        recordButton(g.id, saved[g.id].token, "Record", (e, b) => b.replaceWith(h("span", { class: "error-box" }, e.message)))] : [];
      // a new game started after this finished one between friends (at its table, or by the two):
      // this seat's own place in it, one press away
      const next = g.next_game ? h("button", { class: "btn", "data-next": g.id, onclick: (e) => BezTable.again(g.id, saved[g.id].token)
        .catch((err) => e.target.replaceWith(h("span", { class: "error-box" }, err.message))) }, "Take my seat in the new game") : null;
      if (next) state = table ? "A new game has started at this table" : "A new game has started";
      if (table) {
        return h("li", {},
          h("div", {},
            h("div", {}, h("strong", {}, `Table: ${g.names.filter((_, i) => i !== me).join(", ")}`), ` · ${g.variant_title} ${playTo(g.variant, g.target)}`),
            h("div", { class: "meta" }, `${state} · deal ${g.deal} · ${g.sides ? `your side ${g.sides[me % 2]}, theirs ${g.sides[1 - me % 2]}` : g.scores.join("–")} · ${new Date(g.updated * 1000).toLocaleString()}`)),
          h("div", { class: "actions" }, next, h("a", { class: next ? "btn secondary" : "btn", href: `#/game/${g.id}` }, g.winner === null ? "Continue" : "Open"), past));
      }
      return h("li", {},
        h("div", {},
          h("div", {}, h("strong", {}, `vs ${g.names[opp]}`), ` · ${g.variant_title} ${playTo(g.variant, g.target)}`),
          h("div", { class: "meta" }, `${state} · deal ${g.deal} · ${g.scores[me]}–${g.scores[opp]} · ${new Date(g.updated * 1000).toLocaleString()}`)),
        h("div", { class: "actions" }, next,
          h("a", { class: next ? "btn secondary" : "btn", href: `#/game/${g.id}` }, g.winner === null && !(g.deal_over && ONE_DEAL.includes(g.variant)) ? "Continue" : "Open"),
          past));
    }), ...(more > 0 ? [h("li", { class: "muted", id: "older-games" }, `The ${MINE_LIMIT} games started last are shown; this browser keeps ${more} older one${more === 1 ? "" : "s"} too.`)] : []));
  }).catch((e) => list.replaceChildren(h("li", { class: "error-box" }, e.message)));
  return panel;
}

function gamesPage() { show(gamesPanel()); }

// ------------------------------------------------------------------ join
// the invitation's game in words: who invites, to what, who sits where (and the partner)
function invitationWords(inv) {
  const host = inv.names[0];
  const players = inv.names.map((n, s) => s === inv.seat ? "you" : inv.levels[s] ? `${n} (${levelWords(inv.levels[s])})` : n);
  return [
    h("p", { id: "invited-to" }, `${host} invites you to a game: ${inv.variant_title}, ${playTo(inv.variant, inv.target)}.`),
    inv.names.length > 2 ? h("p", { id: "invited-seats" }, `Round the table: ${players.join(", ")}.`
      + (inv.partner !== null ? ` Your partner: ${inv.names[inv.partner]}, across the table.` : "")) : null,
    houseRulesText(inv.options) ? h("p", { class: "muted", id: "invited-rules" }, houseRulesText(inv.options)) : null,
  ];
}
function joinPage(id, invite) {
  const nameIn = h("input", { type: "text", id: "name", maxlength: 24, placeholder: "Your name", value: PlayerName.get(),
    onkeydown: (ev) => { if (ev.key === "Enter") join(); } }); // (Enter takes the seat, as the button does)
  const err = h("div", { class: "msg", role: "alert" });
  const about = h("div", { id: "invitation" });
  const existing = Saved.get(id);
  async function join() {
    PlayerName.set(nameIn.value);
    try {
      const r = await api(`/api/games/${encodeURIComponent(id)}/join`, { invite, name: nameIn.value });
      Saved.set(r.id, r.token, r.seat);
      location.hash = `#/game/${r.id}`;
    } catch (e) { err.className = "msg error"; err.textContent = e.message; }
  }
  const button = h("button", { class: "btn", id: "join", onclick: join }, "Take my seat");
  show(h("section", { class: "panel" },
    h("h2", {}, "You are invited to a game of Bezique"),
    about,
    // one browser keeps one seat a game: taking the friend's seat here would lose this one
    existing ? h("p", { id: "have-seat" }, "This browser already holds a seat in this game: this invitation is for your friend, to open on their own device. ",
      h("a", { class: "btn", href: `#/game/${id}` }, "Go to your table")) : null,
    existing ? null : h("div", { class: "field" }, h("label", { for: "name" }, "Your name"), nameIn),
    existing ? null : button,
    err));
  // what the invitation is for (or why it can no longer be taken), before the seat is taken
  if (!existing) api(`/api/games/${encodeURIComponent(id)}/invitation`, { invite })
    .then((inv) => about.replaceChildren(...invitationWords(inv).filter(Boolean)))
    .catch((e) => { err.className = "msg error"; err.textContent = e.message; button.disabled = true; nameIn.disabled = true; });
}

// ------------------------------------------------------------------ how to play
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

// a group's points a deal, and in the one-deal games (Rubicon, Six-pack, Eight-pack: RULES.md
// 9.0.7) the settlements it won and lost in all, which is what those games are played for
function pointsCell(g) {
  if (g.settled === null || g.settled === undefined) return `${g.average_points}`;
  return `${g.average_points} · settled ${g.settled > 0 ? "+" : ""}${g.settled}`;
}
function statsPage() {
  const box = h("div", { id: "stats" }, h("p", { class: "muted" }, "Counting…"));
  show(h("section", { class: "panel" }, h("h2", {}, "Your statistics"),
    h("p", { class: "muted" }, "From the games this browser holds a seat in, per name and per opponent (the tables of three and four by their kind: won when you, or your side, win)."), box));
  const games = Saved.recent(STATS_LIMIT); // (the newest: the server counts so many at most)
  api("/api/stats", { games }).then((r) => {
    if (!r.groups.length) { box.replaceChildren(h("p", {}, "No games yet: play one and come back.")); return; }
    const pct = (x) => `${Math.round(x * 100)}%`;
    // one name (the usual case): said once above the table, not on every row (on a phone the
    // column pushed the last two off the screen)
    const players = [...new Set(r.groups.map((g) => g.player))], one = players.length === 1;
    box.replaceChildren(
      h("table", { class: "scoreboard stats-table", id: "stats-table" },
        one ? h("caption", {}, players[0]) : null,
        h("thead", {}, h("tr", {}, [one ? null : "Player", "Against", "Games won", "Deals won", "Points a deal", "Best meld"].filter(Boolean).map((t) => h("th", {}, t)))),
        h("tbody", {}, r.groups.map((g) => h("tr", { class: g.against === "all" ? "total" : "" },
          one ? null : h("td", {}, g.player), h("td", {}, g.against === "all" ? "everyone" : g.table ? `at ${g.against}` : g.against),
          h("td", {}, `${g.games_won} of ${g.games}${g.games ? ` (${pct(g.win_rate)})` : ""}`),
          h("td", {}, `${g.deals_won} of ${g.deals}`), h("td", {}, pointsCell(g)),
          h("td", {}, g.best_meld ? `${g.best_meld.name} ${g.best_meld.points}` : "—"))))),
      ...r.groups.filter((g) => g.against === "all").map((g) => h("figure", { class: "chart" },
        rateChart(g.rate_over_time), h("figcaption", { class: "muted" }, `${g.player}: win rate over time (finished games)`))),
      h("h3", {}, "Recent games"),
      h("ul", { class: "log", id: "recent" }, r.recent.map((g) => h("li", {},
        `${new Date(g.when * 1000).toLocaleString()} · ${g.table ? "at" : "against"} ${g.against} · ${g.won === null ? "unfinished" : g.won ? "won" : "lost"} · ${g.deals} deal${g.deals === 1 ? "" : "s"}, ${g.points} point${g.points === 1 ? "" : "s"}`))));
  }).catch((e) => box.replaceChildren(h("p", { class: "error-box" }, e.message)));
}

// a checkbox kept in this browser: obj[prop] is read and set
function toggle(id, label, title, obj, prop) {
  return h("label", { class: "auto-draw", title },
    h("input", { type: "checkbox", id, checked: !!obj[prop], disabled: id === "motion" && BezMotion.reduced(),
      onchange: (e) => { obj[prop] = e.target.checked; } }), ` ${label}`);
}

// ------------------------------------------------------------------ replay
// A step of the replay in words, its cards as symbols: "play QS*" -> "plays Q♠".
const STEP_VERBS = { play: "plays", meld: "declares", pass: "draws without declaring",
  exchange: "exchanges the seven of trumps for the turn-up", seven: "declares the seven of trumps",
  carte: "declares carte blanche", offer: "offers the declaring turn to the partner", guess: "guesses the cut:" };
// (``scored``: the step's [seat, points, why, detail]: a meld is named, with its points)
function stepWords(action, scored) {
  const [verb, ...rest] = action.split(" ");
  const words = rest.map((t) => /^[AKQJT987][SHDC]/.test(t) ? cardText(t.slice(0, 2)) : t);
  const own = (scored || []).find((e) => e[2] === verb || (verb === "exchange" && e[2] === "seven"));
  if (verb === "meld" && own) words.unshift(own[3]);
  return [STEP_VERBS[verb] || verb, ...words].join(" ") + (own ? ` (+${own[1]})` : "");
}
// the cut bonus (RULES.md 9.2), scored before the first play: the guess, the cut, who scored
function cutWords(deal, names) {
  const c = deal.cut;
  if (!c || c.guess === null || c.guess === undefined) return "";
  const scored = c.scored.map(([s, p]) => `${names[s]} +${p}`).join(", ");
  return `: ${names[1 - deal.dealer]} guessed the cut at ${c.guess} cards, ${names[deal.dealer]} cut ${c.cut} (${scored || "no score"})`;
}
class ReplayPage {
  constructor(id) {
    this.id = id;
    const saved = Saved.get(id);
    if (!saved) { show(h("p", { class: "error-box" }, "This browser holds no seat in that game.")); return; }
    show(h("p", { class: "loading" }, "Loading the replay…"));
    api(`/api/games/${encodeURIComponent(id)}/replay`, { token: saved.token }).then((r) => {
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
    const dealSel = h("select", { "aria-label": "deal", id: "replay-deal", onchange: (e) => { this.deal = +e.target.value; this.pos = 0; this.render(); } },
      r.deals.map((d, i) => h("option", { value: i, selected: i === this.deal }, `Deal ${i + 1}`)));
    const seat = (s) => h("section", { class: "seat" },
      h("div", { class: "seat-head" }, h("span", { class: "name" }, names[s]), r.deals[this.deal].dealer === s ? h("span", { class: "dealer" }, "dealer") : null,
        h("span", { class: "muted" }, `${r.one_deal ? "points" : "game"} ${f.scores[s]}`)),
      h("div", { class: "cards small" }, f.hands[s].map(staticCard)),
      f.shown[s].length ? h("div", {}, h("div", { class: "label" }, "On the table"), h("div", { class: "cards small" }, f.shown[s].map(staticCard))) : null);
    const deal = r.deals[this.deal];
    const shownTrick = f.played.length ? f.played : f.trick;
    const what = f.action === null ? "The deal" + (deal.turnup_points ? `: ${names[deal.dealer]} turned up a seven of trumps (+${deal.turnup_points})` : "") + cutWords(deal, names) :
      `${names[f.player]} ${stepWords(f.action, f.scored)}` + (f.trick_done ? ` — ${names[f.winner]} wins trick ${f.tricks}` : "")
      + (f.scored || []).filter((e) => e[2] === "last trick").map((e) => ` (+${e[1]} for the last trick)`).join("")
      // a one-deal game's last step: its result, settled as the game's page said
      + (deal.result && this.pos === this.frames().length - 1
        ? `. ${deal.result.winner === null ? capital(deal.result.settlement) // ("drawn: nobody scores")
          : `${names[deal.result.winner]} wins: settled ${deal.result.settlement}`}` : "");
    const here = `${this.deal}:${this.pos}`; // each step said once, its cards in words
    if (this.said !== here) { this.said = here; BezSpeech.say(spoken(what)); }
    show(h("div", { class: "replay-board" },
      h("div", { class: "replay-controls" },
        h("a", { class: "btn ghost", href: `#/game/${this.id}` }, "Back to the table"), r.deals.length > 1 ? dealSel : null, // (a lone deal needs no choice)
        // (each has a name of its own: a keyboard player keeps it in focus as the page is redrawn)
        h("button", { class: "btn secondary", "aria-label": "start of the deal", "data-action": "replay-start", onclick: () => this.go(0) }, "Start"),
        h("button", { class: "btn secondary", "aria-label": "previous trick", "data-action": "replay-back-trick", onclick: () => this.trickStep(-1) }, "◀◀ trick"),
        h("button", { class: "btn secondary", "aria-label": "previous step", "data-action": "replay-back", onclick: () => this.go(this.pos - 1) }, "◀"),
        h("button", { class: "btn", "aria-label": "next step", "data-action": "replay-next", onclick: () => this.go(this.pos + 1) }, "▶"),
        h("button", { class: "btn", "aria-label": "next trick", id: "next-trick", onclick: () => this.trickStep(1) }, "trick ▶▶"),
        h("span", { class: "pos" }, `step ${this.pos} of ${this.frames().length - 1}`)),
      // the computers by their seats' names, as at the table; each one's level said once, here
      (r.levels || []).some((lv) => lv) ? h("div", { class: "muted", id: "replay-players" },
        r.levels.map((lv, s) => lv ? `${names[s]}: ${levelWords(lv)}` : null).filter(Boolean).join(" · ")) : null,
      h("div", { class: "status", id: "replay-step" }, said(what)),
      // the other seats (one for two players; from my left at a table of three or four)
      f.hands.length > 2 ? h("div", { class: "replay-others" }, f.hands.map((_, k) => (r.you + 1 + k) % f.hands.length)
        .filter((s) => s !== r.you).map(seat)) : seat(1 - r.you),
      h("section", { class: "middle" },
        h("div", { class: "stock-area" }, h("div", { class: "trump-box" }, f.trump ? h("img", { src: `/suits/${f.trump}.svg`, alt: "" }) : null,
          h("div", { class: "t", id: "replay-trump" }, `Trumps: ${f.trump ? SUIT_NAMES[f.trump] : "not fixed"} · stock ${f.stock}`)),
          f.turnup ? h("figure", {}, staticCard(f.turnup), h("figcaption", { class: "muted" }, "turn-up")) : null),
        h("div", { class: "trick-area" },
          h("div", { class: "trick-cards" + (f.played.length ? " faded" : "") },
            shownTrick.length ? shownTrick.map((c, i) => h("figure", {}, staticCard(c),
              // who played it (at a table the cards alone do not say)
              f.by && f.by[i] !== undefined ? h("figcaption", {}, `${names[f.by[i]]}${i === 0 ? " led" : ""}`) : null))
              : h("div", { class: "slot" })),
          h("div", { class: "label" }, f.played.length ? `Trick ${f.tricks}: ${names[f.winner]} wins` : f.trick.length ? "Current trick" : ""))),
      seat(r.you)));
  }
}
