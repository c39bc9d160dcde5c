// The page's main-thread long tasks (Long Tasks API: tasks over 50 ms) while a big scenario
// loads: picks big-cluster from the gallery, then classic, `--rounds` times, in one tab of
// headless Chromium, and prints each load's tasks over 50 ms (milliseconds after the pick,
// and duration). The first pick of big-cluster also fetches its files and runs the reading
// code for the first time (before the wasm engine has optimised it).
//
//   bash scripts/build-api.sh && PATH=$PWD/node_modules/.bin:$PATH trunk build --release
//   SCHEDLAB_DIST=dist node scripts/bench-long-tasks.mjs [--rounds 4]

import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DIST = process.env.SCHEDLAB_DIST ?? path.join(ROOT, 'dist');
const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const ROUNDS = Number(arg('rounds', 4));
const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.wasm': 'application/wasm', '.svg': 'image/svg+xml', '.json': 'application/json' };

const server = http.createServer((req, res) => {
  let file = path.join(DIST, decodeURIComponent(new URL(req.url, 'http://x').pathname));
  if (fs.existsSync(file) && fs.statSync(file).isDirectory()) file = path.join(file, 'index.html');
  fs.readFile(file, (err, body) => {
    if (err) return res.writeHead(404).end();
    res.writeHead(200, {
      'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream',
      'Cross-Origin-Opener-Policy': 'same-origin',
      'Cross-Origin-Embedder-Policy': 'require-corp',
    });
    res.end(body);
  });
});
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', args: ['--no-sandbox'] });
const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
page.on('pageerror', (e) => console.error('pageerror:', e.message));
await page.goto(`http://127.0.0.1:${server.address().port}/#example=classic`);
await page.waitForSelector('[data-testid="controls"]');
await page.waitForTimeout(500);
const loads = () => Number(document.querySelector('[data-testid="controls"]').dataset.loads);
const results = [];
for (let round = 0; round < ROUNDS * 2; round++) {
  const example = round % 2 ? 'classic' : 'big-cluster';
  await page.evaluate((loadsSource) => {
    window.__tasks = [];
    window.__observer?.disconnect();
    window.__observer = new PerformanceObserver((list) =>
      window.__tasks.push(...list.getEntries().map((e) => [e.startTime, e.duration])),
    );
    window.__observer.observe({ type: 'longtask' });
    window.__t0 = performance.now();
    window.__loadsBefore = new Function(`return ${loadsSource}`)();
  }, `(${loads})()`);
  await page.selectOption('[data-testid="gallery"]', example);
  await page.waitForFunction(`(${loads})() > window.__loadsBefore`, null, { timeout: 60000 });
  await page.waitForFunction(() => !document.querySelector('.loading')?.textContent, null, { timeout: 60000 });
  await page.waitForTimeout(1000);
  const tasks = await page.evaluate(() =>
    window.__tasks.map(([start, duration]) => ({ at: Math.round(start - window.__t0), ms: Math.round(duration) })),
  );
  const line = { round: Math.floor(round / 2) + 1, example, longTasks: tasks, longest: Math.max(0, ...tasks.map((t) => t.ms)) };
  results.push(line);
  console.log(JSON.stringify(line));
}
await browser.close();
server.close();
