#!/usr/bin/env python3
"""Export's memory does not grow with the history (`make bench-export`).

For 1,000 and 100,000 weight entries, written straight into a development server's database and
fetched by the client's first `sync --wait` (as `scale.py` does), times `fitiq-tui export` (CSV and
JSON) and reads its peak RSS from `/usr/bin/time`. Target: the 100,000-entry RSS within 5 MB of the
1,000-entry one (the export is streamed a month file at a time).

Usage: export.py --bin-dir DIR   (DIR holds fitiq-tui and fitiq-dev-server)
"""

import argparse
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from history import Size  # noqa: E402

TARGET_DRIFT_MB = 5.0


def main():
    parser = argparse.ArgumentParser(description="Export time and peak RSS at 1,000 and 100,000 entries.")
    parser.add_argument("--bin-dir", required=True)
    parser.add_argument("--sizes", default="1000,100000", help="weight entries, comma-separated")
    args = parser.parse_args()
    bin_dir = os.path.abspath(args.bin_dir)
    sizes = [int(size) for size in args.sizes.split(",")]
    root = tempfile.mkdtemp(prefix="fitiq-bench-export-")
    rows = []
    try:
        for count in sizes:
            size = Size(bin_dir, root, 0, weights=count)
            try:
                size.fill(runs=0)
                for label, extra in (("csv", []), ("json", ["--json"])):
                    result = subprocess.run(["/usr/bin/time", "-f", "%e %M", size.tui, "export", *extra],
                                            env=size.env, capture_output=True, text=True, timeout=600)
                    if result.returncode != 0:
                        raise RuntimeError(f"export failed: {result.stderr.strip()[-300:]}")
                    seconds, kilobytes = result.stderr.strip().splitlines()[-1].split()
                    rows.append((count, label, float(seconds), int(kilobytes) / 1024))
            finally:
                size.stop()
    finally:
        shutil.rmtree(root, ignore_errors=True)
    print(f"| {'weights':>8} | {'format':<6} | {'seconds':>7} | {'peak RSS MB':>11} |")
    print(f"|{'-' * 10}|{'-' * 8}|{'-' * 9}|{'-' * 13}|")
    for count, label, seconds, rss in rows:
        print(f"| {count:>8,} | {label:<6} | {seconds:>7.2f} | {rss:>11.1f} |")
    smallest = max(rss for count, _, _, rss in rows if count == min(sizes))
    largest = max(rss for count, _, _, rss in rows if count == max(sizes))
    drift = largest - smallest
    print(f"\n{max(sizes):,} entries: RSS {drift:+.1f} MB against {min(sizes):,} (target within "
          f"{TARGET_DRIFT_MB:.0f}) {'met' if abs(drift) <= TARGET_DRIFT_MB else 'NOT met'}")
    print(f"load average {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
