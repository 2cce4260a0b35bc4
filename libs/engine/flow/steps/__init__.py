"""Steps common to many titles. Titles subclass them for what differs."""

from .auction import CompanyPendingParStep, DraftStep, PassableAuctionMixin, WaterfallAuctionStep
from .issue import IssueSharesStep
from .operating import (AcquireCompanyStep, AssignStep, BankruptStep, BuyCompanyStep, DividendStep, HomeTokenStep,
                        RouteStep, SpecialBuyStep, SpecialTokenStep, TokenerMixin, TokenStep, sort_holdings)
from .stock import BuySellParSharesStep, ExchangeStep, ShareBuying
from .track import SpecialTrackStep, TrackerMixin, TrackStep
from .trains import BuySingleTrainOfTypeStep, BuyTrainStep, DiscardTrainStep, EmergencyMoneyMixin, TrainMixin

__all__ = [
    "AcquireCompanyStep", "AssignStep", "BankruptStep", "BuyCompanyStep", "BuySellParSharesStep",
    "BuySingleTrainOfTypeStep", "BuyTrainStep", "CompanyPendingParStep", "DiscardTrainStep", "DividendStep",
    "DraftStep", "EmergencyMoneyMixin", "ExchangeStep", "HomeTokenStep", "IssueSharesStep", "PassableAuctionMixin",
    "RouteStep", "ShareBuying", "SpecialBuyStep", "SpecialTokenStep", "SpecialTrackStep", "TokenStep",
    "TokenerMixin", "TrackStep", "TrackerMixin", "TrainMixin", "WaterfallAuctionStep", "sort_holdings",
]
