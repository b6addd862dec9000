#!/usr/bin/env python3
"""Runs benchmarks and writes what they printed into docs/benchmarks.md, with the date and the machine.

`make bench` runs this with every benchmark target; `make bench BENCHES="bench-offline bench-sync"` with
some. Each target runs as `make --no-print-directory TARGET` (so it builds and installs what it needs
first); its output is shown as it comes and kept. The section between the markers
`<!-- results: begin -->` and `<!-- results: end -->` of docs/benchmarks.md is then replaced by this
run's: when, on what machine (kernel, processor, cores, memory, load), and each benchmark's own lines,
which put every figure beside its comparison from the same run. A benchmark that fails is written
with its exit status, and this script exits non-zero after writing the rest.

Usage: report.py TARGET...   (from the repository's top folder)
Only the Python standard library is used.
"""

import datetime
import os
import platform
import subprocess
import sys

DOC = os.path.join("docs", "benchmarks.md")
BEGIN, END = "<!-- results: begin -->", "<!-- results: end -->"


def machine():
    """One line each: kernel, processor, cores, memory, load at the start."""
    model = "unknown processor"
    try:
        with open("/proc/cpuinfo") as f:
            model = next((line.split(":", 1)[1].strip() for line in f if line.startswith("model name")), model)
    except OSError:
        pass
    memory = ""
    try:
        with open("/proc/meminfo") as f:
            kib = int(next(line.split()[1] for line in f if line.startswith("MemTotal")))
            memory = f", {kib / 1024 / 1024:.0f} GiB"
    except (OSError, StopIteration, ValueError):
        pass
    load = ", ".join(f"{value:.2f}" for value in os.getloadavg())
    return [f"{platform.system()} {platform.release()} {platform.machine()}",
            f"{model}, {os.cpu_count()} cores{memory}", f"load average at the start: {load}"]


def run(target):
    """Runs `make TARGET`, echoing and keeping its output; returns (status, lines)."""
    process = subprocess.Popen(["make", "--no-print-directory", target], stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True)
    lines = []
    for line in process.stdout:
        sys.stdout.write(line)
        sys.stdout.flush()
        lines.append(line.rstrip("\n"))
    return process.wait(), lines


def section(when, targets, results):
    """The Markdown of one run."""
    out = [BEGIN, "", "## The last run", "", f"Run by `make bench` on {when}:", ""]
    out += [f"- {line}" for line in machine()]
    for target, (status, lines) in zip(targets, results):
        # What the benchmark script printed: what follows make's echo of it (the release build and the
        # package installs before it are left out).
        starts = [index for index, line in enumerate(lines) if line.startswith("python3 scripts/bench/")]
        shown = lines[starts[-1] + 1:] if starts else lines
        out += ["", f"### {target}" + ("" if status == 0 else f" (failed: exit {status})"), "", "```text"]
        out += shown or ["(no output)"]
        out += ["```"]
    return out + ["", END]


def main():
    targets = sys.argv[1:]
    if not targets:
        sys.exit(__doc__)
    when = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    results = [run(target) for target in targets]
    with open(DOC) as f:
        text = f.read()
    if BEGIN in text and END in text:
        before, rest = text.split(BEGIN, 1)
        after = rest.split(END, 1)[1]
    else:
        before, after = text.rstrip("\n") + "\n\n", "\n"
    with open(DOC + ".new", "w") as f:
        f.write(before + "\n".join(section(when, targets, results)) + after)
    os.replace(DOC + ".new", DOC)
    print(f"report.py: {DOC} holds this run ({len(targets)} benchmarks)")
    return 0 if all(status == 0 for status, _ in results) else 1


if __name__ == "__main__":
    sys.exit(main())
