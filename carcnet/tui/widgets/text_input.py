"""Provides :class:`TextInput`: a text field whose editing keys keep the order they were typed in."""

from __future__ import annotations

from textual import events
from textual.widgets import Input

__all__ = ["TextInput"]


class TextInput(Input):
    """An :class:`~textual.widgets.Input` that handles its own editing keys (Backspace, Delete, the
    arrows, Home, End, Ctrl+U…) as soon as they come, as it does letters.

    A plain ``Input`` inserts a letter when the key reaches it, but leaves its other keys to the app's
    bindings, which see a key only after it has bubbled up through every container around the field:
    in a burst of typing the letters typed after a Backspace were inserted before it deleted
    ("Bobby", 5 × Backspace, "Zed", 3 × Backspace, "Alice" left "BobAl"). The field's own bindings
    come first in the app's order anyway, so running them here changes what a key does in no case,
    only when."""

    async def _on_key(self, event: events.Key) -> None:
        if not event.is_printable:
            for binding in self._bindings.key_to_bindings.get(event.key, ()):
                if not binding.priority and await self.app.run_action(binding.action, self):
                    event.stop()
                    event.prevent_default()
                    return
        await super()._on_key(event)
