"""Screenshots of written pages in headless chromium, for the docs.

    python scripts/page_screenshots.py PAGES_DIR OUT_DIR overview coauthors

Opens each ``PAGES_DIR/<name>.html``, waits for its layout, fits it to the window and saves
``OUT_DIR/<name>-<folder name>.png``. Needs Debian's chromium (``.ci/debian.sh``).
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.helpers.browser import Browser  # noqa: E402


def main(pages: Path, out: Path, names: list[str]) -> None:
    with Browser(timeout=300) as browser:
        for name in names:
            page = browser.new_page()
            page.open(pages / f"{name}.html", ready="window.kgReady", timeout=600)
            page.evaluate("kgNetwork.fit({animation: false})")
            page.wait_for("true")
            path = out / f"{name}-{pages.name}.png"
            page.screenshot(path)
            print(f"{path}: {path.stat().st_size:,} bytes")


if __name__ == "__main__":
    main(Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3:])
