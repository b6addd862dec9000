#!/usr/bin/env python3
"""Random mutations of real input, black-box (part of `make badinput`). Exits 1 when a mutant fails.

Two tables, against the real `fitiq-tui` and `fitiq-dev-server`, each from a fixed seed (printed):

  - cache files: mutants of a real `account.json` (written by the program: signed in, a history of
    120 heights synced, then edits and heights queued while the server answers 503), of the test
    fixture `account-v1.json` in its place, and of one month segment of the history
    (`history/height-YYYY-MM.N.json`). Each mutant is read by `status --json`, then, when it was read,
    by `height history --json`. The program must not die by a signal, keep the mutant's bytes
    (the file untouched, or moved aside to the name its message gives), name the file when it
    fails, and print no escape byte;
  - server answers: a proxy in front of the development server (both response shapes) mutates
    answers while a signed-in account with queued edits and heights runs `sync` (access tokens
    last 3 s, so refreshes are mutated too; a mutated refresh may sign it out: it signs in again
    and goes on, its queued changes kept). The program must not die by a signal nor print an
    escape byte, `status --json` must read the cache after every run (no cache file moved aside),
    and a final sync through an honest proxy must leave every queued value on the server.

Mutation kinds: bit flips, byte inserts and deletes, truncation, swapped JSON types, deep nesting,
huge numbers, duplicate keys, invalid UTF-8, dates at and past the calendar's ends, a mix of
them; for answers also status codes, wrong Content-Length or Content-Type, cut bodies and escape
sequences in strings.

A height the server ends up holding twice is counted, not failed: the client checks before sending
a height again, and a mutated answer to that check can hide the entry the server holds.

Usage: mutate.py --bin-dir DIR [--seed N] [--mutations N] [--only cache|server]
Reproduce a failure with the seed printed (each mutant's index, each sync's run, is in its row).
Mutants of the fixture repeat exactly; those of the written file and the server's answers repeat
up to the ids and times the program and the server choose.
Only the Python standard library is used.
"""

import argparse
import concurrent.futures
import copy
import datetime
import http.client
import http.server
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import fitiqtools  # noqa: E402

REPOSITORY = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
FIXTURE = os.path.join(REPOSITORY, "Tests", "FitIQCacheTests", "Fixtures", "account-v1.json")
PASSWORD = "mutant-password-123"
DEFAULT_SEED = 20260101
ESCAPES = (b"\x1b", "\u009b".encode())  # ESC, and CSI as a C1 character

# ---------------------------------------------------------------------------------------------
# Mutations. Each takes a random.Random and bytes, and returns new bytes.

SENTINEL = "@@mutant-9f1c@@"
# Numbers no Double or Int64 holds, and text that is no JSON number.
HUGE_NUMBERS = ["1e400", "-1e400", "123456789012345678901", "-98765432109876543210", "-0", "-0.0", "NaN",
                "Infinity", "-Infinity", "1" + "0" * 400, "9223372036854775808", "-9223372036854775809",
                "18446744073709551616", "4.9e-325", "1.7976931348623157e309", "0x10", "1e", "01", "+1", ".5"]
# Valid numbers at the ends of Double and Int64: they decode, then must be used safely.
EXTREME_NUMBERS = ["1e308", "-1.7976931348623157e308", "5e-324", "9223372036854775807", "-9223372036854775808",
                   "1e19", "-1e19", "1e15", "-62135596800"]
BAD_UTF8 = [b"\xff", b"\xfe\xff", b"\xc3", b"\xc0\xaf", b"\xed\xa0\x80", b"\xf4\x90\x80\x80", b"\xe2\x82",
            b"\x80\x80", b"\xf0\x9f\x98"]
# Dates at and past the ends of the calendar, and dates that do not exist.
ODD_DATES = ["0001-01-01T00:00:00Z", "0000-01-01T00:00:00Z", "9999-12-31T23:59:59.999Z", "99999-01-01T00:00:00Z",
             "+275760-09-13T00:00:00Z", "-0001-01-01T00:00:00Z", "2026-02-30T00:00:00Z", "2026-01-01T24:00:00Z",
             "2026-01-01T00:00:00+14:00", "1969-12-31T23:59:59.999999999Z", "0001-01-01", "9999-12-31", "2026-00-00"]
HOSTILE_TEXT = ["\x1b]0;pwned\x07", "\x1b[2J\x1b[H", "\x1b[31mred", "\u009b2J", "\x07\x08\x7f", "a\x00b",
                "\u202eevil", "\x1bP+q\x1b\\"]


def loads(data):
    try:
        return json.loads(data)
    except (ValueError, RecursionError):
        return None


def paths(node, prefix=()):
    """Every path in a JSON document, the root first."""
    found = [prefix]
    if isinstance(node, dict):
        for key, value in node.items():
            found += paths(value, prefix + (key,))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            found += paths(value, prefix + (index,))
    return found


def at(node, path):
    for step in path:
        node = node[step]
    return node


def replaced(doc, path, raw):
    """The document as JSON text with the value at `path` replaced by the raw text `raw`."""
    if not path:
        return raw.encode() if isinstance(raw, str) else raw
    doc = copy.deepcopy(doc)
    at(doc, path[:-1])[path[-1]] = SENTINEL
    text = json.dumps(doc, indent=2).encode()
    return text.replace(json.dumps(SENTINEL).encode(), raw.encode() if isinstance(raw, str) else raw, 1)


def pick_path(rng, doc, want=None):
    """A random path, preferring values of type `want` when there are any."""
    every = paths(doc)
    if want:
        chosen = [path for path in every if isinstance(at(doc, path), want) and not isinstance(at(doc, path), bool)]
        if chosen and rng.random() < 0.8:
            return rng.choice(chosen)
    return rng.choice(every[1:] or every)


def bit_flip(rng, data):
    data = bytearray(data or b"{}")
    for _ in range(rng.randint(1, 8)):
        data[rng.randrange(len(data))] ^= 1 << rng.randrange(8)
    return bytes(data)


def byte_insert(rng, data):
    where = rng.randint(0, len(data))
    pool = [bytes([rng.randrange(256)]), b'"', b"{", b"[", b"]", b"}", b",", b":", b"\\", b"\x00", b"-", b"9"]
    return data[:where] + b"".join(rng.choice(pool) for _ in range(rng.randint(1, 8))) + data[where:]


def byte_delete(rng, data):
    if not data:
        return b""
    where = rng.randrange(len(data))
    return data[:where] + data[where + rng.randint(1, 16):]


def truncate(rng, data):
    return data[:rng.randrange(len(data))] if data else b""


def type_swap(rng, data):
    doc = loads(data)
    if doc is None:
        return byte_insert(rng, data)
    path = pick_path(rng, doc)
    old = at(doc, path)
    choices = ["\"text\"", "\"\"", "0", "-1", "2.5", "null", "true", "[]", "{}", "[1, \"a\"]", "{\"x\": 1}"]
    raw = rng.choice([c for c in choices if loads(c) != old] + [json.dumps([old]), json.dumps({"value": old})])
    return replaced(doc, path, raw)


def deep_nesting(rng, data):
    depth = rng.choice([100, 600, 10_000, 100_000])
    opener, closer = rng.choice([("[", "]"), ('{"a":', "}")])
    raw = opener * depth + ("1" if opener != "[" else "") + closer * depth * rng.choice([1, 1, 0])
    doc = loads(data)
    return replaced(doc, pick_path(rng, doc) if doc is not None and rng.random() < 0.8 else (), raw)


def huge_number(rng, data):
    doc = loads(data)
    if doc is None:
        return data + rng.choice(HUGE_NUMBERS).encode()
    return replaced(doc, pick_path(rng, doc, (int, float)), rng.choice(rng.choice([HUGE_NUMBERS, EXTREME_NUMBERS])))


def duplicate_key(rng, data):
    doc = loads(data)
    objects = [path for path in paths(doc) if isinstance(at(doc, path), dict) and at(doc, path)] if doc else []
    if not objects:
        return byte_insert(rng, data)
    path = rng.choice(objects)
    doc = copy.deepcopy(doc)
    target = at(doc, path)
    key = rng.choice(list(target))
    target[SENTINEL] = rng.choice([None, 2, "other", [], {}, target[key]])
    return json.dumps(doc, indent=2).encode().replace(json.dumps(SENTINEL).encode(), json.dumps(key).encode())


def invalid_utf8(rng, data):
    quotes = [index for index, byte in enumerate(data) if byte == ord('"')]
    where = rng.choice(quotes) + 1 if quotes and rng.random() < 0.8 else rng.randint(0, len(data))
    return data[:where] + rng.choice(BAD_UTF8) + data[where:]


def escape_strings(rng, data):
    """Control bytes and terminal escape sequences in string values, JSON-escaped or raw."""
    doc = loads(data)
    strings = [path for path in paths(doc) if isinstance(at(doc, path), str)] if doc is not None else []
    if not strings:
        return data + rng.choice(HOSTILE_TEXT).encode()
    path = rng.choice(strings)
    text = at(doc, path) + rng.choice(HOSTILE_TEXT)
    raw = json.dumps(text) if rng.random() < 0.7 else '"' + text.replace('"', "") + '"'
    return replaced(doc, path, raw)


def odd_date(rng, data):
    """A date string (`1990-01-01`, `2026-09-04T12:00:00Z`) replaced by one at or past the calendar's ends."""
    doc = loads(data)
    dates = [path for path in paths(doc) if isinstance(at(doc, path), str) and len(at(doc, path)) >= 10
             and at(doc, path)[4] == "-" and at(doc, path)[:4].isdigit()] if doc is not None else []
    if not dates:
        return huge_number(rng, data)
    return replaced(doc, rng.choice(dates), json.dumps(rng.choice(ODD_DATES)))


BODY_KINDS = {"bit flip": bit_flip, "byte insert": byte_insert, "byte delete": byte_delete, "truncation": truncate,
              "type swap": type_swap, "deep nesting": deep_nesting, "huge number": huge_number,
              "duplicate key": duplicate_key, "invalid UTF-8": invalid_utf8, "odd date": odd_date}


def mix(rng, data, kinds):
    for name in rng.sample(sorted(kinds), rng.randint(2, 3)):
        data = kinds[name](rng, data)
    return data


def mutate(rng, data, kinds):
    """(kind, mutant) with a kind drawn from `kinds` or "mix"; a mutant equal to the input is drawn again."""
    names = sorted(kinds) + ["mix"]
    for _ in range(20):
        kind = rng.choice(names)
        try:
            mutant = mix(rng, data, kinds) if kind == "mix" else kinds[kind](rng, data)
        except RecursionError:  # a mix nested the document too deep to walk: draw again
            continue
        if mutant != data:
            return kind, mutant
    return "truncation", data[:-1]


# ---------------------------------------------------------------------------------------------
# A proxy in front of the development server: it forwards every request, and while a run is
# mutating it replaces each answer, with a given probability, by a mutant.


class MutatingProxy(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "fitiq-mutating-proxy"

    def log_message(self, *args):
        pass

    def forward(self):
        state = self.server.state
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else None
        if state["mode"] == "down":
            return self.reply(503, [("Content-Type", "application/json")], b'{"error":{"message":"down"}}')
        connection = http.client.HTTPConnection(state["upstream"], timeout=30)
        try:
            headers = {name: value for name, value in self.headers.items()
                       if name.lower() not in ("host", "content-length", "connection")}
            connection.request(self.command, self.path, body=body, headers=headers)
            answer = connection.getresponse()
            status, payload = answer.status, answer.read()
            kept = [(name, value) for name, value in answer.getheaders()
                    if name.lower() not in ("content-length", "connection", "transfer-encoding", "date", "server")]
        finally:
            connection.close()
        with state["lock"]:
            rng = state["rng"]
            if state["mode"] != "mutate" or rng.random() >= state["probability"]:
                return self.reply(status, kept, payload)
            kind, status, kept, payload, length = self.mutant(rng, status, kept, payload)
            state["mutated"].append((kind, f"{self.command} {self.path.split('?')[0]}"))
        self.reply(status, kept, payload, length)

    @staticmethod
    def mutant(rng, status, headers, payload):
        """(kind, status, headers, body, Content-Length or None for the body's own)."""
        kinds = dict(BODY_KINDS, **{"escape sequences": escape_strings})
        http_kinds = ["status code", "Content-Length", "Content-Type", "cut body"]
        kind = rng.choice(sorted(kinds) + ["mix"] + http_kinds)
        length = None
        try:
            body = mix(rng, payload or b"{}", kinds) if kind == "mix" else None
        except RecursionError:  # nested too deep to walk: cut it instead
            kind, body = "truncation", truncate(rng, payload)
        if kind == "status code":
            status = rng.choice([200, 201, 204, 301, 400, 401, 403, 404, 409, 410, 422, 429, 500, 502, 503, 599])
        elif kind == "Content-Length":
            length = rng.choice([0, max(0, len(payload) - rng.randint(1, 20)), len(payload) + rng.randint(1, 4096),
                                 -1, "abc", 1 << 40])
        elif kind == "Content-Type":
            value = rng.choice([None, "text/html", "application/octet-stream", "application/json; charset=latin1",
                                "\x1b[2J"])
            headers = [h for h in headers if h[0].lower() != "content-type"] + ([("Content-Type", value)] if value
                                                                               else [])
        elif kind == "cut body":
            length, payload = len(payload), payload[:rng.randrange(len(payload))] if payload else b""
        elif body is not None:
            status, payload = (rng.choice([status, status, 200, 500]) if kind == "mix" else status), body
        else:
            payload = kinds[kind](rng, payload or b"{}")
        return kind, status, headers, payload, length

    def reply(self, status, headers, payload, length=None):
        """Writes the answer by hand (any status, any Content-Length) and closes the connection."""
        self.close_connection = True
        lines = [f"HTTP/1.1 {status} Mutated".encode()]
        lines += [f"{name}: {value}".encode("utf-8", "replace") for name, value in headers]
        lines.append(f"Content-Length: {len(payload) if length is None else length}".encode())
        lines.append(b"Connection: close")
        try:
            self.wfile.write(b"\r\n".join(lines) + b"\r\n\r\n" + payload)
            self.wfile.flush()
        except OSError:
            pass  # the client gave up first

    do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = forward


class ProxyServer(http.server.ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, upstream):
        super().__init__(("127.0.0.1", 0), MutatingProxy)
        self.state = {"upstream": upstream.split("//", 1)[1], "mode": "pass", "rng": random.Random(0),
                      "probability": 0.0, "mutated": [], "lock": threading.Lock()}
        self.url = f"http://127.0.0.1:{self.server_port}"
        threading.Thread(target=self.serve_forever, daemon=True).start()

    def handle_error(self, request, client_address):
        pass  # a client hanging up on a mutant is expected

    def mutating(self, rng, probability):
        self.state.update(mode="mutate", rng=rng, probability=probability, mutated=[])

    def honest(self):
        self.state["mode"] = "pass"
        return list(self.state["mutated"])


class World:
    """A development server of one response shape, a proxy in front of it, and one signed-in account."""

    def __init__(self, bin_dir, work, name, shape="real", *flags):
        self.tui = os.path.join(bin_dir, "fitiq-tui")
        self.work = work
        self.api_key = "mutant-" + os.urandom(8).hex()
        self.email = f"{name}@example.com"
        self.home = os.path.join(work, name)
        self.env = fitiqtools.user_env(self.home, FITIQ_API_KEY=self.api_key)
        self.server, self.upstream = fitiqtools.start_server(
            bin_dir, dict(self.env, FITIQ_DEV_API_KEY=self.api_key), "--log-level", "error", "--bcrypt-cost", "4",
            "--response-shape", shape, *flags)
        self.proxy = ProxyServer(self.upstream)

    def close(self):
        self.proxy.shutdown()
        self.proxy.server_close()
        fitiqtools.stop(self.server)

    def cli(self, *arguments, env=None, timeout=60):
        return subprocess.run([self.tui, *arguments], input=PASSWORD.encode() + b"\n", env=env or self.env,
                              capture_output=True, timeout=timeout)

    def must(self, *arguments):
        result = self.cli(*arguments)
        if result.returncode != 0:
            raise RuntimeError(f"fitiq-tui {' '.join(arguments)} failed: {result.stderr.decode(errors='replace')}")
        return result

    def register(self):
        self.must("register", "--server", self.proxy.url, "--email", self.email, "--name", "Mutant",
                  "--date-of-birth", "1990-01-01")

    def server_holds(self):
        """(name, bio, heights) the server holds for the account, read straight from it."""
        token = fitiqtools.login(self.upstream, self.api_key, self.email, PASSWORD)
        me = fitiqtools.api(self.upstream, self.api_key, "GET", "users/me", token=token)
        profile = me.get("profile", me) if isinstance(me, dict) else {}
        return profile.get("name"), profile.get("bio"), fitiqtools.server_heights(self.upstream, self.api_key, token)


def has_escape(data):
    return any(escape in data for escape in ESCAPES)


def said(result, limit=100):
    lines = [line for line in (result.stderr + result.stdout).decode("utf-8", "replace").splitlines() if line.strip()]
    return (lines or [""])[0][:limit]


# ---------------------------------------------------------------------------------------------
# Table 1: the account cache file.


def cache_base(bin_dir, work):
    """A signed-in home whose cache the program wrote: account.json with queued changes, and a
    synced history long enough to be kept in month segments.
    Returns (world, path of account.json relative to home, path of one segment relative to home)."""
    world = World(bin_dir, work, "cache-base")
    world.register()
    # A history of 120 entries another device logged over four months: the first sync writes segments.
    token = fitiqtools.login(world.upstream, world.api_key, world.email, PASSWORD)
    start = datetime.datetime(2025, 9, 1, 7, 30, tzinfo=datetime.timezone.utc)
    for day in range(120):
        logged = (start + datetime.timedelta(days=day)).isoformat().replace("+00:00", "Z")
        fitiqtools.api(world.upstream, world.api_key, "POST", "progress",
                       {"type": "height", "quantity": 170 + day % 10 / 10, "logged_at": logged}, token=token)
    world.must("sync", "--wait")
    world.must("height", "set", "180 cm")
    world.must("height", "set", "179.5 cm", "--date", "2026-01-10")
    world.must("profile", "set", "--bio", "Synced bio", "--language", "en")
    world.must("goal", "set", "weight", "75", "--by", "2030-06-01")
    world.must("goal", "set", "body-fat", "20")
    world.proxy.state["mode"] = "down"  # the server answers 503: what follows stays queued
    world.must("profile", "set", "--name", "Queued Name", "--bio", "Queued bio", "--no-sync")
    world.must("height", "set", "182.5 cm", "--date", "2026-02-01", "--no-sync")
    world.must("height", "set", "183 cm", "--no-sync")
    world.cli("sync", "--wait", "--timeout", "0.5")  # attempts and errors recorded in the outbox
    found = [os.path.join(root, name) for root, _, names in os.walk(world.home) for name in names
             if name == "account.json"]
    if len(found) != 1:
        raise RuntimeError(f"expected one account.json under {world.home}, found {found}")
    history = os.path.join(os.path.dirname(found[0]), "history")
    segments = sorted(name for name in os.listdir(history) if name.startswith("height-")) \
        if os.path.isdir(history) else []
    if not segments:
        raise RuntimeError(f"expected history segments in {history}")
    return world, os.path.relpath(found[0], world.home), os.path.relpath(os.path.join(history, segments[0]), world.home)


def check_mutant(world, base_home, relative, index, kind, mutant, work):
    """Runs the program on one mutant in a copy of the base home; returns (ok, detail)."""
    home = os.path.join(work, f"mutant-{index}")
    shutil.copytree(base_home, home)
    try:
        path = os.path.join(home, relative)
        folder = os.path.dirname(path)
        with open(path, "wb") as f:
            f.write(mutant)
        env = dict(world.env, **fitiqtools.user_env(home))
        for arguments in (["status", "--json"], ["height", "history", "--json"], ["goal", "show", "--json"]):
            try:
                result = world.cli(*arguments, env=env, timeout=30)
            except subprocess.TimeoutExpired:
                return False, f"{arguments[0]}: no exit within 30 s"
            output = result.stdout + result.stderr
            text = output.decode("utf-8", "replace")
            if result.returncode < 0:
                return False, f"{arguments[0]}: killed by signal {-result.returncode}: {said(result)}"
            if has_escape(output):
                return False, f"{arguments[0]}: an escape byte in the output"
            name = os.path.basename(path)
            asides = sorted(entry for entry in os.listdir(folder) if entry.startswith(name + ".corrupt-"))
            kept = os.path.exists(path) and open(path, "rb").read() == mutant
            if asides:
                with open(os.path.join(folder, asides[0]), "rb") as f:
                    moved = f.read()
                if moved != mutant:
                    return False, f"{arguments[0]}: moved aside, but {asides[0]} holds other bytes"
                if asides[0] not in text:
                    return False, f"{arguments[0]}: moved aside to {asides[0]}, not named: {said(result)}"
                return True, "moved aside, named"
            if not kept:
                return False, f"{arguments[0]}: {name} changed or gone, no copy kept: {said(result)}"
            if result.returncode != 0:
                ok = name in text
                return ok, f"{arguments[0]} exit {result.returncode}, file kept" + ("" if ok else f": {said(result)}")
            try:
                json.loads(result.stdout)
            except ValueError:
                return False, f"{arguments[0]}: exit 0 but its output is not JSON"
        return True, "read, file kept"
    finally:
        shutil.rmtree(home, ignore_errors=True)


def cache_table(bin_dir, work, seed, count):
    world, account, segment = cache_base(bin_dir, work)
    try:
        def read(relative):
            with open(os.path.join(world.home, relative), "rb") as f:
                return f.read()
        with open(FIXTURE, "rb") as f:
            fixture = f.read()
        # Every cache file: account.json as the program wrote it, the released version 1 file in its
        # place, a month segment of the history, and the goals.
        goals = os.path.join(os.path.dirname(account), "goals.json")
        bases = [("account.json written by the program", account, read(account)),
                 ("fixture account-v1.json", account, fixture),
                 ("history segment " + os.path.basename(segment), segment, read(segment)),
                 ("goals.json written by the program", goals, read(goals))]
        rng = random.Random(seed)
        mutants = []
        for index in range(count):
            base_name, relative, data = bases[index % len(bases)]
            kind, mutant = mutate(rng, data, BODY_KINDS)
            mutants.append((index, kind, base_name, relative, mutant))
        with concurrent.futures.ThreadPoolExecutor(2) as pool:
            outcomes = list(pool.map(lambda m: check_mutant(world, world.home, m[3], m[0], m[1], m[4], work),
                                     mutants))
        return [(kind, ok, f"mutant {index} ({base_name}): {detail}")
                for (index, kind, base_name, _, _), (ok, detail) in zip(mutants, outcomes)]
    finally:
        world.close()


# ---------------------------------------------------------------------------------------------
# Table 2: the server's answers.


def server_runs(bin_dir, work, seed, shape, count):
    """Mutated syncs against one response shape until `count` answers were mutated; returns
    (rows, runs, summary, ok of the final check)."""
    # Access tokens last 3 s, so that syncs refresh them too (through the proxy, mutated as well).
    world = World(bin_dir, work, f"server-{shape}", shape, "--access-token-ttl", "3")
    rows, queued_heights, name, bio, run = [], set(), None, None, 0
    signed_out, moved_aside = 0, set()
    try:
        world.register()
        mutated = 0
        today = datetime.date.today()
        while mutated < count:
            run += 1
            rng = random.Random(f"{seed}:{shape}:{run}")
            failure = None
            if run % 2 == 1:  # two new queued edits every other run; the cache they start from was mutated
                height = round(100 + run / 10, 1)
                day = today - datetime.timedelta(days=run % 365)
                edited = world.cli("profile", "set", "--name", f"Name {run}", "--bio", f"Bio {run}", "--no-sync")
                # Every other height is the current one (sent by PATCH /users/me/physical too).
                when = [] if run % 4 == 1 else ["--date", day.isoformat()]
                logged = world.cli("height", "set", f"{height} cm", *when, "--no-sync")
                if edited.returncode == 0:
                    name, bio = f"Name {run}", f"Bio {run}"
                if logged.returncode == 0:
                    queued_heights.add(height)
                if edited.returncode or logged.returncode:
                    failure = f"an edit failed: {said(edited if edited.returncode else logged)}"
            # Fewer mutants per run let more requests through to the later steps of a sync.
            world.proxy.mutating(rng, rng.choice([0.25, 0.5, 0.75]))
            try:
                result = world.cli("sync", "--wait", "--timeout", "1", timeout=60)
            except subprocess.TimeoutExpired:
                result = None
            finally:
                answers = world.proxy.honest()
            mutated += len(answers)
            if result is None:
                failure = "sync did not exit within 60 s"
            elif result.returncode < 0:
                failure = f"sync killed by signal {-result.returncode}: {said(result)}"
            elif has_escape(result.stdout + result.stderr):
                failure = "an escape byte in sync's output"
            status = world.cli("status", "--json")
            try:
                signed_in = json.loads(status.stdout)["signedIn"] if status.returncode == 0 else None
            except (ValueError, KeyError):
                signed_in = None
            if failure is None and signed_in is None:
                failure = f"status --json failed afterwards (exit {status.returncode}): {said(status)}"
            damaged = {name for _, _, names in os.walk(world.home) for name in names if ".corrupt-" in name}
            if failure is None and damaged - moved_aside:  # what the program wrote from an answer, it must read
                failure = f"a cache file was moved aside after the sync: {min(damaged - moved_aside)} ({said(result)})"
            moved_aside |= damaged
            if signed_in is False:  # a mutated 401 signs the account out: sign in again, keep going
                signed_out += 1
                world.must("login", "--email", world.email)
            where = f"{shape} run {run} ({', '.join(f'{k}: {p}' for k, p in answers) or 'no answer mutated'})"
            for kind, _ in answers:
                rows.append((kind, failure is None, f"{where}: {failure or 'ok'}"))
            if not answers and failure:
                rows.append(("no answer mutated", False, f"{where}: {failure}"))
        # The verdict: an honest sync delivers everything queued.
        final = world.cli("sync", "--wait", "--timeout", "60", timeout=120)
        if final.returncode == 3:  # the last mutated refresh ended the session: sign in again, nothing lost
            signed_out += 1
            world.must("login", "--email", world.email)
            final = world.cli("sync", "--wait", "--timeout", "60", timeout=120)
        status = json.loads(world.cli("status", "--json").stdout or "{}")
        for conflict in status.get("conflicts", []):  # made up by a mutated read: keep this machine's value
            world.cli("resolve", conflict["field"], "--keep-local")
        if status.get("rejected") or status.get("conflicts"):
            final = world.cli("sync", "--wait", "--timeout", "60", "--retry-rejected", timeout=120)
        on_name, on_bio, on_heights = world.server_holds()
        lost = sorted(queued_heights - set(on_heights))
        duplicates = sorted({height for height in on_heights if on_heights.count(height) > 1})
        problems = []
        if final.returncode != 0:
            problems.append(f"final sync exit {final.returncode}: {said(final)}")
        if (on_name, on_bio) != (name, bio):
            problems.append(f"server holds name {on_name!r}, bio {on_bio!r}; queued {name!r}, {bio!r}")
        if lost:
            problems.append(f"{len(lost)} queued heights not on the server: {lost[:10]}")
        # A duplicate is no failure: a mutated answer to the check made before sending a height again
        # (does the server hold it already?) can hide the entry the server holds.
        summary = (f"{shape}: {run} syncs, {len(queued_heights)} heights queued, {len(on_heights)} on the server "
                   f"({len(on_heights) - len(set(on_heights))} twice: queued in runs "
                   f"{[round((height - 100) * 10) for height in duplicates]}), signed in again {signed_out} times "
                   f"after a mutated answer; "
                   + ("; ".join(problems) if problems else "every queued value on the server"))
        return rows, run, summary, not problems
    finally:
        world.close()


def server_table(bin_dir, work, seed, count):
    shapes = ["real", "spec"]
    counts = [count - count // 2, count // 2]
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        results = list(pool.map(lambda pair: server_runs(bin_dir, work, seed, *pair), zip(shapes, counts)))
    rows = [row for result in results for row in result[0]]
    finals = [(result[2], result[3]) for result in results]
    return rows, finals


# ---------------------------------------------------------------------------------------------


def print_table(title, rows, seconds):
    """A tally by kind, then every failure; returns the number of failures."""
    kinds = sorted({kind for kind, _, _ in rows})
    print(f"\n{title} ({len(rows)} mutants, {seconds:.0f} s)\n")
    print(f"| {'mutation':<18} | count | ok    | failures |")
    print(f"|{'-' * 20}|-------|-------|----------|")
    for kind in kinds:
        mine = [ok for k, ok, _ in rows if k == kind]
        print(f"| {kind:<18} | {len(mine):>5} | {sum(mine):>5} | {len(mine) - sum(mine):>8} |")
    failures = [(kind, detail) for kind, ok, detail in rows if not ok]
    for kind, detail in failures[:50]:
        print(f"  FAIL {kind}: {detail}")
    if len(failures) > 50:
        print(f"  … and {len(failures) - 50} more failures")
    return len(failures)


def run(bin_dir, seed, count, only=None):
    """Both tables; returns the number of failures."""
    work = tempfile.mkdtemp(prefix="fitiq-mutate-")
    failed = 0
    try:
        print(f"\nRandom mutations: seed {seed} (reproduce with --seed {seed} --mutations {count})")
        if only in (None, "cache"):
            started = time.perf_counter()
            rows = cache_table(bin_dir, work, seed, count)
            failed += print_table("Cache files (account.json, a history segment, goals.json), mutated", rows,
                                  time.perf_counter() - started)
        if only in (None, "server"):
            started = time.perf_counter()
            rows, finals = server_table(bin_dir, work, seed, count)
            failed += print_table("Server answers, mutated by a proxy (both response shapes)", rows,
                                  time.perf_counter() - started)
            for summary, ok in finals:
                print(f"  {'ok' if ok else 'FAIL'} final sync, {summary}")
                failed += not ok
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return failed


def main():
    parser = argparse.ArgumentParser(description="Random mutations of the cache file and of server answers.")
    parser.add_argument("--bin-dir", required=True)
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    parser.add_argument("--mutations", type=int, default=1000, help="mutants per table")
    parser.add_argument("--only", choices=["cache", "server"])
    args = parser.parse_args()
    failed = run(os.path.abspath(args.bin_dir), args.seed, args.mutations, args.only)
    print(f"\n{failed} mutant{'s' if failed != 1 else ''} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
