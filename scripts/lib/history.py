"""A development server with a long history for the benchmarks: one per size, restarted on the same
database and port, the entries added by the server itself (`--seed-email`, `--seed-heights`,
`--seed-weights`), fetched by the client's first `sync --wait`. Shared by scripts/bench/scale.py and
export.py. Only the Python standard library is used.
"""

import os
import re
import select
import shutil
import subprocess
import threading
import time

import fitiqtools
from fitiqtools import client, register

SYNC_TIMEOUT = 1800  # seconds a filling `sync --wait` may take (100,000 entries on a debug build)
PAGE = re.compile(r"GET (/api/v1/progress\?\S+) 200")


class ServerLog:
    """The development server's log, read from its stderr pipe as it arrives (select on the pipe, in a
    thread, so that the pipe never fills): each line with the perf_counter time it was read."""

    def __init__(self, fd):
        self.fd = fd
        self.lines = []
        self.changed = threading.Condition()
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self):
        pending = b""
        while True:
            ready, _, _ = select.select([self.fd], [], [], 0.5)
            if not ready:
                continue
            try:
                data = os.read(self.fd, 65536)
            except OSError:
                data = b""
            at = time.perf_counter()
            if not data:
                break
            pending += data
            *complete, pending = pending.split(b"\n")
            if complete:
                with self.changed:
                    self.lines += [(at, line.decode("utf-8", "replace")) for line in complete]
                    self.changed.notify_all()
        os.close(self.fd)

    def mark(self):
        with self.changed:
            return len(self.lines)

    def wait_for(self, text, since, timeout=10.0):
        """The arrival time of the first line from index `since` on that holds `text`, and how many lines
        came before it from `since` on."""
        deadline = time.perf_counter() + timeout
        with self.changed:
            while True:
                for index, (at, line) in enumerate(self.lines[since:]):
                    if f" {text.strip()} " in f" {line} ":
                        return at, index
                remaining = deadline - time.perf_counter()
                if remaining <= 0:
                    raise RuntimeError(f"the server logged no {text.strip()!r} within {timeout:.0f} s")
                self.changed.wait(remaining)

    def wait_quiet(self, quiet=0.3, timeout=30.0):
        """Returns once no line has arrived for `quiet` seconds."""
        deadline = time.perf_counter() + timeout
        while time.perf_counter() < deadline:
            seen = self.mark()
            time.sleep(quiet)
            if self.mark() == seen:
                return


class Size:
    """One history size: its server (restarted on the same database and port) and its user."""

    def __init__(self, bin_dir, root, entries, latency_ms=0, weights=0, shape="even", every_metric_days=0):
        self.bin_dir, self.entries, self.latency_ms, self.weights = bin_dir, entries, latency_ms, weights
        self.shape, self.every_metric_days = shape, every_metric_days
        self.tui = os.path.join(bin_dir, "fitiq-tui")
        self.work = os.path.join(root, f"{entries}-entries" + (f"-{weights}-weights" if weights else "")
                                 + (f"-{latency_ms}ms" if latency_ms else "") + f"-{shape}"
                                 + (f"-every-{every_metric_days}d" if every_metric_days else ""))
        os.makedirs(self.work)
        self.database = os.path.join(self.work, "server.sqlite")
        api_key = "bench-" + os.urandom(12).hex()
        self.server_env = fitiqtools.user_env(os.path.join(self.work, "server-home"), FITIQ_DEV_API_KEY=api_key,
                                              FITIQ_DEV_JWT_SECRET=os.urandom(32).hex())
        self.env = fitiqtools.user_env(os.path.join(self.work, "home"), TERM="xterm-256color", FITIQ_API_KEY=api_key)
        self.cli = client(self.tui, self.env)
        self.server = self.log = None
        self.url = None
        self.port = 0

    def start(self, logged=False, seed=()):
        flags = ["--database", self.database, "--bcrypt-cost", "4", *seed]
        if self.latency_ms:
            flags += ["--latency-ms", str(self.latency_ms)]
        read_end = write_end = None
        if logged:
            read_end, write_end = os.pipe()
            flags += ["--log-level", "info"]
        else:
            flags += ["--log-level", "error"]
        try:
            for attempt in range(20):  # the same port again: it may take a moment to be free
                try:
                    self.server, self.url = fitiqtools.start_server(
                        self.bin_dir, self.server_env, *flags, port=self.port,
                        stderr=write_end if logged else subprocess.DEVNULL)
                    break
                except RuntimeError:
                    if not self.port or attempt == 19:
                        raise
                    time.sleep(0.25)
        finally:
            if write_end is not None:
                os.close(write_end)
        self.port = int(self.url.rsplit(":", 1)[1].rstrip("/"))
        if logged:
            self.log = ServerLog(read_end)

    def stop(self):
        fitiqtools.stop(self.server)
        self.server = None
        if self.log:
            self.log.thread.join(5)
            self.log = None

    def fill(self, runs=3, curl=None):
        """Registers the account, restarts the server on its database with the entries seeded by the
        server itself (--seed-email, --seed-heights, --seed-weights, --seed-shape) and lets the client's
        first sync fetch them: once to warm the restarted server and read the history pages it asked for
        (paths with their queries, from the server's log), then `runs` times, each from the cache as it
        was before the first. With `curl`, each of those runs is followed by `curl --parallel
        --parallel-max 8` fetching the same pages (what the first sync read, by a program that only
        downloads), so the two see the machine alike. Returns (seconds to restart with the seeded
        history, median sync seconds, the pages, curl's median seconds or None)."""
        self.email = f"scale{self.entries}w{self.weights}{self.shape}e{self.every_metric_days}@example.com"
        self.start()
        register(self.cli, self.url, self.email)
        self.stop()
        started = time.perf_counter()
        self.start(logged=True, seed=("--seed-email", self.email, "--seed-heights", str(self.entries),
                                      "--seed-weights", str(self.weights), "--seed-shape", self.shape,
                                      "--seed-every-metric-days", str(self.every_metric_days)))
        inserted = time.perf_counter() - started
        home = self.env["HOME"]
        before = home + ".before-sync"
        shutil.copytree(home, before, symlinks=True)

        def sync():
            return run(self.tui, self.env, "sync", "--wait", "--timeout", str(SYNC_TIMEOUT),
                       timeout=SYNC_TIMEOUT + 60) / 1000

        since = self.log.mark()
        first = sync()
        self.log.wait_quiet()
        with self.log.changed:
            lines = [line for _, line in self.log.lines[since:]]
        pages = [match.group(1) for match in map(PAGE.search, lines) if match]
        config = self.curl_config(pages) if curl else None
        samples, by_curl = [], []
        for _ in range(runs):
            shutil.rmtree(home)
            shutil.copytree(before, home, symlinks=True)
            samples.append(sync())
            if config:
                by_curl.append(self.curl_once(curl, config))
        shutil.rmtree(before)
        if config:
            os.remove(config)
        median = sorted(samples)[len(samples) // 2] if samples else first
        return inserted, median, pages, sorted(by_curl)[len(by_curl) // 2] if by_curl else None

    def curl_config(self, pages):
        """A curl configuration fetching `pages` from this server, with the account's token and the API key."""
        token = fitiqtools.login(self.url, self.server_env["FITIQ_DEV_API_KEY"], self.email, fitiqtools.BENCH_PASSWORD)
        config = os.path.join(self.work, "curl.conf")
        with open(config, "w") as text:
            text.write(f'header = "X-API-Key: {self.server_env["FITIQ_DEV_API_KEY"]}"\n'
                       f'header = "Authorization: Bearer {token}"\n')
            for page in pages:
                text.write(f'url = "{self.url}{page}"\noutput = "/dev/null"\n')
        return config

    def curl_once(self, curl, config):
        """Seconds of one `curl --parallel --parallel-max 8` run of `config`."""
        seconds, result = fitiqtools.timed([curl, "--parallel", "--parallel-max", "8", "--no-progress-meter",
                                            "--fail", "--config", config], timeout=SYNC_TIMEOUT)
        if result.returncode != 0:
            raise RuntimeError(f"curl (exit {result.returncode}): {result.stderr[-600:]}")
        return seconds


def run(tui, env, *arguments, timeout=300):
    """Runs `fitiq-tui ARGUMENTS`; returns its wall time in ms (raises, with its output, on failure)."""
    seconds, result = fitiqtools.timed([tui, *arguments], env=env, timeout=timeout)
    if result.returncode != 0:
        raise RuntimeError(f"fitiq-tui {' '.join(arguments)} (exit {result.returncode}): {result.stdout} "
                           f"{result.stderr}")
    return seconds * 1000
