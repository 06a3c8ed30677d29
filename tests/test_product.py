"""A product page's description from its structured data where the visible choice lacks it
(:mod:`scrapy_mainc.metadata._product`)."""

from __future__ import annotations

import json

from helpers import document
from scrapy_mainc import extract
from scrapy_mainc.metadata._product import MIN_DESCRIPTION_WORDS, missing_description

DESCRIPTION = (
    "A kettle of brushed steel that boils a litre in three minutes, keeps the water warm for "
    "an hour and switches itself off when the pot is empty or lifted <b>off</b> its base &amp; more."
)
BUY = "<div class='buy'><p>Price: 40 EUR. Add it to your cart today, with free shipping on orders.</p></div>"


def _page(description: str = DESCRIPTION, kind: str = "Product", shown: str = "") -> str:
    data = json.dumps(
        {"@context": "https://schema.org", "@type": kind, "name": "Kettle", "description": description}
    )
    return (
        f"<html><head><script type='application/ld+json'>{data}</script></head>"
        f"<body><main><h1>Kettle</h1>{BUY}{shown}</main></body></html>"
    )


def test_the_description_the_choice_lacks_comes_after_it_in_every_output() -> None:
    result = extract(_page(), page_type="product", markdown=True)
    text = "A kettle of brushed steel that boils a litre in three minutes, keeps the water warm for an hour"
    assert result.text.startswith("Kettle\nPrice: 40 EUR.") and text in result.text
    assert result.text.endswith("lifted off its base & more.")  # its markup and entities read as text
    assert result.html.endswith("lifted off its base &amp; more.</p>") and "<b>" not in result.html
    assert result.markdown.endswith(
        "\n\nA kettle of brushed steel" + result.text.split("A kettle of brushed steel")[1]
    )


def test_a_description_the_page_shows_is_not_added_again() -> None:
    shown = "<div class='about'><p>" + DESCRIPTION.replace("<b>", "").replace("</b>", "") + "</p></div>"
    result = extract(_page(shown=shown), page_type="product")
    assert result.text.count("A kettle of brushed steel") == 1


def test_only_a_product_page_with_a_description_of_some_words_gets_it() -> None:
    assert "A kettle" not in extract(_page(), page_type="article").text  # not a product page
    assert "A kettle" not in extract(_page(kind="Organization"), page_type="product").text
    short = " ".join(f"w{n}" for n in range(MIN_DESCRIPTION_WORDS - 1))
    assert missing_description(document(_page(short)), "") == ""
    enough = " ".join(f"w{n}" for n in range(MIN_DESCRIPTION_WORDS))
    assert missing_description(document(_page(enough)), "") == enough
    # shown by half its words: the choice has it
    half = " ".join(f"w{n}" for n in range(MIN_DESCRIPTION_WORDS // 2))
    assert missing_description(document(_page(enough)), half) == ""
    assert missing_description(document(_page(enough)), half.rsplit(" ", 1)[0]) == enough
