#!/usr/bin/env python3
"""The deployed app as a student opens it: the trunk build served from a sub-folder, in
headless Chromium through chromedriver (standard library only).

Checks that the page loads from a sub-folder with relative URLs, the simulation runs in
the Web Worker, a preset runs to the end with a summary, and a 1000-flow run and a
2000-flow (split) run finish;
prints the main thread's long tasks during that run (figures, not a pass/fail threshold).
`--screenshot PATH` also writes a 1600x1000 screenshot of a finished run (the README's).

    tests/ui-check.py [--screenshot static/screenshot.png]
"""
import argparse, base64, functools, http.server, json, os, shutil, socket, subprocess, sys
import threading, time, urllib.request

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SITE = os.path.join(REPO, "target", "ui-check", "site")
SUB = "course/aqmlab"  # the page lives in a sub-folder, as on a course site


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def build():
    out = os.path.join(SITE, SUB)
    shutil.rmtree(SITE, ignore_errors=True)
    subprocess.run(["trunk", "build", "--offline", "--dist", out], cwd=REPO, check=True)


def serve():
    port = free_port()
    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *a):
            pass

    handler = functools.partial(Quiet, directory=SITE)
    srv = http.server.ThreadingHTTPServer(("127.0.0.1", port), handler)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    return port


class Browser:
    """A minimal W3C WebDriver client."""

    def __init__(self):
        self.port = free_port()
        driver = os.environ.get("CHROMEDRIVER") or shutil.which("chromedriver") or "/usr/bin/chromedriver"
        self.proc = subprocess.Popen([driver, f"--port={self.port}"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for _ in range(100):
            try:
                self.call("GET", "/status")
                break
            except OSError:
                time.sleep(0.1)
        caps = {"capabilities": {"alwaysMatch": {"goog:chromeOptions": {
            "args": ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1600,1000"]}}}}
        self.session = self.call("POST", "/session", caps)["sessionId"]

    def call(self, method, path, body=None):
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(f"http://127.0.0.1:{self.port}{path}", data=data, method=method,
                                     headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(req, timeout=300) as r:
            return json.loads(r.read())["value"]

    def s(self, method, path, body=None):
        return self.call(method, f"/session/{self.session}{path}", body)

    def go(self, url):
        self.s("POST", "/url", {"url": url})

    def js(self, script, *args):
        return self.s("POST", "/execute/sync", {"script": script, "args": list(args)})

    def wait(self, script, timeout_s, what):
        end = time.time() + timeout_s
        while time.time() < end:
            v = self.js(script)
            if v:
                return v
            time.sleep(0.2)
        raise AssertionError(f"timed out waiting for {what}: {self.js('return document.body.innerText.slice(0, 600)')}")

    def screenshot(self, path):
        with open(path, "wb") as f:
            f.write(base64.b64decode(self.s("GET", "/screenshot")))

    def close(self):
        try:
            self.s("DELETE", "")
        finally:
            self.proc.terminate()


FINISHED = "return document.querySelector('.controls .progress')?.textContent.includes('finished')"
NO_BANNER = "return !document.getElementById('panic-banner')"


def big_run(b, base, label, first_group, duration_s, warmup_s):
    """rtt-unfair through FQ-CoDel with `first_group` + 1 flows, timed on the page, with the
    main thread's long tasks."""
    b.go(f"{base}/?speed=max#p=rtt-unfair/fq-codel")
    b.wait("return document.querySelector('input[name=\"flows[0].count\"]')", 60, "the editor")
    b.js(f"""
        const set = (sel, v) => {{ const i = document.querySelector(sel); i.value = v; i.dispatchEvent(new Event('input', {{bubbles: true}})); }};
        set('input[name="flows[0].count"]', '{first_group}'); set('input[name=duration_s]', '{duration_s}');
        set('input[name=warmup_s]', '{warmup_s}');
        window.__lt = [];
        new PerformanceObserver(l => l.getEntries().forEach(e => window.__lt.push(Math.round(e.duration)))).observe({{type: 'longtask'}});
        window.__t0 = performance.now();
        setTimeout(() => document.querySelector('[data-testid=run]').click(), 100);
    """)
    b.wait(FINISHED, 600, f"the {label} run to finish")
    lt = b.js("return window.__lt")
    wall = b.js("return (performance.now() - window.__t0) / 1000")
    assert b.js(NO_BANNER), "panic banner shown"
    print(f"ui-check: {label}, {duration_s} s simulated in {wall:.1f} s wall; main-thread tasks over 50 ms: "
          f"{len(lt)} (longest {max(lt, default=0)} ms)")


def check(b, base, shot):
    # 1. Loads from the sub-folder, the loading text goes, the worker runs the simulation.
    b.go(f"{base}/?speed=max#p=red-study/red")
    engine = b.wait("return document.querySelector('.app')?.dataset.engine", 60, "the app to mount")
    assert engine == "worker", f"simulation runs in the {engine}, not the worker"
    assert b.js("return !document.getElementById('loading')"), "loading indicator left on the page"
    # 2. A preset runs to the end and the summary has numbers.
    b.js("document.querySelector('[data-testid=run]').click()")
    b.wait(FINISHED, 120, "the RED study to finish")
    goodput = b.js("return document.querySelector('[data-testid=summary-table] tr:nth-child(2) td.num').textContent")
    assert 1.7 < float(goodput) < 1.9, f"RED study goodput {goodput} Mbit/s"
    assert b.js(NO_BANNER), "panic banner shown"
    print(f"ui-check: sub-folder build loads, worker engine, RED study finished, goodput {goodput} Mbit/s")
    # 3. A large run: 1000 flows through FQ-CoDel at 100 Mbit/s for 20 s, timed on the page.
    big_run(b, base, "1000 flows", 999, 20, 1)
    # 4. A split run (2000 flows: the senders run apart, in turn with the rest in the worker).
    big_run(b, base, "2000 flows (split)", 1999, 5, 1)
    if shot:
        b.go(f"{base}/?speed=max#p=cubic-vegas-2q/warbler")
        b.wait("return document.querySelector('[data-testid=run]')", 60, "the app")
        b.js("document.querySelector('[data-testid=run]').click()")
        b.wait(FINISHED, 300, "the Warbler run to finish")
        time.sleep(1.5)
        b.screenshot(shot)
        print(f"ui-check: wrote {shot}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--screenshot")
    ap.add_argument("--no-build", action="store_true", help="reuse target/ui-check/site")
    a = ap.parse_args()
    if not a.no_build:
        build()
    port = serve()
    b = Browser()
    try:
        check(b, f"http://127.0.0.1:{port}/{SUB}", a.screenshot)
    finally:
        b.close()


if __name__ == "__main__":
    sys.exit(main())
