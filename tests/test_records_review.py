"""Game records as researchers and players keep, edit, share and replay them (RULES.md 8, 9.8).

Real records of every preset (two seats and tables of three and four, a partnership, the
one-deal games, games of many deals, records of several one-deal games) replay exactly: the
totals and the winner of ``bezique replay --json`` are the game's.  Hand edits (a wrong card, a
card too many, a key left out, two games glued together, a deal cut short in the middle, a deal
after the game was won) are refused with one line (exit status 2, a ``RecordError`` from the
library), or replay to a game that holds together; never a traceback.
"""

from __future__ import annotations

import contextlib
import copy
import functools
import itertools
import json
import os
import threading
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bezique import Rules, State
from bezique.agents import make_agent
from bezique.cli import main
from bezique.errors import BeziqueError, RecordError
from bezique.game import Game
from bezique.record import (
    game_record,
    game_result,
    load_record,
    parse_record,
    replay,
    replay_deals,
    states_from_record,
)

# (preset, options): every preset, the partnership and its absence, the duels' ending, the cut
# bonus; targets kept low where a game of many deals would be long
CONFIGS: list[tuple[str, dict[str, Any]]] = [
    ("bezique", {"target": 500}),
    ("binocle", {"target": 600}),
    ("rubicon", {}),
    ("sixpack", {"cut_bonus": True}),
    ("eightpack", {}),
    ("bezique3", {"target": 800}),
    ("bezique4", {"target": 800}),
    ("bezique4", {"target": 800, "partnership": False}),
    ("bezique4", {"target": 800, "four_hand_end": "duels"}),
]
IDS = [name + "".join(f"-{k}={v}" for k, v in opts.items()) for name, opts in CONFIGS]


def play(rules: Rules, seed: int, agent: str = "random", first_dealer: int = 1,
         max_deals: int = 40) -> Game:
    """A game played by agents (deals to the target; one deal in the one-deal games)."""
    game = Game(rules, seed=seed, first_dealer=first_dealer)
    agents = [make_agent(agent, seed=seed * 10 + k) for k in range(rules.nplayers)]
    for _ in range(max_deals):
        state = game.state
        while not state.is_terminal():
            seat = state.current_player()
            state.apply(agents[seat].act(state.observation(seat)))
        if game.is_over():
            break
        game.next_deal()
    return game


@functools.cache
def played(config: int, seed: int = 1, agent: str = "random") -> Game:
    name, opts = CONFIGS[config]
    return play(Rules.preset(name, **opts), seed, agent)


@functools.cache
def one_deal_games(count: int = 3) -> list[Game]:
    """Rubicon games dealt in turn, as a record of several one-deal games holds them."""
    return [play(Rules.preset("rubicon"), 20 + k, first_dealer=(1 + k) % 2)
            for k in range(count)]


def record_of(game: Game) -> dict[str, Any]:
    out: dict[str, Any] = json.loads(json.dumps(game.to_record()))
    return out


def expected_game(games: list[Game]) -> dict[str, Any]:
    """What ``game`` of ``replay --json`` must say of these games' deals (one game, or one-deal
    games in turn): the settled values summed, or the seats' (sides') totals and the winner."""
    last = games[-1]
    if last.rules.settlement != "portland":
        assert len(games) == 1
        return {"scores": list(last.state.side_scores()), "winner": last.winner}
    values = [0] * last.rules.nplayers
    for g in games:
        settled = g.state.settlement()
        if settled.winner >= 0:
            values[settled.winner] += settled.value
    leaders = [i for i, v in enumerate(values) if v == max(values)]
    return {"scores": values, "winner": leaders[0] if len(leaders) == 1 else None}


def run(*args: str) -> Any:
    return CliRunner().invoke(main, list(args))


def write(tmp_path: Path, data: Any, name: str = "game.json") -> Path:
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return path


def replay_json(path: Path, *flags: str) -> dict[str, Any]:
    r = run("replay", str(path), "--json", *flags)
    assert r.exit_code == 0, r.output
    out: dict[str, Any] = json.loads(r.stdout)
    return out


def refused(path: Path, *words: str) -> str:
    """The one line ``bezique replay`` prints for a record it refuses (with and without
    ``--json``), checked for ``words``; the library refuses it with a RecordError too."""
    for flags in ([], ["--json"]):
        r = run("replay", str(path), *flags)
        assert r.exit_code == 2, (flags, r.output)
        assert r.stdout == ""
        lines = r.stderr.splitlines()
        assert len(lines) == 1 and lines[0].startswith("bezique: error: "), r.stderr
        for w in words:
            assert w in lines[0], lines[0]
    with pytest.raises(RecordError):
        replay(load_record(path))
    return str(lines[0])


# ------------------------------------------------------------------ real records replay exactly


@pytest.mark.parametrize("config", range(len(CONFIGS)), ids=IDS)
def test_a_real_record_of_every_preset_replays_to_the_games_result(
        tmp_path: Path, config: int) -> None:
    game = played(config)
    path = write(tmp_path, {**record_of(game), "players": ["Ann", "Bob", "Cy", "Di"][
        :game.rules.nplayers]})
    out = replay_json(path)
    assert len(out["deals"]) == len(game.all_deals())
    for deal, state, actions in zip(out["deals"], game.all_deals(),
                                    [d["actions"] for d in record_of(game)["deals"]],
                                    strict=True):
        assert [s["action"] for s in deal["steps"]] == actions
        assert all(s["ok"] for s in deal["steps"])
        assert deal["finished"] is True and deal["scores"] == list(state.game_scores)
        if game.rules.settlement == "portland":
            settled = state.settlement()
            assert deal["result"]["value"] == settled.value
            assert deal["result"]["winner"] == (settled.winner if settled.winner >= 0 else None)
    assert out["game"] == expected_game([game])
    # the account replays it too, to the same end, with the players' names
    r = run("replay", str(path))
    assert r.exit_code == 0, r.output
    assert "Ann" in r.stdout.splitlines()[-1]
    assert "(the record stops here" not in r.stdout


def test_games_of_heuristic_players_replay_exactly(tmp_path: Path) -> None:
    for config in (0, 5):  # a game of two of several deals; a table of three
        game = played(config, seed=2, agent="heuristic")
        assert replay_json(write(tmp_path, record_of(game)))["game"] == expected_game([game])


def test_a_record_of_several_one_deal_games_dealt_in_turn_sums_them(tmp_path: Path) -> None:
    games = one_deal_games()
    data = game_record(games[0].rules, [g.state for g in games])
    assert [d["dealer"] for d in data["deals"]] == [1, 0, 1]
    out = replay_json(write(tmp_path, data))
    assert out["game"] == expected_game(games)
    assert [d["result"]["value"] for d in out["deals"]] == [
        g.state.settlement().value for g in games]


def test_a_game_saved_in_its_middle_replays_to_where_it_stopped(tmp_path: Path) -> None:
    """The last deal may stop anywhere (a saved game); its replay says so and goes no further."""
    game = played(6)  # four-handed partnership, several deals
    data = record_of(game)
    cut_at = len(data["deals"][-1]["actions"]) // 2
    data["deals"][-1]["actions"] = data["deals"][-1]["actions"][:cut_at]
    path = write(tmp_path, data)
    out = replay_json(path)
    assert out["deals"][-1]["finished"] is False
    assert all(d["finished"] for d in out["deals"][:-1])
    assert out["game"]["winner"] is None
    r = run("replay", str(path))
    assert r.exit_code == 0 and "(the record stops here, after trick" in r.stdout
    data["deals"][-1]["actions"] = []  # saved before its first trick: not "after trick 0"
    r = run("replay", str(write(tmp_path, data)))
    assert r.exit_code == 0 and "(the record stops here, before the first trick)" in r.stdout


def test_legal_lists_hold_each_action_of_a_table_record(tmp_path: Path) -> None:
    game = played(5)
    out = replay_json(write(tmp_path, record_of(game)), "--legal")
    steps = [s for d in out["deals"] for s in d["steps"]]
    assert steps and all(s["legal"] == sorted(s["legal"]) for s in steps)
    canonical = [s for s in steps if s["action"] in s["legal"]]
    assert len(canonical) > len(steps) * 0.9  # the engine writes its records canonically


# ------------------------------------------------------------------ the dealer passes on


def test_two_games_glued_with_the_same_dealer_are_refused(tmp_path: Path) -> None:
    """The known defect: a record of two games that both start with seat 1 dealing."""
    a, b = play(Rules.preset("bezique", target=300), 5), play(Rules.preset("bezique"), 6)
    assert a.all_deals()[-1].dealer == b.all_deals()[0].dealer
    glued = {**record_of(a), "deals": [*record_of(a)["deals"], record_of(b)["deals"][0]]}
    line = refused(write(tmp_path, glued), "deal ", "'dealer' must be", "alternates")
    assert f"deal {len(a.all_deals()) + 1}:" in line
    with pytest.raises(RecordError, match="'dealer' must be"):
        parse_record(glued)


def test_two_one_deal_games_both_dealt_by_one_seat_are_refused(tmp_path: Path) -> None:
    """RULES.md 9.0.1: each deal is a game, and the dealer alternates between them."""
    games = one_deal_games()
    deals = [record_of(games[0])["deals"][0], record_of(games[2])["deals"][0]]  # both seat 1
    data = {**record_of(games[0]), "deals": deals}
    refused(write(tmp_path, data), "deal 2: 'dealer' must be 0 (not 1)", "alternates")


def test_at_a_table_the_deal_passes_to_the_left(tmp_path: Path) -> None:
    game = played(5)  # three-handed
    data = record_of(game)
    assert len(data["deals"]) >= 3
    dealers = [d["dealer"] for d in data["deals"]]
    assert all(b == (a + 1) % 3 for a, b in itertools.pairwise(dealers))
    data["deals"][1], data["deals"][2] = data["deals"][2], data["deals"][1]
    refused(write(tmp_path, data), "deal 2: 'dealer' must be", "passes to the left")


def test_a_later_deal_without_its_dealer_says_the_key_is_missing(tmp_path: Path) -> None:
    data = record_of(played(0))
    assert data["deals"][1]["dealer"] == 0  # the default, 1, would be wrong here
    del data["deals"][1]["dealer"]
    refused(write(tmp_path, data), "deal 2: 'dealer' is missing: it must be 0")


# ------------------------------------------------------------ each deal follows the one before


def test_a_deal_cut_short_with_another_after_it_is_refused(tmp_path: Path) -> None:
    data = record_of(played(0))
    data["deals"][0]["actions"] = data["deals"][0]["actions"][:40]
    refused(write(tmp_path, data), "deal 1: it stops after trick", "yet deal 2 follows")
    with pytest.raises(RecordError, match="deal 1"):
        states_from_record(parse_record(data))


def test_a_refused_action_that_leaves_a_deal_unfinished_is_named(tmp_path: Path) -> None:
    data = record_of(played(6))  # a partnership
    data["deals"][0]["actions"][5] = "play XX"
    refused(write(tmp_path, data), "deal 1: its action 6, 'play XX', is refused",
            "yet deal 2 follows")


def test_a_deal_after_the_game_is_won_is_refused(tmp_path: Path) -> None:
    game = played(1)  # Binocle to 600
    assert game.winner is not None
    data = record_of(game)
    more = play(Rules.preset("binocle", target=600), 9,
                first_dealer=(game.state.dealer + 1) % 2).to_record()["deals"][0]
    data["deals"].append(more)
    refused(write(tmp_path, data), f"deal {len(game.all_deals())}: the game is won",
            f"deal {len(game.all_deals()) + 1} follows")


def test_a_lower_target_written_in_makes_the_later_deals_refused(tmp_path: Path) -> None:
    """A target edited down: the game was won deals before the record ends."""
    data = record_of(played(0))  # to 500, in several deals
    assert len(data["deals"]) >= 2
    data["options"]["target"] = 100
    refused(write(tmp_path, data), "the game is won in this deal")


def test_a_game_from_states_is_dealt_as_next_deal_deals_it() -> None:
    game = played(0)
    deals = game.all_deals()
    assert Game.from_states(game.rules, deals).totals == game.totals
    unfinished = State.new_deal(game.rules, seed=1, dealer=deals[0].dealer)
    with pytest.raises(BeziqueError, match="deal 2 cannot follow deal 1: it is not over"):
        Game.from_states(game.rules, [unfinished, deals[1]])
    with pytest.raises(BeziqueError, match="dealt by seat 0, not 1"):
        Game.from_states(game.rules, [deals[0], deals[0]])
    fresh = State.new_deal(game.rules, seed=1, dealer=deals[1].dealer)  # from 0 to 0
    with pytest.raises(BeziqueError, match="does not start from its totals"):
        Game.from_states(game.rules, [deals[0], fresh])
    over = State.new_deal(game.rules, seed=1, dealer=(deals[-1].dealer + 1) % 2,
                          totals=deals[-1].game_scores)
    with pytest.raises(BeziqueError, match="the game was won in it"):
        Game.from_states(game.rules, [*deals, over])


# ------------------------------------------------------------------ hand edits


def _third_copy(d: dict[str, Any]) -> None:
    deal = d["deals"][0]
    deal["hands"][0][0] = deal["hands"][1][0]  # one card twice more than the pack holds


EDITS: dict[str, tuple[int, Any, tuple[str, ...]]] = {
    # name: (config, edit, words of the message)
    "a wrong card name": (0, lambda d: d["deals"][0]["hands"][0].__setitem__(0, "ZZ"),
                          ("deal 1", "'ZZ' is not a card")),
    "a card twice too many": (0, _third_copy, ("deal 1", "too many")),
    "a 7th copy in Six-pack": (3, _third_copy, ("deal 1", "too many",
                                                "Six-pack is played with 6 of each card")),
    "a card short in the stock": (2, lambda d: d["deals"][0]["stock"].pop(),
                                  ("deal 1", "the stock has")),
    "a hand of another variant": (0, lambda d: d.update(variant="binocle"),
                                  ("deal 1", "binocle deals 12")),
    "no hands": (4, lambda d: d["deals"][0].pop("hands"), ("deal 1", "'hands'")),
    "no deals": (0, lambda d: d.pop("deals"), ("'deals'",)),
    "a dealer as text": (5, lambda d: d["deals"][0].update(dealer="2"),
                         ("deal 1: 'dealer' must be 0 or 1 or 2",)),
    "a seat past the table": (6, lambda d: d["deals"][0].update(dealer=4),
                              ("'dealer' must be 0 or 1 or 2 or 3",)),
    "a turn-up in Six-pack": (3, lambda d: d["deals"][0].update(turnup=d["deals"][0]["stock"]
                                                                .pop()), ("no turn-up",)),
    "no turn-up in Bezique": (0, lambda d: d["deals"][0].update(turnup=None), ("'turnup'",)),
    "a deal that is no object": (0, lambda d: d["deals"].__setitem__(1, "deal two"),
                                 ("deal 2: a deal must be an object",)),
    "actions as one text": (7, lambda d: d["deals"][0].update(actions="play AS"),
                            ("deal 1: 'actions' must be a list",)),
    "a hand too many": (8, lambda d: d["deals"][0]["hands"].append([]),
                        ("'hands' must be a list of 4 hands",)),
    "an option of another variant": (2, lambda d: d["options"].update(target=1000),
                                     ("'target' does not apply to rubicon",)),
    "the cut bonus without its guess": (3, lambda d: d["deals"][0].pop("guess"),
                                        ("deal 1: 'guess' is missing",)),
    "a cut out of range": (3, lambda d: d["deals"][0].update(cut=5), ("deal 1", "cut")),
    "a full-width card": (0, lambda d: d["deals"][0]["hands"][1].__setitem__(0, "ＡＳ"),
                          ("'ＡＳ' is not a card",)),
}


@pytest.mark.parametrize("edit", list(EDITS))
def test_a_hand_edit_is_refused_with_one_line(tmp_path: Path, edit: str) -> None:
    config, change, words = EDITS[edit]
    data = record_of(played(config))
    change(data)
    refused(write(tmp_path, data), *words)


@pytest.mark.parametrize("text, words", [
    ("", "is empty"),
    ("  \n", "is empty"),
    ("{\"variant\": \"bezique\", \"deals\": [", "is not valid JSON"),
    ("\x00\x01garbage", "is not valid JSON"),
    ("[]", "a record must be a JSON object"),
])
def test_a_file_that_is_no_record_is_refused(tmp_path: Path, text: str, words: str) -> None:
    refused(write(tmp_path, text), words)


def test_a_directory_and_a_missing_file_are_refused(tmp_path: Path) -> None:
    refused(tmp_path, "cannot read")
    refused(tmp_path / "nothing.json", "cannot read", "No such file")
    with pytest.raises(RecordError, match="named by a path"):
        load_record("")


def test_the_replays_own_output_is_not_taken_for_a_record(tmp_path: Path) -> None:
    out = replay_json(write(tmp_path, record_of(played(0))))
    refused(write(tmp_path, out, "out.json"), "what 'bezique replay --json' prints")


def test_numbers_carried_in_a_record_are_not_believed(tmp_path: Path) -> None:
    """A record has no scores: a result or totals written into it (by hand, or by another
    program) are ignored, and the replay gives what the play scores."""
    game = played(2)  # Rubicon
    data = record_of(game)
    data["game"] = {"scores": [0, 99999], "winner": 1}
    data["deals"][0].update(scores=[1, 2], result={"winner": 1, "value": 99999})
    assert replay_json(write(tmp_path, data))["game"] == expected_game([game])


def test_a_file_over_the_size_bound_is_refused_from_a_pipe_too(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A pipe has no size to look at first (``bezique replay <(...)``, /dev/zero): at most the
    bound is read."""
    monkeypatch.setattr("bezique.record.MAX_BYTES", 2_000_000)
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)

    def feed() -> None:
        try:
            with open(fifo, "wb") as f:
                for _ in range(300):
                    f.write(b" " * 10_000)
        except BrokenPipeError:
            pass

    writer = threading.Thread(target=feed, daemon=True)
    writer.start()
    r = run("replay", str(fifo))
    writer.join(timeout=30)
    assert r.exit_code == 2 and r.stderr.strip().endswith("is over 2 MB: not a record")


def test_a_record_read_from_a_pipe_keeps_its_players_names(tmp_path: Path) -> None:
    """The file is read once.  It was read twice (the names again): a named pipe opened again
    waited for a writer for ever, and a pipe of ``<(...)`` read again was empty, so the names
    were lost."""
    data = {**record_of(played(0)), "players": ["Ann", "Bob"]}
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    writer = threading.Thread(target=lambda: fifo.write_text(json.dumps(data)), daemon=True)
    writer.start()
    # should the pipe be opened a second time, an empty writer ends the wait (and the test fails)
    rescue = threading.Timer(30, lambda: fifo.write_bytes(b""))
    rescue.daemon = True
    rescue.start()
    r = run("replay", str(fifo))
    rescue.cancel()
    writer.join(timeout=30)
    assert r.exit_code == 0, r.output
    assert r.stdout.splitlines()[-1].startswith("Game: Ann ")


def test_a_record_saved_with_a_byte_order_mark_keeps_its_names(tmp_path: Path) -> None:
    """Some editors (Notepad) begin a UTF-8 file with a byte-order mark."""
    data = {**record_of(played(2)), "players": ["Zoë", "名前"]}
    path = tmp_path / "bom.json"
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps(data, ensure_ascii=False).encode())
    r = run("replay", str(path))
    assert r.exit_code == 0, r.output
    assert "Zoë" in r.stdout.splitlines()[-1] and "名前" in r.stdout.splitlines()[-1]


def test_the_library_refuses_what_is_no_record_with_its_own_error() -> None:
    bad: Any
    for bad in (None, {"deals": []}, "game.json"):
        with pytest.raises(RecordError, match="needs a Record"):
            replay(bad)
        with pytest.raises(RecordError, match="needs a Record"):
            states_from_record(bad)
    with pytest.raises(RecordError, match="its deals"):
        game_result(Rules.preset("bezique"), [])


# ------------------------------------------------------------------ invariants (hypothesis)


QUICK = [0, 1, 2, 5, 6, 7]  # the configs of CONFIGS quick enough to play many times


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(config=st.sampled_from(QUICK), seed=st.integers(0, 10**6))
def test_any_played_game_replays_to_its_own_result(config: int, seed: int) -> None:
    name, opts = CONFIGS[config]
    game = play(Rules.preset(name, **opts), seed, first_dealer=seed % (4 if "4" in name else
                                                                       3 if "3" in name else 2))
    data = record_of(game)
    out = replay(parse_record(data))
    assert out["game"] == expected_game([game])
    assert [s.game_scores for s in states_from_record(parse_record(data))] == [
        s.game_scores for s in game.all_deals()]


BASES = [0, 2, 5, 6]  # several deals of two; Rubicon; a table of three; a partnership
ODD: list[Any] = [None, True, 0, 1, 2, 5, -1, 1.5, "", "AS", "QS*", "play AS", "pass", [], {},
                  ["AS"], "Q♠", "ＡＳ", 2**70]


def _mutate(data: dict[str, Any], draw: Any) -> None:
    """One hand edit; on a record an earlier edit already broke, an edit that no longer fits
    (a deal that is no object, actions that are no list) does nothing."""
    with contextlib.suppress(KeyError, IndexError, TypeError, AttributeError):
        _edit(data, draw)


def _edit(data: dict[str, Any], draw: Any) -> None:
    deals = data["deals"]
    i = draw(st.integers(0, len(deals) - 1))
    deal = deals[i]
    kind = draw(st.sampled_from(["value", "drop key", "cut actions", "swap deals", "dealer",
                                 "drop deal", "repeat deal", "move card", "edit action",
                                 "option"]))
    if kind == "value":
        key = draw(st.sampled_from(["dealer", "hands", "turnup", "stock", "actions"]))
        deal[key] = draw(st.sampled_from(ODD))
    elif kind == "drop key":
        deal.pop(draw(st.sampled_from(["dealer", "hands", "turnup", "stock", "actions"])), None)
    elif kind == "cut actions":
        deal["actions"] = deal["actions"][:draw(st.integers(0, len(deal["actions"])))]
    elif kind == "swap deals" and len(deals) > 1:
        j = draw(st.integers(0, len(deals) - 1))
        deals[i], deals[j] = deals[j], deals[i]
    elif kind == "dealer":
        deal["dealer"] = draw(st.integers(0, 3))
    elif kind == "drop deal" and len(deals) > 1:
        del deals[i]
    elif kind == "repeat deal":
        deals.insert(i, copy.deepcopy(deal))
    elif kind == "move card" and deal["stock"]:
        hand = deal["hands"][draw(st.integers(0, len(deal["hands"]) - 1))]
        a, b = draw(st.integers(0, len(hand) - 1)), draw(st.integers(0, len(deal["stock"]) - 1))
        hand[a], deal["stock"][b] = deal["stock"][b], hand[a]
    elif kind == "edit action" and deal["actions"]:
        k = draw(st.integers(0, len(deal["actions"]) - 1))
        deal["actions"][k] = draw(st.sampled_from(["pass", "play AS", "seven", "exchange",
                                                   "meld KS QS", "play 7H", "carte", "offer",
                                                   "", "guess 20", "play " + "9" * 300]))
    elif kind == "option":
        data["options"] = {**(data.get("options") or {}),
                           draw(st.sampled_from(["target", "last_trick", "brisques",
                                                 "partnership"])): draw(st.sampled_from(ODD))}


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(base=st.sampled_from(BASES), data=st.data())
def test_an_edited_record_is_refused_in_one_line_or_replays_to_a_whole_game(
        tmp_path_factory: pytest.TempPathFactory, base: int, data: Any) -> None:
    record = record_of(played(base))
    for _ in range(data.draw(st.integers(1, 3))):
        _mutate(record, data.draw)
    try:
        parsed = parse_record(record)
        deals = replay_deals(parsed)
    except RecordError as e:
        assert str(e) and "\n" not in str(e) and len(str(e)) < 400, str(e)
        parsed = None
    if parsed is not None:
        rules = parsed.rules
        n = rules.nplayers
        assert [d.dealer for d in parsed.deals[1:]] == [
            (d.dealer + 1) % n for d in parsed.deals[:-1]]
        assert all(rd.state.is_terminal() for rd in deals[:-1])
        if rules.settlement != "portland":
            assert all(rd.state.winner is None for rd in deals[:-1])
            assert game_result(rules, deals)["scores"] == list(deals[-1].state.side_scores())
        assert [len(rd.steps) for rd in deals] == [len(d.actions) for d in parsed.deals]
    # and the command says the same, in one line or a whole replay
    path = write(tmp_path_factory.mktemp("edit"), record)
    r = run("replay", str(path), "--json")
    if parsed is None:
        assert r.exit_code == 2 and len(r.stderr.splitlines()) == 1, r.output
    else:
        assert r.exit_code == 0, r.output
        assert json.loads(r.stdout)["game"] == game_result(parsed.rules, deals)
        told = run("replay", str(path))
        assert told.exit_code == 0, told.output
