"""Build hook of setuptools (the project's metadata is in ``pyproject.toml``).

With ``LIVERPOOL_MYPYC=1`` in the environment, the greedy bot (every module of the package
``liverpool.bots.greedy``, also the strong bot's playout policy) is compiled to C extensions with
mypyc; the engine stays pure Python. The compiled modules make the same decisions as the source
(``make test-compiled``, ``tests_compiled/``), about 1.3 times as fast (``make bench``). It needs a
C compiler, the Python headers, mypy and setuptools in the building environment::

    LIVERPOOL_MYPYC=1 pip install --no-build-isolation .

``make fast`` builds it into ``build/fast``. Without the variable the build is pure Python.
"""

from __future__ import annotations

import os
from pathlib import Path

from setuptools import Extension, setup

COMPILED = sorted(str(path) for path in Path("src/liverpool/bots/greedy").glob("*.py"))
"""The modules mypyc compiles: the greedy bot's package (one group, so its modules call one another
natively)."""


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
