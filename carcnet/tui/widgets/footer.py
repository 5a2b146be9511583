"""Provides :class:`KeyFooter`: the footer of every screen, showing whole keys only.

Textual's :class:`~textual.widgets.Footer` lays its keys out in a row wider than the terminal and lets
the terminal cut it: at 80 columns a key's name was cut mid-word ("o S", "p If it ended"), and a group
of keys ran into the next key ("↑↓←→ Movetab Next"). :class:`KeyFooter` measures each key and shows
only those that fit whole, each separated from the next; when some do not fit it ends with ``? Keys``,
and ``?`` (:class:`~carcnet.tui.screens.help.HelpScreen`) lists every key of the screen.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from rich.cells import cell_len
from textual import events
from textual.app import ComposeResult
from textual.binding import ActiveBinding
from textual.widgets import Footer
from textual.widgets._footer import FooterKey

from carcnet.i18n import N_, _, pgettext

__all__ = ["FooterItem", "KeyFooter", "fit_items", "footer_items", "key_name", "shown_key"]

#: The key that opens the list of every key of the screen (the help screen).
HELP_KEY = "question_mark"


def key_name(name: str) -> str:
    """The key Textual calls *name* (``esc``, ``tab``, ``space``, ``pgup``…) in the language in use
    (a German keyboard says ``Leertaste``, ``Entf``); another name as it is."""
    names = {
        "esc": pgettext("key", "esc"), "tab": pgettext("key", "tab"), "space": pgettext("key", "space"),
        "pgup": pgettext("key", "pgup"), "pgdn": pgettext("key", "pgdn"), "del": pgettext("key", "del"),
        "home": pgettext("key", "home"), "end": pgettext("key", "end"), "shift": pgettext("key", "shift"),
        "insert": pgettext("key", "insert"),
    }
    return names.get(name, name)


def shown_key(display: str) -> str:
    """A key as Textual shows it (``esc``, ``shift+tab``, ``^p``) with its names in the language in
    use (:func:`key_name`)."""
    return re.sub(r"[a-z]{2,}", lambda match: key_name(match.group()), display)


@dataclass(frozen=True, slots=True)
class FooterItem:
    """One entry of the footer: a key (or a group of keys sharing a description) and what it does.

    Attributes:
        key: The key pressed when the entry is clicked (the first key of a group).
        display: How the key is shown (``"↑↓←→"`` for a group).
        description: What it does.
        action: The binding's action.
        enabled: Whether it does something now (shown dim when not).
        tooltip: The longer description shown under the mouse.
    """

    key: str
    display: str
    description: str
    action: str
    enabled: bool = True
    tooltip: str = ""

    def width(self, compact: bool) -> int:
        """Cells taken on the footer, with the gap after it: ``key description`` and one blank in
        the compact style, `` key description `` in the roomy one."""
        text = cell_len(self.display) + (1 + cell_len(self.description) if self.description else 0)
        return text + (1 if compact else 2)


def footer_items(bindings: dict[str, ActiveBinding], key_display: object) -> list[FooterItem]:
    """The entries a footer shows for *bindings* (a screen's active bindings, in footer order): one
    per action of the bindings with ``show`` set, and one per group of keys (the group's description
    after all its keys, as in ``↑↓←→ Move``). *key_display* is the app's ``get_key_display``. A
    binding's description is its widget's ``binding_description(action)`` where that gives one (what
    the key does now), else the binding's own."""
    display = key_display  # a callable: Binding -> str
    by_action: dict[str, list[ActiveBinding]] = {}
    for active in bindings.values():
        if active.binding.show:
            by_action.setdefault(active.binding.action, []).append(active)
    items: list[FooterItem] = []
    group_of: dict[object, int] = {}
    for actives in by_action.values():
        first = actives[0]
        binding = first.binding
        group = binding.group
        shown = shown_key(display(binding))  # type: ignore[operator]
        if group is not None:
            at = group_of.get(group)
            if at is not None:
                item = items[at]
                items[at] = FooterItem(item.key, item.display + shown, item.description, item.action,
                                       item.enabled or first.enabled, item.tooltip)
                continue
            group_of[group] = len(items)
            items.append(FooterItem(binding.key.split(",")[0], shown, _(group.description), binding.action,
                                    first.enabled, _(first.tooltip or group.description)))
            continue
        # a widget may say what a key does now (the board's ``a``: the figure it switches to)
        describe = getattr(first.node, "binding_description", None)
        description = (describe(binding.action) if callable(describe) else None) or _(binding.description)
        tooltip = first.tooltip or binding.tooltip
        items.append(FooterItem(binding.key.split(",")[0], shown, description, binding.action,
                                first.enabled, _(tooltip) if tooltip else ""))
    return items


def fit_items(items: list[FooterItem], width: int, *, compact: bool, more: FooterItem | None) -> list[FooterItem]:
    """The entries of *items* that fit whole in *width* cells, in their order: all of them if they
    fit; else the first ones up to the first that does not fit (the screen orders its keys most
    needed first), with *more* (``? Keys``) last, its room kept first. The help entry, when *items*
    has one, stays wherever it is and *more* is not added."""
    if sum(item.width(compact) for item in items) <= width:
        return list(items)
    has_help = any(item.key == HELP_KEY for item in items)
    room = width
    chosen: list[FooterItem] = []
    if has_help:
        help_item = next(item for item in items if item.key == HELP_KEY)
        room -= help_item.width(compact)
    elif more is not None:
        room -= more.width(compact)
    for item in items:
        if item.key == HELP_KEY:
            chosen.append(item)
            continue
        if item.width(compact) > room:
            break  # the screen orders its keys most needed first: none after one left out
        chosen.append(item)
        room -= item.width(compact)
    if has_help and room < 0:  # not even the help entry fits
        chosen = [item for item in chosen if item.key != HELP_KEY]
    if not has_help and more is not None and room >= 0:
        chosen.append(more)
    return chosen


class KeyFooter(Footer):
    """The footer: the screen's keys, each whole and apart from the next; the ones that do not fit
    are left out and listed by ``?`` (the footer then ends with ``? Keys``, unless the screen shows its
    own ``? Help``). Lays itself out again when its width changes."""

    DEFAULT_CSS = """
    KeyFooter.-compact FooterKey { margin-right: 1; }
    """

    #: The entry shown when some keys are left out (``?`` lists them all), in English (:meth:`more`
    #: gives it in the language in use).
    MORE = FooterItem(HELP_KEY, "?", N_("Keys"), "app.show_help", True, N_("Every key of this screen"))
    #: Textual's name of the command palette's key (``Ctrl+P``), marked here to be translated.
    PALETTE = N_("palette")

    @classmethod
    def more(cls) -> FooterItem:
        """:data:`MORE` in the language in use."""
        item = cls.MORE
        return FooterItem(item.key, item.display, _(item.description), item.action, True, _(item.tooltip))

    def __init__(self, *, show_command_palette: bool = True, compact: bool = False, id: str | None = None) -> None:
        super().__init__(show_command_palette=show_command_palette, compact=compact, id=id)
        self._width = 0
        #: The entries shown, after the last layout (for tests and the help screen).
        self.shown: list[FooterItem] = []
        #: The entries left out for want of room.
        self.left_out: list[FooterItem] = []

    def compose(self) -> ComposeResult:
        if not self._bindings_ready:
            return
        app = self.app
        active = self.screen.active_bindings
        width = self.size.width or app.size.width
        self._width = width
        items = footer_items(active, app.get_key_display)
        palette = None
        if self.show_command_palette and app.ENABLE_COMMAND_PALETTE:
            palette = active.get(app.COMMAND_PALETTE_BINDING)
        if palette is not None:  # docked right, with a border cell and padding; only if every key fits beside it
            room = cell_len(shown_key(app.get_key_display(palette.binding))) + cell_len(_(palette.binding.description)) + 4
            if sum(item.width(self.compact) for item in items) <= width - room:
                width -= room
            else:
                palette = None  # Ctrl+P still opens it
        shown = fit_items(items, width, compact=self.compact, more=self.more())
        self.shown = shown
        self.left_out = [item for item in items if item not in shown]
        for item in shown:
            yield FooterKey(
                item.key, item.display, item.description, item.action,
                disabled=not item.enabled, tooltip=item.tooltip,
            ).data_bind(compact=Footer.compact)
        if palette is not None:
            yield FooterKey(
                palette.binding.key,
                shown_key(app.get_key_display(palette.binding)),
                _(palette.binding.description),
                palette.binding.action,
                classes="-command-palette",
                disabled=not palette.enabled,
                tooltip=_(palette.binding.tooltip or palette.binding.description),
            )

    def on_resize(self, event: events.Resize) -> None:
        """Lays the keys out again for the new width."""
        if event.size.width != self._width and self._bindings_ready:
            self.call_after_refresh(self.recompose)

    def watch_compact(self, compact: bool) -> None:
        """The entries' widths change with the style: lays them out again."""
        if self.is_attached and self._bindings_ready:
            self.call_after_refresh(self.recompose)
