// Stepping a big run in the playground: opens big-cluster in headless Chromium, rewinds, presses
// Step `--presses` times and prints each press's time from the click to the new position on
// screen; then presses Step as many times again, 150 ms apart, and prints the main thread's
// tasks over 50 ms meanwhile (Long Tasks API).
//
//   bash scripts/build-api.sh && PATH=$PWD/node_modules/.bin:$PATH trunk build --release
//   SCHEDLAB_DIST=dist node scripts/bench-steps.mjs [--presses 10]

import path from 'node:path';
import { DIST, launch, serve } from '../tests/browser/support.mjs';

const i = process.argv.indexOf('--presses');
const PRESSES = i > 0 ? Number(process.argv[i + 1]) : 10;

const server = await serve(path.resolve(DIST), {
  headers: { 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp' },
});
const browser = await launch();
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  page.on('pageerror', (e) => console.error('pageerror:', e.message));
  await page.goto(`http://127.0.0.1:${server.address().port}/#example=big-cluster`);
  await page.waitForFunction(
    () => document.querySelector('[data-testid="status"]')?.textContent.includes('results are current'),
    null,
    { timeout: 120000 },
  );
  await page.click('[data-testid="control-rewind"]');
  await page.waitForTimeout(1000);
  const ms = [];
  for (let n = 0; n < PRESSES; n++) {
    const before = await page.textContent('[data-testid="position"]');
    const started = Date.now();
    await page.click('[data-testid="control-step"]');
    await page.waitForFunction((b) => document.querySelector('[data-testid="position"]').textContent !== b, before);
    ms.push(Date.now() - started);
  }
  const longTasks = await page.evaluate(
    (presses) =>
      new Promise((resolve) => {
        const seen = [];
        new PerformanceObserver((list) => list.getEntries().forEach((e) => seen.push(Math.round(e.duration)))).observe({
          type: 'longtask',
        });
        let n = 0;
        const id = setInterval(() => {
          document.querySelector('[data-testid="control-step"]').click();
          if (++n === presses) {
            clearInterval(id);
            setTimeout(() => resolve(seen), 500);
          }
        }, 150);
      }),
    PRESSES,
  );
  const engine = await page.evaluate(() => document.documentElement.dataset.engine ?? 'page');
  console.log(JSON.stringify({ engine, clickToFrameMs: ms, longTasks }));
} finally {
  await browser.close();
  server.close();
}
