"""A game's "How to play" page for the browser (docs/server.md, "How to play"): its `GUIDE.md` and its
`RULES.md` rulings rendered to HTML on the server, with every rule citation linked to its ruling and the
game's keywords explained where they stand, plus what the lobby says of a game in one line.

The Markdown is the game's own file, but the HTML is built so that nothing in it is taken as HTML:
markdown-it-py runs with raw HTML off (a `<script>` in the text arrives as text), links keep only http(s)
targets (anything else is shown as its text), images are shown as their alt text (the page fetches
nothing), and every piece of HTML added here is built from escaped text.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass
from functools import cache

from markdown_it import MarkdownIt
from markdown_it.token import Token

from warcards.engine.guides import guide_text, rulings_text
from warcards.server.games import shared_game

DESCRIPTIONS: dict[str, str] = {
    "race-to-messina": "Sicily, summer 1943: the Allies race the clock to Messina, deploying cards in secret "
                       "and fighting them out one activation at a time.",
    "med-sirocco": "The Mediterranean, 1940–43: a trick-taking game of convoys and battles where you change "
                   "sides every Operation.",
    "naval-war": "Battleship card game for 2–9 admirals: fire salvos at the others' ships and score the ones "
                 "you sink.",
    "cards-of-war": "Two supreme leaders fight three battles at once: first to 15 in a battle wins it, two "
                    "battles win the round.",
}
"""One line per game for the lobby."""

GAME_TITLES: dict[str, str] = {
    "race-to-messina": "Race to Messina", "med-sirocco": "Med Sirocco", "naval-war": "Naval War",
    "cards-of-war": "Cards of War",
}

PLAYERS: dict[str, str] = {
    "race-to-messina": "2 or 3 players", "med-sirocco": "2–6 players", "naval-war": "2–9 players",
    "cards-of-war": "2 players",
}

TYPICAL_MOVES: dict[str, int] = {"race-to-messina": 288, "med-sirocco": 77, "naval-war": 170, "cards-of-war": 47}
"""The median number of moves one seat makes in a game with the default options: heuristic bots, seeds 0–6
(`PYTHONPATH=src python3 scripts/typical_length.py 7`; chance steps are not moves)."""

GLOSSARY: dict[str, dict[str, str]] = {
    "race-to-messina": {
        "PT": "Progress Track points: the Allies win at 10, the Axis at 20 (Invasion) or 16 (Sicily).",
        "Logistics": "Phase 1 of a turn: every hand is filled up.",
        "Strategy": "Phase 2: in turn, each player may discard a few cards, then draws replacements.",
        "Deployment": "Phase 3: each player secretly picks the cards to play; all are revealed together.",
        "Action": "Phase 4: players take turns activating one deployed card each, or pass (a pass is final).",
        "Resolution": "Phase 5: force totals are compared (ties go to the Axis) and PT awarded.",
        "Recovery": "Phase 6: everyone discards down to 2 cards; the Axis gains 1 PT (not in Race).",
        "DT": "Special ability: discard a target opponent card with the named trait.",
        "Supply": "Ability: draw a card; keep it in hand or reveal (deploy) it at once.",
        "Recon": "Ability: look at the opponent's hand.",
        "Progress": "Ability: gain 1 PT if you win this turn (the card must be activated and still in play).",
        "Hube": "Ability: gain 1 PT now.",
        "AA": "Only the American player (or the Invasion Ally player) may deploy this card.",
        "AB": "Only the British player (or the Invasion Ally player) may deploy this card.",
    },
    "med-sirocco": {
        "Operation": "One card turned over per deal: a Convoy or a Battle, with a year, VP and a freighter.",
        "Convoy": "An Operation fought in one face-up round; playing is optional.",
        "Battle": "An Operation fought in two rounds: face up and compulsory, then face down.",
        "Engagement": "The fight over one Operation: every player plays or discards in turn.",
        "VP": "Victory points: the most VP after the last Operation wins.",
        "Force": "A Force card: Air / Surface / Sub values, playable years, a frame, a nation and VP.",
        "Bonus": "A card added to a Force card of the same frame.",
        "Destiny": "A Force card naming a victim: played against it, it sinks that card.",
        "Storm": "Storm cards S01–S07 (Sirocco, Lost, Explosion, Fog, Night action, Bomb alley, Shallows).",
        "Sirocco": "Storm card S01: one player's part in the Engagement is cancelled (ruling R3).",
        "freighter": "The Operation's freighter (empty, half, full): won, it grows its winner's hand.",
    },
    "naval-war": {
        "Hit Number": "The hits that sink a ship, and the points it scores for whoever sinks it.",
        "salvo": "A play card with a gun size and 1–4 hits, fired at an enemy ship of a fleet that has that gun.",
        "Deep Six": "Your pile of the ships you sank: their Hit Numbers are your score for the round.",
        "Smoke": "Your task force is safe from all but submarines and Additional Damage until your next turn.",
        "Minefield": "A red card laid before a task force: 1 or 2 hits on every ship there, and on later ones.",
        "Destroyer Squadron": "Placed in the centre; if it survives to your next turn it sinks ships of a task "
                              "force you name.",
        "Additional Damage": "A red card put on a salvo under an enemy ship: +1 or +2 hits.",
        "Additional Ship": "A red card: a ship from the harbor joins your task force.",
        "task force": "A player's ships on the table.",
        "Opening": "The start of a round: from the dealer, each player plays every red card in his hand.",
        "Scoring": "The end of a round: Deep Six Hit Numbers, +10 for a sole survivor, −10 per elimination.",
    },
    "cards-of-war": {
        "KILL": "Deployed into a battle whose opposing top card has the named type letter, it kills that card.",
        "REINFORCE": "Draw a card, then deploy again (ruling R7).",
        "RECON": "The opponent announces how many cards of each theatre they hold; both players see it.",
        "Radar": "Belongs to every type: a KILL of any letter may hit it.",
        "theatre": "One of Air, Sea, Ground and Intel.",
        "battle": "One of three piles (left, centre, right): the first side to total 15 in it wins it.",
        "round": "Three battles; winning two wins the round.",
    },
}
"""The words a newcomer trips on, per game, in the words of its GUIDE.md."""

_CITATION = re.compile(r"\b(R\d{1,3})\b|(?<![\d.])([1-9]\.\d{1,2})(?![\d.%])")
_SECTION = re.compile(r"(?<![\d.])([1-9]\.\d{1,2})(?![\d.%])")
_RULING_HEADING = re.compile(r"^(R\d+)\.")
_SAFE_LINK = re.compile(r"^https?://", re.IGNORECASE)


@dataclass(frozen=True)
class Guide:
    """A game's page: the guide and the rulings as HTML, and the glossary."""

    guide_html: str
    rulings_html: str
    glossary: list[tuple[str, str]]


def term_id(term: str) -> str:
    """The anchor of a glossary entry."""
    return "term-" + re.sub(r"[^a-z0-9]+", "-", term.lower()).strip("-")


def _html(content: str) -> Token:
    token = Token("html_inline", "", 0)
    token.content = content
    return token


def _text(content: str) -> Token:
    token = Token("text", "", 0)
    token.content = content
    return token


class _Page:
    """The linking of one game's page: its rulings, the printed-rule sections they cite, its keywords."""

    def __init__(self, game_id: str, rulings: str) -> None:
        self.game_id = game_id
        self.rulings = set(re.findall(r"^## (R\d+)\.", rulings, re.MULTILINE))
        # "3.4" -> the first ruling whose heading cites that section of the printed rules, else the first
        # that quotes it (the printed text is not shipped: a ruling's *Text* bullet quotes what it rules on);
        # only in a game whose ruling headings cite sections at all
        self.sections: dict[str, str] = {}
        parts = re.split(r"^## (R\d+)\.", rulings, flags=re.MULTILINE)
        bodies = list(zip(parts[1::2], parts[2::2], strict=True))
        for name, body in bodies:
            for section in _SECTION.findall(body.split("\n", 1)[0]):
                self.sections.setdefault(section, name)
        for name, body in bodies if self.sections else ():  # rulings that cite no section: "1.0" is a number
            for section in _SECTION.findall(body):
                self.sections.setdefault(section, name)
        self.terms = GLOSSARY.get(game_id, {})
        words = sorted(self.terms, key=len, reverse=True)
        self.term_pattern = re.compile(r"\b(" + "|".join(map(re.escape, words)) + r")\b") if words else None

    def anchor(self, name: str) -> str:
        return f"#/rules/{self.game_id}/{name}"

    def cite(self, text: str, ruling: str) -> str:
        return (f'<a class="cite" href="{html.escape(self.anchor(ruling))}">{html.escape(text)}</a>')

    def split(self, content: str, explained: set[str]) -> list[Token]:
        """A text token's content as text, citation links and explained terms."""
        pieces: list[Token] = []
        patterns = [p for p in (_CITATION, self.term_pattern) if p is not None]
        position = 0
        while position < len(content):
            found = [m for m in (p.search(content, position) for p in patterns) if m]
            if not found:
                break
            match = min(found, key=lambda m: m.start())
            if match.start() > position:
                pieces.append(_text(content[position:match.start()]))
            pieces.append(self.piece(match, explained))
            position = match.end()
        if position < len(content):
            pieces.append(_text(content[position:]))
        return pieces

    def piece(self, match: re.Match[str], explained: set[str]) -> Token:
        text = match.group(0)
        if match.re is _CITATION:
            ruling = match.group(1) if match.group(1) in self.rulings else self.sections.get(match.group(2) or "")
            return _html(self.cite(text, ruling)) if ruling else _text(text)
        meaning = self.terms[text]
        focusable = text not in explained  # the first use in a section takes the keyboard focus
        explained.add(text)
        focus = ' tabindex="0"' if focusable else ""
        return _html(
            f'<span class="term" data-tip="{html.escape(meaning)}" aria-describedby="{term_id(text)}"{focus}>'
            f"{html.escape(text)}</span>"
        )


def _render(markdown: str, page: _Page, prefix: str) -> str:
    """One Markdown file as safe HTML: heading anchors (a ruling's is its name, `R31`), citations, terms."""
    parser = MarkdownIt("commonmark", {"html": False}).enable("table")
    tokens = parser.parse(markdown)
    explained: set[str] = set()
    heading: Token | None = None
    used: set[str] = set()
    for token in tokens:
        if token.type in ("heading_open", "heading_close"):  # one level down: the page's own title is the h1
            token.tag = f"h{min(6, int(token.tag[1:]) + 1)}"
        if token.type == "heading_open":
            heading = token
            explained = set()
            continue
        if token.type != "inline" or token.children is None:
            continue
        if heading is not None:
            title = "".join(child.content for child in token.children)
            ruling = _RULING_HEADING.match(title)
            slug = ruling.group(1) if ruling else f"{prefix}-" + re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")
            while slug in used:
                slug += "-2"
            used.add(slug)
            heading.attrSet("id", slug)
            heading.attrSet("tabindex", "-1")
            heading = None
            continue
        token.children = _rewrite(token.children, page, explained)
    return str(parser.renderer.render(tokens, parser.options, {}))


def _rewrite(children: list[Token], page: _Page, explained: set[str]) -> list[Token]:
    out: list[Token] = []
    in_link = 0
    dropped_link = 0
    for child in children:
        if child.type == "link_open":
            if _SAFE_LINK.match(str(child.attrGet("href") or "")):
                in_link += 1
                child.attrSet("rel", "noopener noreferrer")
                out.append(child)
            else:
                dropped_link += 1  # a path inside the repository: shown as its text
            continue
        if child.type == "link_close":
            if dropped_link:
                dropped_link -= 1
            else:
                in_link -= 1
                out.append(child)
            continue
        if child.type == "image":
            alt = "".join(c.content for c in child.children or [])
            out.append(_html(f'<em class="image-note">(picture: {html.escape(alt)})</em>'))
            continue
        if child.type == "text" and not in_link:
            out.extend(page.split(child.content, explained))
            continue
        out.append(child)
    return out


@cache
def game_guide(game_id: str) -> Guide:
    """The game's page (built once per game: the files do not change while serving)."""
    game = shared_game(game_id, {})
    rulings = rulings_text(game)
    page = _Page(game.game_id, rulings)
    return Guide(
        guide_html=_render(guide_text(game), page, "guide"),
        rulings_html=_render(rulings, page, "rulings"),
        glossary=sorted(page.terms.items(), key=lambda item: item[0].lower()),
    )


def typical_length(game_id: str) -> str | None:
    """What the lobby says of a game's length, from the measured median (None for a game not measured)."""
    moves = TYPICAL_MOVES.get(game_id)
    if moves is None:
        return None
    return f"about {moves} moves of yours (median of 7 bot games)"
