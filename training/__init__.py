"""Trainers of the package's learned parts, apart from the package (training/README.md).

Run from the top of the repository: ``python -m training.page_types``, or
``python3 scripts/dev.py page-types``.
"""
