// Browser test of Dynamic Resource Allocation on the page (issue 37, item 6): the gpu-cluster
// gallery scenario, its devices on the node cards, the Devices editor (form and text), a claim
// attached in the Pods form, and DynamicResources in the cycle inspector. Serves dist/ (build it
// first with `trunk build`), drives the system Chromium through playwright-core, and fails on
// any page error or console error.
//
//   node --test tests/browser/devices.test.mjs
//
// Expected placements and devices are worked out by hand in the comment of
// assets/scenarios/gpu-cluster/pods.yaml (dra.md), not copied from the app.

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { open, SHOTS } from './support.mjs';

const card = (page, node) => page.locator(`[data-testid="node-card"][data-node="${node}"]`);
const device = (page, node, name) => card(page, node).locator(`[data-testid="device"][data-device="${name}"]`);
const chip = (page, node, pod) => card(page, node).locator(`[data-testid="pod-chip"][data-pod="${pod}"]`);
const editor = (page) => page.locator('[data-testid="editor-devices"]');
/** An editor's text (its main textarea, not a form's). */
const textOf = (page, stem) => page.locator(`[data-testid="editor-${stem}"] textarea[aria-label]`);
const showPods = async (page) => {
  await page.click('[data-testid="view-pods"]');
  await page.waitForSelector('[data-testid="pod-row"]');
};
const nodeOf = (page, pod) => page.locator(`[data-testid="pod-row"][data-pod="${pod}"] [data-testid="pod-node"]`);
/** Waits until `pod`'s row says it is on `node` (`—` when pending). */
const waitNode = (page, pod, node) =>
  page.waitForFunction(
    ([pod, node]) =>
      document.querySelector(`[data-testid="pod-row"][data-pod="${pod}"] [data-testid="pod-node"]`)?.textContent === node,
    [pod, node],
  );
/** Waits until the device is in `state` (`free`, `allocated`, `assumed`). */
const waitDevice = (page, node, name, state) =>
  page.waitForSelector(
    `[data-testid="node-card"][data-node="${node}"] [data-testid="device"][data-device="${name}"][data-state="${state}"]`,
  );

describe('Dynamic Resource Allocation on the page', () => {
  let env;
  let page;

  before(async () => {
    env = await open();
    page = await env.tab(await env.context());
  });

  after(async () => {
    await env?.close();
  });

  const assertNoProblems = () => assert.deepEqual(env.problems, [], 'the page reported errors');

  it('opens gpu-cluster from the gallery and shows each node its devices', async () => {
    await page.goto(`${env.base}#example=classic`);
    await page.waitForSelector('[data-testid="node-card"]');
    // The classic cluster has no devices: no card shows any.
    assert.equal(await page.locator('[data-testid="node-devices"]').count(), 0);
    await page.selectOption('[data-testid="gallery"]', 'gpu-cluster');
    await page.waitForSelector('[data-testid="node-card"][data-node="a100-node"] [data-testid="node-devices"]');
    assert.equal((await page.textContent('[data-testid="scenario-name"]')).trim(), 'gpu-cluster');
    // train holds both A100s of a100-node (two GPUs of one model); infer-1 the H100 of
    // h100-node; infer-2 the H100 of mixed-node, whose A100 stays free; cpu-node has none.
    for (const name of ['gpu-0', 'gpu-1']) {
      const d = device(page, 'a100-node', name);
      assert.equal(await d.getAttribute('data-state'), 'allocated');
      assert.match(await d.getAttribute('data-claim'), /^train-gpus-/);
      assert.match(await d.textContent(), /A100 → train$/);
    }
    assert.equal(await device(page, 'mixed-node', 'gpu-0').getAttribute('data-state'), 'free');
    assert.equal(await device(page, 'mixed-node', 'gpu-0').textContent(), 'gpu-0 A100');
    assert.match(await device(page, 'mixed-node', 'gpu-1').textContent(), /H100 → infer-2$/);
    assert.match(await device(page, 'h100-node', 'gpu-0').textContent(), /H100 → infer-1$/);
    assert.equal(await card(page, 'cpu-node').locator('[data-testid="node-devices"]').count(), 0);
    // The pool line names the driver and the pool; the count says what is free.
    const mixed = card(page, 'mixed-node').locator('[data-testid="node-devices"]');
    assert.match(await mixed.textContent(), /1\/2 free/);
    assert.match(await mixed.textContent(), /gpu\.example\.com · mixed-node/);
    // The tooltip has the attributes, the capacity and the claim.
    const title = await device(page, 'a100-node', 'gpu-0').getAttribute('title');
    assert.match(title, /driver gpu\.example\.com · pool a100-node/);
    assert.match(title, /model=A100/);
    assert.match(title, /memory=80Gi/);
    assert.match(title, /allocated to claim train-gpus-\w+, reserved for train/);
    // train-2 finds no two free GPUs of one model.
    await showPods(page);
    assert.equal(await nodeOf(page, 'train-2').textContent(), '—');
    await page.click('[data-testid="view-nodes"]');
    await card(page, 'a100-node').scrollIntoViewIfNeeded();
    await page.screenshot({ path: path.join(SHOTS, 'schedlab-gpu-cluster.png') });
    assertNoProblems();
  });

  it("shows DynamicResources' Filter, its prioritized-list Score and the devices allocated at assume", async () => {
    await page.click('[data-testid="view-nodes"]');
    await page.click('[data-testid="control-rewind"]');
    await page.waitForSelector('[data-testid="inspector-empty"]');
    // Before any cycle every device is free.
    await waitDevice(page, 'a100-node', 'gpu-0', 'free');
    await page.click('[data-testid="control-step"]');
    await page.waitForSelector('[data-testid="inspected-pod"]:text-is("infer-1")');
    // What DynamicResources allocates for: infer-1's claim, made from its template.
    const asks = page.locator('[data-testid="pod-claims"] [data-testid="pod-claim"]');
    assert.match(await asks.getAttribute('data-claim'), /^infer-1-gpu-/);
    assert.match(
      await asks.textContent(),
      /gpu: first of h100 1 × gpu\.example\.com \(1 selector\) \| a100 1 × gpu\.example\.com \(1 selector\)$/,
    );
    // cpu-node publishes no device; the others can all give infer-1 a GPU.
    const cpu = page.locator('[data-testid="filter-table"] tr[data-node="cpu-node"] td.fail');
    assert.match(await cpu.textContent(), /^cannot allocate all claims/);
    // The allocator's answer per node: the first subrequest (h100) where an H100 is free,
    // the second (a100) on a100-node, nothing on cpu-node.
    const answer = (node) =>
      page.locator(`[data-testid="claims-per-node"] tr[data-node="${node}"] td.claim-answer`);
    assert.equal(await answer('a100-node').textContent(), 'gpu/a100=gpu.example.com/a100-node/gpu-0');
    assert.equal(await answer('mixed-node').textContent(), 'gpu/h100=gpu.example.com/mixed-node/gpu-1');
    assert.equal(await answer('h100-node').textContent(), 'gpu/h100=gpu.example.com/h100-node/gpu-0');
    assert.equal(await answer('cpu-node').getAttribute('data-kind'), 'failed');
    // The first choice (h100) scores 8, the second (a100) 7: 100 and 87 once normalised, x2.
    const column = await page
      .locator('[data-testid="score-table"] th.prio')
      .evaluateAll((ths) => ths.findIndex((th) => th.dataset.name === 'DynamicResources'));
    assert.ok(column >= 0, 'a DynamicResources column');
    const cell = (node) =>
      page.locator(`[data-testid="score-table"] tr[data-node="${node}"] td.score`).nth(column);
    assert.equal(await cell('a100-node').textContent(), '7 → 87 ×2');
    assert.equal(await cell('mixed-node').textContent(), '8 → 100 ×2');
    assert.equal(await cell('h100-node').textContent(), '8 → 100 ×2');
    const total = (node) => page.locator(`[data-testid="score-table"] tr[data-node="${node}"] td.total`);
    assert.equal(await total('h100-node').textContent(), '693');
    assert.equal(await total('mixed-node').textContent(), '686');
    // Assumed: the H100 is held, in flight until the binding completes.
    await waitDevice(page, 'h100-node', 'gpu-0', 'assumed');
    await page.click('[data-testid="control-step"]');
    await page.waitForSelector('[data-testid="inspected-pod"]:text-is("train")');
    assert.match(await asks.textContent(), /gpus: 2 × gpu\.example\.com; matchAttribute gpu\.example\.com\/model$/);
    // matchAttribute: mixed-node's A100 and H100 are not of one model.
    const mixed = page.locator('[data-testid="filter-table"] tr[data-node="mixed-node"] td.fail');
    assert.match(await mixed.textContent(), /^cannot allocate all claims/);
    assert.equal(await answer('mixed-node').getAttribute('data-kind'), 'failed');
    assert.equal(
      await answer('a100-node').textContent(),
      'gpus=gpu.example.com/a100-node/gpu-0, gpus=gpu.example.com/a100-node/gpu-1',
    );
    const allocated = page.locator('[data-testid="allocated-devices"] [data-testid="claim-devices"]');
    assert.equal(await allocated.count(), 1);
    assert.match(await allocated.getAttribute('data-claim'), /^train-gpus-/);
    assert.match(await allocated.textContent(), /gpu\.example\.com · a100-node: gpu-0 \(gpus\), gpu-1 \(gpus\)/);
    assert.match(await page.textContent('[data-testid="reserved-for"]'), /adds default\/train to its reservedFor/);
    await waitDevice(page, 'a100-node', 'gpu-1', 'assumed');
    // infer-1's binding completed: its H100 is reserved for it now.
    assert.equal(await device(page, 'h100-node', 'gpu-0').getAttribute('data-state'), 'allocated');
    await page.locator('[data-testid="assume"]').scrollIntoViewIfNeeded();
    await page.screenshot({ path: path.join(SHOTS, 'schedlab-gpu-cluster-assume.png') });
    await page.click('[data-testid="control-end"]');
    await waitDevice(page, 'a100-node', 'gpu-1', 'allocated');
    assertNoProblems();
  });

  it('lists device classes, slices and templates in the Devices form, and edits a slice', async () => {
    await page.click('[data-testid="tab-devices"]');
    await editor(page).locator('[data-testid="editor-view-form"]').click();
    const form = editor(page).locator('[data-testid="devices-form"]');
    await form.waitFor();
    const names = async (kind) =>
      form.locator(`[data-testid="${kind}-form-row"]`).evaluateAll((rows) => rows.map((r) => r.dataset.name));
    assert.deepEqual(await names('device-class'), ['gpu.example.com']);
    assert.deepEqual(await names('resource-slice'), ['a100-node-gpus', 'mixed-node-gpus', 'h100-node-gpus']);
    assert.deepEqual(await names('resource-claim'), []);
    assert.deepEqual(await names('claim-template'), ['two-gpus-one-model', 'h100-else-a100']);
    // A template's requests and constraints in the form's own lines.
    await form.locator('[data-testid="claim-template-form-row"][data-name="h100-else-a100"] button').first().click();
    const requests = form.locator('[data-testid="dra-requests"]');
    assert.equal(
      await requests.inputValue(),
      'gpu: first available\n  h100: 1 of gpu.example.com where device.attributes["gpu.example.com"].model == "H100"\n  a100: 1 of gpu.example.com where device.attributes["gpu.example.com"].model == "A100"',
    );
    await form.locator('[data-testid="claim-template-form-row"][data-name="h100-else-a100"] button').first().click();
    // Two more A100s on a100-node: train-2 gets them (the only node with two free of a model).
    await form.locator('[data-testid="resource-slice-form-row"][data-name="a100-node-gpus"] button').first().click();
    const devices = form.locator('[data-testid="dra-devices"]');
    const before = await devices.inputValue();
    assert.equal(
      before,
      'gpu-0: model=A100, pcieRoot=pci-0 | memory=80Gi\ngpu-1: model=A100, pcieRoot=pci-0 | memory=80Gi',
    );
    // A line that is no device is refused, with the reason, and changes nothing.
    await devices.fill(`${before}\ngpu-2: model`);
    await devices.dispatchEvent('change');
    const error = form.locator('.form-error');
    await error.waitFor();
    assert.equal(await error.textContent(), '"model" is not key=value');
    await devices.fill(`${before}\ngpu-2: model=A100 | memory=80Gi\ngpu-3: model=A100 | memory=80Gi`);
    await devices.dispatchEvent('change');
    await waitDevice(page, 'a100-node', 'gpu-3', 'allocated');
    assert.match(await device(page, 'a100-node', 'gpu-2').getAttribute('data-claim'), /^train-2-gpus-/);
    await showPods(page);
    await waitNode(page, 'train-2', 'a100-node');
    await page.click('[data-testid="view-nodes"]');
    assert.equal(await form.locator('.form-error').count(), 0);
    // The form wrote the text.
    await editor(page).locator('[data-testid="editor-view-text"]').click();
    const text = await textOf(page, 'devices').inputValue();
    assert.match(text, /name: gpu-3/);
    await editor(page).locator('[data-testid="editor-view-form"]').click();
    await form.locator('[data-testid="resource-slice-form-row"][data-name="a100-node-gpus"] button').first().click();
    await editor(page).screenshot({ path: path.join(SHOTS, 'schedlab-devices-form.png') });
    await editor(page).locator('[data-testid="editor-view-text"]').click();
    assertNoProblems();
  });

  it('reports a CEL selector that does not compile under the Devices editor, with its path', async () => {
    await page.click('[data-testid="reset"]');
    const area = textOf(page, 'devices');
    await page.waitForFunction(() => !document.querySelector('[data-testid="device"][data-device="gpu-3"]'));
    const text = await area.inputValue();
    const broken = text.replace('expression: device.driver == "gpu.example.com"', 'expression: device.driver ==');
    assert.notEqual(broken, text);
    await area.fill(broken);
    const diag = editor(page).locator('[data-testid="diagnostic"]');
    await diag.first().waitFor();
    // The file is a YAML stream: the path names the document, then the field.
    assert.equal(await diag.locator('.diag-path').first().textContent(), 'document 1: spec.selectors[0].cel.expression');
    assert.match(await diag.first().textContent(), /compilation failed/);
    assert.match(await page.textContent('[data-testid="tab-devices"]'), /1/);
    // The text stays as typed; putting the selector back clears the error.
    assert.equal(await area.inputValue(), broken);
    await area.fill(text);
    await page.waitForFunction(() => !document.querySelector('[data-testid="editor-devices"] [data-testid="diagnostic"]'));
    assertNoProblems();
  });

  it('attaches a claim template to a pod in the Pods form', async () => {
    await page.click('[data-testid="tab-pods"]');
    const pods = page.locator('[data-testid="editor-pods"]');
    await pods.locator('[data-testid="editor-view-form"]').click();
    await pods.locator('[data-testid="pod-form-row"][data-pod="train-2"] button').first().click();
    const claims = pods.locator('[data-testid="pod-claims"]');
    assert.equal(await claims.inputValue(), 'gpus: template two-gpus-one-model');
    // A line without claim or template is refused.
    await claims.fill('gpus: two-gpus-one-model');
    await claims.dispatchEvent('change');
    await pods.locator('.form-error').waitFor();
    assert.match(await pods.locator('.form-error').textContent(), /NAME: claim CLAIM, or NAME: template TEMPLATE/);
    // With the inference template train-2 takes the A100 left on mixed-node (its second choice).
    await claims.fill('gpu: template h100-else-a100');
    await claims.dispatchEvent('change');
    await waitDevice(page, 'mixed-node', 'gpu-0', 'allocated');
    assert.match(await device(page, 'mixed-node', 'gpu-0').textContent(), /A100 → train-2$/);
    assert.equal(await chip(page, 'mixed-node', 'train-2').getAttribute('data-kind'), 'bound');
    await showPods(page);
    await waitNode(page, 'train-2', 'mixed-node');
    await page.click('[data-testid="view-nodes"]');
    await pods.locator('[data-testid="editor-view-text"]').click();
    assert.match(await textOf(page, 'pods').inputValue(), /resourceClaimTemplateName: h100-else-a100/);
    await page.click('[data-testid="reset"]');
    await page.waitForFunction(
      () => document.querySelector('[data-testid="scenario-name"]')?.textContent.trim() === 'gpu-cluster',
    );
    assertNoProblems();
  });

  it('dims the Devices tab under kube-scheduler v1.17', async () => {
    await page.goto(`${env.base}#example=classic`);
    await page.waitForSelector('[data-testid="node-card"]');
    const tab = page.locator('[data-testid="tab-devices"]');
    assert.match(await tab.getAttribute('class'), /not-read/);
    assert.match(await tab.getAttribute('title'), /v1\.17 has no Dynamic Resource Allocation/);
    assertNoProblems();
  });
});
