"""Five Tribes' rules as a player reads them on /rules/five-tribes: the project's own short
text of each rule the app checks, with the numbers it uses (from data.py) and the section
of the printed rulebook to look up. Sections as docs/rules/five-tribes.md numbers them."""
from __future__ import annotations

from scoring.base import RuleSection
from scoring.five_tribes.data import (BID_SPOTS, DJINNS, PALACES, PALM_TREES, PAYMENT_LABELS, START_GOLD,
                                      SUIT_VALUES, TILES, TRIBES, camels_per_player)
from scoring.i18n import LANGS, msg


def _cost(djinn: dict) -> dict:
    """A djinn's price to use its power: "—" for a passive djinn, else the ways to pay."""
    if not djinn["cost"]:
        return msg("— (always on)")
    return {lang: " / ".join(PAYMENT_LABELS[p][lang] for p in djinn["cost"]) for lang in LANGS}


DJINN_TABLE = ((msg("Djinn"), msg("VP"), msg("Cost to use"), msg("Power")),
               ) + tuple((name, d["vp"], _cost(d), d["power"]) for name, d in DJINNS.items())

_tiles = {lang: ", ".join(f"{t['label'][lang]} {t['count']} × {t['vp']}" for t in TILES.values())
          for lang in LANGS}
_tribes = {lang: ", ".join(f"{t['count']} {t['label'][lang]}" for t in TRIBES.values()) for lang in LANGS}
_spots = ", ".join(str(s) for s in BID_SPOTS)
_suits = "-".join(str(v) for v in SUIT_VALUES[1:])

SECTIONS = (
    RuleSection("1", msg("Components"), (
        msg("30 tiles (name × VP): %(_tiles)s.", _tiles=_tiles),
        msg("90 meeples: %(_tribes)s.", _tribes=_tribes),
        msg("%(PALM_TREES)s palm trees, %(PALACES)s palaces; %(START_GOLD)s gold per player; %(value)s camels with 3–4 players, %(value2)s with 2.", PALM_TREES=PALM_TREES, PALACES=PALACES, START_GOLD=START_GOLD, value=camels_per_player(3), value2=camels_per_player(2))),
        msg("Rulebook: Components")),
    RuleSection("2", msg("Set-up"), (
        msg("The 30 tiles lie in 5 rows of 6 (A1–F5), 3 meeples on each."),
        msg("Any other mix of tiles or count of meeple colours cannot start the game; the refusal says what is off and by how much.")),
        msg("Rulebook: Set-up")),
    RuleSection("3", msg("Bid for turn order"), (
        msg("The turn order track's prices: %(_spots)s. A taken spot cannot be bid, except 0, which holds up to 3 markers.", _spots=_spots),
        msg("The gold is paid at once and never goes below zero. A higher price plays first; among 0 bids the later bidder plays first."),
        msg("Kumarbi: each fakir discarded lowers the price by one spot.")),
        msg("Rulebook: A round, 1")),
    RuleSection("4", msg("The move"), (
        msg("As many steps as meeples picked up; each step drops one meeple."),
        msg("Only to a tile beside the last one, never diagonally, never straight back; coming back later, after a loop, is allowed."),
        msg("The last meeple goes where one of its colour stands; you take every meeple of that colour there (at least 2). An emptied tile nobody owns gets your camel."),
        msg("Builders: gold = the blue tiles in the 3 × 3 block around the end tile (the tile included) × (builders + fakirs discarded). Echidna (a paid power, §6) doubles it this turn."),
        msg("Assassins: one victim within (assassins + fakirs discarded) steps, not diagonally, or an opponent's vizier or elder (Boaz protects them). Iblis (a paid power, §6) allows two victims, on one tile or of one opponent."),
        msg("Kandicha (always on): when your assassins kill a builder you get the gold one builder would earn on its tile: the blue tiles in the 3 × 3 block around it (× 2 if you used Echidna this turn); a killed vizier or elder is yours to keep; a merchant gives you the card drawn.")),
        msg("Rulebook: A round, 2.2–2.4")),
    RuleSection("5", msg("Tile action and selling"), (
        msg("Oasis → palm tree, Village → palace: compulsory while the supply lasts. Small market: 3 gold for 1 card of the first 3. Large market: 6 gold for 2 cards of the first 6 (1 only if just 1 is left). Sacred place: a djinn for 2 elders or 1 elder + 1 fakir."),
        msg("Goods are sold after all actions; after a sale no tile action. A suit is worth, by its number of kinds: %(_suits)s. Fakirs cannot be sold.", _suits=_suits)),
        msg("Rulebook: A round, 2.5 and 2.6")),
    RuleSection("6", msg("Djinns"), (
        msg("A paid power is used by its owner on their own turn, at most once per round, paying its cost; with 2 players both turns of the round count together."),
        msg("The other djinns are always on (cost: —). All 22 djinns with their VP, cost to use and power:")),
        msg("Rulebook: 2.5 and the djinns' aid sheet"),
        table=DJINN_TABLE),
    RuleSection("7", msg("Nothing owned twice"), (
        msg("A djinn belongs to one player at most; a djinn taken from the display must be on it; cards of a kind never exceed the deck."),)),
    RuleSection("8", msg("Score sheet"), (
        msg("One sheet per player; the supplies count across all players: viziers ≤ 16, elders ≤ 20, palm trees ≤ 12, palaces ≤ 10."),
        msg("The game ends when every player has a sheet.")),
        msg("Rulebook: Victory points")),
    RuleSection("9", msg("Final scoring"), (
        msg("1 VP per gold; vizier 1 (Jafaar: 3), and +10 per opponent with fewer viziers; elder 2 (Shamhat: 4); djinns their VP; palm tree on own tiles 3 (Haurvatat: 5); palace on own tiles 5; the tiles' VP; merchandise suits."),
        msg("Ties share the place.")),
        msg("Rulebook: Victory points")),
    RuleSection("10", msg("End of a round and of the game"), (
        msg("At the end of a round the card row is refilled to 9 and the djinn row to 3, fewer only when none is left to draw."),
        msg("The game ends at the end of the round in which someone placed their last camel or had no legal move (the app checks it).")),
        msg("Rulebook: End of a round, End of the game")),
    RuleSection("13", msg("A move tapped on the board"), (
        msg("Only a legal step can be tapped: with the meeples tracked the app knows where a path may start and go."),)),
    RuleSection("14", msg("Rules version 2"), (
        msg("New games play rules version 2 (large market 2 cards, refill to 9 cards and 3 djinns, selling after the tile action, a djinn power once per round); older games keep version 1."),)),
)
