"""Bots: programs that choose a legal move for a seat. May import the engine only."""

from .base import Bot
from .random_bot import RandomBot

__all__ = ["Bot", "RandomBot"]
