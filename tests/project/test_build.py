"""The optional mypyc build (``setup.py``), as far as it can be checked without a C compiler; the
build itself is checked by ``make test-compiled`` (``tests_compiled/``)."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def setup_py(flag: str, *args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, LIVERPOOL_MYPYC=flag)
    command = [sys.executable, "setup.py", *args]
    return subprocess.run(command, check=False, cwd=ROOT, env=env, capture_output=True, text=True)


def test_the_build_flag_is_checked() -> None:
    assert setup_py("0", "--name").stdout.strip() == "liverpool-rummy"
    refused = setup_py("yes", "--name")
    assert refused.returncode != 0
    assert "LIVERPOOL_MYPYC must be 0 or 1, got 'yes'" in refused.stderr


def test_the_build_compiles_every_module_of_the_greedy_package() -> None:
    """A module added to ``liverpool.bots.greedy`` is compiled with the others (one mypyc group)."""
    tree = ast.parse((ROOT / "setup.py").read_text())
    names = ("ENGINE", "RL", "COMPILED")
    nodes = [n for n in tree.body if isinstance(n, ast.Assign) and ast.unparse(n.targets[0]) in names]
    assert [ast.unparse(n.targets[0]) for n in nodes] == list(names)
    # setup.py runs from the project's root (pip, setuptools): its paths are relative to it
    body = "; ".join(ast.unparse(n) for n in nodes)
    code = f"import importlib.util; from pathlib import Path; {body}; print(chr(10).join(COMPILED))"
    env = dict(os.environ, LIVERPOOL_MYPYC="0")
    done = subprocess.run(
        [sys.executable, "-c", code],
        check=True,
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    compiled = done.stdout.split()
    package = ROOT / "src" / "liverpool" / "bots" / "greedy"
    expected = sorted(str(path.relative_to(ROOT)) for path in package.glob("*.py"))
    assert [name for name in compiled if name.startswith("src/liverpool/bots/greedy/")] == expected
    # and every engine module it names exists (a renamed module would silently drop out of the build)
    assert all((ROOT / name).is_file() for name in compiled)
    assert "src/liverpool/bots/greedy/__init__.py" in compiled and len(compiled) > 2
