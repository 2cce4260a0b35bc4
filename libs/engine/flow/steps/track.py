"""Laying track: the operating corporation's tile lays, and private companies' special lays."""

from __future__ import annotations

from ...errors import GameError
from ..step import Step

UPGRADE_COLORS = ("green", "brown", "gray")


class TrackerMixin:
    """Tile-lay rules shared by the track step and special (private company) lays."""

    def round_state(self):
        return {"num_laid_track": 0, "upgraded_track": False, "num_upgraded_track": 0, "laid_hexes": []}

    def setup(self):
        self.round.num_laid_track = 0
        self.round.num_upgraded_track = 0
        self.round.upgraded_track = False
        self.round.laid_hexes = []

    @property
    def board(self):
        return self.game.board

    def tile_lay_corporation(self, entity):
        return entity.owner if entity.is_company else entity

    def get_tile_lay(self, entity):
        corporation = self.tile_lay_corporation(entity)
        lays = self.game.tile_lays(corporation)
        index = self.round.num_laid_track
        if index >= len(lays):
            return None
        lay = dict(lays[index])
        if lay.get("lay") == "not_if_upgraded":
            lay["lay"] = not self.round.upgraded_track
        if lay.get("upgrade") == "not_if_upgraded":
            lay["upgrade"] = not self.round.upgraded_track
        lay["cost"] = lay.get("cost") or 0
        lay["upgrade_cost"] = lay.get("upgrade_cost", lay["cost"])
        lay["cannot_reuse_same_hex"] = lay.get("cannot_reuse_same_hex") or False
        return lay

    def can_lay_tile(self, entity) -> bool:
        if self.tile_lay_abilities_should_block(entity):
            return True
        if self.can_buy_tile_laying_company(entity, "track"):
            return True
        lay = self.get_tile_lay(entity)
        if lay is None:
            return False
        return bool(entity.tokens) and self.buying_power(entity) >= lay["cost"] and bool(lay["lay"] or lay["upgrade"])

    def tile_lay_abilities(self, entity, **kw):
        kw.setdefault("time", [self.ability_time])
        return self.game.abilities(entity, "tile_lay", **kw)

    def tile_lay_abilities_should_block(self, entity) -> bool:
        # (most entities hold no tile-lay ability at all: one look at what they hold settles it)
        if entity is None or not any(a.type == "tile_lay" for a in entity.all_abilities):
            return False
        found = []
        for time in (self.ability_time, "owning_player_track"):
            found += self.game.abilities(entity, "tile_lay", time=time, passive_ok=False)
        return any(not a.consume_tile_lay for a in found)

    def can_buy_tile_laying_company(self, entity, time) -> bool:
        if entity is not self.current_entity() or "can_buy_companies" not in self.game.phase.status:
            return False
        for company in self.game.purchasable_companies(entity):
            if company.min_price <= self.buying_power(entity) and any(
                    a.type == "tile_lay" and time in a.when for a in company.all_abilities):
                return True
        return False

    def track_upgrade(self, old_tile, new_tile, hex_) -> bool:
        return old_tile.color != "white"

    def lay_tile_action(self, action, entity=None, spender=None):
        tile, hex_ = action.tile, action.hex
        old_tile = hex_.tile
        lay = self.get_tile_lay(action.entity)
        if lay is None:
            raise GameError("No more tile lays this turn")
        if self.track_upgrade(old_tile, tile, hex_) and not lay["upgrade"]:
            raise GameError("Cannot lay an upgrade now")
        if tile.color == "yellow" and not lay["lay"]:
            raise GameError("Cannot lay a yellow tile now")
        if lay["cannot_reuse_same_hex"] and hex_ in self.round.laid_hexes:
            raise GameError(f"{hex_.id} cannot be laid as this hex was already laid on this turn")
        extra = lay["cost"] if tile.color == "yellow" else lay["upgrade_cost"]
        self.lay_tile(action, extra_cost=extra, entity=entity, spender=spender)
        if self.track_upgrade(old_tile, tile, hex_):
            self.round.upgraded_track = True
            self.round.num_upgraded_track += 1
        self.round.num_laid_track += 1
        self.round.laid_hexes.append(hex_)

    def ability_blocking_hex(self, entity, hex_):
        for ability in self.blocking_abilities(entity):
            if self.game.hex_blocked_by_ability(entity, ability, hex_):
                return ability
        return None

    blocking_held = None   # while the lay hexes are listed: (entity, its blocking_abilities)

    def blocking_abilities(self, entity) -> list:
        """The usable ``blocks_hexes`` abilities of the open companies, minors and corporations other
        than ``entity``, in that order (listed once while ``lay_hexes`` looks at every hex)."""
        held = self.blocking_held
        if held is not None and held[0] is entity:
            return held[1]
        game = self.game
        found = [ability for other in game.companies + game.minors + game.corporations
                 if not other.closed and other is not entity for ability in game.abilities(other, "blocks_hexes")]
        if held is not None:
            self.blocking_held = (entity, found)
        return found

    def legal_tile_rotation(self, entity, hex_, tile) -> bool:
        return self.board.legal_tile_rotation(entity, hex_, tile)

    def lay_tile(self, action, extra_cost=0, entity=None, spender=None):
        """Lay ``action.tile`` on ``action.hex`` and pay for it. Checks come first where they can; the
        track-restriction check needs the new tile in place (a rejected action is rolled back whole)."""
        game, board = self.game, self.board
        entity = entity or action.entity
        spender = spender or entity
        tile, hex_, rotation = action.tile, action.hex, action.integer("rotation")
        old_tile = hex_.tile
        if not 0 <= rotation <= 5:
            raise GameError(f"Rotation must be 0 to 5, not {rotation}")
        if not board.tile_available(tile):
            raise GameError(f"Tile {tile.id} is not available")
        if not self.tile_valid_for_phase(entity, tile, hex_):
            raise GameError(f"{tile.color.capitalize()} tiles cannot be laid in phase {game.phase.name}")
        if not game.loading:
            blocking = self.ability_blocking_hex(entity, hex_)
            if blocking is not None:
                raise GameError(f"{hex_.id} is blocked by {blocking.owner.name}")
        board.rotate(tile, rotation)
        if not game.upgrades_to(old_tile, tile, entity.is_company, entity if entity.is_company else None):
            raise GameError(f"{old_tile.name} is not upgradeable to {tile.name}")
        if not game.loading and not self.legal_tile_rotation(entity, hex_, tile):
            raise GameError(f"{old_tile.name} is not legally rotated for {tile.name}")

        board.lay_tile(hex_, tile, rotation)   # (forgets the networks the lay can change)

        free, discount, ability_found = False, 0, False
        discount_abilities = []
        for ability in self.tile_lay_abilities(entity):
            if ability.owner is not entity:
                continue
            if ability.hexes and hex_.id not in ability.hexes:
                continue
            if ability.tiles and tile.name not in ability.tiles:
                continue
            ability_found = True
            if ability.reachable and hex_.id != spender.coordinates and not game.loading and \
                    hex_ not in board.reachable_hexes(spender):
                raise GameError(f"Track laid must be connected to one of {spender.id}'s stations")
            free = free or bool(ability.free)
            discount += ability.discount or 0
            if discount > 0:
                discount_abilities.append(ability)
            extra_cost += ability.cost or 0
        if entity.is_company and not ability_found:
            raise GameError(f"{entity.name} does not have an ability that allows them to lay this tile")
        self.check_track_restrictions(entity, old_tile, tile)

        border_cost = self.border_cost(hex_, tile, entity, spender)
        if free:
            cost = extra_cost
        else:
            base = game.upgrade_cost(old_tile, hex_, entity, spender) + border_cost + extra_cost
            if discount_abilities:
                discount = min(base, discount)
            cost = game.tile_cost_with_discount(tile, hex_, entity, spender, base - discount)
        self.before_tile_cost(spender, cost)
        if cost > 0:
            spender.spend(cost, game.bank)
        company = f" ({entity.sym})" if entity.is_company and spender is not entity else ""
        spent = "" if cost == 0 else f" spends {game.fmt(cost)} and"
        where = f" ({hex_.location_name})" if hex_.location_name else ""
        self.log.append(f"{spender.name}{company}{spent} lays tile #{tile.name} with rotation {rotation} "
                        f"on {hex_.id}{where}")
        self.update_tokens_after_lay(action, entity, tile, old_tile)

    def tile_valid_for_phase(self, entity, tile, hex_) -> bool:
        return self.game.tile_valid_for_phase(tile, hex_)

    def check_track_restrictions(self, entity, old_tile, tile) -> None:
        if not self.game.loading and entity.is_operator:
            self.board.check_track_restrictions(entity, old_tile, tile)

    def border_cost(self, hex_, tile, entity, spender) -> int:
        """Pay-for borders the new tile crosses (removed once crossed)."""
        return self.board.remove_borders(hex_, tile, entity, spender)

    def before_tile_cost(self, spender, cost):
        """Hook: a title may raise money (e.g. a loan) before paying for a tile."""

    def update_tokens_after_lay(self, action, entity, tile, old_tile):
        if old_tile.paths or not tile.paths or len(tile.cities) <= 1:
            return
        tokens = [t for c in tile.cities for t in c.tokens if t is not None]
        for token in tokens:
            actor = entity.owner if entity.is_company else entity
            if self.game.rules["token_placement_on_tile_lay_entity"] == "owner":
                actor = token.corporation
            self.round.pending_tokens.append({"entity": actor, "hexes": [action.hex], "token": token})
            self.log.append(f"{actor.name} must choose city for token")
            token.remove()

    # ---- what a client is offered: hexes first, a hex's tiles and rotations on request
    def offered_hexes(self, entity) -> list:
        """Ids of the hexes where the entity may lay a tile now: those it may build on with at least
        one tile of the supply in a legal rotation it can afford. The track restriction is left to
        ``tile_lays`` (it walks the network for every tile and rotation): a hex whose every lay
        fails it is offered with no tiles."""
        with self.board.supply_unchanged():
            return [h.id for h in self.lay_hexes(entity) if self.hex_lays(entity, h, first=True)]

    def tile_lays(self, entity, hex_) -> list:
        """Every tile the entity may lay on the hex now: [{"hex", "tile", "rotations", ...}], each
        rotation previewed against the track restriction (empty when nothing may be laid)."""
        return self.hex_lays(entity, hex_) if hex_ in self.lay_hexes(entity) else []

    def lay_hexes(self, entity) -> list:
        """The hexes the entity may build on now (what goes there is ``hex_lays``'s)."""
        return []

    def hex_lays(self, entity, hex_, first=False) -> list:
        """The lays of ``tile_lays`` on one of ``lay_hexes``; ``first``: only whether there is one,
        the track restriction and the max-exits rule aside (the first found, or nothing)."""
        return []

    def tracker_available_hex(self, entity, hex_, network=None):
        """The edges of ``hex_`` the entity reaches when it may lay track there now (else None);
        ``network``: its connected hexes, when the caller has them at hand."""
        connected = (self.board.connected_hexes(entity) if network is None else network).get(hex_)
        if connected is None:
            return None
        lay = self.get_tile_lay(entity)
        if lay is None:
            return None
        color = hex_.tile.color
        if color == "white" and not lay["lay"]:
            return None
        if color != "white" and not lay["upgrade"]:
            return None
        if color != "white" and lay["cannot_reuse_same_hex"] and hex_ in self.round.laid_hexes:
            return None
        if self.ability_blocking_hex(entity, hex_) is not None:
            return None
        return connected


class TrackStep(TrackerMixin, Step):
    ACTIONS = ["lay_tile", "pass"]
    ability_time = "track"

    @property
    def description(self):
        lay = self.get_tile_lay(self.current_entity()) if self.current_entity() is not None else None
        if lay is None:
            return "Lay Track"
        if lay["lay"] and lay["upgrade"]:
            return "Lay/Upgrade Track"
        return "Lay Track" if lay["lay"] else "Upgrade Track"

    @property
    def pass_description(self):
        return "Done (Track)" if self.acted else "Skip (Track)"

    def actions(self, entity):
        if entity is not self.current_entity() or entity.is_company or not self.can_lay_tile(entity):
            return []
        return list(self.ACTIONS)

    def process_lay_tile(self, action):
        self.lay_tile_action(action)
        if not self.can_lay_tile(action.entity):
            self.pass_()

    def available_hex(self, entity, hex_):
        return self.tracker_available_hex(entity, hex_)

    def choices(self, entity) -> dict:
        return {"lay_hexes": self.offered_hexes(entity)}

    def lay_hexes(self, entity) -> list:
        if entity is not self.current_entity() or entity.is_company:
            return []
        network = self.board.connected_hexes(entity)
        self.blocking_held = (None, None)
        try:
            return [h for h in network if self.tracker_available_hex(entity, h, network) is not None]
        finally:
            del self.blocking_held

    def hex_lays(self, entity, hex_, first=False) -> list:
        lays = []
        lay = self.get_tile_lay(entity) or {}
        terrain = self.game.upgrade_cost(hex_.tile, hex_, entity)
        power = self.buying_power(entity)
        # (to learn whether anything fits, one rotation per tile will do unless the cost depends on
        # the rotation, which only costed borders make it do: without them no tile is turned)
        turnless = first and not any(b.get("cost") for b in hex_.tile.borders)
        options = self.lay_options(entity, hex_, turnless)
        if not first:
            options = self.board.max_exits_only(hex_.tile, list(options))
        for tile, rotations in options:
            if not self.game.upgrades_to(hex_.tile, tile, False, None):
                continue
            base = terrain + (lay.get("cost", 0) if tile.color == "yellow" else lay.get("upgrade_cost", 0))
            if turnless:
                cost = base + self.preview_border_cost(hex_, tile, entity)
                if cost <= power:
                    return [{"hex": hex_.id, "tile": tile.id, "rotations": rotations[:1], "cost": cost}]
                continue
            keep = tile.rotation
            legal, costs = [], set()
            for r in rotations:
                self.board.rotate(tile, r)
                cost = base + self.preview_border_cost(hex_, tile, entity)
                if cost <= power and (first or self.restriction_problem(entity, hex_, tile) is None):
                    legal.append(r)
                    costs.add(cost)
                    if first:
                        break
            self.board.rotate(tile, keep)
            if legal:
                lays.append({"hex": hex_.id, "tile": tile.id, "rotations": legal, "cost": max(costs)})
                if first:
                    break
        return lays

    def lay_options(self, entity, hex_, first=False):
        """(tile, rotations) the entity might lay on the hex, one tile at a time, before the max-exits
        rule (checks of costs and the track restriction follow; ``first``: only the first legal
        rotation of each tile)."""
        return self.board.lay_candidates(entity, hex_, first=first)

    def preview_border_cost(self, hex_, tile, entity) -> int:
        return self.board.border_cost(hex_, tile, entity)

    def restriction_problem(self, entity, hex_, tile):
        return self.board.track_restriction_problem(entity, hex_, tile)


class SpecialTrackStep(TrackerMixin, Step):
    """Tile lays granted by a private company's ability (in addition to, or instead of, normal lays)."""

    ACTIONS = ["lay_tile"]
    ACTIONS_WITH_PASS = ["lay_tile", "pass"]
    ability_time = "special_track"
    description = "Lay Track for a company"

    def setup(self):
        super().setup()
        self.company = None

    def round_state(self):
        state = {} if hasattr(self.round, "teleported") else {"teleported": None, "teleport_tokener": None}
        state.update(super().round_state())
        return state

    def active_entities(self):
        return [self.company] if self.company is not None else super().active_entities()

    def blocks(self):
        return self.company is not None

    def ability(self, entity, **kw):
        if entity is None or not entity.is_company:
            return None
        game = self.game
        if getattr(self.round, "just_sold_company", None) is entity:
            found = game.abilities(entity, "tile_lay", time="sold", **kw)
            if found:
                return found[0]
        times = ["%current_step%", "owning_corp_or_turn", "owning_player_or_turn", "owning_player_track",
                 "or_between_turns", "stock_round"]
        for kind in ("tile_lay", "teleport"):
            found = game.abilities(entity, kind, time=times, **kw)
            if found and (found[0].type != "teleport" or not found[0].used):
                return found[0]
        return None

    def tile_lay_abilities(self, entity, **kw):
        ability = self.ability(entity)
        return [ability] if ability is not None else []

    def actions(self, entity):
        ability = self.ability(entity)
        if ability is None:
            return []
        if ability.type == "tile_lay" and ability.blocks:
            return list(self.ACTIONS)
        # Passing only ends a company's run of lays that must be laid together.
        return list(self.ACTIONS_WITH_PASS) if entity is self.company else list(self.ACTIONS)

    def choices(self, entity) -> dict:
        ability = self.ability(entity)
        if ability is None or ability.type != "tile_lay":
            return {}
        return {"lay_hexes": self.offered_hexes(entity)}

    def lay_hexes(self, entity) -> list:
        """The hexes the company's ability may lay on now."""
        ability = self.ability(entity)
        if ability is None or ability.type != "tile_lay":
            return []
        if ability.consume_tile_lay and self.get_tile_lay(entity) is None:
            return []   # it uses the corporation's own lay, already taken
        board = self.board
        owner = entity.owner
        hexes = ability.hexes or [h.id for h in board.connected_hexes(owner)] if owner is not None else []
        # a lay that must be reachable joins the owning corporation's network: a hex it reaches, in a
        # rotation whose new track meets that network
        if ability.reachable and owner is not None and owner.is_corporation:
            reach = board.connected_hexes(owner)
            hexes = [h for h in hexes if h == owner.coordinates or board.hex_by_id(h) in reach]
        return [board.hex_by_id(h) for h in hexes]

    def hex_lays(self, entity, hex_, first=False) -> list:
        """Tiles the company's ability may lay on the hex now, with legal rotations."""
        ability = self.ability(entity)
        board, lays = self.board, []
        names = set(ability.tiles or ())
        owner = entity.owner
        connect = ability.reachable and owner is not None and owner.is_corporation
        for tile in board.supply_tiles():
            if names and tile.name not in names:
                continue
            if not self.game.tile_valid_for_phase(tile, hex_) or \
                    not self.game.upgrades_to(hex_.tile, tile, bool(ability.special), entity):
                continue
            rotations = board.legal_rotations(owner if connect and hex_.id != owner.coordinates else entity,
                                              hex_, tile)
            if rotations:
                lays.append({"hex": hex_.id, "tile": tile.id, "rotations": rotations})
                if first:
                    break
        return lays

    def process_lay_tile(self, action):
        ability = self.ability(action.entity)
        if ability is None:
            raise GameError(f"{action.entity.name} cannot lay track now")
        owner_entity = action.entity.owner
        if owner_entity is None:
            spender = None
        elif owner_entity.is_corporation:
            spender = owner_entity
        else:
            spender = self.game.round.current_entity
        if ability.type == "teleport" or (ability.type == "tile_lay" and ability.consume_tile_lay):
            self.lay_tile_action(action, spender=spender)
        else:
            self.lay_tile(action, spender=spender)
            ability.laid_hexes.append(action.hex.id)
            self.round.laid_hexes.append(action.hex)
        ability.use(upgrade=action.tile.color in UPGRADE_COLORS)
        if spender is not None and spender.is_corporation:
            info = spender.operating_history.get((self.game.turn, self.round.round_num))
            if info is not None:
                info["laid_hexes"] = [h.id for h in self.round.laid_hexes]
        if ability.type == "tile_lay":
            if ability.count == 0 and ability.closed_when_used_up:
                company = ability.owner
                self.log.append(f"{company.name} closes")
                company.close()
            if ability.must_lay_together:
                self.company = action.entity if (ability.count or 0) > 0 else None

    def process_pass(self, action):
        entity = action.entity
        ability = self.ability(entity)
        if entity is not self.company:
            raise GameError(f"Not {entity.name}'s turn")
        if ability is not None and ability.must_lay_all and (ability.count or 0) > 0:
            raise GameError(f"{entity.name} must use all its tile lays")
        entity.remove_ability(ability)
        self.log.append(f"{entity.owner.name} passes laying additional track with {entity.name}")
        self.company = None
