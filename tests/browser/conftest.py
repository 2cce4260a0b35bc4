"""Browser tests of the web client: headless Chromium from Debian's packages (`chromium`), driven
by Playwright, against `roundhouse serve` with the built client (web/dist, `make web`).

Without Chromium or a built client the tests skip, saying why, unless ROUNDHOUSE_REQUIRE_BROWSER=1
(.ci/run), which makes that a failure. Screenshots are kept in test-artefacts/web/ (or
$ROUNDHOUSE_ARTEFACTS/web)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from rh_support import REPO, Proc, free_port, gateway_stub


def _missing(message: str):
    if os.environ.get("ROUNDHOUSE_REQUIRE_BROWSER") == "1":
        pytest.fail(message)
    pytest.skip(message)


@pytest.fixture(scope="session")
def chromium_path() -> str:
    path = os.environ.get("ROUNDHOUSE_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
    if not path:
        _missing("no chromium on this machine (apt-get install chromium chromium-driver)")
    if not (REPO / "web" / "dist" / "index.html").exists():
        _missing("the web client is not built (make web)")
    return path


@pytest.fixture(scope="module")
def browser(chromium_path):
    """Chromium for one module's tests. Not for the session: Playwright's synchronous API keeps an
    event loop running in the main thread while it is open, and later tests (asyncio.run) need it
    gone."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=chromium_path)
        try:
            yield b
        finally:
            b.close()


@pytest.fixture(scope="session")
def artefacts() -> Path:
    root = Path(os.environ.get("ROUNDHOUSE_ARTEFACTS") or REPO / "test-artefacts") / "web"
    root.mkdir(parents=True, exist_ok=True)
    return root


class Platform:
    """`roundhouse serve` on free ports: its web URL and a gRPC stub to check the state with."""

    def __init__(self, data: Path):
        self.proc = Proc(["serve", "--data", str(data), "--port", str(free_port()), "--web-port", "0",
                          "--metrics-port", "0"], name="serve")
        self.url = self.proc.wait_for(r"web client on (http://\S+/)").group(1)
        address = self.proc.wait_for(r"gateway listening on (\S+)").group(1)
        self.gateway = gateway_stub(address)

    def stop(self) -> None:
        self.proc.stop()


@pytest.fixture()
def platform(tmp_path):
    p = Platform(tmp_path / "data")
    try:
        yield p
    finally:
        p.stop()


@pytest.fixture(scope="module")
def shared_platform(tmp_path_factory, chromium_path):
    """One platform for a module's tests (each uses its own games)."""
    p = Platform(tmp_path_factory.mktemp("platform"))
    try:
        yield p
    finally:
        p.stop()


class Page:
    """A browser page that records console errors and uncaught exceptions."""

    def __init__(self, context, name: str):
        self.name = name
        self.page = context.new_page()
        self.errors: list[str] = []
        self.page.on("console", lambda m: self.errors.append(f"console.{m.type}: {m.text}") if m.type == "error" else None)
        self.page.on("pageerror", lambda e: self.errors.append(f"uncaught: {e}"))


@pytest.fixture()
def new_page(browser):
    contexts = []

    def make(name: str = "page", width: int = 1600, height: int = 1100) -> Page:
        context = browser.new_context(viewport={"width": width, "height": height})
        contexts.append(context)
        return Page(context, name)

    yield make
    for c in contexts:
        c.close()
