#!/usr/bin/env python3
"""The local part of `fitiq-tui import-csv` (`make bench-import-csv`, issue 23).

A file of --rows rows (default 10,000) in fitiq-tui's own export format
(logged_at,metric,value,unit,source,id): weights morning and evening, body fat weekly, height monthly,
over the years before today, as `fitiq-tui export --csv` writes them (a block per metric). Each run
imports it with `import-csv FILE --no-sync` into an account registered for that run on a development
server, and is timed from exec to exit, with its peak RSS from `/usr/bin/time`:

- new rows, server up: every row is new, so the import first reads what is new in the server's history
  (loopback, an empty history; at most 2 s), then checks, deduplicates and queues every row;
- the same file again: every row is already there, nothing is read from the server or queued;
- new rows, server stopped: the brief read fails at once (connection refused); what is left is the
  local part alone: reading, validating, deduplicating and queueing.

Nothing is posted (`--no-sync`). Target: ≤ 1 s for 10,000 rows, each row. Next to it, from the same
run: Python's csv module reading the same file with the same checks (RFC 3339 time, metric, number,
unit, a key per metric, minute and value to drop repeats, sorted by time), and `wc -l`.

Usage: import_csv.py --bin-dir DIR [--rows N] [--runs N]   (DIR holds fitiq-tui and fitiq-dev-server)
Only the Python standard library is used.
"""

import argparse
import os
import random
import shutil
import statistics
import sys
import tempfile
import time
import uuid

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
import fitiqtools  # noqa: E402
from fitiqtools import measured as timed  # noqa: E402

TARGET_SECONDS = 1.0
HEADER = "logged_at,metric,value,unit,source,id"

# The comparison: the same file read with Python's csv module and the same checks.
PYTHON_READ = r"""
import csv, sys
from datetime import datetime
units = {"weight": "kg", "body_fat_percentage": "%", "height": "cm"}
with open(sys.argv[1], newline="", encoding="utf-8") as f:
    rows = csv.reader(f)
    if next(rows) != ["logged_at", "metric", "value", "unit", "source", "id"]:
        sys.exit("not an export")
    seen, readings = set(), []
    for logged_at, metric, value, unit, source, _ in rows:
        at = datetime.fromisoformat(logged_at)
        quantity = float(value)
        if at.tzinfo is None or units.get(metric) != unit or not quantity > 0:
            sys.exit(f"bad row: {logged_at},{metric},{value},{unit}")
        key = (metric, int(at.timestamp()) // 60, round(quantity, 2))
        if key not in seen:
            seen.add(key)
            readings.append((at, metric, quantity, source))
readings.sort(key=lambda reading: reading[0])
print(len(readings))
"""


def write_export(path, count):
    """`count` rows of fitiq-tui's export format, oldest first within each metric's block: a weight at
    07:xx and 21:xx each day, body fat on Mondays, height on the 1st of the month, the newest yesterday."""
    rng = random.Random(23)
    day_seconds = 86400
    # Per day: 2 weights, 1/7 body fat, about 1/30 height.
    days = int(count / (2 + 1 / 7 + 12 / 365.25)) + 2
    today = int(time.time()) // day_seconds * day_seconds
    first = today - days * day_seconds
    weights, body_fat, heights = [], [], []
    for day in range(days):
        midnight = first + day * day_seconds
        trend = 88 - 10 * day / days
        for hour in (7, 21):
            at = midnight + hour * 3600 + rng.randrange(0, 1800)
            weights.append((at, "weight", trend + (0.6 if hour == 21 else 0) + rng.uniform(-0.5, 0.5), "kg"))
        date = time.gmtime(midnight)
        if date.tm_wday == 0:
            body_fat.append((midnight + 7 * 3600 + 2400, "body_fat_percentage",
                             26 - 5 * day / days + rng.uniform(-0.3, 0.3), "%"))
        if date.tm_mday == 1:
            heights.append((midnight + 8 * 3600, "height", 178 + rng.uniform(-0.3, 0.3), "cm"))
    rows = [*heights, *weights, *body_fat][:count]  # the export's order: a block per metric
    if len(rows) < count:
        raise RuntimeError(f"only {len(rows)} rows made, not {count}")
    with open(path, "w", encoding="utf-8", newline="") as f:
        f.write(HEADER + "\r\n")
        for at, metric, value, unit in rows:
            logged = time.strftime("%Y-%m-%dT%H:%M:%S+00:00", time.gmtime(at))
            source = "health" if rng.random() < 0.2 else "manual"
            identifier = uuid.UUID(int=rng.getrandbits(128), version=4)
            f.write(f"{logged},{metric},{value:.2f},{unit},{source},{identifier}\r\n")
    return len(rows)


def main():
    parser = argparse.ArgumentParser(description="import-csv's local part for 10,000 rows, next to Python's csv.")
    parser.add_argument("--bin-dir", required=True, help="folder with fitiq-tui and fitiq-dev-server")
    parser.add_argument("--rows", type=int, default=10000, help="rows in the file (default 10,000)")
    parser.add_argument("--runs", type=int, default=3, help="runs of each kind, each a new account (default 3)")
    args = parser.parse_args()
    if args.rows < 1 or args.runs < 1:
        parser.error("--rows and --runs must be at least 1")
    bin_dir, tui = fitiqtools.programs(args.bin_dir, "/usr/bin/time")

    work = tempfile.mkdtemp(prefix="fitiq-bench-import-csv-")
    server = None
    try:
        csv_path = os.path.join(work, "export.csv")
        rows = write_export(csv_path, args.rows)
        size_mb = os.path.getsize(csv_path) / 1e6
        server = fitiqtools.BenchServer(bin_dir, work)
        account = server.account

        up_accounts = [account(f"up{run}") for run in range(args.runs)]
        down_accounts = [account(f"down{run}") for run in range(args.runs)]
        results = {"new": [], "again": [], "offline": []}

        def imported(key, env, expected):
            result = timed([tui, "import-csv", csv_path, "--no-sync"], env)
            if fitiqtools.import_counts(result[2]) != expected:
                raise RuntimeError(f"import-csv ({key}) read, queued and found already there {fitiqtools.import_counts(result[2])}, "
                                   f"not {expected}")
            results[key].append(result)

        for env in up_accounts:
            imported("new", env, (rows, rows, 0))
            imported("again", env, (rows, 0, rows))
        server.stop()
        for env in down_accounts:
            imported("offline", env, (rows, rows, 0))

        python = [timed([sys.executable, "-c", PYTHON_READ, csv_path]) for _ in range(args.runs)]
        if int(python[0][2]) != rows:
            raise RuntimeError(f"Python read {python[0][2].strip()} readings, not {rows}")
        wc = [timed(["wc", "-l", csv_path]) for _ in range(args.runs)]

        print(f"{rows:,} rows of fitiq-tui's export format ({size_mb:.2f} MB), median of {args.runs} runs each, "
              f"each import a new account; load average {os.getloadavg()[0]:.2f}")
        print()
        print(f"| {'program':<56} | {'seconds':>7} | {'max s':>7} | {'CPU s':>7} | {'peak RSS MB':>11} |")
        print(f"|{'-' * 58}|{'-' * 9}|{'-' * 9}|{'-' * 9}|{'-' * 13}|")
        table = [
            ("fitiq-tui import-csv --no-sync: new rows, server up", results["new"]),
            ("fitiq-tui import-csv --no-sync: the same file again", results["again"]),
            ("fitiq-tui import-csv --no-sync: new rows, server stopped", results["offline"]),
            ("python3 csv module, the same checks", python),
            ("wc -l", wc),
        ]
        for label, samples in table:
            seconds = [sample[0] for sample in samples]
            print(f"| {label:<56} | {statistics.median(seconds):>7.3f} | {max(seconds):>7.3f} | "
                  f"{statistics.median(sample[3] for sample in samples):>7.3f} | "
                  f"{max(sample[1] for sample in samples):>11.1f} |")
        print()
        print("seconds: median wall time from exec to exit; CPU s: median user + system time (the rest is waiting,")
        print("mostly on fsync); peak RSS: the largest of the runs.")
        print()
        for key, label in (("new", "new rows, server up"), ("again", "the same file again"),
                           ("offline", "new rows, server stopped")):
            worst = max(sample[0] for sample in results[key])
            print(f"target ≤ {TARGET_SECONDS:.0f} s for {rows:,} rows, {label}: "
                  f"{'met' if worst <= TARGET_SECONDS else 'NOT met'} (slowest of {args.runs}: {worst:.3f} s)")
    finally:
        if server is not None:
            server.stop()
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
