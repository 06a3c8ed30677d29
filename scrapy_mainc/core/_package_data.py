"""The package's data files: the models the trainers of ``training/`` write beside the
core's modules, each read once by its own module (:mod:`._pagetype_model`,
:mod:`._quality_model`)."""

from __future__ import annotations

import gzip
import json
from importlib import resources
from typing import Any


def read_json(name: str) -> Any:
    """The JSON value of the data file ``name`` (gzipped when the name ends in ``.gz``)."""
    packed = resources.files(__package__).joinpath(name).read_bytes()
    return json.loads(gzip.decompress(packed) if name.endswith(".gz") else packed)
