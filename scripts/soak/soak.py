#!/usr/bin/env python3
"""An afternoon in one run (`make soak`, SOAK_MINUTES, default 60): the release editor in a real
terminal (tmux, TERM=xterm-256color) under a scripted user, a second process editing the same account
through the command line, and a development server that goes away, comes back slow or flaky, and
issues tokens that expire every 60 seconds.

- The user, every few seconds: saves a weight, a body fat, a bio; corrects the latest height; opens the
  progress screen; undoes; imports a small CSV now and then; resizes the window.
- The second process: `weight set` and `profile set --bio`.
- The server: killed (SIGKILL or SIGTERM) at random for 30-90 s, at least twice in any 15 minutes
  (shorter runs scale the gaps); it comes back on the same database and port, at times answering
  slowly (--latency-ms) or answering some requests 503 (--fail-rate).
- At the end: the editor's idle CPU over 30 s (server up, nothing pending), its RSS, open files and
  threads (sampled after its first minute and now), the editor quits, `sync --wait` runs, and the
  server's entries and bio are compared with the cache's (read with the server stopped).

Every value a save types is unique within the run, so a save is found again by its value: lost counts
the saves missing from the server or the cache (less those the status line said were undone), cache
entries the server lacks, server entries the cache lacks, a bio that differs and changes still pending;
duplicates counts server entries beyond the cache's copies of the same reading. The last line is
`soak: M minutes, N saves, K syncs, server down D times; RSS A → B MB; fds A → B; threads A → B; lost L;
duplicates U`. fds counts the editor's open files less the connections to the server libcurl keeps for
reuse between syncs, which are reported on a line of their own (at most 8, the sync's parallel limit:
how many a sync opened depends on what it had to fetch). The exit status is 1 when anything was lost
or sent twice, RSS grew by more than 2 MB, files or threads grew, more than 8 connections were kept,
or the editor stopped answering or exited early. The first minute does every action once, so what
is built on first use is in place before the first sample.

When the session ends (the server died after spending a refresh token, before its answer arrived:
refresh tokens are single-use), the user signs in again with `fitiq-tui login`, as a person would; the
count is printed on a line of its own, and what was saved meanwhile must still reach the server once.
A failed run keeps its work folder: the server's log, and actions.log with every save and undo.

Usage: soak.py --bin-dir DIR [--minutes N] [--seed N] [--keep]   (DIR: release fitiq-tui, fitiq-dev-server)
Only the Python standard library is used; tmux must be installed.
"""

import argparse
import collections
import datetime
import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import fitiqtools  # noqa: E402

EMAIL, PASSWORD = "soak@example.com", "soak-password-123"
SIZES = [(100, 30), (120, 40), (110, 32)]  # the forms fit side by side in each
TINY = (40, 12)
MAX_POOLED = 8  # connections libcurl may keep open to the server between syncs: the sync's parallel limit
UI_TIMEOUT = 20.0  # seconds the editor may take to show what a key asks for (it never waits for the server)
METRICS = {"weight": "weight", "body_fat_percentage": "body fat", "height": "height"}


def log(text):
    print(f"{time.strftime('%H:%M:%S')} {text}", flush=True)


class Server:
    """The development server on one database and port, restarted with other faults each time."""

    def __init__(self, bin_dir, work, rng):
        self.bin_dir, self.work, self.rng = bin_dir, work, rng
        self.api_key = "soak-" + os.urandom(12).hex()
        self.env = fitiqtools.user_env(os.path.join(work, "server"), FITIQ_DEV_API_KEY=self.api_key,
                                       FITIQ_DEV_JWT_SECRET=os.urandom(24).hex())
        self.database = os.path.join(work, "server.sqlite")
        self.log_path = os.path.join(work, "server.log")
        self.process, self.url, self.port, self.downs = None, None, 0, 0
        self.mode = "normal"

    def start(self, mode="normal"):
        flags = ["--database", self.database, "--access-token-ttl", "60", "--bcrypt-cost", "4"]
        if mode == "slow":
            flags += ["--latency-ms", str(self.rng.randint(400, 2000))]
        elif mode == "flaky":
            # 503s before any work. Not --drop-rate: an answer dropped after a refresh spends the single-use
            # refresh token, which by the contract ends the session (make faults covers dropped answers).
            flags += ["--fail-rate", "0.1"]
        for attempt in range(50):  # the port may still be held for a moment by the process just killed
            with open(self.log_path, "a") as stderr:
                try:
                    self.process, url = fitiqtools.start_server(self.bin_dir, self.env, *flags, port=self.port,
                                                                stderr=stderr)
                    break
                except RuntimeError:
                    if attempt == 49:
                        raise
                    time.sleep(0.2)
        self.url, self.port, self.mode = url, int(url.rsplit(":", 1)[1]), mode
        log(f"server up ({mode}: {' '.join(flags[6:]) or 'no faults'})")

    def kill(self):
        sig = self.rng.choice([signal.SIGKILL, signal.SIGTERM])
        fitiqtools.stop(self.process, sig)
        self.process = None
        self.downs += 1
        log(f"server down ({signal.Signals(sig).name})")

    def log_lines(self):
        with open(self.log_path, errors="replace") as text:
            return text.readlines()

    def syncs(self):
        """Sync rounds that reached the server: profile reads answered 200."""
        return sum(1 for line in self.log_lines() if "GET /api/v1/users/me 200" in line)

    def entries(self):
        """Every entry on the server: {(type, unix second, value to 0.1): count}, and the profile's bio."""
        token = fitiqtools.login(self.url, self.api_key, EMAIL, PASSWORD)
        counts, offset = collections.Counter(), 0
        while True:
            page = fitiqtools.api(self.url, self.api_key, "GET",
                                  f"progress?from=1900-01-01&to=2100-12-31&limit=100&offset={offset}", token=token)
            for entry in page["entries"]:
                counts[reading(entry["type"], entry["date"], entry["quantity"])] += 1
            offset += len(page["entries"])
            if not page["entries"] or offset >= page["total"]:
                break
        return counts, find_key(fitiqtools.api(self.url, self.api_key, "GET", "users/me", token=token), "bio")


def reading(metric, date, value):
    at = datetime.datetime.fromisoformat(date.replace("Z", "+00:00")).timestamp()
    return metric, round(at), round(float(value), 1)


def find_key(value, key):
    """The first `key` in a JSON value, at any depth (the real server and the spec nest the profile differently)."""
    if isinstance(value, dict):
        if key in value:
            return value[key] or ""
        value = list(value.values())
    if isinstance(value, list):
        for item in value:
            found = find_key(item, key)
            if found is not None:
                return found
    return None


class Stuck(Exception):
    pass


class Editor:
    """fitiq-tui in a tmux pane of its own (a socket name used once), driven by keys, read by capture-pane."""

    def __init__(self, tui, env, work):
        self.socket = f"fitiq-soak-{os.getpid()}-{os.urandom(4).hex()}"
        config = os.path.join(work, "tmux.conf")
        with open(config, "w") as text:
            text.write("set -g status off\nset -g remain-on-exit on\nset -g history-limit 0\n")
        self.env = env
        self.status_path = os.path.join(work, "editor.status")
        width, height = SIZES[0]
        # A shell runs the editor and keeps its exit status (tmux does not always know it), renamed into
        # place whole: a file read between its creation and its write would say the editor ended with "".
        self.tmux("-f", config, "new-session", "-d", "-s", "soak", "-x", str(width), "-y", str(height),
                  "env", "TERM=xterm-256color", "/bin/sh", "-c", '"$0"; echo "$?" > "$1.new"; mv "$1.new" "$1"',
                  tui, self.status_path)
        shell = int(self.tmux("display-message", "-p", "-t", "soak", "#{pane_pid}").strip())
        deadline = time.monotonic() + UI_TIMEOUT
        while True:
            with open(f"/proc/{shell}/task/{shell}/children") as text:
                children = text.read().split()
            if children:
                self.pid = int(children[0])
                break
            if time.monotonic() > deadline:
                raise Stuck("the editor did not start")
            time.sleep(0.01)

    def exit_status(self):
        try:
            with open(self.status_path) as text:
                return text.read().strip()
        except FileNotFoundError:
            return None

    def tmux(self, *arguments):
        return subprocess.run(["tmux", "-L", self.socket, *arguments], env=self.env, check=True,
                              capture_output=True, text=True, timeout=30).stdout

    def screen(self):
        return self.tmux("capture-pane", "-p", "-t", "soak").split("\n")

    def alive(self):
        return self.exit_status() is None

    def keys(self, *keys):
        self.tmux("send-keys", "-t", "soak", *keys)

    def type(self, text):
        self.tmux("send-keys", "-t", "soak", "-l", text)

    def resize(self, width, height):
        self.tmux("resize-window", "-t", "soak", "-x", str(width), "-y", str(height))

    def until(self, what, predicate, timeout=UI_TIMEOUT, settled=False):
        """Polls the screen until `predicate(rows)` holds; raises Stuck with the screen otherwise. With
        `settled`, the rows must also be the same on the next poll: tmux may be read while it is still
        taking in a frame, and a message read then is the new one's start over the old one's end (an
        undo read as "Undid the body." counted the body fat it took back as lost)."""
        deadline = time.monotonic() + timeout
        last = None
        while True:
            rows = self.screen()
            if predicate(rows) and (not settled or rows == last):
                return rows
            last = rows
            if not self.alive():
                raise Stuck(f"the editor exited while waiting for {what}")
            if time.monotonic() > deadline:
                raise Stuck(f"no {what} within {timeout:.0f}s; the screen:\n" + "\n".join(rows))
            time.sleep(0.05)

    def stop(self):
        subprocess.run(["tmux", "-L", self.socket, "kill-server"], env=self.env, capture_output=True)
        # The socket's file outlives a server that was killed; the name is never used again.
        folder = os.environ.get("TMUX_TMPDIR", "/tmp") + f"/tmux-{os.getuid()}"
        try:
            os.unlink(os.path.join(folder, self.socket))
        except OSError:
            pass


# What an undo answers (a correction may answer the last too).
UNDO_ANSWERS = ("Undid ", "Nothing to undo.", "being sent to the server right now")


def footer(rows):
    return next((row for row in reversed(rows) if row.strip()), "")


def status_line(rows):
    filled = [row for row in rows if row.strip()]
    return filled[-2] if len(filled) >= 2 else ""


def on_profile(rows):
    return footer(rows).startswith(" Enter edit") and not any("─ Import" in row or "Quit" in row for row in rows)


FIELDS = ["Name", "Bio", "Unit system", "Language", "Height", "Weight", "Body fat", "BMI", "Date of birth",
          "Biological sex"]  # the rows focus visits, in order (the last three are read-only)


def focused(rows):
    for row in rows:
        match = re.search(r"›(" + "|".join(FIELDS) + ") ", row)
        if match:
            return match.group(1)
    return None


def field_row(rows, label):
    return next((row for row in rows if re.search(rf"[│›] ?{label} ", row)), "")


class User:
    """The scripted user: one action at a time, each waiting for the screen to show it was done."""

    def __init__(self, editor, work, rng, ledger):
        self.editor, self.work, self.rng, self.ledger = editor, work, rng, ledger
        self.counter = 0
        self.size = SIZES[0]

    def next_value(self, low, span):
        self.counter += 1
        return round(low + (self.counter % span) / 10, 1)

    def to_profile(self):
        for _ in range(8):
            rows = self.editor.screen()
            if on_profile(rows):
                return rows
            self.editor.keys("Escape")
            try:
                return self.editor.until("the profile", on_profile, timeout=1.5)
            except Stuck:
                continue
        return self.editor.until("the profile", on_profile)

    def focus(self, label):
        rows = self.to_profile()
        for _ in range(12):
            if focused(rows) == label:
                return
            before = focused(rows)
            # Tab from the last field enters the history list, so a field above is reached with Shift-Tab.
            ahead = before is None or FIELDS.index(label) > FIELDS.index(before)
            self.editor.keys("Tab" if ahead else "BTab")
            rows = self.editor.until(f"focus to leave {before}", lambda r: focused(r) != before or not on_profile(r))
            if not on_profile(rows):
                rows = self.to_profile()
        raise Stuck(f"could not focus {label}")

    def save_measurement(self, label, value, metric):
        self.focus(label)
        self.editor.keys("Enter", "C-u")
        self.editor.type(f"{value}")
        self.editor.keys("Enter")
        self.editor.until(f"the {label} draft", lambda r: f"{value} *" in field_row(r, label))
        self.editor.keys("C-s")
        self.editor.until(f"the {label} saved", lambda r: f"{label} saved." in status_line(r)
                          and "*" not in field_row(r, label))
        self.ledger.saved(metric, value)

    def weight(self):
        self.save_measurement("Weight", self.next_value(100.0, 500), "weight")

    def body_fat(self):
        self.save_measurement("Body fat", self.next_value(10.0, 300), "body_fat_percentage")

    def bio(self):
        self.counter += 1
        text = f"Soak bio {self.counter}"
        self.focus("Bio")
        self.editor.keys("Enter", "C-u")
        self.editor.type(text)
        self.editor.keys("Enter")
        self.editor.until("the bio draft", lambda r: text in field_row(r, "Bio"))
        self.editor.keys("C-s")
        self.editor.until("the profile saved", lambda r: "Profile saved." in status_line(r)
                          and "*" not in field_row(r, "Bio"))
        self.ledger.saves += 1

    def correct_height(self):
        value = self.next_value(160.0, 400)
        self.fresh_status()
        self.focus("Height")
        self.editor.keys("l")
        rows = self.editor.until("the height list", lambda r: "Height history (" in "".join(r)
                                 or "No height entries yet." in status_line(r))
        if "Height history (" not in "".join(rows):  # undo took every height away: set one in the form
            self.save_measurement("Height", value, "height")
            return
        self.editor.keys("e")
        self.editor.until("the correction box", lambda r: "Correct a height entry" in "".join(r))
        self.editor.keys("C-u")
        self.editor.type(f"{value}")
        # Its answer comes after the box closes; waited for, so that it is not taken for the answer of
        # what follows (an undo's "being sent …").
        before = status_line(self.editor.screen())
        self.editor.keys("Enter")
        self.editor.until("the correction's answer", lambda r: "Correct a height entry" not in "".join(r)
                          and status_line(r) != before)
        self.ledger.saves += 1
        self.to_profile()

    def progress(self):
        self.to_profile()
        self.editor.keys("p")
        self.editor.until("the progress screen", lambda r: re.search(r"─ (Weight|Body fat|Height|BMI) · ", r[1] if
                                                                      len(r) > 1 else "") is not None)
        for key in self.rng.sample(["Right", "Tab", "Left", "t"], 2):
            self.editor.keys(key)
        self.editor.keys("Escape")
        self.editor.until("the profile", on_profile)

    def fresh_status(self):
        """Makes the status line say something no undo or correction answers ("Syncing…", by `s`): an
        answer in the same words as the one on show ("being sent …" twice) would be taken for an answer
        while the change still runs, and an undo counted as refused could then take back a change the
        ledger keeps."""
        self.to_profile()
        if any(answer in status_line(self.editor.screen()) for answer in UNDO_ANSWERS):
            self.editor.keys("s")
            self.editor.until("the sync's message", lambda r: not any(answer in status_line(r)
                                                                      for answer in UNDO_ANSWERS))

    def undo(self):
        answers = UNDO_ANSWERS
        self.fresh_status()
        before = status_line(self.editor.screen())
        self.editor.keys("u")
        rows = self.editor.until("undo's answer", lambda r: any(answer in status_line(r) for answer in answers)
                                 and status_line(r) != before, settled=True)
        self.ledger.undone(status_line(rows))

    def import_csv(self):
        self.counter += 1
        number = self.ledger.imports
        path = os.path.join(self.work, f"import-{number}.csv")
        first = datetime.date(2010, 1, 1) + datetime.timedelta(days=3 * number)
        values = [round(40.0 + ((3 * number + day) % 200) / 10, 1) for day in range(3)]
        with open(path, "w") as text:
            text.write("date,weight\n")
            for day, value in enumerate(values):
                text.write(f"{first + datetime.timedelta(days=day)},{value}\n")
        self.to_profile()
        self.editor.keys("i")
        self.editor.until("the import box", lambda r: "─ Import health data" in "".join(r))
        self.editor.type(path)
        self.editor.keys("Enter")
        self.editor.until("what was found", lambda r: "Import: what was found" in "".join(r))
        self.editor.keys("Enter")
        self.editor.until("the import done", lambda r: "─ Health data imported" in "".join(r)
                          and "Press any key to close." in "".join(r))
        self.editor.keys("Escape")
        self.editor.until("the profile", on_profile)
        self.ledger.imports += 1
        for value in values:
            self.ledger.saved("weight", value, who="import")

    def resize(self):
        if self.rng.random() < 0.3:
            self.editor.resize(*TINY)
            self.editor.until("the small window", lambda r: len(r) <= TINY[1] + 1)
        self.size = self.rng.choice([size for size in SIZES if size != self.size])
        self.editor.resize(*self.size)
        self.editor.until("the resized window", lambda r: len(r) >= self.size[1] and on_profile(r)
                          or not on_profile(r))

    def sync(self):
        self.to_profile()
        self.editor.keys("s")


class Ledger:
    """What the soak saved and undid, from the editor and the command line (both threads write it)."""

    def __init__(self, journal_path):
        self.lock = threading.Lock()
        self.values = collections.Counter()  # (metric, value) saved minus undone
        self.saves, self.imports, self.undos = 0, 0, 0
        # Every save and undo with its time, to trace an entry counted as lost (kept with a failed run).
        self.journal = open(journal_path, "a", buffering=1)

    def note(self, text):
        self.journal.write(f"{time.strftime('%H:%M:%S')} {text}\n")

    def saved(self, metric, value, who="editor"):
        with self.lock:
            self.values[(metric, round(value, 1))] += 1
            self.saves += 1
            self.note(f"{who} saved {metric} {value}")

    def not_saved(self, metric, value):
        with self.lock:
            self.values[(metric, round(value, 1))] -= 1
            self.saves -= 1
            self.note(f"not saved after all: {metric} {value}")

    def undone(self, message):
        match = re.search(r"Undid the (weight|body fat) ([\d.]+) (?:kg|%) logged", message)
        with self.lock:
            self.note(f"undo: {message.strip()}")
            self.undos += 1
            if match:
                metric = "weight" if match.group(1) == "weight" else "body_fat_percentage"
                key = (metric, float(match.group(2)))
                if self.values[key] > 0:
                    self.values[key] -= 1


class SignIn:
    """Signs the user in again (`fitiq-tui login`) when the session has ended, once for both users.

    A refresh spends the single-use refresh token on the server (contract §5). When the server dies
    between that and its answer, the client keeps the spent token, and its next refresh is refused: the
    session ends, the changes stay on the machine, and a person signs in again. The soak does what they
    would and counts it; every change must still reach the server once."""

    def __init__(self, cli, server, work):
        self.cli, self.server = cli, server
        self.session_path = os.path.join(work, "user", "state")
        self.lock = threading.Lock()
        self.count = 0

    def ended(self):
        for folder, _, files in os.walk(self.session_path):
            if "session.json" in files:
                with open(os.path.join(folder, "session.json")) as text:
                    return "tokens" not in json.load(text).get("session", {})
        return False

    def again(self, who):
        with self.lock:
            if not self.ended():
                return
            refusals = [line.strip() for line in self.server.log_lines() if "auth/refresh 401" in line]
            log(f"signed out ({who} saw it); the server's last refused refresh: "
                f"{refusals[-1] if refusals else 'none logged'}")
            self.cli("login", "--server", self.server.url, "--email", EMAIL, stdin=PASSWORD + "\n")
            self.count += 1


def command_line_user(cli, ledger, rng, stopping, problems, sign_in):
    """The second process: `weight set` and `profile set --bio` every few seconds, until `stopping`.

    Exit status 3 after a write means it was saved on this machine and the session had ended: the
    change counts as saved, and the user signs in again.

    A weight is in the ledger before the command runs: `weight set` saves, then tries to send for up to
    15 s, and the editor's undo (one undo history for the account) may take the weight back meanwhile;
    counted after the command, that undo would find nothing to take off, and the weight would count as
    lost."""
    count = 0
    while not stopping.wait(rng.uniform(4, 12)):
        count += 1
        value = round(150.0 + (count % 500) / 10, 1)
        if count % 2:
            ledger.saved("weight", value, who="command line")
        try:
            try:
                if count % 2:
                    cli("weight", "set", f"{value}")
                else:
                    cli("profile", "set", "--bio", f"Command-line bio {count}")
            except RuntimeError as error:
                if "(exit 3)" not in str(error):
                    raise
                sign_in.again("the command line")
            if not count % 2:
                with ledger.lock:
                    ledger.saves += 1
        except (RuntimeError, subprocess.TimeoutExpired) as error:
            if count % 2:
                ledger.not_saved("weight", value)
            problems.append(f"command line: {error}")


TCP_STATES = {"01": "established", "06": "time-wait", "08": "close-wait", "0A": "listen"}


def sockets():
    """{inode: "tcp STATE :REMOTE-PORT"} for this machine's TCP sockets (what an open socket is)."""
    known = {}
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        with open(table) as text:
            for line in text.readlines()[1:]:
                fields = line.split()
                remote_port = int(fields[2].rsplit(":", 1)[1], 16)
                known[fields[9]] = f"tcp {TCP_STATES.get(fields[3], fields[3])} :{remote_port}"
    return known


def sample(pid):
    """RSS in MB, open files, threads, and what the files are."""
    with open(f"/proc/{pid}/status") as text:
        status = {line.split(":")[0]: line.split()[1] for line in text
                  if line.startswith(("VmRSS", "RssAnon", "RssFile"))}
    rss = int(status["VmRSS"]) / 1024
    fds = os.listdir(f"/proc/{pid}/fd")
    targets, tcp = collections.Counter(), sockets()
    for fd in fds:
        try:
            target = os.readlink(f"/proc/{pid}/fd/{fd}")
        except OSError:
            continue
        inode = re.fullmatch(r"socket:\[(\d+)\]", target)
        target = tcp.get(inode.group(1), "socket (not TCP)") if inode else target
        targets[re.sub(r"\[\d+\]|/tmp/fitiq-soak-[^/]+", "", target)] += 1
    pooled = sum(count for target, count in targets.items() if target.startswith("tcp established"))
    return (rss, len(fds) - pooled, len(os.listdir(f"/proc/{pid}/task")), dict(sorted(targets.items())), pooled,
            int(status["RssAnon"]) / 1024, int(status["RssFile"]) / 1024)


def signed_out(rows):
    return "signed out" in rows[0]


def quiet_sample(editor, user, sign_in):
    """A sample in the same state each time: the profile shown, a sync asked for and done with the server up,
    nothing pending, then a second with no keys."""
    for _ in range(3):
        user.to_profile()
        editor.keys("s")
        rows = editor.until("synced", lambda r: "● synced" in r[0] or signed_out(r), timeout=180)
        if not signed_out(rows):
            break
        sign_in.again("the editor")
    else:
        raise Stuck("the editor stayed signed out after signing in again")
    time.sleep(1)  # a second with nothing to do before sampling: part of the state measured, not a wait
    return sample(editor.pid)


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as text:
        fields = text.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def outages(minutes, rng, dense=False):
    """(start, seconds down) pairs, seconds from the start: the first after 75-180 s, then every 2.5-5.5
    minutes after the last came back (so two in any 15 minutes), down 30-90 s; shorter runs scale both.
    `dense` (--dense): down 15-40 s, up 15-40 s, to meet what an outage can do sooner (longer than the 15 s a
    command tries to send for, as the outages that lost changes were)."""
    if dense:
        plan, at = [], rng.uniform(20, 40)
        while at < minutes * 60 - 30:
            down = rng.uniform(15, 40)
            plan.append((at, down))
            at += down + rng.uniform(15, 40)
        return plan
    scale = min(1.0, minutes / 15)
    plan, at = [], rng.uniform(75, 180) * scale
    while at < minutes * 60 - 60 * scale:
        down = rng.uniform(30, 90) * scale
        plan.append((at, down))
        at += down + rng.uniform(150, 330) * scale
    return plan


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bin-dir", required=True)
    parser.add_argument("--minutes", type=float, default=float(os.environ.get("SOAK_MINUTES", "60")))
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--keep", action="store_true", help="keep the work folder (its path is printed)")
    parser.add_argument("--actions", help="only these of the user's actions, comma-separated (to find what grows)")
    parser.add_argument("--calm", action="store_true", help="no outages and no second process")
    parser.add_argument("--dense", action="store_true", help="outages of 15-40 s every 15-40 s (to meet a rare loss sooner)")
    args = parser.parse_args()
    if shutil.which("tmux") is None:
        raise SystemExit("error: tmux is needed (apt-get install tmux)")
    bin_dir, tui = fitiqtools.programs(args.bin_dir)
    seed = args.seed if args.seed is not None else random.randrange(1 << 30)
    rng = random.Random(seed)
    work = tempfile.mkdtemp(prefix="fitiq-soak-")
    log(f"soak: {args.minutes:g} minutes, seed {seed}, work folder {work}")

    server = Server(bin_dir, work, rng)
    editor, stopping, failures, passed = None, threading.Event(), [], False
    try:
        server.start()
        env = fitiqtools.user_env(os.path.join(work, "user"), FITIQ_API_KEY=server.api_key)
        cli = fitiqtools.client(tui, env)
        cli("register", "--server", server.url, "--email", EMAIL, "--name", "Soak", "--date-of-birth", "1990-01-01",
            stdin=PASSWORD + "\n")
        cli("height", "set", "175")
        cli("sync", "--wait")

        ledger, sign_in = Ledger(os.path.join(work, "actions.log")), SignIn(cli, server, work)
        editor = Editor(tui, env, work)
        editor.until("the first frame", on_profile)
        user = User(editor, work, rng, ledger)
        cli_thread = threading.Thread(target=command_line_user,
                                      args=(cli, ledger, random.Random(seed + 1), stopping, failures, sign_in),
                                      daemon=True)
        if not args.calm:
            cli_thread.start()

        plan = [] if args.calm else outages(args.minutes, rng, dense=args.dense)
        log("outages planned at " + ", ".join(f"{at / 60:.1f} min for {down:.0f} s" for at, down in plan))
        started = time.monotonic()
        first_sample, actions = None, collections.Counter()
        choices = [(user.weight, 4), (user.body_fat, 3), (user.bio, 2), (user.correct_height, 2), (user.progress, 2),
                   (user.undo, 2), (user.import_csv, 1), (user.resize, 1), (user.sync, 1)]
        if args.actions:
            choices = [choice for choice in choices if choice[0].__name__ in args.actions.split(",")]
        # The first minute does every action once before the random ones, so what is built once (the
        # progress screen's first read, an import's first parse) is in place before the first sample.
        warm_up = [choice[0] for choice in choices]
        back_at, logged_minute = None, 0
        while time.monotonic() - started < args.minutes * 60:
            elapsed = time.monotonic() - started
            if elapsed >= (logged_minute + 1) * 60:  # the trend, for the log only (not a quiet sample)
                logged_minute = int(elapsed // 60)
                now = sample(editor.pid)
                log(f"minute {logged_minute}: RSS {now[0]:.1f} MB ({now[5]:.1f} allocated), {now[1]} fds, "
                    f"{now[2]} threads, {ledger.saves} saves")
            if server.process is None and elapsed >= back_at:
                server.start(rng.choices(["normal", "slow", "flaky"], [0.5, 0.3, 0.2])[0])
            if server.process is not None and plan and elapsed >= plan[0][0]:
                at, down = plan.pop(0)
                server.kill()
                back_at = at + down
            if first_sample is None and elapsed >= min(60, args.minutes * 30) and server.process is not None:
                first_sample = quiet_sample(editor, user, sign_in)
                log("first sample: RSS {:.1f} MB, {} fds, {} threads".format(*first_sample[:3]))
            if signed_out(editor.screen()):
                sign_in.again("the editor")
            action = warm_up.pop(0) if warm_up else rng.choices([c[0] for c in choices], [c[1] for c in choices])[0]
            try:
                action()
                actions[action.__name__] += 1
            except Stuck as stuck:
                failures.append(f"{action.__name__}: {stuck}")
                log(f"{action.__name__}: {str(stuck).splitlines()[0]}")
                if not editor.alive() or len(failures) > 5:
                    break
            time.sleep(rng.uniform(1.0, 4.0))  # the user's pace, not a wait for the program

        stopping.set()
        if cli_thread.is_alive():
            cli_thread.join(timeout=300)
        if server.mode != "normal" or server.process is None:  # the end is measured on a well server
            fitiqtools.stop(server.process)
            server.start()
        log("actions: " + ", ".join(f"{name} {count}" for name, count in sorted(actions.items())))

        # Idle: nothing typed, server up, nothing pending (the title bar says synced).
        last_sample = quiet_sample(editor, user, sign_in)
        cpu_before = cpu_seconds(editor.pid)
        time.sleep(30)  # measuring idle CPU over 30 s: the wait is the measurement
        idle_ms = (cpu_seconds(editor.pid) - cpu_before) * 1000
        if last_sample[3] != first_sample[3]:
            log(f"open files after the first minute: {first_sample[3]}")
            log(f"open files at the end: {last_sample[3]}")
        print(f"RSS by kind: allocated (anonymous) {first_sample[5]:.1f} → {last_sample[5]:.1f} MB, the program's "
              f"files mapped (code paged in on first use) {first_sample[6]:.1f} → {last_sample[6]:.1f} MB")
        print(f"sign-ins after the server ended the session (a refresh answer lost with the server): "
              f"{sign_in.count}")
        print(f"connections to the server kept for reuse (libcurl's cache, not in fds below): "
              f"{first_sample[4]} → {last_sample[4]} (at most {MAX_POOLED})")

        user.to_profile()
        editor.keys("q")
        editor.until("the editor to quit", lambda r: not editor.alive() or "unsaved" in "".join(r) or
                            "not saved" in "".join(r))
        if editor.alive():
            editor.keys("s")
            editor.until("the editor to quit", lambda r: not editor.alive())
        status = editor.exit_status()
        if status != "0":
            failures.append(f"the editor's exit status: {status}")

        pending = 0
        try:
            cli("sync", "--wait")
        except RuntimeError as error:
            failures.append(f"final sync: {error}")
            pending = 1
        on_server, server_bio = server.entries()
        syncs = server.syncs()
        fitiqtools.stop(server.process)
        server.process = None
        exported = json.loads(cli("export", "--json").stdout)
        in_cache = collections.Counter(reading(row["metric"], row["logged_at"], row["value"]) for row in exported
                                       if row["metric"] in METRICS and row.get("source") != "goal")
        cache_bio = find_key(json.loads(cli("profile", "show", "--json").stdout), "bio")

        values_on_server = {(metric, value) for metric, _, value in on_server}
        values_in_cache = {(metric, value) for metric, _, value in in_cache}
        missing = [key for key, count in ledger.values.items()
                   if count > 0 and (key not in values_on_server or key not in values_in_cache)]
        lost = (len(missing) + sum((in_cache - on_server).values())
                + sum(count for key, count in on_server.items() if key not in in_cache)
                + (server_bio != cache_bio) + pending)
        duplicates = sum(count - in_cache[key] for key, count in on_server.items()
                         if key in in_cache and count > in_cache[key])
        for key in missing[:10]:
            log(f"lost: {key} saved but not on the server and in the cache")
        for key in list((in_cache - on_server).keys())[:10]:
            log(f"lost: {key} in the cache, not on the server")
        for key in [key for key in on_server if key not in in_cache][:10]:
            log(f"lost: {key} on the server, not in the cache (a removal not sent)")
        if server_bio != cache_bio:
            log(f"lost: the bio is {server_bio!r} on the server and {cache_bio!r} in the cache")
        for failure in failures:
            log(f"problem: {failure.splitlines()[0]}")
            print(failure, file=sys.stderr)

        first_sample = first_sample or last_sample
        rss_growth = last_sample[0] - first_sample[0]
        print(f"idle CPU of the editor: {idle_ms:.0f} ms over 30 s ({idle_ms / 300:.2f} % of a core), "
              f"server up, nothing pending")
        print(f"soak: {args.minutes:g} minutes, {ledger.saves} saves, {syncs} syncs, server down {server.downs} "
              f"times; RSS {first_sample[0]:.1f} → {last_sample[0]:.1f} MB; fds {first_sample[1]} → {last_sample[1]}; "
              f"threads {first_sample[2]} → {last_sample[2]}; lost {lost}; duplicates {duplicates}")
        ok = (lost == 0 and duplicates == 0 and rss_growth <= 2.0 and last_sample[1] <= first_sample[1]
              and last_sample[4] <= MAX_POOLED
              and last_sample[2] <= first_sample[2] and not failures)
        passed = ok
        return 0 if ok else 1
    finally:
        stopping.set()
        if editor is not None:
            editor.stop()
        if server.process is not None:
            fitiqtools.stop(server.process)
        if args.keep or not passed:  # a failed run keeps its logs (the server's, the editor's exit status)
            print(f"work folder kept: {work}", file=sys.stderr)
        else:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    try:
        sys.exit(main())
    except Stuck as stuck:  # the end could not be measured: the editor stopped answering or was signed out
        print(f"soak: failed: {stuck}", file=sys.stderr)
        sys.exit(1)
