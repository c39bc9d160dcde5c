// Native and wasm give the same report, byte for byte (CLI contract, --seed).
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
].filter((d) => statSync(d).isDirectory());
let failures = 0;
for (const dir of dirs) {
  const names = readdirSync(dir)
    .filter((n) => n !== 'expect.json' && !n.startsWith('README') && statSync(join(dir, n)).isFile())
    .sort();
  const files = names.map((n) => ({ name: n, text: readFileSync(join(dir, n), 'utf8') }));
  for (const seed of [0, 7]) {
    const native = execFileSync(join(root, 'target/release/schedlab'),
      ['run', '--output', 'json-compact', '--seed', String(seed), ...names.map((n) => join(dir, n))],
      { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trimEnd();
    const fromWasm = wasm.run(JSON.stringify(files), BigInt(seed), false);
    if (native !== fromWasm) {
      failures++;
      console.error(`DIFFERENT: ${dir} seed ${seed}`);
    }
  }
}
console.log(`${dirs.length} scenarios x 2 seeds: ${failures === 0 ? 'identical' : `${failures} different`}`);
process.exit(failures === 0 ? 0 : 1);
