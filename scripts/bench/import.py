#!/usr/bin/env python3
"""Health import benchmark (`make bench-import`, part of `make bench`).

Generates a synthetic Apple Health export with scripts/health/make-health-export.py (export.xml
and export.zip of the same size, plus a larger export.xml), then times whole processes on them in
the same run:

  - `fitiq-tui import-health FILE` (release build) on an account whose samples are already synced,
    so the network adds nothing: the figure is the reader's;
  - `healthkit-to-sqlite` (PyPI) on the same files;
  - `xmllint --stream --noout` on the XML (the zip through `unzip -p`).

Throughput is MB (10^6 bytes) of uncompressed XML per second of wall time; peak RSS is the
process tree's maximum resident set (wait4). Each figure is the median of --runs runs.

Usage: import.py --bin-dir DIR --healthkit-to-sqlite PATH [--mb 200] [--large-mb 1000] [--runs 3]
                 [--body-fat-share 0.5]
The export's body records (about 0.2 % of it) are weights and, by --body-fat-share, body fat readings.
Only the Python standard library is used.
"""

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import fitiqtools  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
GENERATOR = os.path.normpath(os.path.join(HERE, "..", "health", "make-health-export.py"))
TARGETS = {"xml": 100.0, "zip": 60.0}
RSS_TARGET_MB = 40.0
LARGE_RSS_DRIFT_MB = 5.0


def measure(argv, env=None, cwd=None):
    """Runs argv; returns (seconds, peak RSS in MB, exit status, stderr tail)."""
    start = time.perf_counter()
    process = subprocess.Popen(argv, env=env, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(process.pid, 0)
    elapsed = time.perf_counter() - start
    error = process.stderr.read().decode("utf-8", "replace")[-400:]
    process.stderr.close()
    process.returncode = os.waitstatus_to_exitcode(status)
    return elapsed, usage.ru_maxrss / 1024, process.returncode, error


def median_run(label, argv, runs, env=None, prepare=None):
    times, peaks = [], []
    for _ in range(runs):
        if prepare:
            prepare()
        seconds, rss, status, error = measure(argv, env=env)
        if status != 0:
            raise RuntimeError(f"{label} failed ({status}): {error}")
        times.append(seconds)
        peaks.append(rss)
    return statistics.median(times), max(peaks)


def generate(path, mb, zipped, body_fat_share, seed=1):
    argv = [sys.executable, GENERATOR, "--mb", str(mb), "--seed", str(seed), "--sex", "female",
            "--body-fat-share", str(body_fat_share), "--out", path]
    if zipped:
        argv.append("--zip")
    subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def xml_bytes_in_zip(path):
    import zipfile
    with zipfile.ZipFile(path) as archive:
        return sum(info.file_size for info in archive.infolist() if info.filename.endswith("export.xml"))


def main():
    parser = argparse.ArgumentParser(description="Health export reading: fitiq-tui next to other tools.")
    parser.add_argument("--bin-dir", required=True, help="folder with release fitiq-tui and fitiq-dev-server")
    parser.add_argument("--healthkit-to-sqlite", required=True, help="the healthkit-to-sqlite executable")
    parser.add_argument("--mb", type=int, default=200, help="size of export.xml in MB (default 200)")
    parser.add_argument("--large-mb", type=int, default=1000, help="size of the large export.xml (0: skip)")
    parser.add_argument("--runs", type=int, default=3, help="runs per row (median time, max RSS)")
    parser.add_argument("--body-fat-share", type=float, default=0.5,
                        help="share of the export's body records written as body fat, the rest weights (default 0.5)")
    args = parser.parse_args()
    bin_dir = os.path.abspath(args.bin_dir)
    tui = os.path.join(bin_dir, "fitiq-tui")
    for what, path in (("fitiq-tui", tui), ("fitiq-dev-server", os.path.join(bin_dir, "fitiq-dev-server")),
                       ("healthkit-to-sqlite", args.healthkit_to_sqlite), ("xmllint", shutil.which("xmllint")),
                       ("unzip", shutil.which("unzip")), ("generator", GENERATOR)):
        if not path or not os.path.exists(path):
            sys.exit(f"error: {what} not found ({path})")

    work = tempfile.mkdtemp(prefix="fitiq-bench-import-")
    server = None
    try:
        print(f"generating exports in {work} …", flush=True)
        xml = os.path.join(work, "export.xml")
        archive = os.path.join(work, "export.zip")
        generate(xml, args.mb, zipped=False, body_fat_share=args.body_fat_share)
        generate(archive, args.mb, zipped=True, body_fat_share=args.body_fat_share)
        large = None
        if args.large_mb:
            large = os.path.join(work, "large.xml")
            generate(large, args.large_mb, zipped=False, body_fat_share=args.body_fat_share)
        xml_mb = os.path.getsize(xml) / 1e6
        zip_xml_mb = xml_bytes_in_zip(archive) / 1e6

        home = os.path.join(work, "home")
        os.makedirs(home)
        api_key = "bench-" + os.urandom(12).hex()
        password = "bench-" + os.urandom(12).hex()
        env = fitiqtools.user_env(home, FITIQ_API_KEY=api_key)
        server, url = fitiqtools.start_server(bin_dir, dict(env, FITIQ_DEV_API_KEY=api_key), "--log-level", "error",
                                              "--bcrypt-cost", "4")
        register = subprocess.run(
            [tui, "register", "--server", url, "--email", "bench@example.com", "--name", "Bench",
             "--date-of-birth", "1988-04-12"], input=password + "\n", env=env, capture_output=True, text=True)
        if register.returncode != 0:
            raise RuntimeError(f"register failed: {register.stderr.strip()}")
        # The first import posts the samples; the measured ones find them synced and send nothing.
        first = subprocess.run([tui, "import-health", xml], env=env, capture_output=True, text=True)
        if first.returncode != 0 or "posted" not in first.stdout:
            raise RuntimeError(f"the first import failed: {first.stdout} {first.stderr}")

        # The large export holds readings the 200 MB one lacks (it is five times as long): its first
        # import posts them, a sync rather than a read. It is measured once, apart, so that the rows
        # below compare reading alone.
        first_large = None
        if large:
            first_large = median_run("the first import of large.xml", [tui, "import-health", large], 1, env=env)
            pending = subprocess.run([tui, "sync", "--wait", "--timeout", "600"], env=env, capture_output=True,
                                     text=True, timeout=700)
            if pending.returncode != 0:
                raise RuntimeError(f"the large export's readings did not reach the server: {pending.stdout}")

        rows = []

        def add(tool, source, mb, argv, prepare=None, shell=False):
            command = ["/bin/sh", "-c", argv] if shell else argv
            seconds, rss = median_run(f"{tool} {source}", command, args.runs, env=env, prepare=prepare)
            rows.append((tool, source, mb, seconds, rss))
            print(f"  {tool} {source}: {seconds:.2f} s, {rss:.1f} MB", flush=True)

        database = os.path.join(work, "healthkit.db")

        def fresh_database():
            if os.path.exists(database):
                os.remove(database)

        print(f"measuring ({args.runs} runs per row) …", flush=True)
        add("fitiq-tui import-health", "export.xml", xml_mb, [tui, "import-health", xml])
        add("fitiq-tui import-health", "export.zip", zip_xml_mb, [tui, "import-health", archive])
        if large:
            add("fitiq-tui import-health", "large.xml", os.path.getsize(large) / 1e6, [tui, "import-health", large])
        add("xmllint --stream --noout", "export.xml", xml_mb, ["xmllint", "--stream", "--noout", xml])
        add("unzip -p + xmllint --stream", "export.zip", zip_xml_mb,
            f"unzip -p '{archive}' '*export.xml' | xmllint --stream --noout -", shell=True)
        add("healthkit-to-sqlite --xml", "export.xml", xml_mb,
            [args.healthkit_to_sqlite, "--silent", "--xml", xml, database], prepare=fresh_database)
        add("healthkit-to-sqlite", "export.zip", zip_xml_mb,
            [args.healthkit_to_sqlite, "--silent", archive, database], prepare=fresh_database)

        print()
        print(f"| {'tool':<30} | {'input':<10} | {'XML MB':>7} | {'seconds':>7} | {'MB/s':>7} | {'peak RSS MB':>11} |")
        print(f"|{'-' * 32}|{'-' * 12}|{'-' * 9}|{'-' * 9}|{'-' * 9}|{'-' * 13}|")
        for tool, source, mb, seconds, rss in rows:
            print(f"| {tool:<30} | {source:<10} | {mb:>7.1f} | {seconds:>7.2f} | {mb / seconds:>7.1f} | {rss:>11.1f} |")
        print()
        ours = {source: (mb / seconds, rss) for tool, source, mb, seconds, rss in rows if tool.startswith("fitiq")}
        verdicts = []
        for source, kind in (("export.xml", "xml"), ("export.zip", "zip")):
            speed, rss = ours[source]
            verdicts.append(f"{source}: {speed:.0f} MB/s (target ≥ {TARGETS[kind]:.0f}) "
                            f"{'met' if speed >= TARGETS[kind] else 'NOT met'}")
        peak = max(rss for _, rss in ours.values())
        verdicts.append(f"peak RSS {peak:.1f} MB (target ≤ {RSS_TARGET_MB:.0f}) {'met' if peak <= RSS_TARGET_MB else 'NOT met'}")
        if large:
            drift = ours["large.xml"][1] - ours["export.xml"][1]
            verdicts.append(f"{args.large_mb} MB export: RSS {drift:+.1f} MB against {args.mb} MB "
                            f"(target within {LARGE_RSS_DRIFT_MB:.0f}) {'met' if abs(drift) <= LARGE_RSS_DRIFT_MB else 'NOT met'}")
        for verdict in verdicts:
            print(verdict)
        if first_large:
            print(f"first import of large.xml (posts the readings the 200 MB export lacks, then syncs for up to 15 s): "
                  f"{first_large[0]:.2f} s, peak RSS {first_large[1]:.1f} MB")
        print(f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f}")
    finally:
        fitiqtools.stop(server)
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
