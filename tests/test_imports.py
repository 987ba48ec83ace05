"""The modules of ``src/boardroom`` import each other without circles (DESIGN.md: imports go
down the layers), counting imports made inside functions and for type checking too."""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).parents[1] / "src"


def _module(path: Path) -> str:
    return ".".join(path.relative_to(SRC).with_suffix("").parts).removesuffix(".__init__")


def _graph() -> dict[str, set[str]]:
    files = {_module(path): path for path in (SRC / "boardroom").rglob("*.py")}
    graph: dict[str, set[str]] = {}
    for name, path in files.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        deps: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    parts = package.split(".")
                    base = ".".join(parts[:len(parts) - node.level + 1] + ([base] if base else []))
                for alias in node.names:
                    full = f"{base}.{alias.name}"
                    deps.add(full if full in files else base)
            elif isinstance(node, ast.Import):
                deps.update(alias.name for alias in node.names)
        graph[name] = {dep for dep in deps if dep in files and dep != name}
    return graph


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on.add(node)
        for dep in graph[node]:
            if dep not in index:
                visit(dep)
                low[node] = min(low[node], low[dep])
            elif dep in on:
                low[node] = min(low[node], index[dep])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_no_module_imports_itself_through_others() -> None:
    assert _cycles(_graph()) == []


def test_the_http_routes_use_no_command_module() -> None:
    deps = _graph()["boardroom.server.http"]
    assert [dep for dep in deps if dep.startswith("boardroom.commands")] == []


# DESIGN.md's layers, lowest first: a module imports only from its own layer or lower ones.
# ``fairness`` (the deal's seeds) sits with the cards it shuffles; the benches and commands are
# the command line's, and so is ``cluster`` (the processes of ``boardroom cluster up``).
LAYERS = (
    ("boardroom", "boardroom.cards", "boardroom.fairness"),
    ("boardroom.evaluation",),
    ("boardroom.rules",),
    ("boardroom.engine",),
    ("boardroom.table",),
    ("boardroom.tournament",),
    ("boardroom.bots",),
    ("boardroom.store",),
    ("boardroom.server",),
    ("boardroom.cli", "boardroom.commands", "boardroom.bench", "boardroom.cluster",
     "boardroom.__main__"),
)


def _layer(module: str) -> int:
    """The layer of ``module``: that of the longest package or module of ``LAYERS`` it is in."""
    best, found = -1, None
    for rank, names in enumerate(LAYERS):
        for name in names:
            if (module == name or module.startswith(name + ".")) and len(name) > best:
                best, found = len(name), rank
    assert found is not None, f"{module} is in no layer of DESIGN.md: add it to LAYERS"
    return found


def test_every_import_goes_down_the_layers() -> None:
    upward = sorted(f"{module} imports {dep}" for module, deps in _graph().items()
                    for dep in deps if _layer(dep) > _layer(module))
    assert upward == []


def test_the_layer_check_sees_an_upward_import() -> None:
    graph = {"boardroom.engine.hand": {"boardroom.table.table"},
             "boardroom.table.table": {"boardroom.engine.hand"}}
    assert _cycles(graph) == [["boardroom.engine.hand", "boardroom.table.table"]]
    assert _layer("boardroom.table.table") > _layer("boardroom.engine.hand")
    assert _layer("boardroom.server.room") > _layer("boardroom.store.store")
