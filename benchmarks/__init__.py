"""The project's measurements: quality and speed on the development sets, run as modules
from the top of the repository (``python -m benchmarks.<group>.<name>``; the jobs of
``scripts/dev.py`` run the usual ones). docs/benchmarks.md gives every figure with its
command, docs/development.md the layout:

- ``quality/``: the figures of the README's and docs' quality tables (``articles``: the
  four article sets, ``wcxb``, ``dates``, ``metadata``, ``oracle``, ``ablation``,
  ``markdown``, ``language``, ``article_verdict``);
- ``speed/``: time, instructions and memory (``profiling``, ``memory``, ``scaling``,
  ``crawl``, ``warc``, ``dedup_scale``, ``fingerprint_time``);
- ``neardup/``: the near-duplicate set and the quality of the clustering;
- ``gate``: the CI gate, every development set against its floor in ``gate_floors.json``
  and the instructions per page against their budget;
- ``snapshot``: every output on the development pages, to prove a change changes nothing;
- the modules they share: ``devsets`` (where the sets are, the four article sets, our
  extractors), ``wcxb_set``, ``metadata_sets``, ``peers`` (trafilatura, readability-lxml),
  ``offline``; ``data/`` holds the gold the project added.
"""

from __future__ import annotations

from pathlib import Path

#: The top of the checkout (where ``python -m benchmarks...`` runs), and the benchmarks' data.
ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "benchmarks" / "data"
