#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Every prototype in an installed man page's SYNOPSIS is declared, the same, in an installed
header: a page must not drift from the header it documents.

usage: synopsis_check.py MANDIR INCLUDEDIR
"""
import pathlib
import re
import sys


def normalize(declaration):
    """One spelling per declaration: single spaces, 'T *name', no space before ( , ) ;."""
    text = " ".join(declaration.split())
    text = re.sub(r"\s*\*\s*", " *", text)
    text = re.sub(r"\s*([(),;])\s*", r"\1", text)
    text = text.replace(",", ", ")
    return text.strip()


def header_declarations(include_dir):
    """name -> normalized declarations of every function an installed header declares."""
    found = {}
    for header in sorted(pathlib.Path(include_dir).rglob("*.h")):
        text = header.read_text()
        text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
        text = re.sub(r"//[^\n]*", " ", text)
        text = re.sub(r"^\s*#.*?(?<!\\)$", " ", text, flags=re.M | re.S)
        for match in re.finditer(r"[^;{}]*?\b(\w+)\s*\([^;{}()]*\)\s*(const\s*)?;", text):
            declaration = match.group(0).strip()
            for prefix in ("public:", "private:"):
                declaration = declaration.split(prefix)[-1]
            found.setdefault(match.group(1), set()).add(normalize(declaration))
    return found


def synopsis_prototypes(page_text):
    """The prototypes of a page's SYNOPSIS, font requests and escapes removed, continuation
    lines joined."""
    match = re.search(r"^\.SH SYNOPSIS\n(.*?)^\.SH ", page_text, flags=re.M | re.S)
    if not match:
        return []
    lines = []
    for line in match.group(1).splitlines():
        if line.startswith("."):
            request, _, rest = line.partition(" ")
            if request not in (".B", ".BI", ".BR", ".I", ".IR"):
                continue
            # Arguments alternate fonts and are joined without spaces; quotes keep spaces in.
            line = "".join(quoted or bare for quoted, bare in re.findall(r'"([^"]*)"|(\S+)', rest))
        line = re.sub(r"\\f[BIRP]", "", line).replace("\\-", "-")
        if line.startswith("    ") and lines:
            lines[-1] += " " + line.strip()
        else:
            lines.append(line.strip())
    return [line for line in lines if re.search(r"\b\w+\(.*\)\s*(const)?\s*;$", line)]


def main():
    mandir, include_dir = sys.argv[1], sys.argv[2]
    declared = header_declarations(include_dir)
    failures = checked = 0
    for page in sorted(pathlib.Path(mandir).glob("man*/*")):
        text = page.read_text()
        if text.startswith(".so "):
            continue
        for prototype in synopsis_prototypes(text):
            name = re.search(r"(\w+)\(", prototype).group(1)
            checked += 1
            if normalize(prototype) not in declared.get(name, set()):
                failures += 1
                known = "; the headers say: " + " | ".join(sorted(declared[name])) \
                    if name in declared else "; no installed header declares it"
                print(f"FAIL: {page.name}: '{prototype}'{known}", file=sys.stderr)
    if checked < 200:
        print(f"FAIL: only {checked} prototypes found in the pages' SYNOPSIS", file=sys.stderr)
        failures += 1
    print(f"checked {checked} prototypes")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
