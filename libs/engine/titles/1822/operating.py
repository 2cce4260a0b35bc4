"""1822's operating-round steps."""

from __future__ import annotations

from ...board import upgrades as up
from ...board.graph import search
from ...board.parts import own_list
from ...core.entities import Ability, Token
from ...errors import GameError
from ...flow.step import Step
from ...flow.steps import (BuyTrainStep, DividendStep, HomeTokenStep, RouteStep, SpecialTokenStep, SpecialTrackStep,
                           TokenStep, TrackStep)
from ...flow.steps.choices import ChoicesStep, ChooseAbilityMixin
from ...flow.steps.issue import IssueSharesStep
from ...flow.steps.operating import AcquireCompanyStep
from ...flow.steps.track import UPGRADE_COLORS


# ====================================================================== track
class Tracker1822:
    """Track rules of 1822 shared by the track step and private companies' lays."""

    def can_lay_tile(self, entity) -> bool:
        # minor 14's home token in London is its first tile lay
        if entity.is_corporation and entity.id == self.game.facts["minor_14"] and not entity.operated():
            return False
        return super().can_lay_tile(entity)

    def tile_lay_corporation(self, entity):
        return entity if entity.id == "P21" else super().tile_lay_corporation(entity)

    def check_track_restrictions(self, entity, old_tile, tile):
        facts = self.game.facts
        if self.game.loading or not entity.is_operator or \
                tile.hex.id in (facts["english_channel_hex"], facts["cardiff_hex"]):
            return
        super().check_track_restrictions(entity, old_tile, tile)

    def tile_valid_for_phase(self, entity, tile, hex_) -> bool:
        if self.game.loading:
            return True   # recorded lays are not checked against the phase (as the reference replays them)
        operator = entity.owner if entity.is_company else entity
        if operator is not None and operator.is_corporation and operator.type == "minor" and \
                "minors_green_upgrade" in self.game.phase.status:
            return tile.color in self.game.facts["minor_green_upgrade"]
        return super().tile_valid_for_phase(entity, tile, hex_)

    previewing = False    # while offering lays: judge rights as they will be once the lay lapses them

    def rights_owners(self, hex_) -> list:
        blockers = self.blockers_after_lapse(hex_) if self.previewing else self.game.blockers(hex_)
        owners = []
        for blocker in blockers:
            player = getattr(blocker, "player", None)
            if player is not None and player not in owners:
                owners.append(player)
        return owners

    @staticmethod
    def blockers_after_lapse(hex_) -> list:
        """The hex's rights holders once a lay there has lapsed the rights (see before_lay)."""
        blockers = list(hex_.tile.blockers)
        i = 0
        while i < len(blockers):
            blocker = blockers[i]
            if any(a.type == "blocks_hexes_consent" and hex_.id in (a.hexes or ())
                   for a in getattr(blocker, "all_abilities", ()) or ()):
                del blockers[i]
            i += 1
        return blockers

    def rotation_checks(self, entity, hex_):
        """The generic checks, except that a hex whose rights someone holds ignores its track stubs."""
        checks = self.board.rotation_checks
        owners = self.rights_owners(hex_)
        if owners:
            return tuple(c for c in checks if c != "stubs")
        return checks

    def legal_tile_rotation(self, entity, hex_, tile) -> bool:
        facts = self.game.facts
        if hex_.id == facts["s_hex"] and tile.name == facts["s_yellow_tile"] and \
                tile.rotation in facts["s_yellow_rotations"]:
            return True
        operator = entity.owner if entity.is_company else entity
        cache = self.reach_cache
        key = (operator, hex_)
        if cache is not None and key in cache:
            edges = cache[key]
        else:
            edges = self.board.reach_edges(operator, hex_)
            if cache is not None:
                cache[key] = edges
        return up.rotation_problem(hex_, tile, self.rotation_checks(operator, hex_), edges) is None

    reach_cache = None   # while offering lays: the edges the operator reaches, per hex

    def border_cost(self, hex_, tile, entity, spender):
        """Costed borders the new tile's track crosses (toward the neighbour: see
        ``border_paid_one_side``) are paid and removed; the river private pays less for an estuary
        and must cross one, the Humber bridge must cross one."""
        return self._estuary_rules(entity, self.board.remove_borders(hex_, tile, entity, spender))

    def preview_border_cost(self, hex_, tile, entity) -> int:
        try:
            return self._estuary_rules(entity, self.board.border_cost(hex_, tile, entity))
        except GameError:
            return 10 ** 9

    def restriction_problem(self, entity, hex_, tile):
        facts = self.game.facts
        if hex_.id in (facts["english_channel_hex"], facts["cardiff_hex"]):
            return None
        return super().restriction_problem(entity, hex_, tile)

    def lay_options(self, entity, hex_, first=False):
        """Supply tiles of the phase's colours (minors: yellow and green only once they are limited)
        that may replace the hex's tile, in the rotations 1822's track rules allow (one at a time,
        before the max-exits rule; ``first``: the first legal rotation of each)."""
        colors = self.potential_colors(entity)
        board = self.board
        supply = board.supply_tiles()
        allowed, unusual = board.replacements(hex_, colors), board.unusual_supply(supply)
        tiles = (t for t in supply
                 if (t.color in colors and not t.blocks_lay and self.upgradable(hex_, t) if t.name in unusual
                     else t.name in allowed))
        return self.lay_rotations(entity, hex_, tiles, first)

    def lay_rotations(self, entity, hex_, tiles, first=False):
        """``with_rotations`` as this class's ``legal_tile_rotation`` judges them (the board
        remembers the rotation checks' answers)."""
        if type(self).legal_tile_rotation is not Tracker1822.legal_tile_rotation:
            yield from self.with_rotations(entity, hex_, tiles, first)
            return
        facts = self.game.facts
        operator = entity.owner if entity.is_company else entity
        self.previewing = True
        try:
            checks = self.rotation_checks(operator, hex_)
        finally:
            self.previewing = False
        s_tile = facts["s_yellow_tile"] if hex_.id == facts["s_hex"] else None
        edges = self.board.reach_edges(operator, hex_)
        for tile in tiles:
            rotations = self.board.rotations_passing(hex_, tile, edges, checks)
            if tile.name == s_tile:
                rotations = sorted(set(rotations).union(facts["s_yellow_rotations"]))
            if rotations:
                yield tile, rotations[:1] if first else rotations

    def upgradable(self, hex_, tile, special=False) -> bool:
        """game.upgrades_to for the hex's tile (remembered: it depends only on the tiles' descriptions
        and labels, and on whether the hex is the white S hex)."""
        old = hex_.tile
        s_hex = hex_.id == self.game.facts["s_hex"] and old.color == "white"
        key = (old.tdef.key, old.label, old.future_label, tile.name, special, s_hex)
        cache = self.game.__dict__.setdefault("_upgradable", {})
        found = cache.get(key)
        if found is None:
            found = cache[key] = self.game.upgrades_to(old, tile, special)
        return found

    def with_rotations(self, entity, hex_, tiles, first=False):
        """(tile, rotations) for the tiles that have a legal rotation on the hex, one at a time
        (``first``: with the first legal rotation only)."""
        board = self.board
        reach = {}
        for tile in tiles:
            keep = tile.rotation
            rotations = []
            self.previewing, self.reach_cache = True, reach
            try:
                for r in range(6):
                    board.rotate(tile, r)
                    if self.legal_tile_rotation(entity, hex_, tile):
                        rotations.append(r)
                        if first:
                            break
            finally:
                self.previewing, self.reach_cache = False, None
                board.rotate(tile, keep)
            if rotations:
                yield tile, rotations

    def _estuary_rules(self, entity, total):
        """The border cost ``total`` as the estuary privates change it."""
        if entity.id == "P10":
            if total == 0:
                raise GameError("Must lay tile with one path over an estuary crossing")
            total -= self.game.facts["gswr_discount"]
        if entity.id == "P21" and total == 0:
            raise GameError("Must lay tile with one path over the Hull / Grimsby estuary")
        return total

    def before_lay(self, action, entity):
        # laying a tile on a hex lapses the consent rights held on it
        if action.tile.name == "BC":
            return
        # (as the reference does it: a right that goes shifts the list, so the next holder keeps his)
        blockers = action.hex.tile.blockers
        i = 0
        while i < len(blockers):
            blocker = blockers[i]
            for ability in list(getattr(blocker, "all_abilities", ()) or ()):
                if ability.type == "blocks_hexes_consent":
                    blocker.remove_ability(ability)
            i += 1

    def update_tokens_after_lay(self, action, entity, tile, old_tile):
        self.game.remove_extra_tokens(tile)
        super().update_tokens_after_lay(action, entity, tile, old_tile)

    def potential_colors(self, entity):
        operator = entity.owner if entity.is_company else entity
        if operator is not None and operator.is_corporation and operator.type == "minor" and \
                "minors_green_upgrade" in self.game.phase.status:
            return self.game.facts["minor_green_upgrade"]
        return self.game.phase.tiles


class Track1822(Tracker1822, ChooseAbilityMixin, TrackStep):
    choice_time = "track"

    def actions(self, entity):
        if self.choices_ability(entity):
            return ["choose_ability"]
        if entity is not self.current_entity() or entity.is_company or not self.can_lay_tile(entity):
            return []
        return list(self.ACTIONS)

    def process_lay_tile(self, action):
        old_tile = action.hex.tile
        self.before_lay(action, action.entity)
        self.lay_tile_action(action)
        if not self.can_lay_tile(action.entity):
            self.pass_()
        self.game.after_lay_tile(action.hex, old_tile, action.tile)

    def choices(self, entity) -> dict:
        if entity.is_company:
            return {"choose_ability": self.choices_ability(entity)}
        return super().choices(entity)


class SpecialTrack1822(Tracker1822, SpecialTrackStep):
    """Private companies' lays: P2 removes a town, P8 lays free on hills, P10 crosses an estuary,
    P11 lays the next colour early, P12 lays extra tiles, P21 bridges the Humber, P5 upgrades the
    English Channel."""

    def setup(self):
        super().setup()
        self.in_process = False
        self.extra_laid_track = False

    def round_state(self):
        state = super().round_state()
        state["teleported"] = None
        return state

    def description_for(self):
        return f"Lay Track for {self.company.name}" if self.company is not None else "Lay Track"

    def ability(self, entity, **kw):
        if entity is None or not entity.is_company:
            return None
        game = self.game
        facts = game.facts
        if entity.id == "P5" and not self.in_process:
            tile = game.board.hex_by_id(facts["english_channel_hex"]).tile
            city = tile.cities[0]
            phase_color = game.phase.tiles[-1]
            owner = entity.owner
            if not game.loading and owner is not None and any(c.tokened_by(owner) for c in tile.cities):
                return None     # its token could not go there afterwards
            if city.available_slots() > 0 or game.exchange_tokens(entity.owner) == 0 or \
                    (tile.color == "green" and phase_color not in ("brown", "gray")) or \
                    (tile.color == "brown" and phase_color != "gray"):
                return None
        if entity.id == "P21" and entity.owner is not None and entity.owner.is_corporation:
            if self.round.num_laid_track > 0 and entity is not game.round.current_entity:
                return None
            if not any(t.used and t.city is not None and t.city.hex.id in facts["hsbc_hexes"]
                       for t in entity.owner.tokens):
                return None
        for kind in ("tile_lay", "teleport"):
            found = game.abilities(entity, kind, time=["special_track", "%current_step%", "owning_corp_or_turn"],
                                   **kw)
            if found and (found[0].type != "teleport" or not found[0].used):
                return found[0]
        return None

    def actions(self, entity):
        if self.company is not None and entity is self.company:
            return list(self.ACTIONS_WITH_PASS)
        if self.ability(entity) is None:
            return []
        active = self.game.round.active_step()
        if active is None or not hasattr(active, "process_lay_tile"):
            return []
        return list(self.ACTIONS)

    def spender_for(self, entity):
        owner = entity.owner
        if owner is None:
            return None
        return owner if owner.is_corporation else self.game.round.current_entity

    def legal_tile_rotation(self, entity, hex_, tile) -> bool:
        facts = self.game.facts
        if entity.id == "P5" and hex_.id == facts["english_channel_hex"]:
            return tile.rotation == 0
        if entity.id == "P2":
            return self.legal_rotation_remove_town(entity.owner, hex_, tile)
        return super().legal_tile_rotation(entity, hex_, tile)

    def legal_rotation_remove_town(self, operator, hex_, tile) -> bool:
        checks = tuple(c for c in self.rotation_checks(operator, hex_) if c == "stubs")
        if up.rotation_problem(hex_, tile, checks, None) is not None:
            return False
        exits = tile.exits
        if any(hex_.neighbors[e] is None for e in exits):
            return False
        reach = self.board.reach_edges(operator, hex_) or set()
        if not any(e in reach for e in exits):
            return False
        old_exits = {e for p in hex_.tile.paths for e in p.edges}
        return old_exits <= set(exits)

    def tile_valid_for_phase(self, entity, tile, hex_) -> bool:
        if self.game.loading:
            return True
        if entity.id == "P11":
            # the advanced tile lay uses the next colour, before its phase
            return tile.color not in self.game.phase.tiles
        return super().tile_valid_for_phase(entity, tile, hex_)

    def check_hex(self, entity, hex_, network=None):
        """Where the company may lay (the reference's available-hex rules), raising otherwise
        (``network``: the laying corporation's connected hexes, when the caller has them)."""
        game = self.game
        facts = game.facts
        ability = self.ability(entity)
        if ability.hexes and hex_.id not in ability.hexes:
            raise GameError(f"{entity.name} cannot lay track on {hex_.id}")
        if ability.type == "teleport":
            return
        operator = self.spender_for(entity)
        if hex_ not in (game.board.connected_hexes(operator) if network is None else network):
            raise GameError(f"{hex_.id} is not connected to {operator.name}")
        if entity.id == "P21":
            return
        lay = self.get_tile_lay(operator)
        if lay is not None and (lay["lay"] or lay["upgrade"]):
            color = hex_.tile.color
            if color == "white" and not lay["lay"]:
                raise GameError("Cannot lay a yellow tile now")
            if color != "white" and not lay["upgrade"]:
                raise GameError("Cannot upgrade track now")
            if color != "white" and lay["cannot_reuse_same_hex"] and hex_ in self.round.laid_hexes:
                raise GameError(f"{hex_.id} was already laid this turn")
        elif entity.id != "P12":
            raise GameError("No more tile lays this turn")
        tile = hex_.tile
        if entity.id == "P2" and len(tile.towns) != 1:
            raise GameError(f"{entity.name} can only lay track on a hex with one small station")
        if entity.id == "P11":
            if tile.name not in facts["track_plain"] and tile.name not in facts["track_town"] and \
                    tile.color != "white":
                raise GameError(f"{entity.name} can only lay plain track or small stations")
            if tile.color != game.phase.tiles[-1]:
                raise GameError(f"{entity.name} can only upgrade {game.phase.tiles[-1]} tiles")
        if entity.id == "P8" and not any(t in ("mountain", "hill") for u in tile.terrain
                                         for t in (u.get("terrains") or [])):
            raise GameError(f"{entity.name} can only lay track on hills and mountains")
        if entity.id == "P10" and not any(b.get("type") == "water" for b in tile.borders):
            raise GameError(f"{entity.name} can only lay track over an estuary")

    def potential_tiles(self, entity, hex_, ability) -> list:
        """The tiles the company may lay on the hex (its ability's tiles, else those of the phase)."""
        game, board = self.game, self.board
        if not ability.tiles:
            colors = self.potential_colors(entity)
            return [t for t in board.supply_tiles()
                    if t.color in colors and not t.blocks_lay and self.upgradable(hex_, t)]
        owner = entity.owner
        minor = owner is not None and owner.is_corporation and owner.type == "minor"
        if minor and hex_.tile.color in ("green", "brown", "gray"):
            return []
        advanced = entity.id == "P11"
        if advanced and minor and hex_.tile.color != "yellow":
            return []
        special = bool(ability.special) if ability.type == "tile_lay" else False
        out = []
        for tile in board.supply_tiles():
            if tile.name not in ability.tiles or not self.upgradable(hex_, tile, special):
                continue
            if advanced == (tile.color in game.phase.tiles):
                continue
            out.append(tile)
        return out

    def choices(self, entity) -> dict:
        if self.ability(entity) is None:
            return {}
        return {"lay_hexes": self.offered_hexes(entity)}

    def lay_hexes(self, entity) -> list:
        ability = self.ability(entity)
        spender = self.spender_for(entity) if ability is not None else None
        if spender is None:
            return []
        board = self.board
        network = board.connected_hexes(spender)
        hexes = [board.hex_by_id(h) for h in ability.hexes] if ability.hexes else list(network)
        out = []
        for hex_ in hexes:
            try:
                self.check_hex(entity, hex_, network)
            except GameError:
                continue
            out.append(hex_)
        return out

    def hex_lays(self, entity, hex_, first=False) -> list:
        ability = self.ability(entity)
        game, board = self.game, self.board
        spender = self.spender_for(entity)
        lays = []
        tiles = self.potential_tiles(entity, hex_, ability)
        terrain = 0 if ability.free else game.upgrade_cost(hex_.tile, hex_, entity)
        for tile, rotations in self.with_rotations(entity, hex_, tiles):
            keep, legal = tile.rotation, []
            for r in rotations:
                board.rotate(tile, r)
                cost = terrain + self.preview_border_cost(hex_, tile, entity)
                if cost <= spender.cash and (spender.type != "minor" or tile.color not in ("brown", "gray")):
                    legal.append(r)
            board.rotate(tile, keep)
            if legal:
                lays.append({"hex": hex_.id, "tile": tile.id, "rotations": legal})
                if first:
                    break
        return lays

    def process_lay_tile(self, action):
        entity = action.entity
        game = self.game
        old_tile = action.hex.tile
        ability = self.ability(entity)
        if ability is None:
            raise GameError(f"{entity.name} cannot lay track now")
        spender = self.spender_for(entity)
        if spender is not None and spender.type == "minor" and action.tile.color in ("brown", "gray"):
            raise GameError("Minor cannot upgrade past green")
        if not game.loading:
            self.check_hex(entity, action.hex)
        self.before_lay(action, entity)
        self.in_process = True
        minor_single_use = False
        try:
            if entity.id == "P12":
                upgraded = self.track_upgrade(action.hex.tile, action.tile, action.hex)
                if upgraded and self.extra_laid_track and ability.consume_tile_lay:
                    raise GameError("Cannot lay an extra upgrade")
                self.lay_tile(action, spender=spender)
                self.round.laid_hexes.append(action.hex)
                if spender.type == "minor":
                    minor_single_use = True
                else:
                    self.extra_laid_track = True
            else:
                self.lay_tile_action(action, spender=spender)
        finally:
            self.in_process = False
        game.after_lay_tile(action.hex, old_tile, action.tile)
        ability.use(upgrade=action.tile.color in UPGRADE_COLORS)
        if minor_single_use:
            ability.use()
        if ability.type == "tile_lay":
            if ability.closed_when_used_up and (ability.count or 0) <= 0:
                self.log.append(f"{ability.owner.name} closes")
                ability.owner.close()
            if ability.must_lay_together:
                if self.round.num_laid_track == 1 and not ability.consume_tile_lay:
                    self.round.num_laid_track += 1
                self.company = entity if (ability.count or 0) > 0 and not entity.closed else None
            else:
                self.company = None
        if ability.type == "teleport":
            self.round.teleported = ability.owner

    def process_pass(self, action):
        super().process_pass(action)
        self.log.append(f"{action.entity.name} closes")
        action.entity.close()


# ====================================================================== tokens
class PendingToken1822(HomeTokenStep):
    """Tokens waiting for a city: minor 14's home in London (any city, an extra slot), tokens moved
    by a multi-city upgrade, a major's token replacing minor 14's."""

    def process_place_token(self, action):
        game = self.game
        pending = self.pending()
        entity, city = action.entity, action.city
        hex_ = city.hex
        if hex_ not in pending["hexes"]:
            raise GameError(f"Cannot place token on {hex_.id} as the hex is not available")
        if city.tokened_by(entity):
            which = f" city {city.index}" if len(hex_.tile.cities) > 1 else ""
            raise GameError(f"Can't place token on {hex_.id}{which} because {entity.id} cant have 2 tokens in the "
                            "same city")
        token = pending["token"]
        minor_14 = game.facts["minor_14"]
        connected = entity.id != minor_14
        if entity.id == minor_14:
            city.tokens.append(None)
        if city.get_slot(entity) is None:
            city.tokens.append(None)
        self.place_token(token.corporation, city, token, connected=connected, extra_action=True,
                         check_tokenable=False)
        self.round.pending_tokens.pop(0)
        game.after_place_pending_token(city)
        if entity.id == minor_14:
            self.setup_m14_track_rights(entity)

    def choices(self, entity) -> dict:
        pending = self.pending()
        if entity is not pending.get("entity"):
            return {"cities": []}
        connected = None if entity.id == self.game.facts["minor_14"] else self.game.board.connected_nodes(entity)
        return {"cities": [{"city": c.id, "slot": 0, "hex": c.hex.id} for h in pending["hexes"]
                           for c in h.tile.cities
                           if not c.tokened_by(entity) and (connected is None or c in connected)]}

    def setup_m14_track_rights(self, minor):
        game = self.game
        london = game.board.hex_by_id(game.facts["minor_14_home_hex"])
        hex_ = london.neighbors[game.minor_14_city_exit]
        ability = Ability("blocks_hexes_consent", owner_type="player", hexes=[hex_.id], hidden=True)
        ability.teardown = game.drop_blocker
        minor.add_ability(ability)
        own_list(hex_.tile, "blockers").append(minor)
        own_list(hex_.tile, "hidden_blockers").append(minor)


class DestinationToken(Step):
    """A major whose track joins its home to its destination places its destination token there."""

    ACTIONS = ["hex_token", "pass"]
    description = "Place the Destination Token"
    pass_description = "Skip (Destination Token)"

    def actions(self, entity):
        if entity is not self.current_entity() or not self.can_place_token(entity):
            return []
        return list(self.ACTIONS)

    def available_tokens(self, entity) -> list:
        token = entity.find_token_by_type("destination") if entity.is_corporation else None
        return [token] if token is not None else []

    def can_place_token(self, entity) -> bool:
        return entity.is_corporation and entity.type == "major" and bool(self.available_tokens(entity))

    def auto_actions(self, entity):
        if not self.destination_connected(entity):
            return [{"type": "pass", "entity": entity.id, "entity_type": "corporation"}]
        return [{"type": "hex_token", "entity": entity.id, "entity_type": "corporation",
                 "hex": entity.destination_coordinates, "token_type": "destination"}]

    def destination_connected(self, entity) -> bool:
        board = self.game.board
        dest = board.hex_by_id(entity.destination_coordinates)
        home = entity.tokens[0].city
        if home is None or not dest.tile.nodes:
            return False
        return search(dest.tile.nodes[0], lambda path: home in path.nodes, blocked_for=entity)

    def choices(self, entity) -> dict:
        return {"hex_token": {"hex": entity.destination_coordinates, "connected": self.destination_connected(entity)}}

    def process_hex_token(self, action):
        entity = action.entity
        hex_ = action.hex
        tokens = self.available_tokens(entity)
        if not tokens:
            raise GameError("Corporation does not have a destination token unused")
        if hex_.id != entity.destination_coordinates:
            raise GameError(f"{entity.name}'s destination is {entity.destination_coordinates}, not {hex_.id}")
        if not self.game.loading and not self.destination_connected(entity):
            raise GameError(f"Can't place the destination token on {hex_.id} because it is not connected")
        self.game.place_destination_token(entity, hex_, tokens[0])
        self.game.remove_extra_tokens(hex_.tile)
        self.pass_()

    def process_pass(self, action):
        entity = action.entity
        if not self.game.loading and self.destination_connected(entity):
            raise GameError(f"{entity.name} cannot skip placing its destination token when it has a connection to "
                            f"{entity.destination_coordinates}")
        super().process_pass(action)

    def skip(self):
        self.pass_()


class Token1822(ChooseAbilityMixin, TokenStep):
    choice_time = "token"

    def actions(self, entity):
        out = super().actions(entity) if not entity.is_company else []
        if (self.choices_ability(entity) or (not out and self.ability_chpr_lcdr(entity))) and \
                "choose_ability" not in out:
            out.append("choose_ability")
        if out and "pass" not in out:
            out.append("pass")
        return out

    def ability_chpr_lcdr(self, entity) -> bool:
        if entity is not self.current_entity() or not entity.is_corporation:
            return False
        return any(c.id in ("P18", "P5") for c in entity.companies) and self.game.exchange_tokens(entity) > 0

    def available_tokens(self, entity):
        holder = entity.owner if entity.is_company else entity
        return [t for t in holder.tokens_by_type() if t.type != "destination"]

    def can_place_token(self, entity) -> bool:
        if entity is not self.current_entity():
            return False
        if self.game.abilities(entity, "token") and not self.round.tokened and self.available_tokens(entity):
            return True
        return super().can_place_token(entity)

    def process_place_token(self, action):
        entity, city = action.entity, action.city
        if entity.is_corporation and entity.type == "major" and city.tokened_by(entity):
            which = f" city {city.index}" if len(city.hex.tile.cities) > 1 else ""
            raise GameError(f"Can't place token on {city.hex.id}{which} because {entity.id} cant have 2 tokens in "
                            "the same city")
        if not self.game.loading and city.hex not in self.game.board.reachable_hexes(entity):
            raise GameError(f"{entity.name} cannot place token in City {city.id} on hex {city.hex.id}")
        tokens = self.available_tokens(entity)
        if not tokens:
            raise GameError(f"{entity.name} has no token left")
        self.place_token(entity, city, tokens[0],
                         check_tokenable=city.hex.id != self.game.facts["london_hex"])
        self.pass_()

    def choices(self, entity) -> dict:
        if entity.is_company:
            return {"choose_ability": self.choices_ability(entity)}
        return super().choices(entity)


class SpecialToken1822(SpecialTokenStep):
    """P5's free token in the English Channel (from its exchange tokens)."""

    def actions(self, entity):
        active = self.game.round.active_step()
        if self.ability(entity) is None or not self.available_tokens(entity) or active is None or \
                not hasattr(active, "process_place_token"):
            return []
        # (a company that teleported may decline its token, as in the generic rules: it may have none
        # it could place)
        return ["place_token", "pass"] if entity is self.round.teleported else ["place_token"]

    def available_tokens(self, entity):
        if entity.id == "P5":
            return [Token(entity.owner)] if self.game.exchange_tokens(entity.owner) > 0 else []
        return super().available_tokens(entity)

    def process_place_token(self, action):
        super().process_place_token(action)
        if action.entity.id == "P5":
            self.game.remove_exchange_token(action.entity.owner)
            self.log.append(f"{action.entity.name} closes")
            action.entity.close()


# ====================================================================== companies
class AcquireCompany1822(AcquireCompanyStep):
    pass


class SpecialChoose(ChoicesStep):
    """A newly acquired company that offers a choice (P8: a free lay or a lasting discount)."""

    ACTIONS = ["choose"]
    choice_time = "special_choose"

    def company(self, entity):
        for company in getattr(self.round, "acquired_companies", ()):
            if company.owner is entity and not company.closed and \
                    self.game.company_choices(company, self.choice_time):
                return company
        return None

    def after_choice(self):
        pass   # the corporation goes on with its turn


# ====================================================================== trains
class FirstTurnHousekeeping(BuyTrainStep):
    """A minor in its first operating turn may buy an L train before running."""

    ability_time = "first_turn_housekeeping"
    description = "Buy Trains"

    def actions(self, entity):
        upcoming = self.game.depot.upcoming
        if entity is self.current_entity() and entity.is_corporation and entity.type == "minor" and \
                not entity.operated() and upcoming and upcoming[0].name == "L" and self.can_buy_train(entity):
            return ["buy_train", "pass"]
        return []

    def must_buy_train(self, entity) -> bool:
        return False

    def choices(self, entity) -> dict:
        train = self.game.depot.upcoming[0]
        return {"trains": [{"train": train.id, "variant": train.name, "owner": "depot", "price": train.price()}],
                "exchanges": [], "must_buy": False, "emergency_sales": []}

    def process_buy_train(self, action):
        game = self.game
        train = game.depot.upcoming[0]
        price = action.integer("price")
        variant = action.raw.get("variant") or train.name
        # (the train named is not looked at, as in the reference: the next L train is bought)
        if variant != train.name:
            raise GameError(f"Only an {train.name} train may be bought now")
        if price != train.price():
            raise GameError(f"The {train.name} train costs {game.fmt(train.price())}")
        if action.entity.cash < price:
            raise GameError(f"{action.entity.name} cannot afford the {train.name} train")
        self.log.append(f"{action.entity.name} buys a {train.name} train for {game.fmt(price)} from The Depot")
        game.buy_train(action.entity, train, price)
        game.phase.buying_train(action.entity, train, train.owner)
        self.pass_()

    def skip(self):
        self.pass_()


class BuyTrain1822(BuyTrainStep):
    """Trains from other corporations only from phase 3; an L train may be upgraded to a 2 train; one
    E train per corporation; the president may take a loan when shares cannot cover a train."""

    def buyable_trains(self, entity) -> list:
        trains = super().buyable_trains(entity)
        if "can_buy_trains" in self.game.phase.status:
            return trains
        return [t for t in trains if t.from_depot()]

    def room(self, entity) -> bool:
        return sum(1 for t in entity.trains if not self.game.extra_train(t)) < self.game.train_limit(entity)

    def check_e_train(self, action):
        variant = action.raw.get("variant")
        if variant != self.game.facts["e_train"]:
            return
        if any(t.name == self.game.facts["e_train"] for t in action.entity.trains):
            raise GameError(f"{action.entity.id} can only own one E-train")

    def process_buy_train(self, action):
        game = self.game
        self.check_spend(action)
        if action.exchange is not None:
            self.upgrade_train(action)
        else:
            self.check_e_train(action)
            self.buy_train_action(action)
        if not self.can_buy_train(action.entity):
            self.pass_()
        if game.phase_number() > 1 or action.train.name != "2":
            return
        # the first 2 train (an L train bought or turned as its 2 variant) starts phase 2
        from ...core.trains import Train
        train = action.train
        probe = Train(train.name, train.distance, train.price())
        game.phase.buying_train(action.entity, probe, train.owner)

    def upgrade_train(self, action):
        entity, train = action.entity, action.train
        price = action.integer("price")
        variant = action.raw.get("variant")
        if train.owner is not entity or train.name != "L" or action.exchange is not train or variant != "2":
            raise GameError("Only an L train of the corporation may be upgraded to a 2 train")
        if price != self.game.facts["upgrade_cost_l_to_2"]:
            raise GameError(f"Upgrading an L train costs {self.game.fmt(self.game.facts['upgrade_cost_l_to_2'])}")
        if entity.cash < price:
            raise GameError(f"{entity.name} cannot afford to upgrade the L train")
        train.set_variant(variant)
        entity.spend(price, self.game.bank)
        self.log.append(f"{entity.name} upgrades an L train to a 2 train for {self.game.fmt(price)}")

    def check_spend(self, action):
        if action.exchange is not None:
            return
        super().check_spend(action)

    def choices(self, entity) -> dict:
        out = super().choices(entity)
        e_train = self.game.facts["e_train"]
        if any(t.name == e_train for t in entity.trains):
            out["trains"] = [t for t in out.get("trains", []) if t["variant"] != e_train]
        return out

    def president_contribution(self, entity, remaining):
        player = entity.owner
        if remaining > player.cash and self.game.rules["ebuy_can_take_player_loan"] == "after_sell":
            if self.sellable_shares(player):
                raise GameError(f"{player.name} still needs to sell shares before a loan can be granted.")
            self.game.take_player_loan(player, remaining - player.cash)
        super().president_contribution(entity, remaining)

    def sellable_shares(self, player) -> bool:
        return self.game.liquidity(player, emergency=True) - player.cash > 0

    def president_funds(self, entity) -> int:
        # once he has nothing left to sell, the bank lends the president what he lacks
        player = entity.owner
        if self.game.rules["ebuy_can_take_player_loan"] == "after_sell" and not self.sellable_shares(player):
            return 10 ** 9
        return player.cash


class Route1822(RouteStep):
    """Minors do not run E trains alone; a Pullman is attached to one train before running."""

    def setup(self):
        super().setup()
        self.pullman_train = None
        self.pullman_original = None

    def actions(self, entity):
        out = super().actions(entity)
        if not out:
            return out
        if entity.type == "minor" and all(t.name == self.game.facts["e_train"]
                                          for t in self.game.route_trains(entity)):
            return []
        if self.choosing_pullman(entity):
            out.append("choose")
        return out

    def find_pullman(self, entity):
        return next((t for t in entity.trains if self.game.pullman_train(t)), None)

    def pullman_choices(self, entity) -> list:
        facts = self.game.facts
        return [t for t in self.game.route_trains(entity)
                if t.name not in facts["local_trains"] and t.name != facts["e_train"]]

    def choosing_pullman(self, entity) -> bool:
        return self.pullman_train is None and self.find_pullman(entity) is not None and \
            bool(self.pullman_choices(entity))

    def choices(self, entity) -> dict:
        out = super().choices(entity)
        if self.choosing_pullman(entity):
            out["choose"] = {str(i): f"{t.name} train" for i, t in enumerate(self.pullman_choices(entity))}
        return out

    def process_choose(self, action):
        entity = action.entity
        options = self.pullman_choices(entity)
        try:
            index = int(action.raw.get("choice"))
            train = options[index]
        except (TypeError, ValueError, IndexError):
            raise GameError(f"{action.raw.get('choice')!r} is not a train to attach the Pullman to") from None
        if not self.choosing_pullman(entity):
            raise GameError(f"{entity.name} has no Pullman to attach")
        self.pullman_train = train
        self.log.append(f"{entity.id} attaches the pullman to a {train.name} train")
        self.pullman_original = (train.name, train.distance)
        distance = train.distance if not isinstance(train.distance, list) else next(
            (r.get("visit", r["pay"]) for r in train.distance if "city" in r["nodes"]), 0)
        train.name = train.name + "+"
        train.distance = [{"nodes": ["city", "offboard"], "pay": 99, "visit": distance},
                          {"nodes": ["town"], "pay": 99, "visit": 99}]

    def process_run_routes(self, action):
        try:
            super().process_run_routes(action)
        finally:
            if self.pullman_train is not None:
                self.pullman_train.name, self.pullman_train.distance = self.pullman_original
                self.pullman_train = None
                self.pullman_original = None


class Dividend1822(DividendStep):
    """Majors pay out, pay half or withhold; minors always pay half; a permanent 2/L train's run may
    be paid differently; mail contracts add a subsidy; the tax haven collects its dividends."""

    DIVIDEND_TYPES = ("payout", "half", "withhold")

    def setup(self):
        super().setup()
        if not hasattr(self, "extra_train_choice"):
            self.extra_train_choice = ""

    def actions(self, entity):
        if not entity.is_corporation or entity.type != "major":
            return []
        out = super().actions(entity)
        if out and not self.extra_train_choice and self.find_extra_train(entity) is not None and \
                len(entity.trains) > 1:
            out = out + ["choose"]
        return out

    def find_extra_train(self, entity):
        train = next((t for t in entity.trains if self.game.extra_train_permanent(t)), None)
        if train is None:
            return None
        revenue = next((r.revenue for r in self.routes() if r.train is train), 0) or 0
        return train if revenue > 0 and revenue != self.game.routes_revenue(self.routes()) else None

    def chosen_dividend(self, entity, kind, revenue) -> dict:
        options = self.dividend_options(entity)   # (an extra train's payout is part of every option)
        if kind not in options:
            raise GameError(f"Dividend must be one of {', '.join(options)}")
        return options[kind]

    def dividend_options(self, entity) -> dict:
        total = self.game.routes_revenue(self.routes())
        extra = bool(self.extra_train_choice)
        revenue = total
        if extra:
            train = self.find_extra_train(entity)
            extra_revenue = next(r.revenue for r in self.routes() if r.train is train)
            extra_payout = getattr(self, self.extra_train_choice)(entity, extra_revenue)
            revenue = total - extra_revenue
        out = {}
        for kind in self.DIVIDEND_TYPES:
            payout = getattr(self, kind)(entity, revenue)
            if extra:
                payout["corporation"] += extra_payout["corporation"]
                payout["per_share"] += extra_payout["per_share"]
            payout["divs_to_corporation"] = self.corporation_dividends(entity, payout["per_share"])
            payout.update(self.share_price_change(entity, total - payout["corporation"]))
            out[kind] = payout
        return out

    def half(self, entity, revenue) -> dict:
        withheld = self.half_pay_withhold_amount(entity, revenue)
        return {"corporation": withheld, "per_share": self.payout_per_share(entity, revenue - withheld)}

    @staticmethod
    def half_pay_withhold_amount(entity, revenue) -> int:
        half = revenue // 2
        return half if entity.type == "minor" else (half // entity.total_shares) * entity.total_shares

    def holder_for_corporation(self, entity):
        return entity

    def share_price_change(self, entity, revenue) -> dict:
        if revenue <= 0:
            return {"share_direction": "left", "share_times": 1}
        price = entity.share_price.price
        times = 1 if revenue >= price or entity.type == "minor" else 0
        if revenue >= price * 2 and entity.type == "major":
            times = 2
        return {"share_direction": "right", "share_times": times} if times else {}

    def choices(self, entity) -> dict:
        out = super().choices(entity)
        if "choose" in self.actions(entity):
            out["choose"] = {"payout": "Pay out", "half": "Half Pay", "withhold": "Withhold"}
        return out

    def process_choose(self, action):
        entity = action.entity
        choice = action.raw.get("choice")
        if choice not in self.DIVIDEND_TYPES:
            raise GameError(f"{choice} is an illegal choice")
        train = self.find_extra_train(entity)
        if train is None or self.extra_train_choice:
            raise GameError(f"{entity.name} has no separate train to pay for")
        self.extra_train_choice = choice
        text = {"payout": "pay out", "withhold": "withhold", "half": "half pay"}[choice]
        self.log.append(f"{entity.id} chooses to {text} with the {train.name} train")

    def process_dividend(self, action):
        entity = action.entity
        game = self.game
        kind = action.raw.get("kind")
        options = self.dividend_options(entity)
        if kind not in options:
            raise GameError(f"Dividend must be one of {', '.join(options)}")
        routes = self.routes()
        revenue = game.routes_revenue(routes)
        subsidy = game.routes_subsidy(routes)
        payout = options[kind]
        entity.operating_history[(game.turn, self.round.round_num)] = {
            "revenue": revenue, "kind": kind, "routes": [r.train.id for r in routes],
            "laid_hexes": [h.id for h in getattr(self.round, "laid_hexes", [])]}
        for train in entity.trains:
            train.set_operated(True)
        self.round.routes = []
        if kind == "half":
            self.log.append(f"{entity.name} runs for {game.fmt(revenue)} and pays half")
        self.log_run_payout(entity, kind, revenue, payout)
        if subsidy > 0:
            self.log.append(f"{entity.name} earns subsidy of {game.fmt(subsidy)}")
        if payout["corporation"] + subsidy > 0:
            game.bank.spend(payout["corporation"] + subsidy, entity)
        if payout["per_share"] > 0:
            self.payout_shares(entity, revenue - payout["corporation"])
        self.change_share_price(entity, payout)
        self.pass_()
        self.extra_train_choice = ""

    def payout_shares(self, entity, revenue):
        super().payout_shares(entity, revenue)
        self.game.tax_haven_payout(entity, self.payout_per_share(entity, revenue))

    def skip(self):
        entity = self.current_entity()
        if entity.type == "major":
            return super().skip()
        from ...actions import Action
        revenue = self.game.routes_revenue(self.routes())
        self.process_dividend(Action({"type": "dividend", "entity": entity.id, "entity_type": "corporation",
                                      "kind": "half" if revenue > 0 else "withhold"}, self.game))


# ====================================================================== shares
class IssueShares1822(ChooseAbilityMixin, IssueSharesStep):
    choice_time = "issue"

    def actions(self, entity):
        out = super().actions(entity) if not entity.is_company else []
        if (self.choices_ability(entity) or (not out and self.ability_lur(entity))) and "choose_ability" not in out:
            out.append("choose_ability")
        if out and "pass" not in out:
            out.append("pass")
        return out

    def ability_lur(self, entity) -> bool:
        return entity is self.current_entity() and entity.is_corporation and \
            any(c.id == "P17" for c in entity.companies)

    def issue(self, entity, bundle):
        self.game.sell_shares_and_change_price(bundle)

    def skip(self):
        entity = self.current_entity()
        if not self.acted and entity is not None and entity.is_corporation and entity.type == "major":
            self.log_skip(entity)
        self.pass_()

    def choices(self, entity) -> dict:
        if entity.is_company:
            return {"choose_ability": self.choices_ability(entity)}
        return super().choices(entity)


# ====================================================================== acquiring minors
class MinorAcquisition(Step):
    """A major that has operated may acquire a connected minor that has operated twice (paying its
    owner in cash and/or treasury shares), or a minor from the bid box for £200 once phase 5 allows
    it; the minor's token is replaced by an exchange token, or moved to the charter, or removed."""

    ACQUIRE_ACTIONS = ["merge", "pass"]
    CHOOSE_ACTIONS = ["choose"]
    PAY_SHARES = {"money": 0, "one_share": 1, "two_shares": 2}
    description = "Acquire a minor"
    pass_description = "Skip (Minor acquisition)"

    def __init__(self, game, round_, **opts):
        super().__init__(game, round_, **opts)
        self.acquire_state = "select_minor"
        self.selected_minor = None
        self.selected_share_num = None
        self.pay_choices = {}
        self.token_choices = {}

    def actions(self, entity):
        if entity is not self.current_entity():
            return []
        if self.acquire_state in ("choose_pay", "choose_token"):
            return list(self.CHOOSE_ACTIONS)
        if not self.can_acquire(entity):
            return []
        return list(self.ACQUIRE_ACTIONS)

    def auto_actions(self, entity):
        if self.acquire_state in ("choose_pay", "choose_token"):
            return None
        if not self.mergeable(entity):
            return [{"type": "pass", "entity": entity.id, "entity_type": "corporation"}]
        return None

    def can_acquire(self, entity) -> bool:
        if not entity.is_corporation or entity.type != "major" or len(entity.operating_history) <= 1:
            return False
        return bool(self.potentially_mergeable(entity))

    def bank_owned(self, minor) -> bool:
        return minor.owner is None or minor.owner is self.game.bank

    def potentially_mergeable(self, entity) -> list:
        game = self.game
        out = [m for m in game.corporations if m.type == "minor" and m.floated() and len(m.operating_history) > 1
               and self.pay_choices_for(entity, m)]
        if "can_acquire_minor_bidbox" in game.phase.status:
            out += [m for m in (game.find_corporation(c) for c in game.bidbox_minors())
                    if m is not None and self.pay_choices_for(entity, m)]
        return out

    def mergeable(self, entity) -> list:
        return [m for m in self.potentially_mergeable(entity) if self.connects(entity, m)]

    def connects(self, entity, minor) -> bool:
        game = self.game
        nodes = game.board.connected_nodes(entity)
        if self.bank_owned(minor) and minor.id == game.facts["minor_14"]:
            london = game.board.hex_by_id(game.facts["minor_14_home_hex"])
            return any(c in nodes for c in london.tile.cities)
        if self.bank_owned(minor):
            hex_ = game.board.hex_by_id(minor.coordinates)
            city = next((c for c in hex_.tile.cities if c.reserved_by(minor)), None)
        else:
            city = minor.tokens[0].city
        return city is not None and city in nodes

    def pay_choice_difference(self, entity, minor, share_num) -> int:
        return minor.share_price.price * 2 - entity.share_price.price * share_num

    def pay_choice_str(self, entity, minor, share_num, show_owner=False):
        game = self.game
        if self.bank_owned(minor):
            return f"{entity.id} pays {game.fmt(game.facts['minor_bidbox_price'])} to the bank"
        owner = f"{minor.owner.name} receives" if show_owner else "Receive"
        if share_num == 0:
            return f"{owner} {game.fmt(minor.share_price.price * 2)} from {entity.id}"
        diff = self.pay_choice_difference(entity, minor, share_num)
        shares = "1 share" if share_num == 1 else "2 shares"
        if diff < 0 and -diff <= minor.owner.cash:
            return f"{owner} {shares} and pay {game.fmt(-diff)} to {entity.id}"
        if diff == 0:
            return f"{owner} {shares} from {entity.id}"
        if diff > 0 and diff <= entity.cash:
            return f"{owner} {shares} and {game.fmt(diff)} from {entity.id}"
        return None

    def pay_choices_for(self, entity, minor) -> dict:
        game = self.game
        choices = {}
        if self.bank_owned(minor):
            if entity.cash >= game.facts["minor_bidbox_price"]:
                choices["money"] = self.pay_choice_str(entity, minor, 0)
            return choices
        if entity.cash >= minor.share_price.price * 2:
            choice = self.pay_choice_str(entity, minor, 0)
            if choice:
                choices["money"] = choice
        ipo = entity.num_ipo_shares()
        if ipo > 0:
            choice = self.pay_choice_str(entity, minor, 1)
            if choice:
                choices["one_share"] = choice
        if ipo > 1 and (not entity.counts_for_limit or game.num_certs(minor.owner) < game.cert_limit(minor.owner)):
            choice = self.pay_choice_str(entity, minor, 2)
            if choice:
                choices["two_shares"] = choice
        return choices

    def token_choices_for(self, entity, minor=None) -> dict:
        game = self.game
        if game.exchange_tokens(entity) > 0:
            choices = {"replace": "Replace token on the map with an exchange token",
                       "exchange": "Move an exchange token to available token area on the corporation chart"}
            if minor is not None and self.bank_owned(minor) and minor.id == game.facts["minor_14"] and \
                    not game.loading:
                # the new token goes to a London city the corporation reaches and has no token in
                london = game.board.hex_by_id(game.facts["minor_14_home_hex"])
                nodes = game.board.connected_nodes(entity)
                if not any(c in nodes and not c.tokened_by(entity) for c in london.tile.cities):
                    del choices["replace"]
            return choices
        return {"remove": "Remove the minors token since no exchange tokens is available"}

    def choices(self, entity) -> dict:
        if self.acquire_state == "choose_pay":
            return {"choose": dict(self.pay_choices)}
        if self.acquire_state == "choose_token":
            return {"choose": dict(self.token_choices)}
        return {"merge": [{"corporation": m.id, "pay": self.pay_choices_for(entity, m)}
                          for m in self.mergeable(entity)]}

    def process_merge(self, action):
        entity, minor = action.entity, action.corporation
        if minor not in self.potentially_mergeable(entity):
            raise GameError(f"{entity.name} cannot acquire {minor.name}")
        if not self.game.loading and not self.connects(entity, minor):
            raise GameError(f"Can't acquire minor {minor.id} because it is not connected to {entity.id}")
        self.selected_minor = minor
        self.pay_choices = self.pay_choices_for(entity, minor)
        self.token_choices = self.token_choices_for(entity, minor)
        self.acquire_state = "choose_pay"

    def process_choose(self, action):
        choice = action.raw.get("choice")
        entity = action.entity
        if self.acquire_state == "choose_pay":
            if choice not in self.pay_choices:
                raise GameError(f"{choice!r} is not a way to pay for {self.selected_minor.name}")
            self.selected_share_num = self.PAY_SHARES[choice]
            self.acquire_state = "choose_token"
            return
        if choice not in self.token_choices:
            raise GameError(f"{choice!r} is not a choice for {self.selected_minor.name}'s token")
        if self.bank_owned(self.selected_minor):
            self.acquire_bank_minor(entity, choice)
        else:
            self.acquire_entity_minor(entity, choice)
        self.acquire_state = "select_minor"
        self.pass_()

    def acquire_bank_minor(self, entity, token_choice):
        game = self.game
        minor = self.selected_minor
        entity.spend(game.facts["minor_bidbox_price"], game.bank)
        receiving = []
        if token_choice == "replace":
            if minor.id == game.facts["minor_14"]:
                game.remove_exchange_token(entity)
                token = Token(entity)
                entity.tokens.append(token)
                entity.add_ability(Ability("token", hexes=[], price=20))
                london = game.board.hex_by_id(game.facts["minor_14_home_hex"])
                self.round.pending_tokens.append({"entity": entity, "hexes": [london], "token": token})
                receiving.append(f"a token on hex {london.id}")
            else:
                hex_ = game.board.hex_by_id(minor.coordinates)
                city = next(c for c in hex_.tile.cities if c.reserved_by(minor))
                city.reservations = [None if r is minor else r for r in city.reservations]
                if city.tokened_by(entity):
                    game.move_exchange_token(entity)
                    receiving.append(f"one token from exchange to available since {entity.id} cant have 2 tokens "
                                     "in the same city")
                else:
                    game.remove_exchange_token(entity)
                    token = Token(entity)
                    entity.tokens.append(token)
                    game.board.place_token(entity, city, token, free=True, check_tokenable=False)
                    game.clear_graph()
                    receiving.append(f"a token on hex {minor.coordinates}")
        elif token_choice == "exchange":
            game.move_exchange_token(entity)
            receiving.append("one token from exchange to available")
        self.log.append(self.pay_choice_str(entity, minor, self.selected_share_num, show_owner=True))
        self.log.append(f"{entity.id} acquired {minor.id} receiving {', '.join(receiving)}")
        company = game.company_by_id(f"M{minor.id}")
        if company in game.companies:
            game.companies.remove(company)
        game.close_corporation(minor)

    def acquire_entity_minor(self, entity, token_choice):
        game = self.game
        minor = self.selected_minor
        owner = minor.owner
        diff = self.pay_choice_difference(entity, minor, self.selected_share_num)
        log_choice = self.pay_choice_str(entity, minor, self.selected_share_num, show_owner=True)
        if diff < 0:
            owner.spend(-diff, entity)
        elif diff > 0:
            entity.spend(diff, owner)
        for _ in range(self.selected_share_num):
            share = entity.shares_of(entity)[0]
            game.share_pool.transfer_shares(share.to_bundle(), owner, allow_president_change=False)
        receiving = []
        if minor.cash > 0:
            receiving.append(game.fmt(minor.cash))
            minor.spend(minor.cash, entity)
        companies = game.transfer("companies", minor, entity)
        if companies:
            receiving.append(f"companies ({', '.join(c.name for c in companies)})")
        trains = game.transfer("trains", minor, entity)
        if trains:
            receiving.append(f"trains ({[t.name for t in trains]})")
        if token_choice == "replace":
            city = minor.tokens[0].city
            if city.tokened_by(entity):
                game.move_exchange_token(entity)
                self.remove_minor_token()
                receiving.append(f"one token from exchange to available since {entity.id} cant have 2 tokens in "
                                 "the same city")
            else:
                game.remove_exchange_token(entity)
                hexes = game.board.move_tokens_to_surviving(entity, [minor], check_tokenable=False,
                                                            limit=game.facts["limit_tokens_after_merger"])
                receiving.append(f"a token on hex {[h for h in hexes if h is not None]}")
        elif token_choice == "exchange":
            game.move_exchange_token(entity)
            self.remove_minor_token()
            receiving.append("one token from exchange to available")
        self.log.append(log_choice)
        self.log.append(f"{entity.id} acquired {minor.id} receiving {', '.join(receiving)}")
        game.close_corporation(minor)

    def remove_minor_token(self):
        game = self.game
        minor = self.selected_minor
        hex_ = game.board.hex_by_id(minor.coordinates)
        city = next((c for c in hex_.tile.cities if c.tokened_by(minor)), None)
        if city is None:
            return
        token = minor.tokens[0]
        if len(city.tokens) > game.min_city_slots(city):
            position = city.tokens.index(token)
            del city.tokens[position]
            if position < len(city.reservations):
                del city.reservations[position]
                city.reservations.append(None)
            token.city = None
            token.hex = None
            token.used = False
        else:
            token.remove()
        game.clear_graph()

    def skip(self):
        entity = self.current_entity()
        if not self.acted and entity is not None and entity.is_corporation and entity.type == "major":
            self.log_skip(entity)
        self.pass_()
