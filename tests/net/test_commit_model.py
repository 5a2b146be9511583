"""The commit rule's model check (:mod:`tests.net.commit_model`): seeded schedules of splits, moves and
handovers over in-memory sessions, each ending in a heal after which the table must become one log
and finish the game, no peer stopped. Both with seeded draws and with table draws (wire.md §5.7).

The seeds are the first ones of each kind, and those that failed before the fixes they name (on the
code of f715bb5: a table that never healed, or a peer that stopped the game on a false proof). A
sweep of more: ``python -m tests.net.commit_model -n 300 [--draws]``."""

from __future__ import annotations

import pytest

from .commit_model import run

#: Schedules that failed on f715bb5, and what failed (the same numbers the model prints).
FOUND = {
    21: "never healed: 3 peers at 9, 6 and 6, commit index 4 everywhere",
    63: "never healed: 5 peers at 2 to 5, nothing committed",
    117: "never healed: 3 peers at 2, 4 and 2",
    155: "stopped: a batch read as continuing another peer's kept batch, a desync proven from two branches",
    224: "never healed: one peer left at 4 (commit index 2) while the others committed 8",
}

SEEDS = sorted({*range(1, 21), *FOUND})
#: With table draws, on 2856981 (the fixes of the table above).
DRAW_FOUND = {
    155: "stopped: a handover held back joined with another peer's next entries, a desync proven from two branches",
}
DRAW_SEEDS = sorted({*range(1, 21), *DRAW_FOUND})


@pytest.mark.parametrize("seed", SEEDS, ids=[f"seed={seed}" for seed in SEEDS])
def test_a_split_schedule_heals_into_one_finished_log(seed: int) -> None:
    assert run(seed) is None


@pytest.mark.parametrize("seed", DRAW_SEEDS, ids=[f"seed={seed}" for seed in DRAW_SEEDS])
def test_a_split_schedule_with_table_draws_heals_into_one_finished_log(seed: int) -> None:
    assert run(seed, draws=True) is None
