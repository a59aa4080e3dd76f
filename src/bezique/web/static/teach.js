// Teaching at the table: which card or meld a hint suggests (to highlight it, on the table too),
// the "explain" mode that asks the server why (/api/games/ID/explain), and the tutorial deal for
// a new player. Loaded before app.js; uses its helpers at call time.
"use strict";

const SYM_SUIT = { "♠": "S", "♥": "H", "♦": "D", "♣": "C" };

const Teach = {
  get explain() { return localStorage.getItem("bezique.explain") === "on"; },
  set explain(v) { localStorage.setItem("bezique.explain", v ? "on" : "off"); },

  // "Q♠" -> "QS", "10♦" -> "TD"
  code(sym) {
    const m = /^(10|[AKQJ987])([♠♥♦♣])/.exec(sym);
    return m ? (m[1] === "10" ? "T" : m[1]) + SYM_SUIT[m[2]] : null;
  },

  // what a hint reply suggests: {verb, action, cards}; from its action field (hint_action,
  // else action), else from its words ("play Q♦", "declare bezique Q♠ J♦ for 40", ...)
  target(m) {
    const action = m.hint_action || m.action;
    if (action) {
      const [verb, ...toks] = action.split(" ");
      return { verb, action, cards: toks.map((t) => t.split(/[*+]/)[0].toUpperCase()) };
    }
    const text = m.text || "";
    if (text.startsWith("draw")) return { verb: "pass", action: "pass", cards: [] };
    if (text.startsWith("exchange")) return { verb: "exchange", action: "exchange", cards: [] };
    if (text.startsWith("declare the")) return { verb: "seven", action: "seven", cards: [] };
    const cards = text.split(/\s+/).map((t) => this.code(t)).filter(Boolean);
    return { verb: text.startsWith("play") ? "play" : "meld", action: null, cards };
  },

  // the action of the view the hint points at (a card in the hand or on the table, a meld, a
  // special), or null
  pick(hint, view) {
    if (!hint) return null;
    const d = view.deal, me = view.game.you;
    if (hint.verb === "play") {
      const cards = d.hand.concat(d.table[me]).filter((c) => c.action);
      const exact = cards.find((c) => c.action === hint.action);
      const same = cards.find((c) => c.card === hint.cards[0]);
      return (exact || same || {}).action || null;
    }
    if (hint.verb === "meld") {
      const key = (cs) => cs.slice().sort().join(" ");
      const m = d.melds_available.find((x) => x.action === hint.action) ||
        d.melds_available.find((x) => key(x.cards) === key(hint.cards));
      return m ? m.action : null;
    }
    if (hint.verb === "guess") return d.guesses && d.guesses.includes(+hint.cards[0]) ? hint.action : null; // (the cut bonus)
    return d.specials.includes(hint.action) ? hint.action : null;
  },

  // the reasons for a hint, in words (explain mode)
  async why(page, action) {
    const r = await api(`/api/games/${encodeURIComponent(page.id)}/explain`, { token: page.saved.token, action });
    return r.why || [];
  },
};

// ------------------------------------------------------------------ the tutorial deal
// A short guided deal: the real engine deals a fixed deal against the level-1 computer; each
// step says what to look at and what to do, and goes on when the player has done it.
const TUTORIAL_SEED = 7;
const TUTORIAL_STEPS = [
  { id: "hand", text: "These are your eight cards. The suit of the turned-up card beside the stock is trumps. Order in every suit: A 10 K Q J 9 8 7.", done: (v) => true, button: "Next" },
  { id: "lead", text: "While there is a stock you may play any card: you need not follow suit. Click a card (or press its number) to play it. The glowing card is the hint's choice (it says why below); a low card that makes no meld is a good start.", done: (v, n) => n.tricks >= 1, hint: true },
  { id: "trick", text: "The higher trump wins a trick, else the higher card of the suit led. The winner may then declare one meld, and both draw a card from the stock.", done: (v) => true, button: "Next" },
  { id: "melds", text: "Melds: K and Q of a suit (marriage 20, 40 in trumps), Q♠ with J♦ (bezique 40), four aces 100, four kings 80… Win a trick while you hold one and a button offers it. Press h for a hint: it lights up the card it suggests.", done: (v, n) => n.tricks >= 3 || n.melds > 0 },
  { id: "seven", text: "Holding the seven of trumps after a trick you won? Exchange it for the turn-up for 10 points. Aces and tens you win count 10 each at the end (brisques).", done: (v) => true, button: "Next" },
  { id: "end", text: "When the stock is gone you must follow suit and win the trick if you can; the last trick scores 10. That's the game: play on, or start a real game.", done: () => false, button: "Start a real game" },
];

class TutorialPage {
  constructor() {
    this.step = 0;
    this.game = null;
    this.start().catch((e) => show(h("p", { class: "error-box" }, e.message)));
  }
  async start() {
    const g = await api("/api/games", { opponent: "computer", level: 1, target: 500, seed: TUTORIAL_SEED, name: PlayerName.get() });
    // the tutorial before this one leaves the list of games (and the statistics)
    const before = localStorage.getItem("bezique.tutorial"), all = Saved.all();
    if (before && all[before]) { delete all[before]; localStorage.setItem("bezique.games", JSON.stringify(all)); }
    Saved.set(g.id, g.token, g.seat);
    localStorage.setItem("bezique.tutorial", g.id);
    this.game = new GamePage(g.id);
    this.game.tutorial = this;
    current = this;
  }
  stop() { if (this.game) this.game.stop(); }
  // the guide's box, drawn by the game page above the table
  box(view) {
    const counts = { tricks: view.deal.tricks_played, melds: view.deal.melds[view.game.you].length };
    let s = TUTORIAL_STEPS[this.step];
    while (s && !s.button && s.done(view, counts) && this.step < TUTORIAL_STEPS.length - 1) s = TUTORIAL_STEPS[++this.step];
    if (s.hint && view.deal.your_turn && this.hintedAt !== view.game.version) {
      this.hintedAt = view.game.version; // the step shows the hint's card, and why
      Teach.explain = true;
      setTimeout(() => this.game.hint(), 0);
    }
    const next = () => {
      if (this.step === TUTORIAL_STEPS.length - 1) { location.hash = "#/"; return; }
      this.step++; this.game.render();
    };
    if (this.said !== this.step) { this.said = this.step; BezSpeech.say(`Tutorial, step ${this.step + 1}: ${s.text}`); }
    return h("section", { class: "tutorial", id: "tutorial" }, // (its news: said once a step)
      h("strong", {}, `Tutorial · step ${this.step + 1} of ${TUTORIAL_STEPS.length}`),
      h("p", { id: "tutorial-text" }, s.text),
      s.button ? h("button", { class: "btn", id: "tutorial-next", onclick: next }, s.button) : h("span", { class: "muted" }, "(do it at the table below)"));
  }
}
