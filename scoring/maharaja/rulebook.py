"""Maharaja's rules as a player reads them on /rules/maharaja: the project's own short text of
each rule the app checks, with the numbers it uses (from data.py) and the section of the
Hungarian rulebook (HU n.n) to look up. Sections as docs/rules/maharaja.md numbers them."""
from __future__ import annotations

from scoring.base import RuleSection, hu_rulebook
from scoring.i18n import msg, msgp
from scoring.maharaja.data import (ARTIST_PALACE_COST, HOUSE_COST, HOUSES_PER_COLOUR, INNER_POINTS, MONOPOLY_BONUS,
                                   OUTER_SITES, PALACE_COST, PAYOUTS, RENOUNCE_GOLD, SHORT_GAME_ROUNDS, START_GOLD,
                                   START_HOUSES, START_RESERVE, VILLAGES)


PAYOUT_TABLE = ((msg("Players"), "1.", "2.", "3.", "4.", "5."),) + tuple(
    (n,) + row + ("",) * (5 - len(row)) for n, row in PAYOUTS.items())

SECTIONS = (
    RuleSection("1", msg("What the app keeps"), (
        msg("Cities are A–G and villages 1–%(VILLAGES)s: the table agrees once which printed village is which number.", VILLAGES=VILLAGES),),
        hu_rulebook("2.0, 3.1")),
    RuleSection("2", msg("Options"), (
        msg("Short game, Yogi and action chips, character auction, neutral palaces with fewer than 5 players (on by default), homes, secret gold."),),
        hu_rulebook("11")),
    RuleSection("3", msg("The governor track at set-up"), (
        msg("The 7 governors in their shuffled order, each letter exactly once."),),
        hu_rulebook("3.2")),
    RuleSection("4", msg("Choosing characters"), (
        msg("Players choose in seat order; with the auction the winner pays at most the gold he has; the last one chooses free."),),
        hu_rulebook("5.1, 11.2.5")),
    RuleSection("5", msg("Starting houses"), (
        msg("%(START_HOUSES)s starting houses each, one at a time in character order, villages only; a village holds 2 houses (1 with 2 players).", START_HOUSES=START_HOUSES),
        msg("Then everyone gets %(START_RESERVE)s houses into reserve and %(START_GOLD)s gold.", START_RESERVE=START_RESERVE, START_GOLD=START_GOLD)),
        hu_rulebook("5.2, 4.0")),
    RuleSection("6", msg("A round and whose turn it is"), (
        msg("The Maharaja moves to the lowest governor's city; then each player acts once, in character order; then the city is evaluated."),
        msg("The app knows whose turn it is and refuses a move for anyone else, naming both.")),
        hu_rulebook("6.0, 6.1, 7.6, 9.0")),
    RuleSection("7", msgp("Maharaja", "Actions"), (
        msg("You reveal two actions (the same one twice is allowed), then carry out their parts in any order; a part you did not set cannot be done."),
        msg("A house costs %(HOUSE_COST)s gold; a palace %(PALACE_COST)s gold (Artist: %(ARTIST_PALACE_COST)s); two palaces need 2 × %(PALACE_COST)s = %(value)s gold.", HOUSE_COST=HOUSE_COST, PALACE_COST=PALACE_COST, ARTIST_PALACE_COST=ARTIST_PALACE_COST, value=2 * PALACE_COST)),
        hu_rulebook("6.2, 6.3, 7.0")),
    RuleSection("8", msgp("rule title", "Travel"), (
        msg("The architect travels to a city through at least one village; a village without houses blocks the way."),
        msg("In a village without a house of your own you pay 1 gold per house to its owner (for the Wandering Monk the bank pays).")),
        hu_rulebook("7.1, 4.0")),
    RuleSection("9", msg("Building and gold"), (
        msg("You build in a city only where your architect stands; a city has 1 inner and %(OUTER_SITES)s outer palace sites.", OUTER_SITES=OUTER_SITES),
        msg("Gold never goes below zero: what you cannot pay is refused with the price and your gold.")),
        hu_rulebook("7.2, 4.0")),
    RuleSection("10", msg("Moving a house, the quarry"), (
        msg("Only your own house can be moved. The quarry brings 2 houses from the bank (%(HOUSES_PER_COLOUR)s houses per colour).", HOUSES_PER_COLOUR=HOUSES_PER_COLOUR),),
        hu_rulebook("7.3, 7.4, 2.0")),
    RuleSection("11", msg("The governor track during play"), (
        msg("One governor goes two boxes down, those passed go up one; there must be a box two below."),),
        hu_rulebook("7.5")),
    RuleSection("12", msg("Characters and the swap"), (
        msg("1 Mogul: acts first, wins ties; 2 Trader: +1 gold; 3 Sadhu: outer palaces count 2; 4 Wandering Monk: travels free; 5 Builder: 1 free house a turn; 6 Artist: cheaper palace; 7 Yogi: an action chip."),
        msg("A player who lost his character in a swap picks one from the bank at once.")),
        hu_rulebook("5.1, 7.6")),
    RuleSection("13", msg("Action chips"), (
        msg("A chip gives a third action at most once a round, never the character swap."),),
        hu_rulebook("11.2.2, 11.2.3")),
    RuleSection("14", msg("Renouncing"), (
        msg("Ending a turn with parts left is asked first; then every other player gets %(RENOUNCE_GOLD)s gold.", RENOUNCE_GOLD=RENOUNCE_GOLD),),
        hu_rulebook("7.7")),
    RuleSection("15", msg("The city evaluation"), (
        msg("Points in the Maharaja's city: architect 1, house 1, outer palace 1 (Sadhu 2), inner palace %(INNER_POINTS)s.", INNER_POINTS=INNER_POINTS),
        msg("Gold by rank (table); ties go to the lower character number; 0 points: nothing; the only one present +%(MONOPOLY_BONUS)s.", MONOPOLY_BONUS=MONOPOLY_BONUS)),
        hu_rulebook("8.0, 12.6"), table=PAYOUT_TABLE),
    RuleSection("16", msg("End and winner"), (
        msg("The game ends after the evaluation of the round in which someone built his last palace or a governor reached box 10; the short game also after round %(SHORT_GAME_ROUNDS)s.", SHORT_GAME_ROUNDS=SHORT_GAME_ROUNDS),
        msg("Most palaces wins; tie: most gold, then the lower character number.")),
        hu_rulebook("10.0, 11.1")),
    RuleSection("17", msg("The city-board profile"), (
        msg("Optional: the cities' names and colours, the villages' names and the roads. With roads a journey must reach the city through the villages entered."),),
        hu_rulebook("3.1")),
)
