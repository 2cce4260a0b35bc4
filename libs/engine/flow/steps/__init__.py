"""Steps common to many titles. Titles subclass them for what differs."""

from .auction import CompanyPendingParStep, DraftStep, WaterfallAuctionStep
from .operating import (AssignStep, BankruptStep, BuyCompanyStep, DividendStep, HomeTokenStep, RouteStep,
                        SpecialBuyStep, SpecialTokenStep, TokenerMixin, TokenStep, sort_holdings)
from .stock import BuySellParSharesStep, ExchangeStep, ShareBuying
from .track import SpecialTrackStep, TrackerMixin, TrackStep
from .trains import BuySingleTrainOfTypeStep, BuyTrainStep, DiscardTrainStep, EmergencyMoneyMixin, TrainMixin

__all__ = [
    "AssignStep", "BankruptStep", "BuyCompanyStep", "BuySingleTrainOfTypeStep", "BuySellParSharesStep", "BuyTrainStep",
    "CompanyPendingParStep", "DiscardTrainStep", "DraftStep", "DividendStep", "EmergencyMoneyMixin", "ExchangeStep", "HomeTokenStep",
    "RouteStep", "ShareBuying", "SpecialBuyStep", "SpecialTokenStep", "SpecialTrackStep", "TokenStep",
    "TokenerMixin", "TrackStep", "TrackerMixin", "TrainMixin", "WaterfallAuctionStep", "sort_holdings",
]
