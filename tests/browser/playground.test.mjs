// Browser test of the playground: serves dist/ (build it first with `trunk build`), drives the
// system Chromium through playwright-core, and fails on any page error or console error.
//
//   node --test tests/browser/
//
// Expected placements and messages are worked out by hand from assets/scenarios/classic and
// v1.17's rules, not copied from the app.

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { open, SHOTS } from './support.mjs';

const row = (page, pod) => page.locator(`[data-testid="pod-row"][data-pod="${pod}"]`);
const chip = (page, node, pod) =>
  page.locator(`[data-testid="node-card"][data-node="${node}"] [data-testid="pod-chip"][data-pod="${pod}"]`);
const currentPhase = (page) => page.getAttribute('[data-testid="phase-chip"].current', 'data-phase');
/** Shows the pods table (a tab of the cluster card). */
const showPods = async (page) => {
  await page.click('[data-testid="view-pods"]');
  await page.waitForSelector('[data-testid="pod-row"]');
};
/** Shows an editor's tab. */
const tab = (page, file) => page.click(`[data-testid="tab-${file}"]`);
const nodeOf = (page, pod) => row(page, pod).locator('[data-testid="pod-node"]');
const phaseOf = (page, pod) => row(page, pod).locator('[data-testid="pod-phase"]');
const podsEditor = (page) => page.locator('[data-testid="editor-pods"] textarea');
const podsErrors = (page) => page.locator('[data-testid="editor-pods"] [data-testid="diagnostic"]');

describe('schedlab playground', () => {
  let env;
  let page;
  let base;

  before(async () => {
    env = await open();
    base = env.base;
    page = await env.tab(await env.context());
  });

  after(async () => {
    await env?.close();
  });

  const assertNoProblems = () => assert.deepEqual(env.problems, [], 'the page reported errors');

  it('loads the example and shows every placement', async () => {
    // A first visit opens the first lesson (lessons.test.mjs); a link to the example opens it
    // as it is, at the end of its run.
    await page.goto(`${base}#example=classic`);
    await page.waitForSelector('[data-testid="node-card"]');
    assert.equal((await page.textContent('[data-testid="scenario-name"]')).trim(), 'classic');
    assert.equal(await page.locator('[data-testid="lesson-panel"]').count(), 0);
    // The example opens at the end of the run: every pod where kube-scheduler put it.
    assert.equal(await chip(page, 'node-a1', 'db-0').getAttribute('data-kind'), 'bound');
    await showPods(page);
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
    await tab(page, 'pods');
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
    await tab(page, 'nodes');
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
    await tab(page, 'pods');
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
    await showPods(page);
    await tab(page, 'pods');
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
    await tab(page, 'pods');
    assert.match(await podsEditor(page).inputValue(), /disktype: ssd/);
    // The tab's saved work (sessionStorage) is forgotten too.
    const saved = await page.evaluate(() => Object.keys(sessionStorage).filter((k) => k.includes('editor')));
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

  it("changes a node's CPU in the form and sees the placement change", async () => {
    await tab(page, 'nodes');
    const editor = page.locator('[data-testid="editor-nodes"]');
    await editor.locator('[data-testid="editor-view-form"]').click();
    await editor.locator('[data-testid="node-form-row"][data-node="node-a1"] button').first().click();
    const cpu = editor.locator('[data-testid="node-cpu"]');
    await cpu.fill('1');
    await cpu.press('Enter');
    // db-0 asks for 2 cpus on a disktype=ssd node: node-a1 now has 1, node-a2 is cordoned.
    await showPods(page);
    await page.waitForFunction(
      () =>
        document.querySelector('[data-testid="pod-row"][data-pod="db-0"] [data-testid="pod-phase"]')
          ?.textContent === 'Pending',
    );
    // The form wrote the text: the text view shows the new allocatable.
    await editor.locator('[data-testid="editor-view-text"]').click();
    assert.match(await editor.locator('textarea').inputValue(), /cpu: ['"]?1['"]?/);
    await editor.locator('[data-testid="editor-view-form"]').click();
    await editor.locator('[data-testid="node-form-row"][data-node="node-a1"] button').first().click();
    await cpu.fill('4');
    await cpu.press('Enter');
    await page.waitForFunction(
      () =>
        document.querySelector('[data-testid="pod-row"][data-pod="db-0"] [data-testid="pod-node"]')
          ?.textContent === 'node-a1',
    );
    await editor.locator('[data-testid="editor-view-text"]').click();
    await page.click('[data-testid="reset"]');
    await page.waitForSelector('[data-testid="pod-row"][data-pod="db-0"]');
    assertNoProblems();
  });

  it('steps through the run from t = 0, and back', async () => {
    await page.click('[data-testid="view-nodes"]');
    await page.click('[data-testid="control-rewind"]');
    await page.waitForSelector('[data-testid="inspector-empty"]');
    // At t = 0 nothing is scheduled: all eight pods wait in activeQ, the highest priority first
    // (db-0, priority 1000), then the others in the order they arrived.
    const active = page.locator('[data-testid="queue-active"] [data-testid="queued-pod"]');
    assert.equal(await active.count(), 8);
    assert.equal(await active.first().getAttribute('data-pod'), 'db-0');
    assert.equal(await page.locator('[data-testid="pod-chip"]').count(), 0);

    // One cycle: db-0 is popped, fits only node-a1, and is assumed there (its binding is the
    // next step).
    await page.click('[data-testid="control-step"]');
    await page.waitForSelector('[data-testid="inspected-pod"]:text-is("db-0")');
    assert.match(await page.textContent('[data-testid="position"]'), /cycle 1 of 8/);
    assert.equal(await chip(page, 'node-a1', 'db-0').getAttribute('data-kind'), 'assumed');
    assert.equal(await active.count(), 7);

    // The next cycle binds db-0 first, then schedules web-1 (the first of the priority-0 pods).
    await page.click('[data-testid="control-step"]');
    await page.waitForSelector('[data-testid="inspected-pod"]:text-is("web-1")');
    assert.equal(await chip(page, 'node-a1', 'db-0').getAttribute('data-kind'), 'bound');

    // Back: just before cycle 2 again, so web-1 is not on any node yet.
    await page.click('[data-testid="control-back"]');
    await page.waitForSelector('[data-testid="inspected-pod"]:text-is("db-0")');
    assert.match(await page.textContent('[data-testid="position"]'), /cycle 1 of 8/);
    assert.equal(await page.locator('[data-testid="pod-chip"][data-pod="web-1"]').count(), 0);
    assertNoProblems();
  });

  it('walks one cycle phase by phase', async () => {
    await page.click('[data-testid="control-rewind"]');
    const expected = ['scheduleOne', 'findNodesThatFit', 'prioritizeNodes', 'selectHost', 'assume', 'bind'];
    for (const phase of expected) {
      await page.click('[data-testid="control-phase"]');
      await page.waitForSelector(`[data-testid="phase-chip"].current[data-phase="${phase}"]`);
      assert.equal(await currentPhase(page), phase);
      if (phase === 'scheduleOne') {
        // The outcome is not known before the filters ran.
        assert.equal(await page.textContent('[data-testid="outcome"]'), '…');
        assert.equal(await page.locator('[data-testid="find-nodes-that-fit"]').count(), 0);
      }
      if (phase === 'findNodesThatFit') {
        // node-a2 is cordoned: CheckNodeUnschedulable, the first predicate, rejects it.
        const a2 = page.locator('[data-testid="filter-table"] tr[data-node="node-a2"] td.fail');
        assert.equal(await a2.textContent(), 'node(s) were unschedulable');
      }
      if (phase === 'assume') {
        assert.equal(await chip(page, 'node-a1', 'db-0').getAttribute('data-kind'), 'assumed');
      }
      if (phase === 'bind') {
        assert.equal(await chip(page, 'node-a1', 'db-0').getAttribute('data-kind'), 'bound');
      }
    }
    // The next press starts the next cycle.
    await page.click('[data-testid="control-phase"]');
    await page.waitForSelector('[data-testid="inspected-pod"]:text-is("web-1")');
    assert.equal(await currentPhase(page), 'scheduleOne');
    assertNoProblems();
  });

  it('runs, pauses, and answers the keyboard', async () => {
    await page.click('[data-testid="control-rewind"]');
    await page.selectOption('[data-testid="control-speed"]', '5');
    await page.click('[data-testid="control-run"]');
    // At 100 cycles per second the eight cycles are done at once; the run pauses at the end.
    await page.waitForFunction(() => document.querySelector('[data-testid="control-run"]')?.textContent.includes('Run'));
    assert.match(await page.textContent('[data-testid="position"]'), /cycle 8 of 8/);
    await page.keyboard.press('Home');
    await page.waitForSelector('[data-testid="inspector-empty"]');
    await page.keyboard.press('ArrowRight');
    await page.waitForSelector('[data-testid="inspected-pod"]:text-is("db-0")');
    await page.keyboard.press('?');
    await page.waitForSelector('[data-testid="help"]');
    assert.match(await page.textContent('[data-testid="help"]'), /step one scheduling cycle/);
    await page.keyboard.press('Escape');
    await page.waitForSelector('[data-testid="help"]', { state: 'detached' });
    await page.keyboard.press('End');
    await page.waitForFunction(() => document.querySelector('[data-testid="position"]')?.textContent.includes('cycle 8 of 8'));
    assertNoProblems();
  });

  it('jumps from an event to its cycle', async () => {
    await page.fill('[data-testid="event-filter"]', 'batch-huge');
    const failed = page.locator('[data-testid="event-row"][data-reason="FailedScheduling"]');
    await failed.first().click();
    await page.waitForSelector('[data-testid="inspected-pod"]:text-is("batch-huge")');
    assert.equal(
      (await page.locator('[data-testid="fit-error"] p').textContent()).trim(),
      '0/5 nodes are available: 1 node(s) were unschedulable, 4 Insufficient cpu.',
    );
    await page.fill('[data-testid="event-filter"]', '');
    assertNoProblems();
  });

  it('shows a preemption: victims and the deciding criterion', async () => {
    await page.selectOption('[data-testid="gallery"]', 'pdb-steers');
    await page.waitForFunction(
      () => document.querySelector('[data-testid="scenario-name"]')?.textContent.trim() === 'pdb-steers',
    );
    const preempted = page.locator('[data-testid="event-row"][data-reason="Preempted"]');
    await preempted.first().waitFor();
    await preempted.first().click();
    await page.waitForSelector('[data-testid="preempt-table"]');
    assert.equal(await page.textContent('[data-testid="decided-by"]'), 'fewestPDBViolations');
    assert.match(await page.textContent('[data-testid="preempt-explanation"]'), /node-b chosen: its victims violate 0 PodDisruptionBudget\(s\), node-a's would violate 1/);
    assertNoProblems();
  });

  it('draws a 1000-node cluster as a heat-map and selects a node from it', async () => {
    await page.selectOption('[data-testid="gallery"]', 'big-cluster');
    await page.waitForSelector('[data-testid="heat-map-canvas"]', { timeout: 60000 });
    assert.match(await page.textContent('.scenario-stats'), /1000 nodes · 10000 pods/);
    const canvas = page.locator('[data-testid="heat-map-canvas"]');
    // The first cell is node-0001 (cells follow the cache order, 14 px plus a 1 px gap).
    await canvas.click({ position: { x: 5, y: 5 } });
    await page.waitForSelector('[data-testid="node-card"][data-node="node-0001"]');
    await page.screenshot({ path: path.join(SHOTS, 'schedlab-big-cluster.png') });
    // A narrower window: the heat-map fits its card again (it used to keep its first width
    // and spill over the next card). Cells are 15 px, so it fills all but less than one.
    const fit = () =>
      page.evaluate(() => {
        const c = document.querySelector('[data-testid="heat-map-canvas"]');
        return [c.getBoundingClientRect().width, c.parentElement.clientWidth];
      });
    const wide = page.viewportSize();
    const [before] = await fit();
    await page.setViewportSize({ width: 1000, height: wide.height });
    await page.waitForFunction(() => {
      const c = document.querySelector('[data-testid="heat-map-canvas"]');
      return c.getBoundingClientRect().width <= c.parentElement.clientWidth;
    });
    const [narrow, room] = await fit();
    assert.ok(narrow < before, `the heat-map narrowed (${before} → ${narrow} px)`);
    assert.ok(room - narrow < 15, `it fills its card (${narrow} of ${room} px)`);
    await page.setViewportSize(wide);
    // The event log shows its newest 50 events first, and 200 more per click. It has at least
    // 200: each of big-cluster's 200 pending pods is Scheduled or FailedScheduling at least once.
    const events = page.locator('[data-testid="event-row"]');
    assert.equal(await events.count(), 50);
    const more = page.locator('[data-testid="event-log"] .more');
    const [, total] = (await more.textContent()).match(/^showing the newest 50 of (\d+); filter to find older ones, or show \d+ more$/);
    assert.ok(Number(total) >= 200, `${total} events`);
    await page.click('[data-testid="events-more"]');
    const shown = Math.min(Number(total), 250);
    await page.waitForFunction((n) => document.querySelectorAll('[data-testid="event-row"]').length === n, shown);
    // A filter starts from the first rows again: pod/web- matches the 120 web pods' events.
    await page.fill('[data-testid="event-filter"]', 'pod/web-');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="event-row"]').length === 50);
    await page.fill('[data-testid="event-filter"]', '');
    await page.selectOption('[data-testid="gallery"]', 'classic');
    await page.waitForSelector('[data-testid="node-card"][data-node="node-a1"]');
    assertNoProblems();
  });

  it('exports every editor and imports a file into the right editor', async () => {
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid="export"]')]);
    const bundle = fs.readFileSync(await download.path(), 'utf8');
    assert.match(bundle, /# ==== schedlab: nodes ====/);
    assert.match(bundle, /kind: KubeSchedulerConfiguration/);
    // A nodes-only file replaces the Nodes editor and nothing else: one node, 1 cpu.
    const file = path.join(SHOTS, 'schedlab-import-nodes.yaml');
    fs.writeFileSync(
      file,
      'apiVersion: v1\nkind: Node\nmetadata: {name: solo, labels: {kubernetes.io/hostname: solo}}\nstatus: {allocatable: {cpu: "1", memory: 1Gi, pods: "10"}}\n',
    );
    await page.setInputFiles('[data-testid="import"]', file);
    await page.waitForSelector('[data-testid="node-card"][data-node="solo"]');
    assert.equal(await page.locator('[data-testid="node-card"]').count(), 1);
    assert.equal((await page.textContent('[data-testid="notice"] span')).trim(), 'Imported into Nodes.');
    await tab(page, 'pods');
    assert.match(await podsEditor(page).inputValue(), /db-0/);
    // The import can be undone: the five nodes come back.
    await page.click('[data-testid="undo-import"]');
    await page.waitForSelector('[data-testid="node-card"][data-node="node-a1"]');
    assert.equal(await page.locator('[data-testid="node-card"]').count(), 5);
    // A file with nothing schedlab reads changes nothing.
    const other = path.join(SHOTS, 'schedlab-import-other.yaml');
    fs.writeFileSync(other, 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: settings}\n');
    await page.setInputFiles('[data-testid="import"]', other);
    await page.waitForSelector('[data-testid="notice"]:has-text("Nothing imported")');
    assert.equal(await page.locator('[data-testid="node-card"]').count(), 5);
    await page.click('[data-testid="reset"]');
    await page.waitForSelector('[data-testid="node-card"][data-node="node-a1"]');
    assertNoProblems();
  });

  // kube-scheduler v1.35. Expected texts are worked out by hand in the comments at the top of
  // assets/scenarios/*-v135/pods.yaml (reference: shared/reference/modern.md §1.3, §3).
  const status = () => page.textContent('[data-testid="status"]');
  const waitStatus = (text) =>
    page.waitForFunction(
      (t) => document.querySelector('[data-testid="status"]')?.textContent.includes(t),
      text,
    );
  const openExample = async (name) => {
    await page.selectOption('[data-testid="gallery"]', name);
    await page.waitForFunction(
      (n) => document.querySelector('[data-testid="scenario-name"]')?.textContent.trim() === n,
      name,
    );
  };
  const configEditor = () => page.locator('[data-testid="editor-config"]');
  /** Goes to the end of the run (the event log lists the events up to the position). */
  const toEnd = async () => {
    const end = page.locator('[data-testid="control-end"]');
    if (await end.isEnabled()) await end.click();
  };

  it('runs a v1.35 example: PreFilter, the filters in v1.35 order, PostFilter', async () => {
    await openExample('taints-first-v135');
    await waitStatus('kube-scheduler v1.35');
    await showPods(page);
    await row(page, 'batch-huge').click();
    const fitError = page.locator('[data-testid="fit-error"] p');
    await fitError.waitFor();
    // v1.35 checks TaintToleration before NodeResourcesFit: node-b2, tainted and too small,
    // reports the taint (v1.17 said Insufficient cpu). The PostFilter messages follow.
    assert.equal(
      (await fitError.textContent()).trim(),
      '0/5 nodes are available: 1 node(s) had untolerated taint(s), 1 node(s) were unschedulable, 3 Insufficient cpu. no new claims to deallocate, preemption: 0/5 nodes are available: 5 Preemption is not helpful for scheduling.',
    );
    const inspector = page.locator('[data-testid="inspector"]');
    // The phases keep their names; the extension points run inside them.
    const fit = inspector.locator('[data-testid="find-nodes-that-fit"]');
    assert.deepEqual(await fit.locator('h3 [data-testid="ext-points"] code').allTextContents(), ['PreFilter', 'Filter']);
    const preFilter = inspector.locator('[data-testid="pre-filter"]');
    assert.equal(await preFilter.locator('[data-plugin="NodePorts"]').getAttribute('data-code'), 'Skip');
    assert.equal(await preFilter.locator('[data-plugin="NodeResourcesFit"]').getAttribute('data-code'), 'Success');
    // NodePorts was skipped: shown as skipped, not passed.
    assert.ok((await inspector.locator('[data-testid="filter-table"] td.skipped').count()) > 0);
    assert.match(await inspector.textContent('[data-testid="skipped-filters"]'), /NodePorts/);
    const b2 = inspector.locator('[data-testid="filter-table"] tr[data-node="node-b2"] td.fail');
    assert.match(await b2.textContent(), /^node\(s\) had untolerated taint\(s\)/);
    assert.equal(await b2.locator('[data-testid="node-code"]').textContent(), 'UnschedulableAndUnresolvable');
    const post = inspector.locator('[data-testid="post-filter"]');
    assert.deepEqual(
      await post.locator('[data-plugin]').evaluateAll((rows) => rows.map((r) => `${r.dataset.plugin} ${r.dataset.code}`)),
      ['DynamicResources Unschedulable', 'DefaultPreemption Unschedulable'],
    );
    assert.match(await post.locator('[data-plugin="DynamicResources"]').textContent(), /no new claims to deallocate/);
    assert.deepEqual(
      await inspector.locator('[data-testid="preempt"] h3 [data-testid="ext-points"] code').allTextContents(),
      ['PostFilter'],
    );
    assert.match(await page.textContent('[data-testid="profile"]'), /default-scheduler/);
    // The Policy tab says plainly that v1.35 does not read it.
    await tab(page, 'policy');
    const note = page.locator('[data-testid="policy-ignored"]');
    assert.match(await note.textContent(), /v1\.35 does not read a Policy/);
    assert.match(await note.textContent(), /schedlab translate policy\.json/);
    assertNoProblems();
  });

  it('shows v1.35 preemption, and the nominated node tried first', async () => {
    await openExample('preemption-v135');
    const preempted = page.locator('[data-testid="event-row"][data-reason="Preempted"]');
    await preempted.first().waitFor();
    await preempted.first().click();
    await page.waitForSelector('[data-testid="preempt-table"]');
    assert.equal(await page.textContent('[data-testid="decided-by"]'), 'fewestPDBViolations');
    const post = page.locator('[data-testid="post-filter"]');
    assert.equal(await post.locator('[data-plugin="DefaultPreemption"]').getAttribute('data-code'), 'Success');
    // backfill cannot preempt anyone: both PostFilter messages end its FailedScheduling text.
    await toEnd();
    await page.fill('[data-testid="event-filter"]', 'backfill');
    await page.locator('[data-testid="event-row"][data-reason="FailedScheduling"]').first().click();
    await page.waitForSelector('[data-testid="inspected-pod"]:text-is("backfill")');
    assert.equal(
      (await page.locator('[data-testid="fit-error"] p').textContent()).trim(),
      '0/2 nodes are available: 2 Insufficient cpu. no new claims to deallocate, preemption: 0/2 nodes are available: 2 No preemption victims found for incoming pod.',
    );
    // At t = 30 checkout tries node-b, its nominated node, first; it passes, so nothing else
    // is filtered or scored.
    await toEnd();
    await page.fill('[data-testid="event-filter"]', 'checkout');
    await page.locator('[data-testid="event-row"][data-reason="Scheduled"]').first().click();
    await page.waitForSelector('[data-testid="nominated-first"]');
    assert.match(await page.textContent('[data-testid="nominated-first"]'), /nominated node node-b is tried first and passes/);
    assert.equal(await page.locator('[data-testid="filter-table"] tbody tr').count(), 1);
    await page.fill('[data-testid="event-filter"]', '');
    assertNoProblems();
  });

  it('switches the scheduler in the Config tab and reruns', async () => {
    await openExample('classic');
    await waitStatus('kube-scheduler v1.17');
    await tab(page, 'config');
    const v117 = page.locator('[data-testid="scheduler-v1.17"]');
    const v135 = page.locator('[data-testid="scheduler-v1.35"]');
    assert.equal(await v117.getAttribute('aria-pressed'), 'true');
    assert.equal(await page.locator('[data-testid="policy-ignored"]').count(), 0);
    await v135.click();
    await waitStatus('kube-scheduler v1.35');
    assert.equal(await v135.getAttribute('aria-pressed'), 'true');
    assert.match(await configEditor().locator('textarea').inputValue(), /apiVersion: kubescheduler\.config\.k8s\.io\/v1\n/);
    // The classic Policy is left out: no mixing error, and batch-huge now fails the v1.35 way.
    assert.equal(await page.locator('[data-testid="diagnostic"]').count(), 0);
    await showPods(page);
    await row(page, 'batch-huge').click();
    await page.waitForFunction(() =>
      document.querySelector('[data-testid="fit-error"] p')?.textContent.includes('untolerated taint(s)'),
    );
    // Undo puts the v1.17 configuration back.
    await page.click('[data-testid="undo-import"]');
    await waitStatus('kube-scheduler v1.17');
    await page.click('[data-testid="notice"] [aria-label="Dismiss"]');
    assert.match(await configEditor().locator('textarea').inputValue(), /v1alpha1/);
    assert.equal(await v117.getAttribute('aria-pressed'), 'true');
    assertNoProblems();
  });

  it('changes a Score weight in the v1 form and sees the totals change', async () => {
    await openExample('taints-first-v135');
    await waitStatus('kube-scheduler v1.35');
    await showPods(page);
    await row(page, 'web-1').click();
    const total = (node) => page.locator(`[data-testid="score-table"] tr[data-node="${node}"] td.total`);
    await page.waitForSelector('[data-testid="score-table"]');
    // TaintToleration 100 ×3, LeastAllocated ×1, BalancedAllocation ×1 (pods.yaml's comment).
    assert.equal(await total('node-b1').textContent(), '492');
    await tab(page, 'config');
    await configEditor().locator('[data-testid="editor-view-form"]').click();
    const weight = configEditor().locator('[data-testid="v1-plugin-weight"][data-name="NodeResourcesFit"]');
    assert.equal(await weight.getAttribute('placeholder'), '1');
    await weight.fill('5');
    await weight.press('Tab');
    // NodeResourcesFit ×5: node-b1 300 + 94×5 + 98, node-a1 300 + 40×5 + 96, node-b3 300 + 81×5 + 93.
    await page.waitForFunction(
      () => document.querySelector('[data-testid="score-table"] tr[data-node="node-b1"] td.total')?.textContent === '868',
    );
    assert.equal(await total('node-a1').textContent(), '596');
    assert.equal(await total('node-b3').textContent(), '798');
    // Switching a plugin off removes its column.
    await configEditor().locator('[data-testid="v1-plugin-toggle"][data-name="ImageLocality"]').uncheck();
    await page.waitForFunction(
      () => ![...document.querySelectorAll('[data-testid="score-table"] th.prio')].some((th) => th.dataset.name === 'ImageLocality'),
    );
    await configEditor().locator('[data-testid="editor-view-text"]').click();
    const text = await configEditor().locator('textarea').inputValue();
    assert.match(text, /multiPoint:/);
    assert.match(text, /name: NodeResourcesFit\s+weight: 5/);
    assert.match(text, /disabled:\s+- name: ImageLocality/);
    assertNoProblems();
  });

  it('shows a v1 configuration error under the Config editor with its path', async () => {
    const area = configEditor().locator('textarea');
    await area.fill(
      'apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nprofiles:\n  - schedulerName: default-scheduler\n    plugins:\n      multiPoint:\n        enabled:\n          - name: NodeAffinityy\n',
    );
    const diag = configEditor().locator('[data-testid="diagnostic"]');
    await diag.first().waitFor();
    assert.equal(await diag.locator('.diag-path').first().textContent(), 'profiles[0].plugins.multiPoint.enabled[0]');
    assert.match(await diag.first().textContent(), /PreFilterPlugin "NodeAffinityy" does not exist/);
    assert.match(await diag.first().textContent(), /line 8/);
    assert.match(await status(), /1 error · showing the last valid result \(kube-scheduler v1\.35\)/);
    // The form lists the unknown plugin.
    await configEditor().locator('[data-testid="editor-view-form"]').click();
    await configEditor().locator('[data-testid="v1-plugin"][data-name="NodeAffinityy"]').waitFor();
    await configEditor().locator('[data-testid="editor-view-text"]').click();
    await page.click('[data-testid="reset"]');
    await waitStatus('results are current');
    assertNoProblems();
  });

  it('takes screenshots of a v1.35 cycle at 1280×800 and 390×844', async () => {
    // Scrolls an element to the top of the viewport and waits until it is painted (the
    // inspector's sections are laid out only when on screen).
    const scrollTo = async (selector) => {
      await page.locator(selector).evaluate((el) => {
        el.scrollIntoView({ block: 'start' });
        // Not under the controls when they stick to the top.
        const bar = document.querySelector('.controls');
        const stuck = bar && ['sticky', 'fixed'].includes(getComputedStyle(bar).position);
        if (stuck) window.scrollBy(0, -bar.getBoundingClientRect().height - 8);
      });
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    };
    await showPods(page);
    await row(page, 'web-1').click();
    await page.waitForSelector('[data-testid="pre-score"]');
    await scrollTo('[data-testid="find-nodes-that-fit"]');
    await page.screenshot({ path: path.join(SHOTS, 'schedlab-v135-1280x800.png') });
    await page.screenshot({ path: path.join(SHOTS, 'schedlab-v135-1280-full.png'), fullPage: true });
    await row(page, 'batch-huge').click();
    await page.waitForSelector('[data-testid="post-filter"]');
    await page.setViewportSize({ width: 390, height: 844 });
    await scrollTo('[data-testid="find-nodes-that-fit"]');
    await page.screenshot({ path: path.join(SHOTS, 'schedlab-v135-390x844.png') });
    await scrollTo('[data-testid="preempt"]');
    await page.screenshot({ path: path.join(SHOTS, 'schedlab-v135-390x844-preempt.png') });
    await tab(page, 'config');
    await configEditor().locator('[data-testid="editor-view-form"]').click();
    await scrollTo('[data-testid="editor-config"]');
    await page.screenshot({ path: path.join(SHOTS, 'schedlab-v135-390x844-form.png') });
    await configEditor().locator('[data-testid="editor-view-text"]').click();
    await page.screenshot({ path: path.join(SHOTS, 'schedlab-v135-390-full.png'), fullPage: true });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `the page is ${overflow}px wider than the viewport`);
    await page.setViewportSize({ width: 1280, height: 800 });
    await scrollTo('[data-testid="editor-config"]');
    await configEditor().locator('[data-testid="editor-view-form"]').click();
    await page.screenshot({ path: path.join(SHOTS, 'schedlab-v135-1280-form.png') });
    await configEditor().locator('[data-testid="editor-view-text"]').click();
    await openExample('classic');
    await page.click('[data-testid="view-nodes"]');
    await page.waitForSelector('[data-testid="node-card"][data-node="node-a1"]');
    await tab(page, 'pods');
    assertNoProblems();
  });

  it('takes screenshots at 1280×800 and 390×844', async () => {
    await page.keyboard.press('Home');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await page.waitForSelector('[data-testid="inspected-pod"]:text-is("web-1")');
    await page.setViewportSize({ width: 1280, height: 800 });
    // The header's status is whole at 1280 px ("v1.17 · current"): the scenario's stats give
    // way instead, and the header stays on one row.
    const status = await page.evaluate(() => {
      const s = document.querySelector('[data-testid="status"]');
      const bar = document.querySelector('.topbar');
      return { text: s.querySelector('.short-form').textContent, cut: s.scrollWidth - s.clientWidth, bar: bar.getBoundingClientRect().height };
    });
    assert.equal(status.text, 'v1.17 · current');
    assert.ok(status.cut <= 0, `the status is cut by ${status.cut}px`);
    assert.ok(status.bar < 60, `the header is ${status.bar}px high`);
    await page.screenshot({ path: path.join(SHOTS, 'schedlab-1280x800.png') });
    await page.screenshot({ path: path.join(SHOTS, 'schedlab-1280-full.png'), fullPage: true });
    await page.keyboard.press('End');
    await showPods(page);
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
