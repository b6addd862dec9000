#!/usr/bin/env python3
"""`fitiq-tui import` over other apps' exports (`make bench-import-apps`, issue 43).

- Ten years of daily weights and body fat in a Samsung Health folder (an unpacked export: the weight
  CSV with its metadata line, and a step-count CSV beside it that is passed over). Target: ≤ 5 s and a
  peak RSS ≤ 40 MB.
- The same ten years in a Health Connect export (a zip holding its SQLite database: grams, ms since
  1970). Target: ≤ 5 s and a peak RSS ≤ 40 MB.
- An Apple Health export.xml of about 1 GB over ten years, seven tenths of it StepCount records of 1–10
  minutes each from an iPhone and a Watch (about 1.8 million; scripts/health/make-health-export.py
  --steps-share 0.7), with energy, distance, sleep and heart rate beside them. It is read at
  MB/s of XML, with its peak RSS, and how many entries it queues: one a day a metric. Targets:
  ≥ 100 MB/s, ≤ 64 MB. Beside it, healthkit-to-sqlite (PyPI) on the same file, one run.
- A zip of about 1 GB holding a Samsung weight file of about 1 MB and a 1 GB member of another kind
  (stored, as Takeout stores photos): only the weight member is read. Target: ≤ 2× the time of the
  weight file imported alone.

Each import is `import PATH --no-sync` into an account registered for that run on a development server
(loopback), timed from exec to exit with its peak RSS from `/usr/bin/time`. Next to them, from the same
run: Python's csv module reading the weight file with the same checks (UTC time, numbers, a key per
metric, minute and value to drop repeats), and `wc -l`.

Usage: import_apps.py --bin-dir DIR [--runs N] [--health-mb MB] [--healthkit-to-sqlite PATH]
(DIR holds fitiq-tui and fitiq-dev-server)
Only the Python standard library is used.
"""

import argparse
import os
import random
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
GENERATOR = os.path.normpath(os.path.join(HERE, "..", "health", "make-health-export.py"))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
import fitiqtools  # noqa: E402
from fitiqtools import measured  # noqa: E402

PREFIX = "com.samsung.health.weight."

PYTHON_READ = r"""
import csv, sys
from datetime import datetime, timezone
with open(sys.argv[1], newline="", encoding="utf-8") as f:
    f.readline()
    rows = csv.reader(f)
    header = [column.removeprefix("com.samsung.health.weight.") for column in next(rows)]
    at, weight, fat = header.index("start_time"), header.index("weight"), header.index("body_fat")
    seen, readings = set(), []
    for row in rows:
        when = datetime.strptime(row[at], "%Y-%m-%d %H:%M:%S.%f").replace(tzinfo=timezone.utc)
        for metric, column in (("weight", weight), ("fat", fat)):
            if row[column]:
                value = float(row[column])
                key = (metric, int(when.timestamp()) // 60, round(value, 1))
                if value > 0 and key not in seen:
                    seen.add(key)
                    readings.append((when, metric, value))
readings.sort(key=lambda reading: reading[0])
print(len(readings))
"""


def samsung_weights(path, days, end=None):
    """A Samsung Health weight CSV of `days` mornings, each with a weight and a body fat, the newest
    yesterday: the metadata line, the header with its prefixed columns, every row ending in a comma."""
    rng = random.Random(43)
    end = end or int(time.time()) // 86400 * 86400
    columns = ["start_time", "time_offset", "weight", "body_fat", "height", "skeletal_muscle", "datauuid"]
    with open(path, "w", encoding="utf-8", newline="") as f:
        f.write(f"{PREFIX[:-1]},6313002,{len(columns)}\n")
        f.write(",".join(PREFIX + column for column in columns) + ",\n")
        for day in range(days):
            at = end - (days - day) * 86400 + 6 * 3600 + rng.randrange(0, 1800)
            when = time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime(at)) + ".000"
            weight = 84 - 8 * day / days + rng.uniform(-0.6, 0.6)
            fat = 24 - 3 * day / days + rng.uniform(-0.4, 0.4)
            f.write(f"{when},UTC+0100,{weight:.1f},{fat:.1f},178.0,,{rng.getrandbits(64):016x},\n")
    return 2 * days


def health_connect(path, days):
    """A Health Connect export of `days` mornings, each a weight (grams) and a body fat, in a zip."""
    rng = random.Random(44)
    end = int(time.time()) // 86400 * 86400
    database = path + ".db"
    db = sqlite3.connect(database)
    db.execute("CREATE TABLE weight_record_table (row_id INTEGER PRIMARY KEY, time INTEGER, zone_offset INTEGER, "
               "weight REAL)")
    db.execute("CREATE TABLE body_fat_record_table (row_id INTEGER PRIMARY KEY, time INTEGER, zone_offset INTEGER, "
               "percentage REAL)")
    mornings = [end - (days - day) * 86400 + 6 * 3600 + rng.randrange(0, 1800) for day in range(days)]
    db.executemany("INSERT INTO weight_record_table (time, zone_offset, weight) VALUES (?, 3600, ?)",
                   [(at * 1000, round(84000 - 8000 * day / days + rng.uniform(-600, 600)))
                    for day, at in enumerate(mornings)])
    db.executemany("INSERT INTO body_fat_record_table (time, zone_offset, percentage) VALUES (?, 3600, ?)",
                   [(at * 1000, round(24 - 3 * day / days + rng.uniform(-0.4, 0.4), 1))
                    for day, at in enumerate(mornings)])
    db.commit()
    db.close()
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.write(database, "health_connect_export.db")
    os.remove(database)
    return 2 * days


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin-dir", required=True, help="folder with fitiq-tui and fitiq-dev-server")
    parser.add_argument("--runs", type=int, default=3, help="runs of each kind, each a new account (default 3)")
    parser.add_argument("--zip-mb", type=int, default=1024, help="size of the zip's other member (default 1024)")
    parser.add_argument("--health-mb", type=int, default=1000, help="size of the Apple Health export (default 1000)")
    parser.add_argument("--healthkit-to-sqlite", help="the healthkit-to-sqlite executable, run beside it")
    args = parser.parse_args()
    bin_dir, tui = fitiqtools.programs(args.bin_dir, "/usr/bin/time")

    work = tempfile.mkdtemp(prefix="fitiq-bench-import-apps-")
    server = None
    try:
        folder = os.path.join(work, "samsunghealth_bench_20260101000000")
        os.makedirs(folder)
        ten_years = samsung_weights(os.path.join(folder, PREFIX + "20260101000000.csv"), 3653)
        with open(os.path.join(folder, "com.samsung.health.step_count.20260101000000.csv"), "w") as f:
            f.write("com.samsung.health.step_count,6313002,2\nstart_time,count,\n")
            f.writelines(f"2025-01-01 0{hour}:00:00.000,{hour * 100},\n" for hour in range(10))
        connect = os.path.join(work, "Health Connect.zip")
        connect_readings = health_connect(connect, 3653)
        # About 1 MB of weights (14,000 mornings: 38 years), alone and in a zip beside a large member.
        weights = os.path.join(work, "weights.csv")
        zip_rows = samsung_weights(weights, 14000)
        weights_mb = os.path.getsize(weights) / 1e6
        large = os.path.join(work, "export.zip")
        with zipfile.ZipFile(large, "w", zipfile.ZIP_STORED) as archive:
            with archive.open("Takeout/Photos/video.mp4", "w", force_zip64=True) as member:
                block = os.urandom(1 << 20)
                for _ in range(args.zip_mb):
                    member.write(block)
            archive.write(weights, "Takeout/Samsung/" + PREFIX + "20260101000000.csv", zipfile.ZIP_DEFLATED)
        zip_mb = os.path.getsize(large) / 1e6
        health = os.path.join(work, "export.xml")
        subprocess.run([sys.executable, GENERATOR, "--mb", str(args.health_mb), "--since", "2015-06-01",
                        "--export-date", "2025-06-01", "--steps-share", "0.7", "--out", health], check=True,
                       capture_output=True)
        health_mb = os.path.getsize(health) / 1e6

        server = fitiqtools.BenchServer(bin_dir, work)
        account = server.account

        def imported(path, env, expected):
            result = measured([tui, "import", path, "--no-sync"], env)
            if fitiqtools.import_counts(result[2]) != (expected, expected, 0):
                raise RuntimeError(f"import {path}: {fitiqtools.import_counts(result[2])}, not {expected} new")
            return result

        folder_runs = [imported(folder, account(f"folder{run}"), ten_years) for run in range(args.runs)]
        connect_runs = [imported(connect, account(f"connect{run}"), connect_readings) for run in range(args.runs)]
        alone_runs = [imported(weights, account(f"alone{run}"), zip_rows) for run in range(args.runs)]
        zip_runs = [imported(large, account(f"zip{run}"), zip_rows) for run in range(args.runs)]
        health_runs = [measured([tui, "import", health, "--no-sync"], account(f"health{run}"))
                       for run in range(args.runs)]
        days = fitiqtools.day_counts(health_runs[0][2])
        entries = sum(new for _, new, _ in days.values())
        if any(fitiqtools.day_counts(run[2]) != days for run in health_runs) or entries == 0:
            raise RuntimeError(f"the Apple Health imports differ or queue nothing: {health_runs[0][2][-600:]}")
        sqlite_runs = []
        if args.healthkit_to_sqlite:
            database = os.path.join(work, "healthkit.db")
            sqlite_runs = [measured([args.healthkit_to_sqlite, "--silent", "--xml", health, database])]
            os.remove(database)
        folder_csv = os.path.join(folder, PREFIX + "20260101000000.csv")
        python = [measured([sys.executable, "-c", PYTHON_READ, folder_csv]) for _ in range(args.runs)]
        if int(python[0][2]) != ten_years:
            raise RuntimeError(f"Python read {python[0][2].strip()} readings, not {ten_years}")
        wc = [measured(["wc", "-l", folder_csv]) for _ in range(args.runs)]

        def median(samples, index=0):
            return statistics.median(sample[index] for sample in samples)

        print(f"Samsung Health: {ten_years:,} readings (ten years of daily weights and body fat) in a folder; "
              f"a zip of {zip_mb:,.0f} MB holding {zip_rows:,} readings ({weights_mb:.2f} MB); median of "
              f"{args.runs} runs, each import a new account; load average {os.getloadavg()[0]:.2f}")
        print()
        print(f"| {'program':<62} | {'seconds':>7} | {'max s':>7} | {'CPU s':>7} | {'peak RSS MB':>11} |")
        print(f"|{'-' * 64}|{'-' * 9}|{'-' * 9}|{'-' * 9}|{'-' * 13}|")
        for label, samples in [
            ("fitiq-tui import FOLDER --no-sync: ten years, Samsung Health", folder_runs),
            ("fitiq-tui import ZIP --no-sync: ten years, Health Connect", connect_runs),
            ("fitiq-tui import FILE --no-sync: the 1 MB weight file alone", alone_runs),
            ("fitiq-tui import ZIP --no-sync: the same file in the 1 GB zip", zip_runs),
            (f"fitiq-tui import export.xml --no-sync: Apple Health, {health_mb:,.0f} MB", health_runs),
            *([(f"healthkit-to-sqlite --xml: the same {health_mb:,.0f} MB (1 run)", sqlite_runs)] if sqlite_runs else []),
            ("python3 csv module, the ten years, the same checks", python),
            ("wc -l, the ten years", wc),
        ]:
            print(f"| {label:<62} | {median(samples):>7.3f} | {max(s[0] for s in samples):>7.3f} | "
                  f"{median(samples, 3):>7.3f} | {max(s[1] for s in samples):>11.1f} |")
        print()
        ratio = median(zip_runs) / median(alone_runs)
        def within(runs):
            return "met" if median(runs) <= 5 and max(s[1] for s in runs) <= 40 else "NOT met"

        rate = health_mb / median(health_runs)
        peak = max(s[1] for s in health_runs)
        print("Apple Health, entries queued (one a day a metric): "
              + ", ".join(f"{metric} {new:,} of {found:,} days" for metric, (found, new, _) in days.items())
              + f"; {entries:,} in all.")
        if sqlite_runs:
            print(f"healthkit-to-sqlite: {health_mb / sqlite_runs[0][0]:.1f} MB/s, {sqlite_runs[0][1]:.1f} MB.")
        print(f"Target: Apple Health ≥ 100 MB/s and ≤ 64 MB: {'met' if rate >= 100 and peak <= 64 else 'NOT met'} "
              f"({rate:.1f} MB/s, {peak:.1f} MB).")
        print(f"Targets: each ten years ≤ 5 s and ≤ 40 MB: Samsung Health {within(folder_runs)} "
              f"({median(folder_runs):.2f} s, {max(s[1] for s in folder_runs):.1f} MB), Health Connect "
              f"{within(connect_runs)} ({median(connect_runs):.2f} s, {max(s[1] for s in connect_runs):.1f} MB); "
              f"the zip ≤ 2× the file alone: {'met' if ratio <= 2 else 'NOT met'} ({ratio:.2f}×).")
    finally:
        if server is not None:
            server.stop()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
