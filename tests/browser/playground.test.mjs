// Browser test of the playground: serves dist/ (build it first with `trunk build`), drives the
// system Chromium through playwright-core, and fails on any page error or console error.
//
//   node --test tests/browser/
//
// Expected placements and messages are worked out by hand from assets/scenarios/classic and
// v1.17's rules, not copied from the app.

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const DIST = process.env.SCHEDLAB_DIST ?? path.join(ROOT, 'dist');
const SHOTS = process.env.SCHEDLAB_SCREENSHOTS ?? '/tmp';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
};

/** A static server for dist/ on 127.0.0.1 and a free port. */
function serve(dir) {
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://localhost');
    let file = path.normalize(path.join(dir, decodeURIComponent(url.pathname)));
    if (!file.startsWith(dir)) {
      res.writeHead(403).end();
      return;
    }
    if (fs.existsSync(file) && fs.statSync(file).isDirectory()) file = path.join(file, 'index.html');
    fs.readFile(file, (err, body) => {
      if (err) {
        res.writeHead(404).end('not found');
        return;
      }
      res.writeHead(200, {
        'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream',
        'cache-control': 'no-store',
      });
      res.end(body);
    });
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => resolve(server));
  });
}

const row = (page, pod) => page.locator(`[data-testid="pod-row"][data-pod="${pod}"]`);
const nodeOf = (page, pod) => row(page, pod).locator('[data-testid="pod-node"]');
const phaseOf = (page, pod) => row(page, pod).locator('[data-testid="pod-phase"]');
const podsEditor = (page) => page.locator('[data-testid="editor-pods"] textarea');
const podsErrors = (page) => page.locator('[data-testid="editor-pods"] [data-testid="diagnostic"]');

describe('schedlab playground', () => {
  let server;
  let browser;
  let page;
  let base;
  const problems = [];

  before(async () => {
    assert.ok(
      fs.existsSync(path.join(DIST, 'index.html')),
      `${DIST}/index.html is missing: run \`trunk build\` first`,
    );
    server = await serve(DIST);
    base = `http://127.0.0.1:${server.address().port}/`;
    browser = await chromium.launch({
      executablePath: '/usr/bin/chromium',
      headless: true,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--disable-dev-shm-usage',
      ],
    });
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    page = await context.newPage();
    page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(`console.error: ${m.text()}`);
    });
    page.on('requestfailed', (r) => problems.push(`request failed: ${r.url()}`));
    page.on('response', (r) => {
      if (r.status() >= 400) problems.push(`HTTP ${r.status()}: ${r.url()}`);
    });
  });

  after(async () => {
    await browser?.close();
    await new Promise((resolve) => (server ? server.close(resolve) : resolve()));
  });

  const assertNoProblems = () => assert.deepEqual(problems, [], 'the page reported errors');

  it('loads the example and shows every placement', async () => {
    await page.goto(base);
    await page.waitForSelector('[data-testid="pod-row"]');
    assert.equal((await page.textContent('[data-testid="scenario-name"]')).trim(), 'classic');
    assert.equal(await page.locator('[data-testid="pod-row"]').count(), 8);
    // db-0 asks for disktype=ssd: node-a1 and node-a2 have it, and node-a2 is cordoned.
    assert.equal(await nodeOf(page, 'db-0').textContent(), 'node-a1');
    // train-gpu asks for accelerator=nvidia-t4 and tolerates dedicated=gpu: only node-b2.
    assert.equal(await nodeOf(page, 'train-gpu').textContent(), 'node-b2');
    // batch-huge asks for 64 cpus: no node has that many.
    assert.equal(await phaseOf(page, 'batch-huge').textContent(), 'Pending');
    assert.equal(await nodeOf(page, 'batch-huge').textContent(), '—');
    // The two ingress pods both want host port 80: they cannot share a node.
    const a = await nodeOf(page, 'ingress-1').textContent();
    const b = await nodeOf(page, 'ingress-2').textContent();
    assert.notEqual(a, b);
    assertNoProblems();
  });

  it('inspects a pod under the scheduler function names', async () => {
    await row(page, 'db-0').click();
    await page.waitForSelector('[data-testid="inspected-pod"]:text-is("db-0")');
    const inspector = page.locator('[data-testid="inspector"]');
    for (const name of ['scheduleOne', 'findNodesThatFit', 'prioritizeNodes', 'selectHost']) {
      assert.equal(await inspector.locator(`h3 code:text-is("${name}")`).count(), 1, name);
    }
    // Five nodes, fewer than 100: numFeasibleNodesToFind is all of them.
    assert.equal(await page.textContent('[data-testid="num-to-find"]'), '5');
    // node-a2 stops at CheckNodeUnschedulable, the first predicate in v1.17's order.
    const a2 = page.locator('[data-testid="filter-table"] tr[data-node="node-a2"] td.fail');
    assert.equal(await a2.textContent(), 'node(s) were unschedulable');
    // Only node-a1 fits, so scoring is skipped.
    assert.equal(await page.textContent('[data-testid="chosen-node"]'), 'node-a1');
    assertNoProblems();
  });

  it('moves a pod when its nodeSelector changes', async () => {
    const text = await podsEditor(page).inputValue();
    assert.ok(text.includes('disktype: ssd'));
    await podsEditor(page).fill(text.replace('disktype: ssd', 'disktype: hdd'));
    // Only node-b1 has disktype=hdd.
    await page.waitForFunction(
      () =>
        document.querySelector('[data-testid="pod-row"][data-pod="db-0"] [data-testid="pod-node"]')
          ?.textContent === 'node-b1',
    );
    assert.equal(await page.locator('[data-testid="diagnostic"]').count(), 0);
    assert.equal((await page.textContent('[data-testid="scenario-name"]')).trim(), 'classic (edited)');
    assertNoProblems();
  });

  it('shows input warnings discreetly, without blocking the run', async () => {
    const nodes = page.locator('[data-testid="editor-nodes"] textarea');
    const text = await nodes.inputValue();
    await nodes.fill(`${text}  - apiVersion: v1\n    kind: ConfigMap\n    metadata: {name: extra}\n`);
    const warnings = page.locator('[data-testid="warnings"]');
    await warnings.waitFor();
    assert.equal((await warnings.locator('summary').textContent()).trim(), '1 warning');
    await warnings.locator('summary').click();
    assert.match(await warnings.textContent(), /skipped ConfigMap/);
    assert.equal(await page.locator('[data-testid="diagnostic"]').count(), 0);
    assert.equal(await nodeOf(page, 'db-0').textContent(), 'node-b1');
    assertNoProblems();
  });

  it('shows invalid YAML inline and keeps the last placements', async () => {
    const text = await podsEditor(page).inputValue();
    await podsEditor(page).fill(`${text}  - kind: Pod\n    metadata: {name: [broken\n`);
    await podsErrors(page).first().waitFor();
    const error = await podsErrors(page).first().textContent();
    assert.match(error, /invalid YAML/);
    assert.match(error, /line \d+/);
    assert.equal(await page.locator('[data-testid="editor-nodes"] [data-testid="diagnostic"]').count(), 0);
    await page.waitForSelector('[data-testid="stale-note"]');
    assert.equal(await page.locator('[data-testid="pod-row"]').count(), 8);
    assert.equal(await nodeOf(page, 'db-0').textContent(), 'node-b1');
    // The line button selects the start of that line in the editor.
    const line = Number(error.match(/line (\d+)/)[1]);
    await page.locator('[data-testid="editor-pods"] .diag-line').first().click();
    const [start, focused, value] = await podsEditor(page).evaluate((el) => [
      el.selectionStart,
      document.activeElement === el,
      el.value,
    ]);
    assert.ok(focused);
    assert.equal(start, value.split('\n').slice(0, line - 1).join('\n').length + (line > 1 ? 1 : 0));
    assertNoProblems();
  });

  it('keeps the texts and the last valid result across a reload', async () => {
    await page.reload();
    await page.waitForSelector('[data-testid="pod-row"]');
    assert.match(await podsEditor(page).inputValue(), /\[broken/);
    await podsErrors(page).first().waitFor();
    assert.equal(await nodeOf(page, 'db-0').textContent(), 'node-b1');
    assertNoProblems();
  });

  it('explains why the 64-cpu pod is Pending', async () => {
    await row(page, 'batch-huge').click();
    const fitError = page.locator('[data-testid="fit-error"]');
    await fitError.waitFor();
    // Per node, the first failing predicate in v1.17 order: node-a2 fails the mandatory
    // CheckNodeUnschedulable; every other node fails PodFitsResources (64 > 4, 8, 8, 2 cpus),
    // which runs before the mandatory PodToleratesNodeTaints on node-b2. The histogram is sorted.
    assert.equal(
      (await fitError.locator('p').textContent()).trim(),
      '0/5 nodes are available: 1 node(s) were unschedulable, 4 Insufficient cpu.',
    );
    const why = await page.textContent('[data-testid="explanation"]');
    assert.match(why, /node-a2/);
    assert.match(why, /uncordon/);
    assert.match(why, /Insufficient cpu: the pod requests 64/);
    assertNoProblems();
  });

  it('resets to the example', async () => {
    await page.click('[data-testid="reset"]');
    await page.waitForFunction(
      () =>
        document.querySelector('[data-testid="pod-row"][data-pod="db-0"] [data-testid="pod-node"]')
          ?.textContent === 'node-a1',
    );
    assert.equal(await page.locator('[data-testid="diagnostic"]').count(), 0);
    assert.equal(await page.locator('[data-testid="stale-note"]').count(), 0);
    assert.match(await podsEditor(page).inputValue(), /disktype: ssd/);
    const saved = await page.evaluate(() => Object.keys(localStorage).filter((k) => k.includes('editor')));
    assert.deepEqual(saved, []);
    assertNoProblems();
  });

  it('opens a gallery example and explains its pending pod', async () => {
    await page.selectOption('[data-testid="gallery"]', 'anti-affinity');
    await page.waitForFunction(
      () => document.querySelector('[data-testid="scenario-name"]')?.textContent.trim() === 'anti-affinity',
    );
    // Three nodes, four replicas that each refuse to share a hostname with the group: the fourth
    // finds every node holding a replica whose required anti-affinity selects it. The existing
    // pods' check comes first (filters.md B.11) and gives two reasons per node; the histogram is
    // byte-sorted, so "m" (match) before "s" (satisfy).
    await row(page, 'web-3').click();
    await page.waitForSelector('[data-testid="fit-error"]');
    assert.equal(
      (await page.locator('[data-testid="fit-error"] p').textContent()).trim(),
      "0/3 nodes are available: 3 node(s) didn't match pod affinity/anti-affinity, 3 node(s) didn't satisfy existing pods anti-affinity rules.",
    );
    await page.selectOption('[data-testid="gallery"]', 'classic');
    await page.waitForFunction(
      () =>
        document.querySelector('[data-testid="pod-row"][data-pod="db-0"] [data-testid="pod-node"]')
          ?.textContent === 'node-a1',
    );
    assertNoProblems();
  });

  it('takes screenshots at 1280×800 and 390×844', async () => {
    await row(page, 'web-2').click();
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.screenshot({ path: path.join(SHOTS, 'schedlab-1280x800.png') });
    await page.screenshot({ path: path.join(SHOTS, 'schedlab-1280-full.png'), fullPage: true });
    await row(page, 'batch-huge').click();
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: path.join(SHOTS, 'schedlab-390x844.png') });
    await page.screenshot({ path: path.join(SHOTS, 'schedlab-390-full.png'), fullPage: true });
    // Nothing may stick out sideways on a phone: wide tables scroll inside their card.
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `the page is ${overflow}px wider than the viewport`);
    assertNoProblems();
  });
});
