"""A throwaway ``redis-server`` on a free loopback port, for the distributed example and tests.

The server keeps nothing on disk (no RDB snapshots, no append-only file) and listens on
127.0.0.1 only. It needs the ``redis-server`` binary (Debian/Ubuntu: ``apt-get install
redis-server``; macOS: ``brew install redis``) and redis-py.
"""

from __future__ import annotations

import shutil
import socket
import subprocess
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

#: Where to look for the server binary: the PATH first, then Debian's locations.
SERVER_NAMES = ("redis-server", "/usr/bin/redis-server", "/usr/sbin/redis-server")
#: How long a new server may take to answer.
START_TIMEOUT = 10.0


def find_redis_server() -> str | None:
    """The path of a ``redis-server`` binary, or None when there is none."""
    return next((found for name in SERVER_NAMES if (found := shutil.which(name))), None)


def free_port() -> int:
    """A TCP port of 127.0.0.1 that was free a moment ago."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass
class LocalRedis:
    """A running server: its process, its ``redis://`` URL and its working directory."""

    process: subprocess.Popen[bytes]
    url: str
    directory: Path

    def stop(self) -> None:
        """Stop the server (SIGTERM, then SIGKILL after 10 s)."""
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


def start_redis_server(
    binary: str, directory: Path, attempts: int = 3, port: int = 0, options: Sequence[str] = ()
) -> LocalRedis:
    """Start ``binary`` on a free port (or ``port``: restarting a server there) with
    ``directory`` as its working directory and more command-line ``options``.

    Returns once this server answers (the one answering on the port says it is this
    process: another process may take the port between probe and bind, and its server would
    answer for ours; that is retried on another port); RuntimeError with the end of its log
    when it does not start.
    """
    directory.mkdir(parents=True, exist_ok=True)
    log = directory / "redis.log"
    problem = ""
    for _ in range(attempts):
        chosen = port or free_port()
        command = [
            binary, "--port", str(chosen), "--bind", "127.0.0.1", "--dir", str(directory),
            "--save", "", "--appendonly", "no", "--logfile", str(log), *options,
        ]  # fmt: skip
        process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        server = LocalRedis(process, f"redis://127.0.0.1:{chosen}/0", directory)
        problem = _wait_until_ready(server, options)
        if not problem:
            return server
        server.stop()
    tail = log.read_text(errors="replace")[-800:] if log.exists() else ""
    raise RuntimeError(f"redis-server did not start: {problem}\n{tail}")


def _wait_until_ready(server: LocalRedis, options: Sequence[str] = ()) -> str:
    """An empty string once ``server`` itself answers (INFO's ``process_id`` is its pid),
    else what went wrong."""
    import redis  # the example's distributed profile needs redis-py anyway

    password = dict(zip(options[::2], options[1::2])).get("--requirepass")
    client = redis.Redis.from_url(server.url, password=password)
    deadline = time.monotonic() + START_TIMEOUT
    try:
        while time.monotonic() < deadline:
            if server.process.poll() is not None:
                return f"exit code {server.process.returncode}"
            try:
                answering = client.info("server")["process_id"]
            except redis.ConnectionError:
                time.sleep(0.05)
                continue
            if answering == server.process.pid:
                return ""
            # Another process took the port between the probe and our bind: ours will exit.
            return f"the port is another server's (pid {answering})"
        return f"no answer within {START_TIMEOUT:g} s"
    finally:
        client.close()
