// Browser test of embed mode (`?embed`): the compact view in an 800×500 iframe, two embeds on
// one page that stay apart, keys that step the run without scrolling the host page, `&edit`,
// and an embed that never touches the saved work of the full page in the same tab.
//
//   node --test tests/browser/
//
// Facts about the scenarios come from their comments (worked out by hand): in pdb-steers,
// checkout fails at t=0 (cycle 1, preemption) and is scheduled on node-b at t=30 (cycle 2);
// in classic, web-0 goes to node-b1 and two cycles run before db-0 (see playground.test.mjs).

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { open, SHOTS } from './support.mjs';

const PDB = '?embed#example=pdb-steers&cycle=2';

/** A host page: text above and below, and the given iframes. */
const host = (frames) => `<!doctype html><title>a blog post</title><link rel="icon" href="data:,">
  <style>body { margin: 0; font: 16px serif; } .tall { height: 1500px; background: linear-gradient(#fff, #eee); }</style>
  <div class="tall">Some prose above the embed.</div>
  ${frames}
  <div class="tall">More prose below.</div>`;

const frame = (name, src) =>
  `<iframe name="${name}" src="${src}" width="800" height="500" style="border:1px solid #ccc; display:block"></iframe>`;

/** The schedlab keys in the tab's sessionStorage. */
const savedKeys = (page) =>
  page.evaluate(() => Object.keys(sessionStorage).filter((k) => k.startsWith('schedlab')).sort());

/** Waits until the embed's run is on screen. */
const ready = (f) => f.waitForSelector('[data-testid="embed"] [data-testid="node-card"]');
const position = (f) => f.textContent('[data-testid="position"]');

describe('embed mode', () => {
  let env;
  const assertNoProblems = () => assert.deepEqual(env.problems.splice(0), [], 'the page reported errors');

  before(async () => {
    env = await open({
      pages: {
        '/post.html': host(frame('one', `/${PDB}`) + frame('two', '/?embed#example=classic')),
        '/edit.html': host(frame('ed', '/?embed&edit#example=classic')),
      },
    });
  });
  after(async () => env?.close());

  it('fits 800×500: cluster, controls and the inspector on the chosen cycle, no editors', async () => {
    const page = await env.newPage({ width: 800, height: 500 });
    await page.goto(`${env.base}${PDB}`);
    await ready(page);
    // The compact view fills the frame and nothing scrolls the document itself.
    const size = await page.evaluate(() => ({
      scroll: document.documentElement.scrollHeight,
      width: document.documentElement.scrollWidth,
      inner: innerHeight,
    }));
    assert.equal(size.scroll, 500, 'the document is exactly the frame high');
    assert.ok(size.width <= 800, `no horizontal overflow (${size.width})`);
    for (const id of ['controls', 'cluster-view', 'inspector', 'embed-open']) {
      const box = await page.locator(`[data-testid="${id}"]`).first().boundingBox();
      assert.ok(box && box.y < 400, `${id} starts in sight (y = ${box?.y})`);
    }
    assert.equal(await page.locator('[data-testid="tab-nodes"]').count(), 0, 'no editors without &edit');
    assert.equal(await page.locator('.topbar').count(), 0, 'no full header');
    // Cycle 2 (checkout placed on node-b) is the inspected one.
    const hint = await page.textContent('[data-testid="inspector"] .card-hint');
    assert.match(hint, /cycle 2 of 2/);
    assert.match(await page.textContent('[data-testid="inspected-pod"]'), /checkout/);
    // The link out is the full playground at the same cycle.
    const href = await page.getAttribute('[data-testid="embed-open"]', 'href');
    assert.equal(href, `${env.base}#example=pdb-steers&cycle=2`);
    assert.deepEqual(await savedKeys(page), [], 'an embed saves nothing');
    await page.screenshot({ path: `${SHOTS}/schedlab-embed-800x500.png` });
    await page.close();
    assertNoProblems();
  });

  it('two embeds on one page stay apart, and keys step the run without scrolling the host', async () => {
    const page = await env.newPage({ width: 1000, height: 800 });
    await page.goto(`${env.base}post.html`);
    const one = page.frame('one');
    const two = page.frame('two');
    await ready(one);
    await ready(two);
    assert.match(await one.textContent('[data-testid="scenario-name"]'), /pdb-steers/);
    assert.match(await two.textContent('[data-testid="scenario-name"]'), /classic/);
    const twoBefore = await position(two);

    // The first embed in view, the host scrolled part-way down.
    await page.evaluate(() => window.scrollTo(0, 1200));
    await one.click('[data-testid="inspector"] h2');
    const scrolled = await page.evaluate(() => scrollY);
    await page.keyboard.press('Home');
    await one.waitForFunction(() => document.querySelector('[data-testid="position"]').textContent.includes('step 0 of'));
    for (const key of ['ArrowDown', 'PageDown', 'Space', 'ArrowUp', 'ArrowRight']) {
      if (key === 'Space') {
        await page.keyboard.press(key); // run …
        await page.keyboard.press(key); // … and pause
      } else {
        await page.keyboard.press(key);
      }
    }
    // Keyboard scrolling is smooth: give a chained scroll time to show.
    await page.waitForTimeout(800);
    assert.equal(await page.evaluate(() => scrollY), scrolled, 'the host page did not scroll');
    await page.keyboard.press('Home');
    await page.keyboard.press('ArrowRight');
    await one.waitForFunction(() =>
      document.querySelector('[data-testid="position"]').textContent.includes('cycle 1 of 2'),
    );
    assert.equal(await page.evaluate(() => scrollY), scrolled, 'the host page did not scroll');
    assert.equal(await position(two), twoBefore, 'the other embed did not move');

    // Nothing is saved: after a reload each frame shows what its host asked for again.
    assert.deepEqual(await savedKeys(page), []);
    await page.reload();
    await ready(page.frame('one'));
    await ready(page.frame('two'));
    assert.match(await page.frame('one').textContent('.card-hint'), /./);
    assert.match(await page.frame('one').textContent('[data-testid="inspector"] .card-hint'), /cycle 2 of 2/);
    assert.match(await page.frame('two').textContent('[data-testid="scenario-name"]'), /classic/);
    await page.close();
    assertNoProblems();
  });

  it('never reads or writes the full page’s saved work in the same tab', async () => {
    const context = await env.context();
    const page = await env.tab(context);
    await page.goto(`${env.base}#example=classic`);
    await page.waitForSelector('[data-testid="node-card"]');
    await page.click('[data-testid="tab-pods"]');
    const pods = page.locator('[data-testid="editor-pods"] textarea');
    await pods.fill(`${await pods.inputValue()}\n# my work\n`);
    await page.waitForFunction(() =>
      Object.keys(sessionStorage).some((k) => k.endsWith('editor.pods')),
    );
    // The full page's own last write: the address bar catching up with the edit (left pending,
    // the full page would write it as it is left, which is the full page's doing, not the embed's).
    await page.waitForFunction(() => location.hash.startsWith('#scenario='));
    const keys = await savedKeys(page);
    const values = await page.evaluate(() => JSON.stringify(sessionStorage));

    // The same tab goes to a page that embeds another scenario.
    await page.goto(`${env.base}post.html`);
    await ready(page.frame('one'));
    await ready(page.frame('two'));
    assert.match(await page.frame('two').textContent('[data-testid="scenario-name"]'), /^classic$/, 'the embed shows the example, not the tab’s edited work');
    assert.equal(await page.evaluate(() => JSON.stringify(sessionStorage)), values, 'the saved work is untouched');

    await page.goto(`${env.base}`);
    await page.waitForSelector('[data-testid="node-card"]');
    assert.deepEqual(await savedKeys(page), keys);
    await page.click('[data-testid="tab-pods"]');
    assert.match(await pods.inputValue(), /# my work/);
    await context.close();
    assertNoProblems();
  });

  it('&edit adds the editors; edits rerun the embed and are not saved', async () => {
    const page = await env.newPage({ width: 1000, height: 800 });
    await page.goto(`${env.base}edit.html`);
    const ed = page.frame('ed');
    await ready(ed);
    await ed.click('[data-testid="embed-show-inputs"]');
    await ed.click('[data-testid="tab-nodes"]');
    const nodes = ed.locator('[data-testid="editor-nodes"] textarea');
    const text = await nodes.inputValue();
    // classic has five nodes (its nodes.yaml); one node more.
    const count = 5;
    const extra = 'apiVersion: v1\nkind: Node\nmetadata: {name: extra-node}\nstatus: {allocatable: {cpu: "4", memory: 8Gi, pods: "110"}}\n';
    await nodes.fill(`${text.trimEnd()}\n---\n${extra}`);
    await ed.click('[data-testid="embed-show-cluster"]');
    await ed.waitForFunction(
      (n) => document.querySelectorAll('[data-testid="node-card"]').length === n,
      count + 1,
    );
    assert.match(await ed.textContent('[data-testid="scenario-name"]'), /classic \(edited\)/);
    assert.deepEqual(await savedKeys(page), []);
    // The link out carries the edited scenario.
    assert.match(await ed.getAttribute('[data-testid="embed-open"]', 'href'), /#scenario=/);
    await page.close();
    assertNoProblems();
  });
});
