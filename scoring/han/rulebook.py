"""Han's rules as a player reads them on /rules/han: the project's own short text of each rule
the app checks, with the numbers it uses (from data.py) and the section of the Hungarian
rulebook to look up. Sections as docs/rules/han.md numbers them."""
from __future__ import annotations

from scoring.base import RuleSection, hu_rulebook
from scoring.han.data import (ALLIANCES, CARDS, MAX_CARDS, MAX_PIECES, PILE_SLACK, POINT_CARDS, REMOVED, SIDES,
                              SUPPLY)
from scoring.i18n import msg, msgp


_deck = sum(CARDS.values())
# A worked example of §4.1: side 1, 4 players, the pile confirmed empty early.
_first = _deck - REMOVED[(1, 4)] - 3 * 4 - SIDES[1]["face_up"]
_early, _since = _first - 10, 8

SECTIONS = (
    RuleSection("1.1", msg("Board side and players"), (
        msg("Side 1 (Border Disputes): 3–5 players; side 2 (Ways of Diplomacy): 2–4 players."),),
        hu_rulebook("Előkészületek")),
    RuleSection("1.2", msg("Start player"), (
        msg("The start player holds the emperor; turns go clockwise (to the left) from him."),),
        hu_rulebook("Játékmenet")),
    RuleSection("1.3", msgp("rule title", "Cards removed at set-up"), (
        msg("There are %(_deck)s cards. Side 2 with 4/3/2 players removes %(value)s/%(value2)s/%(value3)s; side 1 with 5 players none, with 4 %(value4)s, with 3 %(value5)s (these two are the app's decision).", _deck=_deck, value=REMOVED[2, 4], value2=REMOVED[2, 3], value3=REMOVED[2, 2], value4=REMOVED[1, 4], value5=REMOVED[1, 3]),
        msg("The first draw pile: %(_deck)s − removed − 3 cards per player − face-up cards (side 1 %(face_up)s, side 2 %(face_up2)s).", _deck=_deck, face_up=SIDES[1]['face_up'], face_up2=SIDES[2]['face_up'])),
        hu_rulebook("Előkészületek")),
    RuleSection("1.4", msg("Fortress variant"), (
        msg("Optional: one fortress per player, placed on a pagoda site; it costs one card, like a pagoda."),),
        hu_rulebook("Haladó játék: Erődök")),
    RuleSection("1.5", msg("The board profile"), (
        msg("A game starts with a board profile in which all 9 provinces have a colour: four colours twice, violet once."),),
        hu_rulebook("Játékmenet A)")),
    RuleSection("2", msg("A turn"), (
        msg("The player on turn either places pieces (A) or exchanges one card (B)."),),
        hu_rulebook("Játékmenet A) és B)")),
    RuleSection("2.1", msg("Turn order"), (
        msg("Clockwise from the start player; a move for anyone else is refused, naming both players."),),
        hu_rulebook("Játékmenet")),
    RuleSection("2.2", msg("One province"), (
        msg("In one turn you place in one province only."),),
        hu_rulebook("Játékmenet A)")),
    RuleSection("2.3", msg("The 3-2-1 rule"), (
        msg("At most %(MAX_CARDS)s cards and 1–%(MAX_PIECES)s pieces; one card of the province's colour per piece, and every card played must pay for a piece.", MAX_CARDS=MAX_CARDS, MAX_PIECES=MAX_PIECES),),
        hu_rulebook("Játékmenet A), 1. példa")),
    RuleSection("2.4", msg("Joker"), (
        msg("Two cards of one colour pay for one piece in a province of a different colour; two of the province's own colour are no joker."),),
        hu_rulebook("Játékmenet A)")),
    RuleSection("2.5", msg("An empty province"), (
        msg("An empty province takes exactly one piece: a pagoda (or a fortress). A lone fortress leaves the province empty."),),
        hu_rulebook("Játékmenet A)")),
    RuleSection("2.6", msg("Envoys"), (
        msg("Envoys in a province (all players) are at most the highest one player's pagoda count there, this turn's pagodas included."),),
        hu_rulebook("Játékmenet, Fontos; 2. és 3. példa")),
    RuleSection("2.7", msg("Border sites"), (
        msg("Side 1 only, %(border_sites)s sites: the pagoda counts in both provinces; it costs one card of each province or two of one of them.", border_sites=SIDES[1]['border_sites']),),
        hu_rulebook("Játékmenet A)")),
    RuleSection("2.8", msg("Harbours"), (
        msg("Side 1 only, %(harbours)s sites; a harbour pagoda counts in its province and in the harbour scoring.", harbours=SIDES[1]['harbours']),),
        hu_rulebook("Játékmenet A)")),
    RuleSection("2.9", msg("Pagoda sites"), (
        msg("One pagoda per site; a full province takes no more pagodas."),),
        hu_rulebook("Játékmenet A)")),
    RuleSection("2.10", msg("Supply"), (
        msg("Each player has %(pagoda)s pagodas, %(envoy)s envoys (and %(fortress)s fortress in the variant); what has run out cannot be placed.", pagoda=SUPPLY['pagoda'], envoy=SUPPLY['envoy'], fortress=SUPPLY['fortress']),),
        hu_rulebook("Tartozékok")),
    RuleSection("2.11", msg("Fortress"), (
        msg("It goes on an empty site; a pagoda goes on top, by its owner in the same turn or later by anyone. While a fortress lacks its pagoda, the province is not full."),),
        hu_rulebook("Haladó játék: Erődök")),
    RuleSection("2.12", msg("Card exchange"), (
        msg("Exactly one card is exchanged; the turn passes."),),
        hu_rulebook("Játékmenet B)")),
    RuleSection("2.13", msg("Draw pile"), (
        msg("The table records when the draw pile runs out; the first time the discards are reshuffled (§4.1)."),),
        hu_rulebook("Kártyahúzás")),
    RuleSection("3.1", msg("Pagoda scoring"), (
        msg("Only players with at least 1 pagoda score: first gets every pagoda in the province, rank k the count of rank k−1. Ties share the rank."),),
        hu_rulebook("A pagodák kiértékelése, 4. és 5. példa")),
    RuleSection("3.2", msg("When"), (
        msg("The moment a province's sites are all filled: by itself when the profile knows the sites, otherwise the table confirms it."),),
        hu_rulebook("A pagodák kiértékelése")),
    RuleSection("3.3", msg("Final scoring order"), (
        msg("1. unscored provinces, 2. harbours (side 1), 3. alliances 1–%(ALLIANCES)s, 4. roads.", ALLIANCES=ALLIANCES),),
        hu_rulebook("Végső értékelés")),
    RuleSection("3.4", msg("Harbours"), (
        msg("The harbour pagodas score as one more province, by the same formula."),),
        msg("EN rulebook")),
    RuleSection("3.5", msg("Alliances"), (
        msg("In order 1 to %(ALLIANCES)s: a player with an envoy majority (ties included) in both provinces scores every envoy in the two.", ALLIANCES=ALLIANCES),
        msg("Alliances the profile lacks are entered at the final scoring (or any time before it); the profile keeps them, and the next game on this board asks none."),),
        hu_rulebook("Végső értékelés, 6. példa")),
    RuleSection("3.6", msg("Roads"), (
        msg("An unbroken chain of at least 4 own pagodas along a road scores 1 per pagoda; a pagoda counts in one chain only."),),
        hu_rulebook("Végső értékelés, 7. példa")),
    RuleSection("3.7", msg("Fortress doubling"), (
        msg("The owner of the pagoda on a fortress scores double in the province, the harbours and the one chain that holds it."),),
        hu_rulebook("Haladó játék: Erődök")),
    RuleSection("3.8", msg("Point cards"), (
        msg("The app says when a player reaches %(value)s and %(value2)s points: take a point card.", value=POINT_CARDS[0], value2=POINT_CARDS[1]),),
        hu_rulebook("Pontsáv")),
    RuleSection("3.9", msg("Winner"), (
        msg("Most points; a tie goes to the most unplaced pagodas + envoys + fortresses."),),
        hu_rulebook("Az új császár")),
    RuleSection("4", msg("End of the game"), (
        msg("The game has ended: no more moves are recorded; Undo reopens it."),),
        hu_rulebook("A játék vége")),
    RuleSection("4.1", msg("The draw pile runs out"), (
        msg("Every card played or exchanged is replaced by one drawn, so the app expects in the draw pile: the first pile less every card drawn."),
        msg("A run-out more than %(PILE_SLACK)s cards from that count needs the table's confirmation, recorded with the event.", PILE_SLACK=PILE_SLACK),
        msg("After the first run-out (early and confirmed or not) the new pile is every card played or exchanged until then, reshuffled; each card drawn since is taken from it."),
        msg("For example side 1, 4 players: the first pile is %(_first)s. If it runs out (confirmed) after %(_early)s cards drawn, the new pile is %(_early)s cards; after %(_since)s more draws the app expects %(value)s.", _first=_first, _early=_early, _since=_since, value=_early - _since),
        msg("After the second run-out the round is finished: until the turn would return to the start player.")),
        hu_rulebook("A játék vége, Kártyahúzás")),
    RuleSection("4.2", msg("Nobody can place"), (
        msg("When nobody can place a pagoda or envoy the table ends the game; while someone still can, only with a confirmation and a reason."),),
        hu_rulebook("A játék vége")),
    RuleSection("4.3", msg("Disputed second trigger"), (
        msg("Option (off by default): when a player has placed every piece, the last round starts."),)),
    RuleSection("5", msgp("Han", "Final tally mode"), (
        msg("Pagodas and envoys per province and player; never fewer than already recorded, nor more than the supply or the sites."),),
        hu_rulebook("Végső értékelés")),
    RuleSection("6", msg("Board profiles"), (
        msg("The board's facts are published nowhere: the profile holds the 9 provinces (with colours), the %(ALLIANCES)s alliances, the border sites, harbours and roads; every save is a new version. What is unknown the table enters once, into the profile's next version.", ALLIANCES=ALLIANCES),)),
)
