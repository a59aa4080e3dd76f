"""The rules for players ("How to play"): one text, ``howto.md`` in this package, that the
terminal's rules screen and the browser's help page both show.

The text is Markdown with one addition: ``[[QS JD]]`` names cards to show.  The terminal gets
them as symbols (:func:`rules_markdown`); the browser as card pictures (:func:`rules_html`, a
small renderer for the few Markdown forms the text uses: headings, paragraphs, lists, tables,
bold).

>>> expand_cards("a bezique: [[QS JD]]")
'a bezique: Q♠ J♦'
>>> section_titles()[:2]
['The cards', 'Tricks while there is a stock']
>>> 'class="rules-cards"' in rules_html()
True
"""

from __future__ import annotations

import html
import re
from importlib import resources

from .cards import card_symbol, parse_card

_CARDS = re.compile(r"\[\[([^\]]*)\]\]")
_BOLD = re.compile(r"\*\*(.+?)\*\*")


def source() -> str:
    """The text as written (with its ``[[cards]]`` marks)."""
    return resources.files("bezique").joinpath("howto.md").read_text(encoding="utf-8")


def expand_cards(text: str) -> str:
    """``[[QS JD]]`` marks as card symbols (``Q♠ J♦``)."""
    return _CARDS.sub(lambda m: " ".join(card_symbol(parse_card(c)) for c in m.group(1).split()),
                      text)


def rules_markdown() -> str:
    """The rules as Markdown for the terminal (cards as symbols)."""
    return expand_cards(source())


def section_titles() -> list[str]:
    """The titles of the sections (the ``##`` headings), in order."""
    return [line[3:].strip() for line in source().splitlines() if line.startswith("## ")]


def _inline(text: str) -> str:
    """One line of text as HTML: escaped, bold marked, cards as pictures."""
    out = []
    pos = 0
    for m in _CARDS.finditer(text):
        out.append(_BOLD.sub(r"<strong>\1</strong>", html.escape(text[pos:m.start()])))
        imgs = "".join(
            f'<img src="/cards/{html.escape(c.upper())}.svg" '
            f'alt="{html.escape(card_symbol(parse_card(c)))}">'
            for c in m.group(1).split()
        )
        out.append(f'<span class="rules-cards">{imgs}</span>')
        pos = m.end()
    out.append(_BOLD.sub(r"<strong>\1</strong>", html.escape(text[pos:])))
    return "".join(out)


def _slug(title: str) -> str:
    return "rules-" + re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")


def rules_html() -> str:
    """The rules as an HTML fragment for the browser's help page."""
    out: list[str] = []
    para: list[str] = []
    items: list[str] = []
    rows: list[list[str]] = []

    def flush() -> None:
        if para:
            out.append(f"<p>{_inline(' '.join(para))}</p>")
            para.clear()
        if items:
            out.append("<ul>" + "".join(f"<li>{_inline(i)}</li>" for i in items) + "</ul>")
            items.clear()
        if rows:
            head, body = rows[0], [r for r in rows[1:] if not all(set(c) <= {"-"} for c in r)]
            out.append('<table class="rules-table"><thead><tr>'
                       + "".join(f"<th>{_inline(c)}</th>" for c in head) + "</tr></thead><tbody>"
                       + "".join("<tr>" + "".join(f"<td>{_inline(c)}</td>" for c in r) + "</tr>"
                                 for r in body)
                       + "</tbody></table>")
            rows.clear()

    for raw in source().splitlines():
        line = raw.rstrip()
        if line.startswith("#"):
            flush()
            level = len(line) - len(line.lstrip("#"))
            title = line[level:].strip()
            if level == 1:
                continue  # the page has its own title
            out.append(f'<h3 id="{_slug(title)}">{_inline(title)}</h3>')
        elif line.startswith("|"):
            if para or items:
                flush()
            rows.append([c.strip() for c in line.strip("|").split("|")])
        elif line.startswith("- "):
            if para or rows:
                flush()
            items.append(line[2:])
        elif not line.strip():
            flush()
        elif items and raw.startswith("  "):
            items[-1] += " " + line.strip()
        else:
            if items or rows:
                flush()
            para.append(line.strip())
    flush()
    return "\n".join(out)
