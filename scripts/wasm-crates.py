#!/usr/bin/env python3
"""The code section of a wasm file, by crate: the size of each function's body, summed by the
first crate its name names (a trait impl `<T as ...>`: T's crate). Needs the name section, which
the release page build strips; build one that keeps it:

    cargo build --profile wasm-release --target wasm32-unknown-unknown -p schedlab_web --bin schedlab_web
    wasm-bindgen --target web --no-typescript --out-dir /tmp/wb \
        target/wasm32-unknown-unknown/wasm-release/schedlab_web.wasm
    python3 scripts/wasm-crates.py /tmp/wb/schedlab_web_bg.wasm 30

Generic code is counted under the crate named first (a `serde_path_to_error` wrapper around a
model type's `Deserialize` counts as `serde_path_to_error`): a rough split, for deciding what a
smaller first load could leave out (docs/benchmarks.md, item 5).
"""
import collections
import re
import sys

data = open(sys.argv[1], 'rb').read()
shown = int(sys.argv[2]) if len(sys.argv) > 2 else 40


def leb(i):
    """An unsigned LEB128 number at `i`, and the index after it."""
    value = shift = 0
    while True:
        byte = data[i]
        i += 1
        value |= (byte & 0x7F) << shift
        shift += 7
        if byte < 0x80:
            return value, i


def name(i):
    """A name (length, then UTF-8) at `i`, and the index after it."""
    length, i = leb(i)
    return data[i:i + length].decode('utf8', 'replace'), i + length


sections = []
i = 8
while i < len(data):
    size, start = leb(i + 1)
    sections.append((data[i], start, size))
    i = start + size

# Imported functions come first in the function index space.
imported = 0
for kind_id, start, size in sections:
    if kind_id != 2:
        continue
    count, k = leb(start)
    for _ in range(count):
        _, k = name(k)
        _, k = name(k)
        kind = data[k]
        k += 1
        if kind == 0:  # function: a type index
            _, k = leb(k)
            imported += 1
        elif kind in (1, 2):  # table (a reference type, then limits) or memory (limits)
            k += kind == 1
            flags, k = leb(k)
            _, k = leb(k)
            if flags & 1:
                _, k = leb(k)
        elif kind == 3:  # global: a value type and mutability
            k += 2
        elif kind == 4:  # tag: an attribute and a type index
            k += 1
            _, k = leb(k)

names = {}
for kind_id, start, size in sections:
    if kind_id != 0:
        continue
    title, k = name(start)
    if title != 'name':
        continue
    end = start + size
    while k < end:
        sub = data[k]
        length, body = leb(k + 1)
        if sub == 1:  # function names
            count, q = leb(body)
            for _ in range(count):
                index, q = leb(q)
                names[index], q = name(q)
        k = body + length

by_crate = collections.Counter()
total = 0
for kind_id, start, size in sections:
    if kind_id == 11:
        print('data section', size)
    if kind_id != 10:
        continue
    count, k = leb(start)
    for f in range(count):
        body_size, body = leb(k)
        full = names.get(imported + f, '?')
        crates = re.findall(r'([a-z_][a-z0-9_]*)(?:\[[0-9a-f]+\])?::', full)
        crate = crates[0] if crates else full.split('::')[0][:30]
        impl = re.match(r'<(?:&(?:mut )?)?([a-z_][a-z0-9_]*)', full)
        if impl:
            crate = impl.group(1)
        by_crate[crate] += body_size
        total += body_size
        k = body + body_size

print('code section', total)
for crate, size in by_crate.most_common(shown):
    print('%9d %5.1f%%  %s' % (size, 100 * size / total, crate))
