// The simulation's Web Worker: loads the worker's wasm-bindgen script and module, relative
// to this file (the page may live in a sub-folder). A failure to fetch or compile the module
// is rethrown outside the promise so the page's `error` listener hears it.
importScripts("./worker.js");
wasm_bindgen({ module_or_path: "./worker_bg.wasm" }).catch(function (e) {
  setTimeout(function () {
    throw e;
  });
});
