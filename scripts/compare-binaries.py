#!/usr/bin/env python3
"""Times commands interleaved (a, b, c, a, b, c, ...) and prints each one's median, fastest and
slowest wall time and its peak memory (GNU time's maximum resident set size).

Interleaving keeps a noisy VM fair to every command. Example (docs/benchmarks.md):

    python3 scripts/compare-binaries.py 10 \\
      "before=/tmp/before/schedlab validate /tmp/basic/nodes.json /tmp/basic/pods.json" \\
      "now=target/release/schedlab validate /tmp/basic/nodes.json /tmp/basic/pods.json"
"""
import statistics
import subprocess
import sys
import time


def main() -> int:
    if len(sys.argv) < 3 or not sys.argv[1].isdigit():
        print(__doc__, file=sys.stderr)
        return 2
    runs = int(sys.argv[1])
    commands = [arg.split("=", 1) for arg in sys.argv[2:]]
    if any(len(c) != 2 for c in commands):
        print("each command is label=command", file=sys.stderr)
        return 2
    times = {label: [] for label, _ in commands}
    peak = {label: 0 for label, _ in commands}
    for _ in range(runs):
        for label, command in commands:
            start = time.perf_counter()
            done = subprocess.run(
                ["/usr/bin/time", "-f", "%M", "bash", "-c", command + " >/dev/null"],
                stderr=subprocess.PIPE,
                text=True,
            )
            times[label].append(time.perf_counter() - start)
            if done.returncode != 0:
                print(f"{label}: exit {done.returncode}: {done.stderr.strip()}", file=sys.stderr)
                return 1
            peak[label] = max(peak[label], int(done.stderr.strip().splitlines()[-1]))
    for label, _ in commands:
        t = times[label]
        print(
            f"{label:12s} median {statistics.median(t):.3f} s  "
            f"({min(t):.3f} – {max(t):.3f})  peak {peak[label] / 1024:.0f} MiB"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
