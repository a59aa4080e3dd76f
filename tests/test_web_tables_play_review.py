"""The tables of three and four as players met them in a review (two friends and the creator at
a table of three, a friend and two computers at a partnership table of four; 1280x800 and
390x844): a seat that won a trick with nothing to declare was told to "declare a meld, or draw"
(the two-seat page says "nothing to declare", and draws by itself if the player wants: now the
tables too, with the same stored choice); a finished game's status line repeated the winner's
banner (now "Game over.", as the two-seat page); a table waiting for friends did not say for
whom; a partner offered the turn read "offered the turn by You"; and the replay named a computer
by its whole stored name ("Computer 3 (level 1 beginner)") where the game's page says
"Computer 3" (now the short name, each computer's level said once in the replay's header).

One page in a real headless Chromium (skipped without one, unless BEZIQUE_REQUIRE_BROWSER): its
view is altered in place to reach each case at once; the replay's server side is checked in
test_web_tables (the names and levels it sends)."""

from __future__ import annotations

from typing import Any

import httpx
from live_site import TIMEOUT_MS

# the page's view altered in place: the seat won the trick, holding nothing to declare
NOTHING = """(auto) => {
  const sent = []; current.act = (a) => sent.push(a); current.autoSent = null;
  localStorage.setItem('bezique.autodraw', auto ? 'on' : 'off');
  const g = current.view.game, d = current.view.deal;
  g.version += 1; d.your_turn = true; d.turn = g.you; d.phase = 'declare';
  d.melds_available = []; d.specials = ['pass']; d.legal = ['pass']; d.trick = [];
  d.last_trick = {leader: 1, winner: g.you, cards: []};
  current.render();
  return [document.getElementById('status').innerText, !!document.getElementById('pass'),
          document.getElementById('auto-draw').checked, sent]; }"""

# the same (the table is a partnership): offered the turn by the partner; then the winner,
# who may offer it
OFFERED = """() => {
  const sent = []; current.act = (a) => sent.push(a);
  const g = current.view.game, d = current.view.deal;
  g.version += 1;
  d.last_trick = {leader: 1, winner: g.partner, cards: []};
  current.render();
  const offered = document.getElementById('status').innerText;
  d.last_trick.winner = g.you; d.specials = ['offer', 'pass']; d.legal = ['offer', 'pass'];
  g.version += 1; current.render();
  const mine = document.getElementById('status').innerText;
  // another seat declares, offered the turn by this one
  d.your_turn = false; d.turn = g.partner; g.version += 1; current.render();
  return [offered, mine, document.getElementById('status').innerText, sent]; }"""

OVER = """() => {
  const g = current.view.game, d = current.view.deal;
  g.winner = 1; d.phase = 'over'; d.your_turn = false; g.version += 1;
  g.deal_scores = [[100, 40, 60, 20], [30, 200, 10, 90]]; g.side_totals = [200, 350];
  current.render();
  const rows = [...document.querySelectorAll('#final-scores tr')]
    .map((r) => [...r.children].map((c) => c.innerText));
  return [document.getElementById('status').innerText,
          document.getElementById('winner').innerText, rows]; }"""

WAITING = """() => {
  const g = current.view.game;
  g.winner = null; current.view.deal.phase = 'lead';
  g.waiting_for = 2; g.seats[1].empty = true; g.seats[2].empty = true;
  g.names[1] = 'Player 2'; g.names[2] = 'Player 3'; current.render();
  return document.getElementById('status').innerText; }"""

REPLAY = """async () => {
  window.api = async () => ({id: 'R', you: 0, variant: 'bezique3', one_deal: false,
    names: ['Ann', 'Computer 2', 'Computer 3'], levels: [null, 1, 3],
    deals: [{dealer: 2, trump: 'S', turnup_points: 0, cut: null, frames: [{player: null,
      action: null, scored: [], trick_done: false, played: [], winner: null,
      hands: [['AS'], ['TS'], ['KS']], shown: [[], [], []], trick: [], trump: 'S',
      turnup: '7H', stock: 71, scores: [0, 0, 0], tricks: 0}]}]});
  Saved.set('R', 'tok', 0, null);
  current = new ReplayPage('R');
  await new Promise((r) => setTimeout(r, 50));
  return [document.getElementById('replay-players').innerText,
          [...document.querySelectorAll('.replay-board .seat .name')].map((e) => e.innerText),
          document.getElementById('replay-step').innerText]; }"""


def test_a_table_says_nothing_to_declare_game_over_and_whom_it_waits_for(
        fast_site: str, browser: Any) -> None:
    g = httpx.post(f"{fast_site}/api/games", json={
        "variant": "bezique4", "name": "Ann", "seed": 3,
        "seats": [{"kind": "computer", "level": 1}] * 3}).json()
    page = browser.new_page(viewport={"width": 390, "height": 844})
    page.set_default_timeout(TIMEOUT_MS)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{fast_site}/#/game/{g['id']}/{g['token']}")
    page.wait_for_selector("#status")
    page.wait_for_function("() => current && current.view")
    # nothing to declare: said so; drawn at once if the player chose it (the two-seat page's
    # choice, kept in the same place), else a lone Draw
    status, button, box, sent = page.evaluate(NOTHING, True)
    assert status == "You won the trick; nothing to declare: drawing…", status
    assert not button and box and sent == ["pass"]
    status, button, box, sent = page.evaluate(NOTHING, False)
    assert status == "You won the trick; nothing to declare: draw.", status
    assert button and not box and sent == []
    page.click("#auto-draw")  # the toggle stores the choice, and draws at once
    assert page.evaluate("localStorage.getItem('bezique.autodraw')") == "on"
    assert not page.query_selector("#pass")
    # in a partnership: offered the turn with nothing to declare; the winner who may offer
    offered, mine, theirs, sent = page.evaluate(OFFERED)
    assert offered == ("Your partner won the trick and offered you the declaring turn; "
                       "nothing to declare: drawing…"), offered
    assert sent == ["pass"]
    assert mine == ("You won the trick; nothing to declare: offer the turn to your partner, "
                    "or draw."), mine
    assert theirs.endswith("is declaring, offered the turn by you…"), theirs
    # a finished game: "Game over." in the status line, who won in the banner only
    status, banner, rows = page.evaluate(OVER)
    assert status == "Game over.", status
    assert banner == "Computer 2 & Computer 4 win the game.", banner
    # ... and every deal by side, with the final score, as the two-seat page's table
    assert rows == [["Game to 2000", "Your side", "Their side"], ["Deal 1", "160", "60"],
                    ["Deal 2", "40", "290"], ["Final score", "200", "350"]], rows
    # a table waiting for friends names them
    assert page.evaluate(WAITING).startswith("Waiting for 2 players (Player 2 and Player 3):")
    # the replay names computers as the table does, each level once in its header
    players, seats, step = page.evaluate(REPLAY)
    assert players == "Computer 2: level 1 beginner · Computer 3: level 3 club", players
    assert "Computer 2" in seats and "(level" not in " ".join(seats) + step, (seats, step)
    assert not errors, errors
