"""A small headless-Chromium harness over the DevTools protocol, for testing generated pages.

``Browser`` starts Debian's chromium with flags that keep it off the network and a fresh
profile, opens a page in a new tab and records what the page did: console errors, uncaught
exceptions and every request it made. ``UNAVAILABLE`` says why no browser can run (chromium
or websocket-client missing), or is None.
"""

import base64
import json
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

try:
    import websocket
except ImportError:
    websocket = None

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
if CHROMIUM is None:
    UNAVAILABLE = "chromium is not installed (run .ci/debian.sh: apt-get install -y chromium)"
elif websocket is None:
    UNAVAILABLE = "websocket-client is not installed (pip install -e '.[test]')"
else:
    UNAVAILABLE = None

FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--remote-debugging-port=0",
    "--window-size=1280,900",
)


class BrowserError(RuntimeError):
    """The browser did not start, or a DevTools command failed or timed out."""


class Page:
    """One tab: navigate, evaluate JavaScript, hover, screenshot; keeps the page's events."""

    def __init__(self, browser, session_id):
        self._browser = browser
        self._session = session_id
        self.url = None
        self.console_errors = []
        self.exceptions = []
        self.requests = []

    def send(self, method, **params):
        return self._browser.send(method, session_id=self._session, **params)

    def on_event(self, message):
        method, params = message["method"], message.get("params", {})
        if method == "Runtime.consoleAPICalled" and params["type"] in ("error", "assert"):
            self.console_errors.append(
                " ".join(str(a.get("value", a.get("description"))) for a in params["args"])
            )
        elif method == "Runtime.exceptionThrown":
            details = params["exceptionDetails"]
            self.exceptions.append(
                details.get("exception", {}).get("description") or details["text"]
            )
        elif method == "Log.entryAdded" and params["entry"]["level"] == "error":
            self.console_errors.append(params["entry"]["text"])
        elif method == "Network.requestWillBeSent":
            self.requests.append(params["request"]["url"])

    def open(self, path, *, ready="true", timeout=120.0):
        """Load the file at ``path`` and wait until the JavaScript expression ``ready`` is true."""
        self.url = Path(path).resolve().as_uri()
        self.send("Page.navigate", url=self.url)
        self.wait_for(ready, timeout=timeout)

    def evaluate(self, expression):
        """The JSON value of a JavaScript expression; a thrown error raises BrowserError."""
        reply = self.send(
            "Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=True
        )
        if "exceptionDetails" in reply:
            raise BrowserError(f"{expression!r} threw: {reply['exceptionDetails']}")
        return reply["result"].get("value")

    def wait_for(self, expression, *, timeout=30.0):
        deadline = time.monotonic() + timeout
        while True:
            try:
                if self.evaluate(f"!!({expression})"):
                    return
            except BrowserError:
                pass
            if time.monotonic() > deadline:
                raise BrowserError(f"timed out after {timeout:.0f} s waiting for {expression!r}")
            time.sleep(0.1)

    def hover(self, x, y):
        """Move the mouse to viewport point (x, y)."""
        self.send("Input.dispatchMouseEvent", type="mouseMoved", x=x, y=y)

    def screenshot(self, path):
        data = self.send("Page.captureScreenshot", format="png")["data"]
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        Path(path).write_bytes(base64.b64decode(data))


class Browser:
    """Headless chromium driven over one DevTools websocket; use as a context manager."""

    def __init__(self, *, timeout=60.0):
        if UNAVAILABLE:
            raise BrowserError(UNAVAILABLE)
        self._profile = tempfile.mkdtemp(prefix="kg-chromium-")
        self._log = Path(self._profile, "stderr.log")
        with self._log.open("wb") as log:
            self._process = subprocess.Popen(
                [CHROMIUM, *FLAGS, f"--user-data-dir={self._profile}", "about:blank"],
                stdout=subprocess.DEVNULL,
                stderr=log,
            )
        self._timeout = timeout
        self._ws = websocket.create_connection(
            self._devtools_url(), timeout=timeout, suppress_origin=True
        )
        self._next_id = 0
        self._pages = {}

    def _devtools_url(self):
        """The browser's websocket address, which chromium prints to stderr once it is up."""
        deadline = time.monotonic() + self._timeout
        while time.monotonic() < deadline:
            for line in self._log.read_text(errors="replace").split("\n"):
                if line.startswith("DevTools listening on "):
                    return line.split(" on ", 1)[1].strip()
            if self._process.poll() is not None:
                break
            time.sleep(0.05)
        self.close()
        raise BrowserError(
            f"chromium did not open DevTools: {self._log.read_text(errors='replace')[-500:]}"
        )

    def send(self, method, *, session_id=None, **params):
        """Send one command and return its result, dispatching events that arrive meanwhile."""
        self._next_id += 1
        message = {"id": self._next_id, "method": method, "params": params}
        if session_id:
            message["sessionId"] = session_id
        self._ws.send(json.dumps(message))
        deadline = time.monotonic() + self._timeout
        while time.monotonic() < deadline:
            reply = json.loads(self._ws.recv())
            if reply.get("id") == self._next_id:
                if "error" in reply:
                    raise BrowserError(f"{method}: {reply['error'].get('message')}")
                return reply.get("result", {})
            if "method" in reply and reply.get("sessionId") in self._pages:
                self._pages[reply["sessionId"]].on_event(reply)
        raise BrowserError(f"{method}: no reply in {self._timeout:.0f} s")

    def new_page(self):
        """A fresh tab with console, log and network events enabled."""
        target = self.send("Target.createTarget", url="about:blank")["targetId"]
        session = self.send("Target.attachToTarget", targetId=target, flatten=True)["sessionId"]
        page = self._pages[session] = Page(self, session)
        for domain in ("Runtime", "Log", "Network", "Page"):
            page.send(f"{domain}.enable")
        return page

    def close(self):
        try:
            if getattr(self, "_ws", None):
                self._ws.close()
        finally:
            self._process.terminate()
            try:
                self._process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self._process.kill()
                self._process.wait()
            shutil.rmtree(self._profile, ignore_errors=True)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
