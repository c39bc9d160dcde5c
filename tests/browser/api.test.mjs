// Browser test of the JavaScript API for embedders: serves dist/ (build it first with
// `bash scripts/build-api.sh && trunk build --release`), loads the example page
// (assets/api-example.html) and pages of its own in the system Chromium through
// playwright-core, and fails on any page error or console error.
//
//   node --test tests/browser/
//
// Expected placements and messages are worked out by hand from the gallery's scenarios (the
// comments in assets/scenarios/classic and assets/scenarios/preemption-v135/pods.yaml), not
// copied from the app.

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { DIST, open as openSite, ROOT, SHOTS } from './support.mjs';

const SCENARIOS = path.join(ROOT, 'assets/scenarios');
const read = (file) => fs.readFileSync(path.join(SCENARIOS, file), 'utf8');

// preemption-v135, by hand (its pods.yaml): checkout fails and preempts reports-0 on node-b;
// backfill fails with both PostFilter messages; at t=30 checkout lands on node-b.
const FIT_ERROR = '0/2 nodes are available: 2 Insufficient cpu.';
const BACKFILL =
  '0/2 nodes are available: 2 Insufficient cpu. no new claims to deallocate, preemption: 0/2 nodes are available: 2 No preemption victims found for incoming pod.';
// classic: batch-huge asks for 64 cpus; node-a2 is cordoned (CheckNodeUnschedulable comes
// first), the four others are too small.
const BATCH_HUGE =
  'default/batch-huge is Pending: 0/5 nodes are available: 1 node(s) were unschedulable, 4 Insufficient cpu.';

const BAD_PODS =
  'apiVersion: v1\nkind: Pod\nmetadata:\n  name: a\nspec:\n  containers:\n    - name: c\n      resources:\n        requests:\n          cpu: 12x\n';

// A page of our own: the element in a narrow and a wide box, loud page styles that must not
// reach inside it, a class name the element also uses outside it, and two broken scenarios.
const EMBED = `<!doctype html><meta charset="utf-8"><title>embed</title><link rel="icon" href="data:,">
<style>
  body { color: rgb(255, 0, 0); font-family: serif; font-size: 30px; }
  p, li, button, header, span { color: rgb(255, 0, 0); font-size: 40px; letter-spacing: 9px; }
  .message { background: rgb(0, 0, 255); }
</style>
<div id="narrow" style="width: 320px"><schedlab-scenario src="api/examples/preemption-v135.yaml" cycle="2"></schedlab-scenario></div>
<div id="wide" style="width: 900px"><schedlab-scenario src="files.json" cycle="99"></schedlab-scenario></div>
<div id="exported"><schedlab-scenario src="exported.yaml"></schedlab-scenario></div>
<p class="message" id="outside">outside</p>
<div id="missing"><schedlab-scenario src="no-such-scenario.yaml"></schedlab-scenario></div>
<div id="invalid"><schedlab-scenario src="invalid.json"></schedlab-scenario></div>
<script type="module" src="api/schedlab-scenario.js"></script>`;

describe('the JavaScript API and <schedlab-scenario>', () => {
  let env;
  let base;

  /** A new page whose errors count (`expected`: URLs allowed to fail). */
  const open = (expected = []) => env.newPage({ width: 1280, height: 900 }, { expected });
  const assertNoProblems = () => assert.deepEqual(env.problems.splice(0), [], 'the page reported errors');

  before(async () => {
    for (const file of ['api-example.html', 'api/schedlab.js', 'api/schedlab.d.ts', 'api/schedlab-scenario.js']) {
      assert.ok(
        fs.existsSync(path.join(DIST, file)),
        `${DIST}/${file} is missing: run \`bash scripts/build-api.sh && trunk build --release\` first`,
      );
    }
    const files = JSON.stringify([
      { name: 'nodes.yaml', text: read('preemption-v135/nodes.yaml') },
      { name: 'pods.yaml', text: read('preemption-v135/pods.yaml') },
      { name: 'config.yaml', text: read('preemption-v135/config.yaml') },
    ]);
    const invalid = JSON.stringify([{ name: 'pods.yaml', text: BAD_PODS }]);
    // What the playground's Export writes for a v1.35 example: its (unread) Policy editor too.
    const exported = [
      '# A schedlab scenario, exported from the playground.',
      '# ==== schedlab: nodes ====',
      read('preemption-v135/nodes.yaml').trimEnd(),
      '---',
      '# ==== schedlab: pods ====',
      read('preemption-v135/pods.yaml').trimEnd(),
      '---',
      '# ==== schedlab: policy ====',
      '{\n  "kind": "Policy",\n  "apiVersion": "v1"\n}',
      '---',
      '# ==== schedlab: config ====',
      read('preemption-v135/config.yaml'),
    ].join('\n');
    env = await openSite({
      pages: {
        '/embed.html': EMBED,
        '/files.json': files,
        '/invalid.json': invalid,
        '/exported.yaml': exported,
      },
    });
    base = env.base;
  });

  after(async () => {
    await env?.close();
  });

  it('runs a scenario in ten lines on the example page', async () => {
    const page = await open();
    await page.goto(`${base}api-example.html`);
    await page.waitForFunction(() => document.querySelector('#placements').textContent.includes('cycles'));
    const text = await page.textContent('#placements');
    const placed = Object.fromEntries(
      text
        .split('\n')
        .map((l) => /^(default\/\S+) +(\S+)$/.exec(l))
        .filter(Boolean)
        .map((m) => [m[1], m[2]]),
    );
    assert.equal(Object.keys(placed).length, 8);
    // db-0 asks for disktype=ssd: node-a1 and node-a2 have it, and node-a2 is cordoned.
    assert.equal(placed['default/db-0'], 'node-a1');
    // train-gpu asks for accelerator=nvidia-t4 and tolerates dedicated=gpu: only node-b2.
    assert.equal(placed['default/train-gpu'], 'node-b2');
    assert.equal(placed['default/batch-huge'], 'Pending');
    // Both ingress pods want host port 80.
    assert.notEqual(placed['default/ingress-1'], placed['default/ingress-2']);
    assert.ok(text.includes(BATCH_HUGE), text);
    assert.ok(text.includes('(8 cycles, Quiescent)'), text);
    // The page shows the script it runs.
    assert.match(await page.textContent('#source'), /Simulator\.fromFiles/);
    assertNoProblems();
  });

  it('returns plain objects, throws Errors with details, and types every call', async () => {
    const page = await open();
    await page.goto(`${base}api-example.html`);
    const r = await page.evaluate(async (badPods) => {
      const { default: init, Simulator } = await import(new URL('api/schedlab.js', location.href).href);
      await init();
      const caught = (f) => {
        try {
          f();
          return null;
        } catch (e) {
          return { isError: e instanceof Error, name: e.name, message: e.message, errors: e.errors };
        }
      };
      const text = await (await fetch('api/examples/preemption-v135.yaml')).text();
      const sim = Simulator.fromFiles({ 'preemption-v135.yaml': text });
      const before = sim.queue();
      const first = sim.step();
      const report = sim.report();
      const stop = sim.run();
      const last = sim.report();
      const explained = sim.explain('default/checkout');
      const out = {
        scheduler: sim.scheduler,
        before,
        first,
        cyclesAfterStep: report.cycles.length,
        endAfterStep: report.end,
        stop,
        cycles: last.cycles.map((c) => [c.pod, c.outcome, c.node]),
        filterKeys: Object.keys(last.cycles[0].filter),
        explained,
        afterEnd: sim.step(),
        bad: caught(() => Simulator.fromFiles([{ name: 'pods.yaml', text: badPods }])),
        unknown: caught(() => sim.explain('nobody')),
        badOptions: caught(() => Simulator.fromFiles([], { scheduler: 'v9' })),
      };
      sim.free();
      return out;
    }, BAD_PODS);
    assert.equal(r.scheduler, 'v1.35');
    assert.deepEqual(
      r.before.activeQ.map((p) => p.pod),
      ['default/checkout', 'default/backfill'],
    );
    assert.equal(r.first.pod, 'default/checkout');
    assert.equal(r.first.outcome, 'Unschedulable');
    assert.equal(r.first.message, FIT_ERROR);
    assert.equal(r.first.preemption.node, 'node-b');
    assert.deepEqual(r.first.preemption.victims, ['default/reports-0']);
    assert.equal(r.cyclesAfterStep, 1);
    assert.deepEqual(r.endAfterStep, { time: 0, reason: 'MaxCycles' });
    assert.equal(r.stop, 'Quiescent');
    assert.deepEqual(r.cycles, [
      ['default/checkout', 'Unschedulable', null],
      ['default/backfill', 'Unschedulable', null],
      ['default/checkout', 'Scheduled', 'node-b'],
      ['default/backfill', 'Unschedulable', null],
    ]);
    assert.deepEqual(r.filterKeys, ['node-a', 'node-b']);
    assert.equal(r.explained.cycle, 2);
    assert.match(r.explained.text, /^default\/checkout was scheduled to node-b/);
    assert.equal(r.afterEnd, null);
    assert.equal(r.bad.isError, true);
    assert.match(r.bad.message, /^pods\.yaml: spec\.containers\[0\]\.resources\.requests\.cpu: .*12x/);
    assert.equal(r.bad.errors.length, 1);
    assert.equal(r.bad.errors[0].file, 'pods.yaml');
    assert.equal(r.bad.errors[0].path, 'spec.containers[0].resources.requests.cpu');
    assert.equal(r.bad.errors[0].line, 10);
    assert.equal(r.unknown.isError, true);
    assert.equal(r.unknown.message, 'no pod "nobody" in the inputs');
    assert.deepEqual(r.unknown.errors, []);
    assert.equal(r.badOptions.isError, true);
    assert.equal(r.badOptions.errors[0].path, 'scheduler');
    // The declarations come with the module, generated from the Rust types.
    const dts = fs.readFileSync(path.join(DIST, 'api/schedlab.d.ts'), 'utf8');
    for (const decl of [
      'static fromFiles(files: ScenarioFile[] | Record<string, string>, options?: SimulatorOptions',
      'step(): Cycle | null;',
      'report(): Report;',
      'explain(pod: string): Explanation;',
      'queue(): Queue;',
      'export interface Report {',
      'export interface Cycle {',
      'export type SchedlabError = Error & ErrorDetails;',
    ]) {
      assert.ok(dts.includes(decl), `schedlab.d.ts lacks ${decl}`);
    }
    assertNoProblems();
  });

  it('shows a cycle with its message, moves with Next and Prev, and links to the playground', async () => {
    const page = await open();
    await page.goto(`${base}api-example.html`);
    const el = page.locator('schedlab-scenario');
    await el.locator('.frame[data-cycle="2"]').waitFor();
    assert.equal(await el.locator('.counter').textContent(), 'Cycle 2 of 4');
    assert.equal(await el.locator('.pod strong').textContent(), 'default/backfill');
    assert.equal(await el.locator('.outcome').textContent(), 'Unschedulable');
    assert.equal(await el.locator('.message').textContent(), BACKFILL);
    // After cycle 2, reports-0 is still on node-b (terminating for 30 s).
    assert.match(await el.locator('.node[data-node="node-b"]').textContent(), /default\/reports-0/);
    await page.screenshot({ path: path.join(SHOTS, 'schedlab-api-example.png'), fullPage: true });

    await el.locator('button.next').click();
    await el.locator('.frame[data-cycle="3"]').waitFor();
    assert.equal(await el.getAttribute('cycle'), '3');
    assert.equal(await el.locator('.pod strong').textContent(), 'default/checkout');
    assert.equal(await el.locator('.outcome').textContent(), 'Scheduled on node-b');
    assert.equal(await el.locator('.message').count(), 0);
    assert.equal(await el.locator('.node.chosen').getAttribute('data-node'), 'node-b');
    assert.equal(await el.locator('.node[data-node="node-b"] li.this').textContent(), 'default/checkout');
    assert.doesNotMatch(await el.locator('.node[data-node="node-b"]').textContent(), /reports-0/);

    await el.locator('button.next').click();
    await el.locator('.frame[data-cycle="4"]').waitFor();
    assert.equal(await el.locator('button.next').isDisabled(), true);
    await el.locator('button.prev').click();
    await el.locator('button.prev').click();
    await el.locator('.frame[data-cycle="2"]').waitFor();
    assert.equal(await el.locator('.message').textContent(), BACKFILL);

    // The link holds the scenario as the playground's `#scenario=` and the cycle on screen.
    await el.locator('button.next').click();
    await el.locator('.frame[data-cycle="3"]').waitFor();
    await page.waitForFunction(() =>
      document.querySelector('schedlab-scenario').shadowRoot.querySelector('a.playground')?.href.includes('#scenario='),
    );
    const href = await el.locator('a.playground').getAttribute('href');
    assert.equal(await el.locator('a.playground').textContent(), 'Open in the playground ↗');
    const url = new URL(href);
    assert.equal(url.pathname, '/');
    const params = new URLSearchParams(url.hash.slice(1));
    assert.equal(params.get('cycle'), '3');
    const payload = JSON.parse(zlib.inflateSync(Buffer.from(params.get('scenario'), 'base64url')).toString());
    assert.equal(payload.v, 1);
    assert.equal(payload.scheduler, 'v1.35');
    assert.equal(payload.seed, 0);
    assert.equal(payload.texts.nodes.trimEnd(), read('preemption-v135/nodes.yaml').trimEnd());
    assert.equal(payload.texts.pods.trimEnd(), read('preemption-v135/pods.yaml').trimEnd());
    assert.equal(payload.texts.config.trimEnd(), read('preemption-v135/config.yaml').trimEnd());
    assert.equal(payload.texts.policy, '');
    // The playground opens it on that cycle.
    const playground = await open();
    await playground.goto(href);
    await playground.waitForSelector('[data-testid="inspected-pod"]:text-is("checkout")');
    assertNoProblems();
  });

  it('sizes to its container, keeps its styles to itself and shows problems inline', async () => {
    const page = await open(['no-such-scenario.yaml']);
    await page.goto(`${base}embed.html`);
    const narrow = page.locator('#narrow schedlab-scenario');
    const wide = page.locator('#wide schedlab-scenario');
    await narrow.locator('.frame').waitFor();
    await wide.locator('.frame').waitFor();
    // A JSON array of files works as well; a cycle past the end shows the last one.
    assert.equal(await wide.locator('.counter').textContent(), 'Cycle 4 of 4');
    const box = await narrow.evaluate((e) => ({
      width: e.getBoundingClientRect().width,
      scroll: e.scrollWidth,
      client: e.clientWidth,
      frame: e.shadowRoot.querySelector('.frame').scrollWidth,
    }));
    assert.ok(box.width <= 320, JSON.stringify(box));
    assert.ok(box.scroll <= box.client && box.frame <= box.client, `overflows: ${JSON.stringify(box)}`);
    const wideWidth = await wide.evaluate((e) => e.getBoundingClientRect().width);
    assert.ok(wideWidth > 880 && wideWidth <= 900, `wide: ${wideWidth}`);
    // The page's loud styles do not reach inside.
    const inside = await narrow.evaluate((e) => {
      const s = getComputedStyle(e.shadowRoot.querySelector('.message'));
      const b = getComputedStyle(e.shadowRoot.querySelector('button'));
      return { color: s.color, size: s.fontSize, spacing: s.letterSpacing, background: s.backgroundColor, button: b.fontSize };
    });
    assert.notEqual(inside.color, 'rgb(255, 0, 0)');
    assert.notEqual(inside.size, '40px');
    assert.notEqual(inside.spacing, '9px');
    assert.notEqual(inside.background, 'rgb(0, 0, 255)');
    assert.notEqual(inside.button, '40px');
    // ...and the element's do not reach out.
    const outside = await page.evaluate(() => {
      const s = getComputedStyle(document.querySelector('#outside'));
      return { background: s.backgroundColor, font: s.fontFamily, border: s.borderLeftWidth };
    });
    assert.deepEqual(outside, { background: 'rgb(0, 0, 255)', font: 'serif', border: '0px' });
    // A playground export of a v1.35 scenario runs as the playground runs it (Policy unread),
    // and its link carries the Policy editor back.
    const exported = page.locator('#exported schedlab-scenario');
    await exported.locator('.frame').waitFor();
    assert.equal(await exported.locator('.counter').textContent(), 'Cycle 1 of 4');
    assert.equal(await exported.locator('.message').textContent(), FIT_ERROR);
    await page.waitForFunction(() =>
      document.querySelector('#exported schedlab-scenario').shadowRoot.querySelector('a.playground')?.href.includes('#scenario='),
    );
    const link = new URL(await exported.locator('a.playground').getAttribute('href'));
    const packed = new URLSearchParams(link.hash.slice(1)).get('scenario');
    const payload = JSON.parse(zlib.inflateSync(Buffer.from(packed, 'base64url')).toString());
    assert.match(payload.texts.policy, /"kind": "Policy"/);
    // Problems show inside the element; nothing is thrown into the page.
    const missing = page.locator('#missing schedlab-scenario .error');
    await missing.waitFor();
    assert.match(await missing.textContent(), /could not load no-such-scenario\.yaml: 404/);
    const invalid = page.locator('#invalid schedlab-scenario .error');
    await invalid.waitFor();
    assert.match(await invalid.textContent(), /pods\.yaml: spec\.containers\[0\]\.resources\.requests\.cpu: .*12x/);
    await page.screenshot({ path: path.join(SHOTS, 'schedlab-api-embed.png'), fullPage: true });
    assertNoProblems();
  });
});
