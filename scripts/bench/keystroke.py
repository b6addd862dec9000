#!/usr/bin/env python3
"""Keystroke-to-screen latency through a pseudo-terminal (`make bench-keystroke`, part of `make bench`).

fitiq-tui runs on a pty with the demo account (a year of weights, monthly body fat, weekly heights)
plus 1,000 height entries (so the history chart and list are full). Two runs: the name field put in
edit mode with letters typed one at a time, then the weight field (its history on show below) with
digits. Each sample is the time from writing a key to the pty until the program's output shows that
character. `nano FILE` is measured the same way in the same run. Target: p99 ≤ 16 ms (one frame at
60 Hz) for each.

Usage: keystroke.py --bin-dir DIR [--keys N]   (DIR holds release fitiq-tui and fitiq-dev-server)
Only the Python standard library is used.
"""

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from startup import COLS, ESCAPES, ROWS, percentile, read_some, set_window_size  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import fitiqtools  # noqa: E402

TARGET_P99_MS = 16.0
LETTERS = "abcdefghijklmnopqrstuvwxyz"


def spawn(argv, env):
    master, slave = os.openpty()
    set_window_size(slave)
    pid = os.fork()
    if pid == 0:
        try:
            os.close(master)
            os.login_tty(slave)
            os.execve(argv[0], argv, env)
        finally:
            os._exit(127)
    os.close(slave)
    return pid, master


def wait_for(master, marker, timeout=20.0):
    output = bytearray()
    deadline = time.perf_counter() + timeout
    while time.perf_counter() < deadline:
        data = read_some(master, 0.05)
        if data is None:
            break
        output += data
        if marker in output:
            return bytes(output)
    raise RuntimeError(f"no {marker!r} within {timeout:.0f}s; got {bytes(output[-300:])!r}")


def drain(master, quiet=0.15):
    """Reads until the program has been silent for `quiet` seconds."""
    while read_some(master, quiet):
        pass


def type_and_time(master, keys, settle=0.02, timeout=2.0, alphabet=LETTERS, clear_every=40):
    """Types each character of `alphabet` in turn; returns milliseconds from each write until it is echoed
    (within `timeout` seconds). The field is cleared (Ctrl-U) every `clear_every` characters."""
    samples = []
    for index in range(keys):
        letter = alphabet[index % len(alphabet)].encode()
        drain(master, settle)
        start = time.perf_counter()
        os.write(master, letter)
        seen = bytearray()
        while True:
            data = read_some(master, timeout)
            if not data:
                raise RuntimeError(f"no echo of {letter!r}")
            seen += data
            if letter in ESCAPES.sub(b"", bytes(seen)):
                samples.append((time.perf_counter() - start) * 1000)
                break
        if index % clear_every == clear_every - 1:  # keep the field short: clear it (Ctrl-U) now and then
            os.write(master, b"\x15")
    return samples


def stop(pid, master, keys):
    os.write(master, keys)
    for _ in range(100):
        done, _ = os.waitpid(pid, os.WNOHANG)
        if done:
            break
        drain(master, 0.05)
    else:
        os.kill(pid, 9)
        os.waitpid(pid, 0)
    os.close(master)


def main():
    parser = argparse.ArgumentParser(description="Keystroke-to-screen latency, fitiq-tui next to nano.")
    parser.add_argument("--bin-dir", required=True)
    parser.add_argument("--keys", type=int, default=200, help="keys typed per program (default 200)")
    parser.add_argument("--entries", type=int, default=1000, help="height entries in the history (default 1000)")
    args = parser.parse_args()
    bin_dir = os.path.abspath(args.bin_dir)
    tui = os.path.join(bin_dir, "fitiq-tui")
    nano = shutil.which("nano")
    if not nano:
        sys.exit("error: nano not found")

    work = tempfile.mkdtemp(prefix="fitiq-bench-keys-")
    server = None
    try:
        env = fitiqtools.user_env(os.path.join(work, "home"), TERM="xterm-256color")
        api_key = "bench-" + os.urandom(12).hex()
        password = "bench-" + os.urandom(12).hex()
        server, url = fitiqtools.start_server(
            bin_dir, dict(env, FITIQ_DEV_API_KEY=api_key, FITIQ_DEV_DEMO_PASSWORD=password), "--demo-account",
            "--log-level", "error")
        env["FITIQ_API_KEY"] = api_key
        token = fitiqtools.login(url, api_key, "demo@fitiq.dev", password)
        start = time.time() - args.entries * 3600 * 8
        for index in range(args.entries):
            logged = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(start + index * 3600 * 8))
            fitiqtools.api(url, api_key, "POST", "progress",
                           {"type": "height", "quantity": 170 + (index % 40) / 10, "logged_at": logged}, token)
        login = subprocess.run([tui, "login", "--server", url, "--email", "demo@fitiq.dev"], input=password + "\n",
                               env=env, capture_output=True, text=True, timeout=60)
        if login.returncode != 0:
            raise RuntimeError(f"login failed: {login.stderr.strip()}")
        subprocess.run([tui, "sync"], env=env, capture_output=True, timeout=60)
        history = subprocess.run([tui, "height", "history", "--json"], env=env, capture_output=True, text=True)
        entries = len(json.loads(history.stdout))

        pid, master = spawn([tui], env)
        wait_for(master, b"Alex Demo")
        drain(master, 0.5)
        os.write(master, b"\r")  # edit the name
        # Only changed cells are written: "Enter" may already stand where the hint begins.
        wait_for(master, b"confirm  Esc cancel")
        os.write(master, b"\x15")  # clear it
        drain(master, 0.3)
        ours = type_and_time(master, args.keys)
        stop(pid, master, b"\x1b")

        # The weight field, five fields down, with the weight history and chart below it.
        pid, master = spawn([tui], env)
        wait_for(master, b"Alex Demo")
        drain(master, 0.5)
        os.write(master, b"\t" * 5)
        # Only changed cells are written ("Height history" becomes "We…"): the weights listed show it.
        wait_for(master, b" kg  server")
        drain(master, 0.3)
        os.write(master, b"\r")
        wait_for(master, b"confirm  Esc cancel")
        os.write(master, b"\x15")
        drain(master, 0.3)
        weight = type_and_time(master, args.keys, alphabet="0123456789", clear_every=10)
        stop(pid, master, b"\x1b")
        weights = len(json.loads(subprocess.run([tui, "weight", "history", "--json"], env=env, capture_output=True,
                                                text=True).stdout))

        text_file = os.path.join(work, "notes.txt")
        with open(text_file, "w") as f:
            f.write("lorem ipsum dolor sit amet\n" * 40)
        pid, master = spawn([nano, text_file], env)
        wait_for(master, b"lorem")
        drain(master, 0.5)
        theirs = type_and_time(master, args.keys)
        stop(pid, master, b"\x18n")

        print(f"{args.keys} keys each, {COLS}x{ROWS} pty, {entries} height and {weights} weight entries in "
              f"fitiq-tui's history, load average {os.getloadavg()[0]:.2f}")
        print()
        print(f"| {'program':<32} | {'p50 ms':>7} | {'p90 ms':>7} | {'p99 ms':>7} | {'max ms':>7} |")
        print(f"|{'-' * 34}|{'-' * 9}|{'-' * 9}|{'-' * 9}|{'-' * 9}|")
        for label, samples in (("fitiq-tui (name field)", ours), ("fitiq-tui (weight, its history)", weight),
                               ("nano FILE", theirs)):
            print(f"| {label:<32} | {statistics.median(samples):>7.2f} | {percentile(samples, 0.9):>7.2f} | "
                  f"{percentile(samples, 0.99):>7.2f} | {max(samples):>7.2f} |")
        print()
        for label, samples in (("name field", ours), ("weight field", weight)):
            p99 = percentile(samples, 0.99)
            print(f"target p99 ≤ {TARGET_P99_MS:.0f} ms, {label}: {'met' if p99 <= TARGET_P99_MS else 'NOT met'} "
                  f"(fitiq-tui p99 {p99:.2f} ms)")
    finally:
        fitiqtools.stop(server)
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
