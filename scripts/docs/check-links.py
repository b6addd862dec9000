#!/usr/bin/env python3
"""Checks every Markdown link and image of the documentation: README.md, CONTRIBUTING.md and docs/**/*.md.

    python3 scripts/docs/check-links.py

Each inline link and image (`[text](target)`, `![alt](target)`), each reference definition
(`[name]: target`) and each HTML `href`/`src` is checked, outside code blocks and code spans:

- a relative path (to the file, or to the repository's root when it starts with `/`) must name a file
  or folder inside the repository;
- an anchor (`file.md#anchor`, or `#anchor` in the same file) must be the anchor of a heading of that
  Markdown file, by GitHub's rules: the heading's text lowercased, punctuation dropped except `-` and
  `_`, each space a `-`, and `-1`, `-2`, … after a repeated one (or an explicit `id`/`name`);
- `http:`, `https:` and `mailto:` links are not checked; any other scheme is reported.

Prints each broken link as FILE:LINE and exits 1, or prints "N links checked" and exits 0.
Only the Python standard library is used.
"""

import re
import sys
import unicodedata
from pathlib import Path
from urllib.parse import unquote

ROOT = Path(__file__).resolve().parents[2]
IGNORED_SCHEMES = ("http:", "https:", "mailto:")
SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")

FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
ATX_HEADING = re.compile(r"^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$")
SETEXT_UNDERLINE = re.compile(r"^ {0,3}(=+|-+)[ \t]*$")
LIST_OR_BLOCK = re.compile(r"^ {0,3}(?:[-*+>|]|\d+[.)])")
EXPLICIT_ANCHOR = re.compile(r"""<[A-Za-z][^>]*?\s(?:id|name)\s*=\s*["']([^"']+)["']""")

# [text](target "title") and ![alt](target); the text may hold one level of brackets (an image).
_TEXT = r"(?:[^\[\]\\]|\\.|\[(?:[^\[\]\\]|\\.)*\])*"
_TARGET = r"<[^>\n]*>|[^\s()<>]*(?:\([^\s()]*\)[^\s()<>]*)*"
_TITLE = r"""(?:\s+(?:"[^"]*"|'[^']*'|\([^)]*\)))?"""
INLINE_LINK = re.compile(r"(!?)\[(" + _TEXT + r")\]\(\s*(" + _TARGET + r")" + _TITLE + r"\s*\)")
REFERENCE_DEFINITION = re.compile(r"^ {0,3}\[[^\]]+\]:[ \t]*(<[^>\n]*>|\S+)", re.MULTILINE)
HTML_LINK = re.compile(r"""<(?:a|img)\b[^>]*?\s(?:href|src)\s*=\s*["']([^"']*)["']""", re.IGNORECASE)


def documents():
    """The Markdown files checked, relative to the repository's root."""
    files = [ROOT / "README.md", ROOT / "CONTRIBUTING.md"]
    files += sorted((ROOT / "docs").rglob("*.md"))
    return [path for path in files if path.is_file()]


def blank_out(text, start, end):
    """`text` with the characters from `start` to `end` made spaces, line breaks kept."""
    return text[:start] + re.sub(r"[^\n]", " ", text[start:end]) + text[end:]


def prose(text):
    """`text` with fenced code blocks, code spans and HTML comments blanked out, so that what is left
    is read as Markdown; every character keeps its offset, so line numbers stay right."""
    lines = text.split("\n")
    fence = None
    for index, line in enumerate(lines):
        match = FENCE.match(line)
        if fence is None and match:
            fence = match.group(1)
            lines[index] = " " * len(line)
        elif fence is not None:
            closing = match and match.group(1)[0] == fence[0] and len(match.group(1)) >= len(fence)
            if closing and not line.strip().lstrip(fence[0]):
                fence = None
            lines[index] = " " * len(line)
    text = "\n".join(lines)

    for comment in reversed(list(re.finditer(r"<!--[\s\S]*?-->", text))):
        text = blank_out(text, comment.start(), comment.end())

    # Code spans: a run of backticks up to the next run of the same length in the same paragraph.
    position = 0
    while True:
        opening = re.compile(r"(?<!`)(`+)(?!`)").search(text, position)
        if not opening:
            break
        run = opening.group(1)
        closing = re.compile(r"(?<!`)" + run + r"(?!`)").search(text, opening.end())
        if not closing or re.search(r"\n[ \t]*\n", text[opening.end():closing.start()]):
            position = opening.end()
            continue
        text = blank_out(text, opening.start(), closing.end())
        position = closing.end()
    return text


def heading_text(markdown):
    """A heading's text as GitHub renders it: code, links, images, emphasis and tags reduced to text."""
    text = re.sub(r"`+([^`]*)`+", r"\1", markdown)
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", text)
    text = re.sub(r"<[^>]+>", "", text)
    text = re.sub(r"(\*\*|__|\*)(.+?)\1", r"\2", text)
    text = re.sub(r"(?<!\w)_(.+?)_(?!\w)", r"\1", text)
    return text.replace("\\", "")


def slug(text):
    """GitHub's anchor of a heading's text: lowercase, punctuation and symbols dropped except `-` and
    `_`, each space a `-`."""
    kept = []
    for character in heading_text(text).strip().lower():
        category = unicodedata.category(character)
        if character in "-_" or category[0] in "LNM":
            kept.append(character)
        elif character == " ":
            kept.append("-")
    return "".join(kept)


def anchors(path, cache={}):
    """The anchors of a Markdown file's headings (repeated ones numbered, as GitHub does) and its
    explicit `id`s and `name`s."""
    if path in cache:
        return cache[path]
    text = path.read_text(encoding="utf-8")
    lines = prose(text).split("\n")
    raw = text.split("\n")
    found = set()
    seen = {}

    def add(heading):
        base = slug(heading)
        count = seen.get(base, 0)
        seen[base] = count + 1
        found.add(base if count == 0 else f"{base}-{count}")

    for index, line in enumerate(lines):
        if not line.strip():
            continue
        heading = ATX_HEADING.match(line)
        if heading:
            # The blanked line keeps code spans as spaces: the heading's own text is read from the file.
            add(ATX_HEADING.match(raw[index]).group(2) or "")
            continue
        following = lines[index + 1] if index + 1 < len(lines) else ""
        previous = lines[index - 1] if index > 0 else ""
        starts_paragraph = not previous.strip() or ATX_HEADING.match(previous)
        if (SETEXT_UNDERLINE.match(following) and starts_paragraph and not LIST_OR_BLOCK.match(line)
                and not SETEXT_UNDERLINE.match(line)):
            add(raw[index].strip())
    found.update(EXPLICIT_ANCHOR.findall(prose(text)))
    cache[path] = found
    return found


def links(text):
    """(offset, target) of every link, image, reference definition and HTML link of `text`."""
    body = prose(text)
    found = []

    def scan(segment, offset):
        for match in INLINE_LINK.finditer(segment):
            target = match.group(3)
            found.append((offset + match.start(3), target.strip("<>")))
            scan(match.group(2), offset + match.start(2))

    scan(body, 0)
    for match in REFERENCE_DEFINITION.finditer(body):
        found.append((match.start(1), match.group(1).strip("<>")))
    for match in HTML_LINK.finditer(body):
        found.append((match.start(1), match.group(1)))
    return sorted(found)


def problem(document, target):
    """Why `target`, linked from `document`, is broken; `None` when it resolves."""
    if not target:
        return "empty link"
    if target.lower().startswith(IGNORED_SCHEMES):
        return None
    if SCHEME.match(target):
        return "a scheme this check does not follow"
    path_part, _, anchor = target.partition("#")
    path_part = unquote(path_part.split("?", 1)[0])
    if not path_part:
        destination = document
    elif path_part.startswith("/"):
        destination = (ROOT / path_part.lstrip("/")).resolve()
    else:
        destination = (document.parent / path_part).resolve()
    if destination != ROOT and ROOT not in destination.parents:
        return "outside the repository"
    if not destination.exists():
        return "no such file or folder"
    if anchor:
        if destination.is_dir():
            return "an anchor on a folder"
        if destination.suffix.lower() == ".md" and unquote(anchor) not in anchors(destination):
            return f"no heading with the anchor #{anchor} in {destination.relative_to(ROOT)}"
    return None


def main():
    checked = 0
    broken = []
    for document in documents():
        text = document.read_text(encoding="utf-8")
        for offset, target in links(text):
            if target.lower().startswith(IGNORED_SCHEMES):
                continue
            checked += 1
            reason = problem(document, target)
            if reason:
                line = text.count("\n", 0, offset) + 1
                broken.append(f"{document.relative_to(ROOT)}:{line}: {target}: {reason}")
    for entry in broken:
        print(entry)
    if broken:
        print(f"{len(broken)} of {checked} links broken", file=sys.stderr)
        return 1
    print(f"{checked} links checked")
    return 0


if __name__ == "__main__":
    sys.exit(main())
