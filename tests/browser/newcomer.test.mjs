// What a new user trips over (issue 13, item 7), each fixed and checked here in headless
// Chromium. Expected texts are worked out from the inputs typed here, not copied from the app.
//
//   node --test tests/browser/

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { open, SHOTS } from './support.mjs';

const editor = (page, file) => page.locator(`[data-testid="editor-${file}"] textarea`);
const errorsOf = (page, file) => page.locator(`[data-testid="editor-${file}"] [data-testid="diagnostic"]`);
const tab = (page, file) => page.click(`[data-testid="tab-${file}"]`);

/** One pod with `spec` (YAML flow text) as the whole Pods editor. */
const onePod = (spec) => `apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec: ${spec}\n`;

describe('what a new user trips over', () => {
  let env;
  let page;

  before(async () => {
    env = await open();
  });
  after(async () => {
    await env.close();
  });

  // Each test in a new page (and so a new tab's saved state), on the classic example.
  const fresh = async () => {
    if (page) await page.close();
    page = await env.newPage();
    await page.goto(`${env.base}#example=classic`);
    await page.waitForSelector('[data-testid="node-card"]');
  };

  it('a too-large quantity names the text typed and the limit', async () => {
    await fresh();
    await tab(page, 'pods');
    await editor(page, 'pods').fill(onePod('{containers: [{name: c, resources: {requests: {cpu: "99999999999999999999"}}}]}'));
    await errorsOf(page, 'pods').first().waitFor();
    const text = await errorsOf(page, 'pods').first().textContent();
    // 10^20 cores are 10^23 millicores, above 2^63 - 1.
    assert.match(text, /quantity "99999999999999999999" is too large for cpu: at most 9223372036854775807m can be counted/);
    assert.doesNotMatch(text, /Quantity \{/);
  });

  it('a priority outside int32 says what the field accepts', async () => {
    await fresh();
    await tab(page, 'pods');
    await editor(page, 'pods').fill(onePod('{priority: 3000000000, containers: [{name: c}]}'));
    await errorsOf(page, 'pods').first().waitFor();
    const text = await errorsOf(page, 'pods').first().textContent();
    assert.match(text, /expected a 32-bit integer \(-2147483648 to 2147483647\)/);
    assert.doesNotMatch(text, /i32/);
  });

  it('a Policy pasted into the Nodes editor says where it belongs', async () => {
    await fresh();
    await tab(page, 'nodes');
    await editor(page, 'nodes').fill('{"kind": "Policy", "apiVersion": "v1"}\n');
    await errorsOf(page, 'nodes').first().waitFor();
    const text = await errorsOf(page, 'nodes').first().textContent();
    assert.match(text, /this is a Policy: it belongs in the Policy editor/);
    assert.doesNotMatch(text, /more than one Policy/);
  });

  it('pods pasted into the Nodes editor run, with a warning that says so', async () => {
    await fresh();
    await tab(page, 'nodes');
    await editor(page, 'nodes').fill(onePod('{containers: [{name: c}]}'));
    const warnings = page.locator('[data-testid="warnings"]');
    await warnings.waitFor();
    await warnings.locator('summary').click();
    assert.match(await warnings.textContent(), /a Pod in the Nodes editor, and no Node: pods belong in the Pods editor/);
  });

  it('the Pods table keeps Node, Phase and Cycle in view at 1280 px, long names and all', async () => {
    await fresh();
    const long = 'a-pod-with-a-very-long-name-that-goes-on-and-on-and-on';
    await tab(page, 'pods');
    const pods = await editor(page, 'pods').inputValue();
    await editor(page, 'pods').fill(pods.replaceAll('name: web-1', `name: ${long}`));
    await page.click('[data-testid="view-pods"]');
    await page.waitForSelector(`[data-testid="pod-row"][data-pod="${long}"]`);
    const table = page.locator('[data-testid="placements"]');
    const box = await table.locator('xpath=..').boundingBox();
    for (const header of ['Phase', 'Node', 'Cycle']) {
      const th = table.locator('thead th', { hasText: header });
      const b = await th.boundingBox();
      assert.ok(b.x + b.width <= box.x + box.width + 1, `${header} is cut off`);
    }
    await page.screenshot({ path: path.join(SHOTS, 'schedlab-pods-table.png') });
  });

  it('the header stays on one row at 1280 px, with a notice too', async () => {
    await fresh();
    const bar = page.locator('header.topbar');
    const height = async () => (await bar.boundingBox()).height;
    const before = await height();
    // Editing marks the scenario "(edited)"; an import-like notice floats under the header.
    await tab(page, 'pods');
    const pods = await editor(page, 'pods').inputValue();
    await editor(page, 'pods').fill(`${pods}\n`);
    await page.waitForSelector('[data-testid="scenario-name"]:has-text("(edited)")');
    assert.ok(Math.abs((await height()) - before) < 2, 'the header grew');
    const name = await page.locator('[data-testid="scenario-name"]').boundingBox();
    assert.ok(name.height < 24, `"classic (edited)" wraps (${name.height}px)`);
    assert.ok(before < 60, `the header is ${before}px tall: two rows`);
  });

  it('a node card shows an AKS zone label and its beta twin once', async () => {
    await fresh();
    await tab(page, 'nodes');
    await editor(page, 'nodes').fill(
      'apiVersion: v1\nkind: Node\nmetadata:\n  name: aks-1\n  labels:\n' +
        '    failure-domain.beta.kubernetes.io/zone: "0"\n    topology.kubernetes.io/zone: "0"\n' +
        'status: {allocatable: {cpu: "4", memory: 8Gi, pods: "110"}}\n',
    );
    await page.waitForSelector('[data-testid="node-card"]:has-text("aks-1")');
    const chips = await page.locator('[data-testid="node-card"] .labels li').allTextContents();
    assert.deepEqual(chips.filter((c) => c.includes('zone')), ['zone=0']);
  });

  it('junk in the saved state does not claim a last valid result', async () => {
    await fresh();
    // This tab's saved Pods text is junk, and no valid inputs were ever kept.
    await page.evaluate(() => {
      for (const key of Object.keys(sessionStorage)) {
        if (key.includes('.valid.')) sessionStorage.removeItem(key);
      }
      sessionStorage.setItem('schedlab.v2.tab.editor.pods', 'kind: Pod\nmetadata: {name: [junk\n');
      history.replaceState(null, '', location.pathname);
    });
    await page.reload();
    await page.waitForSelector('[data-testid="status"].stale');
    const status = await page.textContent('[data-testid="status"]');
    assert.match(status, /nothing has run yet/);
    assert.doesNotMatch(status, /last valid result/);
  });

  it('the phase walk names the cycle it walks, and its hint agrees', async () => {
    if (page) await page.close();
    page = await env.newPage();
    await page.goto(`${env.base}#example=classic&cycle=1&phase=scheduleOne`);
    await page.waitForSelector('[data-testid="phase-hint"]');
    const position = await page.textContent('[data-testid="position"]');
    // Cycle 1 is being walked: no cycle has run yet, but the line names cycle 1, not "cycle 0".
    assert.match(position, /walking cycle 1: scheduleOne \(of 8\)/);
    assert.doesNotMatch(position, /cycle 0 of/);
    assert.match(await page.textContent('[data-testid="phase-hint"]'), /Press Phase ▸ \(\.\) for findNodesThatFit/);
    const hint = await page.textContent('.controls');
    assert.match(hint, /Phase ▸ \(\.\) walks on through this cycle/);
    assert.doesNotMatch(hint, /next: scheduleOne/);
  });

  it('on a phone the controls stay in view and the score table shows its totals', async () => {
    if (page) await page.close();
    page = await env.newPage({ width: 390, height: 844 });
    await page.goto(`${env.base}#example=classic&cycle=2&phase=prioritizeNodes`);
    await page.waitForSelector('[data-testid="score-table"]');
    await page.locator('[data-testid="score-table"]').scrollIntoViewIfNeeded();
    const total = await page.locator('[data-testid="score-table"] th.total').boundingBox();
    assert.ok(total.x + total.width <= 390, `the total column is at x=${total.x}, off screen`);
    const controls = await page.locator('[data-testid="controls"]').boundingBox();
    assert.ok(controls.y <= 1 && controls.y >= -1, `the controls scrolled away (y=${controls.y})`);
    await page.click('[data-testid="control-step"]');
    await page.waitForTimeout(300);
    const after = await page.locator('[data-testid="controls"]').boundingBox();
    assert.ok(after.y <= 1 && after.y >= -1, `a step scrolled the controls away (y=${after.y})`);
  });

  it('on a phone an error status wraps inside the screen', async () => {
    if (page) await page.close();
    page = await env.newPage({ width: 390, height: 844 });
    await page.goto(`${env.base}#example=classic`);
    await page.waitForSelector('[data-testid="node-card"]');
    await tab(page, 'nodes');
    await editor(page, 'nodes').fill('{"items": [');
    await page.waitForFunction(() => /error/.test(document.querySelector('[data-testid="status"]')?.textContent ?? ''));
    const status = page.locator('[data-testid="status"]');
    // The long form, whole: "1 error · showing the last valid result (...)".
    assert.match(await status.textContent(), /1 error · showing the last valid result/);
    const box = await status.boundingBox();
    assert.ok(box.x >= 0 && box.x + box.width <= 390, `the status runs from x=${box.x} to ${box.x + box.width}, past 390`);
    const cut = await status.evaluate((el) => el.scrollWidth > el.clientWidth + 1);
    assert.ok(!cut, 'the status text is cut');
  });

  it('the configuration editor keeps its heading and Form/Text switch on one line', async () => {
    await fresh();
    await tab(page, 'config');
    const head = page.locator('[data-testid="editor-config"] .editor-head');
    const box = await head.boundingBox();
    assert.ok(box.height < 40, `the heading wraps (${box.height}px)`);
    const toggle = await head.locator('.view-toggle').boundingBox();
    assert.ok(toggle.x + toggle.width <= box.x + box.width + 1, 'the Form/Text switch is cut off');
  });

  it('reports no page errors', () => {
    assert.deepEqual(env.problems, []);
  });
});
