"""Options of Cards of War (`load_game("cards-of-war", ...)`) and the game's fixed numbers."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from warcards.engine.options import OptionSpec
from warcards.engine.params import ParamSpec, param_values

HAND_SIZE = 8  # SETUP: "players are dealt eight cards each"
TACTICAL_HAND_SIZE = 9  # Tactical advantage: "play the next round with a 9 card hand"
BATTLE_TARGET = 15  # WINNING A BATTLE: "The first player to reach a total of 15 points"
EXHAUSTED_HAND = 3  # Strategic exhaustion: "once a player reduces his opponent to a three card hand, he wins"
LONG_GAME_LEAD = 3  # Long game: "until one person wins three rounds more than the other player"
ROUNDS_TO_WIN_NORMAL = 2  # Normal game: "The player winning at least 2 of the 3 rounds wins"
NORMAL_GAME_ROUNDS = 3
LONG_GAME_ROUND_CAP: Final = 99  # ruling R22: the long game is cut off after this many rounds
STALL_LIMIT: Final = 40  # ruling R11: this many moves in a row without a card scoring settle the round
ROUND_MOVE_CAP: Final = 400  # ruling R22: at most this many moves (deployments and passes) in one round
ROUND_ACTION_BOUND = 2 * ROUND_MOVE_CAP + 40  # actions in one round: each move, its draws, the deal
LENGTHS = ("short", "normal", "long")

OPTIONS: list[OptionSpec] = [
    OptionSpec("players", 2, "number of players (Cards of War is a two-player game)", allowed=[2]),
    OptionSpec("length", "normal", "short (one round), normal (best of three rounds), long (lead by three)",
               allowed=list(LENGTHS)),
    OptionSpec("alternative_reinforce", False,
               "optional rule: REINFORCE deploys the newly drawn card or the top discard", allowed=[False, True]),
    OptionSpec("theatres_of_war", False,
               "optional rule: the first card into a battle fixes its theatre; only that theatre scores",
               allowed=[False, True]),
    OptionSpec("tactical_advantage", False,
               "optional rule: winning all three battles gives a 9-card hand next round", allowed=[False, True]),
    OptionSpec("strategic_exhaustion", False,
               "optional rule (long game only, instead of tactical advantage): losing 3-0 costs a card of "
               "hand size; reduced to three cards loses", allowed=[False, True]),
    OptionSpec("joint_deployment", False,
               "optional rule: the named pairs may be deployed together into adjacent battles",
               allowed=[False, True]),
    OptionSpec("decks", 1, "1 (one common deck and discard pile) or 2 (the 2-deck version: one deck each)",
               allowed=[1, 2]),
    OptionSpec("cards", None, "path of a deck file in the format of docs/cards/cards-of-war-deck-format.md: a "
               "regular UTF-8 file of at most 1 MiB, 24-500 cards (None: the shipped stand-in deck; '' is refused)"),
]


# ----- rule parameters (docs/tuning.md): the numbers above that a designer may vary --------------------------
@dataclass(frozen=True)
class Numbers:
    """The rule text's numbers a game plays with (`game.numbers`): the defaults, or its changed parameters."""

    hand_size: int = HAND_SIZE
    tactical_hand_size: int = TACTICAL_HAND_SIZE
    battle_target: int = BATTLE_TARGET
    exhausted_hand: int = EXHAUSTED_HAND
    long_game_lead: int = LONG_GAME_LEAD
    normal_rounds: int = NORMAL_GAME_ROUNDS

    def __reduce__(self) -> tuple[type[Numbers], tuple[int, ...]]:
        """Pickled as the constructor and its fields: a frozen dataclass compiled by mypyc cannot be rebuilt
        the default way (it sets each field on a blank object and fails as frozen)."""
        return (Numbers, (self.hand_size, self.tactical_hand_size, self.battle_target, self.exhausted_hand,
                          self.long_game_lead, self.normal_rounds))

    @property
    def rounds_to_win(self) -> int:
        """Normal game: "The player winning at least 2 of the 3 rounds wins" — a majority of the rounds."""
        return self.normal_rounds // 2 + 1


def parameters(options: Mapping[str, Any]) -> list[ParamSpec]:
    """The numbers of the rule text a designer may vary with these options (each optional rule's own number
    only when the rule is on)."""
    specs = [
        ParamSpec("hand_size", HAND_SIZE, 4, 12, "cards dealt to each player", "SETUP"),
        ParamSpec("battle_target", BATTLE_TARGET, 5, 40, "points that win a battle", "WINNING A BATTLE"),
    ]
    if options["length"] == "normal":
        specs.append(ParamSpec("normal_rounds", NORMAL_GAME_ROUNDS, 1, 9,
                               "rounds of a normal game (the winner takes a majority of them)", "WINNING THE GAME"))
    if options["length"] == "long":
        specs.append(ParamSpec("long_game_lead", LONG_GAME_LEAD, 1, 6, "the lead in rounds that wins a long game",
                               "WINNING THE GAME"))
    if options["tactical_advantage"]:
        specs.append(ParamSpec("tactical_hand_size", TACTICAL_HAND_SIZE, 4, 13,
                               "the hand of a player who won all three battles", "Tactical advantage"))
    if options["strategic_exhaustion"]:
        specs.append(ParamSpec("exhausted_hand", EXHAUSTED_HAND, 1, 7, "the hand size that loses the long game",
                               "Strategic exhaustion"))
    return specs


def numbers_of(options: Mapping[str, Any]) -> Numbers:
    """The numbers of a game with these resolved options (the rule text's, with the changed parameters)."""
    if not options.get("params"):
        return Numbers()
    return Numbers(**param_values(parameters(options), options))
