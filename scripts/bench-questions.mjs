// The questions panel on big-cluster (1000 nodes, 10 000 pods), timed in headless Chromium:
// a compare of v1.17's and v1.35's defaults, a sweep of 20 seeds, and a capacity count of a
// 1500m / 1Gi pod. Serves SCHEDLAB_DIST (default dist/; build it with `trunk build --release`)
// and prints one JSON line per question: milliseconds from the click to the answer on screen,
// and the page's main-thread long tasks meanwhile (the Long Tasks API: every task over 50 ms;
// `longTasks` counts them, `longestTaskMs` is the longest). The questions run in a Web Worker
// (web/src/background.rs); NO_WORKER=1 makes the worker's script fail to load (a missing
// file), so they run on
// the page's thread as before, for comparison. The page is served cross-origin isolated, as
// scripts/serve.sh serves it, so the worker uses a pool of navigator.hardwareConcurrency threads
// where the site has the threaded build (api-threads/); NOT_ISOLATED=1 serves it without the
// headers (one thread). The load of big-cluster itself is reported too.
//
//   node scripts/bench-questions.mjs
//   NO_WORKER=1 node scripts/bench-questions.mjs
//   NOT_ISOLATED=1 node scripts/bench-questions.mjs

import { open } from '../tests/browser/support.mjs';

// Served as scripts/serve.sh serves it: cross-origin isolated, so the worker runs on a pool of
// navigator.hardwareConcurrency threads when the site has api-threads/ (NOT_ISOLATED=1: one).
const env = await open(
  process.env.NOT_ISOLATED
    ? {}
    : { headers: { 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp' } },
);
const page = await env.newPage({ width: 1400, height: 1000 });
if (process.env.NO_WORKER) {
  await page.addInitScript(() => {
    const Real = window.Worker;
    window.Worker = function (url, options) {
      return new Real('missing-worker.js', options);
    };
  });
}
// Every main-thread task over 50 ms, from the start.
await page.addInitScript(() => {
  window.__longTasks = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.__longTasks.push({ start: e.startTime, ms: e.duration });
  }).observe({ type: 'longtask', buffered: true });
});
const longTasksSince = (t0) =>
  page.evaluate((t0) => {
    const tasks = window.__longTasks.filter((t) => t.start >= t0);
    return { longTasks: tasks.length, longestTaskMs: Math.round(Math.max(0, ...tasks.map((t) => t.ms))) };
  }, t0);
const now = () => page.evaluate(() => performance.now());

let t0 = Date.now();
await page.goto(`${env.base}#example=big-cluster`);
await page.waitForFunction(() => document.querySelector('.scenario-stats')?.textContent.startsWith('1000 nodes'), null, { timeout: 120000 });
console.log(JSON.stringify({ load: 'big-cluster, from navigation', ms: Date.now() - t0, ...(await longTasksSince(0)) }));
await page.click('[data-testid="questions-toggle"]');

async function time(name, run, done) {
  const pageStart = await now();
  const start = Date.now();
  await run();
  await page.waitForSelector(done, { timeout: 300000 });
  const ms = Date.now() - start;
  const ran = '[data-testid="questions-ran"]';
  const where = await page.getAttribute(ran, 'data-in-worker').catch(() => null);
  const threads = Number(await page.getAttribute(ran, 'data-threads').catch(() => 1));
  console.log(JSON.stringify({ question: name, ms, inWorker: where === 'true', threads, ...(await longTasksSince(pageStart)) }));
}

await page.click('[data-testid="questions-tab-compare"]');
await page.selectOption('[data-testid="compare-b"]', 'v1.35');
await time('compare v1.17 vs v1.35 defaults', () => page.click('[data-testid="compare-run"]'), '[data-testid="compare-headline"]');

await page.click('[data-testid="questions-tab-sweep"]');
await page.fill('[data-testid="sweep-values"]', '0..19');
await time('sweep seed 0..19 (20 runs)', () => page.click('[data-testid="sweep-run"]'), '[data-testid="sweep-chart"]');

await page.click('[data-testid="questions-tab-capacity"]');
await page.fill(
  '[data-testid="capacity-template"]',
  'apiVersion: v1\nkind: Pod\nmetadata: {name: probe}\nspec:\n  containers:\n  - name: c\n    image: i\n    resources: {requests: {cpu: 1500m, memory: 1Gi}}\n',
);
await time('capacity of a 1500m / 1Gi pod', () => page.click('[data-testid="capacity-run"]'), '[data-testid="capacity-count"]');
console.log(JSON.stringify({ capacity: (await page.textContent('[data-testid="capacity-count"]')).trim() }));
if (env.problems.length) console.error(env.problems);
await env.close();
