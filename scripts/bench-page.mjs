// The benchmark page (assets/bench.html) in headless Chromium against the native
// `schedlab bench` on the same workloads and sizes: writes a JSON result file (default
// target/bench-page.json) and prints a table with the wasm/native ratio. Builds nothing itself:
//
//   bash scripts/build-api.sh                    # target/schedlab-api/ (the JS API)
//   cargo build --release -p schedlab_cli        # target/release/schedlab
//   bash scripts/build-api-threads.sh            # optional: target/schedlab-api-threads/ (N threads)
//   node scripts/bench-page.mjs [options]
//
// Serves SCHEDLAB_DIST (a built site: bench.html, api/, and api-threads/ if there) or, by
// default, a temporary folder made of assets/bench.html, target/schedlab-api/ as api/ and
// target/schedlab-api-threads/ as api-threads/ when it exists, with the cross-origin isolation
// headers (COOP/COEP), on 127.0.0.1.
//
// Options:
//   --workloads a,b,c   default scheduling-basic,pod-affinity,topology-spreading,preemption
//   --nodes N --bound N --pending N   every workload's size
//   --size W=N,B,P      one workload's size (repeatable), e.g. --size scheduling-basic=5000,5000,20000
//   --runs N            timed runs per workload in the page (3)
//   --native-runs N     runs of `schedlab bench` per workload (5)
//   --rounds N          native runs then the page, N times over (1): the medians are taken over
//                       every round's runs, so a busy minute weighs on both sides alike
//   --seed N --percentage N
//   --threads N --seeds N   the threaded build's pool size and independent seeds (page defaults)
//   --no-native         the page alone        --no-threaded   ignore a threaded build
//   --out FILE          the JSON result file (target/bench-page.json)
//   --bin FILE          the native binary (target/release/schedlab)

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { launch, ROOT, serve, watch } from '../tests/browser/support.mjs';

const DEFAULTS = {
  'scheduling-basic': [5000, 5000, 20000],
  'pod-affinity': [5000, 5000, 5000],
  'pod-anti-affinity': [5000, 1000, 2000],
  'topology-spreading': [5000, 5000, 5000],
  'preemption': [1000, 4000, 1000],
};

const { values: opt } = parseArgs({
  options: {
    workloads: { type: 'string', default: 'scheduling-basic,pod-affinity,topology-spreading,preemption' },
    nodes: { type: 'string' },
    bound: { type: 'string' },
    pending: { type: 'string' },
    size: { type: 'string', multiple: true, default: [] },
    runs: { type: 'string', default: '3' },
    'native-runs': { type: 'string', default: '5' },
    rounds: { type: 'string', default: '1' },
    seed: { type: 'string', default: '0' },
    percentage: { type: 'string', default: '0' },
    threads: { type: 'string' },
    seeds: { type: 'string' },
    'no-native': { type: 'boolean', default: false },
    'no-threaded': { type: 'boolean', default: false },
    out: { type: 'string', default: path.join(ROOT, 'target/bench-page.json') },
    bin: { type: 'string', default: path.join(ROOT, 'target/release/schedlab') },
  },
});

const die = (msg) => {
  console.error(`bench-page: ${msg}`);
  process.exit(2);
};
const num = (name, v) => {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0) die(`--${name} ${v}: expected a whole number`);
  return n;
};

// The plan: the same sizes for the page and for the native runs.
const perWorkload = Object.fromEntries(
  opt.size.map((s) => {
    const m = /^([\w-]+)=(\d+),(\d+),(\d+)$/.exec(s);
    if (!m) die(`--size ${s}: expected WORKLOAD=NODES,BOUND,PENDING`);
    return [m[1], [+m[2], +m[3], +m[4]]];
  }),
);
const plan = opt.workloads.split(',').map((w) => {
  if (!(w in DEFAULTS)) die(`unknown workload ${w}: expected one of ${Object.keys(DEFAULTS).join(', ')}`);
  let [nodes, bound, pending] = DEFAULTS[w];
  if (opt.nodes) nodes = num('nodes', opt.nodes);
  if (opt.bound) bound = num('bound', opt.bound);
  if (opt.pending) pending = num('pending', opt.pending);
  if (perWorkload[w]) [nodes, bound, pending] = perWorkload[w];
  return { workload: w, nodes, bound, pending };
});
const seed = num('seed', opt.seed);
const percentage = num('percentage', opt.percentage);
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

// What is served.
let dir = process.env.SCHEDLAB_DIST && path.resolve(process.env.SCHEDLAB_DIST);
if (dir) {
  for (const f of ['bench.html', 'api/schedlab.js']) {
    if (!fs.existsSync(path.join(dir, f))) die(`${dir}/${f} is missing (SCHEDLAB_DIST must hold a built site)`);
  }
} else {
  const api = path.join(ROOT, 'target/schedlab-api');
  if (!fs.existsSync(path.join(api, 'schedlab.js'))) die('target/schedlab-api/ is missing: run `bash scripts/build-api.sh` first');
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'schedlab-bench-'));
  fs.copyFileSync(path.join(ROOT, 'assets/bench.html'), path.join(dir, 'bench.html'));
  fs.cpSync(api, path.join(dir, 'api'), { recursive: true });
  const threads = path.join(ROOT, 'target/schedlab-api-threads');
  if (fs.existsSync(path.join(threads, 'schedlab_threads.js'))) fs.cpSync(threads, path.join(dir, 'api-threads'), { recursive: true });
}
const threaded = !opt['no-threaded'] && fs.existsSync(path.join(dir, 'api-threads/schedlab_threads.js'));

const tempDir = !process.env.SCHEDLAB_DIST && dir;
const rounds = Math.max(1, num('rounds', opt.rounds));
const nativeRuns = num('native-runs', opt['native-runs']);
const headers = { 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp' };
const nativeArgs = (p) => ['bench', '--workload', p.workload, '--nodes', `${p.nodes}`, '--bound', `${p.bound}`, '--pending', `${p.pending}`,
  '--percentage', `${percentage}`, '--seed', `${seed}`, '--no-history', '--step-back', '0'];
if (!opt['no-native'] && !fs.existsSync(opt.bin)) die(`${opt.bin} is missing: run \`cargo build --release -p schedlab_cli\` first (or --no-native)`);

/** One native process per run; its JSON line. The browser is not running meanwhile. */
function nativeRound(lines) {
  for (const p of plan) {
    for (let i = 0; i < nativeRuns; i++) {
      process.stderr.write(`native ${p.workload} ${i + 1}/${nativeRuns}\n`);
      (lines[p.workload] ??= []).push(JSON.parse(execFileSync(opt.bin, nativeArgs(p), { encoding: 'utf8' }).trim().split('\n').pop()));
    }
  }
}

/** pods/s = pending pods bound per second of the run, as the page counts them (for
 * PreemptionBasic the CLI's `podsPerSecond` counts cycles, two per preemptor). */
function nativeFigures(lines) {
  return plan.filter((p) => lines[p.workload]).map((p) => {
    const ls = lines[p.workload];
    const rates = ls.map((l) => l.boundPerSecond);
    return {
      workload: p.workload, upstream: ls[0].workload, nodes: p.nodes, bound: p.bound, pending: p.pending,
      scheduled: ls[0].scheduled, runs: ls.length, seconds: ls.map((l) => l.seconds),
      podsPerSecond: Math.round(median(rates)), podsPerSecondMin: Math.round(Math.min(...rates)), podsPerSecondMax: Math.round(Math.max(...rates)),
      setupSeconds: median(ls.map((l) => l.setupSeconds)), peakRssMiB: Math.max(...ls.map((l) => l.peakRssMiB ?? 0)),
      command: `${path.relative(ROOT, opt.bin)} ${nativeArgs(p).join(' ')}`,
    };
  });
}

/** The page once, in a new browser; its `window.benchResults` (null when it did not finish). */
async function pageRound(native, problems) {
  const query = new URLSearchParams({ workloads: plan.map((p) => p.workload).join(','), runs: `${num('runs', opt.runs)}`, seed: `${seed}`, percentage: `${percentage}` });
  for (const p of plan) query.set(p.workload, `${p.nodes},${p.bound},${p.pending}`);
  if (native.length) query.set('native', 'native.json');
  if (threaded) query.set('threaded', 'api-threads/');
  if (opt.threads) query.set('threads', `${num('threads', opt.threads)}`);
  if (opt.seeds) query.set('seeds', `${num('seeds', opt.seeds)}`);
  const server = await serve(dir, { pages: { '/native.json': JSON.stringify({ rows: native }) }, headers });
  const url = `http://127.0.0.1:${server.address().port}/bench.html?${query}`;
  const browser = await launch();
  let page;
  let results = null;
  try {
    out.chromium = browser.version();
    out.url = url.replace(/^http:\/\/[^/]+\//, '');
    page = watch(await browser.newPage(), problems);
    page.on('console', (m) => {
      if (m.type() !== 'error') process.stderr.write(`page: ${m.text()}\n`);
    });
    await page.goto(url);
    let last = '';
    const poll = setInterval(async () => {
      const s = await page.textContent('#status').catch(() => '');
      if (s && s !== last) process.stderr.write(`page: ${(last = s)}\n`);
    }, 500);
    try {
      await page.waitForFunction(() => document.body.dataset.benchDone === '1', null, { timeout: 30 * 60 * 1000, polling: 250 });
    } finally {
      clearInterval(poll);
    }
    results = await page.evaluate(() => window.benchResults);
    if (results?.error) problems.push(`the page reported: ${results.error}`);
  } catch (e) {
    problems.push(`the page did not finish: ${e.message}`);
  } finally {
    await browser.close();
    await new Promise((resolve) => server.close(resolve));
  }
  return results;
}

// Rounds: the native runs, then the page; the medians are taken over every round's runs.
const out = { date: new Date().toISOString(), machine: { cpus: os.cpus().length, model: os.cpus()[0]?.model, memoryGiB: +(os.totalmem() / 2 ** 30).toFixed(1), loadavgBefore: os.loadavg() } };
const problems = [];
const lines = {};
const pages = [];
for (let r = 0; r < rounds && !problems.length; r++) {
  if (rounds > 1) process.stderr.write(`round ${r + 1} of ${rounds}\n`);
  if (!opt['no-native']) nativeRound(lines);
  const results = await pageRound(nativeFigures(lines), problems);
  if (results) pages.push(results);
}
out.machine.loadavgAfter = os.loadavg();
const native = nativeFigures(lines);

const rows = plan.map((p) => {
  const mine = pages.map((pg) => pg.rows.find((r) => r.workload === p.workload)).filter(Boolean);
  if (!mine.length) return null;
  const rates = mine.flatMap((r) => r.seconds.map((s) => r.scheduled / s));
  const wasm = Math.round(median(rates));
  const n = native.find((x) => x.workload === p.workload);
  const t = mine.map((r) => r.threaded).filter(Boolean);
  return {
    workload: p.workload, upstream: mine[0].upstream, nodes: p.nodes, bound: p.bound, pending: p.pending,
    scheduled: mine[0].scheduled, victims: mine[0].victims,
    wasmPodsPerSecond: wasm, wasmRange: [Math.round(Math.min(...rates)), Math.round(Math.max(...rates))], wasmRuns: rates.length,
    threaded: t.length ? {
      threads: t[0].threads, seeds: t[0].seeds, rounds: t.length, identical: t.every((x) => x.identical),
      podsPerSecondOneThread: Math.round(median(t.map((x) => x.podsPerSecondOneThread))),
      podsPerSecond: Math.round(median(t.map((x) => x.podsPerSecond))),
      speedup: +median(t.map((x) => x.speedup)).toFixed(2), speedups: t.map((x) => x.speedup), decisions: t[0].decisions,
    } : null,
    nativePodsPerSecond: n?.podsPerSecond ?? null, nativeRange: n ? [n.podsPerSecondMin, n.podsPerSecondMax] : null,
    nativeScheduled: n?.scheduled ?? null,
    ratio: n ? +(wasm / n.podsPerSecond).toFixed(3) : null,
  };
}).filter(Boolean);
// The pool's decisions against native ones: `schedlab --threads 2 bench --runs K`, the same
// seeds and fingerprints.
if (!opt['no-native']) {
  for (const r of rows.filter((x) => x.threaded)) {
    const p = plan.find((x) => x.workload === r.workload);
    const args = ['--threads', '2', ...nativeArgs(p).filter((a) => a !== '--no-history'), '--runs', `${r.threaded.seeds}`];
    process.stderr.write(`native decisions ${r.workload} (${r.threaded.seeds} seeds)\n`);
    const line = JSON.parse(execFileSync(opt.bin, args, { encoding: 'utf8' }).trim().split('\n').pop());
    r.threaded.decisionsMatchNative = JSON.stringify(line.decisions) === JSON.stringify(r.threaded.decisions);
    if (!r.threaded.decisionsMatchNative) problems.push(`${r.workload}: the pool's decisions differ from native ones`);
  }
}
Object.assign(out, { problems, rounds, rows, native, pages });
fs.mkdirSync(path.dirname(opt.out), { recursive: true });
fs.writeFileSync(opt.out, `${JSON.stringify(out, null, 2)}\n`);
if (tempDir) fs.rmSync(tempDir, { recursive: true, force: true });

// The table.
const f = (n) => (n === null || n === undefined ? '—' : Math.round(n).toLocaleString('en-US').replace(/,/g, ' '));
const table = [['workload', 'nodes', 'bound', 'pending', 'scheduled', 'wasm pods/s (1 thread)', 'N threads', 'speed-up', 'native pods/s', 'wasm/native']];
for (const r of rows) {
  const t = r.threaded;
  table.push([r.workload, f(r.nodes), f(r.bound), f(r.pending), f(r.scheduled) + (r.nativeScheduled !== null && r.nativeScheduled !== r.scheduled ? ` (native ${r.nativeScheduled}!)` : ''),
    `${f(r.wasmPodsPerSecond)} (${f(r.wasmRange[0])} – ${f(r.wasmRange[1])})`,
    t ? `${f(t.podsPerSecond)} (${t.seeds} seeds, ${t.threads} threads${t.identical ? '' : ', DIFFERENT'}${t.decisionsMatchNative === false ? ', NOT AS NATIVE' : ''})` : '—',
    t ? `${t.speedup.toFixed(2)}×` : '—',
    r.nativePodsPerSecond === null ? '—' : `${f(r.nativePodsPerSecond)} (${f(r.nativeRange[0])} – ${f(r.nativeRange[1])})`,
    r.ratio === null ? '—' : `${r.ratio.toFixed(2)}×`]);
}
const widths = table[0].map((_, i) => Math.max(...table.map((row) => row[i].length)));
for (const row of table) console.log(row.map((c, i) => (i ? c.padStart(widths[i]) : c.padEnd(widths[i]))).join('  '));
const last = pages.at(-1);
console.log(`${rounds} round(s); ${last?.crossOriginIsolated ? 'cross-origin isolated' : 'NOT cross-origin isolated'}; threads: ${last?.threads?.available ? 'a pool' : `one thread only (${last?.threads?.reason})`}; ${out.chromium}; load before ${out.machine.loadavgBefore.map((l) => l.toFixed(2)).join(' ')}`);
console.log(`written: ${path.relative(process.cwd(), opt.out)}`);
if (problems.length) {
  console.error(problems.join('\n'));
  process.exit(1);
}
