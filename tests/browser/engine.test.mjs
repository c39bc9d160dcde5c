// Browser test of where the playground's engine runs (web/src/engine/): in a Web Worker, so the
// page's main thread only renders; and, where no worker can run, on the page's own thread, with
// the same results.
//
// Expected placements are worked out by hand from assets/scenarios/classic and v1.17's rules (as
// in playground.test.mjs), not copied from the app.

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { open } from './support.mjs';

const chip = (page, node, pod) =>
  page.locator(`[data-testid="node-card"][data-node="${node}"] [data-testid="pod-chip"][data-pod="${pod}"]`);
const engine = (page) => page.evaluate(() => document.documentElement.dataset.engine);

/** Serves the engine's worker script with `extra` appended (run in the worker after it). */
const serveWorkerWith = (context, extra) =>
  context.route('**/engine-worker.js*', async (route) => {
    const response = await route.fetch();
    await route.fulfill({ response, body: `${await response.text()}\n${extra}` });
  });

/** Opens classic, steps it from t = 0, and checks what each step shows. */
async function stepClassic(page, base) {
  await page.goto(`${base}#example=classic`);
  await page.waitForSelector('[data-testid="node-card"]');
  // At the end of the run db-0 is bound on node-a1: it asks for disktype=ssd, which node-a1 and
  // node-a2 have, and node-a2 is cordoned.
  await page.waitForSelector('[data-testid="node-card"][data-node="node-a1"] [data-testid="pod-chip"][data-pod="db-0"][data-kind="bound"]');
  await page.click('[data-testid="control-rewind"]');
  await page.waitForSelector('[data-testid="inspector-empty"]');
  assert.equal(await page.locator('[data-testid="pod-chip"]').count(), 0);
  // One cycle: db-0 (priority 1000, first in activeQ) is assumed on node-a1.
  await page.click('[data-testid="control-step"]');
  await checkFirstCycle(page);
}

/** Checks what classic shows after its first cycle. */
async function checkFirstCycle(page) {
  await page.waitForSelector('[data-testid="inspected-pod"]:text-is("db-0")');
  assert.match(await page.textContent('[data-testid="position"]'), /cycle 1 of 8/);
  assert.equal(await chip(page, 'node-a1', 'db-0').getAttribute('data-kind'), 'assumed');
  // The inspector's tables come from the engine too: node-a2 failed the first predicate.
  const a2 = page.locator('[data-testid="filter-table"] tr[data-node="node-a2"] td.fail');
  assert.equal(await a2.textContent(), 'node(s) were unschedulable');
}

describe('the engine', () => {
  let env;

  before(async () => {
    env = await open();
  });

  after(async () => {
    await env?.close();
  });

  it('holds the session in a Web Worker', async () => {
    const context = await env.context();
    const page = await env.tab(context);
    const start = env.server.seen.length;
    await stepClassic(page, env.base);
    assert.equal(await engine(page), 'worker');
    // The worker takes the page's compiled wasm module: the wasm is downloaded once.
    const wasm = env.server.seen.slice(start).filter((u) => /_bg\.wasm$/.test(u.split('?')[0]));
    assert.equal(wasm.length, 1, wasm.join('\n'));
    assert.ok(
      page.workers().some((w) => w.url().includes('engine-worker.js') && w.url().includes('role=session')),
      page.workers().map((w) => w.url()).join('\n'),
    );
    assert.deepEqual(env.problems.splice(0), []);
    await context.close();
  });

  it('runs on the page\'s thread when no worker starts, with the same results', async () => {
    const context = await env.context();
    // The worker's script fails to load (a missing file): the page drops the worker and runs the
    // engine itself, from the load it had sent.
    await context.addInitScript(() => {
      const Real = window.Worker;
      window.Worker = function (url, options) {
        return new Real('missing-worker.js', options);
      };
    });
    const page = await env.tab(context);
    await stepClassic(page, env.base);
    assert.equal(await engine(page), 'page');
    const problems = env.problems.splice(0);
    assert.ok(problems.every((p) => p.includes('missing-worker.js')), problems.join('\n'));
    await context.close();
  });

  it('goes on on the page\'s thread when the worker fails in the middle of a walk', async () => {
    const context = await env.context();
    // The session worker, as served, hands the wasm an unreadable request in place of the first
    // step after a rewind: the wasm refuses it, and the worker reports the failure (the path of
    // a panic inside it).
    await serveWorkerWith(context, `if (session) {
  const handle = self.onmessage;
  let rewound = false;
  self.onmessage = (event) => {
    const go = event.data.request && JSON.parse(event.data.request).GoTo;
    if (go && go.position === 0) rewound = true;
    if (go && go.position > 0 && rewound) return handle({ data: { request: 'not a request' } });
    return handle(event);
  };
}`);
    const page = await env.tab(context);
    const warnings = [];
    page.on('console', (m) => m.type() === 'warning' && warnings.push(m.text()));
    await page.goto(`${env.base}#example=classic`);
    await page.waitForSelector('[data-testid="node-card"][data-node="node-a1"] [data-testid="pod-chip"][data-pod="db-0"][data-kind="bound"]');
    assert.equal(await engine(page), 'worker');
    await page.click('[data-testid="control-rewind"]');
    await page.waitForSelector('[data-testid="inspector-empty"]');
    // The step's request fails in the worker: the page loads its run again on its own thread,
    // at the place the step asked for.
    await page.click('[data-testid="control-step"]');
    await checkFirstCycle(page);
    assert.equal(await engine(page), 'page');
    assert.ok(warnings.some((w) => /the engine's worker failed .*could not read a request.*running on the page's thread/.test(w)), warnings.join('\n'));
    // And it goes on from there: the second cycle is web-1's (priority 0 like five others, and
    // the first of them in pods.yaml).
    await page.click('[data-testid="control-step"]');
    await page.waitForSelector('[data-testid="inspected-pod"]:text-is("web-1")');
    assert.match(await page.textContent('[data-testid="position"]'), /cycle 2 of 8/);
    assert.deepEqual(env.problems.splice(0), []);
    await context.close();
  });

  it('goes on on the page\'s thread when the worker fails behind a big reply', async () => {
    const context = await env.context();
    // The session worker, as served, reports a failure right after it posts the first reply of
    // more than 64 KB (big-cluster's run): that reply still waits in the page's inbox when the
    // failure arrives.
    await serveWorkerWith(context, `if (session) {
  const post = self.postMessage.bind(self);
  let failed = false;
  self.postMessage = (message) => {
    post(message);
    if (!failed && typeof message === 'string' && message.length > 65536) {
      failed = true;
      post({ error: 'a test made the worker fail behind a big reply' });
    }
  };
}`);
    const page = await env.tab(context);
    await page.goto(`${env.base}#example=classic`);
    await page.waitForSelector('[data-testid="node-card"][data-node="node-a1"]');
    await page.selectOption('[data-testid="gallery"]', 'big-cluster');
    // The page runs big-cluster again on its own thread, and shows it: 1000 nodes and 10 000
    // pods (scripts/gen-big-cluster.py), at the end of the run, as a heat-map.
    await page.waitForFunction(() => document.documentElement.dataset.engine === 'page', null, { timeout: 60000 });
    await page.waitForFunction(
      () => document.querySelector('.scenario-stats')?.textContent.startsWith('1000 nodes · 10000 pods'),
      null,
      { timeout: 90000 },
    );
    await page.waitForSelector('[data-testid="heat-map-canvas"]');
    await page.waitForFunction(() => !document.querySelector('.loading')?.textContent, null, { timeout: 90000 });
    assert.match(await page.textContent('[data-testid="status"]'), /results are current/);
    // At the end of the run: its last cycle and step.
    assert.match(await page.textContent('[data-testid="position"]'), /cycle (\d+) of \1 · step (\d+) of \2$/);
    assert.deepEqual(env.problems.splice(0), []);
    await context.close();
  });

  it('runs on the page\'s thread in a browser without Worker', async () => {
    const context = await env.context();
    await context.addInitScript(() => {
      delete window.Worker;
    });
    const page = await env.tab(context);
    await stepClassic(page, env.base);
    assert.equal(await engine(page), 'page');
    assert.deepEqual(env.problems.splice(0), []);
    await context.close();
  });
});
