// The first load of the playground (issue 14, item 5): how long from navigation until a new
// visitor can use the page, in headless Chromium, cold cache, served from a local server with
// the cross-origin isolation headers (as scripts/serve.sh serves it). Build the site first:
//
//   bash scripts/build-api.sh && trunk build --release --dist /tmp/dist
//   SCHEDLAB_DIST=/tmp/dist node scripts/bench-first-load.mjs [--runs 7] [--path '?lesson=...']
//
// Every run starts a new browser (a new profile: nothing cached, no compiled wasm kept) and
// prints one JSON line; the last line is the median of each figure. Times are milliseconds from
// the start of navigation (the page's own `performance` clock):
// - `domContentLoaded`: the HTML read;
// - `wasmLoaded`: the page's wasm received (resource timing), with its size on the wire;
// - `controls`: the simulation controls drawn (the app mounted);
// - `interactive`: the first cycle's `scheduleOne` panel on screen and the main thread quiet
//   (no long task running; the later of the panel's appearance and the end of the last long task
//   that started before it). What the 1.5 s target of item 5 is measured against;
// - `longTasks`: the main thread's tasks over 50 ms up to then, and the longest;
// - `wasmFiles`, `wasmGzip`: the wasm files the page and its workers asked for until the first
//   panel showed (the main module and the chunks of its split points that were needed: the
//   session worker's engine, say), and their size at `gzip -9`, read from the dist folder; and
//   `mainGzip`, the main module's alone.

import fs from 'node:fs';
import zlib from 'node:zlib';
import path from 'node:path';
import { DIST, launch, serve } from '../tests/browser/support.mjs';

const arg = (name, fallback) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const RUNS = Number(arg('--runs', 7));
const PAGE = arg('--path', '');

if (!fs.existsSync(path.join(DIST, 'index.html'))) {
  console.error(`${DIST}/index.html: not found; build the site first (see the top of this script)`);
  process.exit(2);
}

const server = await serve(path.resolve(DIST), {
  headers: { 'cross-origin-opener-policy': 'same-origin', 'cross-origin-embedder-policy': 'require-corp' },
});
const base = `http://127.0.0.1:${server.address().port}/${PAGE}`;

/** Set up before the page's own scripts: when the panels appear, and every long task. */
function watch() {
  window.__firstLoad = { longTasks: [] };
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.__firstLoad.longTasks.push([e.startTime, e.duration]);
  }).observe({ type: 'longtask', buffered: true });
  const seen = (testid, key) => {
    const mark = () => {
      if (window.__firstLoad[key] === undefined && document.querySelector(`[data-testid="${testid}"]`)) {
        window.__firstLoad[key] = performance.now();
      }
    };
    new MutationObserver(mark).observe(document, { childList: true, subtree: true });
  };
  seen('controls', 'controls');
  seen('schedule-one', 'panel');
}

/** A site file's size at `gzip -9`. */
function gzipSize(urlPath) {
  const file = path.join(DIST, decodeURIComponent(urlPath));
  return zlib.gzipSync(fs.readFileSync(file), { level: 9 }).length;
}

const runs = [];
for (let i = 0; i < RUNS; i++) {
  const browser = await launch();
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  page.on('pageerror', (e) => console.error('pageerror:', e.message));
  // Requests of dedicated workers reach the page's events too (Chromium).
  const wasmAsked = [];
  page.on('request', (q) => {
    if (q.url().endsWith('.wasm')) wasmAsked.push(new URL(q.url()).pathname);
  });
  await page.addInitScript(watch);
  await page.goto(base);
  await page.waitForFunction(() => window.__firstLoad?.panel !== undefined, null, { timeout: 60000 });
  const needed = [...new Set(wasmAsked)];
  // Long tasks are reported after they end: give the last one time to arrive.
  await page.waitForTimeout(1500);
  const r = await page.evaluate(() => {
    const f = window.__firstLoad;
    const nav = performance.getEntriesByType('navigation')[0];
    const wasm = performance.getEntriesByType('resource').find((e) => /schedlab_web-.*_bg\.wasm$/.test(e.name));
    const before = f.longTasks.filter(([start]) => start <= f.panel);
    const lastEnd = Math.max(0, ...before.map(([s, d]) => s + d));
    return {
      domContentLoaded: Math.round(nav.domContentLoadedEventEnd),
      wasmLoaded: wasm ? Math.round(wasm.responseEnd) : null,
      wasmBytes: wasm ? wasm.encodedBodySize : null,
      controls: Math.round(f.controls),
      panel: Math.round(f.panel),
      interactive: Math.round(Math.max(f.panel, lastEnd)),
      longTasks: before.length,
      longestTask: Math.round(Math.max(0, ...before.map(([, d]) => d))),
    };
  });
  r.wasmFiles = needed.length;
  r.wasmGzip = needed.reduce((sum, f) => sum + gzipSize(f), 0);
  r.mainGzip = needed.filter((f) => /schedlab_web-[^/]*_bg\.wasm$/.test(f)).reduce((sum, f) => sum + gzipSize(f), 0);
  console.log(JSON.stringify({ run: i + 1, ...r }));
  runs.push(r);
  await browser.close();
}
server.close();

const median = (key) => {
  const v = runs.map((r) => r[key]).sort((a, b) => a - b);
  return v[Math.floor(v.length / 2)];
};
const keys = ['domContentLoaded', 'wasmLoaded', 'controls', 'panel', 'interactive', 'longTasks', 'longestTask'];
console.log(
  JSON.stringify({
    median: Object.fromEntries(keys.map((k) => [k, median(k)])),
    range: { interactive: [Math.min(...runs.map((r) => r.interactive)), Math.max(...runs.map((r) => r.interactive))] },
    wasmBytes: runs[0].wasmBytes,
    mainGzip: runs[0].mainGzip,
    wasmFiles: runs[0].wasmFiles,
    wasmGzip: runs[0].wasmGzip,
    runs: RUNS,
    path: PAGE || '/',
  }),
);
