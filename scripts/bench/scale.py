#!/usr/bin/env python3
"""How the editor and the commands scale with the history: 0, 10,000 and 100,000 height entries in two shapes,
and a row of 10,000 heights plus 10,000 weights (--mixed).

For each size, a development server with an SQLite database (`--database FILE`) gets an account
(registered through `fitiq-tui register`), then the server starts again on the same file and port
with the entries added by the server itself (`--seed-email`, `--seed-heights`, `--seed-weights`); the client's first `sync --wait`
then fills its cache from the server, as a real first sync does. Each size gets its own server,
database and HOME / XDG folders, all removed at the end.

Per size, next to the trivial C ncurses program (scripts/bench/trivial.c) and `nano FILE` from the
same run:
- first frame: exec on a pty until the profile's name is drawn, median of --runs, for `fitiq-tui`
  and `fitiq-tui --server URL` (the method of startup.py);
- key → echo in the name field, p50 and p99 of --keys letters (the method of keystroke.py); nano's
  p50 is of --keys letters typed before the editor's and as many after, so that one quiet or busy
  moment of the machine does not make its half of the ratio;
- Ctrl-S → request: from writing Ctrl-S to the pty (the name just edited) until the server's request
  log line for `PUT /api/v1/users/me` arrives on the server's stderr pipe (the server logs a request
  once it has answered it), median of --saves saves, and the most requests logged in between;
- peak RSS of the editor (VmHWM from /proc/PID/status just before quitting);
- wall time of `fitiq-tui --version`, `height set VALUE --no-sync` and `status --json`, median of
  --runs; the local part of a save is `height set --no-sync` minus `--version`;
- one `height set VALUE --no-sync` under strace: bytes written to files under XDG_DATA_HOME (the
  cache), distinct cache files opened for reading and for writing, fsyncs and renames there.

Each size comes in two shapes (--shapes): even (the entries spread over ten years up to hours ago) and
production (heights 12 hours apart ending three years ago, plus a year of daily weights: an account
brought from another app). The first sync runs once to warm the restarted server and learn the pages
it reads (from the server's log), then 9 times (3 past 20,000 entries), each from the cache as it was
before the first and each followed by `curl --parallel --parallel-max 8` fetching the same pages from
the same server; the medians are set side by side.

With --every-metric-days N (default 3,650), one more row: ten years of daily data for every metric,
N heights, N weights and N days of each of the other thirteen types (about 55,000 entries), with two
more figures: Today (`t` from the profile until its rows are drawn, median of --runs, beside the
trivial C program's first frame) and `today --line` (median of --runs, beside `--version`).

Then the first sync of --latency-entries entries (default 10,000) from a server started with
`--latency-ms 50`: a client that holds no history yet runs `sync --wait`, which reads it all; curl
fetches the same pages from it.

Each figure is printed with its target and whether it was met; a missed target never fails the run.

Usage: scale.py --bin-dir DIR [--sizes 0,10000,100000] [--shapes even,production] [--runs N] [--keys N] [--saves N]
                [--latency-entries N] [--latency-ms MS]
(DIR holds fitiq-tui and fitiq-dev-server.) Only the Python standard library is used.
"""

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
import fitiqtools  # noqa: E402
import terminal  # noqa: E402
from terminal import COLS, ROWS, Program, drain, percentile, run_once, spawn, stop_editor, type_and_time, wait_for  # noqa: E402,E501
from history import Size, run  # noqa: E402

TARGET_FRAME_RATIO = 3.0
TARGET_ECHO_RATIO = 3.0  # key → echo p50, × nano's in the same run
TARGET_SYNC_RATIO = 1.25  # the first sync, × curl --parallel-max 8 fetching the same pages
PRODUCTION_WEIGHTS = 365  # a production-shaped account's year of daily weights
TARGET_SAVE_REQUEST_MS = 15.0
TARGET_LOCAL_SAVE_MS = 20.0
TARGET_SAVE_BYTES = 64 * 1024
TARGET_RSS_MB = 50.0
TARGET_TODAY_LINE_RATIO = 2.0  # `today --line`, × `--version` in the same run

NAME = "Bench"  # the name sync.register gives the account: the first frame's marker
PUT_PROFILE = " PUT /api/v1/users/me "
# With -y strace names each descriptor's file, so no descriptor bookkeeping (close, dup) is needed.
STRACE_CALLS = "openat,write,pwrite64,writev,pwritev,rename,renameat,renameat2,fsync,fdatasync"
SLOW_TIMEOUT = 120.0  # seconds a first frame, an echo or a save may take before the run gives up


def cached_entries(env):
    """How many history entries the client's cache holds: the summaries' counts (in the summary files
    an account.json of schema 3 names, in account.json itself in schema 2), `state.history` in
    schema 1."""
    data = os.path.join(env["XDG_DATA_HOME"], "fitiq")
    total = 0
    for folder, _, files in os.walk(data):
        if "account.json" in files:
            with open(os.path.join(folder, "account.json"), encoding="utf-8") as f:
                account = json.load(f)
            if account.get("schemaVersion") == 1:
                total += len(account["state"]["history"])
            elif account.get("schemaVersion") == 2:
                total += sum(summary.get("count", 0) for summary in account.get("summaries", {}).values())
            else:
                for name in account.get("summaries", {}).values():
                    with open(os.path.join(folder, "history", name), encoding="utf-8") as part:
                        total += json.load(part).get("count", 0)
    return total


def first_frames(size, trivial, nano, text_file, runs):
    """Medians (ms) of the first frame: trivial C, nano, fitiq-tui, fitiq-tui --server URL (interleaved)."""
    programs = [
        Program("trivial C ncurses", [trivial], size.env, "trivial-ready", b"q"),
        Program("nano FILE", [nano, text_file], size.env, "nano-bench-marker", b"\x18"),
        Program("fitiq-tui", [size.tui], size.env, NAME, b"q"),
        Program("fitiq-tui --server URL", [size.tui, "--server", size.url], size.env, NAME, b"q"),
    ]
    for program in programs:
        run_once(program)  # warm-up
    for _ in range(runs):
        for program in programs:
            program.samples.append(run_once(program))
    return [statistics.median(program.samples) for program in programs]


def editor_session(size, keys, saves):
    """One editor run: key → echo samples in the name field, Ctrl-S → PUT samples (ms), the most requests
    the server logged between a Ctrl-S and its PUT, peak RSS (kB)."""
    pid, master = spawn([size.tui], size.env)
    try:
        wait_for(master, NAME.encode(), timeout=SLOW_TIMEOUT)
        drain(master, 0.5)
        size.log.wait_quiet()
        os.write(master, b"\r")  # edit the name
        wait_for(master, b"confirm  Esc cancel")
        os.write(master, b"\x15")
        drain(master, 0.3)
        echoes = type_and_time(master, keys, timeout=SLOW_TIMEOUT)
        requests, preceding = [], []
        for index in range(saves):
            if index:
                os.write(master, b"\r")  # edit the name again
                drain(master, 0.3)
            os.write(master, b"\x15" + f"{NAME} {chr(ord('a') + index % 26)}".encode())
            drain(master, 0.3)
            size.log.wait_quiet()
            since = size.log.mark()
            started = time.perf_counter()
            os.write(master, b"\x13")  # Ctrl-S: confirms the edit and saves
            arrived, before = size.log.wait_for(PUT_PROFILE, since, timeout=SLOW_TIMEOUT)
            requests.append((arrived - started) * 1000)
            preceding.append(before)
            drain(master, 0.3)
        with open(f"/proc/{pid}/status") as f:
            peak = next(int(line.split()[1]) for line in f if line.startswith("VmHWM:"))
        stop_editor(pid, master, b"q")
        pid = None
        return echoes, requests, max(preceding), peak
    finally:
        kill_editor(pid, master)


def kill_editor(pid, master):
    """Kills an editor a run gave up on (`pid` is None once it quit) and closes its pty."""
    if pid is None:
        return
    try:
        os.kill(pid, 9)
        os.waitpid(pid, 0)
    except OSError:
        pass
    os.close(master)


def today_screens(size, runs):
    """Medians (ms) of the Today screen: from `t` on the profile until its rows are drawn, and from exec
    until then."""
    after_key, from_exec = [], []
    for _ in range(runs + 1):  # the first warms the caches
        started = time.perf_counter()
        pid, master = spawn([size.tui], size.env)
        try:
            wait_for(master, NAME.encode(), timeout=SLOW_TIMEOUT)
            framed = time.perf_counter()
            drain(master, 0.3)
            pressed = time.perf_counter()
            os.write(master, b"t")
            wait_for(master, b"7-day avg", timeout=SLOW_TIMEOUT)
            done = time.perf_counter()
            after_key.append((done - pressed) * 1000)
            # The first frame, then Today at once: the pause that lets the frame settle is left out.
            from_exec.append((framed - started + done - pressed) * 1000)
            stop_editor(pid, master, b"qq")
            pid = None
        finally:
            kill_editor(pid, master)
    return statistics.median(after_key[1:]), statistics.median(from_exec[1:])


def today_lines(size, runs):
    """Medians (ms) of `today --line` and `--version`, interleaved."""
    line, version = [], []
    for _ in range(runs):
        line.append(run(size.tui, size.env, "today", "--line"))
        version.append(run(size.tui, size.env, "--version"))
    return statistics.median(line), statistics.median(version)


def nano_echoes(nano, text_file, env, keys):
    pid, master = spawn([nano, text_file], env)
    wait_for(master, b"lorem")
    drain(master, 0.5)
    samples = type_and_time(master, keys)
    stop_editor(pid, master, b"\x18n")
    return samples


def command_times(size, runs):
    """Medians (ms) of `--version`, `height set VALUE --no-sync` and `status --json`."""
    version, height, status = [], [], []
    for index in range(runs):
        version.append(run(size.tui, size.env, "--version"))
        height.append(run(size.tui, size.env, "height", "set", f"{181 + index % 2 * 0.5} cm", "--no-sync"))
        status.append(run(size.tui, size.env, "status", "--json"))
    return statistics.median(version), statistics.median(height), statistics.median(status)


SYSCALL = re.compile(r"^(\w+)\((.*)\)\s+=\s+(-?\d+)(?:<(.*)>)?")
FD_PATH = re.compile(r"^\s*-?\d+<(.*?)>")
QUOTED = re.compile(r'"((?:[^"\\]|\\.)*)"')


def strace_save(size, strace, value):
    """One `height set VALUE --no-sync` under strace: a dict of what it did under XDG_DATA_HOME."""
    trace = os.path.join(size.work, "height-set.strace")
    started = time.perf_counter()
    result = subprocess.run([strace, "-f", "-y", "-s", "0", "-e", f"trace={STRACE_CALLS}", "-o", trace, size.tui,
                             "height", "set", value, "--no-sync"], env=size.env, capture_output=True, text=True,
                            timeout=300)
    elapsed = (time.perf_counter() - started) * 1000
    if result.returncode != 0:
        raise RuntimeError(f"strace fitiq-tui height set (exit {result.returncode}): {result.stderr[-600:]}")
    cache = os.path.realpath(size.env["XDG_DATA_HOME"]) + os.sep
    written_bytes, read_files, written_files, fsyncs, renames = 0, set(), set(), 0, 0
    unfinished = {}
    with open(trace, encoding="utf-8", errors="replace") as f:
        for line in f:
            pid, _, rest = line.rstrip("\n").partition(" ")
            rest = rest.strip()
            if rest.endswith("<unfinished ...>"):
                unfinished[pid] = rest[: -len("<unfinished ...>")]
                continue
            resumed = re.match(r"^<\.\.\. \w+ resumed>(.*)$", rest)
            if resumed:
                rest = unfinished.pop(pid, "") + resumed.group(1)
            call = SYSCALL.match(rest)
            if not call:
                continue
            name, arguments, returned, returned_path = call.groups()
            if int(returned) < 0:
                continue
            if name == "openat":
                path = returned_path or next(iter(QUOTED.findall(arguments)), "")
                if not path.startswith(cache) or "O_DIRECTORY" in arguments:
                    continue
                if "O_WRONLY" in arguments or "O_RDWR" in arguments or "O_CREAT" in arguments:
                    written_files.add(path)
                else:
                    read_files.add(path)
            elif name in ("write", "pwrite64", "writev", "pwritev"):
                path = FD_PATH.match(arguments)
                if path and path.group(1).startswith(cache):
                    written_bytes += int(returned)
            elif name in ("fsync", "fdatasync"):
                path = FD_PATH.match(arguments)
                if path and (path.group(1) + os.sep).startswith(cache):
                    fsyncs += 1
            elif name.startswith("rename"):
                if any(path.startswith(cache) for path in QUOTED.findall(arguments)):
                    renames += 1
    os.remove(trace)
    return {"bytes": written_bytes, "read": len(read_files), "written": len(written_files), "fsyncs": fsyncs,
            "renames": renames, "ms": elapsed}


def label(row):
    """The row's history: `10,000`, `10,000 + 10,000 w` with weights, `… (production)` in that shape,
    `every metric, 3,650 days` for ten years of everything."""
    if row.get("every"):
        return f"every metric, {row['every']:,} days ({row['cached']:,} entries)"
    return (f"{row['entries']:,}" + (f" + {row['weights']:,} w" if row.get("weights") else "")
            + (" (production)" if row.get("shape") == "production" else ""))


def verdict(ok):
    return "met" if ok else "NOT met"


def sync_runs(entries):
    """How many first syncs to time, each beside curl's: a sync of a short history takes tens of
    milliseconds, where a median of 3 moves by a tenth from one run of the benchmark to the next."""
    return 9 if entries <= 20_000 else 3


def measure_size(args, bin_dir, root, entries, tools, weights=0, shape="even", every_metric_days=0):
    trivial, nano, text_file, strace, curl = tools
    size = Size(bin_dir, root, entries, weights=weights, shape=shape, every_metric_days=every_metric_days)
    try:
        inserted, synced, pages, by_curl = size.fill(runs=sync_runs(entries + weights), curl=curl)
        cached = cached_entries(size.env)
        print(f"{entries:,} heights{f' + {weights:,} weights' if weights else ''} ({shape}): written into the "
              f"server's database in {inserted:.2f} s; first sync filled the cache with {cached:,} in {synced:.3f} s "
              f"({len(pages)} pages; curl {by_curl:.3f} s)", flush=True)
        frames = first_frames(size, trivial, nano, text_file, args.runs)
        theirs = nano_echoes(nano, text_file, size.env, args.keys)
        echoes, requests, preceding, peak = editor_session(size, args.keys, args.saves)
        theirs += nano_echoes(nano, text_file, size.env, args.keys)
        # The traced save first: the timed `height set --no-sync` runs each leave an entry queued.
        traced = strace_save(size, strace, "182.5 cm") if strace else None
        version, height, status = command_times(size, args.runs)
        today = today_screens(size, args.runs) if every_metric_days else None
        line = today_lines(size, args.runs) if every_metric_days else None
        return {
            "every": every_metric_days, "today": today, "line": line,
            "entries": entries, "weights": weights, "cached": cached, "frames": frames, "echo_p50": statistics.median(echoes),
            "echo_p99": percentile(echoes, 0.99), "nano_p50": statistics.median(theirs),
            "save_request": statistics.median(requests), "before_put": preceding, "rss_mb": peak / 1024,
            "version": version, "height_set": height, "status": status, "traced": traced, "sync_s": synced,
            "curl_s": by_curl, "pages": len(pages), "shape": shape,
        }
    finally:
        size.stop()


def latency_row(args, bin_dir, root, curl, shape):
    """Seconds of the first `sync --wait` of --latency-entries entries, the server --latency-ms away, the
    entries it holds in the cache then, and curl's seconds for the same pages."""
    weights = PRODUCTION_WEIGHTS if shape == "production" else 0
    size = Size(bin_dir, root, args.latency_entries, latency_ms=args.latency_ms, weights=weights, shape=shape)
    try:
        _, synced, _, by_curl = size.fill(runs=sync_runs(args.latency_entries), curl=curl)
        return synced, cached_entries(size.env), by_curl, shape
    finally:
        size.stop()


def print_tables(rows, args):
    print()
    print(f"Editor ({COLS}x{ROWS} pty; first frame median of {args.runs}, {args.keys} keys, "
          f"median of {args.saves} saves):")
    print()
    print("| entries | first frame ms | --server URL ms | trivial C ms | × trivial C | nano ms "
          "| key→echo p50 ms | p99 ms | nano p50 ms | Ctrl-S → PUT ms | requests before PUT | peak RSS MB |")
    print("|--------:|---------------:|----------------:|-------------:|------------:|--------:"
          "|----------------:|-------:|------------:|----------------:|--------------------:|------------:|")
    for row in rows:
        trivial, nano, bare, with_url = row["frames"]
        ratio = max(bare, with_url) / trivial
        print(f"| {label(row)} | {bare:.1f} | {with_url:.1f} | {trivial:.1f} | {ratio:.2f} | {nano:.1f} "
              f"| {row['echo_p50']:.2f} | {row['echo_p99']:.2f} | {row['nano_p50']:.2f} | {row['save_request']:.1f} "
              f"| {row['before_put']} | {row['rss_mb']:.1f} |")
    print()
    print(f"Commands (median of {args.runs} runs each) and one `height set --no-sync` under strace "
          "(files under XDG_DATA_HOME):")
    print()
    print("| entries | --version ms | height set --no-sync ms | local part ms | status --json ms "
          "| bytes written | files read | files written | fsyncs | renames |")
    print("|--------:|-------------:|------------------------:|--------------:|-----------------:"
          "|--------------:|-----------:|--------------:|-------:|--------:|")
    for row in rows:
        traced = row["traced"]
        io = (f"{traced['bytes']:,} | {traced['read']} | {traced['written']} | {traced['fsyncs']} | "
              f"{traced['renames']}") if traced else "- | - | - | - | -"
        print(f"| {label(row)} | {row['version']:.1f} | {row['height_set']:.1f} | "
              f"{row['height_set'] - row['version']:.1f} | {row['status']:.1f} | {io} |")


def print_targets(rows, latency):
    def line(label, values):
        print(f"- {label}: " + "; ".join(f"{entries}: {text} {verdict(ok)}" for entries, text, ok in values))

    print()
    print("Targets (per size: figure, met or not; a benchmark, never a failed run):")
    line(f"first frame ≤ {TARGET_FRAME_RATIO:.0f}× trivial C (worse of the two ways)",
         [(label(row), f"{max(row['frames'][2:]) / row['frames'][0]:.2f}×",
           max(row["frames"][2:]) / row["frames"][0] <= TARGET_FRAME_RATIO) for row in rows])
    line(f"key → echo p50 ≤ {TARGET_ECHO_RATIO:.0f}× nano's",
         [(label(row), f"{row['echo_p50']:.2f} ms = {row['echo_p50'] / row['nano_p50']:.2f}×",
           row["echo_p50"] <= TARGET_ECHO_RATIO * row["nano_p50"]) for row in rows])
    line(f"first sync ≤ {TARGET_SYNC_RATIO}× curl --parallel-max 8 fetching the same pages",
         [(label(row), f"{row['sync_s']:.3f} s = {row['sync_s'] / row['curl_s']:.2f}× ({row['pages']} pages)",
           row["sync_s"] <= TARGET_SYNC_RATIO * row["curl_s"]) for row in rows])
    line(f"Ctrl-S → request median ≤ {TARGET_SAVE_REQUEST_MS:.0f} ms",
         [(label(row), f"{row['save_request']:.1f} ms", row["save_request"] <= TARGET_SAVE_REQUEST_MS)
          for row in rows])
    line(f"local part of height set ≤ {TARGET_LOCAL_SAVE_MS:.0f} ms",
         [(label(row), f"{row['height_set'] - row['version']:.1f} ms",
           row["height_set"] - row["version"] <= TARGET_LOCAL_SAVE_MS) for row in rows])
    traced = [row for row in rows if row["traced"]]
    if traced:
        line(f"bytes written by one save ≤ {TARGET_SAVE_BYTES // 1024} KB",
             [(label(row), f"{row['traced']['bytes'] / 1024:.1f} KB", row["traced"]["bytes"] <= TARGET_SAVE_BYTES)
              for row in traced])
    else:
        print("- bytes written by one save: not measured (strace not found)")
    for row in rows:
        if row.get("today"):
            after_key, from_exec = row["today"]
            trivial = row["frames"][0]
            print(f"- Today screen ≤ {TARGET_FRAME_RATIO:.0f}× trivial C's first frame ({label(row)}): t → rows "
                  f"{after_key:.1f} ms, exec → Today {from_exec:.1f} ms = {from_exec / trivial:.2f}× trivial C's "
                  f"{trivial:.1f} ms {verdict(from_exec <= TARGET_FRAME_RATIO * trivial)}")
        if row.get("line"):
            line_ms, version_ms = row["line"]
            print(f"- today --line ≤ {TARGET_TODAY_LINE_RATIO:.0f}× --version ({label(row)}): {line_ms:.1f} ms = "
                  f"{line_ms / version_ms:.2f}× --version's {version_ms:.1f} ms "
                  f"{verdict(line_ms <= TARGET_TODAY_LINE_RATIO * version_ms)}")
    line(f"peak RSS ≤ {TARGET_RSS_MB:.0f} MB",
         [(label(row), f"{row['rss_mb']:.1f} MB", row["rss_mb"] <= TARGET_RSS_MB) for row in rows])
    for entries, latency_ms, seconds, cached, by_curl, shape in latency:
        print(f"- first sync of {entries:,} entries ({shape}), server {latency_ms} ms away, ≤ {TARGET_SYNC_RATIO}× "
              f"curl: {seconds:.2f} s = {seconds / by_curl:.2f}× curl's {by_curl:.2f} s ({cached:,} in the cache) "
              f"{verdict(seconds <= TARGET_SYNC_RATIO * by_curl)}")


def main():
    parser = argparse.ArgumentParser(description="Editor and command figures at 0 to 100,000 history entries.")
    parser.add_argument("--bin-dir", required=True, help="folder with fitiq-tui and fitiq-dev-server")
    parser.add_argument("--sizes", default="0,10000,100000",
                        help="height history sizes, comma-separated (default 0,10000,100000)")
    parser.add_argument("--shapes", default="even,production",
                        help="even (spread over ten years, to hours ago), production (heights 12 hours apart "
                             f"ending three years ago, plus {PRODUCTION_WEIGHTS} daily weights), or both "
                             "(default even,production)")
    parser.add_argument("--runs", type=int, default=10, help="first frames and command runs per size (default 10)")
    parser.add_argument("--keys", type=int, default=200, help="keys typed per program and size (default 200)")
    parser.add_argument("--saves", type=int, default=5, help="Ctrl-S saves per size (default 5)")
    parser.add_argument("--latency-entries", type=int, default=10000,
                        help="entries of the first sync from a distant server (default 10,000; 0 skips it)")
    parser.add_argument("--latency-ms", type=int, default=50, help="that server's delay per answer (default 50)")
    parser.add_argument("--every-metric-days", type=int, default=3650,
                        help="one more row with this many days of every metric (default 3,650; 0 skips it)")
    parser.add_argument("--mixed", type=int, default=10000,
                        help="one more row with this many heights plus as many weights (default 10,000; 0 skips it)")
    args = parser.parse_args()
    try:
        sizes = [int(size.replace("_", "")) for size in args.sizes.split(",") if size.strip()]
    except ValueError:
        parser.error("--sizes takes whole numbers separated by commas, e.g. 0,1000,10000")
    if not sizes or min(sizes) < 0 or args.runs < 1 or args.keys < 1 or args.saves < 1:
        parser.error("--sizes must be 0 or more; --runs, --keys and --saves at least 1")
    shapes = [shape.strip() for shape in args.shapes.split(",") if shape.strip()]
    if not shapes or any(shape not in ("even", "production") for shape in shapes):
        parser.error("--shapes takes even, production or both, separated by a comma")
    bin_dir = os.path.abspath(args.bin_dir)
    print(fitiqtools.program_size(os.path.join(bin_dir, "fitiq-tui")), flush=True)
    nano = shutil.which("nano")
    cc = shutil.which("cc") or shutil.which("gcc")
    strace = shutil.which("strace")
    curl = shutil.which("curl")
    for what, path in (("fitiq-tui", os.path.join(bin_dir, "fitiq-tui")),
                       ("fitiq-dev-server", os.path.join(bin_dir, "fitiq-dev-server")), ("nano", nano), ("cc", cc),
                       ("curl", curl)):
        if not path or not os.access(path, os.X_OK):
            sys.exit(f"error: {what} not found ({path})")
    if not strace:
        print("strace not found: the cache I/O columns stay empty", file=sys.stderr)

    terminal.FIRST_FRAME_TIMEOUT = SLOW_TIMEOUT  # a large history on a debug build starts slowly
    root = tempfile.mkdtemp(prefix="fitiq-bench-scale-")
    try:
        trivial = os.path.join(root, "trivial")
        subprocess.run([cc, "-O2", "-o", trivial, os.path.join(HERE, "trivial.c"), "-lncursesw"], check=True)
        text_file = os.path.join(root, "notes.txt")
        with open(text_file, "w") as f:
            f.write("nano-bench-marker: a file for the benchmark\n" + "lorem ipsum dolor sit amet\n" * 40)
        # Named from the checkout when they are in it: the results go into docs/benchmarks.md.
        checkout = os.path.dirname(os.path.dirname(HERE))
        shown = os.path.relpath(bin_dir, checkout) if bin_dir.startswith(checkout + os.sep) else bin_dir
        print(f"binaries: {shown}; sizes {', '.join(f'{size:,}' for size in sizes)}; "
              f"load average {os.getloadavg()[0]:.2f}", flush=True)
        tools = (trivial, nano, text_file, strace, curl)
        rows = []
        for shape in shapes:
            weights = PRODUCTION_WEIGHTS if shape == "production" else 0
            rows += [measure_size(args, bin_dir, root, entries, tools, weights=weights, shape=shape)
                     for entries in sizes]
        if args.mixed > 0:
            rows.append(measure_size(args, bin_dir, root, args.mixed, tools, weights=args.mixed))
        if args.every_metric_days > 0:
            days = args.every_metric_days
            rows.append(measure_size(args, bin_dir, root, days, tools, weights=days, every_metric_days=days))
        latency = []
        if args.latency_entries > 0:
            for shape in shapes:
                seconds, cached, by_curl, _ = latency_row(args, bin_dir, root, curl, shape)
                latency.append((args.latency_entries, args.latency_ms, seconds, cached, by_curl, shape))
        print_tables(rows, args)
        for entries, latency_ms, seconds, cached, by_curl, shape in latency:
            print()
            print(f"First sync from a server {latency_ms} ms away (`sync --wait`, no history cached yet, {shape}): "
                  f"{entries:,} entries in {seconds:.2f} s, {cached:,} in the cache after it; curl "
                  f"--parallel-max 8, the same pages: {by_curl:.2f} s")
        print_targets(rows, latency)
        print(f"\nload average now {os.getloadavg()[0]:.2f}")
    finally:
        shutil.rmtree(root, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
