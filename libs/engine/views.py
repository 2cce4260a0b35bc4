"""Read-only views of a game for clients, scoring and verification."""

from __future__ import annotations

from .errors import GameError


def entity_type(entity) -> str:
    if entity.is_player:
        return "player"
    if entity.is_corporation:
        return "corporation"
    if entity.is_company:
        return "company"
    return "minor"


def _player_of(entity):
    if entity is None:
        return None
    return entity if entity.is_player else entity.player


def acting_players(state) -> list:
    out = []
    if not state.finished:
        for entity in state.round.active_entities():
            player = _player_of(entity)
            if player is not None and player.id not in out:
                out.append(player.id)
    return out


def controller_of(state, action: dict):
    """The id of the player whose seat may submit ``action`` (None if nobody controls its entity)."""
    try:
        entity = state.entity_for(action.get("entity_type"), action.get("entity"))
    except Exception:
        return None
    player = _player_of(entity)
    return player.id if player is not None else None


# Available at any time, so not listed per entity: chat and log lines, programmed actions, and
# ending the game by agreement (which the platform leaves to the game's operator).
ALWAYS_AVAILABLE = frozenset({"message", "log", "end_game", "program_auction_bid", "program_buy_shares",
                              "program_independent_mines", "program_merger_pass", "program_harzbahn_draft_pass",
                              "program_share_pass", "program_close_pass", "program_disable"})


def legal_actions(state) -> list:
    """For each entity that may act now — the ones the game waits for, and private companies (and
    minors) whose powers their owner may use now — the action types it may take and the choices a
    client needs (for a tile lay the hexes, ``lay_hexes``; a hex's tiles: ``tile_lays``)."""
    if state.finished:
        return []
    out = []
    entities = list(state.round.active_entities())
    waited_for = set(entities)
    players = {_player_of(e) for e in entities} - {None}
    # a step may show a player as waited for while the action is his corporation's (e.g. placing a
    # home token): the entity that acts is listed too
    step = state.round.active_step()
    acting = step.current_entity() if step is not None else None
    shown_for = None
    if acting is not None and acting not in entities and not acting.is_player:
        entities.append(acting)
        shown_for = _player_of(acting)
    extras = []
    for company in state.companies + state.minors:
        if not company.closed and company.owner is not None and _player_of(company) in players \
                and company not in entities:
            extras.append(company)
    entities.extend(extras)
    for entity in entities:
        types = [t for t in state.round.actions_for(entity) if t not in ALWAYS_AVAILABLE]
        if not types and (entity in extras or entity is shown_for):
            continue
        player = _player_of(entity)
        entry = {"entity": entity.id, "entity_type": entity_type(entity),
                 "player": player.id if player is not None else None, "types": types}
        for step in state.round.steps:   # the steps actions_for asks: up to the blocking one
            if not step.active():
                continue
            offered = set(step.actions(entity)) - {"pass"}
            if offered and hasattr(step, "choices"):
                for key, value in step.choices(entity).items():
                    entry.setdefault(key, value)
            if step.blocking():
                break
        choices = [v for k, v in entry.items() if k not in ("entity", "entity_type", "player", "types")]
        if entity in extras and choices and not any(choices) and entity not in waited_for:
            continue   # a company power with nothing it could do right now
        out.append(entry)
    return out


def tile_lays(state, entity_type, entity_id, hex_id=None) -> list:
    """The tiles an entity may lay now on hex ``hex_id`` (one of its legal actions' ``lay_hexes``):
    [{"hex", "tile", "rotations", "cost"?}], every rotation previewed against the track restriction;
    on every hex offered when ``hex_id`` is None (the cost of walking the network for every tile and
    rotation of the map, which the legal actions leave to this request). Empty when the entity may
    not lay track now."""
    entity = state.entity_for(entity_type, entity_id)
    if hex_id is not None and (not isinstance(hex_id, str) or state.board.hex_by_id(hex_id) is None):
        raise GameError(f"Unknown hex: {hex_id!r}")
    if state.finished or "lay_tile" not in state.round.actions_for(entity):
        return []
    for step in state.round.steps:   # the step that offers the lay, as legal_actions finds it
        if not step.active():
            continue
        if "lay_tile" in step.actions(entity) and hasattr(step, "tile_lays"):
            if hex_id is not None:
                return step.tile_lays(entity, state.board.hex_by_id(hex_id))
            return [lay for h in step.lay_hexes(entity) for lay in step.hex_lays(entity, h)]
        if step.blocking():
            break
    return []


def holdings(holder, corporation) -> list:
    """[percent, certificates, president's?, share indexes] of ``holder``'s shares of ``corporation``."""
    shares = holder.shares_by_corporation.get(corporation, ())
    percent, president, indexes = 0, False, []
    for share in shares:
        percent += share.percent
        president = president or share.president
        indexes.append(share.index)
    return [percent, len(shares), president, indexes]


def _indexes(holder, corporation) -> list:
    return [s.index for s in holder.shares_by_corporation.get(corporation, ())]


def _price(price):
    return None if price is None else {"price": price.price, "cell": price.id}


def state_fingerprint(state, map_view=None) -> dict:
    """The state that matters for play, compactly (equal games give equal fingerprints);
    ``map_view``: the board's view at this position when the caller holds it."""
    if map_view is None and state.board is not None:
        map_view = state.board.view()
    return {
        "round": state.round.label, "phase": state.phase.name, "bank": state.bank.cash,
        "finished": state.finished, "turn": state.turn,
        "players": [[str(p.id), p.cash, p.bankrupt, [c.id for c in p.companies],
                     {c.id: _indexes(p, c) for c in p.shares_by_corporation if p.shares_by_corporation[c]}]
                    for p in state.players],
        "pool": {c.id: _indexes(state.share_pool, c) for c in state.share_pool.shares_by_corporation
                 if state.share_pool.shares_by_corporation[c]},
        "corporations": [[c.id, c.cash, c.share_price.id if c.share_price else None,
                          c.owner.id if c.owner is not None else None,
                          [t.id for t in c.trains], len(c.loans),
                          [t.hex.id if t.hex else None for t in c.tokens], _indexes(c, c)]
                         for c in state.corporations],
        "companies": [[c.id, c.owner.id if c.owner is not None else None, c.closed] for c in state.companies],
        "depot": [t.id for t in state.depot.upcoming] + [t.id for t in state.depot.discarded],
        "map": map_view,
        "active": [e.id for e in state.round.active_entities()],
    }


def player_view(state, p, value: int) -> dict:
    """``value``: the player's value (``Game.player_values``, worked out once per position)."""
    return {
        "id": p.id, "name": p.name, "cash": p.cash, "value": value, "bankrupt": p.bankrupt,
        "certs": state.num_certs(p),
        "companies": [c.id for c in p.companies],
        "shares": {c.id: {"percent": h[0], "certificates": h[1], "president": h[2], "shares": h[3]}
                   for c in p.shares_by_corporation for h in [holdings(p, c)] if h[1]},
    }


def corporation_view(state, c) -> dict:
    ipo = holdings(c, c)
    pool = holdings(state.share_pool, c)
    return {
        "id": c.id, "name": c.full_name, "president": c.owner.id if c.owner is not None else None,
        "cash": c.cash, "share_price": _price(c.share_price), "par_price": _price(c.par_price),
        "ipoed": c.ipoed, "floated": c.floated(), "closed": c.closed,
        "ipo_percent": ipo[0], "market_percent": pool[0],
        "trains": [t.id for t in c.trains], "tokens": [
            {"price": t.price, "hex": t.hex.id if t.hex else None} for t in c.tokens],
        "companies": [x.id for x in c.companies], "loans": len(c.loans),
        "capitalization": c.capitalization, "color": c.color,
    }


def company_view(state, c) -> dict:
    owner = c.owner
    return {"id": c.id, "name": c.name, "value": c.value, "revenue": c.revenue, "closed": c.closed,
            "owner": None if owner is None else owner.id,
            "owner_type": None if owner is None else entity_type(owner) if hasattr(owner, "is_player") else "bank"}


def market_view(state) -> dict:
    return {
        "rows": [[None if cell is None else {"price": cell.price, "cell": cell.id, "types": cell.types,
                                              "corporations": [c.id for c in cell.corporations]}
                  for cell in row] for row in state.market.grid],
        "par_prices": [p.id for p in state.market.par_prices],
    }


def game_view(game, with_legal_actions: bool = True, shared: bool = False) -> dict:
    state = game.state
    values = game.player_values()
    view = {
        "title": game.title, "game_id": game.game_id, "seq": game.seq,
        "round": {"label": state.round.label, "kind": state.round.kind, "name": state.round.name,
                  "step": (state.round.active_step().description if state.round.active_step() else None)},
        "turn": state.turn, "phase": state.phase.name, "bank": state.bank.cash,
        "cert_limit": state.cert_limit(), "finished": state.finished, "game_end_reason": state.game_end_reason,
        "result": game.result,
        "players": [player_view(state, p, values[str(p.id)]) for p in state.players],
        "priority": state.priority_deal_player().id if not state.finished else None,
        "corporations": [corporation_view(state, c) for c in state.corporations],
        "companies": [company_view(state, c) for c in state.companies],
        "market": market_view(state),
        "depot": {"upcoming": [t.id for t in state.depot.upcoming],
                  "available": [{"train": t.id, "price": t.price()} for t in state.depot.depot_trains()],
                  "discarded": [t.id for t in state.depot.discarded]},
        "map": game.map_view(shared=shared),
        "acting": acting_players(state),
        "log_tail": state.log[-20:],
    }
    if with_legal_actions:
        view["legal_actions"] = game.legal_actions(shared=shared)
    return view
