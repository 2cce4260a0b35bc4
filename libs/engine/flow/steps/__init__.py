"""Steps common to many titles. Titles subclass them for what differs."""

from .auction import CompanyPendingParStep, PassableAuctionMixin, WaterfallAuctionStep
from .issue import IssueSharesStep
from .operating import (AcquireCompanyStep, AssignStep, BankruptStep, BuyCompanyStep, DividendStep, HomeTokenStep,
                        RouteStep, SpecialBuyStep, SpecialTokenStep, TokenerMixin, TokenStep, sort_holdings)
from .stock import BuySellParSharesStep, ShareBuying
from .track import SpecialTrackStep, TrackerMixin, TrackStep
from .trains import BuyTrainStep, DiscardTrainStep, EmergencyMoneyMixin, TrainMixin

__all__ = [
    "AcquireCompanyStep", "AssignStep", "BankruptStep", "BuyCompanyStep", "BuySellParSharesStep", "BuyTrainStep",
    "CompanyPendingParStep", "DiscardTrainStep", "DividendStep", "EmergencyMoneyMixin", "HomeTokenStep",
    "IssueSharesStep", "PassableAuctionMixin", "RouteStep", "ShareBuying", "SpecialBuyStep", "SpecialTokenStep",
    "SpecialTrackStep", "TokenStep",
    "TokenerMixin", "TrackStep", "TrackerMixin", "TrainMixin", "WaterfallAuctionStep", "sort_holdings",
]
