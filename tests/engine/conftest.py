"""The engine's slow cross-checks run only when asked for (``-m slow``), as pyproject says."""

from __future__ import annotations

from pathlib import Path

import pytest

HERE = Path(__file__).parent


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if config.option.markexpr:
        return
    slow = [item for item in items
            if item.get_closest_marker("slow") and HERE in Path(item.path).parents]
    if slow:
        config.hook.pytest_deselected(items=slow)
        items[:] = [item for item in items if item not in slow]
