"""Build hook of setuptools (the project's metadata is in ``pyproject.toml``).

With ``LIVERPOOL_MYPYC=1`` in the environment, the greedy bot (every module of the package
``liverpool.bots.greedy``, also the strong bot's playout policy), the engine's game class (the
modules of ``liverpool.game`` but ``common``), the solver (every module of ``liverpool.solver``),
``melds`` and, when numpy is installed, the RL environment's action indexer and observation
encoder (``liverpool.env.choices``, ``liverpool.env.encoder``) are compiled to C extensions with
mypyc; the rest stays pure Python
(``cards``, ``events`` and ``game/common`` subclass builtins, which mypyc does not compile;
compiled, the RL environment's frozen layout dataclasses refuse their class constants). The compiled modules
decide and observe exactly as the source (``make test-compiled``, ``tests_compiled/``); ``make
bench`` measures their speed. It needs a C compiler, the Python
headers, mypy and setuptools in the building environment::

    LIVERPOOL_MYPYC=1 pip install --no-build-isolation .

``make fast`` builds it into ``build/fast``. Without the variable the build is pure Python.
"""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path

from setuptools import Extension, setup

ENGINE = [
    *(f"game/{name}.py" for name in ("__init__", "answers", "checks", "contracts", "core", "listing")),
    *(f"game/{name}.py" for name in ("moves", "positions", "queries", "views")),
    *(f"solver/{path.name}" for path in Path("src/liverpool/solver").glob("*.py")),
    "melds.py",
]
RL = ["env/choices.py", "env/encoder.py"]
"""The RL environment's action indexer and observation encoder, compiled when numpy (their import) is installed."""
COMPILED = sorted(
    [f"src/liverpool/{name}" for name in ENGINE]
    + ([f"src/liverpool/{name}" for name in RL] if importlib.util.find_spec("numpy") is not None else [])
    + [str(path) for path in Path("src/liverpool/bots/greedy").glob("*.py")]
)
"""The modules mypyc compiles, in one group (so that they call one another natively): the greedy
bot's package, the engine's modules in ``ENGINE`` and, with numpy, the RL modules of ``RL``."""


def ext_modules() -> list[Extension]:
    """The C extensions of this build: none unless ``LIVERPOOL_MYPYC`` is ``1``."""
    flag = os.environ.get("LIVERPOOL_MYPYC", "0")
    if flag not in {"0", "1"}:
        raise SystemExit(f"LIVERPOOL_MYPYC must be 0 or 1, got {flag!r}")
    if flag == "0":
        return []
    from mypyc.build import mypycify

    return mypycify(COMPILED, opt_level="3")


setup(ext_modules=ext_modules())
