// Shared by the browser tests that use it: a static server for dist/ and a headless Chromium
// page that records page errors and console errors. Not a test file itself (node --test runs
// only *.test.mjs).

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
};

/** Serves `dir` on 127.0.0.1 at a free port; resolves to the server. */
export function serve(dir) {
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://localhost');
    let file = path.normalize(path.join(dir, decodeURIComponent(url.pathname)));
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
      });
      res.end(body);
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

/**
 * Serves dist/ and opens Chromium. Returns { base, browser, newPage(viewport), problems,
 * close() }: every page made by newPage records its page errors and console errors in
 * `problems`.
 */
export async function open() {
  assert.ok(fs.existsSync(path.join(DIST, 'index.html')), `${DIST}/index.html is missing: run \`trunk build\` first`);
  const server = await serve(DIST);
  const base = `http://127.0.0.1:${server.address().port}/`;
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-dev-shm-usage'],
  });
  const problems = [];
  const newPage = async (viewport = { width: 1280, height: 800 }) => {
    const page = await browser.newPage({ viewport });
    page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(`console: ${m.text()}`);
    });
    return page;
  };
  const close = async () => {
    await browser.close();
    server.close();
  };
  return { base, browser, newPage, problems, close };
}
