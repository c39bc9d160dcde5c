// Times the SchedulingBasic workload in WebAssembly under Node (V8, as in Chromium).
// Build first: see scripts/bench-wasm.sh.
import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';
const require = createRequire(import.meta.url);
const wasm = require('../target/wasm-bench/schedlab_wasm.js');

const nodes = Number(process.env.NODES ?? 5000);
const bound = Number(process.env.BOUND ?? 5000);
const pending = Number(process.env.PENDING ?? 50000);
const pct = Number(process.env.PERCENTAGE ?? 0);
const w = new wasm.BenchWorkload(nodes, bound, pending, pct);
const t0 = performance.now();
const [scheduled, evaluated] = w.run(0n, false);
const secs = (performance.now() - t0) / 1000;
console.log(JSON.stringify({ workload: 'SchedulingBasic', runtime: `wasm (node ${process.version})`, nodes, bound, pending,
  percentageOfNodesToScore: pct, scheduled, seconds: +secs.toFixed(3), podsPerSecond: Math.round(pending / secs),
  evaluatedNodesPerPod: +(evaluated / pending).toFixed(1) }));
