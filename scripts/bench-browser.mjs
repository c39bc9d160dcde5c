// Input-to-paint in the playground, measured in headless Chromium on the 1000-node,
// 10 000-pod scenario (assets/scenarios/big-cluster). Serves dist/ (build it with
// `trunk build --release` first) and prints one JSON line per action with the median and worst
// time from the input event to the next frame, in milliseconds.
//
//   node scripts/bench-browser.mjs            # or: bash scripts/bench-browser.sh
//
// Each measurement runs inside the page: t0 is taken just before the input is dispatched; the
// app updates the DOM synchronously in its handler; t1 is taken in a task queued from the next
// requestAnimationFrame callback, i.e. once that frame has been produced.

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
page.on('console', (m) => { if (process.env.TIMING && m.text().startsWith('TIMING')) console.log(m.text()); });
await page.goto(base);
await page.waitForSelector('[data-testid="controls"]');

/** Runs `act` (a function body run in the page) and returns ms to the next frame after it. */
async function once(act, until = null) {
  return page.evaluate(async ({ act, until }) => {
    const nextFrame = () => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
    const t0 = performance.now();
    new Function(act)();
    if (until) {
      const check = new Function(`return (${until})`);
      while (!check()) await new Promise((r) => setTimeout(r, 1));
    }
    await nextFrame();
    return performance.now() - t0;
  }, { act, until });
}

const results = [];
async function measure(name, act, { repeat = 1, until = null, between = null } = {}) {
  const times = [];
  for (let i = 0; i < repeat; i++) {
    if (between) await page.evaluate(between);
    times.push(await once(act, until));
  }
  times.sort((a, b) => a - b);
  const r = { action: name, runs: repeat, medianMs: +times[Math.floor(times.length / 2)].toFixed(1), worstMs: +times[times.length - 1].toFixed(1) };
  results.push(r);
  console.log(JSON.stringify(r));
}

const click = (testid) => `document.querySelector('[data-testid="${testid}"]').click()`;
const stats = `(document.querySelector('.scenario-stats')?.textContent ?? '')`;

await measure(
  'load big-cluster from the gallery: next paint',
  `const s = document.querySelector('[data-testid="gallery"]'); s.value = 'big-cluster'; s.dispatchEvent(new Event('change', {bubbles: true}));`,
);
await page.waitForFunction(`${stats}.includes('1000 nodes') && !document.querySelector('.loading')?.textContent`, null, { timeout: 60000 });
await page.selectOption('[data-testid="gallery"]', 'classic');
await page.waitForFunction(`${stats}.includes('5 nodes') && !document.querySelector('.loading')?.textContent`, null, { timeout: 60000 });
await measure(
  'load big-cluster from the gallery: until painted',
  `const s = document.querySelector('[data-testid="gallery"]'); s.value = 'big-cluster'; s.dispatchEvent(new Event('change', {bubbles: true}));`,
  { until: `${stats}.includes('1000 nodes') && !document.querySelector('.loading')?.textContent` },
);
await measure('rewind to t = 0', click('control-rewind'));
await measure('step one cycle', click('control-step'), { repeat: 15 });
await measure('step one phase', click('control-phase'), { repeat: 12 });
await measure('step back', click('control-back'), { repeat: 8 });
for (const at of [0.25, 0.5, 0.75, 1.0, 0.1]) {
  await measure(
    `scrub to ${at * 100}%`,
    `const r = document.querySelector('[data-testid="scrubber"]'); r.value = String(Math.round(Number(r.max) * ${at})); r.dispatchEvent(new Event('input', {bubbles: true}));`,
  );
}
await measure('select a pod (inspector replays its cycle)', click('view-pods'));
await measure(
  'click a pod row',
  `const rows = document.querySelectorAll('[data-testid="pod-row"]'); rows[rows.length - 1].click();`,
  { repeat: 3 },
);
await measure('back to the nodes view', click('view-nodes'));
await measure(
  'click a heat-map cell',
  `const c = document.querySelector('[data-testid="heat-map-canvas"]'); c.dispatchEvent(new MouseEvent('click', {bubbles: true, clientX: c.getBoundingClientRect().left + 40, clientY: c.getBoundingClientRect().top + 40}));`,
  { repeat: 3 },
);
await measure('run (first tick at 100 cycles/s)', `const s = document.querySelector('[data-testid="control-speed"]'); s.value = '5'; s.dispatchEvent(new Event('change', {bubbles: true})); ${click('control-rewind')}; ${click('control-run')}`);
await page.waitForTimeout(1000);
await measure('pause', click('control-run'));
const loads = `Number(document.querySelector('[data-testid="controls"]').dataset.loads)`;
await measure('open the nodes form (1000 nodes)', `document.querySelector('[data-testid="editor-nodes"] [data-testid="editor-view-form"]').click();`);
// A form field commits on change: the whole scenario is read and run again.
await page.click('[data-testid="editor-nodes"] [data-testid="node-form-row"][data-node="node-0001"]');
await page.waitForSelector('[data-testid="editor-nodes"] [data-testid="node-cpu"]');
const setCpu = (cpu) =>
  `window.__loads = ${loads}; const i = document.querySelector('[data-testid="editor-nodes"] [data-testid="node-cpu"]'); i.value = '${cpu}'; i.dispatchEvent(new Event('change', {bubbles: true}));`;
for (const cpu of ['12', '2']) {
  // The next paint answers the input ("reading the inputs and simulating…"); the new run
  // follows, painted as soon as it is complete.
  await measure(`change node-0001's CPU to ${cpu} in the form: next paint`, setCpu(cpu));
  await page.waitForFunction(`${loads} > window.__loads`);
  await page.waitForTimeout(200);
  await measure(
    `change node-0001's CPU back in the form: until the new run is painted`,
    setCpu(cpu === '12' ? '8' : '9'),
    { until: `${loads} > window.__loads` },
  );
  await page.waitForTimeout(200);
}
await measure('back to the text view', `document.querySelector('[data-testid="editor-nodes"] [data-testid="editor-view-text"]').click();`);
await measure(
  'type in the nodes text (the keystroke, before the rerun)',
  `const t = document.querySelector('[data-testid="editor-nodes"] textarea'); t.value = t.value.replace('"cpu":"8"', '"cpu":"9"'); t.dispatchEvent(new Event('input', {bubbles: true}));`,
);
await measure(
  'the same edit, until the new run is painted (after the typing pause)',
  `window.__loads = ${loads}; const t = document.querySelector('[data-testid="editor-nodes"] textarea'); t.value = t.value.replace('"cpu":"8"', '"cpu":"7"'); t.dispatchEvent(new Event('input', {bubbles: true}));`,
  { until: `${loads} > window.__loads` },
);
console.log(JSON.stringify({ summary: results }));
await browser.close();
server.close();
