// The questions' Web Worker (web/src/background.rs): loads the page's own wasm module, whose
// URLs the page passes as ?glue= (the wasm-bindgen module) and &wasm= (the wasm file), and
// answers each message (a question as JSON text) with `answerQuestion`'s reply (JSON text). If the wasm fails (a panic is a bug of ours), the
// reply is { error } instead, and the page stops this worker.
const params = new URL(self.location.href).searchParams;
const ready = (async () => {
  const module = await import(params.get('glue'));
  await module.default({ module_or_path: params.get('wasm') });
  return module;
})();
// A failed load surfaces as the worker's error event, which the page answers by running the
// question on its own thread.
ready.catch((e) => setTimeout(() => { throw e; }));

self.onmessage = async (event) => {
  let module;
  try {
    module = await ready;
  } catch {
    return; // already reported as the worker's error event
  }
  try {
    self.postMessage(module.answerQuestion(event.data));
  } catch (e) {
    self.postMessage({ error: String(e && e.message || e) });
  }
};
