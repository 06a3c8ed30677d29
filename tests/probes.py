"""Task functions for worker processes that report what the worker process has imported.

This module imports only the worker module, so that a worker process that unpickles one of
these functions imports nothing more than a real extraction worker does.
"""

from __future__ import annotations

import dataclasses
import sys

from scrapy_mainc.items._workers import ExtractionOutcome, ExtractionTask, run_extraction

#: Modules that an extraction worker imports only for fingerprints (or never, for Scrapy).
WATCHED = ("datasketch", "numpy", "scrapy")


def extract_and_list_modules(task: ExtractionTask) -> ExtractionOutcome:
    """``run_extraction(task)``, its reason replaced by the loaded modules of WATCHED."""
    outcome = run_extraction(task)
    loaded = ",".join(name for name in WATCHED if name in sys.modules)
    extraction = dataclasses.replace(outcome.extraction, reason=loaded)
    return dataclasses.replace(outcome, extraction=extraction)
