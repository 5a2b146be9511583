"""The inspector under the scoreboard scrolls: a panel of fixed height whose text goes on below says
so, and ``i`` (the next feature) scrolls to the feature it outlines (Textual pilot). Before, the
panel's fixed height hid a tile's second feature with no hint."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("textual")

from textual.containers import VerticalScroll

from carcnet.log import load
from carcnet.tui.app import CarcnetApp
from carcnet.tui.screens.replay import ReplayScreen

VECTORS = Path(__file__).parents[2] / "protocol" / "vectors"


def _visible_text(app, widget) -> str:
    strips = app.screen._compositor.render_strips()
    region = widget.region
    return "\n".join("".join(s.text for s in strips[y])[region.x:region.right] for y in range(region.y, region.bottom))


@pytest.mark.asyncio
@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_the_inspector_scrolls_to_each_feature_and_says_when_there_is_more(tmp_path, size):
    app = CarcnetApp(data_dir=tmp_path, bot_delay=0)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        screen = ReplayScreen(load(VECTORS / "log2-signed.bin"))
        await app.push_screen(screen)
        await pilot.pause()
        await pilot.pause()
        box = screen.query_one("#inspector-box", VerticalScroll)
        log = screen.log_panel
        rule = log.region.y  # the rule under the inspector: the log's top border

        def hint() -> str:
            strips = app.screen._compositor.render_strips()
            return "".join(s.text for s in strips[rule])[log.region.x:log.region.right]

        # the start tile D: a city, a road and two fields; at 80 x 24 they do not all fit
        assert "The start tile" in str(screen.inspector.content)
        overflowing = box.max_scroll_y > 0
        assert ("more" in hint()) == overflowing, hint()
        if size == (80, 24):
            assert overflowing and "▼ more: mouse wheel, or i" in hint()
        features = str(screen.inspector.content).count("\n  ") + 1  # the others, and the chosen one
        for _ in range(features):
            await pilot.press("i")
            await pilot.pause()
            await pilot.pause()
            # the chosen feature's line is in the panel's view
            assert "▸" in _visible_text(app, box), _visible_text(app, box)
        if overflowing:
            box.scroll_end(animate=False, immediate=True)
            await pilot.pause()
            await pilot.pause()
            assert "more" not in hint()  # at the end: nothing more below
