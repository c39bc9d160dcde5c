// Browser test of the glossary terms and the PodDisruptionBudget view: serves dist/ (build it
// first with `trunk build`), drives the system Chromium through playwright-core, and fails on
// any page error, console error or failed request.
//
//   node --test tests/browser/glossary.test.mjs
//
// Expectations come from assets/scenarios/pdb-steers/pods.yaml (worked out by hand there):
// checkout (critical) preempts at t = 0; on node-a the only victim would be postgres-0, whose
// budget `postgres` (selector app=postgres) allows 0 disruptions, so node-b wins on
// fewestPDBViolations.

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { open, SHOTS } from './support.mjs';

/** The term named `name` inside `scope` (a selector). */
const term = (page, scope, name) => page.locator(`${scope} [data-testid="term"][data-term="${name}"]`).first();
/** The open popover, if any (a term's popover in the top layer). */
const openTip = (page) => page.locator('[data-testid="term-tip"]:popover-open');
const scrollY = (page) => page.evaluate(() => window.scrollY);

describe('glossary terms and disruption budgets', () => {
  let env;
  let context;
  let page;
  let base;

  before(async () => {
    env = await open();
    base = env.base;
    context = await env.context();
    page = await env.tab(context);
    // pdb-steers, on its first cycle: checkout's FitError and its preemption.
    await page.goto(`${base}#example=pdb-steers&cycle=1`);
    await page.waitForSelector('[data-testid="preempt-table"]');
  });

  after(async () => {
    await env?.close();
  });

  const assertNoProblems = () => assert.deepEqual(env.problems, [], 'the page reported errors');

  it('explains a phase heading on hover, with a kubernetes.io link, and closes on Escape', async () => {
    const heading = term(page, '[data-testid="preempt"] h3', 'preempt');
    await heading.scrollIntoViewIfNeeded();
    assert.equal(await heading.getAttribute('tabindex'), '0');
    assert.match(await heading.evaluate((el) => getComputedStyle(el).textDecorationStyle), /dotted/);
    const before = await scrollY(page);
    await heading.hover();
    const tip = openTip(page);
    await tip.waitFor();
    assert.match(await tip.textContent(), /evict pods of lower priority/);
    const link = tip.locator('[data-testid="term-doc"]');
    assert.equal(await link.textContent(), 'Kubernetes docs ↗');
    assert.equal(
      await link.getAttribute('href'),
      'https://kubernetes.io/docs/concepts/scheduling-eviction/pod-priority-preemption/',
    );
    assert.equal(await link.getAttribute('target'), '_blank');
    // Beside the term, inside the window, and the page did not move.
    const t = await heading.boundingBox();
    const b = await tip.boundingBox();
    assert.ok(b.y >= t.y + t.height || b.y + b.height <= t.y, 'the popover does not cover its term');
    assert.ok(b.x >= 0 && b.x + b.width <= 1280 && b.y >= 0 && b.y + b.height <= 800, JSON.stringify(b));
    assert.equal(await scrollY(page), before);
    await page.screenshot({ path: path.join(SHOTS, 'schedlab-glossary-hover.png') });
    // Escape closes it, with the pointer still on the term.
    await page.keyboard.press('Escape');
    await page.waitForFunction(() => !document.querySelector('[data-testid="term-tip"]:popover-open'));
    assert.equal(await scrollY(page), before);
    await page.mouse.move(5, 790);
    assertNoProblems();
  });

  it('explains a term on keyboard focus; Tab reaches its link; Escape closes it and keeps the focus', async () => {
    await page.mouse.move(5, 790);
    // The queue's sub-queue names are terms; activeQ is in view at the top of the page.
    await page.evaluate(() => window.scrollTo(0, 0));
    const active = term(page, '[data-testid="queue-active"] h3', 'activeQ');
    const before = await scrollY(page);
    await active.focus();
    const tip = openTip(page);
    await tip.waitFor();
    assert.match(await tip.textContent(), /highest priority first/);
    assert.match(await tip.locator('a').getAttribute('href'), /^https:\/\/kubernetes\.io\//);
    assert.equal(await scrollY(page), before);
    // Tab moves into the popover's link; the popover stays.
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement?.dataset.testid), 'term-doc');
    assert.equal(await openTip(page).count(), 1);
    // Escape closes it and gives the focus back to the term, without reopening it.
    await page.keyboard.press('Escape');
    await page.waitForFunction(() => !document.querySelector('[data-testid="term-tip"]:popover-open'));
    assert.equal(await page.evaluate(() => document.activeElement?.dataset.term), 'activeQ');
    await page.waitForTimeout(100);
    assert.equal(await openTip(page).count(), 0);
    // Tab on to the next term opens that one.
    await page.keyboard.press('Tab');
    await openTip(page).waitFor();
    assert.equal(await page.evaluate(() => document.activeElement?.dataset.testid), 'term');
    await page.keyboard.press('Escape');
    assert.equal(await scrollY(page), before);
    assertNoProblems();
  });

  it('explains a column header without being clipped or turned by the sideways header', async () => {
    const header = term(page, '[data-testid="filter-table"] th.pred', 'CheckNodeUnschedulable');
    await header.scrollIntoViewIfNeeded();
    await header.hover();
    const tip = openTip(page);
    await tip.waitFor();
    assert.match(await tip.textContent(), /cordoned node/);
    assert.equal(await tip.evaluate((el) => getComputedStyle(el).writingMode), 'horizontal-tb');
    const b = await tip.boundingBox();
    assert.ok(b.width > 200 && b.height < 200, JSON.stringify(b));
    assert.ok(b.x >= 0 && b.x + b.width <= 1280 && b.y >= 0 && b.y + b.height <= 800, JSON.stringify(b));
    await page.screenshot({ path: path.join(SHOTS, 'schedlab-glossary-column.png') });
    // Moving away closes it.
    await page.mouse.move(5, 790);
    await page.waitForFunction(() => !document.querySelector('[data-testid="term-tip"]:popover-open'));
    assertNoProblems();
  });

  it('draws the postgres budget with postgres-0 covered and 0 disruptions allowed', async () => {
    const pdb = page.locator('[data-testid="pdb"][data-pdb="postgres"]');
    await pdb.scrollIntoViewIfNeeded();
    assert.equal(await page.locator('[data-testid="pdb"]').count(), 1);
    assert.equal(await pdb.locator('[data-testid="pdb-selector"]').textContent(), 'app=postgres');
    assert.equal(await pdb.locator('[data-testid="pdb-allowed"]').textContent(), '0');
    assert.deepEqual(await pdb.locator('[data-testid="pdb-pod"]').allTextContents(), ['postgres-0']);
    assert.equal((await term(page, '[data-testid="pdb-view"]', 'disruptionsAllowed').count()), 1);
    // The covered pod's chip on its node carries the mark; hovering the budget outlines it.
    const chip = page.locator('[data-testid="node-card"][data-node="node-a"] [data-testid="pod-chip"][data-pod="postgres-0"]');
    assert.equal(await chip.getAttribute('data-budgeted'), 'true');
    const other = page.locator('[data-testid="node-card"][data-node="node-b"] [data-testid="pod-chip"][data-pod="reports-0"]');
    assert.equal(await other.getAttribute('data-budgeted'), null);
    await pdb.hover();
    await page.waitForSelector('[data-testid="node-card"][data-node="node-a"] [data-pod="postgres-0"].pdb-hover');
    assert.equal(await other.evaluate((el) => el.classList.contains('pdb-hover')), false);
    await page.screenshot({ path: path.join(SHOTS, 'schedlab-glossary-pdb.png') });
    // Clicking a covered pod selects it, as everywhere.
    await pdb.locator('[data-testid="pdb-pod"]').click();
    await page.waitForSelector('[data-testid="inspected-pod"]:text-is("postgres-0")');
    await page.mouse.move(5, 790);
    await page.waitForFunction(() => !document.querySelector('.pdb-hover'));
    assertNoProblems();
  });

  it('names the budget in the preempt phase, where its violations are counted', async () => {
    await page.goto(`${base}#example=pdb-steers&cycle=1&phase=preempt`);
    await page.waitForSelector('[data-testid="phase-chip"].current[data-phase="preempt"]');
    const table = page.locator('[data-testid="preempt-table"]');
    await table.waitFor();
    const a = table.locator('tr[data-node="node-a"] [data-testid="pdb-violations"]');
    assert.match(await a.textContent(), /^\s*1\s*postgres\s*$/);
    assert.equal(await a.locator('[data-testid="pdb-violated"]').textContent(), 'postgres');
    assert.equal((await table.locator('tr[data-node="node-b"] [data-testid="pdb-violations"]').textContent()).trim(), '0');
    const hit = page.locator('[data-testid="pdb-hits"] li[data-pdb="postgres"]');
    assert.match(
      (await hit.textContent()).replace(/\s+/g, ' '),
      /node-a: evicting postgres-0 violates PodDisruptionBudget postgres \(0 disruptions allowed\)/,
    );
    assert.equal(await page.textContent('[data-testid="decided-by"]'), 'fewestPDBViolations');
    // The column header and the deciding criterion are terms too.
    assert.equal(await term(page, '[data-testid="preempt-table"] thead', 'PDB violations').count(), 1);
    const decided = term(page, '[data-testid="preempt"]', 'fewestPDBViolations');
    await decided.scrollIntoViewIfNeeded();
    await decided.hover();
    await openTip(page).waitFor();
    assert.match(await openTip(page).textContent(), /fewest PodDisruptionBudgets/);
    await page.screenshot({ path: path.join(SHOTS, 'schedlab-glossary-preempt.png') });
    await page.mouse.move(5, 790);
    assertNoProblems();
  });

  it('names v1.35 extension points, plugins, status codes and unschedulablePods as terms', async () => {
    const v135 = await env.tab(context, { requests: false });
    // taints-first-v135, its last cycle: batch-huge fits nowhere.
    await v135.goto(`${base}#example=taints-first-v135&cycle=8`);
    await v135.waitForSelector('[data-testid="post-filter"]');
    assert.equal(await term(v135, '[data-testid="queue-unschedulable"] h3', 'unschedulablePods').count(), 1);
    for (const point of ['PreFilter', 'Filter', 'PostFilter']) {
      assert.ok((await term(v135, '[data-testid="inspector"]', point).count()) > 0, point);
    }
    assert.equal(await term(v135, '[data-testid="pre-filter"] [data-plugin="NodePorts"]', 'Skip').count(), 1);
    assert.equal(await term(v135, '[data-testid="pre-filter"]', 'NodePorts').count(), 1);
    // A rejected node's status code.
    const code = term(v135, '[data-testid="filter-table"] tr[data-node="node-b2"]', 'UnschedulableAndUnresolvable');
    await code.scrollIntoViewIfNeeded();
    await code.hover();
    const tip = v135.locator('[data-testid="term-tip"]:popover-open');
    await tip.waitFor();
    assert.match(await tip.textContent(), /preemption cannot fix/);
    await v135.screenshot({ path: path.join(SHOTS, 'schedlab-glossary-v135.png') });
    await v135.close();
    assertNoProblems();
  });
});
