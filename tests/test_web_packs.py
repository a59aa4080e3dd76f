"""The one-deal games in the browser (issue #13): Rubicon and Six-pack against the computer,
trumps not fixed until the first marriage, no turn-up, carte blanche and the cut bonus's guess
as moves, and the settlement in words at the end."""

from __future__ import annotations

import random
from pathlib import Path

from test_web import PrivacyScan, Seat, make_client, new_game, scan
from ws_helpers import open_seat

__all__ = ["scan"]  # the privacy scan fixture, checking every message of these games too


def _play_out(me: Seat, rng: random.Random) -> list[dict[str, object]]:
    seen = []
    while me.view["deal"]["phase"] != "over":
        d = me.view["deal"]
        seen.append(d)
        reply = me.act(rng.choice(d["legal"]))
        assert reply["type"] == "ack", reply
        me.settle()
    return seen


def test_a_whole_rubicon_game_in_the_browser_ends_with_its_settlement(tmp_path: Path,
                                                                      scan: PrivacyScan) -> None:
    with make_client(tmp_path / "g.db", scan) as client:
        g = new_game(client, opponent="computer", level=1, variant="rubicon", seed=4)
        with open_seat(client, g["id"], g["token"]) as ws:
            me = Seat(ws)
            me.first()
            me.settle()
            first = me.view["deal"]
            assert first["trump"] is None and first["turnup"] is None and first["one_deal"]
            assert len(first["hand"]) == 9
            seen = _play_out(me, random.Random(4))
            assert any(d["trump"] is not None for d in seen)  # a marriage fixed trumps
            end = me.view
        assert end["deal"]["settlement"] and " = " in end["deal"]["settlement"]
        legend = end["deal"]["settlement_legend"]  # which number is which
        if end["game"]["winner"] is not None:
            assert all(f" {x} " in legend for x in end["deal"]["scores"]), legend
        assert end["game"]["winner"] in (0, 1, None)
        assert end["deal"]["legal"] == []


def test_carte_blanche_and_the_guess_of_the_cut_are_moves(tmp_path: Path,
                                                         scan: PrivacyScan) -> None:
    with make_client(tmp_path / "g.db", scan) as client:
        g = new_game(client, opponent="computer", level=1, variant="sixpack", seed=1)
        live = client.app.state.manager.games[g["id"]]  # type: ignore[attr-defined]
        assert live.game.rules.variant == "sixpack"
        with open_seat(client, g["id"], g["token"]) as ws:
            me = Seat(ws)
            me.first()
            me.settle()
            d = me.view["deal"]
            assert d["guesses"] == [] and ("carte" in d["specials"]) == ("carte" in d["legal"])
    from bezique import Rules, State
    from bezique.web.views import build_view

    s = State.new_deal(Rules.preset("sixpack", cut_bonus=True), seed=3)
    obs = s.observation(s.current_player())
    view = build_view(obs, live.row, 1, [True, True])
    assert view["deal"]["phase"] == "guess" and view["deal"]["guesses"] == list(range(18, 31))
    assert view["deal"]["trump"] is None
    s = next(st for st in (State.new_deal(Rules.preset("rubicon"), seed=i) for i in range(2000))
             if "carte" in st.legal_action_strings())
    view = build_view(s.observation(s.current_player()), live.row, 1, [True, True])
    assert "carte" in view["deal"]["specials"]


def test_the_score_table_names_what_cards_won_count(tmp_path: Path, scan: PrivacyScan) -> None:
    """Brisques in Bezique and Rubicon, card points in Binocle, no row at all in Six- and
    Eight-pack, where cards won in tricks count nothing (RULES.md 9.2, 9.3)."""
    want = {"bezique": "Brisques", "rubicon": "Brisques", "binocle": "Card points",
            "sixpack": None, "eightpack": None}
    with make_client(tmp_path / "g.db", scan) as client:
        for variant, label in want.items():
            g = new_game(client, opponent="computer", level=1, variant=variant, seed=2)
            with open_seat(client, g["id"], g["token"]) as ws:
                me = Seat(ws)
                me.first()
                assert me.view["deal"]["brisques_label"] == label, variant
