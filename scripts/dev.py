#!/usr/bin/env python3
"""Set up a virtual environment and run the project's main jobs; needs only Python 3.

    python3 scripts/dev.py crawl     # serve the bundled news site and crawl it (example_project)
    python3 scripts/dev.py test      # run the test suite
    python3 scripts/dev.py bench     # quality and speed on the four development sets, peers included
    python3 scripts/dev.py oracle    # auto against the oracle of its algorithms; its lost pages by kind
    python3 scripts/dev.py bench-dates  # publication-date accuracy and metadata time, peers included
    python3 scripts/dev.py bench-metadata  # titles, authors, dates against the hand-annotated gold
    python3 scripts/dev.py bench-wcxb  # WCXB (seven page types): word F1 by type, peers included
    python3 scripts/dev.py page-types  # the page-type model's accuracy (--train: fit and write it; training/)
    python3 scripts/dev.py quality-model  # the quality estimate on unseen sites (--train: fit and write it)
    python3 scripts/dev.py gate      # every development set against its pinned floor (CI runs it)
    python3 scripts/dev.py gate --speed  # callgrind's instructions per page against their budget
    python3 scripts/dev.py lint      # ruff (lint and format) and mypy --strict on the package
    python3 scripts/dev.py docs      # build the documentation (docs/_build/html), warnings as errors
    python3 scripts/dev.py package   # build sdist and wheel, smoke-crawl with the wheel outside the repo

The environment lives in ``.venv`` at the top of the repository and is (re)installed when
``setup.cfg`` changes. Extra arguments after the job name go to the underlying command.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
PYTHON = BIN / "python"
#: Which optional extras each job needs installed.
EXTRAS = {
    "crawl": "",
    "test": "test",
    "bench": "test,peers",
    "oracle": "test,peers",
    "bench-dates": "test,peers",
    "bench-metadata": "test,peers",
    "bench-wcxb": "test,peers,train",
    "page-types": "test,train",
    "quality-model": "test,train",
    "gate": "test",
    "lint": "test,lint",
    "docs": "docs",
    "package": "build",
}


def ensure_venv(extras: str) -> None:
    """Create ``.venv`` and install the package (editable) with ``extras``, once per change."""
    if not PYTHON.exists():
        print(f"dev.py: creating {VENV}", flush=True)
        venv.EnvBuilder(with_pip=True, clear=True).create(VENV)
    digest = hashlib.sha256((ROOT / "setup.cfg").read_bytes() + extras.encode()).hexdigest()
    stamp = VENV / f".installed-{extras or 'base'}"
    if stamp.exists() and stamp.read_text() == digest:
        return
    target = f"{ROOT}[{extras}]" if extras else str(ROOT)
    print(f"dev.py: installing {target}", flush=True)
    pip = [str(PYTHON), "-m", "pip", "install", "--disable-pip-version-check", "-q"]
    subprocess.run([*pip, "--upgrade", "pip"], check=True)
    subprocess.run([*pip, "-e", target], check=True)
    stamp.write_text(digest)


#: The module (``python -m``, from the top of the repository) each benchmark job runs.
MODULES = {
    "bench": "benchmarks.quality.articles",
    "oracle": "benchmarks.quality.oracle",
    "bench-dates": "benchmarks.quality.dates",
    "bench-metadata": "benchmarks.quality.metadata",
    "bench-wcxb": "benchmarks.quality.wcxb",
    "page-types": "training.page_types",
    "quality-model": "training.quality",
    "gate": "benchmarks.gate",
}


#: What the lint job checks: ruff's rules and formatting, and strict typing of the package.
LINT_PATHS = ["scrapy_mainc", "tests", "benchmarks", "training", "scripts", "example_project", "docs"]


def _lint(rest: list[str]) -> int:
    """ruff check on every Python file, ruff format on the package and the tests, mypy
    --strict on the package (pyproject.toml holds their settings); the first failure wins."""
    steps = [
        [str(BIN / "ruff"), "check", *LINT_PATHS],
        [str(BIN / "ruff"), "format", "--check", "scrapy_mainc", "tests"],
        [str(BIN / "mypy"), "--strict", "scrapy_mainc", *rest],
    ]
    for step in steps:
        print("dev.py lint:", Path(step[0]).name, *step[1:], flush=True)
        code = subprocess.call(step, cwd=ROOT)
        if code:
            return code
    return 0


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in EXTRAS:
        print(__doc__, file=sys.stderr)
        return 2
    job, rest = argv[0], argv[1:]
    ensure_venv(EXTRAS[job])
    if job == "test":
        command = [str(PYTHON), "-m", "pytest", *rest]
    elif job == "crawl":
        command = [str(PYTHON), str(ROOT / "example_project" / "run_crawl.py"), *rest]
    elif job == "lint":
        return _lint(rest)
    elif job == "docs":
        sphinx = [str(PYTHON), "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "html"]
        command = [*sphinx, "docs", str(ROOT / "docs" / "_build" / "html"), *rest]
    elif job == "package":
        command = [str(PYTHON), str(ROOT / "scripts" / "package_check.py"), *rest]
    else:
        command = [str(PYTHON), "-m", MODULES[job], *rest]
    return subprocess.call(command, cwd=ROOT)


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
