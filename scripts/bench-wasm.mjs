// Times a benchmark workload in WebAssembly under Node (V8, as in Chromium).
// Build first: see scripts/bench-wasm.sh. WORKLOAD=scheduling-basic (default),
// pod-anti-affinity, pod-affinity or topology-spreading; NODES, BOUND, PENDING, PERCENTAGE vary
// the size (defaults: the workload's).
import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';
const require = createRequire(import.meta.url);
const wasm = require('../target/wasm-bench/schedlab_wasm.js');

const sizes = {
  'scheduling-basic': ['SchedulingBasic', 5000, 5000, 50000],
  'pod-anti-affinity': ['SchedulingPodAntiAffinity', 5000, 1000, 2000],
  'pod-affinity': ['SchedulingPodAffinity', 5000, 5000, 5000],
  'topology-spreading': ['TopologySpreading', 5000, 5000, 5000],
};
const workload = process.env.WORKLOAD ?? 'scheduling-basic';
if (!(workload in sizes)) {
  console.error(`WORKLOAD must be one of ${Object.keys(sizes).join(', ')}`);
  process.exit(2);
}
const [name, dn, db, dp] = sizes[workload];
const nodes = Number(process.env.NODES ?? dn);
const bound = Number(process.env.BOUND ?? db);
const pending = Number(process.env.PENDING ?? dp);
const pct = Number(process.env.PERCENTAGE ?? 0);
const w = wasm.BenchWorkload.named(workload, nodes, bound, pending, pct);
const t0 = performance.now();
const [scheduled, evaluated] = w.run(0n, false);
const secs = (performance.now() - t0) / 1000;
console.log(JSON.stringify({ workload: name, runtime: `wasm (node ${process.version})`, nodes, bound, pending,
  percentageOfNodesToScore: pct, scheduled, seconds: +secs.toFixed(3), podsPerSecond: Math.round(pending / secs),
  evaluatedNodesPerPod: +(evaluated / pending).toFixed(1) }));
