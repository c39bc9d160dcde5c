// Times a benchmark workload in WebAssembly under Node (V8, as in Chromium).
// Build first: see scripts/bench-wasm.sh. WORKLOAD=scheduling-basic (default),
// pod-anti-affinity, pod-affinity, topology-spreading or preemption; NODES, BOUND, PENDING, PERCENTAGE vary
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
  'preemption': ['PreemptionBasic', 1000, 4000, 1000],
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
const [scheduled, evaluated, victims] = w.run(0n, false);
const secs = (performance.now() - t0) / 1000;
console.log(JSON.stringify({ workload: name, runtime: `wasm (node ${process.version})`, nodes, bound, pending,
  percentageOfNodesToScore: pct, scheduled, victims, seconds: +secs.toFixed(3), podsPerSecond: Math.round(pending / secs),
  victimsPerSecond: Math.round(victims / secs),
  evaluatedNodesPerPod: +(evaluated / pending).toFixed(1) }));

// The simulation with history, as the playground keeps it: run, then step back 1000 cycles.
if (process.env.STEP_BACK !== '0') {
  const back = Number(process.env.STEP_BACK ?? 1000);
  const sim = w.simulation(0n);
  const t1 = performance.now();
  const cycles = sim.run();
  const runSecs = (performance.now() - t1) / 1000;
  const t2 = performance.now();
  sim.step_back_cycles(back);
  const backMs = performance.now() - t2;
  console.log(JSON.stringify({ workload: name, runtime: 'wasm, with history', cycles,
    podsPerSecond: Math.round(cycles / runSecs), stepBackCycles: back, stepBackMs: +backMs.toFixed(1) }));
}
