#!/usr/bin/env python3
"""How many times one save writes the cache, before its request and after its answer (strace).

Against a development server on loopback, with an account whose history holds --entries weights
(imported with `import-csv`, then synced), each write command of the table below runs under
`strace -f -tt`: a save sent at once, as the editor's Ctrl-S of one form sends it. The trace gives, in
order, each file written into place under XDG_DATA_HOME (an atomic write renames one file) and each
request to the server (`sendto`/`write` on the socket); the table counts the cache's writes before
the first request, between requests, and after the last answer. Target: one before, one after.

Each row is run twice: with this build's programs (--bin-dir) and, when --compare-bin-dir is given,
with another build's (an earlier commit), from the same run.

Then the first import of --import-readings new weight readings (`import-csv`, a server holding none
of them): wall time and peak RSS (target ≤ 5 s, ≤ 40 MB).

Usage: saves.py --bin-dir DIR [--compare-bin-dir DIR] [--entries N] [--import-readings N]
(DIR holds fitiq-tui and fitiq-dev-server.) Only the Python standard library is used.
"""

import argparse
import contextlib
import datetime
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import fitiqtools  # noqa: E402
from fitiqtools import client, register  # noqa: E402

TARGET_BEFORE, TARGET_AFTER = 1, 1
TARGET_IMPORT_S, TARGET_IMPORT_MB = 5.0, 40.0
ROWS = [
    ("weight set 72.4", ["weight", "set", "72.4"]),
    ("body-fat set 18.5", ["body-fat", "set", "18.5"]),
    ("height set 181 cm", ["height", "set", "181 cm"]),
    ("profile set --bio", ["profile", "set", "--bio", "Trail runner"]),
]
RENAME = re.compile(r"\brename(at2?)?\(")
FAILED = re.compile(r"= -1 ")
SOCKET_WRITE = re.compile(r"\b(sendto|sendmsg|write|writev)\(\d+<TCP")


def csv_file(path, count, start_value=80.0):
    """`count` daily weights ending yesterday, in fitiq-tui's export format."""
    today = datetime.date.today()
    with open(path, "w") as f:
        f.write("logged_at,metric,value,unit,source,id\n")
        for index in range(count):
            day = today - datetime.timedelta(days=count - index)
            f.write(f"{day.isoformat()}T07:30:00Z,weight,{start_value + (index % 40) / 10:.1f},kg,manual,\n")


def traced(tui, env, arguments, work):
    """The cache writes and requests of one command, in order: a list of "write" and "request" (a run of socket writes with no cache write between them is one)."""
    trace = os.path.join(work, "save.strace")
    calls = "trace=rename,renameat,renameat2,sendto,sendmsg,write,writev"
    result = subprocess.run(["strace", "-f", "-yy", "-s", "0", "-e", calls, "-o", trace, tui, *arguments], env=env,
                            capture_output=True, text=True, timeout=300)
    if result.returncode != 0:
        raise RuntimeError(f"fitiq-tui {' '.join(arguments)} (exit {result.returncode}): {result.stderr[-400:]}")
    cache = os.path.realpath(env["XDG_DATA_HOME"]) + os.sep
    events = []
    with open(trace, encoding="utf-8", errors="replace") as f:
        for line in f:
            if RENAME.search(line) and cache in line and not FAILED.search(line):
                events.append("write")  # an atomic write renames one file into place
            elif SOCKET_WRITE.search(line) and (not events or events[-1] != "request"):
                events.append("request")
    os.remove(trace)
    return events


def count(events):
    """(writes before the first request, writes between requests, writes after the last one, requests)."""
    requests = [index for index, event in enumerate(events) if event == "request"]
    if not requests:
        return (events.count("write"), 0, 0, 0)
    before = events[: requests[0]].count("write")
    after = events[requests[-1]:].count("write")
    between = events[requests[0]: requests[-1]].count("write")
    return before, between, after, len(requests)


@contextlib.contextmanager
def signed_in(bin_dir, work, email):
    """A development server of `bin_dir` and a user registered on it: (fitiq-tui, its env, a cli runner)."""
    tui = os.path.join(bin_dir, "fitiq-tui")
    api_key = "bench-" + os.urandom(12).hex()
    env = fitiqtools.user_env(tempfile.mkdtemp(prefix="home-", dir=work), FITIQ_API_KEY=api_key)
    server, url = fitiqtools.start_server(bin_dir, dict(env, FITIQ_DEV_API_KEY=api_key), "--bcrypt-cost", "4")
    try:
        cli = client(tui, env)
        register(cli, url, email)
        yield tui, env, cli
    finally:
        fitiqtools.stop(server)


def measure(bin_dir, entries, work):
    """Each row's counts with the programs of `bin_dir`."""
    with signed_in(bin_dir, work, "saves@example.com") as (tui, env, cli):
        if entries:
            path = os.path.join(env["HOME"], "weights.csv")
            csv_file(path, entries)
            cli("import-csv", path)
            cli("sync", "--wait")
        return [(name, count(traced(tui, env, arguments, work))) for name, arguments in ROWS]


def first_import(bin_dir, readings, work):
    """(seconds, peak RSS in MB) of the first `import-csv` of `readings` new weights, synced."""
    with signed_in(bin_dir, work, "import@example.com") as (tui, env, _):
        path = os.path.join(env["HOME"], "weights.csv")
        csv_file(path, readings, start_value=70.0)
        rss = os.path.join(env["HOME"], "rss")
        started = time.perf_counter()
        subprocess.run(["/usr/bin/time", "-f", "%M", "-o", rss, tui, "import-csv", path], env=env, check=True,
                       capture_output=True, timeout=600)
        seconds = time.perf_counter() - started
        with open(rss) as f:
            return seconds, int(f.read().split()[-1]) / 1024


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--bin-dir", required=True)
    parser.add_argument("--compare-bin-dir")
    parser.add_argument("--entries", type=int, default=3000)
    parser.add_argument("--import-readings", type=int, default=3700)
    args = parser.parse_args()
    for tool in ("strace", "/usr/bin/time"):
        if not shutil.which(tool):
            sys.exit(f"saves.py needs {tool} (Debian's strace and time)")
    work = tempfile.mkdtemp(prefix="fitiq-bench-saves-")
    try:
        builds = [("this build", os.path.abspath(args.bin_dir))]
        if args.compare_bin_dir:
            builds.append(("compared", os.path.abspath(args.compare_bin_dir)))
        print(f"Cache writes of one save sent at once, with {args.entries:,} weights in the history "
              f"(target: {TARGET_BEFORE} before its request, {TARGET_AFTER} after its answer)\n")
        print("| build | command | writes before the request | between requests | after the answer | requests |")
        print("|---|---|---:|---:|---:|---:|")
        met = True
        for build, bin_dir in builds:
            for name, (before, between, after, requests) in measure(bin_dir, args.entries, work):
                print(f"| {build} | `{name}` | {before} | {between} | {after} | {requests} |")
                if build == "this build":
                    met &= before <= TARGET_BEFORE and after <= TARGET_AFTER and between == 0
        print(f"\none write before, one after: {'met' if met else 'NOT met'}\n")
        for build, bin_dir in builds:
            seconds, rss = first_import(bin_dir, args.import_readings, work)
            ok = seconds <= TARGET_IMPORT_S and rss <= TARGET_IMPORT_MB
            print(f"{build}: first import-csv of {args.import_readings:,} new weights, synced: {seconds:.2f} s, "
                  f"peak RSS {rss:.1f} MB (target ≤ {TARGET_IMPORT_S:.0f} s, ≤ {TARGET_IMPORT_MB:.0f} MB: "
                  f"{'met' if ok else 'not met'})")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
