#!/usr/bin/env python3
"""Build the release files and prove that the wheel works on its own.

    python scripts/package_check.py [--keep]

1. Builds the sdist and, from it, the wheel (``python -m build``: the wheel is built from
   the unpacked sdist, so a file missing from the sdist breaks the build here first).
2. Checks their contents: every module of the source tree, ``py.typed`` and the package
   data (the page-type models, ``core/pagetype_model.json.gz``, and the quality estimate's
   trees, ``core/quality_model.json.gz``) in the wheel; LICENSE,
   README.md, CHANGELOG.md, setup.cfg and pyproject.toml in the sdist; the version in the
   file names is ``scrapy_mainc.__version__``.
3. Creates a fresh virtual environment in a temporary directory outside the repository,
   installs the wheel into it (not editable), copies ``example_project`` next to it and runs
   the example crawl there, with the repository nowhere on ``sys.path``; the crawl must
   write articles with main text, ``scrapy_mainc`` must be imported from the environment's
   site-packages, and the installed package must read its page-type models.

Run from any Python 3 with pip; ``build`` is installed into the repository's ``.venv`` by
``scripts/dev.py package``. Exit status 0 when every check passes.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import venv
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SDIST_FILES = ("LICENSE", "README.md", "CHANGELOG.md", "setup.cfg", "pyproject.toml")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--keep", action="store_true", help="keep the temporary directory")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="mainc-package-"))
    try:
        sdist, wheel = build(work / "dist")
        problems = check_sdist(sdist) + check_wheel(wheel)
        if not problems:
            problems = smoke_crawl(wheel, work)
    finally:
        if args.keep:
            print(f"package_check: kept {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)
    for problem in problems:
        print(f"package_check: FAIL: {problem}", file=sys.stderr)
    if not problems:
        print(f"package_check: OK ({sdist.name}, {wheel.name})")
    return 1 if problems else 0


def build(out: Path) -> tuple[Path, Path]:
    """Build the sdist, then the wheel from it, into ``out``."""
    run([sys.executable, "-m", "build", "--outdir", str(out), str(ROOT)])
    (sdist,) = out.glob("*.tar.gz")
    (wheel,) = out.glob("*.whl")
    return sdist, wheel


def version() -> str:
    source = (ROOT / "scrapy_mainc" / "__init__.py").read_text(encoding="utf-8")
    match = re.search(r'^__version__ = "([^"]+)"', source, re.M)
    assert match, "no __version__ in scrapy_mainc/__init__.py"
    return match.group(1)


#: The package's data files (declared in setup.cfg's ``options.package_data``).
PACKAGE_DATA = ("py.typed", "core/pagetype_model.json.gz", "core/quality_model.json.gz")


def source_modules() -> set[str]:
    """Package files as they must appear in the wheel: every .py file and the package data."""
    package = ROOT / "scrapy_mainc"
    files = {*package.rglob("*.py"), *(package / name for name in PACKAGE_DATA)}
    return {path.relative_to(ROOT).as_posix() for path in files if "__pycache__" not in path.parts}


def check_wheel(wheel: Path) -> list[str]:
    problems = []
    if f"-{version()}-" not in wheel.name:
        problems.append(f"wheel {wheel.name} does not carry version {version()}")
    names = set(zipfile.ZipFile(wheel).namelist())
    missing = sorted(source_modules() - names)
    if missing:
        problems.append(f"wheel lacks {', '.join(missing)}")
    outside = {"tests", "benchmarks", "training", "example_project"}
    stray = sorted(name for name in names if name.split("/")[0] in outside)
    if stray:
        problems.append(f"wheel holds files outside the package: {', '.join(stray[:5])}")
    return problems


def check_sdist(sdist: Path) -> list[str]:
    problems = []
    if not sdist.name.endswith(f"-{version()}.tar.gz"):
        problems.append(f"sdist {sdist.name} does not carry version {version()}")
    with tarfile.open(sdist) as archive:
        names = {name.split("/", 1)[1] for name in archive.getnames() if "/" in name}
    missing = sorted(set(SDIST_FILES) - names)
    if missing:
        problems.append(f"sdist lacks {', '.join(missing)}")
    return problems


def smoke_crawl(wheel: Path, work: Path) -> list[str]:
    """Install ``wheel`` into a fresh environment outside the repository and crawl with it."""
    env_dir = work / "venv"
    venv.EnvBuilder(with_pip=True, clear=True).create(env_dir)
    python = env_dir / "bin" / "python"
    run([str(python), "-m", "pip", "install", "--disable-pip-version-check", "-q", str(wheel)])
    project = work / "example_project"
    shutil.copytree(
        ROOT / "example_project",
        project,
        ignore=shutil.ignore_patterns("output*.jsonl", "__pycache__", "distributed-output"),
    )
    located = run(
        [str(python), "-c", "import scrapy_mainc, sys; print(scrapy_mainc.__file__)"], cwd=work, capture=True
    )
    problems = []
    if not located.startswith(str(env_dir)):
        problems.append(f"scrapy_mainc was imported from {located}, not from the new environment")
    problems += installed_models(python, work)
    output = work / "output.jsonl"
    run([str(python), str(project / "run_crawl.py"), "--output", str(output)], cwd=work)
    items = [json.loads(line) for line in output.read_text(encoding="utf-8").splitlines() if line]
    with_text = [item for item in items if item.get("main_text")]
    if len(with_text) < 5:
        problems.append(f"the smoke crawl wrote {len(items)} items, {len(with_text)} with main text")
    else:
        print(f"package_check: smoke crawl wrote {len(items)} items, {len(with_text)} with main text")
    return problems


#: Run in the installed environment: the page-type models' file, read through the package.
READ_MODELS = (
    "from scrapy_mainc.core._pagetype_model import page_type_models;"
    "models = page_type_models();"
    "print(len(models.quick.signals), len(models.full.signals), len(models.full.classes))"
)


def installed_models(python: Path, work: Path) -> list[str]:
    """Problems of the installed package's page-type models (none when it reads them)."""
    completed = subprocess.run([str(python), "-c", READ_MODELS], cwd=work, capture_output=True, text=True)
    if completed.returncode:
        return [f"the installed package cannot read its page-type models: {completed.stderr.strip()[-300:]}"]
    quick, full, classes = map(int, completed.stdout.split())
    print(f"package_check: the installed page-type models: {quick} and {full} signals, {classes} types")
    return []


def run(command: list[str], cwd: Path | None = None, capture: bool = False) -> str:
    """Run ``command`` (outside the repository unless ``cwd`` says otherwise); raise on failure."""
    completed = subprocess.run(command, cwd=cwd or ROOT, check=True, capture_output=capture, text=True)
    return completed.stdout.strip() if capture else ""


if __name__ == "__main__":
    raise SystemExit(main())
