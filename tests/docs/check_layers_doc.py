#!/usr/bin/env python3
"""Checks that docs/architecture.md describes exactly the layers of cmake/layers.txt: its
section "## Layers and arrows" has one bullet "- **name**" per layer, no more, no fewer, in
the file's order. The arrows themselves are read from cmake/layers.txt, never copied.

    tests/docs/check_layers_doc.py ROOT    exit 1 naming what differs (ctest docs-layers)
"""

import os
import re
import sys


def layers(root):
    names = []
    with open(os.path.join(root, "cmake", "layers.txt"), encoding="utf-8") as f:
        for line in f:
            line = line.split("#", 1)[0].split()
            if line:
                names.append(line[0])
    return names


def described(root):
    names, inside = [], False
    with open(os.path.join(root, "docs", "architecture.md"), encoding="utf-8") as f:
        for line in f:
            if line.startswith("## "):
                inside = line.strip() == "## Layers and arrows"
            bullet = re.match(r"^- \*\*([a-z_]+)\*\*", line)
            if inside and bullet:
                names.append(bullet.group(1))
    return names


def main(argv):
    if len(argv) != 1:
        sys.exit(__doc__)
    want, have = layers(argv[0]), described(argv[0])
    if want == have:
        print(f"docs/architecture.md describes the {len(want)} layers of cmake/layers.txt")
        return 0
    missing = [n for n in want if n not in have]
    extra = [n for n in have if n not in want]
    if missing:
        print("docs/architecture.md does not describe the layers: " + ", ".join(missing))
    if extra:
        print("docs/architecture.md describes layers cmake/layers.txt does not have: "
              + ", ".join(extra))
    if not missing and not extra:
        print("docs/architecture.md lists the layers in another order than cmake/layers.txt: "
              + " ".join(have))
    print("Describe each layer of cmake/layers.txt in the section \"Layers and arrows\" as a "
          "bullet \"- **name** (folder): its job\", in the file's order.")
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
