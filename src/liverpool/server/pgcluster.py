"""A PostgreSQL cluster of its own for ``make cluster`` and the tests: Debian's binaries
(``/usr/lib/postgresql/N/bin``), ``initdb`` and ``pg_ctl`` run as an unprivileged user (they refuse
root: the ``postgres`` system user when run as root), listening on 127.0.0.1 only, trust
authentication for its superuser ``liverpool`` (local use; docs/deploy.md says what a real site
sets up instead).

``python -m liverpool.server.pgcluster [--dir .cluster] [--port 5433] [--workers 2] [--serve-port 8000]``
(what ``make cluster`` runs): starts the cluster in the folder (made the first time), creates the
database ``liverpool``, runs the migrations once (the release step), then ``liverpool serve
--workers N`` on it (several workers on one port, server/bus.py); Ctrl-C stops the server and the
cluster.
"""

from __future__ import annotations

import argparse
import os
import pwd
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

__all__ = ["Cluster", "main", "pg_bin"]


def pg_bin() -> Path:
    """The folder of PostgreSQL's server binaries (the newest Debian one), or RuntimeError."""
    found = sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"), key=lambda p: int(p.parent.parent.name))
    if found:
        return found[-1].parent
    on_path = shutil.which("initdb")
    if on_path is None:
        raise RuntimeError(
            "PostgreSQL's server binaries are missing (no /usr/lib/postgresql/*/bin/initdb): "
            "`make test` and `make cluster` install Debian's postgresql; or run `apt-get install postgresql`"
        )
    return Path(on_path).parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Cluster:
    """``start()`` a cluster in ``root`` (a temporary folder by default), ``database()`` a new
    database's URL, ``stop()`` it (``remove``: and its folder)."""

    def __init__(self, root: Path | None = None, port: int | None = None) -> None:
        self.bin = pg_bin()
        self.port = port or free_port()
        self.temporary = root is None
        self.root = Path(tempfile.mkdtemp(prefix="liverpool-pg-")) if root is None else root.resolve()
        self.root.mkdir(parents=True, exist_ok=True)
        self.data = self.root / "data"
        self.user: str | None = None
        if os.geteuid() == 0:
            self.user = "postgres"
            pw = pwd.getpwnam(self.user)
            os.chown(self.root, pw.pw_uid, pw.pw_gid)
        os.chmod(self.root, 0o755)

    def _run(self, *cmd: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        prefix = ["runuser", "-u", self.user, "--"] if self.user else []
        done = subprocess.run([*prefix, *cmd], capture_output=True, text=True, check=False)
        if check and done.returncode != 0:
            raise RuntimeError(f"{' '.join(cmd)} failed: {done.stdout[-1500:]}{done.stderr[-1500:]}")
        return done

    def start(self) -> Cluster:
        if not (self.data / "PG_VERSION").exists():
            self._run(str(self.bin / "initdb"), "-D", str(self.data), "-U", "liverpool", "-A", "trust", "-E", "UTF8")
        opts = f"-c listen_addresses=127.0.0.1 -p {self.port} -k {self.root} -c max_connections=200"
        if self.temporary:
            opts += " -c fsync=off"  # a throwaway cluster of the tests: nothing to keep after a power cut
        log = self.root / "postgres.log"
        self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-l", str(log), "-o", opts, "-w", "start")
        deadline = time.monotonic() + 30
        while True:
            with socket.socket() as s:
                if s.connect_ex(("127.0.0.1", self.port)) == 0:
                    break
            if time.monotonic() > deadline:
                raise RuntimeError(f"PostgreSQL did not start: {log.read_text()[-2000:]}")
            time.sleep(0.05)
        return self

    def url(self, database: str = "postgres") -> str:
        return f"postgresql+asyncpg://liverpool@127.0.0.1:{self.port}/{database}"

    def database(self, name: str | None = None) -> str:
        """A new empty database (``name``: that one, made when missing): its URL."""
        import asyncio
        import uuid

        import asyncpg  # type: ignore[import-untyped]

        name = name or "t_" + uuid.uuid4().hex[:16]

        async def create() -> None:
            conn = await asyncpg.connect(host="127.0.0.1", port=self.port, user="liverpool", database="postgres")
            try:
                if not await conn.fetchval("SELECT 1 FROM pg_database WHERE datname = $1", name):
                    await conn.execute(f'CREATE DATABASE "{name}"')
            finally:
                await conn.close()

        asyncio.run(create())
        return self.url(name)

    def stop(self, mode: str | None = None) -> None:
        """Stop the cluster: ``fast`` (the default; ``immediate`` for a throwaway one, whose folder goes too)."""
        mode = mode or ("immediate" if self.temporary else "fast")
        if (self.data / "postmaster.pid").exists():
            self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", mode, "-w", "stop", check=False)
        if self.temporary:
            shutil.rmtree(self.root, ignore_errors=True)


def migrate(url: str) -> None:
    """The release step: the store's Alembic migrations, once, before the workers start."""
    import asyncio

    from .store import Store

    async def run() -> None:
        store = Store(url)
        await store.open()  # migrates to head
        await store.close()

    asyncio.run(run())


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m liverpool.server.pgcluster", description=__doc__.split("\n\n")[0])
    p.add_argument("--dir", type=Path, default=Path(".cluster"), help="the cluster's folder (default .cluster)")
    p.add_argument("--port", type=int, default=5433, help="PostgreSQL's port on 127.0.0.1 (default 5433)")
    p.add_argument("--serve-port", type=int, default=8000, help="the game server's port (default 8000)")
    p.add_argument("--workers", type=int, default=2, help="server processes (liverpool serve --workers; default 2)")
    args = p.parse_args(argv)
    cluster = Cluster(args.dir, args.port)
    print(f"PostgreSQL: starting the cluster in {cluster.root} on 127.0.0.1:{cluster.port} ...", flush=True)
    cluster.start()
    server: subprocess.Popen[bytes] | None = None
    try:
        url = cluster.database("liverpool")
        print("release step: the store's migrations ...", flush=True)
        migrate(url)
        cmd = [sys.executable, "-c", "import sys; from liverpool.cli import main; sys.exit(main())", "serve"]
        cmd += ["--database", url, "--workers", str(args.workers), "--port", str(args.serve_port)]
        server = subprocess.Popen(cmd)
        return server.wait()
    except KeyboardInterrupt:
        return 130
    finally:
        if server is not None and server.poll() is None:
            server.send_signal(signal.SIGTERM)
            try:
                server.wait(timeout=30)
            except subprocess.TimeoutExpired:
                server.kill()
        print("PostgreSQL: stopping the cluster ...", flush=True)
        cluster.stop()


if __name__ == "__main__":
    raise SystemExit(main())
