#!/usr/bin/env python3
"""The structure check (ARCHITECTURE.md's invariants), run by scripts/test.sh.

Fails on:
  - an import circle between top-level modules of the core (crates/schedlab_core/src/*);
  - an import circle between files of the page (web/src/**.rs);
  - an import between the v1.17 and v1.35 schedulers (`v117/` <-> `v135/`), `translate.rs`
    being the one file that sees both;
  - a function longer than 150 lines (from its `fn` line to its closing brace), anywhere in
    the workspace's Rust.

`--report` prints the figures the closing notes quote (circles, `pub` items, the longest
functions) without failing. Reads files as text: a small Rust lexer drops comments and
literals, then `use` trees and `crate::`/`super::` paths are resolved to files.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORE = ROOT / "crates" / "schedlab_core" / "src"
WEB = ROOT / "web" / "src"
RUST_DIRS = ["crates", "web", "tests", "fuzz"]
MAX_FUNCTION_LINES = 150
# The one file of the core that may see both schedulers.
BOTH_VERSIONS = {"translate"}
VERSION_MODULES = ("v117", "v135")


# --- lexing ---------------------------------------------------------------------------------


def strip_code(text: str) -> str:
    """The text with comments, strings and char literals blanked (newlines kept)."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif text.startswith("/*", i):
            depth, j = 1, i + 2
            while j < n and depth:
                if text.startswith("/*", j):
                    depth, j = depth + 1, j + 2
                elif text.startswith("*/", j):
                    depth, j = depth - 1, j + 2
                else:
                    j += 1
            out.append(blank(text[i:j]))
            i = j
        elif c == "r" and re.match(r'r#*"', text[i:i + 260]) and not ident_char(text, i - 1):
            m = re.match(r'r(#*)"', text[i:])
            hashes = m.group(1)
            end = text.find('"' + hashes, i + len(m.group(0)))
            j = n if end < 0 else end + 1 + len(hashes)
            out.append(blank(text[i:j]))
            i = j
        elif c == "b" and i + 1 < n and text[i + 1] in "\"'" and not ident_char(text, i - 1):
            out.append(" ")
            i += 1
        elif c == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            j += 1
            out.append(blank(text[i:j]))
            i = j
        elif c == "'":
            m = re.match(r"'(\\(x..|u\{[0-9a-fA-F]+\}|.)|[^\\'])'", text[i:i + 12])
            if m:
                out.append(" " * len(m.group(0)))
                i += len(m.group(0))
            else:  # a lifetime or a label
                out.append(c)
                i += 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def drop_test_code(code: str) -> tuple[str, list[str]]:
    """The code with every `#[cfg(test)]` item blanked, and the names of the `mod x;` among
    them (test-only files). Tests may import anything; the graph is the shipped code's."""
    test_mods = []
    for m in list(re.finditer(r"#\[cfg\((?:all\()?test\b[^\]]*\]", code)):
        i = m.end()
        semi, brace = code.find(";", i), code.find("{", i)
        if semi >= 0 and (brace < 0 or semi < brace):
            item = code[i:semi]
            mm = re.search(r"\bmod\s+(\w+)\s*$", item)
            if mm:
                test_mods.append(mm.group(1))
            end = semi + 1
        else:
            depth, j = 0, brace
            while j < len(code):
                if code[j] == "{":
                    depth += 1
                elif code[j] == "}":
                    depth -= 1
                    if depth == 0:
                        break
                j += 1
            end = j + 1
        code = code[:m.start()] + blank(code[m.start():end]) + code[end:]
    return code, test_mods


def ident_char(text: str, i: int) -> bool:
    return i >= 0 and (text[i].isalnum() or text[i] == "_")


def blank(s: str) -> str:
    return re.sub(r"[^\n]", " ", s)


# --- modules and their files ----------------------------------------------------------------


def module_path(src: Path, file: Path) -> tuple[str, ...]:
    """`src/a/b.rs` -> (a, b); `src/a/mod.rs` -> (a,); `lib.rs`/`main.rs` -> ()."""
    parts = list(file.relative_to(src).with_suffix("").parts)
    if parts[-1] == "mod" or (len(parts) == 1 and parts[0] in ("lib", "main")):
        parts = parts[:-1]
    return tuple(parts)


class Crate:
    """The files of one crate's `src/`, their module paths, and the paths each one names."""

    def __init__(self, src: Path):
        self.src = src
        self.files = sorted(p for p in src.rglob("*.rs"))
        self.modules: dict[tuple[str, ...], Path] = {}
        self.code: dict[Path, str] = {}
        test_only: set[tuple[str, ...]] = set()
        for f in self.files:
            self.modules.setdefault(module_path(src, f), f)
            code, test_mods = drop_test_code(strip_code(f.read_text(encoding="utf-8")))
            self.code[f] = code
            here = module_path(src, f)
            base = here if f.name in ("mod.rs", "lib.rs", "main.rs") else here
            test_only.update(base + (m,) for m in test_mods)
        # Files of `#[cfg(test)] mod x;` modules are test code: not part of the graph.
        self.files = [
            f for f in self.files
            if not any(module_path(src, f)[:len(t)] == t for t in test_only)
        ]
        # `#[path = "..."]` modules: declared in one file, living in another.
        for f in self.files:
            raw = f.read_text(encoding="utf-8")
            for m in re.finditer(r'#\[path\s*=\s*"([^"]+)"\]\s*(?:pub(?:\([^)]*\))?\s+)?mod\s+(\w+)', raw):
                target = (f.parent / m.group(1)).resolve()
                here = module_path(src, f) if f.name in ("mod.rs", "lib.rs", "main.rs") else module_path(src, f)
                self.modules[here + (m.group(2),)] = target
        self.reexports = {f: reexports(self.code[f]) for f in self.files}

    def file_of(self, path: tuple[str, ...]) -> Path | None:
        """The file that defines the item at `path`: the longest module prefix, followed
        through `pub use` re-exports of a module's own children."""
        for k in range(len(path), -1, -1):
            f = self.modules.get(path[:k])
            if f is None:
                continue
            rest = path[k:]
            if rest:
                child = self.reexports.get(f, {}).get(rest[0])
                if child is not None:
                    mod = path[:k] + child
                    target = self.file_of(mod + rest[1:]) if mod != path[:k] else None
                    if target is not None:
                        return target
            return f
        return None

    def children(self, module: tuple[str, ...]) -> set[str]:
        """The names of `module`'s child modules."""
        return {m[len(module)] for m in self.modules if len(m) == len(module) + 1 and m[:len(module)] == module}

    def edges(self, f: Path) -> set[tuple[str, ...]]:
        """Every absolute module path the file `f` names (through `use`, `crate::` or
        `super::`)."""
        here = module_path(self.src, f)
        is_dir_module = f.name in ("mod.rs", "lib.rs", "main.rs")
        base = here if is_dir_module else here[:-1] if here else ()
        self_mod = here
        out = set()
        code = self.code[f]
        children = self.children(here if is_dir_module else here)
        for tree in use_trees(code):
            for p in tree:
                r = resolve(p, self_mod, base)
                if r is None and p and p[0].split(" as ")[0].strip() in children:
                    # `use child::Item`: a bare path to one of this module's own children.
                    r = self_mod + tuple(x.split(" as ")[0].strip() for x in p if x not in ("*", "self"))
                if r is not None:
                    out.add(r)
        for m in re.finditer(r"(?<![\w:])((?:crate|super|self)(?:\s*::\s*\w+)+)", code):
            p = [s.strip() for s in m.group(1).split("::")]
            r = resolve(p, self_mod, base)
            if r is not None:
                out.add(r)
        return out


def reexports(code: str) -> dict[str, tuple[str, ...]]:
    """`pub use child::{A, b::B}` in a module: item name -> the child module path (relative)."""
    out = {}
    for m in re.finditer(r"\bpub(?:\([^)]*\))?\s+use\s+([^;]+);", code):
        for p in expand_use(m.group(1)):
            if len(p) >= 2 and p[0] not in ("crate", "super", "self", "std", "core"):
                name = p[-1].split(" as ")[-1].strip()
                out[name] = tuple(p[:-1])
            elif len(p) >= 3 and p[0] == "self":
                out[p[-1]] = tuple(p[1:-1])
    return out


def use_trees(code: str):
    for m in re.finditer(r"\buse\s+([^;]+);", code):
        yield expand_use(m.group(1))


def expand_use(tree: str) -> list[list[str]]:
    """`a::{b, c::{d, e}}` -> [[a, b], [a, c, d], [a, c, e]]."""
    tree = re.sub(r"\s+", " ", tree).strip()

    def parse(s: str, prefix: list[str]) -> list[list[str]]:
        s = s.strip()
        if not s:
            return []
        i = s.find("{")
        if i < 0:
            segs = [x.strip() for x in s.split("::") if x.strip()]
            return [prefix + segs]
        head = [x.strip() for x in s[:i].split("::") if x.strip()]
        inner = s[i + 1:s.rfind("}")]
        out = []
        for part in split_top(inner):
            out.extend(parse(part, prefix + head))
        return out

    return parse(tree, [])


def split_top(s: str) -> list[str]:
    parts, depth, cur = [], 0, ""
    for c in s:
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
        if c == "," and depth == 0:
            parts.append(cur)
            cur = ""
        else:
            cur += c
    parts.append(cur)
    return [p for p in parts if p.strip()]


def resolve(p: list[str], here: tuple[str, ...], base: tuple[str, ...]) -> tuple[str, ...] | None:
    """A path as written -> an absolute module path, or None for other crates and std."""
    p = [x.split(" as ")[0].strip() for x in p]
    if not p:
        return None
    if p[0] == "crate":
        return tuple(x for x in p[1:] if x not in ("*", "self"))
    if p[0] == "self":
        return here + tuple(x for x in p[1:] if x not in ("*", "self"))
    if p[0] == "super":
        cur = list(base)
        i = 0
        while i < len(p) and p[i] == "super":
            # `base` is already the parent of a file module, the module itself for a mod.rs
            if i > 0 or here == tuple(base):
                if not cur:
                    return None
                cur.pop()
            i += 1
        return tuple(cur) + tuple(x for x in p[i:] if x not in ("*", "self"))
    return None


def rel(f: Path) -> str:
    """`f` as the messages name it: relative to the repository when inside it."""
    try:
        return str(f.resolve().relative_to(ROOT))
    except ValueError:
        return str(f)


# --- graphs ---------------------------------------------------------------------------------


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one node (Tarjan), each sorted."""
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]
    sys.setrecursionlimit(10000)

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return sorted(out)


def core_graph(crate: Crate) -> tuple[dict[str, set[str]], dict[tuple[str, str], list[str]]]:
    """Top-level module -> the top-level modules it imports, and which files do it."""
    graph: dict[str, set[str]] = {}
    why: dict[tuple[str, str], list[str]] = {}
    for f in crate.files:
        here = module_path(crate.src, f)
        if not here:
            continue
        top = here[0]
        graph.setdefault(top, set())
        for target in crate.edges(f):
            if target and target[0] != top and (target[0],) in crate.modules:
                graph[top].add(target[0])
                why.setdefault((top, target[0]), []).append(rel(f))
    return graph, why


def file_graph(crate: Crate) -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {}
    for f in crate.files:
        name = rel(f)
        graph.setdefault(name, set())
        for target in crate.edges(f):
            g = crate.file_of(target)
            if g is not None and g != f:
                graph[name].add(rel(Path(g).resolve()))
    return graph


# --- functions ------------------------------------------------------------------------------


def long_functions(limit: int, root: Path = ROOT, dirs=RUST_DIRS) -> list[tuple[int, str, str]]:
    out = []
    for d in dirs:
        for f in sorted((root / d).rglob("*.rs")):
            if "target" in f.parts:
                continue
            code = strip_code(f.read_text(encoding="utf-8"))
            for length, line, name in functions(code):
                if length > limit:
                    out.append((length, f"{f.relative_to(root)}:{line}", name))
    return sorted(out, reverse=True)


def functions(code: str):
    """(lines, first line, name) of every `fn` with a body."""
    for m in re.finditer(r"\bfn\s+(\w+)", code):
        # the body's `{`: the first at bracket depth 0 after the name, unless a `;` comes first
        i, depth = m.end(), 0
        while i < len(code):
            c = code[i]
            if c in "([<" and not (c == "<" and code[i - 1] == "-"):
                depth += 1 if c != "<" else 0
            if c in "([":
                pass
            if c in ")]":
                depth -= 1
            if c == "(" or c == "[":
                pass
            if depth == 0 and c == ";":
                i = -1
                break
            if depth == 0 and c == "{":
                break
            i += 1
        if i < 0 or i >= len(code):
            continue
        start_line = code.count("\n", 0, m.start()) + 1
        j, braces = i, 0
        while j < len(code):
            if code[j] == "{":
                braces += 1
            elif code[j] == "}":
                braces -= 1
                if braces == 0:
                    break
            j += 1
        end_line = code.count("\n", 0, j) + 1
        yield end_line - start_line + 1, start_line, m.group(1)


# --- pub items ------------------------------------------------------------------------------


def pub_items(src: Path) -> int:
    n = 0
    for f in src.rglob("*.rs"):
        n += len(re.findall(r"(?<![\w(])pub\s+(?!\()", strip_code(f.read_text(encoding="utf-8"))))
    return n


# --- main -----------------------------------------------------------------------------------


def find_problems(core_src: Path, web_src: Path, root: Path, dirs) -> tuple[list[str], dict]:
    """Every broken rule, worded for a reader, and the figures `--report` prints."""
    problems = []
    core = Crate(core_src)
    graph, why = core_graph(core)
    core_cycles = cycles(graph)
    for c in core_cycles:
        detail = "; ".join(
            f"{a} -> {b} ({why[(a, b)][0]})"
            for a in c for b in sorted(graph[a]) if b in c
        )
        problems.append(f"import circle among the core's modules {' <-> '.join(c)}: {detail}")

    for f in core.files:
        here = module_path(core.src, f)
        if not here or here[0] not in VERSION_MODULES:
            continue
        other = VERSION_MODULES[1 - VERSION_MODULES.index(here[0])]
        for target in core.edges(f):
            if target and target[0] == other:
                problems.append(
                    f"{rel(f)} imports {'::'.join(target)}: "
                    f"{here[0]}/ and {other}/ never import each other"
                )

    web = Crate(web_src)
    web_cycles = cycles(file_graph(web))
    for c in web_cycles:
        problems.append("import circle among the page's files: " + " <-> ".join(c))

    longs = long_functions(MAX_FUNCTION_LINES, root, dirs)
    for length, where, name in longs:
        problems.append(f"{where}: fn {name} is {length} lines (at most {MAX_FUNCTION_LINES})")
    figures = {"core": core, "core_cycles": core_cycles, "web_cycles": web_cycles, "longs": longs}
    return problems, figures


def self_test() -> int:
    """The check finds what it must: a tree with one import circle in the core, one in the
    page, a v1.17 file importing v1.35, and a 151-line function, and nothing in a clean tree."""
    import tempfile

    def tree(files: dict[str, str]) -> Path:
        root = Path(tempfile.mkdtemp())
        for name, text in files.items():
            (root / name).parent.mkdir(parents=True, exist_ok=True)
            (root / name).write_text(text)
        return root

    clean = {
        "core/lib.rs": "mod a;\nmod b;\nmod v117;\nmod v135;\n",
        "core/a.rs": "use crate::b::B;\npub fn f() {}\n",
        "core/b.rs": "pub struct B;\n",
        "core/v117/mod.rs": "use crate::b::B;\n",
        "core/v135/mod.rs": "use crate::a::f;\n",
        "web/lib.rs": "mod x;\nmod y;\n",
        "web/x.rs": "use crate::y::Y;\n",
        "web/y.rs": "pub struct Y;\n",
    }
    broken = dict(clean)
    broken["core/b.rs"] = "use crate::a::f; // an import back\npub struct B;\n"
    broken["core/v117/mod.rs"] = "use crate::v135::Plugin;\n"
    broken["web/y.rs"] = "use crate::x;\npub struct Y;\n"
    broken["core/long.rs"] = "fn long() {\n" + "    let _ = 1;\n" * 149 + "}\n"
    failures = []
    root = tree(clean)
    found, _ = find_problems(root / "core", root / "web", root, ["core", "web"])
    if found:
        failures.append(f"a clean tree has problems: {found}")
    root = tree(broken)
    found, _ = find_problems(root / "core", root / "web", root, ["core", "web"])
    for wanted in ["import circle among the core's modules a <-> b",
                   "core/v117/mod.rs imports v135::Plugin",
                   "import circle among the page's files",
                   "fn long is 151 lines"]:
        if not any(wanted in p for p in found):
            failures.append(f"not found: {wanted!r} in {found}")
    for f in failures:
        print("self-test:", f)
    print("scripts/architecture.py --self-test:", "failed" if failures else "ok")
    return 1 if failures else 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--report", action="store_true", help="print the figures, never fail")
    ap.add_argument("--self-test", action="store_true", help="check the checks on small trees")
    args = ap.parse_args()
    if args.self_test:
        return self_test()
    problems, figures = find_problems(CORE, WEB, ROOT, RUST_DIRS)
    core, core_cycles, web_cycles, longs = (
        figures["core"], figures["core_cycles"], figures["web_cycles"], figures["longs"])

    if args.report:
        print(f"core: {len(core_cycles)} import circle(s) among top-level modules")
        for c in core_cycles:
            print("  " + " <-> ".join(c))
        print(f"page: {len(web_cycles)} import circle(s) among files")
        for c in web_cycles:
            print("  " + " <-> ".join(x.removeprefix("web/src/") for x in c))
        print(f"core pub items: {pub_items(CORE)}")
        top_mods = sorted({m[0] for m in core.modules if m})
        pub_mods = re.findall(r"^pub mod (\w+)", (CORE / "lib.rs").read_text(), re.M)
        print(f"core top-level modules: {len(top_mods)}, pub: {len(pub_mods)}")
        print(f"functions over {MAX_FUNCTION_LINES} lines: {len(longs)}")
        for length, where, name in long_functions(100)[:25]:
            print(f"  {length:4}  {name}  {where}")
        return 0
    for p in problems:
        print(p)
    if problems:
        print(f"scripts/architecture.py: {len(problems)} problem(s)")
        return 1
    print("scripts/architecture.py: no import circle, no v1.17/v1.35 import, no function over "
          f"{MAX_FUNCTION_LINES} lines")
    return 0


if __name__ == "__main__":
    sys.exit(main())
