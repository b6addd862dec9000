"""What the benchmarks under scripts/bench share: a user's environment, the development server, the program's size.

A script adds this folder to its path:

    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
    import fitiqtools

Only the Python standard library is used.
"""

import json
import os
import re
import signal
import subprocess
import threading
import time
import urllib.request


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


def stop(process, sig=signal.SIGTERM):
    """Stops `process` (if it still runs) and waits for it."""
    if process and process.poll() is None:
        process.send_signal(sig)
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def timed(argv, env=None, timeout=600, stdin=None):
    """Runs `argv` to its end; returns (seconds from start to exit, the CompletedProcess). The wait is a
    blocking `waitpid`: `subprocess.run(timeout=)` without captured output polls with sleeps that double
    from 1 ms, so a run of 9.5 ms was timed at 15 and one of 300 ms at up to 313. A timer kills the
    program after `timeout` seconds, and the run then raises."""
    started = time.perf_counter()
    process = subprocess.Popen(argv, env=env, stdin=subprocess.PIPE if stdin is not None else subprocess.DEVNULL,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    expired = threading.Event()

    def expire():
        expired.set()
        process.kill()
    timer = threading.Timer(timeout, expire)
    timer.start()
    try:
        stdout, stderr = process.communicate(stdin)
    finally:
        timer.cancel()
    seconds = time.perf_counter() - started
    if expired.is_set():
        raise subprocess.TimeoutExpired(argv, timeout, stdout, stderr)
    return seconds, subprocess.CompletedProcess(argv, process.returncode, stdout, stderr)


def client(tui, env):
    """Runs `fitiq-tui ARGUMENTS` as the user of `env`; raises with its output when it fails."""
    def cli(*arguments, stdin=None, extra=None):
        result = subprocess.run([tui, *arguments], input=stdin, env=dict(env, **(extra or {})), capture_output=True,
                                text=True, timeout=300)
        if result.returncode != 0:
            raise RuntimeError(f"fitiq-tui {' '.join(arguments)} (exit {result.returncode}): {result.stdout} "
                               f"{result.stderr}")
        return result
    return cli


BENCH_PASSWORD = "bench-password-123"  # the password of the accounts the benchmarks register


def register(cli, url, email):
    """Registers `email` on `url` through fitiq-tui (`client`), and syncs."""
    cli("register", "--server", url, "--email", email, "--name", "Bench", "--date-of-birth", "1990-01-01",
        stdin=BENCH_PASSWORD + "\n")
    cli("sync", "--wait")


def measured(argv, env=None):
    """Runs `argv` under /usr/bin/time; returns (seconds from exec to exit, peak RSS MB, stdout, CPU seconds:
    user plus system). Raises with its output when it fails."""
    started = time.perf_counter()
    result = subprocess.run(["/usr/bin/time", "-f", "%M %U %S", *argv], env=env, capture_output=True, text=True,
                            timeout=600)
    seconds = time.perf_counter() - started
    if result.returncode != 0:
        raise RuntimeError(f"{' '.join(argv)} (exit {result.returncode}): {result.stdout[-300:]} "
                           f"{result.stderr[-600:]}")
    kilobytes, user, system = result.stderr.strip().splitlines()[-1].split()
    return seconds, int(kilobytes) / 1024, result.stdout, float(user) + float(system)


class BenchServer:
    """A development server in `work`/server with an API key of its own, and accounts registered on it
    through fitiq-tui, each in a folder of `work` (the benchmarks' new account per run)."""

    def __init__(self, bin_dir, work):
        self.tui = os.path.join(bin_dir, "fitiq-tui")
        self.work = work
        self.api_key = "bench-" + os.urandom(12).hex()
        self.process, self.url = start_server(
            bin_dir, user_env(os.path.join(work, "server"), FITIQ_DEV_API_KEY=self.api_key),
            "--bcrypt-cost", "4", "--log-level", "error")

    def account(self, name):
        """Registers `name`@example.com; returns the environment of its user."""
        env = user_env(os.path.join(self.work, name), FITIQ_API_KEY=self.api_key)
        client(self.tui, env)("register", "--server", self.url, "--email", f"{name}@example.com", "--name",
                              "Bench", "--date-of-birth", "1990-01-01", stdin=BENCH_PASSWORD + "\n")
        return env

    def stop(self):
        if self.process is not None:
            stop(self.process)
            self.process = None


def programs(bin_dir, *tools):
    """The absolute `bin_dir` and its fitiq-tui, after checking that fitiq-tui, fitiq-dev-server and
    `tools` (absolute paths) can run; exits with a sentence when one cannot."""
    bin_dir = os.path.abspath(bin_dir)
    tui = os.path.join(bin_dir, "fitiq-tui")
    for path in (tui, os.path.join(bin_dir, "fitiq-dev-server"), *tools):
        if not os.access(path, os.X_OK):
            raise SystemExit(f"error: {path} not found")
    return bin_dir, tui


# A metric line of an import's summary: `Weights: 3 read, 2 new, 1 already there.`
IMPORT_SUMMARY = re.compile(r"^[A-Z][\w ]*: (\d+) read, (\d+) new, (\d+) already there\.$", re.MULTILINE)


DAY_SUMMARY = re.compile(r"^([A-Z][\w ]*): (\d+) days found, (\d+) new, (\d+) held already", re.MULTILINE)


def day_counts(output):
    """{metric: (days found, new, held already)} from the day lines of an import's summary."""
    return {line[0]: tuple(int(x) for x in line[1:]) for line in DAY_SUMMARY.findall(output)}


def import_counts(output):
    """(read, new, already there) summed over the metric lines of an import's summary."""
    lines = IMPORT_SUMMARY.findall(output)
    if not lines:
        raise RuntimeError(f"no summary in the import's output: {output[-400:]}")
    return tuple(sum(int(line[column]) for line in lines) for column in range(3))
