"""Sphinx configuration of the scrapy_mainc documentation.

Build it with ``python3 scripts/dev.py docs`` (warnings are errors, as in CI); the pages are
Markdown (MyST) and reStructuredText, the API pages come from the docstrings (autodoc); the
settings tables are written into the pages from the settings registry
(``scripts/settings_docs.py``). No napoleon: the docstrings have no Google or NumPy
sections, and it read the ``#:`` comment of a field whose first line holds a colon ("Script
guess: zh, ja...") as a type and a description.
"""

from __future__ import annotations

import scrapy_mainc

project = "scrapy_mainc"
author = "the scrapy_mainc developers"
copyright = "2026, the scrapy_mainc developers"  # noqa: A001 (Sphinx's name)
release = scrapy_mainc.__version__
version = ".".join(release.split(".")[:2])

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "sphinx.ext.intersphinx",
]
source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
myst_enable_extensions = ["colon_fence", "deflist"]
myst_heading_anchors = 3
exclude_patterns = ["_build"]
nitpicky = False
autodoc_member_order = "bysource"
autodoc_typehints = "description"
# members are listed where they are wanted (":members:"), not by default
autodoc_default_options = {"undoc-members": False}
intersphinx_mapping = {}  # no network at build time: no inventories are fetched
html_theme = "alabaster"
html_theme_options = {"description": "Main-content extraction for Scrapy crawlers", "fixed_sidebar": True}
html_static_path: list[str] = []
