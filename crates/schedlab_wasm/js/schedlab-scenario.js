// <schedlab-scenario src="scenario.yaml" cycle="3"></schedlab-scenario>
//
// A custom element that runs a schedlab scenario in the page and shows one scheduling cycle:
// the pod, its outcome and the scheduler's exact message, every node with its pods right after
// that cycle, Prev/Next to move between cycles, and a link that opens the scenario in the
// playground. Built on the JavaScript API (`schedlab.js`, next to this file).
//
// Attributes:
//   src         URL of the scenario: one YAML file with every document (the playground's
//               Export), or a JSON array of {name, text} files.
//   cycle       the cycle to show, counted from 1 (default 1); follows Prev/Next.
//   seed        the tie-break seed (default 0).
//   scheduler   "v1.17" or "v1.35" (default: as the inputs say).
//   playground  the playground's URL (default: the folder above this file's, where the
//               schedlab site keeps it).
// Properties: `cycle` (the attribute, as a number) and `cycles` (how many ran; null while
// loading).
//
// A playground export of a v1.35 scenario holds the Policy editor too; as in the playground,
// it is not read under a v1 configuration.
//
// Everything renders in a shadow root with its own styles (`all: initial` on the host), so the
// page's styles do not reach in and the element's do not leak out; `part`s (frame, header,
// outcome, message, nodes, node, nav, button, link, error) let a page restyle on purpose.
// Problems (a failed fetch, invalid scenario) show inline; nothing is thrown into the page.

import init, { Simulator } from './schedlab.js';

/** Cycles run ahead at most (a bigger run shows "1000+"). */
const MAX_CYCLES = 1000;
const PLAYGROUND = new URL('../', import.meta.url).href;
const STEMS = ['nodes', 'pods', 'policy', 'config'];

let ready = null;
/** Loads the wasm module once for every element. */
const loadWasm = () => (ready ??= init());

const STYLE = `
:host { all: initial; display: block; box-sizing: border-box; max-width: 100%; contain: content;
  font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #1f2328;
  background: #fff; border: 1px solid #d0d7de; border-radius: 8px; padding: 12px; }
:host([hidden]) { display: none; }
*, *::before, *::after { box-sizing: border-box; }
.frame { display: grid; gap: 8px; min-width: 0; }
header { display: flex; flex-wrap: wrap; gap: 4px 12px; align-items: baseline; color: #59636e; font-size: 12px; }
header .counter { font-weight: 600; color: #1f2328; }
p { margin: 0; overflow-wrap: anywhere; }
.pod strong { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-weight: 600; }
.outcome { font-weight: 600; }
.outcome[data-outcome="Scheduled"] { color: #1a7f37; }
.outcome[data-outcome="Unschedulable"] { color: #bc4c00; }
.outcome[data-outcome="Error"] { color: #cf222e; }
.message { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 12.5px;
  background: #f6f8fa; border-left: 3px solid #bc4c00; padding: 6px 8px; border-radius: 4px; white-space: pre-wrap; }
.preemption { color: #59636e; }
ul { list-style: none; margin: 0; padding: 0; }
.nodes { display: grid; gap: 6px; grid-template-columns: repeat(auto-fill, minmax(min(100%, 11rem), 1fr)); }
.node { border: 1px solid #d0d7de; border-radius: 6px; padding: 6px 8px; min-width: 0; }
.node.chosen { border-color: #1a7f37; box-shadow: inset 0 0 0 1px #1a7f37; }
.node.cordoned { background: repeating-linear-gradient(135deg, #fff, #fff 6px, #f6f8fa 6px, #f6f8fa 12px); }
.node-name { font-weight: 600; overflow-wrap: anywhere; }
.usage { display: block; color: #59636e; font-size: 11.5px; }
.pods li { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 12px; overflow-wrap: anywhere; }
.pods li.this { font-weight: 700; color: #0969da; }
.pods li.victim { text-decoration: line-through; color: #59636e; }
.pods .none { color: #8c959f; font-style: italic; font-family: inherit; }
nav { display: flex; flex-wrap: wrap; gap: 8px; align-items: center; }
button { font: inherit; font-size: 13px; padding: 3px 10px; border: 1px solid #d0d7de; border-radius: 6px;
  background: #f6f8fa; color: #1f2328; cursor: pointer; }
button:disabled { opacity: .45; cursor: default; }
button:focus-visible, a:focus-visible { outline: 2px solid #0969da; outline-offset: 1px; }
a { color: #0969da; margin-left: auto; font-size: 13px; }
.status { color: #59636e; }
.error { color: #cf222e; background: #fff5f5; border: 1px solid #ffcecb; border-radius: 6px; padding: 8px; }
.error ul { margin-top: 4px; font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 12px; }
.error li { overflow-wrap: anywhere; }
`;

/** `h('p', {class: 'x'}, 'text', child)`: an element with attributes and children. */
function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === false || v == null) continue;
    if (k.startsWith('on')) el.addEventListener(k.slice(2), v);
    else el.setAttribute(k, v === true ? '' : v);
  }
  for (const c of children.flat()) if (c != null && c !== false) el.append(c);
  return el;
}

/** The files of a fetched scenario: a JSON array of {name, text}, else one YAML file. */
function filesOf(text, url) {
  if (/^\s*\[/.test(text)) {
    const files = JSON.parse(text);
    if (!Array.isArray(files)) throw new Error(`${url}: expected a JSON array of {name, text}`);
    return files;
  }
  const name = decodeURIComponent(new URL(url, document.baseURI).pathname.split('/').pop() || 'scenario.yaml');
  return [{ name, text }];
}

const MARKER = /^# ==== schedlab: (nodes|pods|policy|config) ====\s*$/;
const V1_CONFIG =
  /^\s*apiVersion:\s*["']?kubescheduler\.config\.k8s\.io\/v1["']?\s*(#.*)?$|"apiVersion"\s*:\s*"kubescheduler\.config\.k8s\.io\/v1"/m;

/**
 * A file as the playground runs it: in an export whose configuration is a
 * `kubescheduler.config.k8s.io/v1` one, the Policy section is not read (the playground leaves
 * its Policy editor out under v1.35), so its lines are commented out; the line numbers of
 * errors stay those of the file.
 */
function runnable(text) {
  const config = sections(text)?.find(([stem]) => stem === 'config')?.[1];
  if (!config || !V1_CONFIG.test(config)) return text;
  let policy = false;
  return text
    .split('\n')
    .map((line) => {
      const m = MARKER.exec(line);
      if (m) {
        policy = m[1] === 'policy';
        return line;
      }
      return policy && line.trim() && line !== '---' ? `# ${line}` : line;
    })
    .join('\n');
}

/** The playground's editors for a set of files, as its Import sorts them (web/src/bundle.rs). */
function editorTexts(files) {
  const parts = Object.fromEntries(STEMS.map((s) => [s, []]));
  for (const { name, text } of files) {
    const marked = sections(text);
    if (marked) {
      for (const [stem, body] of marked) parts[stem].push(body);
      continue;
    }
    for (const doc of documents(text)) parts[editorOf(doc)].push(doc);
  }
  return Object.fromEntries(
    STEMS.map((s) => {
      const joined = parts[s].join('---\n');
      return [s, joined && !joined.endsWith('\n') ? `${joined}\n` : joined];
    }),
  );
}

/** The sections of a playground export (`# ==== schedlab: nodes ====` ...), or null. */
function sections(text) {
  const out = [];
  for (const line of text.split('\n')) {
    const m = MARKER.exec(line);
    if (m) out.push([m[1], '']);
    else if (out.length) out[out.length - 1][1] += `${line}\n`;
  }
  if (!out.length) return null;
  for (const s of out) {
    const trimmed = s[1].trimEnd();
    if (trimmed.endsWith('---')) {
      const rest = trimmed.slice(0, -3);
      if (rest === '' || rest.endsWith('\n')) s[1] = `${rest.trimEnd()}\n`;
    }
  }
  return out;
}

function documents(text) {
  if (/^\s*[{[]/.test(text)) return [text];
  const docs = [''];
  for (const line of text.split('\n')) {
    if (line === '---' || line.startsWith('--- ')) docs.push('');
    else docs[docs.length - 1] += `${line}\n`;
  }
  return docs.filter((d) => d.split('\n').some((l) => l.trim() && !l.trim().startsWith('#')));
}

function editorOf(doc) {
  const kinds = [
    ...[...doc.matchAll(/^\s*(?:-\s+)?kind:\s*["']?([A-Za-z]+)/gm)].map((m) => m[1]),
    ...[...doc.matchAll(/"kind"\s*:\s*"([A-Za-z]+)"/g)].map((m) => m[1]),
  ].filter((k) => k !== 'List');
  if (kinds.includes('Policy')) return 'policy';
  if (kinds.includes('KubeSchedulerConfiguration')) return 'config';
  if (kinds.length && kinds.every((k) => k === 'Node' || k === 'NodeList')) return 'nodes';
  return 'pods';
}

/** `#scenario=`: base64url of zlib of the payload JSON (web/src/link.rs), or null. */
async function scenarioFragment(files, scheduler, seed) {
  if (typeof CompressionStream !== 'function') return null;
  const texts = editorTexts(files);
  const json = `{"v":1,"scheduler":${JSON.stringify(scheduler)},"seed":${seed},"example":"","texts":${JSON.stringify(texts)}}`;
  const stream = new Blob([json]).stream().pipeThrough(new CompressionStream('deflate'));
  const bytes = new Uint8Array(await new Response(stream).arrayBuffer());
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return `scenario=${btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')}`;
}

function seconds(t) {
  return Number.isInteger(t) ? `${t} s` : `${t.toFixed(3).replace(/0+$/, '')} s`;
}

export class SchedlabScenario extends HTMLElement {
  static observedAttributes = ['src', 'cycle', 'seed', 'scheduler', 'playground'];

  #root;
  #connected = false;
  #generation = 0;
  #loaded = false;
  #frames = [];
  #more = false;
  #scheduler = '';
  #fragment = null;
  #error = null;

  constructor() {
    super();
    this.#root = this.attachShadow({ mode: 'open' });
    this.#root.append(h('style', {}, STYLE), h('div', { class: 'body', part: 'body' }));
  }

  connectedCallback() {
    this.#connected = true;
    this.#load();
  }

  disconnectedCallback() {
    this.#connected = false;
    this.#generation++;
  }

  attributeChangedCallback(name, old, value) {
    // Before connectedCallback (the attributes an upgraded element starts with) there is
    // nothing to update: connecting loads.
    if (!this.#connected || old === value) return;
    if (name === 'cycle') this.#render();
    else if (name === 'playground') this.#render();
    else this.#load();
  }

  /** The cycle shown, counted from 1. */
  get cycle() {
    const n = Number.parseInt(this.getAttribute('cycle') ?? '1', 10);
    return Number.isFinite(n) && n >= 1 ? n : 1;
  }

  set cycle(n) {
    this.setAttribute('cycle', String(n));
  }

  /** How many cycles the scenario ran (at most 1000), or null before it has loaded. */
  get cycles() {
    return this.#loaded ? this.#frames.length : null;
  }

  #seed() {
    const s = (this.getAttribute('seed') ?? '0').trim();
    if (!/^\d+$/.test(s)) throw new Error(`seed="${s}": expected a whole number from 0`);
    const n = BigInt(s);
    if (n >= 2n ** 64n) throw new Error(`seed="${s}": at most 2^64-1`);
    return n;
  }

  async #load() {
    const generation = ++this.#generation;
    this.#loaded = false;
    this.#frames = [];
    this.#more = false;
    this.#error = null;
    this.#fragment = null;
    const src = this.getAttribute('src');
    if (!src) {
      this.#fail(new Error('no src: give the URL of a scenario file'));
      return;
    }
    this.#status(`Loading ${src}…`);
    try {
      const seed = this.#seed();
      const response = await fetch(src);
      if (!response.ok) throw new Error(`could not load ${src}: ${response.status} ${response.statusText}`.trim());
      const files = filesOf(await response.text(), src);
      const runnableFiles = files.map(({ name, text }) => ({ name, text: runnable(text) }));
      await loadWasm();
      if (generation !== this.#generation) return;
      const options = { seed, summary: true };
      const scheduler = this.getAttribute('scheduler');
      if (scheduler) options.scheduler = scheduler;
      const sim = Simulator.fromFiles(runnableFiles, options);
      try {
        this.#scheduler = sim.scheduler;
        // Run ahead, keeping each cycle and the nodes right after it.
        for (let cycle = sim.step(); cycle !== null; cycle = sim.step()) {
          this.#frames.push({ cycle, nodes: sim.nodes() });
          if (this.#frames.length >= MAX_CYCLES) {
            this.#more = !sim.finished;
            break;
          }
        }
      } finally {
        sim.free();
      }
      this.#loaded = true;
      this.#render();
      const fragment = await scenarioFragment(files, this.#scheduler, seed.toString());
      if (generation !== this.#generation) return;
      this.#fragment = fragment;
      this.#render();
    } catch (e) {
      if (generation === this.#generation) this.#fail(e);
    }
  }

  #body() {
    return this.#root.querySelector('.body');
  }

  #status(text) {
    this.#body().replaceChildren(h('p', { class: 'status', role: 'status' }, text));
  }

  #fail(e) {
    this.#error = e;
    const details = Array.isArray(e?.errors) ? e.errors : [];
    const lines = details.map((d) => {
      const where = d.path ? `${d.path}: ` : d.line ? `line ${d.line}: ` : '';
      return `${d.file ? `${d.file}: ` : ''}${where}${d.message}`;
    });
    const message = details.length ? `The scenario has ${details.length === 1 ? 'a problem' : `${details.length} problems`}:` : String(e?.message ?? e);
    this.#body().replaceChildren(
      h('div', { class: 'error', part: 'error', role: 'alert' }, h('p', {}, message), lines.length ? h('ul', {}, lines.map((l) => h('li', {}, l))) : null),
    );
  }

  #go(index) {
    this.cycle = index + 1;
  }

  #playgroundHref(index) {
    const base = new URL(this.getAttribute('playground') || PLAYGROUND, document.baseURI);
    base.hash = this.#fragment ? `${this.#fragment}&cycle=${index + 1}` : '';
    return base.href;
  }

  #render() {
    if (this.#error) return;
    const total = this.#frames.length;
    if (!this.#loaded) return;
    if (!total) {
      this.#body().replaceChildren(h('p', { class: 'status' }, 'No scheduling cycle ran: no pod was pending.'), this.#nav(0, 0));
      return;
    }
    const index = Math.min(this.cycle, total) - 1;
    const { cycle, nodes } = this.#frames[index];
    const victims = new Set(cycle.preemption?.victims ?? []);
    const outcome =
      cycle.outcome === 'Scheduled' ? `Scheduled on ${cycle.node}` : cycle.outcome;
    const frame = h(
      'div',
      { class: 'frame', part: 'frame', 'data-cycle': index + 1 },
      h(
        'header',
        { part: 'header' },
        h('span', { class: 'counter' }, `Cycle ${index + 1} of ${total}${this.#more ? '+' : ''}`),
        h('span', { class: 'time' }, `t = ${seconds(cycle.time)}`),
        h('span', { class: 'scheduler' }, `kube-scheduler ${this.#scheduler}`),
      ),
      h('p', { class: 'pod' }, 'Pod ', h('strong', {}, cycle.pod)),
      h('p', { class: 'outcome', part: 'outcome', 'data-outcome': cycle.outcome }, outcome),
      cycle.message != null ? h('p', { class: 'message', part: 'message' }, cycle.message) : null,
      cycle.preemption
        ? h(
            'p',
            { class: 'preemption' },
            `Preemption: nominated to ${cycle.preemption.node}` +
              (cycle.preemption.victims.length ? `, evicting ${cycle.preemption.victims.join(', ')}` : ''),
          )
        : null,
      h(
        'ul',
        { class: 'nodes', part: 'nodes', 'aria-label': `Nodes after cycle ${index + 1}` },
        nodes.map((n) =>
          h(
            'li',
            { class: `node${n.name === cycle.node ? ' chosen' : ''}${n.unschedulable ? ' cordoned' : ''}`, part: 'node', 'data-node': n.name },
            h('div', { class: 'node-name' }, n.name, n.unschedulable ? ' (cordoned)' : ''),
            h('span', { class: 'usage' }, `cpu ${n.cpu} · memory ${n.memory}`),
            h(
              'ul',
              { class: 'pods' },
              n.pods.length
                ? n.pods.map((p) => h('li', { class: p === cycle.pod ? 'this' : victims.has(p) ? 'victim' : null }, p))
                : h('li', { class: 'none' }, 'no pods'),
            ),
          ),
        ),
      ),
      this.#nav(index, total),
    );
    this.#body().replaceChildren(frame);
  }

  #nav(index, total) {
    return h(
      'nav',
      { part: 'nav' },
      h('button', { type: 'button', class: 'prev', part: 'button', disabled: index <= 0, onclick: () => this.#go(index - 1) }, '‹ Prev'),
      h('button', { type: 'button', class: 'next', part: 'button', disabled: index + 1 >= total, onclick: () => this.#go(index + 1) }, 'Next ›'),
      h('a', { class: 'playground', part: 'link', href: this.#playgroundHref(index), target: '_blank', rel: 'noopener' }, 'Open in the playground ↗'),
    );
  }
}

if (!customElements.get('schedlab-scenario')) customElements.define('schedlab-scenario', SchedlabScenario);
