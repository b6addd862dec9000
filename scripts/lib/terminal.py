"""Driving a program in a pseudo-terminal, as the benchmarks do: start it at a fixed size, read what it
draws (`Screen` follows the escape sequences as a terminal would), type keys and time the echo, stop it.
Shared by scripts/bench/startup.py, keystroke.py and scale.py. Only the Python standard library is used.
"""

import fcntl
import math
import os
import re
import select
import signal
import struct
import termios
import time
import unicodedata

COLS, ROWS = 100, 30
FIRST_FRAME_TIMEOUT = 20.0
QUIT_TIMEOUT = 5.0
ESCAPES = re.compile(rb"\x1b(\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(\x07|\x1b\\)|[()][0-9A-Za-z]|[=>78MDEc])")
LETTERS = "abcdefghijklmnopqrstuvwxyz"


class Program:
    def __init__(self, label, argv, env, marker, quit_keys, cwd=None):
        self.label, self.argv, self.env = label, argv, dict(env)
        self.marker, self.quit_keys, self.cwd = marker.encode(), quit_keys, cwd
        self.samples = []
        self.quit_times = []
        self.forced = 0


def set_window_size(fd):
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", ROWS, COLS, 0, 0))


def read_some(master, timeout):
    ready, _, _ = select.select([master], [], [], timeout)
    if not ready:
        return b""
    try:
        data = os.read(master, 65536)
    except OSError:  # EIO: every slave descriptor is closed
        return None
    return data if data else None


def run_once(program, started=None):
    """Runs `program` on a new pty; returns milliseconds from exec to the marker. `started`, a list,
    receives the CLOCK_MONOTONIC nanoseconds just before the fork."""
    master, slave = os.openpty()
    set_window_size(slave)
    if started is not None:
        started.append(time.monotonic_ns())
    start = time.perf_counter()
    pid = os.fork()
    if pid == 0:  # child: the pty becomes its controlling terminal and stdio
        try:
            os.close(master)
            os.login_tty(slave)
            if program.cwd:
                os.chdir(program.cwd)
            os.execve(program.argv[0], program.argv, program.env)
        finally:
            os._exit(127)
    os.close(slave)
    output = bytearray()
    elapsed = None
    try:
        deadline = start + FIRST_FRAME_TIMEOUT
        while elapsed is None:
            remaining = deadline - time.perf_counter()
            if remaining <= 0:
                break
            data = read_some(master, remaining)
            if data is None:
                break
            output += data
            if program.marker in output or program.marker in ESCAPES.sub(b"", bytes(output)):
                elapsed = (time.perf_counter() - start) * 1000
        if elapsed is None:
            text = ESCAPES.sub(b"", bytes(output)).decode("utf-8", "replace")
            raise RuntimeError(f"{program.label}: no {program.marker.decode()!r} within "
                               f"{FIRST_FRAME_TIMEOUT:.0f}s; it wrote: {text[-600:]!r}")
    finally:
        stop(program, pid, master)
    return elapsed


def stop(program, pid, master):
    """Quits like a user (its quit keys), then SIGTERM, then SIGKILL; drains and closes the pty."""
    quit_start = time.perf_counter()
    try:
        os.write(master, program.quit_keys)
    except OSError:
        pass
    status = None
    for sig, grace in ((None, QUIT_TIMEOUT), (signal.SIGTERM, 2.0), (signal.SIGKILL, 5.0)):
        if sig is not None:
            program.forced += 1
            try:
                os.kill(pid, sig)
            except ProcessLookupError:
                pass
        deadline = time.perf_counter() + grace
        while time.perf_counter() < deadline:
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                break
            if read_some(master, 0.01) is None:  # keep draining so that it never blocks writing
                time.sleep(0.005)
        else:
            continue
        break
    if sig is None:
        program.quit_times.append((time.perf_counter() - quit_start) * 1000)
    os.close(master)
    return status


def percentile(samples, share):
    ordered = sorted(samples)
    return ordered[max(0, math.ceil(share * len(ordered)) - 1)]


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


class Screen:
    """Enough of a terminal to follow what ncurses draws with TERM=xterm-256color: cursor addressing
    (CUP, CHA, VPA, relative moves), erasing (ECH, EL, ED), REP, insert and delete of characters and
    lines, the scroll region, CR, LF, BS and tab; colours and modes are ignored. Cells hold text only."""

    CONTROL = re.compile(rb"[\x00-\x1f\x7f]")
    SEQUENCE = re.compile(rb"\x1b(?:\[([0-?]*)[ -/]*([@-~])|\][^\x07\x1b]*(?:\x07|\x1b\\)|[()*+].|([=>78MDEc]))",
                          re.DOTALL)

    def __init__(self, cols, rows):
        self.cols, self.rows = cols, rows
        self.cells = [[" "] * cols for _ in range(rows)]
        self.x = self.y = 0
        self.top, self.bottom = 0, rows - 1
        self.saved = (0, 0)
        self.last = " "
        self.pending = b""

    def text(self):
        return ["".join(row) for row in self.cells]

    def _scroll(self, lines):  # positive: up (text moves up)
        for _ in range(abs(lines)):
            blank = [" "] * self.cols
            if lines > 0:
                del self.cells[self.top]
                self.cells.insert(self.bottom, blank)
            else:
                del self.cells[self.bottom]
                self.cells.insert(self.top, blank)

    def _down(self):
        if self.y == self.bottom:
            self._scroll(1)
        elif self.y < self.rows - 1:
            self.y += 1

    def _put(self, text):
        for char in text:
            width = 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1
            if unicodedata.combining(char):
                continue
            if self.x + width > self.cols:  # the pending wrap of an xterm (am, xenl)
                self.x = 0
                self._down()
            self.cells[self.y][self.x] = char
            if width == 2 and self.x + 1 < self.cols:
                self.cells[self.y][self.x + 1] = ""
            self.x += width
            self.last = char

    def _csi(self, parameters, final):
        private = parameters[:1] in (b"?", b">", b"=", b"<")
        numbers = [int(p) if p.isdigit() else 0 for p in parameters.lstrip(b"?>=<").split(b";")] if parameters else []
        first = numbers[0] if numbers else 0
        count = max(1, first)
        x = min(self.x, self.cols - 1)
        if private or final in b"mhlt":
            return
        if final in b"Hf":
            row = numbers[0] if numbers else 1
            col = numbers[1] if len(numbers) > 1 else 1
            self.y, self.x = min(self.rows, max(1, row)) - 1, min(self.cols, max(1, col)) - 1
        elif final == ord("A"):
            self.y = max(0, self.y - count)
        elif final == ord("B"):
            self.y = min(self.rows - 1, self.y + count)
        elif final == ord("C"):
            self.x = min(self.cols - 1, x + count)
        elif final == ord("D"):
            self.x = max(0, x - count)
        elif final == ord("E"):
            self.x, self.y = 0, min(self.rows - 1, self.y + count)
        elif final == ord("F"):
            self.x, self.y = 0, max(0, self.y - count)
        elif final == ord("G"):
            self.x = min(self.cols, count) - 1
        elif final == ord("d"):
            self.y = min(self.rows, count) - 1
        elif final == ord("X"):
            for column in range(x, min(self.cols, x + count)):
                self.cells[self.y][column] = " "
        elif final == ord("K"):
            start, end = {0: (x, self.cols), 1: (0, x + 1), 2: (0, self.cols)}.get(first, (x, self.cols))
            for column in range(start, end):
                self.cells[self.y][column] = " "
        elif final == ord("J"):
            rows = {0: range(self.y + 1, self.rows), 1: range(0, self.y), 2: range(self.rows)}.get(first, ())
            for row in rows:
                self.cells[row] = [" "] * self.cols
            if first == 0:
                self._csi(b"0", ord("K"))
            elif first == 1:
                self._csi(b"1", ord("K"))
        elif final == ord("b"):
            self._put(self.last * count)
        elif final == ord("@"):
            line = self.cells[self.y]
            self.cells[self.y] = (line[:x] + [" "] * count + line[x:])[: self.cols]
        elif final == ord("P"):
            line = self.cells[self.y]
            self.cells[self.y] = line[:x] + line[x + count:] + [" "] * min(count, self.cols - x)
        elif final in b"LM" and self.top <= self.y <= self.bottom:
            saved = self.top
            self.top = self.y
            self._scroll(-count if final == ord("L") else count)
            self.top = saved
            self.x = 0
        elif final == ord("S"):
            self._scroll(count)
        elif final == ord("T"):
            self._scroll(-count)
        elif final == ord("r"):
            top = numbers[0] if numbers and numbers[0] else 1
            bottom = numbers[1] if len(numbers) > 1 and numbers[1] else self.rows
            self.top, self.bottom = top - 1, min(self.rows, bottom) - 1
            self.x = self.y = 0

    def feed(self, data):
        data = self.pending + data
        self.pending = b""
        index = 0
        while index < len(data):
            byte = data[index]
            if byte == 0x1B:
                match = self.SEQUENCE.match(data, index)
                if not match:
                    if len(data) - index < 64:  # an escape sequence cut in two: wait for the rest
                        self.pending = data[index:]
                        return
                    index += 1
                    continue
                if match.group(2):
                    self._csi(match.group(1), match.group(2)[0])
                elif match.group(3):
                    self._escape(match.group(3))
                index = match.end()
            elif byte < 0x20 or byte == 0x7F:
                if byte == 0x0D:
                    self.x = 0
                elif byte in (0x0A, 0x0B, 0x0C):
                    self._down()
                elif byte == 0x08:
                    self.x = max(0, min(self.x, self.cols - 1) - 1)
                elif byte == 0x09:
                    self.x = min(self.cols - 1, (self.x // 8 + 1) * 8)
                index += 1
            else:
                control = self.CONTROL.search(data, index)
                end = control.start() if control else len(data)
                run = data[index:end]
                if end == len(data):  # a UTF-8 character cut in two: keep its start for the next read
                    cut = len(run)
                    while cut > 0 and len(run) - cut < 4 and run[cut - 1] & 0xC0 == 0x80:
                        cut -= 1
                    if cut > 0 and run[cut - 1] >= 0xC0 and len(run) - cut + 1 < (
                            2 if run[cut - 1] < 0xE0 else 3 if run[cut - 1] < 0xF0 else 4):
                        self.pending = run[cut - 1:]
                        run = run[: cut - 1]
                self._put(run.decode("utf-8", "replace"))
                index = end

    def _escape(self, final):
        if final == b"M":
            if self.y == self.top:
                self._scroll(-1)
            else:
                self.y = max(0, self.y - 1)
        elif final == b"D":
            self._down()
        elif final == b"E":
            self.x = 0
            self._down()
        elif final == b"7":
            self.saved = (self.x, self.y)
        elif final == b"8":
            self.x, self.y = self.saved
        elif final == b"c":
            self.__init__(self.cols, self.rows)


def stop_editor(pid, master, keys):
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
