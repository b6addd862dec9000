#!/usr/bin/env python3
"""Startup benchmark of the terminal UI (`make bench-startup`; docs/ncurses.md "Startup costs").

Measures the time from exec to the first frame that shows the cached profile: each program runs on
a fresh pseudo-terminal, and the clock stops when its output contains the expected text (the
profile's name for fitiq-tui). A TUI never exits by itself, so whole-process timers do not apply.
Next to fitiq-tui, in the same run and interleaved with it: a trivial C ncurses program
(scripts/bench/trivial.c) and `nano FILE`.

fitiq-tui is measured two ways, bare (`fitiq-tui`) and with `--server URL` (neither goes through the
argument parser: the editor reads those alone), each with the development server up and again with a "black
hole" server on the same port (accepts connections, never answers). Nothing may wait on the network
before the first frame, so the black-hole figures must match.

Then one traced run (`FITIQ_TRACE_STARTUP`) of each way prints where the time goes: exec to `main`,
argument parsing, resolving server and session, reading the account, opening the terminal, the first
frame.

Usage: startup.py --bin-dir DIR [--runs N]   (DIR holds release fitiq-tui and fitiq-dev-server)
Only the Python standard library is used.
"""

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import fitiqtools  # noqa: E402
from terminal import COLS, ROWS, Program, percentile, run_once  # noqa: E402


BLACK_HOLE = r"""
import socket, sys, time
s = socket.socket()
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("127.0.0.1", int(sys.argv[1])))
s.listen(128)
print("ready", flush=True)
held = []
while True:
    connection, _ = s.accept()
    held.append(connection)  # accepted, never read, never answered, never closed
"""


def main():
    parser = argparse.ArgumentParser(description="Time from exec to the first frame with the cached profile.")
    parser.add_argument("--bin-dir", required=True, help="folder with release fitiq-tui and fitiq-dev-server")
    parser.add_argument("--runs", type=int, default=30, help="measured runs per program and phase (default 30)")
    parser.add_argument("--warmup", type=int, default=2, help="unmeasured runs per program first (default 2)")
    args = parser.parse_args()
    if args.runs < 1:
        parser.error("--runs must be at least 1")
    bin_dir = os.path.abspath(args.bin_dir)
    print(fitiqtools.program_size(os.path.join(bin_dir, "fitiq-tui")), flush=True)
    tui = os.path.join(bin_dir, "fitiq-tui")
    here = os.path.dirname(os.path.abspath(__file__))
    nano = shutil.which("nano")
    cc = shutil.which("cc") or shutil.which("gcc")
    for what, path in (("fitiq-tui", tui), ("fitiq-dev-server", os.path.join(bin_dir, "fitiq-dev-server")),
                       ("nano", nano), ("cc", cc)):
        if not path or not os.access(path, os.X_OK):
            sys.exit(f"error: {what} not found ({path})")

    work = tempfile.mkdtemp(prefix="fitiq-bench-")
    server = black_hole = None
    try:
        trivial = os.path.join(work, "trivial")
        subprocess.run([cc, "-O2", "-o", trivial, os.path.join(here, "trivial.c"), "-lncursesw"], check=True)
        text_file = os.path.join(work, "notes.txt")
        with open(text_file, "w") as f:
            f.write("nano-bench-marker: a file for the startup benchmark\n" + "lorem ipsum dolor sit amet\n" * 40)

        xdg = {name: os.path.join(work, name) for name in ("config", "data", "state", "home")}
        for folder in xdg.values():
            os.makedirs(folder, mode=0o700)
        base_env = {
            "PATH": "/usr/local/bin:/usr/bin:/bin",
            "HOME": xdg["home"],
            "LANG": "C.UTF-8",
            "TERM": "xterm-256color",
            "XDG_CONFIG_HOME": xdg["config"],
            "XDG_DATA_HOME": xdg["data"],
            "XDG_STATE_HOME": xdg["state"],
        }
        api_key = "bench-" + os.urandom(12).hex()
        password = "bench-" + os.urandom(12).hex()
        server_env = dict(base_env, FITIQ_DEV_API_KEY=api_key, FITIQ_DEV_DEMO_PASSWORD=password)
        server, url = fitiqtools.start_server(bin_dir, server_env, "--demo-account", "--log-level", "error")
        port = int(url.rsplit(":", 1)[1].rstrip("/"))

        # Sign in once with the command line: the cache then holds the profile.
        login = subprocess.run([tui, "login", "--server", url, "--email", "demo@fitiq.dev"],
                               input=password + "\n", env=dict(base_env, FITIQ_API_KEY=api_key),
                               capture_output=True, text=True, timeout=60)
        if login.returncode != 0:
            raise RuntimeError(f"login failed ({login.returncode}): {login.stderr.strip()}")
        cached = subprocess.run(["grep", "-rl", "Alex Demo", xdg["data"]], capture_output=True, text=True)
        if not cached.stdout.strip():
            raise RuntimeError("the cache does not hold the profile after login")

        def programs(phase_label, server_label):
            return [
                Program(f"trivial C ncurses ({phase_label})", [trivial], base_env, "trivial-ready", b"q"),
                Program(f"nano FILE ({phase_label})", [nano, text_file], base_env, "nano-bench-marker", b"\x18"),
                Program(f"fitiq-tui ({server_label})", [tui], base_env, "Alex Demo", b"q"),
                Program(f"fitiq-tui --server URL ({server_label})", [tui, "--server", url], base_env, "Alex Demo",
                        b"q"),
            ]

        def phase(group):
            for program in group:
                for _ in range(args.warmup):
                    run_once(program)
            for _ in range(args.runs):  # interleaved, so that a slower moment costs every program alike
                for program in group:
                    program.samples.append(run_once(program))

        print(f"{args.runs} runs each after {args.warmup} warm-up runs, {COLS}x{ROWS} pty, "
              f"load average {os.getloadavg()[0]:.2f}", flush=True)
        up = programs("phase 1", "server up")
        phase(up)
        print(f"phase 1: server up at {url}", flush=True)

        fitiqtools.stop(server)
        server = None
        black_hole = subprocess.Popen([sys.executable, "-c", BLACK_HOLE, str(port)], stdout=subprocess.PIPE, text=True)
        if black_hole.stdout.readline().strip() != "ready":
            raise RuntimeError("the black-hole server did not start")
        hole = programs("phase 2", "black hole")
        phase(hole)
        print(f"phase 2: black hole on port {port} (accepts, never answers)", flush=True)

        print()
        print(f"{'program':<44} {'median ms':>10} {'p90 ms':>8} {'× trivial C':>12} {'quit ms (max)':>14}")
        ratios = {}
        for group in (up, hole):
            baseline = statistics.median(group[0].samples)
            for program in group:
                median = statistics.median(program.samples)
                quit_note = f"{max(program.quit_times):.0f}" if program.quit_times else "-"
                if program.forced:
                    quit_note += f" ({program.forced} forced)"
                print(f"{program.label:<44} {median:>10.1f} {percentile(program.samples, 0.9):>8.1f} "
                      f"{median / baseline:>12.2f} {quit_note:>14}")
                if program.label.startswith("fitiq-tui"):
                    ratios[program.label] = median / baseline
        print()
        worst = max(ratios.values())
        verdict = "met" if worst <= 3 else "NOT met"
        stretch = "met" if worst <= 2 else "not met"
        print(f"target ≤ 3× trivial C for both ways: {verdict} (worst {worst:.2f}×); stretch ≤ 2×: {stretch}")
        for index in (2, 3):
            print(f"{up[index].label.split(' (')[0]}: black hole / server up "
                  f"{statistics.median(hole[index].samples) / statistics.median(up[index].samples):.2f}")
        print(f"{args.runs} samples per row; load average now {os.getloadavg()[0]:.2f}")

        print("\nWhere the time goes (one traced run each, ms since exec):")
        for program in up[2:]:
            trace = os.path.join(work, "startup.trace")
            traced = Program(program.label, program.argv, dict(program.env, FITIQ_TRACE_STARTUP=trace), "Alex Demo",
                             b"q")
            started = []
            run_once(traced, started)
            print(f"  {program.label.split(' (')[0]}:")
            with open(trace) as f:
                previous = started[0]
                for line in f:
                    stage, nanoseconds = line.rstrip("\n").split("\t")
                    at = int(nanoseconds)
                    print(f"    {(at - started[0]) / 1e6:7.2f}  (+{(at - previous) / 1e6:5.2f})  {stage}")
                    previous = at
    finally:
        fitiqtools.stop(server)
        if black_hole:
            black_hole.kill()
            black_hole.wait()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
