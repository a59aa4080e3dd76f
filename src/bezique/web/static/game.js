// The screen of a game of two (GamePage): the table, the hand, the declaring turn, the deal's
// and the game's end, hints, undo, the invitation to a friend and, once a friends' game is
// over, the next one (the first to press Play again starts it, the other is offered their seat
// in it); it follows the game over its WebSocket. A table of three or four is drawn by table.js
// inside the same page. Loaded before app.js, whose helpers it uses at call time.
"use strict";

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
    // the token goes in the first message, never in the address (which the server may log)
    const ws = new WebSocket(`${proto}://${location.host}/ws/${encodeURIComponent(this.id)}`);
    this.ws = ws;
    ws.onmessage = (ev) => this.onMessage(JSON.parse(ev.data));
    ws.onopen = () => { this.retry = 500; ws.send(JSON.stringify({ type: "hello", token: this.saved.token })); };
    ws.onclose = () => {
      if (this.stopped || this.fatal) return;
      if (!this.msg || !this.msg.text.startsWith("Connection lost")) this.setMsg("error", "Connection lost; reconnecting…"); // (said once)
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
      if (!m.game.seats) { BezSpeech.say(BezSpeech.news(before, m, this.statusLine())); this.sayNext(); } // (a table of three or four: its own status)
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
      if (Teach.explain && action) { // (why: at a table of you and computers too)
        Teach.why(this, action).then((why) => {
          if (this.view.game.version === version && why.length) this.setMsg("hint", `Hint: ${m.text}. Why: ${why.join("; ")}.`);
        }).catch(() => {});
      }
    }
  }
  setMsg(kind, text) {
    this.msg = { kind, text };
    if (this.view && !this.view.game.seats) BezSpeech.say(text, kind === "error");
    if (this.view) this.render();
  }

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
      if (d.phase === "guess") return `You cut the pack: ${opp} is guessing how many cards (a cut of exactly 24 scores you ${d.cut_24})…`;
      return `${opp} to play…`;
    }
    if (d.phase === "guess") return `The dealer cut the pack: guess how many cards (a right guess scores you ${d.cut_guessed}; a cut of exactly 24 scores the dealer ${d.cut_24}).`;
    if (d.phase === "declare" && this.onlyDraw()) return `You won the trick; nothing to declare: ${this.autoDraw ? "drawing…" : "draw."}`;
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
        "aria-label": capital(`${c.action && d.your_turn ? "play " : ""}${cardName(c.card)}${where === "table" ? " (on the table)" : ""}`),
        title: key ? `Key ${key}` : null, "aria-keyshortcuts": key,
        onclick: () => c.action && this.act(c.action),
      }, cardImg(c.card), key ? h("span", { class: "k" }, key) : null);
    };
    const meldTags = (seat) => d.melds[seat].length
      ? meldList(d.melds[seat], (m) =>
          h("span", { class: "meld-tag" + (m.intact ? "" : " broken"),
            title: m.cards.map(cardText).join(" ") + (m.intact ? "" : " · broken: a card of it was played; its points stay scored") },
            `${m.name} ${m.points}`, h("span", { class: "visually-hidden" }, `: ${m.cards.map(cardName).join(", ")}.`),
            m.intact ? null : h("span", { class: "why" }, " · broken (a card was played)")),
          h("span", { class: "legend muted" }, "Faded melds are broken: a card of them was played. Their points stay scored."))
      : null;
    const head = (seat) => h("div", { class: "seat-head" },
      ((on) => h("span", { class: "dot" + (on ? " on" : ""), role: "img", title: on ? "online" : "away", "aria-label": on ? "online" : "away" }))(
        g.online[seat] || (g.opponent === "computer" && seat !== me)),
      h("span", { class: "name" }, seat === me ? `${g.names[seat]} (you)` : g.names[seat]),
      seat !== me && g.opponent === "computer" ? h("span", { class: "seat-tag" }, levelWords(g.level)) : null,
      d.dealer === seat ? h("span", { class: "dealer" }, "dealer") : null,
      d.turn === seat && d.phase !== "over" && !g.waiting_for_friend ? h("span", { class: "turn-flag" }, seat === me ? "your turn" : "to play") : null);

    // opponent
    const backs = [];
    for (let i = 0; i < d.opponent_hidden; i++) backs.push(h("div", { class: "card", "aria-hidden": "true" }, backImg()));
    const oppSeat = h("section", { class: "seat opp", "aria-label": "opponent" },
      head(opp),
      // the hidden hand, and beside it (where the width allows) the cards on the table
      h("div", { class: "seat-row" },
        h("div", { class: "backs", role: "img", "aria-label": `${g.names[opp]} holds ${d.opponent_hidden} card${d.opponent_hidden === 1 ? "" : "s"}` }, backs),
        d.table[opp].length ? h("div", { class: "on-table" }, h("div", { class: "label" }, "On the table"),
          h("div", { class: "cards small", id: "opp-table" }, d.table[opp].map((c) => staticCard(c.card)))) : null),
      // the concealed cards all have seen: a hand shown for carte blanche, a turn-up taken
      d.opponent_known.length ? h("div", { class: "muted known", id: "opp-known" }, said(`Known in hand: ${d.opponent_known.map(cardText).join(" ")}`)) : null,
      meldTags(opp));

    // middle: stock, trick
    const stock = h("div", { class: "stock-area" },
      h("div", { class: "stock-pile", role: "img", "aria-label": `Stock: ${d.stock} card${d.stock === 1 ? "" : "s"}; turn-up ${d.turnup ? cardName(d.turnup) : "taken"}` },
        d.turnup ? h("div", { class: "turnup", "aria-hidden": "true" }, cardImg(d.turnup)) : null,
        d.stock > 0 ? h("div", { class: "top", "aria-hidden": "true" }, backImg(), h("span", { class: "count", id: "stock-count" }, d.stock)) : null),
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
        title: m.cards.map(cardText).join(" "), "aria-label": `${m.name}: ${m.cards.map(cardName).join(", ")}, ${m.points} points`,
      }, h("span", { class: "key" }, MELD_KEYS[i] || ""), `${m.name} ${m.cards.map(cardText).join(" ")} · ${m.points}`)));
      declare.append(...sevenButtons(d, seven, hintCls, (a) => this.act(a)));
      if (d.specials.includes("pass")) declare.append(h("button", { class: "btn secondary" + hintCls("pass"), "data-action": "pass", id: "pass", onclick: () => this.act("pass") },
        h("span", { class: "key" }, "d"), d.melds_available.length || d.specials.length > 1 ? "Draw (done declaring)" : "Draw"));
    }
    if (d.your_turn && d.specials.includes("carte")) declare.append(h("button", { class: "btn" + hintCls("carte"), "data-action": "carte", id: "carte", onclick: () => this.act("carte") },
      // (the first is made before the player's first card: once a trick is played it is a
      // repeat, showing the card just drawn; RULES.md 9.0.4, 9.10)
      h("span", { class: "key" }, "c"), d.tricks_played ? `Carte blanche again: show the card you drew (no court card) · ${d.carte_points}`
        : `Carte blanche: show a hand without a court card · ${d.carte_points}`));
    if (d.your_turn && d.phase === "guess") d.guesses.forEach((n) => declare.append(h("button", { class: "btn" + hintCls(`guess ${n}`), "data-action": `guess ${n}`, onclick: () => this.act(`guess ${n}`) }, `${n} cards`)));
    let summary = null;
    if (d.one_deal && d.phase === "over") {
      summary = h("div", { class: "summary game-over", id: "summary" },
        h("h3", {}, `${this.name(me)} ${d.scores[me]}, ${g.names[opp]} ${d.scores[opp]}`),
        h("div", { class: "winner-banner", id: "winner" }, g.winner === null ? "A draw." : g.winner === me ? "You win the game." : `${g.names[opp]} wins the game.`),
        h("div", { id: "settlement" }, `Settled: ${d.settlement || ""}`),
        d.settlement_legend ? h("div", { class: "muted", id: "settlement-legend" }, d.settlement_legend) : null,
        this.againButton());
    } else if (g.winner !== null) {
      summary = this.gameOver();
    } else if (d.phase === "over") {
      summary = h("div", { class: "summary", id: "summary" },
        h("h3", {}, `Deal ${g.deal}: ${this.name(me)} ${d.scores[me]}, ${g.names[opp]} ${d.scores[opp]}`),
        h("div", { class: "muted" }, `${d.brisques_label || "Brisques"}: you ${d.brisques[me]}, ${g.names[opp]} ${d.brisques[opp]}. Game: ${g.totals[me]}–${g.totals[opp]} (to ${g.target}).`),
        h("button", { class: "btn", id: "next-deal", onclick: () => this.request("next") }, h("span", { class: "key" }, "n"), "Next deal"));
    }
    const msg = h("div", { class: this.msg ? `msg ${this.msg.kind}` : "msg", id: "msg" }, this.msg ? this.msg.text : ""); // (said by setMsg)
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
      g.finished_deals > 0 ? recordButton(g.id, this.saved.token, "Download record", (e) => this.setMsg("error", e.message)) : null);
    const handButtons = d.hand.map((c) => cardButton(c, "hand")); // numbered first: 1, 2, ...
    const tableButtons = d.table[me].map((c) => cardButton(c, "table"));
    const mySeat = h("section", { class: "seat me" + (d.your_turn && !drawing ? " my-turn" : ""), "aria-label": "your seat" },
      h("div", { class: "me-head" }, head(me), tools),
      // (its news: say, in onMessage; once the game is won the banner below says by whom)
      h("div", { class: "status", id: "status" }, said(g.winner !== null ? "Game over." : this.statusLine()),
        d.drew ? h("span", { class: "sub" }, said(`You drew ${cardText(d.drew)}.`)) : null),
      summary,
      declare,
      // the melds, then the cards on the table and beside them (where the width allows) the
      // hand: on a short screen the hand stays in sight without scrolling
      meldTags(me),
      h("div", { class: "seat-row" },
        d.table[me].length ? h("div", { class: "on-table" }, h("div", { class: "label" }, "Your cards on the table"),
          h("div", { class: "cards small keyed", id: "my-table" }, tableButtons)) : null,
        h("div", { class: "in-hand" },
          d.hand.length ? h("div", { class: "label" }, "Your hand") : null,
          h("div", { class: "cards hand", id: "hand" }, handButtons))),
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
            d.brisques_label ? row(`${d.brisques_label} won`, d.brisques[me], d.brisques[opp]) : null,
            // (a one-deal game has no running total: its deal is the game, settled in words at its end)
            d.one_deal ? null : row("Game", g.totals[me], g.totals[opp], "total"))),
        houseRulesText(g.options) ? h("div", { class: "muted", id: "house-rules-shown" }, houseRulesText(g.options)) : null,
        h("div", { class: "muted trick-count" },
          d.phase === "over" ? `All ${d.tricks_played} tricks played` : `Trick ${d.tricks_played + 1} · stock ${d.stock}`)),
      h("section", { class: "panel" }, h("div", { class: "label" }, "This deal"),
        h("ul", { class: "log", id: "log" }, d.log.slice().reverse().map((e) => h("li", { class: e.seat === me ? "mine" : "" }, said(e.text))))));

    const table = h("div", { class: "table" }, oppSeat, middle, mySeat, side);
    markButtons(table);
    document.body.dataset.version = String(g.version);
    show(this.tutorial ? this.tutorial.box(this.view) : "", table);
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
      this.againButton());
  }

  // "Play again" at a game's end; once another person has started the next game (a friend,
  // or someone at the table), the offer of this seat's own place in it instead
  againButton() {
    return this.view.game.next_game
      ? h("div", { class: "next-game", id: "next-game" }, h("p", {}, BezTable.nextWords(this)),
        h("button", { class: "btn", id: "take-next", onclick: () => this.playAgain() }, h("span", { class: "key" }, "n"), "Take my seat in the new game"))
      : h("button", { class: "btn", id: "play-again", onclick: () => this.playAgain() }, h("span", { class: "key" }, "n"), "Play again");
  }
  // the next game started by someone else: said once
  sayNext() {
    const next = this.view.game.next_game;
    if (next && next.id !== this.spokenNext) { this.spokenNext = next.id; BezSpeech.say(BezTable.nextWords(this)); }
  }

  async playAgain() {
    const g = this.view.game;
    // between friends (two, or a table): the first to press starts the next game and leads it;
    // each other person's page is offered their own seat in it (no link to send)
    if (g.opponent !== "computer") { BezTable.playAgain(this); return; }
    const body = { opponent: "computer", level: g.level, variant: g.variant, target: g.target };
    if (this.view.deal.one_deal) delete body.target; // one deal, settled: no target
    // the same house rules (the game's length is its own field, above)
    const options = Object.fromEntries(Object.entries(g.options || {}).filter(([k]) => k !== "target" && k !== "partnership"));
    if (Object.keys(options).length) body.options = options;
    body.name = g.names[g.you];
    try {
      const n = await api("/api/games", body);
      Saved.set(n.id, n.token, n.seat, n.invite);
      location.hash = `#/game/${n.id}`;
    } catch (e) { this.setMsg("error", e.message); }
  }

  invitePanel() {
    const g = this.view.game;
    // the next game after a game of two friends: the friend's seat is kept for them, offered on
    // the last game's page
    if (g.kept) return h("section", { class: "invite", id: "invite" }, h("strong", { id: "waiting" }, `Waiting for ${g.names[1 - g.you]}`),
      h("p", { id: "kept-seats" }, `${g.names[1 - g.you]} is still to come from the last game: their seat is kept for them, offered on that game's page (no link to send).`));
    const base = SERVER.public_url || location.origin;
    const link = `${base}/#/join/${this.id}/${this.saved.invite || ""}`;
    const known = !!this.saved.invite;
    const local = !SERVER.public_url && (SERVER.loopback || ["127.0.0.1", "localhost", "[::1]"].includes(location.hostname));
    return h("section", { class: "invite", id: "invite" },
      h("strong", {}, "Invite a friend"),
      local ? h("p", { class: "note", id: "loopback-note" }, SERVER.loopback
        ? "This server listens only on this computer, so a friend elsewhere cannot open the link. Start it with: bezique serve --host 0.0.0.0 --public-url URL (the address your friend can reach, with the port)"
        : "This link names this computer (127.0.0.1 / localhost): it works only here. Open this page by your network address, or start the server with --public-url.") : null,
      known ? h("input", { type: "text", readonly: true, value: link, id: "invite-link", "aria-label": "Invitation link", onfocus: (e) => e.target.select() })
        : h("p", {}, "Send your friend the invitation link you were given when you created the game."),
      known ? h("button", { class: "btn", id: "copy-invite", onclick: () => navigator.clipboard && navigator.clipboard.writeText(link)
        .then(() => this.setMsg("hint", "The invitation link is copied: send it to your friend."), () => {}) }, "Copy link") : null);
  }
}
