#!/usr/bin/env python3
"""Fault injection (`make faults`; a short run is part of `make test`). Exits 1 on a bad row.

Drives the real `fitiq-tui` and `fitiq-dev-server` through faults and checks the end state the
outbox promises (docs/design.md "End state after faults"): after a final sync the server holds every
acknowledged edit, exactly one progress entry per height change, and the cache is readable.

Each height edit sets a distinct value, so the server's progress entries tell which edits arrived
and whether any arrived twice. An edit counts as acknowledged when its command exited 0 (it was
saved locally; the sync may come later).

The editor is driven through tmux: typed keys in, the captured screen out. An editor's height
edit counts as acknowledged once its draft mark goes after Ctrl-S (a failed save keeps it).

Usage: run.py --bin-dir DIR [--edits N] [--only NAME,...] [--keep]
(DIR holds fitiq-tui and fitiq-dev-server)
Only the Python standard library is used.
"""

import argparse
import json
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import fitiqtools  # noqa: E402

PASSWORD = "fault-password-123"
EMAIL = "faults@example.com"


class World:
    """One scenario's server (data kept across restarts) and one account's folders."""

    def __init__(self, bin_dir, work, name):
        self.bin_dir = bin_dir
        self.tui = os.path.join(bin_dir, "fitiq-tui")
        self.folder = os.path.join(work, name)
        os.makedirs(self.folder)
        self.api_key = "fault-" + os.urandom(8).hex()
        self.secret = "fault-secret-" + os.urandom(16).hex()
        self.database = os.path.join(self.folder, "server.sqlite")
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self.env = fitiqtools.user_env(os.path.join(self.folder, "home"), FITIQ_API_KEY=self.api_key,
                                       FITIQ_SERVER=self.url)
        self.server = None
        self.heights = []  # acknowledged height edits, in cm

    def start(self, *flags):
        self.stop()
        self.server, _ = fitiqtools.start_server(
            self.bin_dir, dict(self.env, FITIQ_DEV_API_KEY=self.api_key, FITIQ_DEV_JWT_SECRET=self.secret),
            "--database", self.database, "--log-level", "error", "--bcrypt-cost", "4", *flags, port=self.port)

    def stop(self, sig=signal.SIGTERM):
        fitiqtools.stop(self.server, sig)
        self.server = None

    def cli(self, *arguments, stdin=None, timeout=120):
        return subprocess.run([self.tui, *arguments], input=stdin, env=self.env, capture_output=True, text=True,
                              timeout=timeout)

    def register(self):
        result = self.cli("register", "--email", EMAIL, "--name", "Fault", "--date-of-birth", "1990-01-01",
                          stdin=PASSWORD + "\n")
        if result.returncode != 0:
            raise RuntimeError(f"register failed: {result.stderr}")

    def set_height(self, value, *flags, timeout=120):
        result = self.cli("height", "set", f"{value:.1f} cm", *flags, timeout=timeout)
        if result.returncode == 0:
            self.heights.append(round(value, 1))
        return result

    def server_heights(self):
        token = fitiqtools.login(self.url, self.api_key, EMAIL, PASSWORD)
        return fitiqtools.server_heights(self.url, self.api_key, token)

    def cache_readable(self):
        status = self.cli("status", "--json")
        files = [os.path.join(root, name) for root, _, names in os.walk(self.env["XDG_DATA_HOME"]) for name in names
                 if name == "account.json"]
        try:
            for path in files:
                with open(path) as f:
                    json.load(f)
        except (OSError, ValueError):
            return False
        return status.returncode == 0 and bool(files)

    def verdict(self, scenario):
        synced = self.cli("sync", "--wait", "--timeout", "60")
        if synced.returncode == 3:  # signed out on purpose by the scenario: sign in again, nothing lost
            self.cli("login", "--email", EMAIL, stdin=PASSWORD + "\n")
            synced = self.cli("sync", "--wait", "--timeout", "60")
        on_server = self.server_heights()
        edits = set(self.heights)
        arrived = [value for value in on_server if value in edits]
        # Every value was set once, so any repeat on the server (acknowledged or not) is a duplicate.
        duplicates = len(on_server) - len(set(on_server))
        lost = len(edits - set(on_server))
        readable = self.cache_readable()
        ok = lost == 0 and duplicates == 0 and readable and synced.returncode == 0
        if synced.returncode != 0:
            print(f"  sync --wait: exit {synced.returncode}: {synced.stdout.strip()}", file=sys.stderr)
        return scenario, len(edits), len(set(arrived)), duplicates, lost, readable, ok


def values(count, start):
    return [start + index / 10 for index in range(count)]


def scenario_absent_then_started(world, count):
    world.start()
    world.register()
    world.stop()
    for value in values(count, 150):
        world.set_height(value, "--no-sync")
    world.set_height(149.5, timeout=40)  # one edit that tries to deliver while the server is absent
    world.start()
    return world.verdict("server absent at start, started later")


def scenario_killed_mid_sync(world, count):
    world.start()
    world.register()
    for value in values(count, 150):
        world.set_height(value, "--no-sync")
    # Each answer takes 100 ms, so the sync lasts long enough to be caught in the middle: the server
    # is killed once its first entry has arrived, whatever the machine's speed.
    world.start("--latency-ms", "100")
    sync = subprocess.Popen([world.tui, "sync", "--wait", "--timeout", "120"], env=world.env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.time() + 60
    while not world.server_heights():
        if time.time() > deadline or sync.poll() is not None:
            raise RuntimeError("no entry reached the server while the sync ran")
        time.sleep(0.02)
    mid_sync = sync.poll() is None
    world.stop(signal.SIGKILL)
    world.start()
    sync.wait(timeout=150)
    print(f"  server killed {'with the sync still running' if mid_sync else 'after the sync had ended'}",
          file=sys.stderr)
    return world.verdict("server killed mid-sync, restarted")


def scenario_flaky(world, count, flags, label):
    world.start()
    world.register()
    world.start(*flags)
    for value in values(count, 150):
        world.set_height(value, "--no-sync")
    world.cli("sync", "--wait", "--timeout", "20")
    world.start()
    return world.verdict(label)


def scenario_slow(world, count):
    world.start()
    world.register()
    world.start("--latency-ms", "15000")
    for value in values(count, 150):
        world.set_height(value, "--no-sync")
    world.cli("sync", timeout=60)  # every request outlives the client's 10 s timeout
    world.start()
    return world.verdict("--latency-ms 15000 (beyond the 10 s timeout)")


def scenario_tokens(world, count):
    world.start("--access-token-ttl", "1")
    world.register()
    for value in values(count, 150):
        world.set_height(value)
        time.sleep(0.3)
    return world.verdict("access token expiring every second")


def scenario_revoked(world, count):
    world.start("--access-token-ttl", "1")
    world.register()
    for value in values(count, 150):
        world.set_height(value, "--no-sync")
    # Someone uses the stored refresh token first: the client's copy is revoked.
    sessions = [os.path.join(root, name) for root, _, names in os.walk(world.env["XDG_STATE_HOME"])
                for name in names if name == "session.json"]
    with open(sessions[0]) as f:
        stored = json.load(f)
    refresh = stored["session"]["tokens"]["refreshToken"]
    fitiqtools.api(world.url, world.api_key, "POST", "auth/refresh", {"refresh_token": refresh})
    time.sleep(1.2)
    world.cli("sync", timeout=60)
    return world.verdict("refresh token revoked (sign in again)")


def scenario_sigkill(world, count):
    world.start()
    world.register()
    rng = random.Random(7)
    for value in values(count, 150):
        process = subprocess.Popen([world.tui, "height", "set", f"{value:.1f} cm"], env=world.env,
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        if rng.random() < 0.3:
            time.sleep(rng.random() * 0.05)
            process.kill()
        if process.wait(timeout=60) == 0:
            world.heights.append(round(value, 1))
    return world.verdict(f"fitiq-tui SIGKILLed at random during {count} saves")


def scenario_two_instances(world, count):
    world.start()
    world.register()
    lock = threading.Lock()

    def writer(start):
        for value in values(count // 2, start):
            result = world.cli("height", "set", f"{value:.1f} cm")
            if result.returncode == 0:
                with lock:
                    world.heights.append(round(value, 1))

    threads = [threading.Thread(target=writer, args=(start,)) for start in (150, 200)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return world.verdict("two instances on one account at once")


class Editor(fitiqtools.Editor):
    """The editor on the scenario's account, with the steps of a height edit."""

    def __init__(self, world, name):
        super().__init__(world.tui, world.env, f"faults-{name}")

    def open_height(self):
        """Waits for the profile, then moves the focus to the height (name, bio, units, language, height)."""
        self.wait_until("the profile", lambda rows: any("›Name" in row for row in rows))
        self.keys("Tab", "Tab", "Tab", "Tab")
        self.wait_until("focus on the height", lambda rows: any("›Height" in row for row in rows))

    def save_height(self, value, kill_after=None):
        """Types a height and saves it; returns whether the screen showed it saved.

        With `kill_after` (seconds), the editor is SIGKILLed that long after Ctrl-S instead."""
        text = f"{value:.1f}"
        self.keys("Enter")
        self.wait_until("the height in edit mode", lambda rows: any("Enter confirm" in row for row in rows))
        self.keys("C-u")
        self.type(f"{text} cm")
        self.keys("Enter")
        self.wait_until("the height as a draft", lambda rows: any(f"{text} cm *" in row for row in rows))
        if kill_after is not None:
            pid = self.pid()
            self.keys("C-s")
            time.sleep(kill_after)
            os.kill(pid, signal.SIGKILL)
            return False
        self.keys("C-s")
        # Saved locally: the draft mark goes (a failed save keeps it and shows why). The value shown
        # may already be another editor's newer height.
        self.wait_until("the height saved", lambda rows: any(
            "›Height" in row and " cm" in row and " *" not in row for row in rows))
        return True


def scenario_editor_and_cli(world, count):
    """The editor saves bios while command-line processes save heights on the same account."""
    world.start()
    world.register()
    editor = Editor(world, "both")
    bios = []
    try:
        editor.wait_until("the profile", lambda rows: any("Fault" in row for row in rows))
        writer = threading.Thread(target=lambda: [world.set_height(value) for value in values(count, 150)])
        writer.start()
        editor.keys("Tab")
        for index in range(max(3, count // 10)):
            text = f"bio number {index}"
            editor.keys("Enter")
            editor.wait_until("the bio in edit mode", lambda rows: any("Enter confirm" in row for row in rows))
            editor.keys("C-u")
            editor.type(text)
            editor.keys("Enter", "C-s")
            editor.wait_until("the bio saved", lambda rows, text=text: any(
                "Bio" in row and text in row and f"{text} *" not in row for row in rows))
            bios.append(text)
        writer.join()
        editor.keys("q")
        editor.wait_for_exit()
    finally:
        editor.close()
    scenario, edits, arrived, duplicates, lost, readable, ok = world.verdict(
        "the editor and command lines on one account at once")
    shown = json.loads(world.cli("profile", "show", "--json").stdout)
    bio_arrived = shown.get("bio") == bios[-1]
    return (scenario, edits + len(bios), arrived + (len(bios) if bio_arrived else 0), duplicates,
            lost + (0 if bio_arrived else len(bios)), readable, ok and bio_arrived)


def scenario_editor_sigkill(world, count):
    """The editor saves heights and is SIGKILLed at random moments around Ctrl-S, then reopened."""
    world.start()
    world.register()
    rng = random.Random(11)
    editor, kills = None, 0
    try:
        for index, value in enumerate(values(count, 150)):
            if editor is None:
                editor = Editor(world, f"kill{kills}")
                editor.open_height()
            if rng.random() < 0.3 or index == 2:  # a short run kills at least once
                editor.save_height(value, kill_after=rng.random() * 0.03)
                editor.close()
                editor, kills = None, kills + 1
            elif editor.save_height(value):
                world.heights.append(round(value, 1))
    finally:
        if editor:
            editor.close()
    print(f"  editor SIGKILLed {kills} times", file=sys.stderr)
    return world.verdict(f"the editor SIGKILLed at random during {count} saves")


def scenario_two_editors(world, count):
    """Two editors on one account save heights at the same time."""
    world.start()
    world.register()
    editors = [Editor(world, "first"), Editor(world, "second")]
    lock, failures = threading.Lock(), []

    def writer(editor, start):
        try:
            editor.open_height()
            for value in values(count // 2, start):
                if editor.save_height(value):
                    with lock:
                        world.heights.append(round(value, 1))
        except Exception as error:  # reported as a failed row below
            failures.append(error)

    try:
        threads = [threading.Thread(target=writer, args=(editor, start)) for editor, start in zip(editors, (150, 200))]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        for editor in editors:
            editor.close()
    if failures:
        raise failures[0]
    return world.verdict("two editors on one account at once")


def scenario_disk_full(world, count):
    """The cache's disk fills up: a save fails with a clear message and the old cache stays intact."""
    if os.geteuid() != 0:
        raise RuntimeError("skipped: mounting a small file system needs root")
    mount = os.path.join(world.folder, "small-disk")
    os.makedirs(mount)
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=512k", "tmpfs", mount], check=True)
    try:
        world.env["XDG_DATA_HOME"] = mount
        world.start()
        world.register()
        for value in values(count // 2, 150):
            world.set_height(value)
        account = [os.path.join(root, name) for root, _, names in os.walk(mount) for name in names
                   if name == "account.json"][0]
        with open(account, "rb") as f:
            before = f.read()
        filler = os.path.join(mount, "filler")
        descriptor = os.open(filler, os.O_WRONLY | os.O_CREAT, 0o600)
        try:
            while os.write(descriptor, b"\0" * 4096):
                pass
        except OSError:
            pass
        finally:
            os.close(descriptor)
        refused = world.cli("height", "set", "190.0 cm")
        with open(account, "rb") as f:
            intact = f.read() == before
        clear = refused.returncode != 0 and ("space" in refused.stderr.lower() or "disk" in refused.stderr.lower())
        print(f"  disk full: exit {refused.returncode}: {refused.stderr.strip()[:120]}", file=sys.stderr)
        os.remove(filler)
        for value in values(count - count // 2, 170):
            world.set_height(value)
        scenario, edits, arrived, duplicates, lost, readable, ok = world.verdict("disk full while saving")
        return scenario, edits, arrived, duplicates, lost, readable and intact, ok and intact and clear
    finally:
        world.stop()
        subprocess.run(["umount", mount], check=False)


def main():
    parser = argparse.ArgumentParser(description="Fault injection against the real binaries.")
    parser.add_argument("--bin-dir", required=True)
    parser.add_argument("--edits", type=int, default=40, help="edits per scenario (default 40)")
    parser.add_argument("--only", help="comma-separated scenario names (default: all)")
    parser.add_argument("--keep", action="store_true", help="keep the servers' and accounts' files")
    args = parser.parse_args()
    bin_dir = os.path.abspath(args.bin_dir)
    work = tempfile.mkdtemp(prefix="fitiq-faults-")
    rows = []
    scenarios = [
        ("absent", lambda w: scenario_absent_then_started(w, args.edits)),
        ("killed", lambda w: scenario_killed_mid_sync(w, args.edits)),
        ("fail", lambda w: scenario_flaky(w, args.edits, ["--fail-rate", "0.5"], "--fail-rate 0.5")),
        ("drop", lambda w: scenario_flaky(w, args.edits, ["--drop-rate", "0.2"], "--drop-rate 0.2")),
        ("slow", lambda w: scenario_slow(w, min(args.edits, 10))),
        ("tokens", lambda w: scenario_tokens(w, min(args.edits, 10))),
        ("revoked", lambda w: scenario_revoked(w, args.edits)),
        ("sigkill", lambda w: scenario_sigkill(w, args.edits)),
        ("two", lambda w: scenario_two_instances(w, args.edits)),
        ("editor", lambda w: scenario_editor_and_cli(w, min(args.edits, 40))),
        ("editor-kill", lambda w: scenario_editor_sigkill(w, args.edits)),
        ("editors", lambda w: scenario_two_editors(w, args.edits)),
        ("disk", lambda w: scenario_disk_full(w, min(args.edits, 10))),
    ]
    if args.only:
        wanted = args.only.split(",")
        scenarios = [scenario for scenario in scenarios if scenario[0] in wanted]
    try:
        for name, run in scenarios:
            world = World(bin_dir, work, name)
            started = time.perf_counter()
            try:
                rows.append(run(world) + (time.perf_counter() - started,))
            except Exception as error:  # a scenario that cannot finish is a failed row, not a crash
                rows.append((name, len(world.heights), 0, 0, len(world.heights), False, False,
                             time.perf_counter() - started))
                print(f"{name}: {error}", file=sys.stderr)
            finally:
                world.stop()
            print(f"  {rows[-1][0]}: {'ok' if rows[-1][6] else 'FAILED'}", file=sys.stderr, flush=True)
    finally:
        if args.keep:
            print(f"the scenarios' files are in {work}", file=sys.stderr)
        else:
            shutil.rmtree(work, ignore_errors=True)

    print(f"| {'scenario':<52} | edits | on server | duplicates | lost | cache readable | seconds |")
    print(f"|{'-' * 54}|------:|----------:|-----------:|-----:|:--------------:|--------:|")
    for scenario, edits, arrived, duplicates, lost, readable, ok, seconds in rows:
        mark = "" if ok else "  ← FAILED"
        print(f"| {scenario:<52} | {edits:>5} | {arrived:>9} | {duplicates:>10} | {lost:>4} | "
              f"{'yes' if readable else 'NO':^14} | {seconds:>7.1f} |{mark}")
    failed = sum(1 for row in rows if not row[6])
    print(f"\n{len(rows) - failed} of {len(rows)} scenarios: nothing lost, no duplicates, cache readable")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
