// Browser test of the page under hostile input: a pasted YAML alias bomb, a 40 MB paste, and
// an engine panic. Each time the page says what happened and keeps the editors' text; after a
// panic it offers a bug report that holds the scenario.
//
//   node --test tests/browser/
//
// The classic example has five nodes (node-a1 … node-b3).

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { open, paste } from './support.mjs';

const nodesEditor = (page) => page.locator('[data-testid="editor-nodes"] textarea');
const cards = (page) => page.locator('[data-testid="node-card"]').count();

describe('the page under hostile input', () => {
  let env;
  const assertNoProblems = () => assert.deepEqual(env.problems.splice(0), [], 'the page reported errors');

  before(async () => {
    env = await open();
  });
  after(async () => env?.close());

  it('refuses a pasted alias bomb with a message, keeps the text and the last run', async () => {
    const context = await env.context();
    const page = await env.tab(context);
    await page.goto(`${env.base}#example=classic`);
    await page.waitForSelector('[data-testid="node-card"]');
    // Nine levels of nine aliases: 9^9 (387 million) strings once expanded, from 700 bytes.
    let bomb = 'apiVersion: v1\nkind: Node\nmetadata: {name: bomb}\nl0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n';
    for (let i = 1; i <= 9; i++) {
      bomb += `l${i}: &l${i} [${Array(9).fill(`*l${i - 1}`).join(', ')}]\n`;
    }
    assert.ok(bomb.length < 1000);
    await page.click('[data-testid="tab-nodes"]');
    const started = Date.now();
    await paste(page, 'nodes', bomb);
    const error = page.locator('[data-testid="errors-nodes"] [data-testid="diagnostic"]');
    await error.first().waitFor();
    assert.ok(Date.now() - started < 10000, 'answered in seconds');
    assert.match(await error.first().textContent(), /YAML aliases expand to more than 16 MiB/);
    assert.equal(await nodesEditor(page).inputValue(), bomb, 'the text stays');
    assert.equal(await cards(page), 5, 'the last valid run stays on screen');
    // The page still works.
    await page.click('[data-testid="control-rewind"]');
    await page.waitForFunction(() => document.querySelector('[data-testid="position"]').textContent.includes('step 0 of'));
    await context.close();
    assertNoProblems();
  });

  it('keeps a 40 MB paste without reading it, and stays usable', async () => {
    const context = await env.context();
    const page = await env.tab(context);
    await page.goto(`${env.base}#example=classic`);
    await page.waitForSelector('[data-testid="node-card"]');
    const one = (i) =>
      `apiVersion: v1\nkind: Node\nmetadata: {name: n${i}, labels: {note: "${'y'.repeat(900)}"}}\nstatus: {allocatable: {cpu: "4", memory: 8Gi, pods: "110"}}\n---\n`;
    const huge = Array.from({ length: 40000 }, (_, i) => one(i)).join('');
    assert.ok(huge.length > 40e6);
    await page.click('[data-testid="tab-nodes"]');
    const started = Date.now();
    await paste(page, 'nodes', huge);
    const error = page.locator('[data-testid="errors-nodes"] [data-testid="diagnostic"]');
    await error.first().waitFor({ timeout: 30000 });
    assert.match(await error.first().textContent(), /more than the 16 MB the playground reads per editor/);
    // Not frozen: a control answers at once.
    await page.click('[data-testid="control-rewind"]');
    await page.waitForFunction(() => document.querySelector('[data-testid="position"]').textContent.includes('step 0 of'));
    assert.ok(Date.now() - started < 30000, `usable again within seconds (${Date.now() - started} ms)`);
    assert.equal(await cards(page), 5, 'the last valid run stays on screen');
    assert.equal((await nodesEditor(page).inputValue()).length, huge.length, 'the text stays');
    await context.close();
    assertNoProblems();
  });

  it('after an engine panic offers a bug report with the scenario, and keeps the work', async () => {
    const context = await env.context({ permissions: ['clipboard-read', 'clipboard-write'] });
    // This page panics on purpose: its errors are expected, so it is not watched.
    const page = await context.newPage();
    await page.goto(`${env.base}#example=classic`);
    await page.waitForSelector('[data-testid="node-card"]');
    await page.click('[data-testid="tab-nodes"]');
    const edited = `${await nodesEditor(page).inputValue()}# my own edit\n`;
    await paste(page, 'nodes', edited);
    await page.waitForFunction(() => Object.keys(sessionStorage).some((k) => k.endsWith('editor.nodes')));

    // The same tab, with the test switch that makes the first run panic.
    await page.goto(`${env.base}?schedlab-panic-test`);
    const crash = page.locator('[data-testid="crash"]');
    await crash.waitFor();
    const report = await page.locator('[data-testid="bug-report"]').inputValue();
    assert.match(report, /panic: .*deliberate panic/s);
    assert.match(report, /# ==== schedlab: nodes ====/);
    assert.match(report, /# my own edit/, 'the report holds the edited scenario');
    await page.click('[data-testid="copy-bug-report"]');
    await page.waitForFunction(() => document.querySelector('[data-testid="copy-bug-report"]').textContent === 'Copied');
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), report);

    // Without the switch, the tab's work is back.
    await page.goto(`${env.base}`);
    await page.waitForSelector('[data-testid="node-card"]');
    await page.click('[data-testid="tab-nodes"]');
    assert.equal(await nodesEditor(page).inputValue(), edited);
    await context.close();
  });

  it('when a chunk of code cannot be downloaded, says so (no bug report) and reloads into the work', async () => {
    const context = await env.context();
    // The blocked download ends the page: its errors are expected, so it is not watched.
    const page = await context.newPage();
    await page.goto(`${env.base}#example=classic`);
    await page.waitForSelector('[data-testid="node-card"]');
    await page.click('[data-testid="tab-nodes"]');
    const edited = `${await nodesEditor(page).inputValue()}# kept through the reload\n`;
    await paste(page, 'nodes', edited);
    await page.waitForFunction(() => Object.keys(sessionStorage).some((k) => k.endsWith('editor.nodes')));

    // The help's code comes when the help first opens; its chunk is gone (a newer build
    // replaced the site's files, or the network dropped).
    await page.route(/\/split_help_view_[0-9]+\.wasm$/, (route) => route.abort());
    await page.evaluate(() => document.activeElement?.blur());
    await page.keyboard.press('?');
    const card = page.locator('[data-testid="download-failed"]');
    await card.waitFor();
    assert.match(await card.textContent(), /could not be downloaded/);
    assert.equal(await page.locator('[data-testid="crash"]').count(), 0, 'not reported as a bug');
    assert.equal(await page.locator('[data-testid="bug-report"]').count(), 0);

    await page.unroute(/\/split_help_view_[0-9]+\.wasm$/);
    await page.click('[data-testid="crash-reload"]');
    await page.waitForSelector('[data-testid="node-card"]');
    await page.click('[data-testid="tab-nodes"]');
    assert.equal(await nodesEditor(page).inputValue(), edited, 'the work is back after Reload');
    await page.evaluate(() => document.activeElement?.blur());
    await page.keyboard.press('?');
    await page.waitForSelector('[data-testid="help"]');
    await context.close();
  });
});
