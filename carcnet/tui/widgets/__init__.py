"""Textual widgets of the game screen."""

from .board import BoardView

__all__ = ["BoardView"]
