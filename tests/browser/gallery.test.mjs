// Browser test of the gallery's fetched examples (web/src/gallery.rs): only the first example,
// classic, is compiled into the wasm; every other example's files are fetched from the site's
// scenarios/ folder when it is first opened. Checks that choosing big-cluster shows a loading
// strip, then the 1000-node run; that the wasm the page loads holds none of the fetched files;
// that big-cluster is read a part at a time, and a pick made meanwhile supersedes it;
// that a failed fetch leaves the editors as they were (and Try again opens the example); that a
// saved big-cluster tab restores after a reload, and says so when it cannot; and that links
// (in the address bar at load, or typed in later) to fetched examples and lessons open.
//
//   node --test tests/browser/gallery.test.mjs
//
// Node counts come from the scenarios: classic has five nodes (node-a1 … node-b3), big-cluster
// 1000 nodes and 10 000 pods (scripts/gen-big-cluster.py), anti-affinity three nodes.

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { open, ROOT, SHOTS } from './support.mjs';

const SCENARIOS = path.join(ROOT, 'assets/scenarios');
const read = (file) => fs.readFileSync(path.join(SCENARIOS, file));

const scenario = async (page) => (await page.textContent('[data-testid="scenario-name"]')).trim();
const stats = async (page) => (await page.textContent('.scenario-stats')).trim();
const nodesText = async (page) => {
  await page.click('[data-testid="tab-nodes"]');
  return page.locator('[data-testid="editor-nodes"] textarea').inputValue();
};
/** Waits until the header names `name` as the scenario. */
const waitScenario = (page, name) =>
  page.waitForFunction(
    (n) => document.querySelector('[data-testid="scenario-name"]')?.textContent.trim() === n,
    name,
  );
/** Waits until the header's status includes `text`. */
const waitStatus = (page, text) =>
  page.waitForFunction((t) => document.querySelector('[data-testid="status"]')?.textContent.includes(t), text);
/** Waits until the header's counts start with `text` (`1000 nodes · 10000 pods`). */
const waitStats = (page, text) =>
  page.waitForFunction(
    (t) => document.querySelector('.scenario-stats')?.textContent.startsWith(t),
    text,
    { timeout: 60000 },
  );
/** Reloading or leaving a page cancels its icon's request if it is still on its way (as in
 * lessons.test.mjs): that failure does not count. */
const iconCancelled = (r) => r.failure()?.errorText === 'net::ERR_ABORTED' && r.resourceType() === 'other';
const BIG = '1000 nodes · 10000 pods';
const CLASSIC = '5 nodes · 8 pods';

describe('the gallery: examples fetched when chosen', () => {
  let env;
  const assertNoProblems = () => assert.deepEqual(env.problems.splice(0), [], 'the page reported errors');
  /** The requests for scenario files since `from` (an index into the server's log). */
  const scenarioRequests = (from = 0) => env.server.seen.slice(from).filter((u) => u.includes('/scenarios/'));

  before(async () => {
    env = await open();
  });
  after(async () => env?.close());

  it('opens big-cluster by fetching its files, after a loading strip; the wasm holds none of them', async () => {
    const context = await env.context();
    const page = await env.tab(context, { ignoreFailed: iconCancelled });
    const start = env.server.seen.length;
    await page.goto(`${env.base}#example=classic`);
    await page.waitForSelector('[data-testid="node-card"][data-node="node-a1"]');
    assert.equal(await stats(page).then((s) => s.startsWith(CLASSIC)), true);
    // The first example is compiled in: nothing fetched for it.
    assert.deepEqual(scenarioRequests(start), []);

    // Hold big-cluster's pods back, to see the page while it waits.
    let release;
    const gate = new Promise((resolve) => (release = resolve));
    await page.route('**/scenarios/big-cluster/pods.json', async (route) => {
      await gate;
      await route.continue();
    });
    const before = await nodesText(page);
    await page.selectOption('[data-testid="gallery"]', 'big-cluster');
    const loading = page.locator('[data-testid="gallery-loading"]');
    await loading.waitFor();
    assert.match(await loading.textContent(), /Loading the big-cluster example/);
    // Meanwhile the editors and the run are the classic example's.
    assert.equal(await scenario(page), 'classic');
    assert.equal(await nodesText(page), before);
    assert.equal(await page.inputValue('[data-testid="gallery"]'), 'big-cluster');
    await page.screenshot({ path: path.join(SHOTS, 'schedlab-gallery-loading.png') });
    release();
    await waitStats(page, BIG);
    await page.waitForSelector('[data-testid="heat-map-canvas"]');
    assert.equal(await scenario(page), 'big-cluster');
    assert.equal(await loading.count(), 0);
    assert.equal(await page.inputValue('[data-testid="gallery"]'), 'big-cluster');
    // Each big file shows its first 40 lines and its size until asked for the whole text
    // (nodes.json: 369 877 bytes, 1002 newlines: 362 KB in 1003 lines). Asked, the Pods editor
    // holds the whole of pods.json.
    const nodesFile = read('big-cluster/nodes.json').toString('utf8');
    const nodesPreview = page.locator('[data-testid="editor-nodes"] [data-testid="big-text"]');
    assert.match(await nodesPreview.textContent(), /362 KB in 1003 lines: its first 40 lines are shown here/);
    const head = nodesFile.split('\n').slice(0, 40).map((l) => (l.length > 160 ? `${l.slice(0, 160)}…` : l));
    assert.equal(await nodesPreview.locator('pre').textContent(), `${head.join('\n')}\n`);
    assert.equal(await page.locator('[data-testid="editor-nodes"] textarea').count(), 0);
    const pods = read('big-cluster/pods.json').toString('utf8');
    await page.click('[data-testid="tab-pods"]');
    await page.click('[data-testid="editor-pods"] [data-testid="big-text-open"]');
    assert.equal(await page.inputValue('[data-testid="editor-pods"] textarea'), pods);
    assert.equal(await page.locator('[data-testid="editor-pods"] [data-testid="big-text"]').count(), 0);
    // Typing, then Undo, keep the whole text in its textarea.
    const podsArea = page.locator('[data-testid="editor-pods"] textarea');
    await podsArea.focus();
    await page.keyboard.press('Control+End');
    await page.keyboard.type('#');
    await waitScenario(page, 'big-cluster (edited)');
    await page.keyboard.press('Control+z');
    await waitScenario(page, 'big-cluster');
    assert.equal(await podsArea.inputValue(), pods);
    assert.equal(await page.locator('[data-testid="editor-pods"] [data-testid="big-text"]').count(), 0);
    await page.click('[data-testid="tab-nodes"]');
    await page.unroute('**/scenarios/big-cluster/pods.json');
    // Its two files came from the site, each once.
    assert.deepEqual(scenarioRequests(start).sort(), ['/scenarios/big-cluster/nodes.json', '/scenarios/big-cluster/pods.json']);

    // Back to classic, and big-cluster again: at once, from what the page kept.
    const again = env.server.seen.length;
    await page.selectOption('[data-testid="gallery"]', 'classic');
    await waitStats(page, CLASSIC);
    await page.selectOption('[data-testid="gallery"]', 'big-cluster');
    await waitStats(page, BIG);
    assert.deepEqual(scenarioRequests(again), []);

    // A reload restores the tab's work: big-cluster, fetched again before the page starts
    // (once the address bar links to it: a reload before that reopens the link it holds).
    await page.waitForFunction(() => location.hash.startsWith('#example=big-cluster'));
    await page.reload();
    await waitStats(page, BIG);
    assert.equal(await scenario(page), 'big-cluster');

    // The wasm the page loaded holds none of the fetched files, and does hold classic's.
    const wasmPath = env.server.seen.find((u) => /schedlab_web[^/]*\.wasm$/.test(u));
    assert.ok(wasmPath, `the page loaded its wasm (${env.server.seen.filter((u) => u.endsWith('.wasm'))})`);
    const wasm = Buffer.from(await (await fetch(new URL(wasmPath, env.base))).arrayBuffer());
    const holds = (file) => {
      const text = read(file);
      // A piece from the middle of the file, long enough to be its own.
      const from = Math.floor(text.length / 2);
      return wasm.includes(text.subarray(from, from + 200));
    };
    assert.equal(holds('classic/pods.yaml'), true, 'the check finds a compiled-in file');
    for (const file of [
      'big-cluster/nodes.json',
      'big-cluster/pods.json',
      'anti-affinity/pods.yaml',
      'pdb-steers/pods.yaml',
      'preemption-v135/pods.yaml',
    ]) {
      assert.equal(holds(file), false, `${file} is not in the wasm`);
    }
    await context.close();
    assertNoProblems();
  });

  it('reads big-cluster a part at a time, and a pick made meanwhile supersedes it', async () => {
    const context = await env.context();
    const page = await env.tab(context, { ignoreFailed: iconCancelled });
    await page.goto(`${env.base}#example=classic`);
    await page.waitForSelector('[data-testid="node-card"][data-node="node-a1"]');
    const loads = () => page.getAttribute('[data-testid="controls"]', 'data-loads').then(Number);
    const loadsBefore = await loads();
    // A CPU four times slower, so that the read takes many parts on any machine.
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
    await page.selectOption('[data-testid="gallery"]', 'big-cluster');
    // Its pods.json (10 000 pods, 2 PriorityClasses and a Timeline: 10 003 items) is read
    // between frames, and the status line counts the items read; the page takes the next pick
    // while it reads.
    const status = await page.waitForFunction(() => {
      const text = document.querySelector('.loading')?.textContent ?? '';
      return /reading pods\.json… \d+ of 10003 items/.test(text) && text;
    });
    const [, read] = (await status.jsonValue()).match(/… (\d+) of/);
    assert.ok(Number(read) > 0 && Number(read) < 10003, `${read} items read so far`);
    // Meanwhile the status says that the results on screen are classic's, the last ones.
    await waitStatus(page, 'running the new inputs · the results shown are the last ones (kube-scheduler v1.17)');
    await page.selectOption('[data-testid="gallery"]', 'classic');
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
    await waitStats(page, CLASSIC);
    assert.equal(await scenario(page), 'classic');
    await waitStatus(page, 'kube-scheduler v1.17 · results are current');
    // The superseded load never shows: classic's run is the one loaded (it arrives from the
    // engine's worker), and stays.
    await page.waitForFunction(
      (n) => Number(document.querySelector('[data-testid="controls"]').dataset.loads) > n,
      loadsBefore,
    );
    const loadsAfter = await loads();
    assert.equal(loadsAfter, loadsBefore + 1);
    await page.waitForTimeout(2000);
    assert.equal(await loads(), loadsAfter);
    assert.equal(await stats(page).then((s) => s.startsWith(CLASSIC)), true);
    await page.waitForSelector('[data-testid="node-card"][data-node="node-a1"]');
    // And big-cluster, picked again, reads and runs to the end.
    await page.selectOption('[data-testid="gallery"]', 'big-cluster');
    await waitStats(page, BIG);
    await page.waitForSelector('[data-testid="heat-map-canvas"]');
    assertNoProblems();
    await context.close();
  });

  it('a failed fetch changes nothing but the message it shows; Try again opens the example', async () => {
    const context = await env.context();
    const failing = ['anti-affinity/nodes.yaml', 'anti-affinity/pods.yaml', 'anti-affinity/policy.json'];
    const page = await env.tab(context, { expected: failing, ignoreFailed: iconCancelled });
    page.on('dialog', (d) => d.accept());
    await page.goto(`${env.base}#example=classic`);
    await page.waitForSelector('[data-testid="node-card"][data-node="node-a1"]');
    // Edited work: one node.
    const solo =
      'apiVersion: v1\nkind: Node\nmetadata: {name: solo, labels: {kubernetes.io/hostname: solo}}\nstatus: {allocatable: {cpu: "4", memory: 8Gi, pods: "110"}}\n';
    await page.click('[data-testid="tab-nodes"]');
    await page.locator('[data-testid="editor-nodes"] textarea').fill(solo);
    await page.waitForSelector('[data-testid="node-card"][data-node="solo"]');

    await page.route('**/scenarios/anti-affinity/*', (route) => route.fulfill({ status: 404, body: 'not found' }));
    await page.selectOption('[data-testid="gallery"]', 'anti-affinity');
    const error = page.locator('[data-testid="gallery-error"]');
    await error.waitFor();
    assert.match(await error.textContent(), /The anti-affinity example could not be loaded \(.*404.*\)\. Nothing was replaced/);
    await page.screenshot({ path: path.join(SHOTS, 'schedlab-gallery-error.png') });
    // The work is as it was, and the menu names it again.
    assert.equal(await scenario(page), 'classic (edited)');
    assert.equal(await nodesText(page), solo);
    assert.equal(await page.locator('[data-testid="node-card"]').count(), 1);
    assert.equal(await page.inputValue('[data-testid="gallery"]'), 'classic');
    assert.equal(await page.locator('[data-testid="gallery-loading"]').count(), 0);

    // The site answers again: Try again opens it (after the confirm, since the work is edited).
    await page.unroute('**/scenarios/anti-affinity/*');
    await page.click('[data-testid="gallery-retry"]');
    await waitScenario(page, 'anti-affinity');
    // Its run arrives from the engine's worker: three nodes in place of the edited one.
    await page.waitForSelector('[data-testid="node-card"]:not([data-node="solo"])');
    assert.equal(await page.locator('[data-testid="node-card"]').count(), 3);
    assert.equal(await error.count(), 0);
    // Undo brings the edited work back.
    await page.click('[data-testid="undo"]');
    await page.waitForSelector('[data-testid="node-card"][data-node="solo"]');
    assert.equal(await scenario(page), 'classic (edited)');
    await context.close();
    assertNoProblems();
  });

  it('a saved tab whose example cannot be fetched says so, keeps the work saved, and restores it later', async () => {
    const context = await env.context();
    const failing = ['big-cluster/nodes.json', 'big-cluster/pods.json'];
    const page = await env.tab(context, { expected: failing, ignoreFailed: iconCancelled });
    await page.goto(`${env.base}#example=big-cluster`);
    await waitStats(page, BIG);
    // The page has made the link its own work (a reload restores the work, not the link).
    await page.waitForFunction(() => sessionStorage.getItem('schedlab.v2.tab.linked') !== null);
    // The site stops answering for big-cluster, and the tab reloads.
    await page.route('**/scenarios/big-cluster/*', (route) => route.fulfill({ status: 404, body: 'not found' }));
    await page.reload();
    const problem = page.locator('[data-testid="save-problem"]');
    await problem.waitFor();
    assert.match(await problem.textContent(), /could not be restored: it starts from the big-cluster example, which could not be loaded/);
    // The first example meanwhile; the saved work is untouched.
    await waitStats(page, CLASSIC);
    const saved = await page.evaluate(() => sessionStorage.getItem('schedlab.v2.tab.example'));
    assert.equal(saved, 'big-cluster');
    // Once the site answers, a reload brings the work back.
    await page.unroute('**/scenarios/big-cluster/*');
    await page.reload();
    await waitStats(page, BIG);
    assert.equal(await scenario(page), 'big-cluster');
    assert.equal(await problem.count(), 0);
    await context.close();
    assertNoProblems();
  });

  it('opens links to fetched examples and lessons: at load, and typed into the address bar', async () => {
    const context = await env.context();
    const page = await env.tab(context, { ignoreFailed: iconCancelled });
    // At load: the example is fetched before the page starts.
    await page.goto(`${env.base}#example=anti-affinity&cycle=4`);
    await page.waitForSelector('[data-testid="inspected-pod"]:text-is("web-3")');
    assert.equal(await scenario(page), 'anti-affinity');
    // Typed in later: fetched, then opened.
    await page.evaluate(() => (location.hash = '#example=zone-spread-v135'));
    await waitScenario(page, 'zone-spread-v135');
    await page.waitForFunction(() => document.querySelector('[data-testid="status"]')?.textContent.includes('v1.35'));
    // A lesson on a fetched example (pod-affinity runs follow-the-cache), at its second stop.
    await page.evaluate(() => (location.hash = '#lesson=pod-affinity&stop=2'));
    await waitScenario(page, 'follow-the-cache');
    await page.waitForSelector('[data-testid="lesson-panel"]');
    assert.match(await page.textContent('[data-testid="lesson-panel"]'), /Stop 2 of/);
    // A lesson from the menu on another fetched example.
    await page.selectOption('[data-testid="lessons"]', 'volume-zones');
    await waitScenario(page, 'volume-zone');
    assert.match(await page.textContent('[data-testid="lesson-panel"]'), /Stop 1 of/);
    await context.close();
    assertNoProblems();
  });
});
