#!/usr/bin/env python3
"""Sync benchmarks against the development server: loopback, and a server 50 ms away.

Loopback row: saves --edits edits on this machine only (`--no-sync`), half metadata (`profile set
--bio`), half height (`height set`), then times `fitiq-tui sync --wait` and counts the requests in the
server's log. Metadata edits coalesce into one PUT and height edits into one PATCH; every height change
is one progress POST (the history keeps each). Target: ≤ 10 s.

Latency rows, against `fitiq-dev-server --latency-ms 50` (every answer 50 ms late, like a server 50 ms
away): --latency-entries height entries queued, then `sync --wait` (target ≤ 5 s); and `import-health`
of an export holding --latency-entries height samples the server lacks, until the server has them all
(target ≤ 6 s). Each next to the same work with `FITIQ_SYNC_IN_FLIGHT=1` (one post at a time, as
before the window), from the same run.

Usage: sync.py --bin-dir DIR [--edits N] [--latency-entries N] [--latency-ms MS]
(DIR holds release fitiq-tui and fitiq-dev-server.) Only the Python standard library is used.
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import fitiqtools  # noqa: E402
from fitiqtools import client, register  # noqa: E402

TARGET_SECONDS = 10.0
LATENCY_SYNC_TARGET = 5.0
LATENCY_IMPORT_TARGET = 6.0
REPO = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")


def server_heights(cli):
    """How many height entries the server holds, read back by a full history refresh."""
    history = json.loads(cli("height", "history", "--json").stdout)
    return sum(1 for entry in history if entry["synced"])


def latency(args, bin_dir):
    """The latency rows: queued entries synced, and a health import, each with the window and with one
    post at a time. Returns whether both targets were met."""
    tui = os.path.join(bin_dir, "fitiq-tui")
    work = tempfile.mkdtemp(prefix="fitiq-bench-latency-")
    server = None
    try:
        api_key = "bench-" + os.urandom(12).hex()
        server, url = fitiqtools.start_server(
            bin_dir, fitiqtools.user_env(work, FITIQ_DEV_API_KEY=api_key), "--bcrypt-cost", "4",
            "--latency-ms", str(args.latency_ms))
        export = os.path.join(work, "export.zip")
        subprocess.run([sys.executable, os.path.join(REPO, "scripts", "health", "make-health-export.py"), "--mb", "1",
                        "--heights", str(args.latency_entries), "--height-placement", "scattered", "--zip",
                        "--out", export], check=True, capture_output=True)
        rows = []
        for in_flight in ("8", "1"):
            extra = {"FITIQ_SYNC_IN_FLIGHT": in_flight}
            # Queued entries, then one sync.
            env = fitiqtools.user_env(os.path.join(work, f"queue-{in_flight}"), FITIQ_API_KEY=api_key)
            cli = client(tui, env)
            register(cli, url, f"queue{in_flight}@example.com")
            for index in range(args.latency_entries):
                cli("height", "set", f"{150 + index / 10:.1f} cm", "--no-sync")
            started = time.perf_counter()
            cli("sync", "--wait", "--timeout", "300", extra=extra)
            synced = time.perf_counter() - started
            rows.append((f"{args.latency_entries} queued heights, sync --wait", in_flight, synced,
                         server_heights(cli), LATENCY_SYNC_TARGET))
            # A health import, until the server has every sample (the import's own sync has a budget).
            env = fitiqtools.user_env(os.path.join(work, f"import-{in_flight}"), FITIQ_API_KEY=api_key)
            cli = client(tui, env)
            register(cli, url, f"import{in_flight}@example.com")
            started = time.perf_counter()
            cli("import-health", export, extra=extra)
            cli("sync", "--wait", "--timeout", "300", extra=extra)
            imported = time.perf_counter() - started
            rows.append((f"import-health, {args.latency_entries} height samples", in_flight, imported,
                         server_heights(cli), LATENCY_IMPORT_TARGET))
        print(f"server answers {args.latency_ms} ms late; load average {os.getloadavg()[0]:.2f}")
        print()
        print("| work | posts in flight | seconds | entries on the server | target |")
        print("|------|----------------:|--------:|----------------------:|-------:|")
        met = True
        for work_name, in_flight, seconds, entries, target in rows:
            verdict = ""
            if in_flight != "1":
                ok = seconds <= target and entries >= args.latency_entries
                met = met and ok
                verdict = f"≤ {target:.0f} s {'met' if ok else 'NOT met'}"
            print(f"| {work_name} | {in_flight} | {seconds:.2f} | {entries} | {verdict} |")
        return met
    finally:
        fitiqtools.stop(server)
        shutil.rmtree(work, ignore_errors=True)


def loopback(args, bin_dir):
    """The loopback row: --edits edits queued, then synced; returns whether the target was met."""
    tui = os.path.join(bin_dir, "fitiq-tui")
    work = tempfile.mkdtemp(prefix="fitiq-bench-sync-")
    server = None
    try:
        api_key = "bench-" + os.urandom(12).hex()
        env = fitiqtools.user_env(os.path.join(work, "home"), FITIQ_API_KEY=api_key)
        log_path = os.path.join(work, "server.log")
        log = open(log_path, "w")
        server, url = fitiqtools.start_server(bin_dir, dict(env, FITIQ_DEV_API_KEY=api_key), "--log-level", "info",
                                              "--bcrypt-cost", "4", stderr=log)

        cli = client(tui, env)
        register(cli, url, "bench@example.com")
        print(f"queueing {args.edits} edits …", flush=True)
        started = time.perf_counter()
        heights = []
        for index in range(args.edits):
            if index % 2 == 0:
                cli("profile", "set", "--bio", f"edit {index}", "--no-sync")
            else:
                height = round(150 + (index // 2 % 1000) / 10, 1)
                heights.append(height)
                cli("height", "set", f"{height} cm", "--no-sync")
        queued = time.perf_counter() - started
        status = json.loads(cli("status", "--json").stdout)

        log.flush()
        before = os.path.getsize(log_path)
        started = time.perf_counter()
        cli("sync", "--wait", "--timeout", "120")
        seconds = time.perf_counter() - started
        log.flush()
        with open(log_path) as f:
            f.seek(before)
            lines = f.read().splitlines()

        def count(prefix):
            return sum(1 for line in lines if f" {prefix} " in f" {line} " and line.rstrip().endswith(("200", "201")))

        puts, patches = count("PUT /api/v1/users/me"), count("PATCH /api/v1/users/me/physical")
        posts = count("POST /api/v1/progress")
        shown = json.loads(cli("profile", "show", "--json").stdout)
        history = json.loads(cli("height", "history", "--json").stdout)
        last_bio = f"edit {args.edits - 2 if args.edits % 2 == 0 else args.edits - 1}"
        print(f"queued in {queued:.1f} s ({status['pendingChanges']} changes pending); load average "
              f"{os.getloadavg()[0]:.2f}")
        print()
        print("| edits | pending | sync seconds | PUT | PATCH | progress POST | server has last values |")
        print("|------:|--------:|-------------:|----:|------:|--------------:|:----------------------|")
        exact = shown["bio"] == last_bio and abs((shown["heightCm"] or 0) - heights[-1]) < 0.01
        print(f"| {args.edits} | {status['pendingChanges']} | {seconds:.2f} | {puts} | {patches} | {posts} | "
              f"{'yes' if exact and shown['pendingChanges'] == 0 else 'NO'} |")
        print()
        synced = sum(1 for entry in history if entry["synced"])
        print(f"history entries synced: {synced} (height edits: {len(heights)})")
        ok = seconds <= TARGET_SECONDS and puts == 1 and patches == 1 and posts == len(heights)
        print(f"target ≤ {TARGET_SECONDS:.0f} s with one PUT and one PATCH: {'met' if ok else 'NOT met'}")
        return ok
    finally:
        fitiqtools.stop(server)
        shutil.rmtree(work, ignore_errors=True)


def main():
    parser = argparse.ArgumentParser(description="Time to sync queued edits, on loopback and 50 ms away.")
    parser.add_argument("--bin-dir", required=True)
    parser.add_argument("--edits", type=int, default=1000, help="edits of the loopback row (default 1,000)")
    parser.add_argument("--latency-entries", type=int, default=500,
                        help="height entries of the latency rows (default 500; 0 skips them)")
    parser.add_argument("--latency-ms", type=int, default=50, help="the server's delay per answer (default 50)")
    args = parser.parse_args()
    bin_dir = os.path.abspath(args.bin_dir)
    ok = loopback(args, bin_dir)
    if args.latency_entries > 0:
        print()
        ok = latency(args, bin_dir) and ok
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
