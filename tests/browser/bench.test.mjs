// Browser test of the benchmark page (assets/bench.html, served as /bench.html): it runs tiny
// workloads in its Web Worker and shows a row per workload with every pod it was asked to
// schedule, says honestly that it runs on one thread, and reports bad options on the page
// instead of hanging. No timings are checked. Needs bench.html and api/ in SCHEDLAB_DIST (a
// `trunk build`, or a folder of assets/bench.html plus target/schedlab-api/ as api/).
//
//   node --test tests/browser/bench.test.mjs

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { DIST, launch, serve, watch } from './support.mjs';

const ISOLATION = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
};

// Sizes (nodes, bound, pending) small enough for a test, and what each schedules, by hand
// (crates/schedlab_core/src/workloads.rs): nodes of 4 CPU / 32Gi / 110 pods, pods of 100m and
// 500Mi, so 40 pods per node at most.
const TINY = {
  // 20 nodes hold 800 pods; 20 are bound: all 60 pending pods fit.
  'scheduling-basic': { size: [20, 20, 60], scheduled: 60, victims: 0 },
  // Every node is in zone1 and the first pod matches its own term: all 60 fit.
  'pod-affinity': { size: [20, 20, 60], scheduled: 60, victims: 0 },
  // 30 nodes, 10 per zone (moon-1..3); the bound pods are not blue, so the 60 blue pods spread
  // within maxSkew 5 and all fit.
  'topology-spreading': { size: [30, 30, 60], scheduled: 60, victims: 0 },
  // 10 nodes, four 900m pods on each (400m free); each 3000m preemptor evicts three pods of
  // its node and binds once they have gone: 10 scheduled, 30 victims.
  'preemption': { size: [10, 40, 10], scheduled: 10, victims: 30 },
  // One green pod per node: 20 of 30.
  'pod-anti-affinity': { size: [20, 0, 30], scheduled: 20, victims: 0 },
};

const query = (workloads, extra = {}) => {
  const q = new URLSearchParams({ workloads: workloads.join(','), runs: '1', ...extra });
  for (const w of workloads) q.set(w, TINY[w].size.join(','));
  return `bench.html?${q}`;
};

describe('the benchmark page', () => {
  let isolated;
  let plain;
  let browser;
  const problems = [];

  const open = async (server, url) => {
    const page = watch(await browser.newPage(), problems);
    await page.goto(`http://127.0.0.1:${server.address().port}/${url}`);
    await page.waitForFunction(() => document.body.dataset.benchDone === '1', null, { timeout: 120000 });
    return page;
  };

  before(async () => {
    for (const file of ['bench.html', 'api/schedlab.js', 'api/schedlab_bg.wasm']) {
      assert.ok(fs.existsSync(path.join(DIST, file)), `${DIST}/${file} is missing: run \`bash scripts/build-api.sh && trunk build --release\` first`);
    }
    isolated = await serve(DIST, { headers: ISOLATION });
    plain = await serve(DIST);
    browser = await launch();
  });

  after(async () => {
    await browser?.close();
    for (const s of [isolated, plain]) if (s) await new Promise((resolve) => s.close(resolve));
  });

  it('runs every workload and schedules the pods worked out by hand, on one thread', async () => {
    const names = Object.keys(TINY);
    const page = await open(isolated, query(names));
    const results = await page.evaluate(() => window.benchResults);
    assert.equal(results.error, null);
    assert.equal(results.done, true);
    assert.equal(results.crossOriginIsolated, true);
    assert.equal(results.threads.available, false);
    assert.deepEqual(results.rows.map((r) => r.workload), names);
    for (const r of results.rows) {
      const want = TINY[r.workload];
      assert.deepEqual([r.nodes, r.bound, r.pending], want.size, r.workload);
      assert.equal(r.scheduled, want.scheduled, `${r.workload}: pods scheduled`);
      assert.equal(r.victims, want.victims, `${r.workload}: victims`);
      assert.ok(r.podsPerSecond > 0, `${r.workload}: a rate`);
      assert.equal(r.seconds.length, 1);
      assert.equal(r.ratio, null, 'no native figures were given');
    }
    // The table on screen: a row per workload, its count, and an honest N-thread column.
    const rows = await page.$$eval('#results tbody tr', (trs) =>
      // Each cell's own value (its first text), then the note under it.
      trs.map((tr) => Object.fromEntries([...tr.querySelectorAll('td')].map((td) => [td.dataset.col, td.firstChild.textContent.trim()]))),
    );
    const notes = await page.$$eval('#results td[data-col="n-threads"]', (tds) => tds.map((td) => td.textContent));
    assert.equal(rows.length, names.length);
    for (const row of rows) {
      const w = names.find((n) => row.workload === n);
      assert.ok(w, `a row for ${row.workload}`);
      assert.equal(row.scheduled, String(TINY[w].scheduled));
      assert.equal(row['n-threads'], '—');
      assert.equal(row['speed-up'], '—');
    }
    for (const note of notes) assert.match(note, /^—one thread only: no thread pool in this build$/);
    assert.match(await page.textContent('[data-testid="bench-env"]'), /self\.crossOriginIsolated = true/);
    assert.match(await page.textContent('[data-testid="bench-threads-status"]'), /one thread only: no thread pool in this build/);
    assert.match(await page.textContent('[data-testid="bench-status"]'), /^Done: 5 workloads/);
    assert.equal(await page.textContent('[data-testid="bench-error"]'), '');
    assert.deepEqual(problems.splice(0), []);
    await page.close();
  });

  it('compares with native figures given inline, and says when the page is not isolated', async () => {
    const page = await open(plain, query(['scheduling-basic'], { native: 'scheduling-basic:1000' }));
    const results = await page.evaluate(() => window.benchResults);
    assert.equal(results.error, null);
    assert.equal(results.crossOriginIsolated, false);
    const [row] = results.rows;
    assert.equal(row.scheduled, 60);
    assert.equal(row.native.podsPerSecond, 1000);
    assert.equal(row.ratio, +(row.podsPerSecond / 1000).toFixed(3));
    assert.match(await page.textContent('td[data-col="native"]'), /^1 000/);
    assert.match(await page.textContent('td[data-col="ratio"]'), /^\d+\.\d\d×$/);
    assert.match(await page.textContent('[data-testid="bench-env"]'), /self\.crossOriginIsolated = false/);
    assert.match(await page.textContent('[data-testid="bench-threads-status"]'), /not\b.*cross-origin isolated|which this one is not/);
    assert.deepEqual(problems.splice(0), []);
    await page.close();
  });

  // Only where the threaded build is served (scripts/build-api-threads.sh, copied as
  // api-threads/): a site from `trunk build` does not include it.
  const threadedBuild = fs.existsSync(path.join(DIST, 'api-threads/schedlab_threads.js'));
  it('shares independent seeds over a pool of 2 threads with the same results', { skip: !threadedBuild && 'no api-threads/ in SCHEDLAB_DIST' }, async () => {
    const names = ['scheduling-basic', 'preemption'];
    const page = await open(isolated, query(names, { threaded: 'api-threads/', threads: '2', seeds: '3' }));
    const results = await page.evaluate(() => window.benchResults);
    assert.equal(results.error, null);
    assert.equal(results.threads.available, true);
    for (const r of results.rows) {
      const t = r.threaded;
      assert.equal(t.threads, 2);
      assert.equal(t.podsScheduled, 3 * TINY[r.workload].scheduled, r.workload);
      assert.equal(t.identical, true, `${r.workload}: the same decisions on 1 and 2 threads`);
      assert.equal(t.decisions.length, 3);
    }
    // Three seeds of the basic workload: ties are broken by the seed, so the runs differ; every
    // preemptor has one node to go to, so those runs are all alike.
    assert.equal(new Set(results.rows[0].threaded.decisions).size, 3);
    assert.equal(new Set(results.rows[1].threaded.decisions).size, 1);
    const cells = await page.$$eval('#results td[data-col="n-threads"]', (tds) => tds.map((td) => td.textContent));
    for (const c of cells) assert.match(c, /^[\d ]+3 seeds on 2 threads$/);
    assert.deepEqual(problems.splice(0), []);
    await page.close();
  });

  it('stops with a clear error on an unknown workload or a bad size', async () => {
    for (const [url, message] of [
      ['bench.html?workloads=scheduling-basic,no-such-workload', /unknown workload "no-such-workload"/],
      ['bench.html?workloads=preemption&pending=lots', /pending=lots: expected a whole number/],
      ['bench.html?workloads=preemption&native=missing.json', /native=missing\.json: could not read the native figures \(HTTP 404\)/],
    ]) {
      const page = await open(isolated, url);
      assert.match(await page.textContent('[data-testid="bench-error"]'), message);
      assert.equal(await page.evaluate(() => document.body.dataset.benchError), '1');
      assert.equal(await page.evaluate(() => window.benchResults.done), false);
      assert.match(await page.textContent('[data-testid="bench-status"]'), /^Stopped/);
      await page.close();
    }
    // The 404 of missing.json is the only problem (the request and the console line it logs).
    const left = problems.splice(0);
    assert.ok(left.every((p) => p.includes('missing.json') || p.includes('404')), left.join('\n'));
  });
});
