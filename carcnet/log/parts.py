"""The log's knowledge of each expansion, a part each (``docs/architecture.md``, "Expansions"): the
maps of the moves an expansion adds (``protocol/log.md`` §6) and the ``options`` flag that says it is
played (§5), as data the codec reads (:mod:`carcnet.log.codec`), which names none of them but The
River's and The Abbot's flags of format 1. A move's map is its ``type`` and its fields,
each a position (``[x, y]``), a segment (an int ≥ 0) or a bool, in the table's order.

To add an expansion's move: its :class:`MoveShape` in its part here, in the order ``protocol/log.md``
§6 lists the types.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from carcnet.engine import Flock, Move, MoveDragon, MoveFairy, RemoveKnight, ReturnAbbot, SecondTile

__all__ = ["FLAGS", "PARTS", "SHAPES", "FieldKind", "MoveShape"]

#: A field's kind: a board position ``[x, y]``, a segment index (int ≥ 0) or a bool.
FieldKind = Literal["pos", "segment", "bool"]


@dataclass(frozen=True, slots=True)
class MoveShape:
    """The map of one expansion's move.

    Attributes:
        type: The map's ``type``.
        move: The move's class; built from the fields' values in order.
        fields: ``(key, attribute, kind)`` for each field: its key in the map, the move's attribute
            it holds, its :data:`FieldKind`.
    """

    type: str
    move: type[Move]
    fields: tuple[tuple[str, str, FieldKind], ...]

    @property
    def keys(self) -> tuple[str, ...]:
        """The map's keys, ``type`` first."""
        return ("type", *(key for key, _attribute, _kind in self.fields))


_POS: tuple[str, str, FieldKind] = ("pos", "position", "pos")
_SEGMENT: tuple[str, str, FieldKind] = ("segment", "segment", "segment")

#: Each expansion's moves by the engine's ``Expansion.name``, in ``protocol/log.md`` §6's order.
PARTS: dict[str, tuple[MoveShape, ...]] = {
    "abbot": (MoveShape("return-abbot", ReturnAbbot, (_POS,)),),
    "traders": (MoveShape("second-tile", SecondTile, (("take", "take", "bool"),)),),
    "hills-sheep": (MoveShape("flock", Flock, (("grow", "grow", "bool"),)),),
    "princess-dragon": (MoveShape("dragon", MoveDragon, (_POS,)), MoveShape("princess", RemoveKnight, (_POS, _SEGMENT)),
                        MoveShape("fairy", MoveFairy, (_POS, _SEGMENT))),
}
#: Every expansion's move shape, in order.
SHAPES: tuple[MoveShape, ...] = tuple(shape for shapes in PARTS.values() for shape in shapes)

#: The ``options`` flags present (true) exactly when their expansion is played (``protocol/log.md`` §5),
#: each with the :class:`~carcnet.engine.Rules` field it sets, in the map's order.
FLAGS: tuple[tuple[str, str], ...] = (
    ("inns", "inns"), ("traders", "traders"), ("hills-sheep", "hills_sheep"), ("princess-dragon", "princess_dragon"),
)
