"""Imports point one way (docs/engine.md, issue 22 "no import circles").

The graph is read from the source with ``ast``: an edge ``a -> b`` for every ``import`` or
``from ... import`` of a ``liverpool`` module ``b`` in module ``a``. Two graphs are checked:

- the run-time graph (module level, outside ``if TYPE_CHECKING:``), which must have no cycle at all;
- the full graph (also type-only and function-level imports), in which the pairs that once imported
  each other (``melds``/``solver``, ``positions``/``game``, ``server.lobby``/``server.table``) point
  one way only.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2] / "src" / "liverpool"


def _name(path: Path) -> str:
    parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {_name(path): path for path in ROOT.rglob("*.py")}


def _targets(module: str, is_package: bool, node: ast.Import | ast.ImportFrom) -> list[str]:
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    if node.level == 0:
        base = node.module or ""
    else:
        parts = module.split(".") if is_package else module.split(".")[:-1]
        parts = parts[: len(parts) - (node.level - 1)]
        base = ".".join(parts + ([node.module] if node.module else []))
    subs = [f"{base}.{alias.name}" for alias in node.names if f"{base}.{alias.name}" in MODULES]
    return subs if len(subs) == len(node.names) else [base, *subs]


def _imports_of(module: str, nodes: list[ast.stmt], *, everything: bool) -> set[str]:
    """The ``liverpool`` modules that ``nodes`` (statements of ``module``) import."""
    is_package = MODULES[module].name == "__init__.py"
    found: set[str] = set()
    for node in nodes:
        inner: list[ast.stmt] = []
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            inner = [*node.body, *node.orelse] if everything else node.orelse
        elif isinstance(node, ast.Import | ast.ImportFrom):
            for target in _targets(module, is_package, node):
                # importing a module runs its packages' __init__ too: not an edge of its own
                if target in MODULES and target != module and not module.startswith(target + "."):
                    found.add(target)
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            if everything or isinstance(node, ast.ClassDef):
                inner = node.body
        elif isinstance(node, ast.If | ast.Try | ast.With | ast.For | ast.While):
            inner = [*getattr(node, "body", []), *getattr(node, "orelse", []), *getattr(node, "finalbody", [])]
            for handler in getattr(node, "handlers", []):
                inner.extend(handler.body)
        found |= _imports_of(module, inner, everything=everything)
    return found


def _graph(*, everything: bool) -> dict[str, set[str]]:
    return {
        module: _imports_of(module, ast.parse(path.read_text()).body, everything=everything)
        for module, path in MODULES.items()
    }


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for start in sorted(graph):
        if start in index:
            continue
        work: list[tuple[str, list[str]]] = [(start, sorted(graph[start]))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, todo = work[-1]
            if todo:
                nxt = todo.pop()
                if nxt not in index:
                    index[nxt] = low[nxt] = len(index)
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, sorted(graph[nxt])))
                elif nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def test_the_graph_is_read() -> None:
    """The reader finds the imports it must (a reader that finds none would pass every check)."""
    graph = _graph(everything=False)
    assert "liverpool.server.table" in graph["liverpool.server.lobby"]
    assert "liverpool.melds" in graph["liverpool.solver.tables"]
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_no_import_circle_at_run_time() -> None:
    assert _cycles(_graph(everything=False)) == []


def test_the_old_circles_point_one_way() -> None:
    graph = _graph(everything=True)

    def imports(low: str, high: str) -> list[str]:
        """Edges from modules named ``low...`` up to modules named ``high...``."""
        return [
            f"{a} -> {b}"
            for a, targets in graph.items()
            if a == low or a.startswith(low + ".")
            for b in targets
            if b == high or b.startswith(high + ".")
        ]

    assert imports("liverpool.melds", "liverpool.solver") == []
    assert imports("liverpool.game", "liverpool.positions") == []
    assert imports("liverpool.server.table", "liverpool.server.lobby") == []
