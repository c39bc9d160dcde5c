// A big cluster in a tab (issue 40): imports the basic workload into the built page (dist/)
// with the Import button, and reports how long its run took to load in the engine's worker,
// how much memory the browser's processes took on (PSS, before and after), and how long each
// control took to answer afterwards (click to the position's text changing), the slowest
// first. Not a test: docs/benchmarks.md reports its numbers.
//
//   python3 scripts/gen-basic-workload.py /tmp/basic        # 5000 nodes, 5000 bound, 50 000 pending
//   trunk build --release
//   SCHEDLAB_DIST=$PWD/dist node scripts/bench-page-import.mjs /tmp/basic

import fs from 'node:fs';
import path from 'node:path';
import { open } from '../tests/browser/support.mjs';

const dir = process.argv[2] ?? '/tmp/basic';
const files = ['nodes.json', 'pods.json'].map((f) => path.join(dir, f));
for (const f of files) if (!fs.existsSync(f)) throw new Error(`${f} is missing: run scripts/gen-basic-workload.py ${dir}`);
const nodeCount = JSON.parse(fs.readFileSync(files[0], 'utf8')).items.length;

/** The PSS of Chromium's processes, in MB (every process whose command is chromium). */
function chromiumPss() {
  let kb = 0;
  for (const pid of fs.readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      const cmd = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      if (!cmd.includes('chromium')) continue;
      const rollup = fs.readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
      kb += Number(/^Pss:\s+(\d+)/m.exec(rollup)?.[1] ?? 0);
    } catch {
      // A process that ended meanwhile.
    }
  }
  return Math.round(kb / 1024);
}

const env = await open();
try {
  const page = await env.newPage();
  await page.goto(`${env.base}#example=classic`);
  await page.waitForSelector('[data-testid="node-card"]');
  await page.waitForTimeout(1000);
  const before = chromiumPss();
  const started = Date.now();
  await page.setInputFiles('[data-testid="import"]', files);
  await page.waitForFunction(
    (n) => /results are current/.test(document.querySelector('[data-testid="status"]')?.textContent ?? '')
      && document.querySelector('.scenario-stats')?.textContent.includes(`${n} nodes`),
    nodeCount,
    { timeout: 30 * 60 * 1000, polling: 500 },
  );
  const loaded = (Date.now() - started) / 1000;
  const after = chromiumPss();
  // Each control: the time from its click to the position's text changing.
  const clicks = [];
  for (const control of ['control-rewind', 'control-step', 'control-step', 'control-back', 'control-phase', 'control-end', 'control-back', 'control-rewind']) {
    const ms = await page.evaluate(async (id) => {
      const position = document.querySelector('[data-testid="position"]');
      const button = document.querySelector(`[data-testid="${id}"]`);
      if (!button || button.disabled) return null;
      const was = position.textContent;
      const t0 = performance.now();
      button.click();
      while (position.textContent === was && performance.now() - t0 < 10000) {
        await new Promise((r) => requestAnimationFrame(r));
      }
      return performance.now() - t0;
    }, control);
    if (ms !== null) clicks.push([control, Math.round(ms)]);
  }
  clicks.sort((a, b) => b[1] - a[1]);
  console.log(`loaded in ${loaded.toFixed(1)} s`);
  console.log(`Chromium PSS: ${before} MB before the import, ${after} MB after (+${after - before} MB)`);
  console.log(`controls (ms, slowest first): ${clicks.map(([c, ms]) => `${c} ${ms}`).join(', ')}`);
} finally {
  await env.close();
}
