"""In the Year of the Dragon's rules as a player reads them on /rules/dragon (the final tally
mode's too): the project's own short text of each rule the app checks, with the numbers it
uses (from data.py) and the Hungarian rulebook's section to look up. Sections as
docs/rules/dragon.md numbers them."""
from __future__ import annotations

from scoring.base import RuleSection, hu_rulebook
from scoring.dragon.data import (CONTAGION, FESTIVAL_POINTS, GROUP_SIZES, MAX_FLOORS, REFILL_TO, SHARED_GROUP_FEE,
                                 SMALL_PRIVILEGE, START_YUAN, TRIBUTE)
from scoring.i18n import msg, msgp


_groups = "; ".join(f"{n}: {'/'.join(str(s) for s in sizes)}" for n, sizes in GROUP_SIZES.items())

SECTIONS = (
    RuleSection("2", msg("Players and seat order"), (
        msg("2–5 players, in seat order starting with the oldest, who begins the recruitment."),),
        hu_rulebook("Előkészületek")),
    RuleSection("3", msg("Person tiles"), (
        msg("10 tiles per type with 5 players, 8/6/4 with 4/3/2; a tile the supply no longer holds cannot be taken."),),
        hu_rulebook("Tartozékok, Előkészületek")),
    RuleSection("4", msg("The event row"), (
        msg("Months 1–2 are peace; the ten tiles of months 3–12: tribute, drought, festival, Mongols, contagion, each exactly twice, no two alike side by side."),),
        hu_rulebook("Eseménylapkák")),
    RuleSection("5", msg("Start and palaces"), (
        msg("Each player: 2 palaces of 2 floors, %(START_YUAN)s yuan, 11 person cards. A palace has at most %(MAX_FLOORS)s floors, one person per floor.", START_YUAN=START_YUAN, MAX_FLOORS=MAX_FLOORS),),
        hu_rulebook("Előkészületek")),
    RuleSection("6", msgp("rule title", "Opening recruitment"), (
        msg("In seat order each player takes 2 different young persons; a pair taken earlier is refused."),),
        hu_rulebook("Előkészületek")),
    RuleSection("7", msg("The month's steps and order"), (
        msg("Deal, actions (with a build), persons (months 1–11), event, decay and scoring, in this order; another step is refused, naming the one due."),
        msg("Order is the person track's: further ahead goes first; on one space, the later arrival.")),
        hu_rulebook("1. fázis")),
    RuleSection("8", msg("Deal"), (
        msg("The 7 action cards' groups by player count: %(_groups)s.", _groups=_groups),),
        hu_rulebook("1. fázis")),
    RuleSection("9", msg("Actions"), (
        msg("A group that already holds a dragon costs %(SHARED_GROUP_FEE)s yuan first; money never goes below zero.", SHARED_GROUP_FEE=SHARED_GROUP_FEE),
        msg("Instead of an action the purse may be topped up to %(REFILL_TO)s yuan; a player who already has that much passes this way: no action, and no money.", REFILL_TO=REFILL_TO)),
        hu_rulebook("1. fázis, Az akciók részletezése")),
    RuleSection("10", msgp("rule title", "Privilege"), (
        msg("Small for %(SMALL_PRIVILEGE)s yuan (1 dragon), large for 6 (2007 edition) or 7 (2 dragons).", SMALL_PRIVILEGE=SMALL_PRIVILEGE),),
        hu_rulebook("Kiváltságjog")),
    RuleSection("11", msgp("rule title", "Build"), (
        msg("Exactly this action's floors are placed, new floors only; no palace may exceed %(MAX_FLOORS)s floors.", MAX_FLOORS=MAX_FLOORS),),
        hu_rulebook("Építmény")),
    RuleSection("12", msg("Person phase"), (
        msg("Each card once; while a floor is free the person moves in there; only a full court may replace or send away."),),
        hu_rulebook("2. fázis")),
    RuleSection("13", msg("The event and releases"), (
        msg("When you choose whom to release, you name exactly as many as the event asks."),),
        hu_rulebook("3. fázis")),
    RuleSection("14", msgp("rule title", "Imperial tribute"), (
        msg("Everyone pays %(TRIBUTE)s yuan; each missing yuan releases one person.", TRIBUTE=TRIBUTE),),
        hu_rulebook("Császári hűbér")),
    RuleSection("15", msg("Drought"), (
        msg("One rice per inhabited palace; for each palace not supplied, one person from a different palace."),),
        hu_rulebook("Aszály")),
    RuleSection("16", msg("Dragon festival"), (
        msg("Most fireworks %(value)s, second %(value2)s points; then the scorers return half their tiles, rounded up.", value=FESTIVAL_POINTS[0], value2=FESTIVAL_POINTS[1]),),
        hu_rulebook("Sárkányfesztivál")),
    RuleSection("17", msg("Mongol invasion"), (
        msg("Everyone scores their helmets; the fewest helmets release one person."),),
        hu_rulebook("Mongol támadás")),
    RuleSection("18", msgp("rule title", "Contagion"), (
        msg("Each releases %(CONTAGION)s persons, one fewer per mortar on their healers.", CONTAGION=CONTAGION),),
        hu_rulebook("Fertőzés")),
    RuleSection("19", msg("Decay and scoring"), (
        msg("An uninhabited palace loses a floor; each month 1 point per palace, court lady and privilege dragon."),),
        hu_rulebook("Hanyatlás, 4. fázis")),
    RuleSection("20", msg("End of the game"), (
        msg("2 points per person; a monk: Buddhas × his palace's floors; rice and fireworks sell for 2 yuan, then 1 point per 3 yuan."),
        msg("A tie goes to the player further ahead on the person track.")),
        hu_rulebook("A játék vége")),
    RuleSection("22", msg("Final tally mode"), (
        msg("One entry per player: points so far, yuan, rice, fireworks, track position and palaces; the same limits on palaces and tiles apply."),)),
    RuleSection("23", msg("The phone form"), (
        msg("The form offers only the current step; a field it cannot read is refused beside the form."),)),
    RuleSection("24", msg("Ranks and rules versions"), (
        msg("During play equal scores share a rank; the tie-break decides only a finished game."),)),
)
