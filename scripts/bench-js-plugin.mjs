// What a custom Score plugin costs under the JS API (issue 39): the basic workload run with and
// without NodeNumber in JavaScript, and with it as the hand-written wasm guest, through
// `Simulator.fromFiles(files, {plugins})` in Node: the time of `run()`, to the end. Prints the
// median of each, interleaved.
// Not a test: docs/benchmarks.md reports its numbers.
//
//   python3 scripts/gen-basic-workload.py /tmp/basic5k --nodes 5000 --bound 5000 --pending 5000
//   cargo build --release --target wasm32-unknown-unknown -p schedlab_wasm
//   wasm-bindgen --target nodejs --out-dir target/wasm-bench target/wasm32-unknown-unknown/release/schedlab_wasm.wasm
//   cargo run -p schedlab_guest --example assemble -- crates/schedlab_guest/guests/node_number.wat /tmp/node_number.wasm
//   node scripts/bench-js-plugin.mjs /tmp/basic5k [/tmp/node_number.wasm] [runs]

import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const api = createRequire(import.meta.url)(path.join(ROOT, 'target/wasm-bench/schedlab_wasm.js'));
const [dir, guestPath, runsArg] = process.argv.slice(2);
const runs = Number(runsArg ?? 3);
const read = (f) => fs.readFileSync(path.join(dir, f), 'utf8');
const base = { 'nodes.json': read('nodes.json'), 'pods.json': read('pods.json') };
const config = (score) => `apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- schedulerName: default-scheduler
${score}`;
const without = { ...base, 'config.yaml': config('') };
const withPlugin = {
  ...base,
  'config.yaml': config('  plugins:\n    preScore:\n      enabled: [{name: NodeNumber}]\n    score:\n      enabled: [{name: NodeNumber, weight: 1}]\n'),
};
const withScoreOnly = {
  ...base,
  'config.yaml': config('  plugins:\n    score:\n      enabled: [{name: NodeNumber, weight: 1}]\n'),
};
const lastDigit = (name) => (/[0-9]$/.test(name) ? name.slice(-1) : null);
const nodeNumber = {
  score(pod, node) {
    const want = lastDigit(pod.metadata.name);
    return want === null || lastDigit(node.metadata.name) === want ? 10 : 0;
  },
};

function time(files, plugins) {
  const sim = api.Simulator.fromFiles(files, { plugins });
  // The run only (reading the files is the same work in every case).
  const started = performance.now();
  const stop = sim.run({ maxCycles: 1000000 });
  const ms = performance.now() - started;
  sim.free();
  return [ms, stop];
}

const cases = [
  ['without a plugin', () => time(without, undefined)],
  ['NodeNumber in JavaScript (Score)', () => time(withScoreOnly, { NodeNumber: nodeNumber })],
];
if (guestPath) {
  const guest = new Uint8Array(fs.readFileSync(guestPath));
  cases.push(['NodeNumber as the WAT guest (PreScore, Score)', () => time(withPlugin, { NodeNumber: guest })]);
}
const results = cases.map(() => []);
let scheduledBy = [];
for (let r = 0; r < runs; r++) {
  cases.forEach(([, run], i) => {
    const [ms, stop] = run();
    results[i].push(ms);
    scheduledBy[i] = stop;
  });
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const baseline = median(results[0]);
cases.forEach(([name], i) => {
  const m = median(results[i]);
  console.log(`${name}: median ${(m / 1000).toFixed(2)} s (${results[i].map((x) => (x / 1000).toFixed(2)).join(' / ')}), ${(m / baseline).toFixed(2)}x, stopped: ${JSON.stringify(scheduledBy[i])}`);
});
