// Browser test of the work of closed tabs (web/src/state/recent.rs): a tab closed 20 ms after
// an edit leaves its work, which a new tab of the same browser offers and restores (with
// Undo); two open tabs keep their own work and never offer each other's; five are kept; a
// duplicated tab takes an id of its own; a copy localStorage refuses is said on the page; a
// reload within 50 ms of an edit keeps it.
//
//   node --test tests/browser/recent.test.mjs

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { open } from './support.mjs';

const node = (name) =>
  `apiVersion: v1\nkind: Node\nmetadata: {name: ${name}, labels: {kubernetes.io/hostname: ${name}}}\nstatus: {allocatable: {cpu: "4", memory: 8Gi, pods: "110"}}\n`;
const nodesText = (page) => page.locator('[data-testid="editor-nodes"] textarea').inputValue();
/** Waits until exactly these nodes are on screen. */
const waitNodes = (page, expected) =>
  page.waitForFunction(
    (want) =>
      JSON.stringify([...document.querySelectorAll('[data-testid="node-card"]')].map((e) => e.getAttribute('data-node')).sort()) ===
      JSON.stringify(want),
    [...expected].sort(),
  );
const nodeNames = (page) =>
  page.$$eval('[data-testid="node-card"]', (els) => els.map((e) => e.getAttribute('data-node')).sort());
const offers = (page) => page.locator('[data-testid="recent-work-item"]');

describe('work of closed tabs', () => {
  let env;
  const assertNoProblems = () => assert.deepEqual(env.problems.splice(0), [], 'the page reported errors');

  before(async () => {
    env = await open();
  });
  after(async () => env?.close());

  /** A new tab of the playground (no link), once its first run is on screen. */
  async function newTab(context) {
    const page = await env.tab(context);
    page.on('dialog', (d) => d.accept());
    await page.goto(env.base);
    await page.waitForSelector('[data-testid="node-card"]');
    return page;
  }

  /** Edits the Nodes editor to hold one node, `name`, and waits for its run. */
  async function edit(page, name) {
    await page.click('[data-testid="tab-nodes"]');
    await page.locator('[data-testid="editor-nodes"] textarea').fill(node(name));
  }

  /** The offer is not shown: given time to appear, it did not. */
  async function noOffer(page) {
    await page.waitForTimeout(700);
    assert.equal(await page.locator('[data-testid="recent-work"]').count(), 0, 'no recent work is offered');
  }

  it('a tab closed 20 ms after an edit leaves its work, which a new tab offers and restores', async () => {
    const context = await env.context();
    const first = await newTab(context);
    const lessonNodes = await nodeNames(first);
    await edit(first, 'kept');
    await first.waitForTimeout(20);
    await first.close();

    const second = await newTab(context);
    await second.waitForSelector('[data-testid="recent-work"]');
    assert.equal(await offers(second).count(), 1);
    const label = await offers(second).first().textContent();
    assert.match(label, /edited/);
    assert.match(label, /just now|min ago/);
    await second.screenshot({ path: '/tmp/schedlab-recent-offer.png' });
    // Keyboard: the offer's button takes the focus and Enter chooses it.
    await offers(second).first().focus();
    await second.keyboard.press('Enter');
    await waitNodes(second, ['kept']);
    assert.equal(await nodesText(second), node('kept'));
    assert.equal(await second.locator('[data-testid="recent-work"]').count(), 0, 'the offer closes');
    assert.match(await second.textContent('[data-testid="notice"]'), /Restored the work of a closed tab/);

    // The notice's Undo puts back what the tab held before; Redo brings the work again.
    await second.click('[data-testid="undo-import"]');
    await waitNodes(second, lessonNodes);
    await second.click('[data-testid="redo"]');
    await waitNodes(second, ['kept']);

    // It is this tab's work now: a reload keeps it, and no other tab is offered it.
    await second.reload();
    await waitNodes(second, ['kept']);
    const third = await newTab(context);
    await noOffer(third);
    await third.close();
    await context.close();
    assertNoProblems();
  });

  it('two open tabs keep their own work and never offer each other’s', async () => {
    const context = await env.context();
    const a = await newTab(context);
    await edit(a, 'alpha');
    await waitNodes(a, ['alpha']);
    const b = await newTab(context);
    await noOffer(b);
    await edit(b, 'beta');
    await waitNodes(b, ['beta']);
    await a.reload();
    await waitNodes(a, ['alpha']);
    await b.reload();
    await waitNodes(b, ['beta']);
    // Each writes only its own entry.
    const entries = await a.evaluate(() =>
      Object.keys(localStorage)
        .filter((k) => k.startsWith('schedlab.v2.recent.'))
        .map((k) => JSON.parse(localStorage.getItem(k)).saved['editor.nodes']),
    );
    assert.deepEqual(entries.sort(), [node('alpha'), node('beta')]);
    const c = await newTab(context);
    await noOffer(c);
    await c.close();

    // Once one is closed, a new tab offers its work, and only its.
    await a.close();
    const d = await newTab(context);
    await d.waitForSelector('[data-testid="recent-work"]');
    assert.equal(await offers(d).count(), 1);
    await offers(d).first().click();
    await waitNodes(d, ['alpha']);
    assert.equal(await nodesText(b), node('beta'), 'the open tab keeps its work');
    await context.close();
    assertNoProblems();
  });

  it('keeps at most five closed tabs’ work, newest first', async () => {
    const context = await env.context();
    for (let i = 0; i < 6; i++) {
      const page = await newTab(context);
      await edit(page, `n${i}`);
      await waitNodes(page, [`n${i}`]);
      await page.close();
    }
    const page = await newTab(context);
    await page.waitForSelector('[data-testid="recent-work"]');
    assert.equal(await offers(page).count(), 5);
    // Over this tab's own edits, choosing asks first.
    await edit(page, 'mine');
    await waitNodes(page, ['mine']);
    const asked = [];
    page.on('dialog', (d) => asked.push(d.message()));
    await offers(page).first().click();
    await waitNodes(page, ['n5']);
    assert.deepEqual(asked, ['Replace your edited texts with this work?']);
    await context.close();
    assertNoProblems();
  });

  it('a duplicated tab (a copy of the sessionStorage, its id with it) takes an id of its own', async () => {
    const context = await env.context();
    const a = await newTab(context);
    await edit(a, 'original');
    await waitNodes(a, ['original']);
    const copy = await a.evaluate(() => JSON.stringify(Object.entries(sessionStorage)));
    // A duplicate: a new tab whose sessionStorage is a copy of the first's, at the same address.
    const b = await env.tab(context);
    await b.addInitScript((entries) => {
      if (!sessionStorage.length) for (const [k, v] of JSON.parse(entries)) sessionStorage.setItem(k, v);
    }, copy);
    await b.goto(env.base);
    await waitNodes(b, ['original']);
    await b.waitForFunction(
      (own) => Object.entries(sessionStorage).some(([k, v]) => k.startsWith('schedlab.v2.recent-id.') && v !== own),
      await a.evaluate(() => sessionStorage.getItem('schedlab.v2.recent-id.tab')),
    );
    await edit(b, 'duplicate');
    await waitNodes(b, ['duplicate']);
    // Each tab's copy is its own.
    const kept = await a.evaluate(() =>
      Object.keys(localStorage)
        .filter((k) => k.startsWith('schedlab.v2.recent.'))
        .map((k) => JSON.parse(localStorage.getItem(k)).saved['editor.nodes'])
        .sort(),
    );
    assert.deepEqual(kept, [node('duplicate'), node('original')]);
    await context.close();
    assertNoProblems();
  });

  it('says so when localStorage refuses the copy, and the tab keeps its work', async () => {
    const context = await env.context();
    await context.addInitScript(() => {
      const set = Storage.prototype.setItem;
      Storage.prototype.setItem = function (key, value) {
        if (this === localStorage && key.startsWith('schedlab.v2.recent.')) {
          throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
        }
        return set.call(this, key, value);
      };
    });
    const page = await newTab(context);
    await edit(page, 'unkept');
    await waitNodes(page, ['unkept']);
    const banner = page.locator('[data-testid="save-problem"]');
    await banner.waitFor();
    assert.match(await banner.textContent(), /could not be saved for after this tab closes.*QuotaExceededError.*Export/s);
    await page.reload();
    await waitNodes(page, ['unkept']);
    await context.close();
    assertNoProblems();
  });

  it('a reload within 50 ms of an edit keeps it', async () => {
    const context = await env.context();
    const page = await newTab(context);
    await edit(page, 'quick');
    await page.waitForTimeout(30);
    await page.reload();
    await waitNodes(page, ['quick']);
    assert.equal(await nodesText(page), node('quick'));
    await noOffer(page);
    await context.close();
    assertNoProblems();
  });
});
