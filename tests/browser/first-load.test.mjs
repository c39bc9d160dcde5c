// Browser test of the split first load (scripts/split-page.sh, `split_point!` in web/src/lib.rs):
// the page starts from its main module; a panel's code is fetched when the panel first opens, and
// the engine's when the first request reaches its host. Every chunk sits in the folder named
// after the main module's hash, so one build's main module never meets another's chunks.
//
//   node --test tests/browser/first-load.test.mjs

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { DIST, open } from './support.mjs';

describe('the first load: a main module, and chunks fetched on first use', () => {
  let env;

  before(async () => {
    env = await open();
  });

  after(async () => {
    await env?.close();
  });

  it('fetches the questions and the help only when they open, from the build\'s own folder', async () => {
    const context = await env.context();
    const page = await env.tab(context);
    const from = env.server.seen.length;
    const wasm = () => env.server.seen.slice(from).filter((u) => u.endsWith('.wasm'));
    const chunk = (name) => wasm().some((u) => new RegExp(`/split_${name}_[0-9]+\\.wasm$`).test(u));

    await page.goto(`${env.base}#example=classic`);
    // The first cycle on screen: the session's host (the engine) has loaded and run.
    await page.waitForSelector('[data-testid="node-card"][data-node="node-a1"]');
    await page.waitForSelector('[data-testid="schedule-one"]');
    const main = wasm().find((u) => /\/schedlab_web-[0-9a-f]+_bg\.wasm$/.test(u));
    assert.ok(main, `the page loaded its main module (${wasm()})`);
    const hash = /schedlab_web-([0-9a-f]+)_bg/.exec(main)[1];
    assert.equal(chunk('handle_now'), true, 'the host\'s chunk came with the first request');
    assert.equal(chunk('first_screen_view'), true, 'the run\'s views came with the first screen');
    assert.equal(chunk('form_of'), false, 'no form is open');
    assert.equal(chunk('questions_body_view'), false, 'the questions panel is closed');
    assert.equal(chunk('help_view'), false, 'the help is closed');
    // Closed, the panel's summary is there (it is in the main module).
    await page.waitForSelector('[data-testid="questions-toggle"]');

    await page.click('[data-testid="questions-toggle"]');
    await page.waitForSelector('[data-testid="questions-tab-compare"]');
    assert.equal(chunk('questions_body_view'), true);

    await page.keyboard.press('?');
    await page.waitForSelector('[data-testid="help"]');
    assert.equal(chunk('help_view'), true);
    // Closed and opened again: drawn at once, nothing fetched again.
    await page.keyboard.press('Escape');
    await page.waitForSelector('[data-testid="help"]', { state: 'detached' });
    const count = wasm().length;
    await page.keyboard.press('?');
    await page.waitForSelector('[data-testid="help"]');
    assert.equal(wasm().length, count);

    for (const u of wasm().filter((x) => x !== main)) {
      assert.ok(u.startsWith(`/schedlab_web-${hash}.split/`), `${u} is in the build's own folder`);
    }
    assert.deepEqual(env.problems, []);
    await context.close();
  });

  // Issue 14's target is 450 KB. The seventh editor (Plugins) and the closed tabs' copies
  // (issue 40) took the module to 454 235 B; the limit stands at 460 KB until the main module
  // loses that again (the closing note of stop 42 says so).
  it('starts from a main module of at most 460 KB gzip (issue 14, item 5: 450 KB)', () => {
    const main = fs.readdirSync(DIST).find((f) => /^schedlab_web-[0-9a-f]+_bg\.wasm$/.test(f));
    assert.ok(main, `a main module in ${DIST}`);
    const bytes = fs.readFileSync(path.join(DIST, main));
    const gzip = zlib.gzipSync(bytes, { level: 9 }).length;
    assert.ok(gzip <= 460_000, `the main module is ${gzip} B at gzip -9`);
    // And it is the split build's (a whole, unsplit module is about 1.4 MB gzip).
    assert.ok(fs.readdirSync(DIST).some((f) => f === main.replace('_bg.wasm', '.split')));
  });
});
