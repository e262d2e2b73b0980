#!/usr/bin/env python3
"""Fails, naming file:line, when a relative link of the docs leads nowhere.

    scripts/check-doc-links.py [FILE.md ...]   (default: README.md, BENCHMARKS.md, RELIABILITY.md,
                                                docs/**/*.md)

Checks every inline link and image (`[text](target)`, `![alt](target)`) and every reference
definition (`[name]: target`) outside code: the file or folder must exist, relative to the page,
and a `#anchor` must be a heading of the target page (or of the page itself), by GitHub's rule:
the heading's text, lower-cased, without punctuation other than `-` and `_`, spaces made `-`, and
`-1`, `-2`, … added to repeats. Web addresses (`http:`, `https:`, `mailto:`) are not checked.

Also checks every `docs/PAGE.md` and `docs/PAGE.md#anchor` cited in the sources (Sources, Tests,
tools, bench, tests, scripts: Swift, C, Python and shell files; the Makefile): the page must exist
and hold the anchor.
Exit status: 0 when every link resolves, 1 otherwise, 2 on bad usage.
"""

import pathlib
import re
import sys
import unicodedata

ROOT = pathlib.Path(__file__).resolve().parent.parent
DEFAULT_PAGES = ["README.md", "BENCHMARKS.md", "RELIABILITY.md"]
SOURCE_FOLDERS = ["Sources", "Tests", "tools", "bench", "tests", "scripts"]
SOURCE_SUFFIXES = {".swift", ".c", ".h", ".py", ".sh"}

FENCE = re.compile(r"^ {0,3}(```+|~~~+)")
HEADING = re.compile(r"^ {0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
INLINE_LINK = re.compile(
    r"!?\[(?:[^\[\]]|\[[^\[\]]*\])*\]"  # the text, one level of brackets inside
    r"\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)"  # (target "title")
)
REFERENCE = re.compile(r"^ {0,3}\[[^\]]+\]:[ \t]*<?([^\s>]+)>?", re.MULTILINE)
CODE_SPAN = re.compile(r"(?<!`)(`+)(?!`)((?:(?!\n[ \t]*\n).)+?)(?<!`)\1(?!`)", re.DOTALL)
HTML_ANCHOR = re.compile(r"<a\s+(?:name|id)=\"([^\"]+)\"")
CITED_PAGE = re.compile(r"(docs/[\w./-]+\.md)(#[\w-]+)?")


def plain_text(heading):
    """The heading as GitHub renders it to text: code, links and emphasis reduced to their text."""
    text = CODE_SPAN.sub(lambda m: m.group(2).strip(), heading)
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", text)
    text = re.sub(r"<[^>]+>", "", text)
    return re.sub(r"(\*\*|__|\*)", "", text)


def slug(heading):
    """GitHub's anchor of a heading (without the -1, -2 of repeats)."""
    kept = []
    for char in plain_text(heading).lower():
        if char in " -_" or unicodedata.category(char)[0] in "LNM":
            kept.append("-" if char == " " else char)
    return "".join(kept)


def lines_outside_code(path):
    """(line number, text) of each line that is not inside a fenced code block."""
    fence = None
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        match = FENCE.match(line)
        if match:
            marker = match.group(1)
            if fence is None:
                fence = marker
            elif marker[0] == fence[0] and len(marker) >= len(fence):
                fence = None
            continue
        if fence is None:
            yield number, line


_anchors = {}


def anchors(path):
    if path not in _anchors:
        found, seen = set(), {}
        for _, line in lines_outside_code(path):
            found.update(HTML_ANCHOR.findall(line))
            match = HEADING.match(line)
            if not match:
                continue
            base = slug(match.group(2))
            count = seen.get(base, 0)
            seen[base] = count + 1
            found.add(base if count == 0 else f"{base}-{count}")
        _anchors[path] = found
    return _anchors[path]


def check_target(page, target):
    """None when the target resolves from the page (a path relative to its folder, or `#anchor` of
    the page itself), else the reason."""
    if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.IGNORECASE):
        return None
    file_part, _, anchor = target.partition("#")
    destination = (page.parent / file_part).resolve() if file_part else page
    if not destination.exists():
        return "no such file or folder"
    if anchor and destination.is_file() and destination.suffix == ".md":
        if anchor not in anchors(destination):
            return f"no heading #{anchor} in {destination.relative_to(ROOT)}"
    return None


def text_outside_code(path):
    """The page with its fenced blocks and code spans blanked out, line breaks kept."""
    lines = path.read_text(encoding="utf-8").splitlines()
    kept = dict(lines_outside_code(path))
    text = "\n".join(kept.get(number, "") for number in range(1, len(lines) + 1))
    return CODE_SPAN.sub(lambda m: "\n" * m.group(0).count("\n"), text)


def check_page(page):
    problems = []
    text = text_outside_code(page)
    found = [(m.start(1), m.group(1)) for m in INLINE_LINK.finditer(text)]
    found += [(m.start(1), m.group(1)) for m in REFERENCE.finditer(text)]
    for offset, target in sorted(found):
        reason = check_target(page, target)
        if reason:
            number = text.count("\n", 0, offset) + 1
            problems.append(f"{page.relative_to(ROOT)}:{number}: {target}: {reason}")
    return problems


def check_source(path):
    problems = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        for page_name, anchor in CITED_PAGE.findall(line):
            reason = check_target(ROOT / page_name, anchor)
            if reason:
                problems.append(f"{path.relative_to(ROOT)}:{number}: {page_name}{anchor}: {reason}")
    return problems


def main(argv):
    if any(arg.startswith("-") for arg in argv):
        print("usage: scripts/check-doc-links.py [FILE.md ...]", file=sys.stderr)
        return 2
    if argv:
        pages = [pathlib.Path(name).resolve() for name in argv]
        sources = []
    else:
        pages = [ROOT / name for name in DEFAULT_PAGES]
        pages += sorted((ROOT / "docs").rglob("*.md"))
        sources = [ROOT / "Makefile"] + [
            path
            for folder in SOURCE_FOLDERS
            for path in sorted((ROOT / folder).rglob("*"))
            if path.suffix in SOURCE_SUFFIXES and path.is_file() and ".build" not in path.parts
        ]
        sources.remove(pathlib.Path(__file__).resolve())  # its docstring names docs/PAGE.md
    problems = []
    for page in pages:
        if not page.is_file():
            print(f"check-doc-links: {page}: no such file", file=sys.stderr)
            return 2
        problems += check_page(page)
    for path in sources:
        problems += check_source(path)
    for problem in problems:
        print(problem)
    checked = f"{len(pages)} pages" + (f" and {len(sources)} source files" if sources else "")
    if problems:
        print(f"check-doc-links: {len(problems)} broken links in {checked}", file=sys.stderr)
        return 1
    print(f"check-doc-links: every link resolves in {checked}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
