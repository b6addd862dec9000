#!/usr/bin/env python3
"""Checks a release tarball the way a new user meets it (`make dist-check`, part of `make test`).

  1. Unpacks dist/fitiq-tui-VERSION-linux-ARCH.tar.gz into a temporary folder and checks what it holds.
  2. Runs the unpacked program with a bare environment (`env -i PATH=/usr/bin:/bin HOME=…`) from
     another folder: `--version`, `--help`, and `demo` on a pseudo-terminal up to its first frame. As
     root, it runs with the Swift toolchain hidden (a private mount namespace with an empty folder
     over it), as on a machine that never had Swift. Then the shipped programs together: 40 height
     entries saved offline, sent by `sync --wait` to the shipped development server (the optimised
     build's concurrent posts, which the debug-built tests do not run). And in a language: `status`
     without an account says so in German (FITIQ_LANG), French and Portuguese (LANG).
  3. Installs it with its install.sh into a fresh PREFIX: the program runs from there, `man` finds
     its page, bash completes its commands; then `install.sh --uninstall` leaves nothing behind.

Usage: check.py TARBALL      Exits 1 when a check fails. Only the Python standard library is used.
"""

import os
import pty
import select
import shutil
import signal
import subprocess
import sys
import tarfile
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import fitiqtools  # noqa: E402

RESULTS = []
SWIFT_TOOLCHAIN = "/opt/swift"


def check(name, ok, detail=""):
    RESULTS.append((name, bool(ok), detail))
    print(f"{'ok  ' if ok else 'FAIL'} {name}{': ' + detail if detail and not ok else ''}", flush=True)


def bare_env(home):
    return {"PATH": "/usr/bin:/bin", "HOME": home}


def without_swift(argv):
    """`argv` run where the Swift toolchain cannot be seen, when this process may hide it (root)."""
    if os.geteuid() != 0 or not os.path.isdir(SWIFT_TOOLCHAIN) or not shutil.which("unshare"):
        return argv
    hide = f"mount -t tmpfs -o size=1m,mode=0755 tmpfs {SWIFT_TOOLCHAIN} && exec \"$@\""
    return ["unshare", "-m", "--propagation", "private", "/bin/sh", "-c", hide, "sh", *argv]


def run(argv, env, cwd):
    return subprocess.run(without_swift(argv), env=env, cwd=cwd, capture_output=True, text=True, timeout=60)


def first_frame_of_demo(program, env, cwd):
    """Runs `program demo` on a 100×30 pseudo-terminal until its first frame shows the demo account,
    then quits it with q; returns (frame seen, exit status, output)."""
    pid, master = pty.fork()
    if pid == 0:
        os.chdir(cwd)
        os.environ.clear()
        os.environ.update(env, TERM="xterm-256color", LINES="30", COLUMNS="100")
        argv = without_swift([program, "demo"])
        os.execvp(argv[0], argv)
    output, seen, deadline = bytearray(), False, time.time() + 60
    while time.time() < deadline:
        ready, _, _ = select.select([master], [], [], 0.1)
        if not ready:
            continue
        try:
            data = os.read(master, 65536)
        except OSError:
            break
        if not data:
            break
        output += data
        if not seen and b"demo@fitiq.dev" in output and b"Alex Demo" in output:
            seen = True
            os.write(master, b"q")
    if not seen:
        os.kill(pid, signal.SIGKILL)
    _, status = os.waitpid(pid, 0)
    os.close(master)
    return seen, os.waitstatus_to_exitcode(status), output.decode("utf-8", "replace")


def sync_queued_heights(root, home, cwd):
    """Registers on the shipped development server, saves 40 heights offline, then syncs them through
    an HTTP proxy named in `http_proxy` (tinyproxy, whose log must show the posts); returns what went
    wrong, or ""."""
    api_key = "dist-" + os.urandom(12).hex()
    env = dict(bare_env(home), FITIQ_API_KEY=api_key, XDG_DATA_HOME=os.path.join(home, "data"),
               XDG_STATE_HOME=os.path.join(home, "state"), XDG_CONFIG_HOME=os.path.join(home, "config"))
    program = os.path.join(root, "bin", "fitiq-tui")
    server, url = fitiqtools.start_server(os.path.join(root, "bin"), dict(env, FITIQ_DEV_API_KEY=api_key),
                                          "--bcrypt-cost", "4")
    os.makedirs(home, exist_ok=True)
    proxy, proxy_url, proxy_log = fitiqtools.start_tinyproxy(home)
    try:
        registered = subprocess.run(
            without_swift([program, "register", "--server", url, "--email", "dist@example.com", "--name", "Dist",
                           "--date-of-birth", "1990-01-01"]),
            input="dist-password-123\n", env=env, cwd=cwd, capture_output=True, text=True, timeout=60)
        if registered.returncode != 0:
            return f"register: exit {registered.returncode}: {registered.stderr.strip()[:200]}"
        for index in range(40):
            saved = run([program, "height", "set", f"{160 + index / 10:.1f} cm", "--no-sync"], env, cwd)
            if saved.returncode != 0:
                return f"height set: exit {saved.returncode}: {saved.stderr.strip()[:200]}"
        synced = run([program, "sync", "--wait"], dict(env, http_proxy=proxy_url), cwd)
        if synced.returncode != 0:
            return f"sync --wait: exit {synced.returncode}: {synced.stdout.strip()[:200]} {synced.stderr.strip()[:200]}"
        with open(proxy_log) as f:
            posts = sum(1 for line in f if f"POST {url.rstrip('/')}/api/v1/progress" in line)
        if posts < 40:
            return f"the proxy saw {posts} posts of the 40 heights"
        return ""
    finally:
        fitiqtools.stop(server)
        fitiqtools.stop(proxy)


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    tarball = os.path.abspath(sys.argv[1])
    name = os.path.basename(tarball)[: -len(".tar.gz")]
    version = name[len("fitiq-tui-"):].rsplit("-linux-", 1)[0]
    work = tempfile.mkdtemp(prefix="fitiq-dist-check-")
    try:
        # 1. What the tarball holds.
        with tarfile.open(tarball) as archive:
            archive.extractall(work, filter="data")
        root = os.path.join(work, name)
        expected = ["bin/fitiq-tui", "bin/fitiq-dev-server", "share/man/man1/fitiq-tui.1",
                    "share/bash-completion/completions/fitiq-tui", "share/zsh/site-functions/_fitiq-tui",
                    "share/fish/vendor_completions.d/fitiq-tui.fish", "README.md", "LICENSE", "install.sh"]
        missing = [path for path in expected if not os.path.isfile(os.path.join(root, path))]
        check("the tarball holds the programs, man pages, completions, README, LICENSE and install.sh",
              not missing, f"missing: {', '.join(missing)}")
        program = os.path.join(root, "bin", "fitiq-tui")
        libraries = subprocess.run(["ldd", program], capture_output=True, text=True).stdout
        swift_libraries = [line.split()[0] for line in libraries.splitlines()
                           if "swift" in line.lower() or "Foundation" in line or "libdispatch" in line]
        check("fitiq-tui links no Swift runtime library", not swift_libraries, ", ".join(swift_libraries))
        check("fitiq-tui does not link libcurl (it opens it with dlopen for its first request)",
              "libcurl" not in libraries, libraries.strip()[:300])

        # 2. The unpacked program, bare environment, another folder, Swift hidden when possible.
        home = os.path.join(work, "home")
        elsewhere = os.path.join(work, "elsewhere")
        os.makedirs(home)
        os.makedirs(elsewhere)
        env = bare_env(home)
        if without_swift(["true"]) != ["true"]:
            hidden = run(["/bin/sh", "-c", f"ls -A {SWIFT_TOOLCHAIN} | wc -l"], env, elsewhere).stdout.strip()
            check("the Swift toolchain is hidden from the programs", hidden == "0", f"{hidden} entries seen")
        shown = run([program, "--version"], env, elsewhere)
        check("--version prints the version", shown.returncode == 0 and shown.stdout.strip() == version,
              f"exit {shown.returncode}: {shown.stdout.strip()!r} {shown.stderr.strip()!r}, expected {version!r}")
        helped = run([program, "--help"], env, elsewhere)
        check("--help prints the usage", helped.returncode == 0 and "USAGE:" in helped.stdout
              and "import-health" in helped.stdout, f"exit {helped.returncode}: {helped.stderr.strip()[:200]}")
        seen, status, output = first_frame_of_demo(program, env, elsewhere)
        check("demo shows its first frame and quits with status 0", seen and status == 0,
              f"frame seen: {seen}, exit {status}; last output: {output[-300:]!r}")
        # The catalogs are in the binary: a bare environment with a language gets it, from FITIQ_LANG or LANG.
        for variables, expected in [({"FITIQ_LANG": "de"}, "Fehler: Du bist nicht angemeldet."),
                                    ({"LANG": "fr_FR.UTF-8"}, "Erreur : Tu n'es pas connecté."),
                                    ({"LANG": "pt_BR.UTF-8"}, "Erro: Você não entrou.")]:
            said = run([program, "status"], dict(env, **variables), elsewhere)
            check(f"status without an account speaks {variables}", expected in said.stderr,
                  f"exit {said.returncode}: {said.stderr.strip()[:200]!r}")
        synced = sync_queued_heights(root, os.path.join(work, "sync"), elsewhere)
        check("40 height entries saved offline reach the shipped server with sync --wait, through the "
              "proxy in http_proxy", synced == "", synced)

        # 3. install.sh into a fresh PREFIX, then --uninstall.
        prefix = os.path.join(work, "prefix")
        installed = subprocess.run(["sh", os.path.join(root, "install.sh"), prefix], env=env, capture_output=True,
                                   text=True)
        check("install.sh installs", installed.returncode == 0, installed.stderr.strip())
        shown = run([os.path.join(prefix, "bin", "fitiq-tui"), "--version"], env, "/")
        check("the installed program runs from /", shown.returncode == 0 and shown.stdout.strip() == version,
              shown.stderr.strip())
        said = run([os.path.join(prefix, "bin", "fitiq-tui"), "status"], dict(env, LANG="es_ES.UTF-8"), "/")
        check("the installed program speaks the language of LANG", "Error: No has iniciado sesión." in said.stderr,
              f"exit {said.returncode}: {said.stderr.strip()[:200]!r}")
        manual = subprocess.run(["man", "-P", "cat", "fitiq-tui"], capture_output=True, text=True,
                                env=dict(env, MANPATH=os.path.join(prefix, "share", "man"), MANWIDTH="100"))
        check("man fitiq-tui shows the page", manual.returncode == 0 and "import-health" in manual.stdout,
              f"exit {manual.returncode}: {manual.stderr.strip()[:200]}")
        completion = os.path.join(prefix, "share", "bash-completion", "completions", "fitiq-tui")
        script = (f"source {completion}\n"
                  "COMP_WORDS=(fitiq-tui hei); COMP_CWORD=1; COMP_LINE='fitiq-tui hei'; COMP_POINT=13\n"
                  "_fitiq-tui fitiq-tui hei fitiq-tui\n"
                  "printf '%s\\n' \"${COMPREPLY[@]}\"\n")
        completed = subprocess.run(["bash", "--norc", "--noprofile", "-c", script], capture_output=True, text=True,
                                   env=dict(env, PATH=os.path.join(prefix, "bin") + ":/usr/bin:/bin"))
        check("bash completes `fitiq-tui hei` to `height`", completed.stdout.split() == ["height"],
              f"{completed.stdout.split()} {completed.stderr.strip()[:200]}")
        removed = subprocess.run(["sh", os.path.join(root, "install.sh"), "--uninstall", prefix], env=env,
                                 capture_output=True, text=True)
        left = [os.path.relpath(os.path.join(folder, entry), prefix) for folder, folders, files in os.walk(prefix)
                for entry in folders + files] if os.path.exists(prefix) else []
        check("install.sh --uninstall leaves nothing behind", removed.returncode == 0 and not os.path.exists(prefix),
              f"exit {removed.returncode}; left: {left}")
    finally:
        shutil.rmtree(work, ignore_errors=True)

    failed = sum(1 for _, ok, _ in RESULTS if not ok)
    print(f"{len(RESULTS) - failed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
