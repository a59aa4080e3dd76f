"""The statistics count the games at tables of three and four (issue #14): grouped by the kind
of table, a deal won with more points than every other seat (in partnership: than the other
side, the side's points counted), a game won when the player or their side wins it; in the
terminal's ``bezique stats`` (from the saved games) and on the browser's statistics page."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from click.testing import CliRunner
from test_tui_tables import play_out
from test_web import Seat
from test_web_tables import TableScan, catch_up, create, table_client
from ws_helpers import open_seat

from bezique import Rules
from bezique.cli import main
from bezique.game import Game
from bezique.scoring import sides
from bezique.stats import game_played, report, table_label, tally
from bezique.tui.history import saved_games
from bezique.tui.session import PlayConfig, Session, save_path


def random_game(rules: Rules, seed: int) -> Game:
    g = Game(rules, seed=seed)
    rng = random.Random(seed)
    while not g.is_over():
        if g.state.is_terminal():
            g.next_deal()
        else:
            g.apply(rng.choice(g.state.legal_action_strings()))
    return g


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_partnership_game_is_counted_for_the_side(seed: int) -> None:
    g = random_game(Rules.preset("bezique4", target=300), seed)
    for seat in range(4):
        played = game_played(g.all_deals(), seat, "Ann", "table", None, when=1.0)
        assert played.against == "four-handed tables, in partnership"
        assert played.won == (g.winner == seat % 2)
        side = seat % 2
        assert played.deals == tuple((sides(st.scores)[side], sides(st.scores)[1 - side])
                                     for st in g.all_deals())
    # partners win and lose together
    ann = game_played(g.all_deals(), 0, "Ann", "table", None, when=1.0)
    mate = game_played(g.all_deals(), 2, "Bo", "table", None, when=1.0)
    assert ann.won == mate.won and ann.deals == mate.deals


@pytest.mark.parametrize("variant,options", [("bezique3", {}),
                                             ("bezique4", {"partnership": False})])
def test_every_seat_for_itself_wins_a_deal_over_every_other_seat(
        variant: str, options: dict[str, bool]) -> None:
    rules = Rules.preset(variant, target=300, **options)
    g = random_game(rules, 5)
    wins = []
    for seat in range(rules.nplayers):
        played = game_played(g.all_deals(), seat, f"P{seat}", "table", None, when=float(seat))
        assert played.against == table_label(rules)
        assert played.won == (g.winner == seat)
        assert [mine for mine, _ in played.deals] == [st.scores[seat] for st in g.all_deals()]
        assert [best for _, best in played.deals] == [
            max(p for s, p in enumerate(st.scores) if s != seat) for st in g.all_deals()]
        wins.append(played.won)
    assert wins.count(True) == 1  # one winner of the game
    t = tally([game_played(g.all_deals(), 0, "P0", "table", None, when=1.0)])
    group = t[("P0", table_label(rules))]
    assert group.table and not t[("P0", "all")].table
    assert group.deals_won == sum(a > b for a, b in
                                  game_played(g.all_deals(), 0, "P", "t", None, 0.0).deals)
    assert report(t)[3].startswith(f"P0 at {table_label(rules)}")


@pytest.fixture
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    d = tmp_path / "data"
    monkeypatch.setenv("BEZIQUE_DATA_DIR", str(d))
    return d


def test_bezique_stats_counts_the_terminals_tables(data_dir: Path) -> None:
    three = play_out(Session.new(PlayConfig(level=1, seed=4, variant="bezique3", target=300,
                                            name="Ann"), save_path()), random.Random(4))
    four = play_out(Session.new(PlayConfig(level=1, seed=6, variant="bezique4", target=300,
                                           name="Ann"), save_path()), random.Random(6))
    games = {g.against: g for g in saved_games()}
    assert set(games) == {"three-handed tables", "four-handed tables, in partnership"}
    assert games["three-handed tables"].won == (three.game.winner == 0)
    assert games["four-handed tables, in partnership"].won == (four.game.winner == 0)
    out = CliRunner().invoke(main, ["stats"])
    assert out.exit_code == 0 and "Ann at three-handed tables" in out.output
    assert "Ann at four-handed tables, in partnership" in out.output
    rows = json.loads(CliRunner().invoke(main, ["stats", "--json"]).output)
    everyone = next(r for r in rows if r["against"] == "all")
    assert everyone["games"] == 2


def test_the_browsers_statistics_count_a_table_game(tmp_path: Path) -> None:
    scan = TableScan(every=50)
    rng = random.Random(1)
    with table_client(tmp_path / "g.db", scan) as client:
        g = create(client, variant="bezique3", name="Ann", level=1, target=100,
                   seats=[{"kind": "computer", "level": 1}] * 2)
        gid = g["id"]
        live = client.app.state.manager.games[gid]  # type: ignore[attr-defined]
        with open_seat(client, gid, g["token"]) as w0:
            me = Seat(w0)
            me.first()
            while True:
                catch_up([me], live.row.version)
                d = me.view["deal"]
                if me.view["game"]["winner"] is not None:
                    break
                if d["phase"] == "over":
                    assert me.request({"type": "next"})["type"] == "ack"
                elif d["your_turn"]:
                    assert me.act(rng.choice(d["legal"]))["type"] == "ack"
                else:
                    me.recv()
        r = client.post("/api/stats", json={"games": {gid: g["token"]}}).json()
        groups = {x["against"]: x for x in r["groups"]}
        table = groups["three-handed tables"]
        assert table["table"] is True and groups["all"]["table"] is False
        assert table["games"] == 1 and table["games_won"] == int(live.game.winner == 0)
        assert table["deals"] == len(live.game.all_deals())
        assert r["recent"][0]["table"] is True
        assert r["recent"][0]["won"] == (live.game.winner == 0)
    assert not scan.problems, scan.problems[:5]


def test_the_one_deal_games_count_their_settlements() -> None:
    """Rubicon and Six-pack are played for the settlement (RULES.md 9.0.7): their groups add
    each game's settled value from the player's side (+ won, - lost); the classic game's
    groups and "all games" have no such line."""
    games, expected = [], 0
    for seed, variant in enumerate(["rubicon", "rubicon", "rubicon", "bezique"]):
        g = random_game(Rules.preset(variant, **({"target": 200} if variant == "bezique"
                                                 else {})), seed)
        played = game_played(g.all_deals(), 0, "Ann", "computer", 1, when=float(seed))
        if variant == "bezique":
            assert played.settled is None
        else:
            res = g.state.settlement()
            assert res.winner >= 0
            assert played.settled == (res.value if res.winner == 0 else -res.value)
            assert played.won == (res.winner == 0)
            expected += played.settled
        games.append(played)
    tallies = tally(games)
    rubicon = tallies[("Ann", "computer, level 1 (beginner), Rubicon")]
    assert rubicon.settled == expected and rubicon.to_json()["settled"] == expected
    lines = report(tallies)
    assert f"  settlements {expected:+d} in all, {expected / 3:+.0f} a game" in lines
    assert sum(line.startswith("  settlements") for line in lines) == 1  # Rubicon's alone
