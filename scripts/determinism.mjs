// Native and wasm give the same report, byte for byte (CLI contract, --seed), the stepping
// API gives the same run as a continuous one, and the embedders' API (Simulator) gives the
// same report and the same explanations as the CLI.
// For every golden scenario and gallery example: the JSON report of `schedlab run` (native,
// compact) and of `schedlab_wasm.run` (wasm32 under Node) must be identical strings.
// Build first: scripts/determinism.sh.
import { createRequire } from 'node:module';
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
const require = createRequire(import.meta.url);
const wasm = require('../target/wasm-bench/schedlab_wasm.js');

const root = new URL('..', import.meta.url).pathname;
const dirs = [
  ...readdirSync(join(root, 'tests/scenarios')).map((d) => join(root, 'tests/scenarios', d)),
  ...readdirSync(join(root, 'assets/scenarios')).map((d) => join(root, 'assets/scenarios', d)),
].filter((d) => statSync(d).isDirectory())
  // A scenario with JavaScript plugins (plugins.js) runs only where JavaScript does (the
  // browser tests run custom-plugin); the CLI skips its program.
  .filter((d) => !readdirSync(d).includes('plugins.js'));
let failures = 0;
for (const dir of dirs) {
  const names = readdirSync(dir)
    .filter((n) => !n.startsWith('expect') && !n.startsWith('README') && statSync(join(dir, n)).isFile())
    .sort();
  const files = names.map((n) => ({ name: n, text: readFileSync(join(dir, n), 'utf8') }));
  for (const seed of [0, 7]) {
    const native = execFileSync(join(root, 'target/release/schedlab'),
      ['run', '--output', 'json-compact', '--seed', String(seed), ...names.map((n) => join(dir, n))],
      { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], maxBuffer: 1 << 30 }).trimEnd();
    const fromWasm = wasm.run(JSON.stringify(files), BigInt(seed), false);
    if (native !== fromWasm) {
      failures++;
      console.error(`DIFFERENT: ${dir} seed ${seed}`);
    }
    // The stepping API (schedlab_wasm.Session) gives the same run: continuous, replayed after
    // going back to the start, and each cycle's recomputed tables equal the detailed report's.
    const summary = wasm.run(JSON.stringify(files), BigInt(seed), true);
    const session = wasm.Session.load(JSON.stringify(files), BigInt(seed));
    session.run(-1, -1n);
    const first = session.report();
    const end = session.position();
    session.go_to_step(0);
    session.run(-1, -1n);
    if (first !== summary || session.report() !== summary || session.position() !== end) {
      failures++;
      console.error(`SESSION DIFFERS: ${dir} seed ${seed}`);
    }
    const detailed = JSON.parse(fromWasm).cycles;
    detailed.forEach((c, i) => {
      if (JSON.stringify(JSON.parse(session.cycle(i))) !== JSON.stringify(c)) {
        failures++;
        console.error(`CYCLE ${i} DIFFERS: ${dir} seed ${seed}`);
      }
    });
    session.free();
    // The embedders' API (schedlab_wasm.Simulator): its report is the same JSON, and its
    // explanation's text is `schedlab explain`'s, byte for byte.
    const sim = wasm.Simulator.fromFiles(files, { seed });
    sim.run();
    const report = sim.report();
    if (JSON.stringify(report) !== JSON.stringify(JSON.parse(native))) {
      failures++;
      console.error(`SIMULATOR REPORT DIFFERS: ${dir} seed ${seed}`);
    }
    const small = files.every((f) => f.text.length < 1 << 20);
    const pods = new Set([report.cycles[0]?.pod, report.cycles.at(-1)?.pod, report.pods[0]?.name]);
    for (const pod of small && seed === 0 ? pods : []) {
      if (!pod) continue;
      const cli = execFileSync(join(root, 'target/release/schedlab'),
        ['explain', '--pod', pod, '--seed', String(seed), ...names.map((n) => join(dir, n))],
        { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], maxBuffer: 1 << 30 });
      if (sim.explain(pod).text !== cli) {
        failures++;
        console.error(`EXPLAIN DIFFERS: ${dir} ${pod}`);
      }
    }
    sim.free();
  }
}
console.log(`${dirs.length} scenarios x 2 seeds: ${failures === 0 ? 'identical' : `${failures} different`}`);
process.exit(failures === 0 ? 0 : 1);
