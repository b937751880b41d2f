// The simulation's Web Worker (a module worker): runs the page's own wasm module, which
// starts the simulation when it finds itself in a worker (web-ui/src/main.rs). The page
// posts its compiled WebAssembly.Module first, so nothing is fetched or compiled twice.
// A failure to instantiate is rethrown outside the promise so the page's `error` listener
// hears it.
import init from "./web-ui.js";

self.addEventListener(
  "message",
  (e) => {
    init({ module_or_path: e.data }).catch((err) =>
      setTimeout(() => {
        throw err;
      }),
    );
  },
  { once: true },
);
