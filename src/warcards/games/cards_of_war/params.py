"""Options of Cards of War (`load_game("cards-of-war", ...)`) and the game's fixed numbers."""

from __future__ import annotations

from warcards.engine.options import OptionSpec

HAND_SIZE = 8  # SETUP: "players are dealt eight cards each"
TACTICAL_HAND_SIZE = 9  # Tactical advantage: "play the next round with a 9 card hand"
BATTLE_TARGET = 15  # WINNING A BATTLE: "The first player to reach a total of 15 points"
EXHAUSTED_HAND = 3  # Strategic exhaustion: "once a player reduces his opponent to a three card hand, he wins"
LONG_GAME_LEAD = 3  # Long game: "until one person wins three rounds more than the other player"
ROUNDS_TO_WIN_NORMAL = 2  # Normal game: "The player winning at least 2 of the 3 rounds wins"
NORMAL_GAME_ROUNDS = 3
LONG_GAME_ROUND_CAP = 99  # ruling R22: the long game is cut off after this many rounds
STALL_LIMIT = 40  # ruling R11: this many moves in a row without a card scoring settle the round
ROUND_MOVE_CAP = 400  # ruling R22: at most this many moves (deployments and passes) in one round
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
