"""A corporation issuing shares from its treasury to the market, or redeeming market shares."""

from __future__ import annotations

from ...errors import GameError
from ..step import Step


def same_bundle(a, b) -> bool:
    return a.percent == b.percent and {s.id for s in a.shares} == {s.id for s in b.shares}


class IssueSharesStep(Step):
    """The operating corporation may issue (``sell_shares`` of its own treasury certificates, paid
    by the bank at the market price) or redeem (``buy_shares`` from the market); one such action a
    turn. Which bundles are allowed is the game's: ``game.issuable_shares(entity)`` and
    ``game.redeemable_shares(entity)``."""

    description = "Issue or Redeem Shares"
    pass_description = "Skip (Issue/Redeem)"
    ability_time = "issue_shares"

    def actions(self, entity):
        if not entity.is_corporation or entity is not self.current_entity():
            return []
        out = []
        if self.redeemable_shares(entity):
            out.append("buy_shares")
        if self.issuable_shares(entity):
            out.append("sell_shares")
        if out and self.blocks():
            out.append("pass")
        return out

    def issuable_shares(self, entity) -> list:
        return self.game.issuable_shares(entity)

    def redeemable_shares(self, entity) -> list:
        return self.game.redeemable_shares(entity)

    def choices(self, entity) -> dict:
        """Bundles it may issue (``sell_shares``) and redeem (``buy_shares``)."""
        if not entity.is_corporation:
            return {}

        def describe(bundles):
            return [{"shares": [s.id for s in b.shares], "percent": b.percent, "price": b.price} for b in bundles]
        return {"sell_shares": describe(self.issuable_shares(entity)),
                "buy_shares": describe(self.redeemable_shares(entity))}

    def process_sell_shares(self, action):
        entity, bundle = action.entity, action.bundle
        if bundle.owner is not entity or not any(same_bundle(bundle, b) for b in self.issuable_shares(entity)):
            raise GameError(f"{entity.name} cannot issue those shares")
        self.issue(entity, bundle)
        self.pass_()

    def process_buy_shares(self, action):
        entity, bundle = action.entity, action.bundle
        if not any(same_bundle(bundle, b) for b in self.redeemable_shares(entity)):
            raise GameError(f"{entity.name} cannot redeem those shares")
        self.redeem(entity, bundle)
        self.pass_()

    def issue(self, entity, bundle):
        """The bank pays the corporation for the bundle, which goes to the market (titles add the
        share price's move)."""
        self.game.share_pool.sell_shares(bundle)

    def redeem(self, entity, bundle):
        """The corporation buys the bundle back from the market."""
        self.game.share_pool.buy_shares(entity, bundle)
