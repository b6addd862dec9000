#!/usr/bin/env python3
"""Runs the libFuzzer targets built by scripts/fuzz/build.sh, each for a time budget, and prints a table.

    run.py [--seconds 60] [--jobs 1] [TARGET...]          (default: every target)

Each target fuzzes a working copy of its committed seeds: Fuzz/corpus/<target> is copied into
.build/fuzz/corpus/<target> (kept between runs), where libFuzzer also writes the new inputs it
finds; the committed folder is never written. A crash, timeout or out-of-memory input is written to
.build/fuzz/crashes/<target>/ and named in the table; the whole log is .build/fuzz/logs/<target>.log.
Exits 1 when any target crashed. Python 3.9+, standard library only.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OUT = os.path.join(ROOT, ".build", "fuzz")
# Every file of Fuzz/Targets is a target (scripts/fuzz/build.sh reads the same folder).
TARGETS = sorted(name[: -len(".swift")] for name in os.listdir(os.path.join(ROOT, "Fuzz", "Targets")) if name.endswith(".swift"))
# Longest input per target: typed text is short, files and answers longer; zip holds a whole archive.
MAX_LEN = {"text": 512, "csv": 8192, "cache": 16384, "wire": 8192, "health-xml": 16384, "zip": 32768}
# Memory per process (ASan included); a single allocation above it counts as a crash (malloc_limit_mb).
RSS_LIMIT_MB = 2048
# Seconds one input may take before it counts as a hang.
TIMEOUT = 10


def prepare(target):
    seeds = os.path.join(ROOT, "Fuzz", "corpus", target)
    work = os.path.join(OUT, "corpus", target)
    os.makedirs(work, exist_ok=True)
    if os.path.isdir(seeds):
        for name in os.listdir(seeds):
            if not os.path.exists(os.path.join(work, name)):
                shutil.copyfile(os.path.join(seeds, name), os.path.join(work, name))
    crashes = os.path.join(OUT, "crashes", target)
    os.makedirs(crashes, exist_ok=True)
    os.makedirs(os.path.join(OUT, "logs"), exist_ok=True)
    return work, crashes


def start(target, seconds):
    binary = os.path.join(OUT, "bin", target)
    if not os.access(binary, os.X_OK):
        sys.exit(f"fuzz: {binary} is missing; build it with scripts/fuzz/build.sh {target}")
    work, crashes = prepare(target)
    command = [
        binary, f"-max_total_time={seconds}", f"-max_len={MAX_LEN.get(target, 4096)}",
        f"-rss_limit_mb={RSS_LIMIT_MB}", f"-timeout={TIMEOUT}", "-print_final_stats=1",
        f"-artifact_prefix={crashes}{os.sep}", work,
    ]
    log = open(os.path.join(OUT, "logs", f"{target}.log"), "w")
    log.write(" ".join(command) + "\n")
    log.flush()
    print(f"fuzz: {target} for {seconds} s", flush=True)
    # libFuzzer, not the Swift runtime's backtracer, handles a crash: it writes the input and its stats.
    environment = dict(os.environ, SWIFT_BACKTRACE="enable=no")
    process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, cwd=ROOT, env=environment)
    return {"target": target, "process": process, "log": log, "work": work, "started": time.monotonic()}


def result(run):
    returncode = run["process"].wait()
    run["log"].close()
    path = run["log"].name
    with open(path, errors="replace") as f:
        text = f.read()
    executions = re.findall(r"stat::number_of_executed_units:\s*(\d+)", text)
    if not executions:
        executions = re.findall(r"^#(\d+)\s", text, re.MULTILINE)
    artifacts = re.findall(r"Test unit written to (\S+)", text)
    kind = ""
    for pattern, name in ((r"ERROR: libFuzzer: timeout", "timeout"), (r"ERROR: libFuzzer: out-of-memory", "oom"),
                          (r"ERROR: libFuzzer: malloc", "oom"), (r"ERROR: AddressSanitizer", "asan"),
                          (r"ERROR: libFuzzer: deadly signal", "crash")):
        if re.search(pattern, text):
            kind = name
            break
    crashed = returncode != 0 or bool(artifacts)
    return {
        "target": run["target"],
        "executions": int(executions[-1]) if executions else 0,
        "crashes": 1 if crashed else 0,
        "kind": kind or ("exit %d" % returncode if crashed else ""),
        "corpus": len(os.listdir(run["work"])),
        "seconds": round(time.monotonic() - run["started"]),
        "artifact": os.path.relpath(artifacts[-1], ROOT) if artifacts else "",
        "log": os.path.relpath(path, ROOT),
    }


def table(results):
    rows = [("target", "executions", "crashes", "corpus", "seconds", "crash file")]
    for r in results:
        crash = f"{r['artifact']} ({r['kind']}; log {r['log']})" if r["crashes"] else ""
        rows.append((r["target"], str(r["executions"]), str(r["crashes"]), str(r["corpus"]), str(r["seconds"]), crash))
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]) - 1)]
    lines = []
    for index, row in enumerate(rows):
        cells = [row[0].ljust(widths[0])] + [row[i].rjust(widths[i]) for i in range(1, len(widths))] + [row[-1]]
        lines.append("  ".join(cells).rstrip())
        if index == 0:
            lines.append("  ".join("-" * w for w in widths))
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=int, default=int(os.environ.get("FUZZ_SECONDS", "60")))
    parser.add_argument("--jobs", type=int, default=1, help="fuzzers running at once (default 1)")
    parser.add_argument("targets", nargs="*", default=TARGETS)
    args = parser.parse_args()
    unknown = [t for t in args.targets if t not in TARGETS]
    if unknown:
        sys.exit(f"fuzz: unknown target {' '.join(unknown)} (targets: {' '.join(TARGETS)})")
    pending, running, results = list(args.targets), [], []
    while pending or running:
        while pending and len(running) < max(1, args.jobs):
            running.append(start(pending.pop(0), args.seconds))
        finished = [run for run in running if run["process"].poll() is not None]
        for run in finished:
            running.remove(run)
            results.append(result(run))
        if not finished:
            time.sleep(0.5)
    results.sort(key=lambda r: args.targets.index(r["target"]))
    print(table(results))
    crashed = [r for r in results if r["crashes"]]
    if crashed:
        for r in crashed:
            print(f"fuzz: {r['target']} crashed; reproduce with SWIFT_BACKTRACE=enable=no .build/fuzz/bin/{r['target']} {r['artifact']}")
        sys.exit(1)


if __name__ == "__main__":
    main()
