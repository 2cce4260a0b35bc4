"""Read-only views of a game for clients, scoring and verification."""

from __future__ import annotations


def acting_players(state) -> list:
    out = []
    for entity in state.round.active_entities():
        player = entity if entity.is_player else entity.player
        if player is not None and player.id not in out:
            out.append(player.id)
    if not out:
        out = [p.id for p in state.players if not p.bankrupt]
    return out


def controller_of(state, action: dict):
    kind = action.get("entity_type")
    try:
        entity = state.entity_for(kind, action.get("entity"))
    except Exception:
        return None
    player = entity if entity.is_player else entity.player
    return player.id if player is not None else None


def legal_actions(state) -> list:
    out = []
    for entity in state.round.active_entities():
        types = state.round.actions_for(entity)
        player = entity if entity.is_player else entity.player
        entry = {"entity": entity.id, "entity_type": entity_type(entity), "player": player.id if player else None,
                 "types": types}
        step = state.round.active_step()
        if step is not None and hasattr(step, "choices"):
            entry.update(step.choices(entity))
        out.append(entry)
    return out


def entity_type(entity) -> str:
    if entity.is_player:
        return "player"
    if entity.is_corporation:
        return "corporation"
    if entity.is_company:
        return "company"
    return "minor"


def holdings(holder, corporation) -> list:
    shares = holder.shares_by_corporation.get(corporation, [])
    return [sum(s.percent for s in shares), len(shares), any(s.president for s in shares), [s.index for s in shares]]


def state_fingerprint(state) -> dict:
    """The state that matters for play, compactly (equal games give equal fingerprints)."""
    return {
        "round": state.round.label, "phase": state.phase.name, "bank": state.bank.cash,
        "finished": state.finished,
        "players": [[str(p.id), p.cash, [c.id for c in p.companies],
                     {c.id: holdings(p, c)[3] for c in p.shares_by_corporation if p.shares_by_corporation[c]}]
                    for p in state.players],
        "corporations": [[c.id, c.cash, c.share_price.id if c.share_price else None,
                          [t.id for t in c.trains], len(c.loans),
                          [t.hex.id if t.hex else None for t in c.tokens]] for c in state.corporations],
        "companies": [[c.id, c.owner.id if c.owner is not None else None, c.closed] for c in state.companies],
        "depot": [t.id for t in state.depot.upcoming],
        "tiles": state.board.view()["tiles"] if state.board is not None and hasattr(state.board, "view") else None,
        "active": [e.id for e in state.round.active_entities()],
    }


def game_view(game) -> dict:
    state = game.state
    return {"title": game.title, "game_id": game.game_id, "seq": game.seq, "round": state.round.label,
            "round_kind": state.round.kind, "phase": state.phase.name, "finished": state.finished,
            "game_end_reason": state.game_end_reason, "result": game.result,
            "acting": acting_players(state), "legal_actions": legal_actions(state)}
