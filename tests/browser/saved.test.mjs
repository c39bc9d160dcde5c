// Browser test of "nothing lost": undo and redo of edits, imports and gallery picks (Ctrl+Z,
// Ctrl+Shift+Z, and the header's buttons); a notice's Undo that applies only to the state it
// was shown for; a large paste kept in IndexedDB across a reload; and a save the browser
// refuses, shown on the page with the work still on screen; a reload right after an edit.
//
//   node --test tests/browser/
//
// Node counts come from the gallery's scenarios: classic has five nodes (node-a1 … node-b3),
// pdb-steers two (node-a, node-b).

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { open, paste, SHOTS } from './support.mjs';

const cards = (page) => page.locator('[data-testid="node-card"]').count();
const names = (page) =>
  page.$$eval('[data-testid="node-card"]', (els) => els.map((e) => e.getAttribute('data-node')).sort());
const scenario = async (page) => (await page.textContent('[data-testid="scenario-name"]')).trim();
const nodesEditor = (page) => page.locator('[data-testid="editor-nodes"] textarea');
/** Waits until exactly these nodes are on screen. */
const waitNodes = (page, expected) =>
  page.waitForFunction(
    (want) =>
      JSON.stringify([...document.querySelectorAll('[data-testid="node-card"]')].map((e) => e.getAttribute('data-node')).sort()) ===
      JSON.stringify(want),
    [...expected].sort(),
  );
const CLASSIC = ['node-a1', 'node-a2', 'node-b1', 'node-b2', 'node-b3'];
const node = (name, cpu = '4') =>
  `apiVersion: v1\nkind: Node\nmetadata: {name: ${name}, labels: {kubernetes.io/hostname: ${name}}}\nstatus: {allocatable: {cpu: "${cpu}", memory: 8Gi, pods: "110"}}\n`;

describe('nothing lost: undo, redo and saved work', () => {
  let env;
  const assertNoProblems = () => assert.deepEqual(env.problems.splice(0), [], 'the page reported errors');

  before(async () => {
    env = await open();
  });
  after(async () => env?.close());

  /** A fresh tab on the classic example, with dialogs accepted. */
  async function fresh(context) {
    const page = await env.tab(context);
    page.on('dialog', (d) => d.accept());
    await page.goto(`${env.base}#example=classic`);
    await waitNodes(page, CLASSIC);
    return page;
  }

  it('undoes and redoes an edit, a gallery pick and an import, step by step', async () => {
    const context = await env.context();
    const page = await fresh(context);
    assert.equal(await page.isDisabled('[data-testid="undo"]'), true, 'nothing to undo at first');

    // 1. An edit: the Nodes editor holds one node.
    await page.click('[data-testid="tab-nodes"]');
    await nodesEditor(page).fill(node('solo'));
    await waitNodes(page, ['solo']);
    // 2. A gallery pick (the edited work is replaced after the confirm).
    await page.selectOption('[data-testid="gallery"]', 'pdb-steers');
    await waitNodes(page, ['node-a', 'node-b']);
    // 3. An import.
    const file = path.join(SHOTS, 'schedlab-undo-import.yaml');
    fs.writeFileSync(file, node('imported'));
    await page.setInputFiles('[data-testid="import"]', file);
    await waitNodes(page, ['imported']);

    // Ctrl+Z walks back: before the import, before the pick, before the edit.
    await page.click('[data-testid="cluster-view"] h2');
    await page.keyboard.press('Control+z');
    await waitNodes(page, ['node-a', 'node-b']);
    assert.equal(await scenario(page), 'pdb-steers');
    await page.keyboard.press('Control+z');
    await waitNodes(page, ['solo']);
    assert.equal(await scenario(page), 'classic (edited)');
    await page.keyboard.press('Control+z');
    await waitNodes(page, CLASSIC);
    assert.equal(await scenario(page), 'classic');
    assert.equal(await page.isDisabled('[data-testid="undo"]'), true);

    // Ctrl+Shift+Z (and the Redo button) walk forward again.
    await page.keyboard.press('Control+Shift+z');
    await waitNodes(page, ['solo']);
    await page.click('[data-testid="redo"]');
    await waitNodes(page, ['node-a', 'node-b']);
    await page.keyboard.press('Control+Shift+Z');
    await waitNodes(page, ['imported']);
    assert.equal(await page.isDisabled('[data-testid="redo"]'), true);

    // The saved work follows: a reload shows the state on screen.
    await page.reload();
    await waitNodes(page, ['imported']);

    // In the editor, Ctrl+Z undoes a burst of typing as one change.
    await page.click('[data-testid="tab-nodes"]');
    const before = await nodesEditor(page).inputValue();
    await nodesEditor(page).focus();
    await page.keyboard.press('Control+End');
    await page.keyboard.type('# typed');
    await page.waitForFunction(() => document.querySelector('[data-testid="editor-nodes"] textarea').value.endsWith('# typed'));
    await page.keyboard.press('Control+z');
    await page.waitForFunction(
      (text) => document.querySelector('[data-testid="editor-nodes"] textarea').value === text,
      before,
    );
    await context.close();
    assertNoProblems();
  });

  it('a reload at once after an edit reopens the work, without asking about the older link', async () => {
    const context = await env.context();
    const page = await fresh(context);
    await page.waitForTimeout(500);
    // A link followed in the tab, then an edit and a reload before the address bar caught up
    // (it does a moment after a change): the tab's work is newer than the link it still holds.
    await page.evaluate(() => {
      location.hash = '#example=pdb-steers';
    });
    await waitNodes(page, ['node-a', 'node-b']);
    await page.click('[data-testid="tab-nodes"]');
    // A slow CPU, so that the edit's load is often still running at the reload (the address
    // bar's update then waits for it; the address's link must still count as the tab's own).
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 6 });
    await nodesEditor(page).fill(node('quick'));
    await page.reload();
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
    await waitNodes(page, ['quick']);
    assert.equal(await scenario(page), 'pdb-steers (edited)');
    // Nothing asks whether to open the link instead: it was this tab's own.
    await page.waitForTimeout(500);
    assert.equal(await page.locator('[data-testid="link-conflict"]').count(), 0);
    await context.close();
    assertNoProblems();
  });

  it('a notice’s Undo applies only to the state it was shown for', async () => {
    const context = await env.context();
    const page = await fresh(context);
    const file = path.join(SHOTS, 'schedlab-undo-notice.yaml');
    fs.writeFileSync(file, node('imported'));
    await page.setInputFiles('[data-testid="import"]', file);
    await waitNodes(page, ['imported']);
    assert.equal(await page.locator('[data-testid="undo-import"]').count(), 1);

    // Another change: the notice no longer offers to undo the import.
    await page.click('[data-testid="tab-nodes"]');
    await nodesEditor(page).fill(node('imported') + '---\n' + node('second'));
    await waitNodes(page, ['imported', 'second']);
    assert.equal(await page.locator('[data-testid="undo-import"]').count(), 0);

    // A Reset, and a gallery pick, end the notice of an import.
    await page.setInputFiles('[data-testid="import"]', file);
    await waitNodes(page, ['imported']);
    assert.equal(await page.locator('[data-testid="undo-import"]').count(), 1);
    await page.click('[data-testid="reset"]');
    await waitNodes(page, CLASSIC);
    assert.equal(await page.locator('[data-testid="notice"]').count(), 0);
    await page.setInputFiles('[data-testid="import"]', file);
    await waitNodes(page, ['imported']);
    await page.selectOption('[data-testid="gallery"]', 'pdb-steers');
    await waitNodes(page, ['node-a', 'node-b']);
    assert.equal(await page.locator('[data-testid="undo-import"]').count(), 0);
    await context.close();
    assertNoProblems();
  });

  it('keeps a 9 MB paste (2000 nodes, 2000 pods) across a reload (IndexedDB)', async () => {
    const context = await env.context();
    const page = await fresh(context);
    // 2000 nodes with long annotations (label values may not pass 63 characters): about 5 MB, past what sessionStorage holds.
    const filler = 'x'.repeat(2200);
    const big = Array.from(
      { length: 2000 },
      (_, i) =>
        `apiVersion: v1\nkind: Node\nmetadata: {name: n${i}, annotations: {note: "${filler}"}}\nstatus: {allocatable: {cpu: "4", memory: 8Gi, pods: "110"}}\n`,
    ).join('---\n');
    assert.ok(big.length > 4.5e6);
    // And 2000 pods of the same size: together past any browser's sessionStorage.
    const pods = Array.from(
      { length: 2000 },
      (_, i) =>
        `apiVersion: v1\nkind: Pod\nmetadata: {name: p${i}, annotations: {note: "${filler}"}}\nspec: {containers: [{name: c, resources: {requests: {cpu: 100m}}}]}\n`,
    ).join('---\n');
    await page.click('[data-testid="tab-nodes"]');
    const stats = '2000 nodes · 2000 pods';
    const waitStats = () =>
      page.waitForFunction((s) => document.querySelector('.scenario-stats')?.textContent.includes(s), stats, { timeout: 90000 });
    await paste(page, 'nodes', big);
    await page.click('[data-testid="tab-pods"]');
    await paste(page, 'pods', pods);
    await waitStats();
    await page.waitForFunction(
      () => ['nodes', 'pods'].every((e) => Object.keys(sessionStorage).some((k) => k.endsWith(`editor.${e}.stashed`))),
      null,
      { timeout: 30000 },
    );
    assert.equal(await page.locator('[data-testid="save-problem"]').count(), 0);
    await page.reload();
    await waitStats();
    // Restored, each big text shows its first lines until asked for whole (editor.rs).
    await page.click('[data-testid="tab-nodes"]');
    await page.click('[data-testid="editor-nodes"] [data-testid="big-text-open"]');
    assert.equal(await nodesEditor(page).inputValue(), big);
    await page.click('[data-testid="tab-pods"]');
    await page.click('[data-testid="editor-pods"] [data-testid="big-text-open"]');
    assert.equal(await page.locator('[data-testid="editor-pods"] textarea').inputValue(), pods);
    await context.close();
    assertNoProblems();
  });

  it('says so when the browser refuses to save, and keeps the work on screen', async () => {
    const context = await env.context();
    await context.addInitScript(() => {
      // A browser out of room: both stores refuse.
      const refuse = () => {
        throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
      };
      Storage.prototype.setItem = refuse;
      IDBFactory.prototype.open = refuse;
    });
    const page = await fresh(context);
    await page.click('[data-testid="tab-nodes"]');
    await nodesEditor(page).fill(node('solo'));
    await waitNodes(page, ['solo']);
    const banner = page.locator('[data-testid="save-problem"]');
    await banner.waitFor();
    assert.match(await banner.textContent(), /could not be saved.*QuotaExceededError.*Export/s);
    assert.equal(await nodesEditor(page).inputValue(), node('solo'));
    await context.close();
    assertNoProblems();
  });
});
