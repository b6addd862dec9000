#!/usr/bin/env python3
"""How long a write takes when the server is not there, beside the same write when it is.

A development server on loopback, an account registered on it; then `weight set` --runs times with
the server up (saved and sent), and --runs times after the server stopped (saved here; the one
attempt is refused). The first offline run is the one a person on a train meets; the runs after it
find the earlier change still waiting. Target: an offline write under 1 s (it took 13.7 s when every
refused attempt was retried for 15 s).

Usage: offline.py --bin-dir DIR [--runs N]   (DIR holds fitiq-tui and fitiq-dev-server)
Only the Python standard library is used.
"""

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import fitiqtools  # noqa: E402

TARGET_S = 1.0


def timed(tui, env, *arguments):
    """Wall seconds of one `fitiq-tui ARGUMENTS`, and what it printed."""
    start = time.perf_counter()
    result = subprocess.run([tui, *arguments], env=env, capture_output=True, text=True, timeout=120)
    seconds = time.perf_counter() - start
    if result.returncode != 0:
        raise RuntimeError(f"fitiq-tui {' '.join(arguments)} (exit {result.returncode}): {result.stderr}")
    return seconds, result.stdout.strip()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin-dir", required=True)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    tui = os.path.join(args.bin_dir, "fitiq-tui")
    api_key = "bench-api-key-0123456789"
    with tempfile.TemporaryDirectory(prefix="fitiq-bench-offline-") as work:
        env = fitiqtools.user_env(os.path.join(work, "home"), FITIQ_API_KEY=api_key)
        server, url = fitiqtools.start_server(args.bin_dir, dict(env, FITIQ_DEV_API_KEY=api_key), "--bcrypt-cost", "4")
        try:
            fitiqtools.register(fitiqtools.client(tui, env), url, "offline@example.com")
            online = [timed(tui, env, "weight", "set", f"{80 + run / 10:.1f}") for run in range(args.runs)]
        finally:
            fitiqtools.stop(server)
        offline = [timed(tui, env, "weight", "set", f"{70 + run / 10:.1f}") for run in range(args.runs)]
    print(f"weight set, {args.runs} runs each (wall seconds)")
    print(f"  online  (saved and sent):      median {statistics.median(s for s, _ in online):.3f}, "
          f"max {max(s for s, _ in online):.3f}")
    print(f"  offline (refused, kept here):  first {offline[0][0]:.3f}, "
          f"median {statistics.median(s for s, _ in offline):.3f}, max {max(s for s, _ in offline):.3f}")
    print(f"  the offline write said: {offline[0][1]}")
    worst = max(s for s, _ in offline)
    print(f"offline write ≤ {TARGET_S:.0f} s: {'met' if worst <= TARGET_S else 'not met'} ({worst:.3f} s at most)")
    return 0 if worst <= TARGET_S else 1


if __name__ == "__main__":
    sys.exit(main())
