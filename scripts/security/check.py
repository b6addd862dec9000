#!/usr/bin/env python3
"""Security checks of fitiq-tui (`make security`). Exits 1 when any check fails.

Drives the built `fitiq-tui` and `fitiq-dev-server` the way a user does (register, every command,
a health import, the editor and the demo on a pseudo-terminal), collects every secret involved
(API key, password, access and refresh tokens, the demo's own key and password), then checks:

  - the session file is 0600 and its folders 0700;
  - no secret appears in the log, in any cache file other than the session file, in the output of
    any command, or in the argv of any fitiq process (/proc/PID/cmdline);
  - `http://` to a non-loopback host is refused without --allow-insecure-http;
  - TLS verification cannot be skipped: a self-signed HTTPS server is refused with a clear
    message, and no option or variable turns verification off.

Usage: check.py --bin-dir DIR      (DIR holds fitiq-tui and fitiq-dev-server)
Needs python3 and openssl; only the Python standard library is used.
"""

import argparse
import glob
import json
import os
import pty
import select
import shutil
import ssl
import stat
import subprocess
import sys
import tempfile
import threading
import time
import http.server

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import fitiqtools  # noqa: E402

RESULTS = []


def check(name, ok, detail=""):
    RESULTS.append((name, ok, detail))


def read_for(master, seconds, until=None):
    output = bytearray()
    deadline = time.time() + seconds
    while time.time() < deadline:
        ready, _, _ = select.select([master], [], [], 0.1)
        if ready:
            try:
                data = os.read(master, 65536)
            except OSError:
                break
            if not data:
                break
            output += data
            if until and until in output:
                break
    return bytes(output)


def on_pty(argv, env, until, seconds=20):
    """Starts argv on a pseudo-terminal; returns (pid, master, output until `until` shows)."""
    pid, master = pty.fork()
    if pid == 0:
        os.execve(argv[0], argv, env)
    return pid, master, read_for(master, seconds, until)


def process_tree(root):
    children = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                parent = int(f.read().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue
        children.setdefault(parent, []).append(int(entry))
    found, queue = [], [root]
    while queue:
        pid = queue.pop()
        found.append(pid)
        queue += children.get(pid, [])
    return found


def read_proc(pid, name):
    try:
        with open(f"/proc/{pid}/{name}", "rb") as f:
            return f.read()
    except OSError:
        return b""


def main():
    parser = argparse.ArgumentParser(description="Security checks of fitiq-tui.")
    parser.add_argument("--bin-dir", required=True)
    args = parser.parse_args()
    bin_dir = os.path.abspath(args.bin_dir)
    tui = os.path.join(bin_dir, "fitiq-tui")
    here = os.path.dirname(os.path.abspath(__file__))
    generator = os.path.join(here, "..", "health", "make-health-export.py")

    work = tempfile.mkdtemp(prefix="fitiq-security-")
    server = None
    secrets = {}
    outputs = []
    argvs = []
    try:
        home = os.path.join(work, "home")
        env = fitiqtools.user_env(home, TERM="xterm-256color", TMPDIR=os.path.join(work, "tmp"))
        os.makedirs(env["TMPDIR"])
        secrets["API key"] = "sec-key-" + os.urandom(16).hex()
        secrets["password"] = "sec-pw-" + os.urandom(16).hex()
        env["FITIQ_API_KEY"] = secrets["API key"]
        server, url = fitiqtools.start_server(bin_dir, dict(env, FITIQ_DEV_API_KEY=secrets["API key"]),
                                              "--log-level", "error", "--bcrypt-cost", "4", "--access-token-ttl", "2")

        def run(arguments, stdin=None):
            argv = [tui] + arguments
            argvs.append(" ".join(argv))
            result = subprocess.run(argv, input=stdin, env=env, capture_output=True, text=True, timeout=60)
            outputs.append((" ".join(arguments[:2]), result.stdout + result.stderr))
            return result

        run(["register", "--server", url, "--email", "sec@example.com", "--name", "Sec", "--date-of-birth",
             "1990-01-01"], stdin=secrets["password"] + "\n")
        run(["logout"])
        run(["login", "--server", url, "--email", "sec@example.com"], stdin=secrets["password"] + "\n")
        export = os.path.join(work, "export.zip")
        subprocess.run([sys.executable, generator, "--zip", "--mb", "1", "--out", export], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for arguments in (["whoami", "--json"], ["profile", "show", "--json"], ["profile", "set", "--bio", "x"],
                          ["height", "set", "181"], ["height", "history", "--csv"], ["sync", "--wait"],
                          ["status", "--json"], ["import-health", export], ["profile", "show"]):
            time.sleep(1.1 if arguments[0] == "sync" else 0)  # tokens live 2 s: refreshes happen too
            run(arguments)

        sessions = glob.glob(os.path.join(env["XDG_STATE_HOME"], "fitiq", "accounts", "*", "*", "session.json"))
        check("a session file exists", len(sessions) == 1, f"{len(sessions)} found")
        for session in sessions:
            mode = stat.S_IMODE(os.stat(session).st_mode)
            check("session file is 0600", mode == 0o600, oct(mode))
            folder_mode = stat.S_IMODE(os.stat(os.path.dirname(session)).st_mode)
            check("session folder is 0700", folder_mode == 0o700, oct(folder_mode))
            with open(session) as f:
                stored = json.load(f)
            for key, value in _tokens(stored):
                secrets[key] = value
            check("the session file holds the tokens (they are checked below)",
                  any(k.startswith("token") for k in secrets), ", ".join(sorted(secrets)))

        # The editor on a pseudo-terminal: its argv holds no secret.
        pid, master, screen = on_pty([tui], env, b"Sec")
        for member in process_tree(pid):
            argvs.append(read_proc(member, "cmdline").replace(b"\0", b" ").decode("utf-8", "replace"))
        os.write(master, b"q")
        read_for(master, 3)
        os.close(master)
        os.waitpid(pid, 0)

        # The demo: its server gets the demo's key and password in its environment, never in argv.
        pid, master, screen = on_pty([tui, "demo"], env, b"demo@fitiq.dev")
        tree = process_tree(pid)
        for member in tree:
            environ = read_proc(member, "environ").split(b"\0")
            for item in environ:
                if item.startswith(b"FITIQ_DEV_API_KEY="):
                    secrets["demo API key"] = item.split(b"=", 1)[1].decode()
                if item.startswith(b"FITIQ_DEV_DEMO_PASSWORD="):
                    secrets["demo password"] = item.split(b"=", 1)[1].decode()
        for session in glob.glob(os.path.join(env["TMPDIR"], "fitiq-demo-*", "**", "session.json"), recursive=True):
            with open(session) as f:
                for key, value in _tokens(json.load(f)):
                    secrets["demo " + key] = value
        for member in tree:
            argvs.append(read_proc(member, "cmdline").replace(b"\0", b" ").decode("utf-8", "replace"))
        check("the demo's secrets were found to check", "demo API key" in secrets and "demo password" in secrets)
        os.write(master, b"q")
        outputs.append(("demo screen", (screen + read_for(master, 5)).decode("utf-8", "replace")))
        os.close(master)
        os.waitpid(pid, 0)

        # Where secrets must not be.
        places = []
        for root in (env["XDG_DATA_HOME"], env["XDG_STATE_HOME"], env["XDG_CONFIG_HOME"]):
            for path in glob.glob(os.path.join(root, "**", "*"), recursive=True):
                if os.path.isfile(path) and not path.endswith("session.json"):
                    with open(path, "rb") as f:
                        places.append((os.path.relpath(path, home), f.read().decode("utf-8", "replace")))
        log = [text for name, text in places if name.endswith("fitiq-tui.log")]
        check("the request log exists and is not empty", bool(log and log[0].strip()))
        def argv_label(argv):
            words = argv.split()
            return "argv of " + " ".join([os.path.basename(words[0])] + words[1:2]) if words else "argv"

        haystacks = ([("file " + name, text) for name, text in places]
                     + [("output of " + name, text) for name, text in outputs]
                     + [(argv_label(argv), argv) for argv in argvs])
        # The scan itself must be able to fail: a planted secret is found.
        planted = [key for key, value in secrets.items() if value in "log line " + secrets["password"] + " end"]
        check("the scan finds a planted secret", planted == ["password"], ", ".join(planted))
        for label, haystack in haystacks:
            leaked = [key for key, value in secrets.items() if value and value in haystack]
            check(f"no secret in {label}", not leaked, ", ".join(leaked))

        # Plain HTTP is for this machine only.
        for host in ("http://example.com", "http://10.1.2.3:8080", "http://[2001:db8::1]/"):
            result = run(["--server", host, "whoami"])
            check(f"{host} refused without --allow-insecure-http",
                  result.returncode != 0 and "--allow-insecure-http" in result.stderr, result.stderr.strip()[:120])
        result = run(["--server", "http://10.1.2.3:8080", "--allow-insecure-http", "status"])
        check("--allow-insecure-http lets an http:// server through", "--allow-insecure-http" not in result.stderr,
              result.stderr.strip()[:120])

        # TLS is verified: a self-signed certificate on a loopback HTTPS server is refused.
        cert, key = os.path.join(work, "cert.pem"), os.path.join(work, "key.pem")
        subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", cert,
                        "-days", "1", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"],
                       check=True, capture_output=True)
        httpd = http.server.HTTPServer(("127.0.0.1", 0), http.server.BaseHTTPRequestHandler)
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(cert, key)
        httpd.socket = context.wrap_socket(httpd.socket, server_side=True)
        threading.Thread(target=httpd.serve_forever, daemon=True).start()
        tls_home = dict(env, XDG_STATE_HOME=os.path.join(work, "tls-state"), XDG_DATA_HOME=os.path.join(work, "tls-data"))
        argv = [tui, "login", "--server", f"https://127.0.0.1:{httpd.server_port}", "--email", "sec@example.com"]
        result = subprocess.run(argv, input=secrets["password"] + "\n", env=tls_home, capture_output=True, text=True,
                                timeout=60)
        httpd.shutdown()
        message = (result.stdout + result.stderr).strip()
        check("a self-signed HTTPS server is refused", result.returncode != 0, message[:160])
        check("the refusal names TLS verification", "TLS" in message or "certificate" in message.lower(), message[:160])
        helps = [subprocess.run([tui] + command + ["--help"], env=env, capture_output=True, text=True).stdout
                 for command in ([], ["login"], ["register"], ["sync"], ["import-health"], ["demo"])]
        switches = [word for text in helps for word in text.split()
                    if word.startswith("--") and any(part in word for part in ("insecure-tls", "no-verify", "skip"))]
        check("no option turns TLS verification off", not switches, " ".join(switches))
        variables = []
        for program in (tui,):
            with open(program, "rb") as f:
                binary = f.read()
            variables += [name for name in (b"SSL_CERT_SKIP", b"FITIQ_INSECURE", b"FITIQ_NO_VERIFY", b"FITIQ_TLS")
                          if name in binary]
        check("no variable turns TLS verification off", not variables, b" ".join(variables).decode())
    finally:
        fitiqtools.stop(server)
        shutil.rmtree(work, ignore_errors=True)

    width = max(len(name) for name, _, _ in RESULTS)
    failed = 0
    for name, ok, detail in RESULTS:
        failed += not ok
        print(f"{'PASS' if ok else 'FAIL'}  {name:<{width}}  {detail if not ok else ''}".rstrip())
    print(f"\n{len(RESULTS) - failed} of {len(RESULTS)} checks passed; "
          f"{len(secrets)} secrets checked ({', '.join(sorted(secrets))}); values never printed.")
    sys.exit(1 if failed else 0)


def _tokens(session):
    """The token-like values of a session file: every string under a key naming a token or key."""
    found = []

    def walk(value, path):
        if isinstance(value, dict):
            for key, inner in value.items():
                walk(inner, path + [key])
        elif isinstance(value, str) and path and any(
                part in path[-1].lower() for part in ("token", "apikey", "api_key")) and len(value) > 8:
            found.append(("token " + ".".join(path) if "token" in path[-1].lower() else "stored API key", value))

    walk(session, [])
    return found


if __name__ == "__main__":
    main()
