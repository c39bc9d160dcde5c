// The page's main-thread long tasks (Long Tasks API: tasks over 50 ms) while a big scenario
// loads: picks big-cluster from the gallery, then classic, `--rounds` times, in one tab of
// headless Chromium, and prints each load's tasks over 50 ms (milliseconds after the pick,
// and duration). The first pick of big-cluster also fetches its files and runs the reading
// code for the first time (before the wasm engine has optimised it).
//
//   bash scripts/build-api.sh && PATH=$PWD/node_modules/.bin:$PATH trunk build --release
//   SCHEDLAB_DIST=dist node scripts/bench-long-tasks.mjs [--rounds 4]

import path from 'node:path';
import { DIST, launch, serve } from '../tests/browser/support.mjs';

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const ROUNDS = Number(arg('rounds', 4));

// Served as scripts/serve.sh serves the site: cross-origin isolated.
const server = await serve(path.resolve(DIST), {
  headers: { 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp' },
});
const browser = await launch();
const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
page.on('pageerror', (e) => console.error('pageerror:', e.message));
await page.goto(`http://127.0.0.1:${server.address().port}/#example=classic`);
await page.waitForSelector('[data-testid="controls"]');
await page.waitForTimeout(500);
/** Completed loads, as the controls count them. */
const loads = () => Number(document.querySelector('[data-testid="controls"]').dataset.loads);
for (let round = 0; round < ROUNDS * 2; round++) {
  const example = round % 2 ? 'classic' : 'big-cluster';
  const before = await page.evaluate(loads);
  await page.evaluate(() => {
    window.__tasks = [];
    window.__observer?.disconnect();
    window.__observer = new PerformanceObserver((list) =>
      window.__tasks.push(...list.getEntries().map((e) => [e.startTime, e.duration])),
    );
    window.__observer.observe({ type: 'longtask' });
    window.__t0 = performance.now();
  });
  await page.selectOption('[data-testid="gallery"]', example);
  await page.waitForFunction(`(${loads})() > ${before}`, null, { timeout: 60000 });
  await page.waitForFunction(() => !document.querySelector('.loading')?.textContent, null, { timeout: 60000 });
  await page.waitForTimeout(1000);
  const tasks = await page.evaluate(() =>
    window.__tasks.map(([start, duration]) => ({ at: Math.round(start - window.__t0), ms: Math.round(duration) })),
  );
  const longest = Math.max(0, ...tasks.map((t) => t.ms));
  console.log(JSON.stringify({ round: Math.floor(round / 2) + 1, example, longTasks: tasks, longest }));
}
await browser.close();
server.close();
