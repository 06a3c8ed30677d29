"""The metadata record of a page."""

from __future__ import annotations

from dataclasses import dataclass, fields


@dataclass(frozen=True, slots=True)
class Metadata:
    """What a page says about its article, beside the text: every field empty when unknown.

    Dates are ISO 8601: ``2023-12-22``, or ``2023-12-22T10:30:00+08:00`` when the page
    gives a time with its offset (``2023-12-22T10:30:00`` when it gives no offset).
    """

    #: Original publication date (not a copyright year, a crawl date or a comment's date).
    published: str = ""
    #: Date of the last modification, never earlier than ``published``.
    modified: str = ""
    #: Person names, in page order, without "By", job titles, e-mail addresses or URLs.
    authors: tuple[str, ...] = ()
    #: Name of the publication (``og:site_name``, the JSON-LD publisher...).
    site_name: str = ""
    #: Absolute canonical URL of the article.
    canonical_url: str = ""
    #: The page's summary of the article.
    description: str = ""
    #: Absolute URL of the lead image.
    image: str = ""
    #: Section of the publication the article is in.
    section: str = ""
    #: Keywords and tags, in page order, without duplicates.
    tags: tuple[str, ...] = ()

    def as_dict(self) -> dict[str, object]:
        """The fields as a plain dict (tuples as lists), for JSON and items."""
        return {
            field.name: list(value) if isinstance(value, tuple) else value
            for field in fields(self)
            for value in (getattr(self, field.name),)
        }
