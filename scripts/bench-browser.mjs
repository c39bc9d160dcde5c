// Input-to-paint in the playground, measured in headless Chromium on the 1000-node,
// 10 000-pod scenario (assets/scenarios/big-cluster). Serves dist/ (build it with
// `trunk build --release` first) and prints one JSON line per action.
//
//   node scripts/bench-browser.mjs
//
// Two figures per action:
// - `nextPaintMs`: the browser's own Event Timing measure (what INP is built on): from the
//   input event to the next frame presented after its handlers ran. The inputs are real
//   (Playwright drives the mouse and keyboard), so the browser times them itself.
// - `resultMs`, for actions whose result comes later (a load, a rerun after an edit): from the
//   input to the frame after the new run is on screen.

import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DIST = process.env.SCHEDLAB_DIST ?? path.join(ROOT, 'dist');
const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.wasm': 'application/wasm', '.svg': 'image/svg+xml' };

const server = http.createServer((req, res) => {
  let file = path.join(DIST, decodeURIComponent(new URL(req.url, 'http://x').pathname));
  if (fs.existsSync(file) && fs.statSync(file).isDirectory()) file = path.join(file, 'index.html');
  fs.readFile(file, (err, body) => {
    if (err) return res.writeHead(404).end();
    res.writeHead(200, { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream' });
    res.end(body);
  });
});
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const base = `http://127.0.0.1:${server.address().port}/`;
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', args: ['--no-sandbox'] });
const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
page.on('pageerror', (e) => console.error('pageerror:', e.message));
await page.goto(base);
await page.waitForSelector('[data-testid="controls"]');
await page.evaluate(() => {
  window.__events = [];
  new PerformanceObserver((list) => window.__events.push(...list.getEntries())).observe({
    type: 'event',
    durationThreshold: 16,
    buffered: false,
  });
});

const loads = `Number(document.querySelector('[data-testid="controls"]').dataset.loads)`;
const idle = async () => {
  await page.waitForFunction(() => !document.querySelector('.loading')?.textContent, null, { timeout: 60000 });
  await page.waitForTimeout(150);
};
const results = [];

/** Runs `act` (Playwright calls) `repeat` times; reports the Event Timing duration of its inputs. */
async function measure(name, act, { repeat = 1, result = false } = {}) {
  const paints = [];
  const ends = [];
  for (let i = 0; i < repeat; i++) {
    await page.evaluate(() => {
      window.__events.length = 0;
      window.__loadsBefore = Number(document.querySelector('[data-testid="controls"]').dataset.loads);
      window.__t0 = performance.now();
    });
    await act(i);
    if (result) {
      await page.waitForFunction(`${loads} > window.__loadsBefore`, null, { timeout: 60000 });
      ends.push(await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => setTimeout(() => r(performance.now() - window.__t0), 0)))));
    }
    await idle();
    const d = await page.evaluate(() => {
      const interesting = window.__events.filter((e) => ['click', 'pointerup', 'pointerdown', 'keydown', 'keyup', 'input', 'change', 'mouseup', 'mousedown'].includes(e.name));
      return interesting.reduce((m, e) => Math.max(m, e.duration), 0);
    });
    // Below the 16 ms threshold the browser records nothing: the frame came within 16 ms.
    paints.push(d || 16);
  }
  const stat = (xs) => {
    const s = [...xs].sort((a, b) => a - b);
    return { median: +s[Math.floor(s.length / 2)].toFixed(0), worst: +s[s.length - 1].toFixed(0) };
  };
  const p = stat(paints);
  const r = { action: name, runs: repeat, nextPaintMs: p.median, nextPaintWorstMs: p.worst };
  if (ends.length) {
    const e = stat(ends);
    r.resultMs = e.median;
    r.resultWorstMs = e.worst;
  }
  results.push(r);
  console.log(JSON.stringify(r));
}

// The gallery menu driven by the keyboard (a real input the browser times): End picks the last
// entry, big-cluster.
await page.focus('[data-testid="gallery"]');
await measure('load big-cluster from the gallery', () => page.keyboard.press('End'), { result: true });
await page.waitForSelector('[data-testid="heat-map-canvas"]');
await measure('rewind to t = 0', () => page.click('[data-testid="control-rewind"]'));
await measure('step one cycle', () => page.click('[data-testid="control-step"]'), { repeat: 15 });
await measure('step one phase', () => page.click('[data-testid="control-phase"]'), { repeat: 12 });
await measure('step back', () => page.click('[data-testid="control-back"]'), { repeat: 8 });
await measure('step (keyboard →)', () => page.keyboard.press('ArrowRight'), { repeat: 8 });
const scrubber = page.locator('[data-testid="scrubber"]');
const box = await scrubber.boundingBox();
const fractions = [0.25, 0.5, 0.75, 0.98, 0.1, 0.6];
await measure('scrub (click on the scrubber)', (i) => page.mouse.click(box.x + box.width * fractions[i], box.y + box.height / 2), { repeat: fractions.length });
await measure('open the Pods tab', () => page.click('[data-testid="view-pods"]'));
await measure('click a pod row (its cycle in the inspector)', (i) => page.locator('[data-testid="pod-row"]').nth(40 + i * 20).click(), { repeat: 4 });
await measure('back to the nodes view', () => page.click('[data-testid="view-nodes"]'));
const canvas = page.locator('[data-testid="heat-map-canvas"]');
await measure('click a heat-map cell', (i) => canvas.click({ position: { x: 5 + i * 30, y: 5 + i * 15 } }), { repeat: 4 });
await page.selectOption('[data-testid="control-speed"]', '5');
await page.click('[data-testid="control-rewind"]');
await measure('run at 100 cycles/s', () => page.click('[data-testid="control-run"]'));
await page.waitForTimeout(1500);
await measure('pause', () => page.click('[data-testid="control-run"]'));
await measure('open the nodes form (1000 nodes)', () => page.click('[data-testid="editor-nodes"] [data-testid="editor-view-form"]'));
await page.click('[data-testid="editor-nodes"] [data-testid="node-form-row"][data-node="node-0001"] button');
const cpu = page.locator('[data-testid="editor-nodes"] [data-testid="node-cpu"]');
for (const v of ['12', '8', '2', '8']) {
  await cpu.fill(v);
  await measure(`change node-0001's CPU to ${v} in the form (Enter)`, () => cpu.press('Enter'), { result: true });
}
await measure('back to the text view', () => page.click('[data-testid="editor-nodes"] [data-testid="editor-view-text"]'));
// big-cluster's nodes.json (362 KB) shows its first lines until asked for whole.
await measure('show the whole nodes text (362 KB)', () => page.click('[data-testid="editor-nodes"] [data-testid="big-text-open"]'));
const area = page.locator('[data-testid="editor-nodes"] textarea');
await area.click({ position: { x: 60, y: 40 } });
await measure('type a character in the nodes text (rerun after the typing pause)', () => page.keyboard.type(' '), { result: true });
console.log(JSON.stringify({ summary: results }));
await browser.close();
server.close();
