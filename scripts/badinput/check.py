#!/usr/bin/env python3
"""Bad input, table-driven (`make badinput`). Exits 1 when a row fails.

The tables of command-line fields, plain mode, CSV files and server answers are Swift tests
(Tests/FitIQCLITests/BadInputCLITests.swift). This one, against the real `fitiq-tui` and
`fitiq-dev-server`:

  - editor input: bad values typed into the editor's fields (in tmux) and into its registration
    form. A value that breaks a rule must show a message under the field naming the field and the
    rule, and queue nothing; an escape sequence or invalid UTF-8 typed into a field must not reach
    the terminal (its title and screen stay) nor the saved value.

Then the two tables of random mutations in mutate.py: 1,000 mutants of a real account cache file
and 1,000 mutated server answers (--seed and --mutations are passed on; --mutations 0 skips them).

Usage: check.py --bin-dir DIR [--seed N] [--mutations N]     (DIR holds fitiq-tui and fitiq-dev-server)
Only the Python standard library is used.
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import fitiqtools  # noqa: E402
import mutate  # noqa: E402

ROWS = []


def row(table, case, ok, detail):
    ROWS.append((table, case, ok, detail))


def clean(text):
    """Whether printed text holds no escape or other control byte (newline and tab allowed)."""
    return not any(ord(ch) < 32 and ch not in "\n\t" or ord(ch) == 127 for ch in text)


PROFILE_FIELDS = ["Name", "Bio", "Unit system", "Language", "Height", "Weight", "Body fat"]  # in Tab order
LABELS = PROFILE_FIELDS + ["BMI", "Date of birth", "Biological sex", "Email", "Password"]


def complete(message):
    """Whether a message under a field has been drawn whole: every rule message is a sentence ending
    in a full stop, so a screen caught while the message is still being painted does not count."""
    return message.endswith(".")


def field_message(rows, label):
    """The message shown under a field ("! <label> ..."), its wrapped lines joined; "" when none."""
    for index, line in enumerate(rows):
        start = line.find(f"! {label}")
        if start < 0:
            continue
        end = line.find("│", start)
        parts = [line[start:end if end > 0 else None].strip()]
        for following in rows[index + 1:]:
            part = following[start:end if end > 0 else None].strip()
            if not part or "─" in part or any(part.startswith(name + "  ") or part == name for name in LABELS):
                break
            parts.append(part)
        return " ".join(parts)
    return ""


def shown(rows, label):
    """The value a profile row shows next to its label."""
    for line in rows:
        at = line.find(f"›{label} ")
        if at >= 0:
            return line[at + len(label) + 1:].split("│")[0].strip()
    return ""


def editor_rows(tui, env, work, pending):
    """The editor's fields, typed into in tmux; each row on a fresh editor."""
    title = None

    def profile_row(case, label, keys, rule_broken, saves=False, confirm=True):
        nonlocal title
        before = pending()
        editor = fitiqtools.Editor(tui, env, "badinput")
        try:
            editor.wait_until("the profile", lambda rows: any("›Name" in line for line in rows))
            title = title or editor.title()
            editor.keys(*["Tab"] * PROFILE_FIELDS.index(label))
            if label == "Language":
                editor.keys("Enter")  # the list of languages, filtered by what is typed
                editor.wait_until("the language list", lambda rows: any("English" in line for line in rows))
            else:
                editor.keys("Enter")
                editor.wait_until("the field in edit mode", lambda rows: any("Enter confirm" in line for line in rows))
                editor.keys("C-u")
            for kind, value in keys:
                if kind == "text":
                    editor.type(value)
                else:
                    editor.keys("-H", *value)
            if confirm:
                editor.keys("Enter")
            if label == "Language" or saves:
                editor.wait_until("the draft", lambda rows: f"›{label}" in "".join(rows) and any(
                    f"›{label}" in line and " *" in line for line in rows))
                editor.keys("C-s")
            if rule_broken:
                screen = editor.wait_until(f"a whole message under {label}",
                                           lambda rows: complete(field_message(rows, label)), timeout=20).splitlines()
                said = field_message(screen, label)
                ok = pending() == before and editor.title() == title
                row("editor", case, ok, said)
            else:
                screen = editor.wait_until("the value saved", lambda rows: any("Profile" in line for line in rows[:3])
                                           and any(f"›{label}" in line and " *" not in line for line in rows),
                                           timeout=20).splitlines()
                stored = json.loads(subprocess.run([tui, "profile", "show", "--json"], env=env, capture_output=True,
                                                   text=True).stdout or "{}")
                value = stored.get(label.lower(), "")
                ok = (clean(value) and clean(shown(screen, label)) and editor.title() == title
                      and any("Profile" in line for line in screen[:3]))
                row("editor", case, ok, f"{label} saved as {value!r}; the terminal's title and screen stayed")
        except (RuntimeError, subprocess.CalledProcessError) as error:
            row("editor", case, False, str(error).splitlines()[0])
        finally:
            editor.close()

    def register_row(case, email, password, name, birth, label):
        home = tempfile.mkdtemp(prefix="register-", dir=work)
        unregistered = fitiqtools.user_env(home, FITIQ_API_KEY=env["FITIQ_API_KEY"], FITIQ_SERVER=env["FITIQ_SERVER"])
        editor = fitiqtools.Editor(tui, unregistered, "badinput-register")
        try:
            editor.wait_until("the sign-in form", lambda rows: any("Email" in line for line in rows))
            editor.keys("C-r")
            editor.wait_until("the registration form", lambda rows: any("Date of birth" in line for line in rows))
            for index, text in enumerate((email, password, name, birth)):
                if index:
                    editor.keys("Tab")
                editor.type(text)
            editor.keys("Enter")
            screen = editor.wait_until(f"a whole message under {label}",
                                       lambda rows: complete(field_message(rows, label)), timeout=20).splitlines()
            nothing_kept = not os.path.exists(os.path.join(home, "state", "fitiq"))
            row("editor", case, nothing_kept, field_message(screen, label))
        except (RuntimeError, subprocess.CalledProcessError) as error:
            row("editor", case, False, str(error).splitlines()[0])
        finally:
            editor.close()

    twelve = time.strftime("%Y-%m-%d", time.gmtime(time.time() - 12.5 * 365.25 * 86400))
    profile_row("name empty", "Name", [], True)
    profile_row("name whitespace", "Name", [("text", "   ")], True)
    # The field takes no more than the limit: the message shows as the extra character is typed.
    profile_row("name 101 characters", "Name", [("text", "n" * 101)], True, confirm=False)
    profile_row("bio 501 characters", "Bio", [("text", "b" * 501)], True, confirm=False)
    profile_row("language xx-invalid-!!", "Language", [("text", "xx-invalid-!!")], True)
    for height in ("abc", "-5", "0", "1e9", "5'13\""):
        profile_row(f"height {height}", "Height", [("text", height)], True)
    for weight in ("abc", "700", "1 kg", "72 stone", "11 st 15 lb"):
        profile_row(f"weight {weight}", "Weight", [("text", weight)], True)
    for fat in ("abc", "80", "0.5 %", "18 kg"):
        profile_row(f"body fat {fat}", "Body fat", [("text", fat)], True)
    profile_row("name with escape sequence", "Name", [("text", "Eve\x1b[2J")], False, saves=True)
    profile_row("bio with OSC title", "Bio", [("text", "\x1b]0;pwned\x07 ok")], False, saves=True)
    profile_row("name invalid UTF-8", "Name", [("text", "Ana "), ("hex", ["ff", "fe"]), ("text", "B")], False,
                saves=True)
    register_row("register: future date of birth", "x@example.com", "a-good-password", "X", "2999-01-01",
                 "Date of birth")
    register_row("register: age 12", "y@example.com", "a-good-password", "Y", twelve, "Date of birth")
    register_row("register: bad email", "not-an-email", "a-good-password", "Z", "1990-01-01", "Email")


def main():
    parser = argparse.ArgumentParser(description="Bad input, table-driven.")
    parser.add_argument("--bin-dir", required=True)
    parser.add_argument("--seed", type=int, default=mutate.DEFAULT_SEED, help="seed of the random mutations")
    parser.add_argument("--mutations", type=int, default=1000, help="mutants per random table (0: none)")
    args = parser.parse_args()
    bin_dir = os.path.abspath(args.bin_dir)
    tui = os.path.join(bin_dir, "fitiq-tui")
    work = tempfile.mkdtemp(prefix="fitiq-badinput-")
    server = None
    try:
        api_key = "bad-" + os.urandom(8).hex()
        env = fitiqtools.user_env(os.path.join(work, "home"), FITIQ_API_KEY=api_key)
        server, url = fitiqtools.start_server(bin_dir, dict(env, FITIQ_DEV_API_KEY=api_key),
                                              "--log-level", "error", "--bcrypt-cost", "4")

        def run(arguments, stdin=None, timeout=60):
            started = time.perf_counter()
            result = subprocess.run([os.fsencode(tui)] + [a if isinstance(a, bytes) else a.encode() for a in arguments],
                                    input=stdin.encode() if stdin else None, env=env, capture_output=True,
                                    timeout=timeout)
            text = (result.stdout + result.stderr).decode("utf-8", "replace")
            return result.returncode, text, time.perf_counter() - started

        status, text, _ = run(["register", "--server", url, "--email", "bad@example.com", "--name", "Good Name",
                               "--date-of-birth", "1990-01-01"], stdin="a-good-password\n")
        if status != 0:
            raise RuntimeError(f"register failed: {text}")

        def pending():
            status, text, _ = run(["status", "--json"])
            return json.loads(text)["pendingChanges"] if status == 0 else None

        editor_rows(tui, dict(env, FITIQ_SERVER=url), work, pending)
    finally:
        fitiqtools.stop(server)
        shutil.rmtree(work, ignore_errors=True)

    failed = 0
    print(f"| {'table':<13} | {'case':<32} | result | what the user read |")
    print(f"|{'-' * 15}|{'-' * 34}|--------|{'-' * 20}|")
    for table, case, ok, detail in ROWS:
        failed += not ok
        print(f"| {table:<13} | {case:<32} | {'ok' if ok else 'FAIL':<6} | {detail.replace('|', '/')} |")
    print(f"\n{len(ROWS) - failed} of {len(ROWS)} rows ok")
    if args.mutations > 0:
        mutants_failed = mutate.run(bin_dir, args.seed, args.mutations)
        print(f"\n{mutants_failed} mutant{'s' if mutants_failed != 1 else ''} failed")
        failed += mutants_failed
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
