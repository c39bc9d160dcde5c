// Browser test of links, per-tab saved state and hosting from a sub-folder: serves dist/ (build
// it first with `trunk build --release`), drives the system Chromium through playwright-core,
// and fails on any page error, console error or failed request.
//
//   node --test tests/browser/
//
// Expected placements are worked out by hand from the gallery's scenarios (their comments), not
// copied from the app. Some links are built here with Node's own zlib and an own FNV-1a, so the
// link format is checked against a second implementation.

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { DIST, open, ROOT, serve, SHOTS } from './support.mjs';

const SCENARIOS = path.join(ROOT, 'assets/scenarios');
const read = (file) => fs.readFileSync(path.join(SCENARIOS, file), 'utf8');

/** 64-bit FNV-1a of a text's UTF-8 bytes, in hex (the link's fingerprint of an unchanged text). */
function fnv1a(text) {
  let hash = 0xcbf29ce484222325n;
  for (const byte of Buffer.from(text, 'utf8')) {
    hash ^= BigInt(byte);
    hash = (hash * 0x100000001b3n) & 0xffffffffffffffffn;
  }
  return hash.toString(16).padStart(16, '0');
}

/** A `scenario=` fragment packed by Node: zlib, then base64url without padding. */
const pack = (json) => `scenario=${zlib.deflateSync(Buffer.from(json)).toString('base64url')}`;

const CLASSIC = {
  nodes: read('classic/nodes.yaml'),
  pods: read('classic/pods.yaml'),
  policy: read('classic/policy.json'),
  config: read('config.yaml'),
};
// db-0 asks for disktype=ssd; only node-b1 has disktype=hdd (see playground.test.mjs).
const HDD_PODS = CLASSIC.pods.replace('disktype: ssd', 'disktype: hdd');

const nodeOf = (page, pod) =>
  page.locator(`[data-testid="pod-row"][data-pod="${pod}"] [data-testid="pod-node"]`);
const scenarioName = async (page) => (await page.textContent('[data-testid="scenario-name"]')).trim();
const position = (page) => page.textContent('[data-testid="position"]');
const podsText = async (page) => {
  await page.click('[data-testid="tab-pods"]');
  return page.locator('[data-testid="editor-pods"] textarea').inputValue();
};
const showPods = async (page) => {
  await page.click('[data-testid="view-pods"]');
  await page.waitForSelector('[data-testid="pod-row"]');
};
/** Waits until the run is on screen. */
const ready = (page) => page.waitForSelector('[data-testid="node-card"], [data-testid="heat-map-canvas"]');
/** Waits until the address bar's fragment satisfies `test` (a string it must contain, or a RegExp). */
const waitHash = (page, test) =>
  page.waitForFunction(
    ([source, flags, text]) =>
      source ? new RegExp(source, flags).test(location.hash) : location.hash.includes(text),
    test instanceof RegExp ? [test.source, test.flags, null] : [null, null, test],
  );

describe('links, per-tab work and hosting anywhere', () => {
  let env;
  let base;

  /** A new tab in `context`, whose page errors, console errors and failed requests count. */
  const tab = (context) => env.tab(context);
  const context = (options) => env.context(options);
  const assertNoProblems = () => assert.deepEqual(env.problems.splice(0), [], 'the page reported errors');

  before(async () => {
    const frames = `<!doctype html><title>two frames</title><link rel="icon" href="data:,">
      <iframe name="a" src="/" width="900" height="600"></iframe>
      <iframe name="b" src="/" width="900" height="600"></iframe>`;
    env = await open({ pages: { '/frames.html': frames } });
    base = env.base;
  });

  after(async () => {
    await env?.close();
  });

  it('copies a link to an edited run and opens it, at the same phase, in a fresh browser', async () => {
    const ctx = await context({ permissions: ['clipboard-read', 'clipboard-write'] });
    const page = await tab(ctx);
    // The classic example at the end of its run (a first visit would open the first lesson).
    await page.goto(`${base}#example=classic`);
    await ready(page);
    await podsText(page);
    await page.locator('[data-testid="editor-pods"] textarea').fill(HDD_PODS);
    await showPods(page);
    await page.waitForFunction(
      () =>
        document.querySelector('[data-testid="pod-row"][data-pod="db-0"] [data-testid="pod-node"]')
          ?.textContent === 'node-b1',
    );
    // Three cycles (db-0, web-1, web-2: priority, then input order), then into the fourth,
    // ingress-1, phase by phase up to findNodesThatFit.
    await page.keyboard.press('Home');
    for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowRight');
    await page.waitForSelector('[data-testid="inspected-pod"]:text-is("web-2")');
    await page.keyboard.press('.');
    await page.keyboard.press('.');
    await page.waitForSelector('[data-testid="phase-chip"].current[data-phase="findNodesThatFit"]');
    await page.waitForSelector('[data-testid="inspected-pod"]:text-is("ingress-1")');
    const where = await position(page);
    assert.match(where, /walking cycle 4: findNodesThatFit/);

    await page.click('[data-testid="copy-link"]');
    await page.waitForSelector('[data-testid="link-panel"][data-outcome="copied"]');
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    assert.equal(copied, page.url(), 'the address bar holds the copied link');
    assert.ok(copied.startsWith(`${base}#scenario=`), copied);
    assert.ok(copied.endsWith('&cycle=4&phase=findNodesThatFit'), copied);
    // An ordinary edit stays under the chat tools' limit: no warning.
    assert.ok(copied.length < 2000, `${copied.length} characters`);
    assert.equal(await page.locator('[data-testid="link-long"]').count(), 0);
    await page.screenshot({ path: path.join(SHOTS, 'schedlab-link-copied.png') });
    // Only the page's own files were asked for: the scenario never reached the server.
    // (dist/'s own files and folders: the wasm-bindgen snippets are in snippets/.)
    const files = new Set(fs.readdirSync(DIST).map((f) => `/${f}`).concat(['/']));
    const inFolder = (u) => {
      const parts = u.split(/[?#]/)[0].split('/');
      return parts.length > 2 && files.has(`/${parts[1]}`) && !u.includes('?');
    };
    // The engine's worker is asked for with the addresses of the page's own wasm and its role,
    // nothing else.
    const worker = (u) => {
      const url = new URL(u, base);
      return url.pathname === '/engine-worker.js'
        && [...url.searchParams.keys()].every((k) => ['glue', 'wasm', 'threaded', 'role', 'module'].includes(k));
    };
    assert.deepEqual(env.server.seen.filter((u) => !files.has(u) && !inFolder(u) && !worker(u)), []);

    const fresh = await context();
    const other = await tab(fresh);
    await other.goto(copied);
    await other.waitForSelector('[data-testid="phase-chip"].current[data-phase="findNodesThatFit"]');
    assert.equal(await position(other), where);
    assert.equal(await other.textContent('[data-testid="inspected-pod"]'), 'ingress-1');
    assert.equal(await scenarioName(other), 'classic (edited)');
    assert.equal(await podsText(other), HDD_PODS);
    assert.equal(await other.locator('[data-testid="link-message"]').count(), 0);
    // The same run: at its end db-0 is on node-b1.
    await other.keyboard.press('End');
    await showPods(other);
    assert.equal(await nodeOf(other, 'db-0').textContent(), 'node-b1');
    await ctx.close();
    await fresh.close();
    assertNoProblems();
  });

  it('opens a gallery example by name on a cycle, and keeps the address bar on it without history entries', async () => {
    const ctx = await context();
    const page = await tab(ctx);
    // anti-affinity's pods.yaml: web-0 → node-1, web-1 → node-2, web-2 → node-3 (the only
    // host left), web-3 stays Pending. Cycle 3 is web-2's.
    await page.goto(`${base}#example=anti-affinity&cycle=3`);
    await page.waitForSelector('[data-testid="inspected-pod"]:text-is("web-2")');
    assert.equal(await scenarioName(page), 'anti-affinity');
    assert.match(await position(page), /cycle 3 of 4/);
    assert.equal(await page.textContent('[data-testid="chosen-node"]'), 'node-3');
    assert.equal(await page.locator('[data-testid="link-message"]').count(), 0);
    // The page keeps the link as it is.
    await page.waitForTimeout(500);
    assert.equal(new URL(page.url()).hash, '#example=anti-affinity&cycle=3');
    // Stepping rewrites the fragment in place: no new history entry per step.
    const entries = await page.evaluate(() => history.length);
    // The fourth cycle is the last step of the run: at the end the link names only the example.
    await page.keyboard.press('ArrowRight');
    await waitHash(page, /^#example=anti-affinity$/);
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowLeft');
    await waitHash(page, /^#example=anti-affinity&cycle=2$/);
    await page.keyboard.press('.');
    await waitHash(page, /^#example=anti-affinity&cycle=3&phase=scheduleOne$/);
    assert.equal(await page.evaluate(() => history.length), entries);
    // Picking another example follows too.
    await page.selectOption('[data-testid="gallery"]', 'zone-spread');
    await waitHash(page, /^#example=zone-spread$/);

    // A phase, by its function name.
    const walk = await tab(ctx);
    await walk.goto(`${base}#example=anti-affinity&cycle=4&phase=findNodesThatFit`);
    await walk.waitForSelector('[data-testid="phase-chip"].current[data-phase="findNodesThatFit"]');
    assert.equal(await walk.textContent('[data-testid="inspected-pod"]'), 'web-3');
    // pdb-steers has two cycles (its pods.yaml: checkout fails and preempts at t=0, and is
    // scheduled at t=30): cycle 3 is past the end, which the page says, opening at the end.
    const past = await tab(ctx);
    await past.goto(`${base}#example=pdb-steers&cycle=3`);
    const note = past.locator('[data-testid="link-message"]');
    await note.waitFor();
    assert.equal(await note.getAttribute('data-error'), 'false');
    assert.match(await note.textContent(), /this run has 2 cycles, not 3, so it opens at its end/);
    assert.match(await position(past), /cycle 2 of 2/);
    assert.equal(await scenarioName(past), 'pdb-steers');
    await ctx.close();
    assertNoProblems();
  });

  it('reads a link packed by another implementation of the format', async () => {
    const ctx = await context();
    const page = await tab(ctx);
    // Only the Pods editor travels as text; the others by the fingerprint of the example's text.
    const json = JSON.stringify({
      v: 1,
      scheduler: 'v1.17',
      seed: 7,
      example: 'classic',
      texts: { pods: HDD_PODS },
      same: { nodes: fnv1a(CLASSIC.nodes), policy: fnv1a(CLASSIC.policy), config: fnv1a(CLASSIC.config) },
    });
    await page.goto(`${base}#${pack(json)}&cycle=1`);
    await page.waitForSelector('[data-testid="inspected-pod"]:text-is("db-0")');
    assert.match(await page.textContent('.scenario-stats'), /seed 7/);
    assert.equal(await page.locator('[data-testid="link-message"]').count(), 0);
    assert.equal(await podsText(page), HDD_PODS);
    await page.click('[data-testid="tab-nodes"]');
    assert.equal(await page.locator('[data-testid="editor-nodes"] textarea').inputValue(), CLASSIC.nodes);
    assert.equal(await page.textContent('[data-testid="chosen-node"]'), 'node-b1');
    await ctx.close();
    assertNoProblems();
  });

  it('says why a broken link cannot be opened, and the page still works', async () => {
    const ctx = await context();
    const json = JSON.stringify({ v: 1, scheduler: 'v1.17', seed: 0, example: 'classic', texts: CLASSIC });
    const good = pack(json);
    const packed = zlib.deflateSync(Buffer.from(json));
    // 64 MiB of spaces packs into about 64 KiB: a decompression bomb.
    const bomb = `scenario=${zlib.deflateSync(Buffer.alloc(64 * 1024 * 1024, 0x20), { level: 9 }).toString('base64url')}`;
    const cases = [
      // Cut short: the last 12 bytes of the stream are gone.
      [`scenario=${packed.subarray(0, packed.length - 12).toString('base64url')}`, /damaged or cut short/],
      [`${good.slice(0, 40)}$$$${good.slice(40)}`, /not valid base64url/],
      [bomb, /unpacks to more than 16 MB/],
      ['example=no-such-example&cycle=3', /names an example "no-such-example" that this page does not have/],
      [pack('{"v": 9}'), /made by a newer schedlab/],
      ['cycle=3', /names neither a scenario nor an example/],
    ];
    for (const [fragment, why] of cases) {
      const page = await tab(ctx);
      await page.goto(`${base}#${fragment}`);
      const message = page.locator('[data-testid="link-message"]');
      await message.waitFor();
      assert.equal(await message.getAttribute('data-error'), 'true');
      const text = await message.textContent();
      assert.match(text, /^This link could not be opened: /);
      assert.match(text, why);
      assert.match(text, /Showing the classic example instead\./);
      // The default scenario runs: five nodes, db-0 where the classic example puts it.
      await page.waitForSelector('[data-testid="node-card"][data-node="node-a1"]');
      assert.equal(await scenarioName(page), 'classic');
      if (fragment === bomb) await page.screenshot({ path: path.join(SHOTS, 'schedlab-link-broken.png') });
      await showPods(page);
      assert.equal(await nodeOf(page, 'db-0').textContent(), 'node-a1');
      await page.click('[data-testid="link-message-dismiss"]');
      assert.equal(await message.count(), 0);
      await page.close();
    }
    // A bad cycle number only costs the cycle: the scenario opens, at its end.
    const page = await tab(ctx);
    await page.goto(`${base}#example=anti-affinity&cycle=abc`);
    const message = page.locator('[data-testid="link-message"]');
    await message.waitFor();
    assert.equal(await message.getAttribute('data-error'), 'false');
    assert.match(await message.textContent(), /"cycle=abc" is not a cycle number/);
    assert.equal(await scenarioName(page), 'anti-affinity');
    // The run arrives from the engine's worker.
    await page.waitForSelector('[data-testid="position"]:has-text("cycle 4 of 4")');
    assert.match(await position(page), /cycle 4 of 4/);
    await ctx.close();
    assertNoProblems();
  });

  it('keeps the work of two tabs apart', async () => {
    const ctx = await context();
    const one = await tab(ctx);
    await one.goto(base);
    await ready(one);
    await podsText(one);
    await one.locator('[data-testid="editor-pods"] textarea').fill(HDD_PODS);
    await one.waitForFunction(
      () => document.querySelector('[data-testid="scenario-name"]')?.textContent.includes('(edited)'),
    );
    // A second tab of the same browser starts from the example, not from the first tab's work.
    const two = await tab(ctx);
    await two.goto(base);
    await ready(two);
    assert.equal(await scenarioName(two), 'classic');
    assert.equal(await podsText(two), CLASSIC.pods);
    await two.selectOption('[data-testid="gallery"]', 'anti-affinity');
    await two.waitForSelector('[data-testid="node-card"][data-node="node-3"]');
    // Each tab gets its own work back, even at the bare address (no link in it).
    await one.goto(base);
    await ready(one);
    assert.equal(await scenarioName(one), 'classic (edited)');
    assert.equal(await podsText(one), HDD_PODS);
    await two.reload();
    await ready(two);
    assert.equal(await scenarioName(two), 'anti-affinity');
    // localStorage holds only each tab's own copy of its edited work, kept for after it closes
    // (recent.test.mjs): the first tab's, not the second's (an example, unedited).
    const kept = await one.evaluate(() =>
      Object.keys(localStorage).map((k) => [k.replace(/[^.]*$/, ''), JSON.parse(localStorage.getItem(k)).saved['editor.pods']]),
    );
    assert.deepEqual(kept, [['schedlab.v2.recent.', HDD_PODS]]);
    await ctx.close();
    assertNoProblems();
  });

  it('keeps the work of two frames of one page apart', async () => {
    const ctx = await context({ viewport: { width: 1900, height: 1300 } });
    const page = await tab(ctx);
    await page.goto(`${base}frames.html`);
    const a = page.frame({ name: 'a' });
    const b = page.frame({ name: 'b' });
    await ready(a);
    await ready(b);
    await podsText(a);
    await a.locator('[data-testid="editor-pods"] textarea').fill(HDD_PODS);
    await a.waitForFunction(
      () => document.querySelector('[data-testid="scenario-name"]')?.textContent.includes('(edited)'),
    );
    // Frames of one tab share sessionStorage: each keeps its work under a slot of its own, named
    // after its place in the page (frame-0, frame-1).
    const edited = () => page.evaluate(() => Object.keys(sessionStorage).filter((k) => k.includes('.editor.')).sort());
    assert.deepEqual(await edited(), ['schedlab.v2.frame-0.editor.pods']);
    await Promise.all([b.waitForNavigation(), b.evaluate(() => location.reload())]);
    await b.waitForSelector('[data-testid="node-card"]');
    assert.equal(await scenarioName(b), 'classic');
    assert.equal(await podsText(b), CLASSIC.pods);
    await b.selectOption('[data-testid="gallery"]', 'zone-spread');
    await Promise.all([a.waitForNavigation(), a.evaluate(() => location.reload())]);
    await a.waitForSelector('[data-testid="node-card"]');
    assert.equal(await scenarioName(a), 'classic (edited)');
    assert.equal(await podsText(a), HDD_PODS);
    assert.equal(await scenarioName(b), 'zone-spread');
    assert.deepEqual(await edited(), ['schedlab.v2.frame-0.editor.pods']);
    assert.equal(await page.evaluate(() => sessionStorage.getItem('schedlab.v2.frame-1.example')), 'zone-spread');
    // Reloading the whole page gives each frame its own work back.
    await page.reload();
    const a2 = page.frame({ name: 'a' });
    const b2 = page.frame({ name: 'b' });
    await ready(a2);
    await ready(b2);
    assert.equal(await scenarioName(a2), 'classic (edited)');
    assert.equal(await podsText(a2), HDD_PODS);
    assert.equal(await scenarioName(b2), 'zone-spread');
    await a2.evaluate(() => scrollTo(0, 0));
    await b2.evaluate(() => scrollTo(0, 0));
    await page.screenshot({ path: path.join(SHOTS, 'schedlab-two-frames.png') });
    await ctx.close();
    assertNoProblems();
  });

  it('asks before a link replaces edited work, and never drops either silently', async () => {
    const ctx = await context();
    const page = await tab(ctx);
    await page.goto(`${base}#example=classic`);
    await ready(page);
    await podsText(page);
    await page.locator('[data-testid="editor-pods"] textarea').fill(HDD_PODS);
    await waitHash(page, /^#scenario=[^&]*$/);
    const work = page.url();
    // A link pasted into the address bar of this tab.
    await page.goto(`${base}#example=anti-affinity&cycle=3`);
    const banner = page.locator('[data-testid="link-conflict"]');
    await banner.waitFor();
    assert.match(await banner.textContent(), /restore your work/);
    // Until the user chooses, the work stays on screen and the link stays in the address bar
    // (a reload asks again).
    assert.equal(await scenarioName(page), 'classic (edited)');
    await page.screenshot({ path: path.join(SHOTS, 'schedlab-link-conflict.png') });
    await page.reload();
    await banner.waitFor();
    assert.equal(await podsText(page), HDD_PODS);
    assert.equal(new URL(page.url()).hash, '#example=anti-affinity&cycle=3');
    // Restore: the link is dropped, the address bar links to the work again.
    await page.click('[data-testid="link-keep"]');
    assert.equal(await banner.count(), 0);
    await waitHash(page, 'scenario=');
    assert.equal(page.url(), work);
    assert.equal(await scenarioName(page), 'classic (edited)');
    // Again, and this time open the link.
    await page.goto(`${base}#example=anti-affinity&cycle=3`);
    await banner.waitFor();
    await page.click('[data-testid="link-open"]');
    await page.waitForSelector('[data-testid="inspected-pod"]:text-is("web-2")');
    assert.equal(await scenarioName(page), 'anti-affinity');
    assert.equal(await banner.count(), 0);
    // Work equal to the link, or no edited work at all: the link opens without a question.
    await page.goto(`${base}#example=classic&cycle=1`);
    await page.waitForSelector('[data-testid="inspected-pod"]:text-is("db-0")');
    assert.equal(await banner.count(), 0);
    await ctx.close();
    assertNoProblems();
  });

  it('shows the link in a field when the clipboard is not available, and warns when it is long', async () => {
    const ctx = await context();
    // As on a page served over plain http from another host: no navigator.clipboard.
    await ctx.addInitScript(() => {
      Object.defineProperty(Navigator.prototype, 'clipboard', { get: () => undefined, configurable: true });
    });
    const page = await tab(ctx);
    await page.goto(base);
    await ready(page);
    // A comment of 3000 pseudo-random characters: it does not compress much.
    let x = 12345;
    let noise = '';
    for (let i = 0; i < 3000; i++) {
      x = (x * 1103515245 + 12345) % 2147483648;
      noise += 'abcdefghijklmnopqrstuvwxyz0123456789'[x % 36];
    }
    await podsText(page);
    await page.locator('[data-testid="editor-pods"] textarea').fill(`${HDD_PODS}# ${noise}\n`);
    await page.waitForFunction(
      () => document.querySelector('[data-testid="scenario-name"]')?.textContent.includes('(edited)'),
    );
    await page.click('[data-testid="copy-link"]');
    const panel = page.locator('[data-testid="link-panel"][data-outcome="manual"]');
    await panel.waitFor();
    const field = page.locator('[data-testid="link-field"]');
    const url = await field.inputValue();
    assert.equal(url, page.url());
    assert.ok(url.length > 2000, `${url.length} characters`);
    // Selected, ready for Ctrl+C.
    const [focused, start, end] = await field.evaluate((el) => [document.activeElement === el, el.selectionStart, el.selectionEnd]);
    assert.deepEqual([focused, start, end], [true, 0, url.length]);
    const long = page.locator('[data-testid="link-long"]');
    assert.match(await long.textContent(), new RegExp(`This link is ${url.length} characters long`));
    assert.match(await long.textContent(), /about 2000 characters/);
    await page.screenshot({ path: path.join(SHOTS, 'schedlab-link-long.png') });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: path.join(SHOTS, 'schedlab-link-long-390.png') });
    // The long link still opens the same texts.
    const other = await tab(ctx);
    await other.goto(url);
    await ready(other);
    assert.equal(await podsText(other), `${HDD_PODS}# ${noise}\n`);
    await ctx.close();
    assertNoProblems();
  });

  it('runs from a sub-folder of a static host', async () => {
    // Every asset path in index.html is relative.
    const html = fs.readFileSync(path.join(DIST, 'index.html'), 'utf8');
    assert.doesNotMatch(html, /(href|src)="\/|from '\/|module_or_path: '\//);
    const sub = await serve(DIST, { prefix: '/docs/schedlab/' });
    const at = `http://127.0.0.1:${sub.address().port}/docs/schedlab/`;
    try {
      const ctx = await context({ permissions: ['clipboard-read', 'clipboard-write'] });
      const page = await tab(ctx);
      // The folder without its slash is redirected to it, as static hosts do. A first visit:
      // the first lesson, on the classic example.
      await page.goto(at.slice(0, -1));
      await page.waitForSelector('[data-testid="node-card"][data-node="node-a1"]');
      assert.equal(await scenarioName(page), 'classic');
      await page.waitForSelector('[data-testid="lesson-panel"][data-lesson="schedule-one"][data-stop="1"]');
      await page.click('[data-testid="copy-link"]');
      await page.waitForSelector('[data-testid="link-panel"][data-outcome="copied"]');
      assert.equal(await page.evaluate(() => navigator.clipboard.readText()), `${at}#lesson=schedule-one&stop=1`);
      const linked = await tab(ctx);
      await linked.goto(`${at}#example=anti-affinity&cycle=3`);
      await linked.waitForSelector('[data-testid="inspected-pod"]:text-is("web-2")');
      assert.ok(sub.seen.every((u) => u.startsWith('/docs/schedlab')), sub.seen.join(' '));
      await ctx.close();
      assertNoProblems();
    } finally {
      await new Promise((resolve) => sub.close(resolve));
    }
  });
});
