"""Cardavia: belote, played and taught. The rules engine lives in :mod:`cardavia.belote`."""

__version__ = "0.1.0"
