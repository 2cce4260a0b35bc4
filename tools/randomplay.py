"""Random legal play: a game driven only by the choices ``legal_actions()`` offers.

Every offered choice must be accepted, and after every action the game must keep its invariants:
money is neither created nor lost, every corporation's certificates add up to 100%, the holders'
percentages agree with the certificates they hold, and replaying the game's own log (its export)
reaches the same state. Used by tests/conformance/test_random_games.py, and by hand for longer runs:

    .venv/bin/python -m tools.randomplay --games 20 --seed 1
"""

from __future__ import annotations

import argparse
import random
import sys

import engine
from engine.views import state_fingerprint


class OfferRefused(AssertionError):
    """An action built from an offered choice was refused."""


def _share_percent(state, share_id) -> int:
    return state.share_by_id(share_id).percent


def candidates(game, entry: dict, rng: random.Random) -> list:
    """Concrete actions for one legal_actions entry, most interesting first (passing last); tile lays
    as a client finds them (the offered hexes, then each hex's tiles and rotations)."""
    state = game.state
    base = {"entity": entry["entity"], "entity_type": entry["entity_type"]}
    types = entry["types"]
    out = []

    def add(action_type, **fields):
        out.append({"type": action_type, **base, **fields})

    if "bid" in types:
        for c in entry.get("companies", []):
            price = c["min_bid"]
            top = entry.get("max_bid", {}).get(c["company"], price)
            step = entry.get("bid_increment", 5)
            if not c.get("may_buy") and top > price and rng.random() < 0.5:
                price += step * rng.randint(0, min(4, (top - price) // step))
            if price <= top:
                add("bid", company=c["company"], price=price)
    for p in entry.get("par", []) if "par" in types else []:
        add("par", corporation=p["corporation"], share_price=rng.choice(p["share_prices"]))
    for b in entry.get("buy_shares", []) if "buy_shares" in types else []:
        shares = b["shares"] if "shares" in b else [b["share"]]
        add("buy_shares", shares=shares, percent=sum(_share_percent(state, x) for x in shares))
    if "sell_shares" in types:
        for s in entry.get("sell_shares", []):
            add("sell_shares", shares=s["shares"], percent=s["percent"])
    for s in entry.get("emergency_sales", []):   # the president sells for the corporation
        out.append({"type": "sell_shares", "entity": s["entity"], "entity_type": s["entity_type"],
                    "shares": s["shares"], "percent": s["percent"]})
    for h in entry.get("lay_hexes", []) if "lay_tile" in types else []:
        for t in game.tile_lays(entry["entity"], entry["entity_type"], h):
            add("lay_tile", hex=t["hex"], tile=t["tile"], rotation=rng.choice(t["rotations"]))
    for c in entry.get("cities", []) if "place_token" in types else []:
        add("place_token", city=c["city"], **({"slot": c["slot"]} if "slot" in c else {}))
    if "run_routes" in types:
        corporation = state.corporation_by_id(entry["entity"])
        add("run_routes", routes=state.best_routes(corporation))
    if "dividend" in types:
        for kind in entry.get("dividend_options", {}):
            add("dividend", kind=kind)
    if "buy_train" in types:
        for t in entry.get("trains", []):
            if "price" in t:
                add("buy_train", train=t["train"], price=t["price"], variant=t["variant"])
            elif t["max_price"] >= t["min_price"]:
                add("buy_train", train=t["train"], price=rng.randint(t["min_price"], t["max_price"]),
                    variant=t["variant"])
        for x in entry.get("exchanges", []):
            add("buy_train", train=x["train"], price=x["price"], variant=x["variant"], exchange=x["exchange"])
    if "take_loan" in types and "take_loan" in entry:
        add("take_loan", loan=entry["take_loan"]["loan"])
    if "payoff_loan" in types and "payoff_loan" in entry:
        add("payoff_loan", loan=entry["payoff_loan"]["loan"])
    if "buy_company" in types:
        for c in entry.get("companies", []):
            price = c["price"] if "price" in c else rng.randint(c["min_price"], c["max_price"])
            add("buy_company", company=c["company"], price=price)
    for corporation in entry.get("convert", []) if "convert" in types else []:
        out.append({"type": "convert", "entity": corporation, "entity_type": "corporation"})
    for choice in entry.get("choices", []) if "choose" in types else []:
        add("choose", choice=choice)
    for x in entry.get("exchange", []) if "buy_shares" in types else []:   # a private for a share
        add("buy_shares", shares=x["shares"], percent=x["percent"])
    for t in entry.get("scrap_train", []) if "scrap_train" in types else []:
        add("scrap_train", train=t)
    for h in entry.get("hexes", []) if "remove_hex_token" in types else []:
        add("remove_hex_token", hex=h["hex"])
    for h in entry.get("assign_hexes", []) if "assign" in types else []:
        add("assign", target=h, target_type="hex")
    for item in entry.get("special_buy", []) if "special_buy" in types else []:
        add("special_buy", description=item["description"], cost=item["cost"])
    if "merge" in types and "merge" in entry:
        merges = entry["merge"] if isinstance(entry["merge"], list) else [entry["merge"]]
        for m in merges:
            add("merge", corporation=m["corporation"])
    for kind in ("choose", "choose_ability"):
        for choice in entry.get(kind, {}) if kind in types else ():
            add(kind, choice=choice)
    for c in entry.get("acquire_company", []) if "acquire_company" in types else []:
        add("acquire_company", company=c)
    if "hex_token" in types and entry.get("hex_token"):
        add("hex_token", hex=entry["hex_token"]["hex"], token_type="destination")
    if "payoff_player_debt" in types:
        add("payoff_player_debt")
    for t in entry.get("discard_train", []) if "discard_train" in types else []:
        add("discard_train", train=t)
    for t in entry.get("borrow_train", []) if "borrow_train" in types else []:
        add("borrow_train", train=t)
    for r in entry.get("remove_token", []) if "remove_token" in types else []:
        add("remove_token", city=r["city"], slot=r["slot"])
    if "bankrupt" in types:
        add("bankrupt")
    rng.shuffle(out)
    if "pass" in types:
        add("pass")
    return out


def other_holders(state) -> list:
    """Holders of cash and shares besides the bank, the market, the players and the corporations."""
    return state.extra_holders() + [m for m in state.minors if m not in state.corporations]


def money_in_play(state) -> int:
    return state.bank.cash + sum(p.cash for p in state.players) + sum(c.cash for c in state.corporations) + \
        sum(h.cash for h in other_holders(state))


def check_invariants(game, total_cash: int) -> None:
    state = game.state
    extra = state.extra_holders()     # (minors hold cash, not shares)
    cash = money_in_play(state)
    assert cash == total_cash, f"money changed: {cash} != {total_cash}"
    holders = [state.share_pool, *state.players, *state.corporations, *extra]
    for corp in state.corporations:
        shares = [s for h in holders for s in h.shares_by_corporation.get(corp, [])]
        expected = 100
        if getattr(state, "false_national_president", None) is not None and corp is state.national:
            # 1856: a president awarded one share holds half the president's certificate until he buys
            # the other half in the next stock round (the rules' missing share).
            expected -= corp.presidents_share.percent
        assert sum(s.percent for s in shares) == expected, \
            f"{corp.id} certificates add up to {sum(s.percent for s in shares)}"
        for s in shares:
            assert s.owner in holders and s in s.owner.shares_by_corporation[corp]
        for holder in holders:
            listed = sum(s.percent for s in holder.shares_by_corporation.get(corp, []))
            assert corp.share_holders.get(holder, 0) == listed, f"{corp.id}: {holder} holds {listed}"


# How a "builder" player ranks choices: grow the railways, keep paying out, avoid selling.
PREFERENCE = ["par", "buy_shares", "lay_tile", "place_token", "remove_hex_token", "run_routes", "buy_train",
              "dividend", "choose", "assign", "special_buy", "merge", "borrow_train", "discard_train", "remove_token",
              "bid", "convert", "payoff_loan", "buy_company", "scrap_train", "pass", "take_loan", "sell_shares",
              "bankrupt"]


def builder_order(state, options: list, rng: random.Random) -> list:
    def rank(a):
        r = PREFERENCE.index(a["type"]) if a["type"] in PREFERENCE else len(PREFERENCE)
        if a["type"] == "dividend":   # keep money for the next train while the treasury is thin
            corp = state.corporation_by_id(a["entity"])
            thin = corp is not None and corp.cash < 250
            r += 0.5 if (a.get("kind") == "payout") == thin else -0.5
        if a["type"] == "buy_company" and a["entity_type"] == "player":
            r = PREFERENCE.index("pass") + 0.5   # players trading companies back and forth never end a round
        if a["type"] == "buy_train":  # the cheapest train from the depot first
            train = state.train_by_id(a["train"])
            r += 0.0 if train is not None and train.from_depot() else 2.0
            r += a["price"] / 10000
        return (r, rng.random())
    return sorted(options, key=rank)


def play(seed: int, players: int = 4, max_actions: int = 1500, undo_rate: float = 0.01, style: str = "random",
         title: str = "1856", optional_rules=()):
    """One game of ``title`` by random ("random") or railway-building ("builder") players; returns (game,
    number of actions). Raises OfferRefused or AssertionError."""
    rng = random.Random(seed)
    names = [{"id": i + 1, "name": f"P{i + 1}"} for i in range(players)]
    game = engine.new_game(title, names, seed=seed, optional_rules=optional_rules)
    total = money_in_play(game.state)
    play.last_game = game     # for inspecting a failed game
    for _ in range(max_actions):
        if game.finished:
            break
        legal = game.legal_actions()
        assert legal, (f"nobody may act in {game.round_label} ({game.state.round.active_step()}, finished round: "
                       f"{game.state.round.finished()}); log: {game.state.log[-8:]}")
        if rng.random() < undo_rate and game.seq > 0:
            before = state_fingerprint(game.state)
            game.process({"type": "undo", "entity": names[0]["id"], "entity_type": "player"})
            game.process({"type": "redo", "entity": names[0]["id"], "entity_type": "player"})
            assert state_fingerprint(game.state) == before, "undo then redo changed the game"
        entry = legal[0] if rng.random() < 0.8 else rng.choice(legal)
        options = candidates(game, entry, rng)
        assert options, (f"no concrete action for {entry} in {game.round_label} "
                         f"({game.state.round.active_step()}); log: {game.state.log[-6:]}")
        if style == "builder":
            options = builder_order(game.state, options, rng)
        action = options[0] if rng.random() < (0.9 if style == "builder" else 0.7) else rng.choice(options)
        try:
            game.process(action)
        except engine.GameError as err:
            raise OfferRefused(f"offered {action} refused in {game.round_label}: {err.reason}") from None
        check_invariants(game, total)
    again = engine.import_game(game.export())
    assert again.digest() == game.digest(), "replaying the export reached another state"
    return game, game.seq


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--title", default="1856")
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--players", type=int, default=0, help="0: vary over the title's player counts")
    ap.add_argument("--style", choices=("random", "builder"), default="random")
    ap.add_argument("--rule", action="append", default=[], help="an optional rule (repeatable)")
    args = ap.parse_args(argv)
    failures = 0
    info = next(t for t in engine.list_titles() if t["slug"] == args.title or t["title"] == args.title)
    low, high = info["min_players"], info["max_players"]
    for i in range(args.games):
        seed = args.seed + i
        players = args.players or low + seed % (high - low + 1)
        try:
            game, n = play(seed, players, style=args.style, title=args.title, optional_rules=args.rule)
            print(f"seed {seed} ({players} players): {n} actions, {game.round_label}, phase {game.state.phase.name}, "
                  f"finished={game.finished} {game.game_end_reason or ''}", flush=True)
        except AssertionError as err:
            failures += 1
            print(f"seed {seed} ({players} players): FAILED: {err}", flush=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
