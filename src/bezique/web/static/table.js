// The tables for three and four (bezique3, bezique4): the home page's panel that sets a table
// (each other seat a friend with a private link, or the computer), and the table itself drawn
// for 3-4 seats: names, scores and side totals, each seat's shown cards, the trick of up to
// four cards, whose turn, offer and combining as moves, the deal's result per seat and side;
// the next game at the same table, each person's page offered their own seat in it;
// hints (highlighted like the two-seat game's, and why, in explain mode) and undo for a person
// alone with computers.
// For a screen reader the cards, hands, stock and melds are named in words, and what changed is
// said once per view (BezSpeech.tableNews in motion.js), an error as an alert.
// Loaded before app.js; uses its helpers (h, cardImg, api, Saved, ...) at call time.
"use strict";

const BezTable = {
  VARIANTS: [
    ["bezique3", "Three-handed (96 cards)", 3, null],
    ["bezique4", "Four-handed, partners across the table", 4, true],
    ["bezique4-solo", "Four-handed, each for themselves", 4, false],
  ],

  invites: {
    get(id) { try { return JSON.parse(localStorage.getItem(`bezique.invites.${id}`) || "[]"); } catch (e) { return []; } },
    set(id, list) { localStorage.setItem(`bezique.invites.${id}`, JSON.stringify(list || [])); },
  },

  // ------------------------------------------------------------ the home page's panel
  panel(nameIn, err) {
    const variant = h("select", { id: "tvariant", name: "tvariant", onchange: () => seatsFor() },
      this.VARIANTS.map(([v, t]) => h("option", { value: v }, t)));
    const seatsBox = h("div", { class: "table-seats", id: "table-seats" });
    const choice = (i) => h("select", { id: `seat-${i}`, "aria-label": `seat ${i + 1}` },
      h("option", { value: "friend" }, "a friend (private link)"),
      [1, 2, 3, 4, 5].map((lv) => h("option", { value: `computer:${lv}`, selected: lv === 1 }, `computer · ${lv} ${LEVEL_NAMES[lv]}`)));
    const seatsFor = () => {
      const n = this.VARIANTS.find((x) => x[0] === variant.value)[2];
      const old = [...seatsBox.querySelectorAll("select")].map((s) => s.value);
      seatsBox.replaceChildren(...Array.from({ length: n - 1 }, (_, k) => {
        const sel = choice(k + 1);
        if (old[k]) sel.value = old[k];
        const partner = variant.value === "bezique4" && k + 1 === 2;
        return h("div", { class: "field" }, h("label", { for: `seat-${k + 1}` },
          `Seat ${k + 2}${partner ? " (your partner)" : ""}`), sel);
      }));
    };
    seatsFor();
    // the game's length (RULES.md 9.4, 9.5: 2000); the house rules send the player here for it
    const target = h("select", { id: "ttarget", name: "ttarget" },
      [[2000, "2000 (standard)"], [3000, "3000"], [1000, "1000 (quick)"]].map(([v, t]) => h("option", { value: v }, t)));
    const start = async () => {
      err.className = "msg"; err.textContent = "";
      const [v, , , partnership] = this.VARIANTS.find((x) => x[0] === variant.value);
      const seats = [...seatsBox.querySelectorAll("select")].map((s) => s.value === "friend"
        ? { kind: "friend" } : { kind: "computer", level: +s.value.split(":")[1] });
      // a seat whose player leaves is played at the lowest level chosen (else the beginner's)
      const levels = seats.filter((s) => s.kind === "computer").map((s) => s.level);
      const body = { variant: v.replace("-solo", ""), seats, name: nameIn.value, target: +target.value,
        level: levels.length ? Math.min(...levels) : 1 };
      if (partnership !== null) body.partnership = partnership;
      PlayerName.set(nameIn.value);
      try {
        const options = houseRules();
        if (Object.keys(options).length) body.options = options;
        const g = await api("/api/games", body);
        Saved.set(g.id, g.token, g.seat, null);
        this.invites.set(g.id, g.invites);
        location.hash = `#/game/${g.id}`;
      } catch (e) { err.className = "msg error"; err.textContent = e.message; seen(err); }
    };
    return h("section", { class: "panel" },
      h("h2", {}, "Play three or four"),
      h("div", { class: "field" }, h("label", { for: "tvariant" }, "Game"), variant),
      seatsBox,
      h("div", { class: "field" }, h("label", { for: "ttarget" }, "Play to", h("span", { class: "visually-hidden" }, " at the table")), target),
      h("button", { class: "btn", id: "start-table", onclick: start }, "Set the table"));
  },

  // ------------------------------------------------------------ the table
  // a person alone with computers (every other seat the computer's) gets hints and undo
  alone(view) {
    const g = view.game;
    return !!g.seats && g.seats.every((s) => s.seat === g.you || s.kind === "computer");
  },

  who(page, seat) { const g = page.view.game; return seat === g.you ? "You" : g.names[seat]; },

  status(page) {
    const { game: g, deal: d } = page.view;
    const name = (s) => this.who(page, s);
    if (g.winner !== null) return "Game over."; // (who won: the banner; said aloud by speak)
    if (d.phase === "over") return `Deal ${g.deal} is over.`;
    if (g.waiting_for) return `Waiting for ${g.waiting_for} player${g.waiting_for === 1 ? "" : "s"} (${this.awaited(page)}): the game starts when every seat is taken.`;
    if (g.seats[g.you].away) return "The computer is playing your seat. Take it back to play on.";
    if (!d.your_turn) {
      if (d.turn === null) return "";
      if (d.phase === "declare") return d.last_trick && d.last_trick.winner !== d.turn
        ? `${name(d.turn)} is declaring, offered the turn by ${d.last_trick.winner === g.you ? "you" : name(d.last_trick.winner)}…`
        : `${name(d.turn)} won the trick and is declaring…`;
      return `${name(d.turn)} to play…`;
    }
    if (d.phase === "declare") {
      // nothing to declare (as the two-seat page says it): drawn at once, if the player wants
      const none = !d.melds_available.length && !d.specials.some((a) => a === "exchange" || a === "seven");
      const then = page.onlyDraw() && page.autoDraw ? "drawing…" : "draw.";
      if (d.last_trick && d.last_trick.winner !== g.you) return none
        ? `Your partner won the trick and offered you the declaring turn; nothing to declare: ${then}`
        : "Your partner won the trick and offered you the declaring turn: declare a meld, or draw.";
      if (d.specials.includes("offer")) return none
        ? "You won the trick; nothing to declare: offer the turn to your partner, or draw."
        : "You won the trick: declare a meld, offer the turn to your partner, or draw.";
      return none ? `You won the trick; nothing to declare: ${then}` : "You won the trick: declare a meld, or draw.";
    }
    if (d.phase === "lead") return d.end_phase ? "Your lead. (Last tricks: follow suit and win if you can.)" : "Your lead: play any card.";
    const lead = d.trick[0] ? cardText(d.trick[0].card) : "";
    return d.end_phase ? `Play to ${lead}: follow suit and beat the best card if you can.` : `Play any card to ${lead}.`;
  },

  // the friends the table still waits for, by the names their seats have until they sit
  awaited(page) {
    const g = page.view.game;
    const names = g.seats.filter((s) => s.empty).map((s) => g.names[s.seat]);
    return names.length > 1 ? `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}` : names.join("");
  },

  winnerText(page) {
    const g = page.view.game;
    if (g.partnership) {
      const mine = g.you % 2 === g.winner;
      const side = g.winner === 0 ? `${g.names[0]} & ${g.names[2]}` : `${g.names[1]} & ${g.names[3]}`;
      return mine ? "Your side wins the game!" : `${side} win the game.`;
    }
    return g.winner === g.you ? "You win the game!" : `${g.names[g.winner]} wins the game.`;
  },

  render(page) {
    const { game: g, deal: d } = page.view;
    const me = g.you, n = g.seats.length;
    const away = g.seats[me].away;
    page.playable = [];
    const hinted = Teach.pick(page.hinted, page.view);
    const hintCls = (action) => action && action === hinted ? " hinted" : "";
    const playKey = (action) => {
      if (!action || !d.your_turn) return null;
      page.playable.push(action);
      return PLAY_KEYS[page.playable.length - 1] || null;
    };
    const cardButton = (c, where) => {
      const key = playKey(c.action);
      return h("button", {
        class: "card" + (c.action && d.your_turn ? " playable" : "") + hintCls(c.action), disabled: !(c.action && d.your_turn),
        "data-card": c.card, "data-action": c.action, "data-where": where,
        "aria-label": capital(`${c.action && d.your_turn ? "play " : ""}${cardName(c.card)}${where === "table" ? " (on the table)" : ""}`),
        title: key ? `Key ${key}` : null, "aria-keyshortcuts": key, onclick: () => c.action && page.act(c.action),
      }, cardImg(c.card), key ? h("span", { class: "k" }, key) : null);
    };
    const meldTags = (seat) => d.melds[seat].length
      ? meldList(d.melds[seat], (m) => h("span", {
          class: "meld-tag" + (m.intact ? "" : " broken"), title: m.cards.map(cardText).join(" ") }, `${m.name} ${m.points}`,
          h("span", { class: "visually-hidden" }, `: ${m.cards.map(cardName).join(", ")}${m.intact ? "" : " (broken: a card of it was played)"}.`)), null)
      : null;
    const tag = (s) => {
      const info = g.seats[s];
      if (info.empty) return h("span", { class: "seat-tag" }, "waiting for them to sit");
      if (info.kind === "computer") return h("span", { class: "seat-tag" }, levelWords(info.level));
      if (info.away) return h("span", { class: "seat-tag away" }, "away · the computer plays");
      return null;
    };
    const head = (s) => h("div", { class: "seat-head" },
      ((on) => h("span", { class: "dot" + (on ? " on" : ""), role: "img", title: on ? "online" : "offline", "aria-label": on ? "online" : "offline" }))(g.seats[s].online),
      h("span", { class: "name" }, s === me ? `${g.names[s]} (you)` : g.names[s]),
      g.partner === s ? h("span", { class: "partner" }, "partner") : null,
      d.dealer === s ? h("span", { class: "dealer" }, "dealer") : null,
      tag(s),
      h("span", { class: "muted seat-score" }, `deal ${d.scores[s]} · game ${g.totals[s]}`), // (a bare number said nothing)
      d.turn === s && d.phase !== "over" && !g.waiting_for ? h("span", { class: "turn-flag" }, s === me ? "your turn" : "to play") : null);

    // the other seats, in playing order from my left
    const others = [];
    for (let k = 1; k < n; k++) {
      const s = (me + k) % n;
      const backs = [];
      for (let i = 0; i < Math.min(d.hidden[s], 12); i++) backs.push(h("div", { class: "card", "aria-hidden": "true" }, backImg()));
      others.push(h("section", { class: "seat other" + (g.partner === s ? " partner-seat" : ""), "data-seat": s, "aria-label": g.names[s] },
        head(s),
        h("div", { class: "backs", role: "img", "aria-label": `${g.names[s]} holds ${d.hidden[s]} card${d.hidden[s] === 1 ? "" : "s"}` }, backs,
          d.hidden[s] ? h("span", { class: "count" }, `${d.hidden[s]}`) : null), // (no lone "0" once the hand is played out)
        d.known[s].length ? h("div", { class: "muted known" }, said(`Known in hand: ${d.known[s].map(cardText).join(" ")}`)) : null,
        d.table[s].length ? h("div", {}, h("div", { class: "label" }, "On the table"),
          h("div", { class: "cards small shown", "data-seat": s }, d.table[s].map((c) => staticCard(c.card)))) : null,
        meldTags(s)));
    }

    // the stock and the trick
    const stock = h("div", { class: "stock-area" },
      h("div", { class: "stock-pile", role: "img", "aria-label": `Stock: ${d.stock} card${d.stock === 1 ? "" : "s"}; turn-up ${d.turnup ? cardName(d.turnup) : "taken"}` },
        d.turnup ? h("div", { class: "turnup", "aria-hidden": "true" }, cardImg(d.turnup)) : null,
        d.stock > 0 ? h("div", { class: "top", "aria-hidden": "true" }, backImg(), h("span", { class: "count", id: "stock-count" }, d.stock)) : null),
      d.trump ? h("div", { class: "trump-box" }, h("img", { src: `/suits/${d.trump}.svg`, alt: "" }),
        h("div", { class: "t", id: "trump" }, `Trumps: ${SUIT_NAMES[d.trump]}`)) : null);
    const showing = d.trick.length ? d.trick : d.last_trick ? d.last_trick.cards : [];
    const trick = h("div", { class: "trick-cards four" + (d.trick.length ? "" : " faded"), id: "trick" },
      showing.length ? showing.map((t, i) => h("figure", { "data-seat": t.seat }, staticCard(t.card),
        h("figcaption", {}, `${this.who(page, t.seat)}${i === 0 ? " led" : ""}`))) : h("div", { class: "slot" }));
    const caption = d.trick.length ? "Current trick" :
      d.last_trick ? `${this.who(page, d.last_trick.winner)} won the last trick` : "No trick yet";
    const middle = h("section", { class: "middle" }, stock,
      h("div", { class: "trick-area" }, trick, h("div", { class: "label", id: "trick-caption" }, caption)));

    // my moves
    const declare = h("div", { class: "declare", id: "declare" });
    const seven = cardText("7" + (d.trump || "S"));
    const drawing = page.onlyDraw() && page.autoDraw; // (nothing to declare: drawn at once)
    if (d.your_turn && d.phase === "declare" && !drawing) {
      d.melds_available.forEach((m, i) => declare.append(h("button", {
        class: "btn" + hintCls(m.action), "data-action": m.action, onclick: () => page.act(m.action),
        title: m.partner_cards.length ? `with your partner's ${m.partner_cards.map(cardText).join(" ")} from the table` : m.cards.map(cardText).join(" "),
        "aria-label": `${m.name}: ${m.cards.map(cardName).join(", ")}, ${m.points} points`
          + (m.partner_cards.length ? ` (with your partner's ${m.partner_cards.map(cardName).join(", ")} from the table)` : ""),
      }, h("span", { class: "key" }, MELD_KEYS[i] || ""), `${m.name} ${m.cards.map(cardText).join(" ")} · ${m.points}`,
        m.partner_cards.length ? h("span", { class: "with-partner" }, ` (with your partner's ${m.partner_cards.map(cardText).join(" ")})`) : null)));
      declare.append(...sevenButtons(d, seven, hintCls, (a) => page.act(a)));
      if (d.specials.includes("offer")) declare.append(h("button", { class: "btn secondary" + hintCls("offer"), "data-action": "offer", id: "offer", onclick: () => page.act("offer") },
        h("span", { class: "key" }, "o"), "Offer the turn to your partner"));
      if (d.specials.includes("pass")) declare.append(h("button", { class: "btn secondary" + hintCls("pass"), "data-action": "pass", id: "pass", onclick: () => page.act("pass") },
        h("span", { class: "key" }, "d"), d.melds_available.length || d.specials.length > 1 ? "Draw (done declaring)" : "Draw"));
    }
    let summary = null;
    if (d.phase === "over") summary = this.result(page);
    const msg = h("div", { class: page.msg ? `msg ${page.msg.kind}` : "msg", id: "msg" }, page.msg ? page.msg.text : ""); // (said below)
    const alone = this.alone(page.view);
    const tools = h("div", { class: "tools" },
      alone ? h("button", { class: "btn ghost", id: "hint", disabled: !d.your_turn || away, onclick: () => page.hint() }, h("span", { class: "key" }, "h"), "Hint") : null,
      alone ? h("button", { class: "btn ghost", id: "undo", disabled: !g.can_undo, onclick: () => page.request("undo") }, h("span", { class: "key" }, "u"), "Undo") : null,
      away ? h("button", { class: "btn", id: "take-back", onclick: () => page.send({ type: "back" }) }, "Take my seat back")
        : g.winner === null ? h("button", { class: "btn ghost", id: "leave", title: "The computer plays your seat until you come back with your link", onclick: () => page.send({ type: "leave" }) }, "Leave the table") : null,
      h("button", { class: "btn ghost", id: "seat-link", onclick: () => page.seatLink() }, "My seat link"),
      h("label", { class: "auto-draw", title: "After a trick you win with nothing to declare, draw without a click" }, // (as the two-seat page's)
        h("input", { type: "checkbox", id: "auto-draw", checked: page.autoDraw, onchange: (e) => { page.autoDraw = e.target.checked; page.render(); } }), " Draw by itself"),
      alone ? toggle("explain", "Explain hints", "A hint also says why", Teach, "explain") : null,
      toggle("motion", "Motion", "Cards slide to the trick and to its winner", BezMotion, "on"),
      toggle("sound", "Sound", "Short sounds for cards, melds and your turn", BezSound, "on"),
      g.finished_deals > 0 ? h("a", { class: "btn ghost", href: `#/replay/${g.id}` }, "Replay") : null,
      g.finished_deals > 0 ? recordButton(g.id, page.saved.token, "Download record", (e) => page.setMsg("error", e.message)) : null);
    const mySeat = h("section", { class: "seat me" + (d.your_turn && !drawing ? " my-turn" : ""), "aria-label": "your seat" },
      h("div", { class: "me-head" }, head(me), tools),
      h("div", { class: "status", id: "status" }, said(this.status(page)), // (its news: said below)
        d.drew ? h("span", { class: "sub" }, said(` You drew ${cardText(d.drew)}.`)) : null),
      summary, declare,
      d.table[me].length ? h("div", {}, h("div", { class: "label" }, "Your cards on the table"),
        h("div", { class: "cards small keyed", id: "my-table" }, d.table[me].map((c) => cardButton(c, "table")))) : null,
      meldTags(me),
      d.hand.length ? h("div", { class: "label" }, "Your hand") : null,
      h("div", { class: "cards hand", id: "hand" }, d.hand.map((c) => cardButton(c, "hand"))),
      msg);

    const side = h("aside", { class: "side" },
      g.waiting_for ? this.invitePanel(page) : null,
      h("section", { class: "panel" }, this.scoreboard(page),
        houseRulesText(g.options) ? h("div", { class: "muted", id: "house-rules-shown" }, houseRulesText(g.options)) : null,
        h("div", { class: "muted trick-count", "data-tricks": d.tricks_played }, d.phase === "over" ? `All ${d.tricks_played} tricks played` : `Trick ${d.tricks_played + 1} · stock ${d.stock}`)),
      h("section", { class: "panel" }, h("div", { class: "label" }, "This deal"),
        h("ul", { class: "log", id: "log" }, d.log.slice().reverse().map((e) => h("li", { class: e.seat === me ? "mine" : "" }, said(e.text))))));

    const table = h("div", { class: "table multi", "data-seats": n },
      h("div", { class: "others" }, others), middle, mySeat, side);
    markButtons(table);
    document.body.dataset.version = String(g.version);
    show(table);
    this.speak(page);
    if (drawing && page.autoSent !== g.version) { page.autoSent = g.version; page.act("pass"); }
  },

  // what changed is said once per view, a message once (an error as an alert), in the live
  // regions that stay while the page is redrawn (motion.js's BezSpeech; index.html)
  speak(page) {
    if (page.view !== page.spokenView) {
      const g = page.view.game; // (the status says "Game over."; the news says who won)
      BezSpeech.say(BezSpeech.tableNews(page.spokenView || null, page.view, g.winner !== null ? this.winnerText(page) : this.status(page)));
      page.spokenView = page.view;
    }
    page.sayNext(); // (a new game at this table: said once)
    if (page.msg && page.msg !== page.spokenMsg) BezSpeech.say(page.msg.text, page.msg.kind === "error");
    page.spokenMsg = page.msg;
  },

  scoreboard(page) {
    const { game: g, deal: d } = page.view;
    const rows = g.seats.map((s) => h("tr", { class: s.seat === g.you ? "mine" : null, "data-seat": s.seat },
      h("td", {}, s.seat === g.you ? "You" : g.names[s.seat]), h("td", {}, d.scores[s.seat]),
      h("td", {}, d.brisques[s.seat]), h("td", {}, g.totals[s.seat])));
    if (g.partnership) {
      for (const side of [0, 1]) {
        rows.push(h("tr", { class: "total side-row", "data-side": side },
          h("td", {}, side === g.you % 2 ? "Your side" : "Their side"), h("td", {}, d.side_scores[side]),
          h("td", {}, d.brisques[side] + d.brisques[side + 2]), h("td", {}, g.side_totals[side])));
      }
    }
    return h("table", { class: "scoreboard", id: "scores" },
      h("thead", {}, h("tr", {}, h("th", {}, `Deal ${g.deal} · to ${g.target}`), h("th", {}, "Deal"), h("th", {}, "Brisques"), h("th", {}, "Game"))),
      h("tbody", {}, rows));
  },

  result(page) {
    const { game: g, deal: d } = page.view;
    const line = g.partnership
      ? `Deal ${g.deal}: your side ${d.side_scores[g.you % 2]}, their side ${d.side_scores[1 - g.you % 2]}`
      : `Deal ${g.deal}: ` + g.seats.map((s) => `${this.who(page, s.seat)} ${d.scores[s.seat]}`).join(", ");
    return h("div", { class: "summary", id: "summary" },
      h("h3", {}, line),
      h("div", { class: "muted" }, "Per seat: " + g.seats.map((s) => `${this.who(page, s.seat)} ${d.scores[s.seat]} (brisques ${d.brisques[s.seat]})`).join(" · ")),
      g.winner !== null
        ? [h("div", { class: "winner-banner", id: "winner" }, this.winnerText(page)),
          g.win_reason ? h("div", { class: "muted", id: "win-reason" }, g.win_reason) : null,
          this.finalScores(page),
          page.againButton()]
        : h("button", { class: "btn", id: "next-deal", onclick: () => page.request("next") }, h("span", { class: "key" }, "n"), "Next deal"));
  },

  // the game's every deal and its totals, by seat (in partnership by side), as the two-seat
  // page's game-over table gives them
  finalScores(page) {
    const g = page.view.game;
    const cols = g.partnership
      ? [[g.you % 2, "Your side"], [1 - g.you % 2, "Their side"]]
      : g.seats.map((s) => [s.seat, this.who(page, s.seat)]);
    const by = (sc, c) => (g.partnership ? sc[c] + sc[c + 2] : sc[c]);
    const totals = g.partnership ? g.side_totals : g.totals;
    return h("table", { class: "scoreboard", id: "final-scores" },
      h("thead", {}, h("tr", {}, h("th", {}, `Game to ${g.target}`), cols.map(([, name]) => h("th", {}, name)))),
      h("tbody", {}, g.deal_scores.map((sc, i) => h("tr", {}, h("td", {}, `Deal ${i + 1}`), cols.map(([c]) => h("td", {}, by(sc, c))))),
        h("tr", { class: "total" }, h("td", {}, "Final score"), cols.map(([c]) => h("td", {}, totals[c])))));
  },

  // who started the next game at this table, or after this game of two (said on every other
  // person's page)
  nextWords(page) {
    const g = page.view.game, by = g.next_game.by;
    return `${by === g.you ? "You" : g.names[by]} started a new game${g.seats ? " at this table" : ""}: your seat in it is kept for you.`;
  },

  // "Play again" at a finished table (or a finished game of two friends, game.js): the first
  // to press starts the next game there (and leads it) with the same rules, each computer at
  // its level; every other person's page is told and offered their own seat, taken here with
  // this seat's link (the server gives each seat its own token only: no links to send)
  async playAgain(page) {
    try { await this.again(page.id, page.saved.token); } catch (e) { page.setMsg("error", e.message); }
  },
  // the seat of a finished friends' game's ``token`` in its next game (started now if nobody
  // has): kept in this browser, and opened
  async again(id, token) {
    const n = await api(`/api/games/${encodeURIComponent(id)}/again`, { token });
    Saved.set(n.id, n.token, n.seat, null);
    location.hash = `#/game/${n.id}`;
  },

  invitePanel(page) {
    const g = page.view.game;
    const base = SERVER.public_url || location.origin;
    const links = this.invites.get(g.id);
    const empty = g.seats.filter((s) => s.empty && !s.kept), kept = g.seats.filter((s) => s.empty && s.kept);
    return h("section", { class: "invite", id: "invite" },
      h("strong", { id: "waiting" }, `Waiting for ${g.waiting_for} player${g.waiting_for === 1 ? "" : "s"}`),
      // (a next game at the same table: each person is offered their seat on the last game's page)
      kept.length ? h("p", { id: "kept-seats" }, `Still to come from the last game: ${kept.map((s) => g.names[s.seat]).join(", ")}. Each is offered their seat on that game's page.`) : null,
      links.length ? h("p", { class: "note" }, "Send each friend their own link (one per seat):")
        : empty.length ? h("p", {}, "The friends still to come: " + empty.map((s) => g.names[s.seat]).join(", ") + ". The creator of the table has their links.") : null,
      links.filter((l) => g.seats[l.seat].empty).map((l) => {
        const link = `${base}/#/join/${g.id}/${l.invite}`;
        return h("div", { class: "field" }, h("label", { for: `invite-${l.seat}` }, `Seat ${l.seat + 1}`),
          h("input", { type: "text", readonly: true, value: link, id: `invite-${l.seat}`, onfocus: (e) => e.target.select() }));
      }));
  },
};
