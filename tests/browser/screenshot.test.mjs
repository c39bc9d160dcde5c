// The README's screenshot (docs/screenshot.png), taken from the built page so that it never
// goes stale: the batch-displaced example at its first cycle's preempt phase, at 1280 x 800.
// SCHEDLAB_README_SHOT writes it elsewhere.
//
//   node --test tests/browser/screenshot.test.mjs

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { open, ROOT } from './support.mjs';

const SHOT = process.env.SCHEDLAB_README_SHOT ?? path.join(ROOT, 'docs', 'screenshot.png');

describe('the README screenshot', () => {
  let env;

  before(async () => {
    env = await open();
  });
  after(async () => env?.close());

  it('is taken from the page at 1280 x 800', async () => {
    const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    assert.match(readme, /!\[[^\]]*\]\(docs\/screenshot\.png\)/, 'the README shows docs/screenshot.png');
    const context = await env.context({ viewport: { width: 1280, height: 800 }, reducedMotion: 'reduce' });
    const page = await env.tab(context);
    await page.goto(`${env.base}#example=batch-displaced&cycle=1&phase=preempt`);
    // The run is shown, at the link's cycle and phase, with its results current.
    await page.waitForSelector('[data-testid="node-card"]');
    await page.waitForSelector('[data-testid="phase-chip"].current[data-phase="preempt"]');
    await page.waitForSelector('[data-testid="status"].ok');
    await page.waitForLoadState('networkidle');
    await page.evaluate(() => document.fonts.ready);
    // Nothing hovered or focused, and no caret.
    await page.mouse.move(0, 0);
    await page.evaluate(() => document.activeElement?.blur());
    await page.waitForTimeout(300);
    assert.equal(await page.locator('[data-testid="recent-work"], [data-testid="save-problem"]').count(), 0);
    fs.mkdirSync(path.dirname(SHOT), { recursive: true });
    await page.screenshot({ path: SHOT, caret: 'hide', animations: 'disabled' });
    assert.ok(fs.statSync(SHOT).size > 10_000, 'the screenshot is written');
    await context.close();
    assert.deepEqual(env.problems.splice(0), [], 'the page reported errors');
  });
});
