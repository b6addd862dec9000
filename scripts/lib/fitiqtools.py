"""What the scripts under scripts/ share: a user's environment, the development server, the editor in tmux.

A script adds this folder to its path:

    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
    import fitiqtools

Only the Python standard library is used.
"""

import itertools
import json
import os
import shlex
import signal
import subprocess
import time
import urllib.request
import uuid

# Editors opened by this process so far: part of every tmux socket name, with a random part, so that
# no two tmux servers ever share a name (a name reused right after `kill-server` can reach the old
# server while it is still exiting, and `new-session` then fails with "server exited unexpectedly").
_EDITORS = itertools.count(1)


def program_size(path):
    """The line every benchmark prints first: the program's size as built and stripped (a copy is
    stripped; the tarball ships it stripped), in MB."""
    import shutil
    import tempfile
    with tempfile.TemporaryDirectory() as folder:
        copy = os.path.join(folder, os.path.basename(path))
        shutil.copy(path, copy)
        subprocess.run(["strip", copy], check=True)
        stripped = os.path.getsize(copy)
    return (f"{os.path.basename(path)}: {os.path.getsize(path) / 1e6:.1f} MB as built, "
            f"{stripped / 1e6:.1f} MB stripped (target ≤ 24 MB: {'met' if stripped <= 24e6 else 'not met'})")


def start_tinyproxy(folder):
    """Debian's tinyproxy on a free loopback port with a configuration of its own in `folder`,
    logging every request; returns (process, proxy URL, log path) once it accepts connections."""
    import socket
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    log = os.path.join(folder, f"tinyproxy-{port}.log")
    config = os.path.join(folder, f"tinyproxy-{port}.conf")
    with open(config, "w") as f:
        f.write(f"Port {port}\nListen 127.0.0.1\nTimeout 30\nLogFile \"{log}\"\nLogLevel Info\n"
                "MaxClients 20\nAllow 127.0.0.1\nDisableViaHeader Yes\n")
    process = subprocess.Popen(["tinyproxy", "-d", "-c", config], stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 10
    while True:  # until the port accepts (the state wanted), with a deadline
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return process, f"http://127.0.0.1:{port}", log
        except OSError:
            if process.poll() is not None or time.monotonic() > deadline:
                process.kill()
                raise RuntimeError(f"tinyproxy did not listen on port {port}")
            time.sleep(0.02)


def user_env(home, **extra):
    """A clean environment for one user whose files all live under `home` (the XDG folders too)."""
    env = {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": home, "LANG": "C.UTF-8", "TZ": "UTC",
           "XDG_DATA_HOME": os.path.join(home, "data"), "XDG_STATE_HOME": os.path.join(home, "state"),
           "XDG_CONFIG_HOME": os.path.join(home, "config")}
    env.update(extra)
    return env


def start_server(bin_dir, env, *flags, port=0, stderr=subprocess.DEVNULL):
    """Starts `fitiq-dev-server` with `flags`; returns (process, url) once it listens."""
    process = subprocess.Popen([os.path.join(bin_dir, "fitiq-dev-server"), "--port", str(port), *flags],
                               env=env, stdout=subprocess.PIPE, stderr=stderr, text=True)
    line = process.stdout.readline().strip()
    if not line.startswith("listening on "):
        process.kill()
        process.wait()
        raise RuntimeError(f"fitiq-dev-server did not start (it said {line!r})")
    return process, line.split()[-1]


def api(url, api_key, method, path, body=None, token=None):
    """One request to the development server at `url` (`/api/v1/PATH`), straight, not through
    fitiq-tui; returns the answer's `data` (raises on an HTTP error)."""
    request = urllib.request.Request(f"{url}/api/v1/{path}", method=method,
                                     data=json.dumps(body).encode() if body is not None else None)
    request.add_header("X-API-Key", api_key)
    request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    with urllib.request.urlopen(request, timeout=30) as answer:
        answer = json.load(answer)
        return answer.get("data", answer) if isinstance(answer, dict) else answer


def login(url, api_key, email, password):
    """An access token for `email`, from the server itself."""
    return api(url, api_key, "POST", "auth/login", {"email": email, "password": password})["access_token"]


def server_heights(url, api_key, token):
    """Every height entry's quantity (rounded to 0.1) the server holds for the token's account, page by page."""
    heights, offset = [], 0
    while True:
        page = api(url, api_key, "GET", f"progress?type=height&from=1900-01-01&to=2100-01-01&limit=100&offset={offset}",
                   token=token)
        entries = page.get("entries", [])
        heights += [round(entry["quantity"], 1) for entry in entries]
        offset += len(entries)
        if not entries or offset >= page.get("total", 0):
            return heights


def stop(process, sig=signal.SIGTERM):
    """Stops `process` (if it still runs) and waits for it."""
    if process and process.poll() is None:
        process.send_signal(sig)
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


class Editor:
    """`fitiq-tui` (the editor) on a private tmux server, driven by keys and read from the screen."""

    def __init__(self, tui, env, name, width=100, height=30):
        self.socket = f"fitiq-{name}-{os.getpid()}-{next(_EDITORS)}-{uuid.uuid4().hex[:12]}"
        variables = dict(env, TERM="tmux-256color")
        assignments = " ".join(shlex.quote(f"{key}={value}") for key, value in sorted(variables.items()))
        self.tmux("new-session", "-d", "-s", "f", "-x", str(width), "-y", str(height),
                  f"env -i {assignments} {shlex.quote(tui)}")
        self.server_pid = int(self.tmux("display-message", "-p", "-t", "f", "#{pid}").strip())

    def tmux(self, *arguments):
        # No user configuration (-f /dev/null): the same tmux for everyone who runs the scripts.
        return subprocess.run(["tmux", "-L", self.socket, "-f", "/dev/null", *arguments], capture_output=True,
                              text=True, check=True).stdout

    def keys(self, *keys):
        """Keys by tmux name (`Enter`, `C-s`, `Tab`)."""
        self.tmux("send-keys", "-t", "f", *keys)

    def type(self, text):
        """Text as typed, character by character."""
        self.tmux("send-keys", "-t", "f", "-l", "--", text)

    def screen(self):
        return self.tmux("capture-pane", "-p", "-t", "f")

    def title(self):
        """The title the program set (an escape sequence that got through would change it)."""
        return self.tmux("display-message", "-p", "-t", "f", "#{pane_title}").strip()

    def wait_until(self, what, condition, timeout=30):
        """The screen once `condition(rows)` holds; raises, showing the last screen, after `timeout` s."""
        deadline, screen = time.time() + timeout, ""
        while time.time() < deadline:
            screen = self.screen()
            if condition(screen.splitlines()):
                return screen
            time.sleep(0.05)
        raise RuntimeError(f"the editor never showed {what}; the screen was:\n{screen}")

    def pid(self):
        """The editor's process: the pane's, or its first descendant called fitiq-tui."""
        queue = [int(self.tmux("display-message", "-p", "-t", "f", "#{pane_pid}").strip())]
        while queue:
            pid = queue.pop(0)
            try:
                with open(f"/proc/{pid}/comm") as f:
                    if f.read().strip() == "fitiq-tui":
                        return pid
                with open(f"/proc/{pid}/task/{pid}/children") as f:
                    queue += [int(child) for child in f.read().split()]
            except OSError:
                continue
        raise RuntimeError("the editor's process was not found")

    def wait_for_exit(self, timeout=30):
        """Waits until the editor has ended (its tmux server ends with its only pane)."""
        wait_for_process_end(self.server_pid, timeout, f"the editor on tmux socket {self.socket}")

    def close(self):
        """Ends the tmux server and everything in it, and waits until its process is gone."""
        subprocess.run(["tmux", "-L", self.socket, "-f", "/dev/null", "kill-server"], capture_output=True)
        try:
            wait_for_process_end(self.server_pid, 10, "the tmux server")
        except RuntimeError:
            os.kill(self.server_pid, signal.SIGKILL)


def alive(pid):
    """Whether `pid` runs (a zombie counts as ended)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] not in ("Z", "X")
    except (OSError, IndexError):
        return False


def wait_for_process_end(pid, timeout, what):
    """Returns once `pid` has ended; raises RuntimeError naming `what` after `timeout` s."""
    deadline = time.time() + timeout
    while alive(pid):
        if time.time() > deadline:
            raise RuntimeError(f"{what} (pid {pid}) was still running after {timeout} s")
        time.sleep(0.02)
