"""The largest size a file reaches while something runs, sampled from a thread: the SQLite
store's WAL under load (``benchmarks/store.py``, ``tests/server/test_server_durable.py``).

>>> import tempfile
>>> from pathlib import Path
>>> with tempfile.TemporaryDirectory() as folder:
...     path = Path(folder) / "grows"
...     with FilePeak(path) as sampler:
...         _ = path.write_bytes(b"x" * 1000)
...         sampler.wait_sample()
...         path.unlink()
...         sampler.wait_sample()
>>> sampler.peak, path.exists()
(1000, False)
"""

from __future__ import annotations

import contextlib
import threading
from pathlib import Path
from types import TracebackType

__all__ = ["FilePeak"]


class FilePeak:
    """A context manager: ``peak`` is the largest size of ``path`` (bytes; 0 while it does not
    exist) seen by a daemon thread that looks every ``every`` seconds, and once more at the end."""

    def __init__(self, path: Path | str, every: float = 0.02) -> None:
        self.path = Path(path)
        self.every = every
        self.peak = 0
        self.samples = 0
        self._done = threading.Event()
        self._sampled = threading.Condition()
        self._thread: threading.Thread | None = None

    def sample(self) -> int:
        """Look at the file's size now (the thread calls it); the peak so far."""
        with contextlib.suppress(FileNotFoundError):
            self.peak = max(self.peak, self.path.stat().st_size)
        with self._sampled:
            self.samples += 1
            self._sampled.notify_all()
        return self.peak

    def wait_sample(self, timeout: float = 10.0) -> None:
        """Wait until the thread has taken a sample after this call began."""
        with self._sampled:
            wanted = self.samples + 2  # one may be under way with the size before
            self._sampled.wait_for(lambda: self.samples >= wanted, timeout=timeout)

    def _run(self) -> None:
        while not self._done.is_set():
            self.sample()
            self._done.wait(self.every)

    def __enter__(self) -> FilePeak:
        self._thread = threading.Thread(target=self._run, name=f"peak-{self.path.name}", daemon=True)
        self._thread.start()
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        self._done.set()
        if self._thread is not None:
            self._thread.join()
        self.sample()
