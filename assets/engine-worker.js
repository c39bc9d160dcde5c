// The engine's Web Worker. With ?role=session it holds the playground's session
// (web/src/engine/worker.rs): it instantiates the page's own wasm (the compiled module the page
// posts first, with &module=page; else the file at &wasm=), starts the session host, and hands
// each message ({ request, texts, fallback }: a request as JSON text, and a load's texts) to it;
// the host posts its replies (JSON text) itself.
// If the wasm fails there (a panic is a bug of ours), it posts { error }, and the page goes on
// with the host on its own thread.
//
// Otherwise it is the questions' worker (web/src/background.rs). It answers each message (a question as
// JSON text) with { reply, threads, why }: `answerQuestion`'s reply (JSON text; a promise, as
// the questions' code is fetched on the first question: a split point), the threads
// that computed it, and why only one when that is so. If the wasm fails (a panic is a bug of
// ours), it posts { error } instead, and the page stops this worker.
//
// Which wasm: when the page is cross-origin isolated and the site has the threaded build
// (?threaded=, api-threads/ from scripts/build-api-threads.sh), that one, with a rayon pool of
// navigator.hardwareConcurrency threads (wasm-bindgen-rayon), so a sweep's or a comparison's
// independent runs share out; otherwise the page's own wasm (?glue=, and the module the page
// posts with &module=page, else the file at &wasm=: the files Trunk names with their hashes), on
// this worker's one thread.
const params = new URL(self.location.href).searchParams;

async function threaded() {
  if (!params.get('threaded')) return { why: 'no threads asked for' };
  if (!self.crossOriginIsolated) {
    return { why: 'the page is not cross-origin isolated (see the README, "Headers")' };
  }
  let module;
  try {
    module = await import(params.get('threaded'));
  } catch {
    return { why: 'this site has no threaded build (scripts/build-api-threads.sh)' };
  }
  const threads = Math.max(1, navigator.hardwareConcurrency || 1);
  try {
    await module.default();
    await module.initThreadPool(threads);
  } catch (e) {
    return { why: `the thread pool did not start (${String(e && e.message || e)})` };
  }
  return { module, threads };
}

const session = params.get('role') === 'session';
// With &module=page, the page's first message is its own compiled wasm module: the worker
// instantiates it (the questions' worker, when it has no thread pool), with no second download
// or compile.
let takeModule;
const moduleFromPage = new Promise((resolve) => {
  takeModule = resolve;
});

const ready = (async () => {
  if (session) {
    const module = await import(params.get('glue'));
    const wasm = params.get('module') === 'page' ? await moduleFromPage : params.get('wasm');
    await module.default({ module_or_path: wasm });
    module.startSessionHost();
    return { module, threads: 1 };
  }
  const pool = await threaded();
  if (pool.module) return pool;
  const module = await import(params.get('glue'));
  const wasm = params.get('module') === 'page' ? await moduleFromPage : params.get('wasm');
  await module.default({ module_or_path: wasm });
  return { module, threads: 1, why: pool.why };
})();
// A failed load surfaces as the worker's error event, which the page answers by running the
// question on its own thread.
ready.catch((e) => setTimeout(() => { throw e; }));

self.onmessage = async (event) => {
  if (event.data instanceof WebAssembly.Module) {
    takeModule(event.data);
    return;
  }
  let engine;
  try {
    engine = await ready;
  } catch {
    return; // already reported as the worker's error event
  }
  if (session) {
    try {
      engine.module.sessionRequest(event.data);
    } catch (e) {
      self.postMessage({ error: String(e && e.message || e) });
    }
    return;
  }
  try {
    const reply = await engine.module.answerQuestion(event.data);
    self.postMessage({ reply, threads: engine.threads, why: engine.why ?? null });
  } catch (e) {
    self.postMessage({ error: String(e && e.message || e) });
  }
};
