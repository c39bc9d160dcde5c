// Browser test of the guided lessons: serves dist/ (build it first with `trunk build --release`),
// drives the system Chromium through playwright-core, and fails on any page error, console error
// or failed request.
//
//   node --test tests/browser/
//
// What each stop must show is read here from assets/lessons/*/lesson.yaml with a small reader of
// its own (the stops' cycle, phase and text), and the lessons' order from web/src/lesson.rs, so
// the page is checked against the lesson files, not against itself.

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { open, ROOT, SHOTS } from './support.mjs';

/** The lessons' names in the order the page lists them (`LESSONS` in web/src/lesson.rs). */
function lessonOrder() {
  const source = fs.readFileSync(path.join(ROOT, 'web/src/lesson.rs'), 'utf8');
  const start = source.indexOf('pub const LESSONS');
  const table = source.slice(start, source.indexOf('\n];\n', start));
  return [...table.matchAll(/lesson!\("([^"]+)"/g)].map((m) => m[1]);
}

/**
 * A lesson.yaml's title, scenario and stops ({cycle, phase, text}), read for the fields this
 * test needs: `title:` (plain or double-quoted), `scenario:`, and under `stops:` each
 * `- cycle: N` with its `phase:` and its folded `text: >-` (lines joined by spaces).
 */
function readLesson(name) {
  const lines = fs.readFileSync(path.join(ROOT, 'assets/lessons', name, 'lesson.yaml'), 'utf8').split('\n');
  const field = (key) => {
    const line = lines.find((l) => l.startsWith(`${key}:`));
    const value = line.slice(key.length + 1).trim();
    return value.startsWith('"') ? JSON.parse(value) : value;
  };
  const stops = [];
  lines.forEach((line, i) => {
    const cycle = line.match(/^ {2}- cycle: (\d+)\s*$/);
    if (!cycle) return;
    const stop = { cycle: Number(cycle[1]) };
    for (let j = i + 1; j < lines.length && /^ {4}\S/.test(lines[j]); j++) {
      const phase = lines[j].match(/^ {4}phase: (\w+)/);
      if (phase) stop.phase = phase[1];
      if (/^ {4}text: >-\s*$/.test(lines[j])) {
        const parts = [];
        for (let k = j + 1; k < lines.length && /^ {6}\S/.test(lines[k]); k++) parts.push(lines[k].trim());
        stop.text = parts.join(' ');
      }
    }
    stops.push(stop);
  });
  return { name, title: field('title'), scenario: field('scenario'), stops };
}

const LESSONS = lessonOrder().map(readLesson);

const squash = (text) => text.replace(/\s+/g, ' ').trim();
const panel = (page) => page.locator('[data-testid="lesson-panel"]');
const scenarioName = async (page) => (await page.textContent('[data-testid="scenario-name"]')).trim();
/** Waits until the address bar's fragment is exactly `hash`. */
const waitHash = (page, hash) => page.waitForFunction((h) => location.hash === h, hash);

/**
 * Waits until the panel shows `lesson` at stop `k` (from 0) and the inspector stands on the
 * stop's cycle at its phase; checks the panel's texts.
 */
async function atStop(page, lesson, k) {
  const stop = lesson.stops[k];
  await page.waitForSelector(`[data-testid="lesson-panel"][data-lesson="${lesson.name}"][data-stop="${k + 1}"]`);
  // The inspector names the cycle in its head ("cycle 2 of 8 at t = 0s") and marks the phase
  // being walked in its strip of phase chips.
  await page.waitForFunction(
    ([cycle, phase]) =>
      document.querySelector('[data-testid="inspector"] .card-hint')?.textContent.startsWith(`cycle ${cycle} of `) &&
      document.querySelector('[data-testid="phase-chip"].current')?.dataset.phase === phase,
    [stop.cycle, stop.phase],
  );
  const where = `${lesson.name} stop ${k + 1}`;
  assert.match(await page.textContent('[data-testid="position"]'), new RegExp(`walking cycle ${stop.cycle}: ${stop.phase}`), where);
  assert.equal(squash(await page.textContent('[data-testid="lesson-title"]')), lesson.title, where);
  assert.equal(
    squash(await page.textContent('[data-testid="lesson-stop-count"]')),
    `Stop ${k + 1} of ${lesson.stops.length}`,
    where,
  );
  assert.equal(squash(await page.textContent('[data-testid="lesson-stop-text"]')), squash(stop.text), where);
  assert.equal(squash(await page.textContent('[data-testid="lesson-where"]')), `cycle ${stop.cycle} · ${stop.phase}`, where);
  assert.equal(await page.locator('[data-testid="lesson-away"]').count(), 0, `${where}: at the stop`);
  assert.equal(await page.locator('[data-testid="lesson-mismatch"]').count(), 0, where);
}

describe('guided lessons', () => {
  let env;
  let base;

  /** A new tab in `context`, whose page errors, console errors and failed requests count. */
  const tab = (context) =>
    env.tab(context, {
      // Reloading or leaving a page cancels its icon's request if it is still on its way.
      ignoreFailed: (r) => r.failure()?.errorText === 'net::ERR_ABORTED' && r.resourceType() === 'other',
    });
  const context = (options) => env.context(options);
  const assertNoProblems = () => assert.deepEqual(env.problems.splice(0), [], 'the page reported errors');

  before(async () => {
    assert.ok(LESSONS.length >= 8, `${LESSONS.length} lessons`);
    for (const l of LESSONS) {
      assert.ok(l.title && l.scenario, l.name);
      assert.ok(l.stops.length >= 3 && l.stops.every((s) => s.cycle && s.phase && s.text), `${l.name}: ${JSON.stringify(l.stops)}`);
    }
    env = await open();
    base = env.base;
  });

  after(async () => {
    await env?.close();
  });

  it('opens a first visit on the first lesson, at its first stop', async () => {
    const ctx = await context();
    const page = await tab(ctx);
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(base);
    const first = LESSONS[0];
    await atStop(page, first, 0);
    assert.equal(await scenarioName(page), first.scenario);
    // The first stop walks cycle 1, but nothing scrolls the page before the visitor acts: it
    // starts at the top, with the top bar in view (the inspector's phase is below the fold).
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    await page.waitForTimeout(300);
    assert.equal(await page.evaluate(() => window.scrollY), 0, 'a first visit starts at the top');
    const current = page.locator('.phase-block.current');
    const box = await current.boundingBox();
    assert.ok(box.y + box.height > 800, 'the current phase ends below the fold');
    // Two lines of story, under the title.
    assert.equal(await page.locator('[data-testid="lesson-story"] p').count(), 2);
    assert.match(await page.textContent('[data-testid="lesson-panel"]'), new RegExp(`Lesson 1 of ${LESSONS.length}`));
    assert.ok(await page.locator('[data-testid="lesson-prev"]').isDisabled());
    await waitHash(page, `#lesson=${first.name}&stop=1`);
    // The header's menu lists every lesson by its title.
    const titles = await page.locator('[data-testid="lessons"] option:not([value=""])').allTextContents();
    assert.deepEqual(
      titles.map((t) => t.replace(/^▸ /, '').replace(/^\d+\. /, '')),
      LESSONS.map((l) => l.title),
    );
    // A reload is a returning visit: the tab's lesson comes back where it was.
    await page.keyboard.press(']');
    await atStop(page, first, 1);
    await waitHash(page, `#lesson=${first.name}&stop=2`);
    await page.reload();
    await atStop(page, first, 1);
    // Closed, the page stays on the scenario as an example of its own; a reload keeps that.
    await page.click('[data-testid="lesson-close"]');
    assert.equal(await panel(page).count(), 0);
    await waitHash(page, `#example=${first.scenario}&cycle=${first.stops[1].cycle}&phase=${first.stops[1].phase}`);
    await page.reload();
    await page.waitForSelector('[data-testid="phase-chip"].current');
    assert.equal(await panel(page).count(), 0);
    // A returning visitor at the bare address gets the tab's work, not the lesson.
    await page.selectOption('[data-testid="gallery"]', 'anti-affinity');
    await page.waitForSelector('[data-testid="node-card"][data-node="node-3"]');
    await page.goto(base);
    await page.waitForSelector('[data-testid="node-card"][data-node="node-3"]');
    assert.equal(await scenarioName(page), 'anti-affinity');
    assert.equal(await panel(page).count(), 0);
    await ctx.close();
    assertNoProblems();
  });

  it('scrolls to the walked phase on a first visit only once the visitor acts', async () => {
    const ctx = await context();
    const page = await tab(ctx);
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(base);
    await atStop(page, LESSONS[0], 0);
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    await page.waitForTimeout(300);
    assert.equal(await page.evaluate(() => window.scrollY), 0);
    // Phase ▸ (.) walks on to findNodesThatFit: now the page brings the phase into sight.
    await page.keyboard.press('.');
    await page.waitForSelector('[data-testid="phase-chip"].current[data-phase="findNodesThatFit"]');
    await page.waitForFunction(() => {
      const box = document.querySelector('.phase-block.current')?.getBoundingClientRect();
      return box && box.top >= 0 && box.top < innerHeight;
    });
    assert.ok(await page.evaluate(() => window.scrollY) > 0);
    await ctx.close();
    assertNoProblems();
  });

  it('walks every stop of every lesson', async () => {
    const ctx = await context();
    const page = await tab(ctx);
    await page.goto(`${base}#example=classic`);
    await page.waitForSelector('[data-testid="node-card"]');
    for (const [i, lesson] of LESSONS.entries()) {
      await page.selectOption('[data-testid="lessons"]', lesson.name);
      // The menu goes back to its label; the lesson is in the panel.
      assert.equal(await page.locator('[data-testid="lessons"]').inputValue(), '');
      await atStop(page, lesson, 0);
      assert.equal(await scenarioName(page), lesson.scenario);
      assert.match(await page.textContent('[data-testid="lesson-panel"]'), new RegExp(`Lesson ${i + 1} of ${LESSONS.length}`));
      await waitHash(page, `#lesson=${lesson.name}&stop=1`);
      for (let k = 1; k < lesson.stops.length; k++) {
        // The button and the key alike.
        if (k % 2) await page.click('[data-testid="lesson-next"]');
        else await page.keyboard.press(']');
        await atStop(page, lesson, k);
      }
      await waitHash(page, `#lesson=${lesson.name}&stop=${lesson.stops.length}`);
      // The last stop offers the next lesson (if any) and the list of lessons instead of Next.
      assert.equal(await page.locator('[data-testid="lesson-next"]').count(), 0);
      assert.equal(await page.locator('[data-testid="lesson-to-list"]').count(), 1);
      const next = LESSONS[i + 1];
      assert.equal(await page.locator('[data-testid="lesson-next-lesson"]').count(), next ? 1 : 0);
      assert.equal(
        squash(await page.textContent('[data-testid="lesson-up-next"]')),
        next ? `Up next: ${next.title}` : 'That was the last lesson.',
      );
      // And back: the previous stop.
      await page.keyboard.press('[');
      await atStop(page, lesson, lesson.stops.length - 2);
    }
    assertNoProblems();
    // From the last stop, Next lesson opens the next one at its first stop.
    await page.selectOption('[data-testid="lessons"]', LESSONS[0].name);
    await atStop(page, LESSONS[0], 0);
    await page.click(`[data-testid="lesson-dot"] >> nth=${LESSONS[0].stops.length - 1}`);
    await atStop(page, LESSONS[0], LESSONS[0].stops.length - 1);
    await page.click('[data-testid="lesson-next-lesson"]');
    await atStop(page, LESSONS[1], 0);
    // Back to lessons lists them; picking one opens it.
    await page.keyboard.press('End');
    await page.waitForSelector('[data-testid="lesson-away"]');
    await page.click(`[data-testid="lesson-dot"] >> nth=${LESSONS[1].stops.length - 1}`);
    await atStop(page, LESSONS[1], LESSONS[1].stops.length - 1);
    await page.click('[data-testid="lesson-to-list"]');
    const items = page.locator('[data-testid="lesson-item"]');
    await items.first().waitFor();
    assert.equal(await items.count(), LESSONS.length);
    await items.nth(4).click();
    await atStop(page, LESSONS[4], 0);
    await ctx.close();
    assertNoProblems();
  });

  it('opens a lesson link at its stop, and follows stepping away from it', async () => {
    const ctx = await context();
    const page = await tab(ctx);
    const lesson = LESSONS.find((l) => l.name === 'host-ports');
    await page.goto(`${base}#lesson=host-ports&stop=2`);
    await atStop(page, lesson, 1);
    assert.equal(await scenarioName(page), lesson.scenario);
    assert.equal(await page.locator('[data-testid="link-message"]').count(), 0);
    await page.waitForTimeout(500);
    assert.equal(new URL(page.url()).hash, '#lesson=host-ports&stop=2');
    // Stepping away from the stop: the panel says so, and the link says where the run stands.
    await page.keyboard.press('.');
    await page.waitForSelector('[data-testid="lesson-away"]');
    const next = page.getAttribute('[data-testid="phase-chip"].current', 'data-phase');
    assert.notEqual(await next, lesson.stops[1].phase);
    await waitHash(page, `#lesson=host-ports&stop=2&cycle=${lesson.stops[1].cycle}&phase=${await next}`);
    await page.reload();
    await page.waitForSelector('[data-testid="lesson-away"]');
    assert.equal(await page.getAttribute('[data-testid="phase-chip"].current', 'data-phase'), await next);
    await page.click('[data-testid="lesson-back-to-stop"]');
    await atStop(page, lesson, 1);
    await waitHash(page, '#lesson=host-ports&stop=2');
    // A link to a stop the lesson does not have opens its last stop, and says so.
    const past = await tab(ctx);
    await past.goto(`${base}#lesson=host-ports&stop=${lesson.stops.length + 3}`);
    await atStop(past, lesson, lesson.stops.length - 1);
    assert.match(
      await past.textContent('[data-testid="link-message"]'),
      new RegExp(`this lesson has ${lesson.stops.length} stops, not ${lesson.stops.length + 3}, so it opens at its last stop`),
    );
    // An unknown lesson is refused by name.
    const unknown = await tab(ctx);
    await unknown.goto(`${base}#lesson=no-such-lesson&stop=2`);
    assert.match(
      await unknown.textContent('[data-testid="link-message"]'),
      /This link could not be opened: it names a lesson "no-such-lesson" that this page does not have/,
    );
    await ctx.close();
    assertNoProblems();
  });

  it('says when an edit leaves the run no longer matching the lesson', async () => {
    const ctx = await context();
    const page = await tab(ctx);
    const lesson = LESSONS.find((l) => l.name === 'host-ports');
    await page.goto(`${base}#lesson=host-ports&stop=2`);
    await atStop(page, lesson, 1);
    await page.click('[data-testid="tab-pods"]');
    const pods = page.locator('[data-testid="editor-pods"] textarea');
    const text = await pods.inputValue();
    assert.ok(text.includes('hostPort: 443'));
    await pods.fill(text.replaceAll('hostPort: 443', 'hostPort: 8443'));
    const note = page.locator('[data-testid="lesson-mismatch"]');
    await note.waitFor();
    assert.match(await note.textContent(), /The run no longer matches this lesson\./);
    assert.match(await note.textContent(), /stop 2 of 5 would point at the wrong cycles/);
    // No stop text, no way to the next stop; the keys do nothing; the link is the edited run's.
    assert.equal(await page.locator('[data-testid="lesson-stop-text"]').count(), 0);
    assert.equal(await page.locator('[data-testid="lesson-next"]').count(), 0);
    await page.evaluate(() => document.activeElement?.blur());
    await page.keyboard.press(']');
    assert.equal(await panel(page).getAttribute('data-stop'), '2');
    await page.waitForFunction(() => location.hash.startsWith('#scenario='));
    await page.screenshot({ path: path.join(SHOTS, 'schedlab-lesson-mismatch-1280x800.png') });
    // Reload the lesson: it asks (the edits would be lost), then the lesson is back at stop 2.
    const asked = [];
    page.once('dialog', (d) => {
      asked.push(d.message());
      d.accept();
    });
    await page.click('[data-testid="lesson-reload"]');
    await atStop(page, lesson, 1);
    assert.deepEqual(asked, ["Replace your edited texts with this lesson's scenario?"]);
    assert.equal(await pods.inputValue(), text);
    await waitHash(page, '#lesson=host-ports&stop=2');
    // Keep my edits: the panel closes, the edits stay.
    await pods.fill(text.replaceAll('hostPort: 443', 'hostPort: 8443'));
    await note.waitFor();
    await page.click('[data-testid="lesson-keep-edits"]');
    assert.equal(await panel(page).count(), 0);
    assert.equal(await scenarioName(page), 'port-clash (edited)');
    assert.match(await pods.inputValue(), /hostPort: 8443/);
    // Opening a lesson over edited work asks first; declined, nothing changes.
    page.once('dialog', (d) => d.dismiss());
    await page.selectOption('[data-testid="lessons"]', 'schedule-one');
    assert.equal(await panel(page).count(), 0);
    assert.equal(await scenarioName(page), 'port-clash (edited)');
    await ctx.close();
    assertNoProblems();
  });

  it('takes screenshots of a lesson at 1280×800 and 390×844', async () => {
    const ctx = await context();
    const page = await tab(ctx);
    const first = LESSONS[0];
    await page.goto(base);
    await atStop(page, first, 0);
    await page.screenshot({ path: path.join(SHOTS, 'schedlab-lesson-1280x800.png') });
    // The inspector is on screen beside the panel.
    const inView = (selector) =>
      page.locator(selector).evaluate((el) => {
        const r = el.getBoundingClientRect();
        return r.top >= 0 && r.top < innerHeight && r.bottom > 0;
      });
    assert.ok(await inView('[data-testid="inspector"]'), 'the inspector is in view');
    assert.ok(await inView('[data-testid="lesson-stop-text"]'), 'the stop text is in view');
    await page.keyboard.press(']');
    await page.keyboard.press(']');
    await atStop(page, first, 2);
    await page.screenshot({ path: path.join(SHOTS, 'schedlab-lesson-1280x800-stop3.png') });
    await page.click(`[data-testid="lesson-dot"] >> nth=${first.stops.length - 1}`);
    await atStop(page, first, first.stops.length - 1);
    await page.screenshot({ path: path.join(SHOTS, 'schedlab-lesson-1280x800-last.png') });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.keyboard.press('[');
    await atStop(page, first, first.stops.length - 2);
    assert.ok(await inView('[data-testid="lesson-stop-text"]'), 'the stop text is in view');
    await page.screenshot({ path: path.join(SHOTS, 'schedlab-lesson-390x844.png') });
    await page.screenshot({ path: path.join(SHOTS, 'schedlab-lesson-390-full.png'), fullPage: true });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `the page is ${overflow}px wider than the viewport`);
    await page.click('[data-testid="lesson-dot"] >> nth=-1');
    await atStop(page, first, first.stops.length - 1);
    await page.click('[data-testid="lesson-to-list"]');
    await page.waitForSelector('[data-testid="lesson-list"]');
    await page.locator('[data-testid="lesson-list"]').scrollIntoViewIfNeeded();
    await page.screenshot({ path: path.join(SHOTS, 'schedlab-lesson-list-390x844.png') });
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.evaluate(() => scrollTo(0, 0));
    await page.screenshot({ path: path.join(SHOTS, 'schedlab-lesson-list-1280x800.png') });
    await ctx.close();
    assertNoProblems();
  });
});
