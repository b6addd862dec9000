#!/usr/bin/env python3
"""1,000 queued edits synced against the development server (issue 8, "make bench").

Saves --edits edits on this machine only (`--no-sync`): half metadata (`profile set --bio`), half
height (`height set`), then times `fitiq-tui sync --wait` and counts the requests in the server's
log. Metadata edits coalesce into one PUT and height edits into one PATCH; every height change is
one progress POST (the history keeps each). Target: ≤ 10 s.

Usage: sync.py --bin-dir DIR [--edits N]   (DIR holds release fitiq-tui and fitiq-dev-server)
Only the Python standard library is used.
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

TARGET_SECONDS = 10.0


def main():
    parser = argparse.ArgumentParser(description="Time to sync queued edits.")
    parser.add_argument("--bin-dir", required=True)
    parser.add_argument("--edits", type=int, default=1000)
    args = parser.parse_args()
    bin_dir = os.path.abspath(args.bin_dir)
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

        def cli(*arguments, stdin=None):
            result = subprocess.run([tui, *arguments], input=stdin, env=env, capture_output=True, text=True,
                                    timeout=120)
            if result.returncode != 0:
                raise RuntimeError(f"fitiq-tui {' '.join(arguments)} (exit {result.returncode}): {result.stdout} {result.stderr}")
            return result

        cli("register", "--server", url, "--email", "bench@example.com", "--name", "Bench", "--date-of-birth",
            "1990-01-01", stdin="bench-password-123\n")
        cli("sync", "--wait")
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
    finally:
        fitiqtools.stop(server)
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
