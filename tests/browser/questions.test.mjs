// Browser test of the questions panel (web/src/components/questions_panel.rs): Compare shows
// both clusters with the moved pod highlighted, its score tables side by side and the summary
// chart, and the link carries configuration B; Sweep draws its chart and a click on a point
// opens that run; Capacity counts the copies and names the first that does not fit. They run
// in a Web Worker (web/src/background.rs): a question can be cancelled, and when the worker
// cannot start the page answers the same on its own thread.
//
//   node --test tests/browser/questions.test.mjs
//
// The scenarios are tests/questions/*/cluster.yaml, split into the Nodes and Pods editors; every
// figure asserted below is worked out by hand in tests/tests/questions.rs:
// - least-vs-most: LeastAllocated puts `web` on node-a (475 against 425), MostAllocated on
//   node-b (475 against 425);
// - v117-vs-v135 under v1.17's DefaultProvider: TaintTolerationPriority's weight 1 keeps `web`
//   on node-a (CPU mean 43.8 %, no empty node), weights 2 and 3 move it to node-b (50.0 %, one
//   empty node);
// - capacity of 1 CPU / 2Gi copies on least-vs-most under v1.17: 5 (node-a 3, node-b 2), the
//   6th Pending with "0/2 nodes are available: 2 Insufficient cpu, 2 Insufficient memory.".

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { DIST, open, paste, ROOT, SHOTS } from './support.mjs';

const QUESTIONS = path.join(ROOT, 'tests/questions');
const read = (p) => fs.readFileSync(path.join(QUESTIONS, p), 'utf8');

/** The nodes and pods of a cluster.yaml, as two List texts. */
function split(cluster) {
  const [head, ...items] = cluster.split('\n- ');
  const lists = { Node: [], Pod: [] };
  for (const item of items) {
    const kind = /kind: (\w+)/.exec(item)[1];
    lists[kind].push(`- ${item}`);
  }
  const header = head.slice(head.indexOf('apiVersion: v1'));
  return {
    nodes: `${header}\n${lists.Node.join('\n')}\n`,
    pods: `${header}\n${lists.Pod.join('\n')}\n`,
  };
}

async function fillEditors(page, { nodes, pods, policy = '', config = '' }) {
  for (const [stem, text] of [['nodes', nodes], ['pods', pods], ['policy', policy], ['config', config]]) {
    await page.click(`[data-testid="tab-${stem}"]`);
    await paste(page, stem, text);
  }
  await page.waitForFunction(() => !document.querySelector('[data-testid="diagnostic"]'));
}

/** A 1400×1000 tab on the page with `editors` in the editors and the panel open on `tab`; the
 * v1.17 DefaultProvider Policy and configuration unless `editors` say otherwise. */
async function start(editors, tab, on = env, prepare = async () => {}) {
  const context = await on.context({ viewport: { width: 1400, height: 1000 } });
  await prepare(context);
  const page = await on.tab(context);
  await page.goto(`${on.base}#example=classic`);
  await page.waitForSelector('[data-testid="questions"]');
  await fillEditors(page, {
    policy: '{"kind": "Policy", "apiVersion": "v1"}\n',
    config: read('../../assets/scenarios/config.yaml'),
    ...editors,
  });
  await openPanel(page, tab);
  return { context, page };
}

/** Counts the copies of a 1 CPU / 2Gi pod (the panel open on Capacity) and checks the answer
 * worked out by hand: 5 copies. */
async function countCopies(page) {
  await page.fill(
    '[data-testid="capacity-template"]',
    "apiVersion: v1\nkind: Pod\nmetadata: {name: extra}\nspec:\n  containers:\n  - name: c\n    image: i\n    resources: {requests: {cpu: '1', memory: 2Gi}}\n",
  );
  await page.click('[data-testid="capacity-run"]');
  await page.waitForSelector('[data-testid="capacity-count"]');
  assert.equal(
    (await page.textContent('[data-testid="capacity-count"]')).trim(),
    'default/extra: 5 more copies fit (kube-scheduler v1.17).',
  );
}

let env;

async function openPanel(page, tab) {
  const details = page.locator('[data-testid="questions"] details');
  if (!(await details.evaluate((d) => d.open))) await page.click('[data-testid="questions-toggle"]');
  await page.click(`[data-testid="questions-tab-${tab}"]`);
}

describe('the questions panel: compare, sweep, capacity', () => {
  before(async () => {
    env = await open();
  });
  after(async () => env?.close());

  it("the header's Compare brings the whole panel into view at 1024 × 768", async () => {
    // Before the panel's body has loaded, the page cannot scroll far enough to show it: the body
    // scrolls the panel up once drawn, so its controls are on screen, not below the fold.
    const context = await env.context({ viewport: { width: 1024, height: 768 } });
    const page = await env.tab(context);
    await page.goto(`${env.base}#example=classic`);
    await page.waitForSelector('[data-testid="node-card"]');
    await page.click('[data-testid="open-questions"]');
    const run = page.locator('[data-testid="compare-run"]');
    await run.waitFor();
    await page.waitForFunction(() => {
      const r = document.querySelector('[data-testid="compare-run"]').getBoundingClientRect();
      return r.top >= 0 && r.bottom <= window.innerHeight;
    }, null, { timeout: 5000 });
    // The whole panel: its title on screen too.
    const title = await page.locator('[data-testid="questions-toggle"]').boundingBox();
    assert.ok(title.y >= 0 && title.y + title.height <= 768, `the panel's title is on screen (${title.y})`);
    await context.close();
  });

  it('compares LeastAllocated with MostAllocated side by side, and the link carries B', async () => {
    const { context, page } = await start(
      { ...split(read('least-vs-most/cluster.yaml')), policy: '', config: read('least-vs-most/least-allocated.yaml') },
      'compare',
    );
    await page.selectOption('[data-testid="compare-b"]', 'text');
    await page.fill('[data-testid="compare-b-text"]', read('least-vs-most/most-allocated.yaml'));
    await page.click('[data-testid="compare-run"]');
    await page.waitForSelector('[data-testid="compare-headline"]');
    assert.equal(
      (await page.textContent('[data-testid="compare-headline"]')).trim(),
      '1 pod(s) end differently, 0 the same.',
    );
    // The moved pod is highlighted on node-a under A and on node-b under B.
    const rows = page.locator('[data-testid="compare-clusters"] tbody tr');
    const cell = (row, col) => rows.nth(row).locator('td').nth(col);
    assert.equal(await cell(0, 0).locator('.pod-chip.differs').textContent(), 'web');
    assert.equal(await cell(0, 1).locator('.pod-chip').count(), 0);
    assert.equal(await cell(1, 1).locator('.pod-chip.differs').textContent(), 'web');
    assert.equal(await cell(1, 1).locator('.pod-chip:not(.differs)').textContent(), 'running');
    // The score tables of both sides: totals 475 / 425 under A, 475 / 425 under B.
    const totals = await page.locator('[data-testid="compare-detail"] tr.total td').allTextContents();
    assert.deepEqual(totals, ['475', '425', '475', '425']);
    assert.ok(await page.locator('[data-testid="compare-chart"] svg rect.bar-b').count() === 4);
    // Empty nodes: none under A, node-a under B.
    const summary = await page.locator('[data-testid="compare-summary"] tr').allTextContents();
    assert.ok(summary.includes('empty nodes01'), summary.join(' | '));
    await page.locator('[data-testid="questions"]').screenshot({ path: path.join(SHOTS, 'questions-compare.png') });

    // The address bar now carries configuration B; opening it shows the same comparison.
    await page.waitForFunction(() => location.hash.includes('compare=text.'));
    const url = page.url();
    const other = await env.tab(context);
    await other.goto(url);
    await other.waitForSelector('[data-testid="compare-headline"]', { timeout: 30000 });
    assert.equal(
      (await other.textContent('[data-testid="compare-headline"]')).trim(),
      '1 pod(s) end differently, 0 the same.',
    );
    assert.deepEqual(env.problems.splice(0), []);
    await context.close();
  });

  it('sweeps a v1.17 weight, charts it, and a click on a point opens that run', async () => {
    const { context, page } = await start(split(read('v117-vs-v135/cluster.yaml')), 'sweep');
    await page.selectOption('[data-testid="sweep-setting"]', 'weight');
    await page.fill('[data-testid="sweep-weight-of"]', 'TaintTolerationPriority');
    await page.fill('[data-testid="sweep-values"]', '1..3');
    await page.click('[data-testid="sweep-run"]');
    await page.waitForSelector('[data-testid="sweep-chart"]');
    const rows = await page.locator('[data-testid="sweep-table"] tbody tr').evaluateAll((trs) =>
      trs.map((tr) => [...tr.children].slice(0, 8).map((c) => c.textContent.trim())),
    );
    assert.deepEqual(rows, [
      ['1', '1', '0', '0', '43.8%', '31.2%', '9.4%', '0'],
      ['2', '1', '0', '0', '50.0%', '50.0%', '15.6%', '1'],
      ['3', '1', '0', '0', '50.0%', '50.0%', '15.6%', '1'],
    ]);
    // Axes, a legend and four lines.
    assert.equal(await page.locator('[data-testid="sweep-chart"] polyline').count(), 4);
    assert.equal(await page.locator('[data-testid="sweep-chart"] .legend-item').count(), 4);
    assert.ok((await page.textContent('[data-testid="sweep-chart"] svg')).includes('weight.TaintTolerationPriority'));
    await page.locator('[data-testid="questions"]').screenshot({ path: path.join(SHOTS, 'questions-sweep.png') });
    // Weight 2: the Policy editor gets the DefaultProvider's priorities with that weight.
    await page.click('[data-testid="sweep-point-1"]');
    await page.click('[data-testid="tab-policy"]');
    await page.waitForFunction(() =>
      document.querySelector('[data-testid="editor-policy"] textarea')?.value.includes('TaintTolerationPriority'),
    );
    const policy = JSON.parse(await page.locator('[data-testid="editor-policy"] textarea').inputValue());
    const taint = policy.priorities.find((p) => p.name === 'TaintTolerationPriority');
    assert.equal(taint.weight, 2);
    assert.deepEqual(env.problems.splice(0), []);
    await context.close();
  });

  it('counts the copies that still fit and names the first that does not', async () => {
    const { context, page } = await start(split(read('least-vs-most/cluster.yaml')), 'capacity');
    await countCopies(page);
    assert.ok(
      (await page.textContent('[data-testid="capacity-failure"]')).includes(
        '0/2 nodes are available: 2 Insufficient cpu, 2 Insufficient memory.',
      ),
    );
    const perNode = await page.locator('[data-testid="capacity-nodes"] tbody tr').allTextContents();
    assert.deepEqual(perNode, ['node-a3', 'node-b2']);
    // It ran in the background worker, not on the page's thread.
    assert.equal(await page.getAttribute('[data-testid="questions-ran"]', 'data-in-worker'), 'true');
    // A template that is not a valid pod gets its error, with the path.
    await page.fill('[data-testid="capacity-template"]', 'apiVersion: v1\nkind: Pod\nmetadata: {name: x}\nspec: {containers: [{name: c, image: i, resources: {requests: {cpu: 12x}}}]}\n');
    await page.click('[data-testid="capacity-run"]');
    await page.waitForSelector('[data-testid="questions-errors"]');
    assert.ok((await page.textContent('[data-testid="questions-errors"]')).includes('resources.requests.cpu'));
    await page.locator('[data-testid="questions"]').screenshot({ path: path.join(SHOTS, 'questions-capacity.png') });
    assert.deepEqual(env.problems.splice(0), []);
    await context.close();
  });

  it('without a worker, answers the same on the page\'s thread', async () => {
    // The worker's script fails to load (a missing file): the question runs on the page's
    // thread instead, with the same answer as in the worker (the test above).
    const missingWorker = (context) =>
      context.addInitScript(() => {
        const Real = window.Worker;
        window.Worker = function (url, options) {
          return new Real('missing-worker.js', options);
        };
      });
    const { context, page } = await start(split(read('least-vs-most/cluster.yaml')), 'capacity', env, missingWorker);
    await countCopies(page);
    assert.equal(await page.getAttribute('[data-testid="questions-ran"]', 'data-in-worker'), 'false');
    assert.ok((await page.textContent('[data-testid="questions-ran"]')).includes("on the page's own thread"));
    // The only problems the page met are the missing script's.
    const problems = env.problems.splice(0);
    assert.ok(problems.length > 0 && problems.every((p) => p.includes('missing-worker.js')), problems.join('\n'));
    await context.close();
  });

  it('a cancelled question leaves no answer behind', async () => {
    // 1000 runs of 200 nodes and 400 pods: seconds of work, so that Cancel finds it running
    // (1000 runs of the small question cluster can finish before the click lands).
    const list = (items) => `apiVersion: v1\nkind: List\nitems:\n${items.join('')}`;
    const many = {
      nodes: list(Array.from({ length: 200 }, (_, i) =>
        `- {apiVersion: v1, kind: Node, metadata: {name: n${i}}, status: {allocatable: {cpu: '8', memory: 16Gi, pods: '110'}}}\n`)),
      pods: list(Array.from({ length: 400 }, (_, i) =>
        `- {apiVersion: v1, kind: Pod, metadata: {name: p${i}}, spec: {containers: [{name: c, image: i, resources: {requests: {cpu: 100m}}}]}}\n`)),
    };
    const { context, page } = await start(many, 'sweep');
    await page.fill('[data-testid="sweep-values"]', '0..999');
    await page.click('[data-testid="sweep-run"]');
    await page.click('[data-testid="questions-cancel"]');
    assert.equal(await page.locator('[data-testid="questions-cancel"]').count(), 0);
    // Its worker was stopped: nothing arrives later (an answer would show within this wait).
    await page.waitForTimeout(1500);
    assert.equal(await page.locator('[data-testid="sweep-chart"]').count(), 0);
    // Asking again works, in a new worker.
    await page.fill('[data-testid="sweep-values"]', '1,2');
    await page.click('[data-testid="sweep-run"]');
    await page.waitForSelector('[data-testid="sweep-chart"]');
    assert.equal(await page.getAttribute('[data-testid="questions-ran"]', 'data-in-worker'), 'true');
    assert.deepEqual(env.problems.splice(0), []);
    await context.close();
  });

  // Only where the site has the threaded build (scripts/build-api-threads.sh, which
  // scripts/build-api.sh runs; Trunk copies it as api-threads/).
  const threaded = fs.existsSync(path.join(DIST, 'api-threads/schedlab_threads.js'));
  it('shares a sweep over a thread pool where the page is isolated, with the same answer', { skip: !threaded && 'no api-threads/ in the site' }, async () => {
    const isolated = await open({
      headers: { 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp' },
    });
    try {
      const tables = [];
      for (const on of [env, isolated]) {
        const from = on.server.seen.length;
        const { context, page } = await start(split(read('v117-vs-v135/cluster.yaml')), 'sweep', on);
        await page.selectOption('[data-testid="sweep-setting"]', 'weight');
        await page.fill('[data-testid="sweep-weight-of"]', 'TaintTolerationPriority');
        await page.fill('[data-testid="sweep-values"]', '1..3');
        await page.click('[data-testid="sweep-run"]');
        await page.waitForSelector('[data-testid="sweep-table"]', { timeout: 60000 });
        tables.push(await page.textContent('[data-testid="sweep-table"]'));
        const ran = await page.textContent('[data-testid="questions-ran"]');
        const threads = Number(await page.getAttribute('[data-testid="questions-ran"]', 'data-threads'));
        if (on === env) {
          // Not isolated: the worker runs the page's own wasm, on one thread, and says why.
          assert.equal(threads, 1);
          assert.ok(ran.includes('on one thread: the page is not cross-origin isolated'), ran);
          // It took the page's compiled module, as the session's worker did: one download.
          const pageWasm = on.server.seen.slice(from).filter((u) => /schedlab_web-[^/]*_bg\.wasm$/.test(u.split('?')[0]));
          assert.equal(pageWasm.length, 1, pageWasm.join('\n'));
        } else {
          // Isolated: a pool as wide as the machine.
          const cores = await page.evaluate(() => navigator.hardwareConcurrency);
          assert.equal(threads, Math.max(1, cores));
          if (cores > 1) assert.ok(ran.includes(`on ${cores} threads`), ran);
        }
        assert.deepEqual(on.problems.splice(0), []);
        await context.close();
      }
      // The same table (the hand-worked one of the sweep test above), on one thread and on N.
      assert.equal(tables[1], tables[0]);
    } finally {
      await isolated.close();
    }
  });

  it('the header\'s Compare button opens the panel and brings it into view', async () => {
    const context = await env.context();
    const page = await env.tab(context);
    await page.goto(`${env.base}#example=classic`);
    await page.waitForSelector('[data-testid="node-card"]');
    const details = page.locator('[data-testid="questions"] details');
    assert.equal(await details.evaluate((d) => d.open), false);
    await page.click('[data-testid="open-questions"]');
    await page.waitForFunction(() => document.querySelector('[data-testid="questions"] details').open);
    await page.waitForSelector('[data-testid="compare-pane"]');
    const box = await page.locator('[data-testid="questions-toggle"]').boundingBox();
    assert.ok(box.y >= 0 && box.y < 800, `the panel's heading is in view (y = ${box.y})`);
    // Opening the panel starts the worker, before any question.
    // (The page's other worker holds its session: `role=session`.)
    const questions = (w) => w.url().includes('engine-worker.js') && !w.url().includes('role=session');
    const worker = page.workers().find(questions) ?? (await page.waitForEvent('worker', { predicate: questions }));
    assert.ok(questions(worker), worker.url());
    assert.deepEqual(env.problems.splice(0), []);
    await context.close();
  });
});
