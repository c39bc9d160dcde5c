// Browser test of serving with cross-origin isolation: dist/ served with the two headers that
// `trunk serve` sends (Trunk.toml, [serve.headers]) and dist/_headers asks static hosts for.
// The page must be cross-origin isolated and work exactly as without them: every resource is
// same-origin, so `require-corp` blocks nothing.
//
//   node --test tests/browser/serving.test.mjs

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { DIST, open } from './support.mjs';

const ISOLATION = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
};

describe('serving with cross-origin isolation', () => {
  let env;

  before(async () => {
    env = await open({ headers: ISOLATION });
  });

  after(async () => {
    await env?.close();
  });

  it('ships a _headers file with both headers', () => {
    const text = fs.readFileSync(path.join(DIST, '_headers'), 'utf8');
    for (const [name, value] of Object.entries(ISOLATION)) {
      assert.match(text, new RegExp(`^\\s+${name}: ${value}$`, 'm'));
    }
  });

  it('is isolated, runs, and loads nothing that the headers block', async () => {
    const context = await env.context();
    const page = await env.tab(context);
    await page.goto(`${env.base}#example=classic`);
    await page.waitForSelector('[data-testid="node-card"]');
    assert.equal(await page.evaluate(() => self.crossOriginIsolated), true);
    // The classic example runs to its end: 8 cycles (as tests/browser/playground.test.mjs).
    await page.keyboard.press('End');
    await page.waitForFunction(() => document.querySelector('[data-testid="position"]')?.textContent.includes('cycle 8 of 8'));
    // The embed view, under the same headers.
    const embed = await env.tab(context);
    await embed.goto(`${env.base}?embed#example=pdb-steers&cycle=1`);
    await embed.waitForSelector('[data-testid="node-card"]');
    assert.equal(await embed.evaluate(() => self.crossOriginIsolated), true);
    assert.deepEqual(env.problems, []);
    await context.close();
  });
});
