"""The test folders (rules/, properties/, bots/, sim/, engine/, project/) import the shared helpers
as top-level modules (``from helpers import ...``, ``from rules_helpers import ...``): this folder is
put first on ``sys.path`` for them."""

from __future__ import annotations

import sys
from pathlib import Path

HERE = str(Path(__file__).resolve().parent)
if HERE not in sys.path:
    sys.path.insert(0, HERE)
