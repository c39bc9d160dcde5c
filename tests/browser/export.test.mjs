// Browser test of Export's three downloads and Import's Add: serves dist/ (build it first with
// `trunk build`), drives the system Chromium through playwright-core, and runs the CLI
// (target/release/schedlab: `cargo build --release -p schedlab_cli`, which scripts/test.sh
// does before the browser tests).
//
// The report the page downloads must be exactly what `schedlab run --output json` prints for
// the scenario the page downloads; the CSV must list every pod of that report, with its
// node; Add must leave the editors' objects in place and add the new ones after them.

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { open, ROOT, SHOTS } from './support.mjs';

const CLI = path.join(ROOT, 'target/release/schedlab');

/** The fields of an RFC 4180 CSV text (quoted fields may hold commas, quotes, line breaks). */
function parseCsv(text) {
  const rows = [];
  let row = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') {
        quoted = false;
      } else {
        field += c;
      }
    } else if (c === '"') {
      quoted = true;
    } else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i++;
    } else {
      field += c;
    }
  }
  assert.equal(field + row.join(''), '', 'the last row ends with CRLF');
  return rows;
}

describe('schedlab export and import', () => {
  let env;
  let page;
  let dir;

  before(async () => {
    assert.ok(fs.existsSync(CLI), `${CLI} is missing: run \`cargo build --release -p schedlab_cli\` first`);
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'schedlab-export-'));
    env = await open();
    page = await env.tab(await env.context({ acceptDownloads: true }));
  });

  after(async () => {
    await env?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  const assertNoProblems = () => assert.deepEqual(env.problems, [], 'the page reported errors');

  /** What the notice under the header says (null: no notice). */
  const notice = async () =>
    (await page.locator('[data-testid="notice"]').count()) ? (await page.textContent('[data-testid="notice"] span')).trim() : null;

  /** Opens a gallery example and waits for its run (its first node on screen, its scheduler in the status). */
  const openExample = async (name, node, scheduler) => {
    if (page.url() === 'about:blank') {
      await page.goto(`${env.base}#example=${name}`);
    } else {
      await page.selectOption('[data-testid="gallery"]', name);
    }
    await page.waitForFunction(
      (n) => document.querySelector('[data-testid="scenario-name"]')?.textContent.trim() === n,
      name,
    );
    await page.waitForSelector(`[data-testid="node-card"][data-node="${node}"]`);
    await page.waitForFunction(
      (s) => document.querySelector('[data-testid="status"]')?.textContent.includes(`kube-scheduler ${s} · results are current`),
      scheduler,
    );
  };

  /** Clicks `selector` (after opening the Export menu, for a menu item) and returns the download: its name and text. */
  const download = async (selector) => {
    if (selector !== '[data-testid="export"]') {
      await page.click('[data-testid="export-menu"]');
      await page.waitForSelector(`${selector}:visible`);
    }
    const [d] = await Promise.all([page.waitForEvent('download'), page.click(selector)]);
    const text = fs.readFileSync(await d.path(), 'utf8');
    // Choosing an item closes the menu.
    assert.equal(await page.locator('[data-testid="export-menu"]').getAttribute('aria-expanded'), 'false');
    return { name: d.suggestedFilename(), text };
  };

  // classic: v1.17 with its Policy; batch-displaced: v1.17 preemption; preemption-v135: v1.35,
  // DefaultPreemption and a PodDisruptionBudget.
  for (const [name, node, scheduler] of [
    ['classic', 'node-a1', 'v1.17'],
    ['batch-displaced', 'node-1', 'v1.17'],
    ['preemption-v135', 'node-a', 'v1.35'],
  ]) {
    it(`downloads the report schedlab run prints for ${name}, and its placements`, async () => {
      await openExample(name, node, scheduler);
      const scenario = await download('[data-testid="export"]');
      assert.equal(scenario.name, `schedlab-${name}.yaml`);
      const file = path.join(dir, scenario.name);
      fs.writeFileSync(file, scenario.text);

      const report = await download('[data-testid="export-report"]');
      assert.equal(report.name, `schedlab-${name}-report.json`);
      const printed = execFileSync(CLI, ['run', '--output', 'json', file], { encoding: 'utf8' });
      const fromPage = JSON.parse(report.text);
      const cli = JSON.parse(printed);
      assert.deepEqual(fromPage, cli);
      // The same text, too: the CLI's indentation and final newline.
      assert.equal(report.text, printed);
      assert.equal(fromPage.scheduler, scheduler);
      assert.ok(fromPage.cycles.length > 0 && Object.keys(fromPage.cycles[0].filter).length > 0, 'the report has the filter tables');
      if (name !== 'classic') {
        assert.ok(fromPage.cycles.some((c) => c.preemption), `${name} preempts`);
        assert.ok(fromPage.pods.some((p) => p.phase === 'Deleted'), `${name} has a victim`);
      }
      // Nothing to say about a download at the default seed of a finished run.
      assert.equal(await notice(), null);

      const csv = await download('[data-testid="export-csv"]');
      assert.equal(csv.name, `schedlab-${name}-placements.csv`);
      const [header, ...rows] = parseCsv(csv.text);
      assert.deepEqual(header, [
        'Namespace',
        'Pod',
        'Phase',
        'Node',
        'Nominated node',
        'Priority',
        'Placed in cycle',
        'Placed at (s)',
        'Attempts',
        'Why pending',
      ]);
      // One row per pod, in the report's order, with its phase and node.
      assert.equal(rows.length, cli.pods.length);
      rows.forEach((r, i) => {
        const pod = cli.pods[i];
        assert.equal(r.length, header.length, `row ${i + 1}`);
        assert.equal(`${r[0]}/${r[1]}`, pod.name);
        assert.equal(r[2], pod.phase, pod.name);
        assert.equal(r[3], pod.node ?? '', pod.name);
        assert.equal(r[4], pod.nominatedNode ?? '', pod.name);
        // Its attempts are its cycles in the report, and the cycle that placed it chose its node.
        const cycles = cli.cycles.filter((c) => c.pod === pod.name);
        assert.equal(Number(r[8]), cycles.length, pod.name);
        if (r[6] !== '') {
          const placed = cli.cycles[Number(r[6]) - 1];
          assert.equal(placed.pod, pod.name);
          assert.equal(placed.outcome, 'Scheduled');
          assert.equal(placed.node, pod.node);
          assert.equal(Number(r[7]), placed.time);
        } else if (pod.node) {
          assert.equal(cycles.length, 0, `${pod.name} is bound without a cycle: bound in the input`);
        }
        // A pending pod says why: its last FailedScheduling message.
        const failed = cli.events.filter((e) => e.object === pod.name && e.reason === 'FailedScheduling');
        assert.equal(r[9], pod.phase === 'Pending' && failed.length ? failed.at(-1).message : '', pod.name);
      });
      assertNoProblems();
    });
  }

  it('adds imported nodes and pods to the editors, and Undo takes them out', async () => {
    await openExample('classic', 'node-a1', 'v1.17');
    await page.screenshot({ path: path.join(SHOTS, 'schedlab-export-header.png'), clip: { x: 0, y: 0, width: 1280, height: 120 } });
    await page.click('[data-testid="export-menu"]');
    await page.waitForSelector('[data-testid="export-report"]:visible');
    await page.screenshot({ path: path.join(SHOTS, 'schedlab-export-menu.png'), clip: { x: 480, y: 0, width: 800, height: 260 } });
    // Escape closes the menu.
    await page.keyboard.press('Escape');
    await page.waitForSelector('[data-testid="export-report"]', { state: 'hidden' });

    // Two nodes in YAML, and a pod in JSON that only the first new node can take (it asks for
    // its label).
    const nodes = path.join(dir, 'more-nodes.yaml');
    fs.writeFileSync(
      nodes,
      [
        'apiVersion: v1',
        'kind: Node',
        'metadata: {name: extra-1, labels: {kubernetes.io/hostname: extra-1, pool: extra}}',
        'status: {allocatable: {cpu: "2", memory: 2Gi, pods: "10"}}',
        '---',
        'apiVersion: v1',
        'kind: Node',
        'metadata: {name: extra-2, labels: {kubernetes.io/hostname: extra-2}}',
        'status: {allocatable: {cpu: "2", memory: 2Gi, pods: "10"}}',
        '',
      ].join('\n'),
    );
    const pod = path.join(dir, 'more-pods.json');
    fs.writeFileSync(
      pod,
      JSON.stringify({
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'extra-pod' },
        spec: { nodeSelector: { pool: 'extra' }, containers: [{ name: 'c', resources: { requests: { cpu: '1' } } }] },
      }),
    );
    await page.click('[data-testid="import-menu"]');
    await page.waitForSelector('[data-testid="import-menu"][aria-expanded="true"]');
    await page.setInputFiles('[data-testid="import-add"]', [nodes, pod]);
    await page.waitForSelector('[data-testid="node-card"][data-node="extra-2"]');
    assert.equal(await notice(), 'Added 2 nodes to Nodes; 1 pod to Pods.');
    // The cluster has the five nodes and the two new ones; the new pod went to extra-1.
    assert.equal(await page.locator('[data-testid="node-card"]').count(), 7);
    assert.equal(
      await page.locator('[data-testid="node-card"][data-node="extra-1"] [data-testid="pod-chip"][data-pod="extra-pod"]').count(),
      1,
    );
    // Each editor holds its old objects, then the new ones.
    await page.click('[data-testid="tab-nodes"]');
    const nodesText = await page.locator('[data-testid="editor-nodes"] textarea').inputValue();
    assert.ok(nodesText.indexOf('name: node-a1') >= 0 && nodesText.indexOf('name: node-a1') < nodesText.indexOf('name: extra-1'), nodesText);
    assert.match(nodesText, /\n---\napiVersion: v1\nkind: Node\nmetadata: \{name: extra-1/);
    await page.click('[data-testid="tab-pods"]');
    const podsText = await page.locator('[data-testid="editor-pods"] textarea').inputValue();
    assert.match(podsText, /name: db-0/);
    // The JSON pod joined a YAML editor as YAML.
    assert.match(podsText, /\n---\napiVersion: v1\nkind: Pod\nmetadata:\n {2}name: extra-pod\n/);
    assert.equal(await page.locator('[data-testid="diagnostic"]').count(), 0);

    // The report and the CSV follow the editors.
    const file = path.join(dir, 'added.yaml');
    fs.writeFileSync(file, (await download('[data-testid="export"]')).text);
    const report = JSON.parse((await download('[data-testid="export-report"]')).text);
    assert.deepEqual(report, JSON.parse(execFileSync(CLI, ['run', '--output', 'json', file], { encoding: 'utf8' })));
    assert.equal(report.pods.find((p) => p.name === 'default/extra-pod').node, 'extra-1');
    const rows = parseCsv((await download('[data-testid="export-csv"]')).text).slice(1);
    assert.deepEqual(rows.at(-1).slice(0, 4), ['default', 'extra-pod', 'Bound', 'extra-1']);

    // Undo takes out what the last Add added.
    const more = path.join(dir, 'even-more-nodes.yaml');
    fs.writeFileSync(more, fs.readFileSync(nodes, 'utf8').replaceAll('extra-', 'more-'));
    await page.setInputFiles('[data-testid="import-add"]', more);
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="node-card"]').length === 9);
    assert.equal(await notice(), 'Added 2 nodes to Nodes.');
    await page.click('[data-testid="undo-import"]');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="node-card"]').length === 7);

    // While the inputs have errors, the report is of the last run that loaded, and says so.
    await page.click('[data-testid="tab-nodes"]');
    await page.locator('[data-testid="editor-nodes"] textarea').fill('kind: Node\nmetadata: [\n');
    await page.waitForSelector('[data-testid="status"].stale');
    const stale = JSON.parse((await download('[data-testid="export-report"]')).text);
    assert.equal(stale.pods.find((p) => p.name === 'default/extra-pod').node, 'extra-1');
    assert.match(await notice(), /^The inputs have errors: this is the run of the last inputs that loaded/);
    await page.click('[data-testid="reset"]');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="node-card"]').length === 5);
    assertNoProblems();
  });
});
