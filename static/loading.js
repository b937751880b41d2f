// The page's wasm download in index.html's "Loading" line: kilobytes fetched of the
// module's size and a bar; a failure or a stalled download says so. trunk's initializer
// hook (index.html's data-initializer); the app removes the line once it is mounted.
//
// trunk hands over the module's size before wasm-opt shrank it, so the size shown is the
// server's Content-Length when the module comes uncompressed; a compressed one shows the
// kilobytes fetched and a moving bar.
const STALL_MS = 30000;
const WASM = new URL("web-ui_bg.wasm", import.meta.url);

function line() {
  return document.getElementById("loading");
}

function say(text, failed) {
  const l = line();
  if (!l || l.classList.contains("failed")) return;
  (l.querySelector(".what") || l).textContent = text;
  if (failed) {
    l.classList.add("failed");
    l.setAttribute("role", "alert");
    l.querySelector("progress")?.remove();
  }
}

function kb(bytes) {
  return Math.round(bytes / 1000).toLocaleString("en");
}

export default function () {
  let stall;
  let size = null;
  const watch = () => {
    clearTimeout(stall);
    stall = setTimeout(
      () => say("AQM Lab's download stalled (no data for 30 s). Check the connection and reload the page.", true),
      STALL_MS,
    );
  };
  return {
    onStart() {
      watch();
      fetch(WASM, { method: "HEAD" })
        .then((r) => {
          const length = Number(r.headers.get("content-length"));
          if (r.ok && !r.headers.get("content-encoding") && length > 0) size = length;
        })
        .catch(() => {});
    },
    onProgress({ current, total }) {
      watch();
      const bar = line()?.querySelector("progress");
      if (current >= total) {
        // The stream ended (trunk then reports its own size as fetched).
        if (bar) bar.value = 1;
        say("Starting AQM Lab…");
      } else if (size) {
        if (bar) bar.value = Math.min(current / size, 1);
        say(`Loading AQM Lab… ${kb(Math.min(current, size))} of ${kb(size)} kB`);
      } else {
        bar?.removeAttribute("value");
        say(`Loading AQM Lab… ${kb(current)} kB`);
      }
    },
    onComplete() {
      clearTimeout(stall);
    },
    onFailure(error) {
      say(
        `AQM Lab could not start: ${(error && error.message) || error}. Reload the page; if it fails again, try a current Chrome, Firefox or Safari.`,
        true,
      );
    },
  };
}
