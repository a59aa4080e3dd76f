// Animation and sound at the table: a played card slides from the hand (or the opponent's side)
// to the trick, a finished trick slides to its winner; short sounds made with WebAudio (no audio
// files), off until the player turns them on. Nothing moves when the system asks for reduced
// motion (prefers-reduced-motion) or the player turns motion off. And what a screen reader
// hears (BezSpeech). Loaded before app.js; uses its helpers at call time.
"use strict";

const BezMotion = {
  started: 0, // animations started (the browser test reads it)
  reduced() { return !!(window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches); },
  get on() { return !this.reduced() && localStorage.getItem("bezique.motion") !== "off"; },
  set on(v) { localStorage.setItem("bezique.motion", v ? "on" : "off"); },

  // no card is left flying when the page changes
  clear() { for (const el of document.querySelectorAll(".ghost-card")) el.remove(); },

  // where each card is on screen now (before the page is drawn again)
  snapshot() {
    const rect = (el) => el ? el.getBoundingClientRect() : null;
    const cards = (sel) => {
      const out = {};
      for (const el of document.querySelectorAll(sel)) out[el.dataset.card] = el.getBoundingClientRect();
      return out;
    };
    return { mine: { ...cards("#my-table [data-card]"), ...cards("#hand [data-card]") },
      oppTable: cards("#opp-table [data-card]"), backs: rect(document.querySelector(".seat.opp .backs")) };
  },

  slide(el, from, ms) {
    if (!el || !from || !el.animate) return;
    const to = el.getBoundingClientRect();
    const dx = from.left - to.left, dy = from.top - to.top;
    if (Math.abs(dx) < 1 && Math.abs(dy) < 1) return;
    this.started++;
    el.animate([{ transform: `translate(${dx}px, ${dy}px)` }, { transform: "none" }],
      { duration: ms, easing: "cubic-bezier(.2,.7,.3,1)" });
  },

  // a copy of each card of the finished trick flies to the winner's side and fades
  toWinner(els, seatEl, delay) {
    if (!seatEl) return;
    const dest = seatEl.getBoundingClientRect();
    for (const el of els) {
      const r = el.getBoundingClientRect();
      const ghost = el.cloneNode(true);
      ghost.classList.add("ghost-card");
      Object.assign(ghost.style, { left: `${r.left + scrollX}px`, top: `${r.top + scrollY}px`, width: `${r.width}px`, height: `${r.height}px` });
      document.body.append(ghost);
      this.started++;
      const dx = dest.left + dest.width / 2 - (r.left + r.width / 2), dy = dest.top + dest.height / 2 - (r.top + r.height / 2);
      const a = ghost.animate([{ transform: "none", opacity: 1 }, { transform: `translate(${dx}px, ${dy}px) scale(.5)`, opacity: 0 }],
        { duration: 450, delay, easing: "ease-in", fill: "forwards" });
      a.onfinish = () => ghost.remove();
      a.oncancel = () => ghost.remove();
    }
  },

  // after the page is drawn: move what changed between the two views
  animate(before, view, snap) {
    if (!before || !snap || before.game.deal !== view.game.deal) return;
    const d0 = before.deal, d = view.deal, me = view.game.you;
    const source = (seat, code) => seat === me ? snap.mine[code] : (snap.oppTable[code] || snap.backs);
    const played = d.tricks_played > d0.tricks_played || d.trick.length > d0.trick.length;
    if (played) BezSound.play("card");
    if (!this.on) return;
    if (d.trick.length > d0.trick.length) { // a lead
      const t = d.trick[d.trick.length - 1];
      this.slide(document.querySelector(`#trick [data-card="${t.card}"]`), source(t.seat, t.card), 320);
    } else if (d.tricks_played === d0.tricks_played + 1 && d.last_trick) { // a trick completed
      const lt = d.last_trick, follower = 1 - lt.leader;
      const els = [...document.querySelectorAll("#trick [data-card]")];
      const follow = els.find((el) => el.dataset.card === lt.follow && el !== els[0]) || els[1];
      this.slide(follow, source(follower, lt.follow), 320);
      this.toWinner(els, document.querySelector(lt.winner === me ? ".seat.me" : ".seat.opp"), 650);
    }
  },
};

const BezSound = {
  played: 0, // sounds made (the browser test reads it)
  ctx: null,
  get on() { return localStorage.getItem("bezique.sound") === "on"; },
  set on(v) { localStorage.setItem("bezique.sound", v ? "on" : "off"); },
  // card: a short click; meld: two rising notes; win: a little arpeggio; turn: a soft ping
  NOTES: { card: [[660, 0, 0.05]], meld: [[523, 0, 0.12], [784, 0.1, 0.18]], turn: [[880, 0, 0.08]],
    win: [[523, 0, 0.15], [659, 0.12, 0.15], [784, 0.24, 0.15], [1047, 0.36, 0.3]] },
  play(kind) {
    if (!this.on) return;
    const AC = window.AudioContext || window.webkitAudioContext;
    if (!AC) return;
    try {
      this.ctx = this.ctx || new AC();
      const t0 = this.ctx.currentTime;
      for (const [freq, at, len] of this.NOTES[kind] || []) {
        const osc = this.ctx.createOscillator(), gain = this.ctx.createGain();
        osc.type = kind === "card" ? "triangle" : "sine";
        osc.frequency.value = freq;
        gain.gain.setValueAtTime(0.0001, t0 + at);
        gain.gain.exponentialRampToValueAtTime(0.2, t0 + at + 0.01);
        gain.gain.exponentialRampToValueAtTime(0.0001, t0 + at + len);
        osc.connect(gain).connect(this.ctx.destination);
        osc.start(t0 + at); osc.stop(t0 + at + len + 0.02);
      }
      this.played++;
    } catch (e) { /* no sound here: play on silently */ }
  },
  // the sounds a new view calls for (a meld declared, the player's turn, the game won)
  after(before, view) {
    if (!before || before.game.version === view.game.version) return;
    const melds = (v) => v.deal.melds.reduce((n, m) => n + m.length, 0); // (every seat's)
    if (before.game.deal === view.game.deal && melds(view) > melds(before)) this.play("meld");
    else if (view.game.winner !== null && before.game.winner === null) this.play(view.game.winner === view.game.you ? "win" : "turn");
    else if (view.deal.your_turn && !before.deal.your_turn) this.play("turn");
  },
};

// What a screen reader hears: the news of each view in one polite live region, an error in an
// alert (both stay in the page while it is redrawn: index.html), the cards in words.
const BezSpeech = {
  // a new view's news in a few words: the others' moves since the last view (and the player's
  // melds), the trick's winner, the card drawn, and the status when it is the player's move or
  // the deal or game has ended; nothing when nothing changed
  news(before, view, status) {
    const { game: g, deal: d } = view;
    if (!before || before.game.deal !== g.deal) return before ? `Deal ${g.deal}. ${status}` : status;
    if (before.game.version === g.version) return "";
    const fresh = this.fresh(before.deal.log, d.log), words = [];
    if (!fresh) words.push("Undone.");
    else {
      for (const e of fresh) {
        if (e.seat !== g.you || / declared | exchanged /.test(e.text)) words.push(`${e.text}.`);
      }
      const lt = d.last_trick;
      if (lt && !d.trick.length && JSON.stringify(lt) !== JSON.stringify(before.deal.last_trick)) {
        if (!(lt.winner === g.you && status.startsWith("You won the trick"))) { // (said by the status)
          words.push(lt.winner === g.you ? "You won the trick." : `${g.names[lt.winner]} won the trick.`);
        }
      }
      if (d.drew && d.drew !== before.deal.drew) words.push(`You drew ${cardText(d.drew)}.`);
    }
    const ended = d.phase === "over" && before.deal.phase !== "over";
    if (ended && !d.one_deal && g.winner === null) words.push(`${status} You ${d.scores[g.you]}, ${g.names[1 - g.you]} ${d.scores[1 - g.you]}.`);
    else if (ended || (g.winner !== null && before.game.winner === null) || d.your_turn) words.push(status);
    return words.join(" ");
  },
  // the log's entries after those of the last view (each view holds the last 40); null when
  // the last entries were taken back (an undo)
  fresh(a, b) {
    const same = (x, y) => x.seat === y.seat && x.text === y.text;
    if (b.length < a.length && b.every((e, i) => same(e, a[i]))) return null;
    for (let s = 0; s <= a.length; s++) {
      const rest = a.slice(s);
      if (rest.length <= b.length && rest.every((e, i) => same(e, b[i]))) return b.slice(rest.length);
    }
    return b;
  },
  // the same for a table of three or four (table.js): each other seat's plays, melds and
  // offers (not their draws), who won each trick, the player's own melds and the card drawn,
  // the status as above; at the deal's end each seat's points (or each side's)
  tableNews(before, view, status) {
    const { game: g, deal: d } = view;
    if (!before || before.game.deal !== g.deal) return before ? `Deal ${g.deal}. ${status}` : status;
    if (before.game.version === g.version) return "";
    const fresh = this.fresh(before.deal.log, d.log), words = [];
    const saysWin = status.startsWith("You won the trick"); // (then not said twice)
    const won = (who) => who === "you" && saysWin ? [] : [`${capital(who)} won the trick.`];
    if (!fresh) words.push("Undone.");
    else {
      for (const e of fresh) {
        if (/ drew from the stock$/.test(e.text)) continue; // (the player's: the card, below)
        const mine = e.seat === g.you, m = /^(.* (?:led|played) \S+)(?:( and won)|; (.+) won) the trick$/.exec(e.text);
        if (!m) { if (!mine || !/ (led|played) /.test(e.text)) words.push(`${e.text}.`); continue; }
        if (m[2]) words.push(...(mine ? won("you") : [`${e.text}.`]));
        else words.push(...(mine ? [] : [`${m[1]}.`]), ...won(m[3]));
      }
      const drew = fresh.some((e) => e.seat === g.you && / drew from the stock$/.test(e.text));
      if (d.drew && (drew || d.drew !== before.deal.drew)) words.push(`You drew ${cardText(d.drew)}.`);
    }
    const ended = d.phase === "over" && before.deal.phase !== "over";
    const points = () => g.partnership ? `Your side ${d.side_scores[g.you % 2]}, their side ${d.side_scores[1 - g.you % 2]}.`
      : `${g.seats.map((s) => `${s.seat === g.you ? "You" : g.names[s.seat]} ${d.scores[s.seat]}`).join(", ")}.`;
    if (ended && g.winner === null) words.push(`${status} ${points()}`);
    else if (ended || (g.winner !== null && before.game.winner === null) || d.your_turn
      || (before.game.waiting_for && !g.waiting_for)) words.push(status);
    return words.join(" ");
  },
  // said once (the same words again are news again); what is said at once is said together
  queued: {},
  say(text, urgent) {
    const el = document.getElementById(urgent ? "live-alert" : "live"), q = urgent ? "alert" : "polite";
    if (!el || !text) return;
    if (this.queued[q]) { this.queued[q].push(spoken(text)); return; }
    this.queued[q] = [spoken(text)];
    el.textContent = "";
    setTimeout(() => { el.textContent = this.queued[q].join(" "); this.queued[q] = null; }, 50);
  },
};
