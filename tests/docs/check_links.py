#!/usr/bin/env python3
"""Checks every relative link of README.md and docs/*.md: the file it names exists, and an
anchor (#section) names a heading of that file (GitHub's rule for heading anchors). A path of
the repository written as code (`ui/tasks/latest_task.hpp`, `mhaviz/core/forward/forward.hpp` for
core/include/mhaviz/core/forward/forward.hpp) must exist too, so that a moved file is noticed.

    tests/docs/check_links.py ROOT     exit 1 and one line per broken link, FILE:LINE: ...

Links inside code (fenced blocks and `code spans`) are not links; http(s) and mailto links are
not followed. Code spans are taken as paths only when they start with a top-level folder and
hold no pattern characters (`build/gallery/*.png` is not checked, nor is anything in build/). Python's standard library only (ctest docs-links).
"""

import os
import re
import sys

LINK = re.compile(r"!?\[(?:[^\]\\]|\\.)*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
FENCE = re.compile(r"^\s*(```|~~~)")
CODE_SPAN = re.compile(r"(`+)(?:(?!\1).)+\1")
EXTERNAL = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")
PATH_SPAN = re.compile(r"`([^`\s]+)`")
TOP_FOLDERS = ("core/", "ui/", "app/", "tests/", "scripts/", "cmake/", "tools/", "resources/",
               "docs/", "mhaviz/core/")


def pages(root):
    found = [os.path.join(root, "README.md")]
    for folder, _, files in os.walk(os.path.join(root, "docs")):
        found += [os.path.join(folder, f) for f in sorted(files) if f.endswith(".md")]
    return [p for p in found if os.path.isfile(p)]


def outside_fences(path):
    """(line number, text) of every line of `path` outside fenced code blocks."""
    in_fence = None
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            fence = FENCE.match(line)
            if fence and in_fence is None:
                in_fence = fence.group(1)
            elif fence and fence.group(1) == in_fence:
                in_fence = None
            elif in_fence is None:
                yield number, line


def slug(heading):
    """GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = CODE_SPAN.sub(lambda m: m.group(0).strip("`"), heading.strip().lower())
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)  # a link's text only
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


ANCHORS = {}


def anchors(path):
    """The anchors of the headings of `path` (a repeated heading gets -1, -2, ...)."""
    if path not in ANCHORS:
        names, counts = set(), {}
        for _, line in outside_fences(path):
            heading = re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)
            if heading:
                base = slug(heading.group(1))
                n = counts.get(base, 0)
                counts[base] = n + 1
                names.add(base if n == 0 else f"{base}-{n}")
        ANCHORS[path] = names
    return ANCHORS[path]


def check(root):
    problems, count = [], 0
    for page in pages(root):
        shown = os.path.relpath(page, root)
        for number, line in outside_fences(page):
            for span in PATH_SPAN.findall(line):
                path = span.rstrip(".,;:")
                if not path.startswith(TOP_FOLDERS) or re.search(r"[<>*?{}\[\]|]", path):
                    continue
                count += 1
                inside = "core/include/" + path if path.startswith("mhaviz/core/") else path
                if not os.path.exists(os.path.join(root, inside)):
                    problems.append(f"{shown}:{number}: `{span}`: no file or folder {inside}")
            for target in LINK.findall(CODE_SPAN.sub("", line)):
                if EXTERNAL.match(target):
                    continue
                count += 1
                file_part, _, anchor = target.partition("#")
                path = os.path.normpath(os.path.join(os.path.dirname(page), file_part)) \
                    if file_part else page
                if not os.path.exists(path):
                    problems.append(f"{shown}:{number}: {target}: no file "
                                    f"{os.path.relpath(path, root)}")
                elif anchor and path.endswith(".md") and anchor not in anchors(path):
                    problems.append(f"{shown}:{number}: {target}: "
                                    f"{os.path.relpath(path, root)} has no heading #{anchor}")
    return problems, count


def main(argv):
    if len(argv) != 1:
        sys.exit(__doc__)
    problems, count = check(os.path.abspath(argv[0]))
    for p in problems:
        print(p)
    print(f"{count} relative links and paths checked, {len(problems)} broken")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
