// Shared by the browser tests: a static server for dist/ and a headless Chromium whose pages
// record their page errors, console errors and (when asked) failed requests. Not a test file
// itself (node --test runs only *.test.mjs).

import assert from 'node:assert/strict';
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const DIST = process.env.SCHEDLAB_DIST ?? path.join(ROOT, 'dist');
export const SHOTS = process.env.SCHEDLAB_SCREENSHOTS ?? '/tmp';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.yaml': 'text/yaml; charset=utf-8',
  '.ts': 'text/plain; charset=utf-8',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
};

/** The flags every test's Chromium runs with. */
const ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

/**
 * A static server for `dir` on 127.0.0.1 and a free port; resolves to the server. Served under
 * `prefix` (`/` or a sub-folder such as `/docs/schedlab/`; the folder without its slash is
 * redirected, as static hosts do). `pages` adds generated texts by path (their type by their
 * extension, HTML without one). `headers` go with every page and file served. Every request path
 * is recorded in `server.seen`.
 */
export function serve(dir, { prefix = '/', pages = {}, headers = {} } = {}) {
  const seen = [];
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://localhost');
    seen.push(req.url);
    if (pages[url.pathname]) {
      const type = TYPES[path.extname(url.pathname)] ?? TYPES['.html'];
      res.writeHead(200, { 'content-type': type, 'cache-control': 'no-store', ...headers });
      res.end(pages[url.pathname]);
      return;
    }
    if (prefix !== '/' && url.pathname === prefix.slice(0, -1)) {
      res.writeHead(301, { location: prefix }).end();
      return;
    }
    if (!url.pathname.startsWith(prefix)) {
      res.writeHead(404).end('not found');
      return;
    }
    let file = path.normalize(path.join(dir, decodeURIComponent(url.pathname.slice(prefix.length))));
    if (!file.startsWith(dir)) {
      res.writeHead(403).end();
      return;
    }
    if (fs.existsSync(file) && fs.statSync(file).isDirectory()) file = path.join(file, 'index.html');
    fs.readFile(file, (err, body) => {
      if (err) {
        res.writeHead(404).end('not found');
        return;
      }
      res.writeHead(200, {
        'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream',
        'cache-control': 'no-store',
        ...headers,
      });
      res.end(body);
    });
  });
  server.seen = seen;
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

/** Launches the system Chromium, headless, with the shared flags and `args` besides. */
export function launch(args = []) {
  return chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: [...ARGS, ...args] });
}

/**
 * Records in `problems` the page errors and console errors of `page` and, with `requests`, its
 * failed requests and HTTP errors. `expected`: URL endings allowed to fail (their HTTP errors,
 * and the console errors a 404 logs, do not count). `ignoreFailed(request)`: failed requests
 * that do not count. A favicon fetch the browser abandons (`net::ERR_ABORTED`, when the tab
 * navigates or closes before the icon arrives) never counts: it is the browser's, not the page's.
 */
export function watch(page, problems, { requests = true, expected = [], ignoreFailed = () => false } = {}) {
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    // A failed fetch the test asks for is also logged as a console error.
    if (m.type() === 'error' && !(expected.length && m.text().includes('404'))) {
      problems.push(`console.error: ${m.text()}`);
    }
  });
  if (!requests) return page;
  const abandonedIcon = (r) =>
    r.failure()?.errorText === 'net::ERR_ABORTED' && new URL(r.url()).pathname.includes('/favicon');
  page.on('requestfailed', (r) => {
    if (!abandonedIcon(r) && !ignoreFailed(r)) problems.push(`request failed: ${r.url()} (${r.failure()?.errorText})`);
  });
  page.on('response', (r) => {
    if (r.status() >= 400 && !expected.some((u) => r.url().endsWith(u))) {
      problems.push(`HTTP ${r.status()}: ${r.url()}`);
    }
  });
  return page;
}

/**
 * Serves dist/ (with `pages` and `headers` added, see `serve`) and opens Chromium (with `args` added, see
 * `launch`). Returns { base, server, browser, problems, watch(page, options), newPage(viewport,
 * options), context(options), tab(context, options), close() }:
 *
 * - `watch` records a page's problems in `problems` (options as for the `watch` above);
 * - `newPage` makes a page in a context of its own and watches it (by default for page errors
 *   and console errors only);
 * - `context` makes a browser context, 1280×800 unless `options` say otherwise;
 * - `tab` makes a new page in `context` and watches it (by default for failed requests too).
 */
export async function open({ pages = {}, args = [], headers = {} } = {}) {
  assert.ok(fs.existsSync(path.join(DIST, 'index.html')), `${DIST}/index.html is missing: run \`trunk build\` first`);
  const server = await serve(DIST, { pages, headers });
  const base = `http://127.0.0.1:${server.address().port}/`;
  const problems = [];
  let browser;
  try {
    browser = await launch(args);
  } catch (e) {
    server.close();
    throw e;
  }
  const watchPage = (page, options) => watch(page, problems, options);
  const newPage = async (viewport = { width: 1280, height: 800 }, options = { requests: false }) =>
    watchPage(await browser.newPage({ viewport }), options);
  const context = (options = {}) => browser.newContext({ viewport: { width: 1280, height: 800 }, ...options });
  const tab = async (ctx, options) => watchPage(await ctx.newPage(), options);
  const close = async () => {
    await browser.close();
    await new Promise((resolve) => server.close(resolve));
  };
  return { base, server, browser, problems, watch: watchPage, newPage, context, tab, close };
}

/** Puts `text` in the editor `stem` (`nodes`, `pods`, ...) at once, as a paste does: one input
 * event (Playwright's `fill` types big texts in pieces, which takes minutes). */
export const paste = (page, stem, text) =>
  page.evaluate(
    ([stem, text]) => {
      const area = document.querySelector(`[data-testid="editor-${stem}"] textarea`);
      area.value = text;
      area.dispatchEvent(new Event('input', { bubbles: true }));
    },
    [stem, text],
  );
