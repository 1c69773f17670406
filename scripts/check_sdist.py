#!/usr/bin/env python3
"""Check that a `puzzle_search` source distribution can build: every file a crate embeds with
`include_str!`/`include_bytes!` in its library code (src/, outside `#[cfg(test)]`) is in the archive at the path the
macro names, and each embedded data folder keeps its README (the data's source and terms).

    scripts/check_sdist.py dist/puzzle_search-0.1.0.tar.gz
"""

import posixpath
import re
import sys
import tarfile

INCLUDE = re.compile(r'include_(?:str|bytes)!\("([^"]+)"\)')


def main() -> int:
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    with tarfile.open(sys.argv[1]) as archive:
        names = set(archive.getnames())
        root = min(names, key=len).split("/")[0]
        missing, folders = [], set()
        for name in sorted(names):
            # What pip builds: the crates' src/, without test-only modules (test_*.rs).
            if not name.endswith(".rs") or "/src/" not in name or posixpath.basename(name).startswith("test_"):
                continue
            text = archive.extractfile(name).read().decode("utf-8")
            text = text.split("#[cfg(test)]")[0]  # test modules are not built by pip
            for target in INCLUDE.findall(text):
                path = posixpath.normpath(posixpath.join(posixpath.dirname(name), target))
                if path not in names:
                    missing.append(f"{name}: {target} -> {path}")
                folders.add(posixpath.dirname(path))
        for folder in sorted(folders):
            if not any(posixpath.join(folder, readme) in names for readme in ("README.md", "LICENSE")):
                missing.append(f"{folder}: no README.md or LICENSE beside the data")
    if missing:
        print("the sdist lacks:\n  " + "\n  ".join(missing), file=sys.stderr)
        return 1
    print(f"{sys.argv[1]}: {len(folders)} data folders, every embedded file present (root {root}/)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
