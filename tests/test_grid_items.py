"""A page of items (a shop's grid of cards): an item's short lines without punctuation
lose the punctuation penalty once for the item (``AutoParams.item_max_words``)."""

from __future__ import annotations

from helpers import document, node_at
from scrapy_mainc import extract
from scrapy_mainc.algorithms import _blocks, _context, auto
from scrapy_mainc.algorithms._page_type_params import ITEM_MAX_WORDS, PAGE_TYPE_PRESETS
from scrapy_mainc.algorithms._values import block_values

INTRO = (
    "<div class='intro'><p>Our desks are built in our own workshop from solid oak, "
    "finished by hand, tested for a week, and shipped to your door within ten days.</p></div>"
)
NAME_PRICE = ("name", "price", "stock")
NAMES = ["Oak Desk Large", "Oak Desk Small", "Walnut Desk Wide", "Maple Desk Tall"]


def _card(name: str, price: int) -> str:
    """A product card: three short lines without punctuation, the name a link (3 + 1 + 3 words)."""
    return (
        f"<div class='card'><div class='name'><a href='/p/{price}'>{name}</a></div>"
        f"<div class='price'>{price}</div><div class='stock'>In stock now</div></div>"
    )


def _page(cards: int) -> str:
    grid = "".join(_card(NAMES[i % 4], 100 + i) for i in range(cards))
    return f"<body><main>{INTRO}<div class='grid'>{grid}</div></main></body>"


def test_alike_items_are_the_outermost_alike_siblings_of_few_words() -> None:
    swatches = "<ul class='sw'><li><p>red</p></li><li><p>blue</p></li><li><p>green</p></li></ul>"
    big = "<div class='card'>" + "word " * 50 + "</div>"
    page = (
        "<body><div class='grid'>"
        f"<div class='card'><p>One two</p>{swatches}</div>"
        "<div class='card'><p>Three four</p></div><div class='card'><p>Five six</p></div>"
        f"{big}<div class='promo'><p>Seven</p></div></div></body>"
    )
    doc = document(page)
    item_of = _blocks.alike_items(doc.stats, max_words=40, min_alike=3)
    first = node_at(doc, "//div[@class='grid']/div[1]")
    # the swatches are alike too, but they lie in the card: the card is their item
    assert item_of[node_at(doc, "//ul/li[2]/p")] == first
    assert item_of[node_at(doc, "//div[@class='grid']/div[2]/p")] == node_at(
        doc, "//div[@class='grid']/div[2]"
    )
    # a card of 50 words is no item (three small alike ones remain); nor is the odd one out
    assert item_of[node_at(doc, "//div[@class='grid']/div[4]")] == -1
    assert item_of[node_at(doc, "//div[@class='promo']/p")] == -1
    assert item_of[node_at(doc, "//div[@class='grid']")] == -1
    # two alike cards are no grid
    assert _blocks.alike_items(doc.stats, max_words=40, min_alike=5)[first] == -1


def test_a_card_s_unpunctuated_lines_lose_the_penalty_once() -> None:
    doc = document(_page(4))
    regions = _blocks.block_regions(doc.stats)
    card = node_at(doc, "//div[@class='grid']/div[1]")
    for item_max_words, expected in ((0, 4 - 3 * 3.0), (20, 4 - 3.0)):
        params = auto.AutoParams(unpunctuated_penalty=3.0, link_weight=0.0, item_max_words=item_max_words)
        context = _context.block_context(doc, regions, params)
        values = block_values(doc.stats, regions, context, doc.headline, params)
        assert doc.stats.subtree_totals(values)[card] == expected
        # the card pays once, and none of its lines: pruning keeps them all (its link
        # words are worth nothing here)
        line = {
            kind: node_at(doc, f"//div[@class='grid']/div[1]/div[@class='{kind}']") for kind in NAME_PRICE
        }
        paid = 0 if item_max_words else 3.0
        assert [values[line[kind]] for kind in NAME_PRICE] == [0 - paid, 1 - paid, 3 - paid]
        assert values[card] == (-3.0 if item_max_words else 0.0)


def test_a_collection_keeps_its_grid_of_cards_beside_its_intro() -> None:
    assert PAGE_TYPE_PRESETS["collection"]["item_max_words"] == ITEM_MAX_WORDS
    assert PAGE_TYPE_PRESETS["listing"]["item_max_words"] == ITEM_MAX_WORDS
    page = _page(12)
    text = extract(page, page_type="collection").text
    assert "solid oak" in text
    assert all(name in text for name in NAMES) and "111" in text
    # the rule switched off: each card is worth less than nothing, and the intro alone is
    # kept (the choice without the penalty is no help: a third of its words are links)
    alone = extract(page, page_type="collection", item_max_words=0).text
    assert "solid oak" in alone and "Oak Desk Large" not in alone
    # an article is read with the defaults: the penalty on every line
    assert "Oak Desk Large" not in extract(page, page_type="article").text
