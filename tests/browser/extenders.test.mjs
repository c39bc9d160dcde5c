// Browser test of scheduler extenders on the page, against the real test extender
// (tests/extender/extender.py) reached through `schedlab extender-proxy` (the extender sends
// no CORS headers; the proxy adds them), in both versions: a live run (filter, prioritize,
// bind) shown in the inspector, saved as a recording and replayed from a link with the server
// stopped, a mock made in the Extenders editor's form, the failures a browser meets (CORS,
// nothing listening) worded with what to do, and the kubernetes#141781 switch.
//
//   node --test tests/browser/extenders.test.mjs
//
// scripts/test.sh starts the extender once for the browser tests (SCHEDLAB_EXTENDER_URL);
// run alone, this file starts its own. The proxy is the CLI's (SCHEDLAB_BIN, else
// target/release/schedlab or target/debug/schedlab).
//
// Expected values, by hand from the extender's docstring and extenders-plugins.md §A: nodes
// n1, n2-bad, n3 and n4-never, one pod p. The filter fails n2-bad ("n2-bad is bad", FailedNodes)
// and n4-never ("n4-never can never fit", FailedAndUnresolvableNodes: v1.35 reads it, v1.17
// does not, so there the node is just left out). The extender scores a node by the number its
// name ends with: n1 1, n3 3, so with weight 2 it adds 1 × 2 × 10 = 20 and 3 × 2 × 10 = 60.
// The plugins score n1 and n3 alike (empty, equal nodes), so n3 wins, and the extender binds
// p to n3.

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import zlib from 'node:zlib';
import { DIST, open, paste, ROOT, SHOTS } from './support.mjs';

/** Starts `command args` and resolves with the child and the first line matching `pattern`
 * on its stdout or stderr (its match). */
function start(command, args, pattern) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const timer = setTimeout(() => reject(new Error(`${command} did not start`)), 15_000);
    for (const stream of [child.stdout, child.stderr]) {
      readline.createInterface({ input: stream }).on('line', (line) => {
        const m = pattern.exec(line);
        if (m) {
          clearTimeout(timer);
          resolve({ child, match: m });
        }
      });
    }
    child.on('error', reject);
  });
}

const stop = (child) =>
  new Promise((resolve) => {
    if (!child || child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', resolve);
    child.kill();
  });

/** The extender program on a free port: `{child, url}` (`http://127.0.0.1:PORT`). */
async function startExtender() {
  const { child, match } = await start('python3', [path.join(ROOT, 'tests/extender/extender.py'), '--port', '0'], /^(\d+)$/);
  return { child, url: `http://127.0.0.1:${match[1]}` };
}

/** The CLI (for its extender-proxy). */
function schedlabBin() {
  const candidates = [process.env.SCHEDLAB_BIN, path.join(ROOT, 'target/release/schedlab'), path.join(ROOT, 'target/debug/schedlab')];
  const found = candidates.find((p) => p && fs.existsSync(p));
  assert.ok(found, 'the schedlab binary: build it (cargo build -p schedlab_cli) or set SCHEDLAB_BIN');
  return found;
}

/** `schedlab extender-proxy --to to` on a free loopback port: `{child, url}`. */
async function startProxy(to) {
  const { child, match } = await start(
    schedlabBin(),
    ['extender-proxy', '--to', to, '--listen', '127.0.0.1:0'],
    /forwarding (http:\/\/127\.0\.0\.1:\d+)\//,
  );
  return { child, url: match[1] };
}

const getJson = async (url) => (await fetch(url)).json();

/** The editors' texts a `#scenario=` link carries (`{}` for any other address). */
function linkTexts(url) {
  const packed = /[#&]scenario=([^&]*)/.exec(url)?.[1];
  if (!packed) return {};
  return JSON.parse(zlib.inflateSync(Buffer.from(packed, 'base64url')).toString()).texts ?? {};
}

const NODES = JSON.stringify({
  apiVersion: 'v1',
  kind: 'List',
  items: ['n1', 'n2-bad', 'n3', 'n4-never'].map((n) => ({
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name: n },
    status: { allocatable: { cpu: '4', memory: '8Gi', pods: '110' } },
  })),
});
const PODS = 'apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers: [{name: c, resources: {requests: {cpu: 100m}}}]\n';

/** The scheduler's configuration with one extender at `url` (filter, prioritize, bind;
 * weight 2): a v1.17 Policy (httpTimeout in nanoseconds) or a v1 configuration. */
function configFor(version, url) {
  if (version === 'v1.17') {
    return {
      editor: 'policy',
      text: JSON.stringify({
        kind: 'Policy',
        apiVersion: 'v1',
        predicates: [{ name: 'PodFitsResources' }],
        priorities: [{ name: 'LeastRequestedPriority', weight: 1 }],
        extenders: [{ urlPrefix: url, filterVerb: 'filter', prioritizeVerb: 'prioritize', bindVerb: 'bind', weight: 2, httpTimeout: 5000000000 }],
      }),
    };
  }
  return {
    editor: 'config',
    text: `apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nextenders:\n- urlPrefix: ${url}\n  filterVerb: filter\n  prioritizeVerb: prioritize\n  bindVerb: bind\n  weight: 2\n  httpTimeout: 5s\n`,
  };
}

/** The node of pod p in the pods table, once a run placed it (or `null`). */
const nodeOfP = (page) =>
  page.textContent('[data-testid="pod-row"][data-pod="p"] [data-testid="pod-node"]').catch(() => null);

describe('scheduler extenders on the page', () => {
  let env;
  let extender;
  let ownExtender = null;
  let proxy;

  before(async () => {
    env = await open();
    if (process.env.SCHEDLAB_EXTENDER_URL) {
      extender = { url: process.env.SCHEDLAB_EXTENDER_URL };
    } else {
      ownExtender = await startExtender();
      extender = ownExtender;
    }
    proxy = await startProxy(extender.url);
  });

  after(async () => {
    await env?.close();
    await stop(proxy?.child);
    await stop(ownExtender?.child);
  });

  /** A new page on the classic example with this scenario pasted in: the nodes, the pod, the
   * Extenders editor's text, then the configuration naming the extender at `url`. */
  async function scenario(version, url, extenders = '') {
    const page = await env.newPage({ width: 1500, height: 1000 });
    await page.goto(`${env.base}#example=classic`);
    await page.waitForSelector('[data-testid="node-card"]');
    await paste(page, 'nodes', NODES);
    await paste(page, 'pods', PODS);
    await paste(page, 'extenders', extenders);
    const c = configFor(version, url);
    await paste(page, c.editor, c.text);
    await page.click('[data-testid="view-pods"]');
    await page.waitForSelector('[data-testid="pod-row"][data-pod="p"]');
    return page;
  }

  /** Waits until the run has placed p (on `node`), then inspects p. */
  async function inspectP(page, node = 'n3') {
    await page.waitForFunction(
      (n) => document.querySelector('[data-testid="pod-row"][data-pod="p"] [data-testid="pod-node"]')?.textContent === n,
      node,
      { timeout: 20_000 },
    );
    await page.click('[data-testid="pod-row"][data-pod="p"]');
    await page.waitForSelector('[data-testid="inspected-pod"]:text-is("p")');
    return page.locator('[data-testid="inspector"]');
  }

  /** The inspector's extender calls and tables, as the expected values say (`url`: the
   * extender's urlPrefix). */
  async function checkInspector(inspector, version, source, url) {
    const call = (verb) => inspector.locator(`[data-testid="extender-call"][data-verb="${verb}"]`);
    for (const verb of ['filter', 'prioritize', 'bind']) {
      assert.equal(await call(verb).count(), 1, verb);
      assert.equal(await call(verb).getAttribute('data-source'), source, verb);
    }
    // filter: n2-bad failed with its message; n4-never unresolvable (v1.35) or left out.
    const failed = call('filter').locator('[data-testid="extender-failed"]');
    assert.match(await failed.locator('li[data-node="n2-bad"]').textContent(), /n2-bad is bad/);
    const never = await failed.locator('li[data-node="n4-never"]').textContent();
    if (version === 'v1.35') assert.match(never, /n4-never can never fit.*unresolvable/);
    else assert.match(never, /left out, with no message/);
    // The filter table's extender column.
    const bad = inspector.locator('[data-testid="filter-table"] tr[data-node="n2-bad"] td.fail');
    assert.match(await bad.textContent(), /^n2-bad is bad/);
    assert.equal(
      await inspector.locator('[data-testid="filter-table"] th[data-testid="extender-column"]').getAttribute('data-name'),
      `Extender(${url})`,
    );
    // prioritize: raw × weight × 10, in its own table and as the score table's last column.
    const scores = call('prioritize').locator('[data-testid="extender-scores"]');
    assert.deepEqual(
      await scores.locator('tbody tr').evaluateAll((rows) =>
        rows.map((r) => [r.dataset.node, ...[...r.querySelectorAll('td')].map((td) => td.textContent.trim())]),
      ),
      [
        ['n1', '1', '× 2 × 10', '20'],
        ['n3', '3', '× 2 × 10', '60'],
      ],
    );
    const cell = inspector.locator('[data-testid="score-table"] tr[data-node="n3"] td.score').last();
    assert.equal((await cell.textContent()).replace(/\s+/g, ''), '3→30×2');
    assert.match(await inspector.locator('[data-testid="score-table"] th[data-testid="extender-column"]').textContent(), /weight 2 ×10/);
    // bind: the extender bound p to n3; the request and the reply are there, collapsed.
    assert.match(await call('bind').textContent(), /binds the pod to n3/);
    const request = call('filter').locator('[data-testid="extender-request"]');
    assert.equal(await request.getAttribute('open'), null);
    await request.locator('summary').click();
    assert.match(await request.locator('pre').textContent(), /"Pod":/);
  }

  for (const version of ['v1.17', 'v1.35']) {
    it(`${version}: calls the extender live, shows every call, saves them as a recording that a link replays with the server stopped`, async () => {
      // This test stops its server: one of its own, behind a proxy of its own.
      const own = await startExtender();
      const ownProxy = await startProxy(own.url);
      try {
        const url = `${ownProxy.url}/basic`;
        const page = await scenario(version, url);
        const inspector = await inspectP(page);
        await checkInspector(inspector, version, 'live', url);
        // The extender was really called, once per verb, and bound p to n3.
        const log = await getJson(`${own.url}/log`);
        assert.deepEqual(log.map((c) => c.path), ['/basic/filter', '/basic/prioritize', '/basic/bind']);
        const bindings = await getJson(`${own.url}/bindings`);
        assert.deepEqual(bindings.map((b) => [b.PodName, b.Node]), [['p', 'n3']]);
        // v1.35 reproduces kubernetes#141781 (the extender is not nodeCacheCapable).
        assert.equal(await inspector.locator('[data-testid="fresh-nodes"]').count(), version === 'v1.35' ? 1 : 0);
        if (version === 'v1.35') await inspector.screenshot({ path: path.join(SHOTS, 'schedlab-extenders-inspector.png') });

        // Saved as a recording in the Extenders editor.
        await page.click('[data-testid="tab-extenders"]');
        const panel = page.locator('[data-testid="extenders-panel"]');
        assert.equal(await panel.locator('[data-testid="configured-extender"]').getAttribute('data-answered-by'), 'live');
        assert.match(await panel.locator('[data-testid="extender-live-calls"]').textContent(), /^3 live call/);
        await panel.locator('[data-testid="extender-save-recording"]').click();
        await page.waitForFunction(() =>
          document.querySelector('[data-testid="configured-extender"]')?.dataset.answeredBy === 'recording',
        );
        const text = await page.inputValue('[data-testid="editor-extenders"] textarea');
        assert.match(text, /kind: ExtenderRecording/);
        assert.equal((text.match(/- url: /g) ?? []).length, 3);
        // The address bar follows the work a moment later: the link holds the recording.
        let link = '';
        for (let i = 0; i < 100 && !/kind: ExtenderRecording/.test(linkTexts(link).extenders ?? ''); i++) {
          await page.waitForTimeout(100);
          link = page.url();
        }
        assert.match(linkTexts(link).extenders ?? '', /kind: ExtenderRecording/, 'the link carries the recording');

        // The server stopped: the link replays the run from the recording alone.
        await stop(ownProxy.child);
        await stop(own.child);
        const replay = await env.newPage({ width: 1500, height: 1000 }, { requests: true });
        await replay.goto(link);
        await replay.click('[data-testid="view-pods"]');
        const again = await inspectP(replay);
        await checkInspector(again, version, 'recording', url);
        assert.equal(await replay.locator('[data-testid="extender-failures"]').count(), 0);
        await replay.close();
        await page.close();
      } finally {
        await stop(ownProxy.child);
        await stop(own.child);
      }
      assert.deepEqual(env.problems, []);
    });
  }

  it('answers with a mock made in the Extenders editor\'s form, calling no server', async () => {
    const url = `${proxy.url}/basic`;
    const before = (await getJson(`${extender.url}/log`)).length;
    // A mock from the start: the run never calls the server.
    const page = await scenario('v1.35', url, `apiVersion: schedlab.dev/v1alpha1\nkind: ExtenderMock\nmetadata: {name: basic}\nurlPrefix: ${url}\nrules: []\n`);
    const editor = page.locator('[data-testid="editor-extenders"]');
    await page.click('[data-testid="tab-extenders"]');
    await editor.locator('[data-testid="editor-view-form"]').click();
    const mock = editor.locator('[data-testid="extender-mock"][data-mock="basic"]');
    await mock.waitFor();
    // Rule 1: n1 fails with a message. Rule 2: n4-never scores 9.
    await mock.locator('[data-testid="extender-rule-add"]').click();
    await mock.locator('[data-testid="extender-rule"]').first().waitFor();
    await mock.locator('[data-testid="extender-rule"] [data-testid="extender-rule-nodes"]').first().fill('n1');
    await mock.locator('[data-testid="extender-rule"] [data-testid="extender-rule-nodes"]').first().press('Enter');
    await mock.locator('[data-testid="extender-rule"] [data-testid="extender-rule-filter"]').first().selectOption('Fail');
    const message = mock.locator('[data-testid="extender-rule"] [data-testid="extender-rule-message"]').first();
    await message.fill('no GPU here');
    await message.press('Enter');
    await mock.locator('[data-testid="extender-rule-add"]').click();
    await mock.locator('[data-testid="extender-rule"]').nth(1).waitFor();
    const second = mock.locator('[data-testid="extender-rule"]').nth(1);
    await second.locator('[data-testid="extender-rule-nodes"]').fill('n4-never');
    await second.locator('[data-testid="extender-rule-nodes"]').press('Enter');
    await second.locator('[data-testid="extender-rule-score"]').fill('9');
    await second.locator('[data-testid="extender-rule-score"]').press('Enter');
    // The text view holds what the form wrote.
    await editor.locator('[data-testid="editor-view-text"]').click();
    const text = await page.inputValue('[data-testid="editor-extenders"] textarea');
    assert.match(text, /filter: Fail/);
    assert.match(text, /message: no GPU here/);
    assert.match(text, /- n4-never/);
    assert.match(text, /score: 9/);
    // n1 fails, n4-never scores 9 × 2 × 10 = 180 and wins.
    const inspector = await inspectP(page, 'n4-never');
    const filter = inspector.locator('[data-testid="extender-call"][data-verb="filter"]');
    assert.equal(await filter.getAttribute('data-source'), 'mock');
    assert.match(await filter.locator('li[data-node="n1"]').textContent(), /no GPU here/);
    assert.match(await inspector.locator('[data-testid="extender-scores"] tr[data-node="n4-never"]').textContent(), /180/);
    assert.equal(await page.locator('[data-testid="configured-extender"]').getAttribute('data-answered-by'), 'mock');
    await editor.screenshot({ path: path.join(SHOTS, 'schedlab-extenders-editor.png') });
    // A value the mock refuses stays out, with the reason under the rule.
    await editor.locator('[data-testid="editor-view-form"]').click();
    const score = mock.locator('[data-testid="extender-rule"]').nth(1).locator('[data-testid="extender-rule-score"]');
    await score.fill('high');
    await score.press('Enter');
    assert.match(await mock.locator('[data-testid="extender-mock-error"]').textContent(), /the score must be a whole number/);
    assert.equal((await getJson(`${extender.url}/log`)).length, before, 'the mock called no server');
    await page.close();
    assert.deepEqual(env.problems, []);
  });

  it('says why a live call failed: CORS (with the proxy to run), or nothing listening', async () => {
    // Straight to the extender, which sends no CORS headers.
    const page = await scenario('v1.35', `${extender.url}/basic`);
    await page.click('[data-testid="tab-extenders"]');
    const failures = page.locator('[data-testid="extender-failures"]');
    await failures.waitFor({ timeout: 20_000 });
    const words = await failures.textContent();
    assert.match(words, /CORS: the extender at http:\/\/127\.0\.0\.1:\d+ answered, but without the headers/);
    assert.match(words, new RegExp(`schedlab extender-proxy --to ${extender.url.replace(/\./g, '\\.')}`));
    await page.click('[data-testid="pod-row"][data-pod="p"]');
    await page.waitForSelector('[data-testid="outcome"]:text-is("Error")');
    assert.match(await page.textContent('[data-testid="extender-call"][data-verb="filter"] [data-testid="extender-error"]'), /^Post "http/);
    assert.match(await page.textContent('[data-testid="extender-verdict"]'), /Not ignorable: the cycle ends in an Error/);
    await page.close();
    // A port nothing listens on.
    const closed = await scenario('v1.35', 'http://127.0.0.1:9/basic');
    await closed.click('[data-testid="tab-extenders"]');
    const refused = closed.locator('[data-testid="extender-failures"]');
    await refused.waitFor({ timeout: 20_000 });
    assert.match(await refused.textContent(), /nothing answers at http:\/\/127\.0\.0\.1:9: the browser could not connect/);
    await closed.close();
    assert.deepEqual(env.problems, []);
  });

  it('calls the extender from the JavaScript API (runLive), and replays the recording it gives', async () => {
    if (!fs.existsSync(path.join(DIST, 'api/schedlab.js'))) {
      assert.fail('dist/api/schedlab.js is missing: run scripts/build-api.sh before trunk build');
    }
    const url = `${proxy.url}/basic`;
    const page = await env.newPage({ width: 1000, height: 700 });
    await page.goto(`${env.base}api-example.html`);
    const files = {
      'nodes.json': NODES,
      'pods.yaml': PODS,
      'config.yaml': configFor('v1.35', url).text,
    };
    const r = await page.evaluate(async (files) => {
      const { default: init, Simulator, callExtender } = await import(new URL('api/schedlab.js', location.href).href);
      await init();
      // By hand: run() stops at each call; the embedder makes it and adds the reply.
      const manual = Simulator.fromFiles(files);
      const stops = [];
      let stop = manual.run();
      while (stop === 'AwaitingExtender') {
        stops.push(stop);
        for (const call of manual.awaitedCalls()) manual.addExchange(call, await callExtender(call));
        stop = manual.run();
      }
      // runLive() does the same.
      const live = Simulator.fromFiles(files);
      const liveStop = await live.runLive();
      const recording = live.extenderRecording();
      const replay = Simulator.fromFiles({ ...files, 'recording.json': JSON.stringify(recording) });
      const replayStop = replay.run();
      // Offline, an unanswered call is the cycle's error.
      const offline = Simulator.fromFiles(files, { offline: true });
      offline.run();
      return {
        stops,
        stop,
        liveStop,
        manual: JSON.stringify(manual.report()),
        live: live.report(),
        calls: recording.calls.map((c) => c.url.split('/').pop()),
        replayStop,
        replay: JSON.stringify(replay.report()),
        offline: offline.report().cycles[0],
      };
    }, files);
    assert.deepEqual(r.stops, ['AwaitingExtender', 'AwaitingExtender', 'AwaitingExtender']);
    assert.equal(r.stop, 'Quiescent');
    assert.equal(r.liveStop, 'Quiescent');
    const cycle = r.live.cycles[0];
    assert.equal(cycle.node, 'n3');
    const key = `Extender(${url})`;
    assert.deepEqual(cycle.filter['n2-bad'][key], ['n2-bad is bad']);
    assert.deepEqual(cycle.scores.n3[key], { raw: 3, score: 30, weight: 2 });
    assert.deepEqual(r.calls, ['filter', 'prioritize', 'bind']);
    assert.equal(r.manual, JSON.stringify(r.live));
    assert.equal(r.replayStop, 'Quiescent');
    assert.equal(r.replay, JSON.stringify(r.live), 'the recording replays the same report');
    assert.equal(r.offline.outcome, 'Error');
    assert.match(r.offline.message, /no recorded reply to this filter request/);
    await page.close();
    assert.deepEqual(env.problems, []);
  });

  it('switches kubernetes#141781 off: the Score plugins then see the pods', async () => {
    const page = await scenario('v1.35', `${proxy.url}/basic`);
    const inspector = await inspectP(page);
    await inspector.locator('[data-testid="fresh-nodes"]').waitFor();
    await page.click('[data-testid="tab-extenders"]');
    await page.check('[data-testid="extender-nodeinfo-fix"]');
    await page.waitForFunction(() => !document.querySelector('[data-testid="fresh-nodes"]'), null, { timeout: 20_000 });
    assert.equal(await nodeOfP(page), 'n3');
    await page.close();
    assert.deepEqual(env.problems, []);
  });
});
