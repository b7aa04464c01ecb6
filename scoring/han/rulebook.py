"""Han's rules as a player reads them on /rules/han: the project's own short text of each rule
the app checks, with the numbers it uses (from data.py) and the section of the Hungarian
rulebook to look up. Sections as docs/rules/han.md numbers them."""
from __future__ import annotations

from scoring.base import RuleSection, hu_rulebook, text
from scoring.han.data import (ALLIANCES, CARDS, MAX_CARDS, MAX_PIECES, PILE_SLACK, POINT_CARDS, REMOVED, SIDES,
                              SUPPLY)


_deck = sum(CARDS.values())
# A worked example of §4.1: side 1, 4 players, the pile confirmed empty early.
_first = _deck - REMOVED[(1, 4)] - 3 * 4 - SIDES[1]["face_up"]
_early, _since = _first - 10, 8

SECTIONS = (
    RuleSection("1.1", text("Táblaoldal és játékosszám", "Board side and players"), (
        text("1. oldal (Határviták): 3–5 játékos; 2. oldal (A diplomácia útvonalai): 2–4 játékos.",
             "Side 1 (Border Disputes): 3–5 players; side 2 (Ways of Diplomacy): 2–4 players."),),
        hu_rulebook("Előkészületek")),
    RuleSection("1.2", text("Kezdőjátékos", "Start player"), (
        text("A kezdőjátékosnál van a császár; tőle balra, az óramutató irányában haladtok.",
             "The start player holds the emperor; turns go clockwise (to the left) from him."),),
        hu_rulebook("Játékmenet")),
    RuleSection("1.3", text("Félretett lapok", "Cards removed at set-up"), (
        text(f"{_deck} lap van. 2. oldal 4/3/2 játékossal {REMOVED[(2, 4)]}/{REMOVED[(2, 3)]}/{REMOVED[(2, 2)]} lap; 1. oldal 5 játékossal egy sem, "
             f"4-gyel {REMOVED[(1, 4)]}, 3-mal {REMOVED[(1, 3)]} (ez utóbbi kettő az app döntése).",
             f"There are {_deck} cards. Side 2 with 4/3/2 players removes {REMOVED[(2, 4)]}/{REMOVED[(2, 3)]}/{REMOVED[(2, 2)]}; side 1 with 5 players none, "
             f"with 4 {REMOVED[(1, 4)]}, with 3 {REMOVED[(1, 3)]} (these two are the app's decision)."),
        text(f"Az első húzópakli: {_deck} − félretett − 3 lap játékosonként − felcsapott lapok (1. oldal {SIDES[1]['face_up']}, 2. oldal {SIDES[2]['face_up']}).",
             f"The first draw pile: {_deck} − removed − 3 cards per player − face-up cards (side 1 {SIDES[1]['face_up']}, side 2 {SIDES[2]['face_up']}).")),
        hu_rulebook("Előkészületek")),
    RuleSection("1.4", text("Erődváltozat", "Fortress variant"), (
        text("Nem kötelező: játékosonként egy erőd, amely egy pagodahelyre kerül; ára egy lap, mint egy pagodáé.",
             "Optional: one fortress per player, placed on a pagoda site; it costs one card, like a pagoda."),),
        hu_rulebook("Haladó játék: Erődök")),
    RuleSection("1.5", text("A tábla-profil", "The board profile"), (
        text("A játék egy tábla-profillal indul, amelyben mind a 9 tartomány színe ismert: négy szín kétszer, a lila egyszer.",
             "A game starts with a board profile in which all 9 provinces have a colour: four colours twice, violet once."),),
        hu_rulebook("Játékmenet A)")),
    RuleSection("2", text("A kör", "A turn"), (
        text("A soron lévő játékos vagy lerak (A), vagy egy lapot cserél (B).",
             "The player on turn either places pieces (A) or exchanges one card (B)."),),
        hu_rulebook("Játékmenet A) és B)")),
    RuleSection("2.1", text("Sorrend", "Turn order"), (
        text("A kezdőjátékostól az óramutató irányában; más játékos lépését az app elutasítja, mindkettőjük nevével.",
             "Clockwise from the start player; a move for anyone else is refused, naming both players."),),
        hu_rulebook("Játékmenet")),
    RuleSection("2.2", text("Egy tartomány", "One province"), (
        text("Egy körben csak egy tartományba rakhatsz le.", "In one turn you place in one province only."),),
        hu_rulebook("Játékmenet A)")),
    RuleSection("2.3", text("A 3-2-1 szabály", "The 3-2-1 rule"), (
        text(f"Legfeljebb {MAX_CARDS} lap és 1–{MAX_PIECES} bábu; bábunként egy, a tartomány színével egyező lap, és minden kijátszott lapnak bábut kell fizetnie.",
             f"At most {MAX_CARDS} cards and 1–{MAX_PIECES} pieces; one card of the province's colour per piece, and every card played must pay for a piece."),),
        hu_rulebook("Játékmenet A), 1. példa")),
    RuleSection("2.4", text("Dzsóker", "Joker"), (
        text("Két egyforma színű lap egy bábut fizet egy más színű tartományban; két, a tartomány színével egyező lap nem dzsóker.",
             "Two cards of one colour pay for one piece in a province of a different colour; two of the province's own colour are no joker."),),
        hu_rulebook("Játékmenet A)")),
    RuleSection("2.5", text("Üres tartomány", "An empty province"), (
        text("Üres tartományba pontosan egy bábu kerülhet: egy pagoda (vagy erőd). Egy magányos erőd nem teszi a tartományt nem üressé.",
             "An empty province takes exactly one piece: a pagoda (or a fortress). A lone fortress leaves the province empty."),),
        hu_rulebook("Játékmenet A)")),
    RuleSection("2.6", text("Követek", "Envoys"), (
        text("Egy tartományban a követek száma (összesen) legfeljebb annyi, amennyi pagodája a legtöbb pagodájú játékosnak ott van, a kör pagodáival együtt.",
             "Envoys in a province (all players) are at most the highest one player's pagoda count there, this turn's pagodas included."),),
        hu_rulebook("Játékmenet, Fontos; 2. és 3. példa")),
    RuleSection("2.7", text("Határhelyek", "Border sites"), (
        text(f"Csak az 1. oldalon, {SIDES[1]['border_sites']} hely: a pagoda mindkét tartományban számít; ára a két tartomány 1-1 lapja, vagy 2 az egyikéből.",
             f"Side 1 only, {SIDES[1]['border_sites']} sites: the pagoda counts in both provinces; it costs one card of each province or two of one of them."),),
        hu_rulebook("Játékmenet A)")),
    RuleSection("2.8", text("Kikötők", "Harbours"), (
        text(f"Csak az 1. oldalon, {SIDES[1]['harbours']} hely; a kikötői pagoda a tartományában és a kikötők pontozásában is számít.",
             f"Side 1 only, {SIDES[1]['harbours']} sites; a harbour pagoda counts in its province and in the harbour scoring."),),
        hu_rulebook("Játékmenet A)")),
    RuleSection("2.9", text("Pagodahelyek", "Pagoda sites"), (
        text("Egy helyen egy pagoda; teli tartományba nem kerül több pagoda.",
             "One pagoda per site; a full province takes no more pagodas."),),
        hu_rulebook("Játékmenet A)")),
    RuleSection("2.10", text("Készlet", "Supply"), (
        text(f"Játékosonként {SUPPLY['pagoda']} pagoda, {SUPPLY['envoy']} követ (és az erődváltozatban {SUPPLY['fortress']} erőd); ami elfogyott, nem rakható le.",
             f"Each player has {SUPPLY['pagoda']} pagodas, {SUPPLY['envoy']} envoys (and {SUPPLY['fortress']} fortress in the variant); what has run out cannot be placed."),),
        hu_rulebook("Tartozékok")),
    RuleSection("2.11", text("Erőd", "Fortress"), (
        text("Üres helyre kerül; a tetejére pagoda jön, a gazdájától ugyanabban a körben vagy később bárkitől. Amíg erődön nincs pagoda, a tartomány nem telt meg.",
             "It goes on an empty site; a pagoda goes on top, by its owner in the same turn or later by anyone. While a fortress lacks its pagoda, the province is not full."),),
        hu_rulebook("Haladó játék: Erődök")),
    RuleSection("2.12", text("Lapcsere", "Card exchange"), (
        text("Pontosan egy lapot cserélsz, és a kör továbbmegy.", "Exactly one card is exchanged; the turn passes."),),
        hu_rulebook("Játékmenet B)")),
    RuleSection("2.13", text("Húzópakli", "Draw pile"), (
        text("Az asztal jegyzi be, amikor a húzópakli kifogy; az első alkalommal újrakeveritek a dobottakat (§4.1).",
             "The table records when the draw pile runs out; the first time the discards are reshuffled (§4.1)."),),
        hu_rulebook("Kártyahúzás")),
    RuleSection("3.1", text("Pagodák kiértékelése", "Pagoda scoring"), (
        text("Csak aki legalább 1 pagodával ott van: az első a tartomány összes pagodáját kapja, a k-adik a (k−1)-edik pagodáinak számát. Döntetlen: közös helyezés.",
             "Only players with at least 1 pagoda score: first gets every pagoda in the province, rank k the count of rank k−1. Ties share the rank."),),
        hu_rulebook("A pagodák kiértékelése, 4. és 5. példa")),
    RuleSection("3.2", text("Mikor", "When"), (
        text("Abban a pillanatban, amikor a tartomány minden helye megtelt: ha a profil ismeri a helyeket, magától; különben az asztal erősíti meg.",
             "The moment a province's sites are all filled: by itself when the profile knows the sites, otherwise the table confirms it."),),
        hu_rulebook("A pagodák kiértékelése")),
    RuleSection("3.3", text("A végső értékelés sorrendje", "Final scoring order"), (
        text(f"1. a ki nem értékelt tartományok, 2. a kikötők (1. oldal), 3. a szövetségek 1–{ALLIANCES}, 4. az utak.",
             f"1. unscored provinces, 2. harbours (side 1), 3. alliances 1–{ALLIANCES}, 4. roads."),),
        hu_rulebook("Végső értékelés")),
    RuleSection("3.4", text("Kikötők", "Harbours"), (
        text("A kikötői pagodák egy további tartományként pontoznak, ugyanazzal a képlettel.",
             "The harbour pagodas score as one more province, by the same formula."),),
        text("Angol szabálykönyv", "EN rulebook")),
    RuleSection("3.5", text("Szövetségek", "Alliances"), (
        text(f"Sorban 1-től {ALLIANCES}-ig: akinek mindkét tartományban követtöbbsége van (döntetlen is), az a kettő összes követét kapja pontként.",
             f"In order 1 to {ALLIANCES}: a player with an envoy majority (ties included) in both provinces scores every envoy in the two."),
        text("A profilból hiányzó szövetségeket a végső értékeléskor kell megadni (vagy bármikor előtte); a profil megjegyzi őket, a következő játszma ezen a táblán már nem kérdezi.",
             "Alliances the profile lacks are entered at the final scoring (or any time before it); the profile keeps them, and the next game on this board asks none."),),
        hu_rulebook("Végső értékelés, 6. példa")),
    RuleSection("3.6", text("Utak", "Roads"), (
        text("Egy út mentén legalább 4 saját pagodából álló megszakítatlan sor pagodánként 1 pontot ér; egy pagoda csak egy sorban számít.",
             "An unbroken chain of at least 4 own pagodas along a road scores 1 per pagoda; a pagoda counts in one chain only."),),
        hu_rulebook("Végső értékelés, 7. példa")),
    RuleSection("3.7", text("Erődített pagoda", "Fortress doubling"), (
        text("Az erődön álló pagoda gazdája duplán pontoz a tartományban, a kikötőkben és a pagodát tartalmazó egy sorban.",
             "The owner of the pagoda on a fortress scores double in the province, the harbours and the one chain that holds it."),),
        hu_rulebook("Haladó játék: Erődök")),
    RuleSection("3.8", text("Pontkártyák", "Point cards"), (
        text(f"Az app jelzi, ha valaki eléri a {POINT_CARDS[0]} és a {POINT_CARDS[1]} pontot: ilyenkor pontkártya jár.",
             f"The app says when a player reaches {POINT_CARDS[0]} and {POINT_CARDS[1]} points: take a point card."),),
        hu_rulebook("Pontsáv")),
    RuleSection("3.9", text("Győztes", "Winner"), (
        text("A legtöbb pont; döntetlennél a több le nem rakott pagoda + követ + erőd.",
             "Most points; a tie goes to the most unplaced pagodas + envoys + fortresses."),),
        hu_rulebook("Az új császár")),
    RuleSection("4", text("A játék vége", "End of the game"), (
        text("A játék véget ért: több lépés nem rögzíthető; a Visszavonás újranyitja.",
             "The game has ended: no more moves are recorded; Undo reopens it."),),
        hu_rulebook("A játék vége")),
    RuleSection("4.1", text("A húzópakli kifogy", "The draw pile runs out"), (
        text("Minden kijátszott vagy cserélt lap helyére egy húzott lap jön. Az app ezért ennyi lapot vár a húzópakliban: az első pakli mínusz minden húzott lap.",
             "Every card played or exchanged is replaced by one drawn, so the app expects in the draw pile: the first pile less every card drawn."),
        text(f"Ha a kifogyás több mint {PILE_SLACK} lappal eltér ettől, az asztalnak meg kell erősítenie; a megerősítés az eseménnyel együtt rögzül.",
             f"A run-out more than {PILE_SLACK} cards from that count needs the table's confirmation, recorded with the event."),
        text("Az első kifogyás után (akár korábban, megerősítve) az új pakli az addig kijátszott és cserélt lapok összessége, újrakeverve; ebből vonódik le minden azóta húzott lap.",
             "After the first run-out (early and confirmed or not) the new pile is every card played or exchanged until then, reshuffled; each card drawn since is taken from it."),
        text(f"Például 1. oldal, 4 játékos: első pakli {_first}. Ha {_early} húzott lap után (megerősítve) kifogy, az új pakli {_early} lap; {_since} újabb húzás után {_early - _since} lapot vár az app.",
             f"For example side 1, 4 players: the first pile is {_first}. If it runs out (confirmed) after {_early} cards drawn, the new pile is {_early} cards; after {_since} more draws the app expects {_early - _since}."),
        text("A második kifogyás után a forduló befejeződik: addig, amíg a kör vissza nem érne a kezdőjátékoshoz.",
             "After the second run-out the round is finished: until the turn would return to the start player.")),
        hu_rulebook("A játék vége, Kártyahúzás")),
    RuleSection("4.2", text("Senki sem tud lerakni", "Nobody can place"), (
        text("Ha senki sem tud pagodát vagy követet lerakni, az asztal befejezi a játékot; amíg valaki még tud, csak megerősítéssel és indokkal.",
             "When nobody can place a pagoda or envoy the table ends the game; while someone still can, only with a confirmation and a reason."),),
        hu_rulebook("A játék vége")),
    RuleSection("4.3", text("Vitatott második feltétel", "Disputed second trigger"), (
        text("Beállítás (alapból ki): ha valaki minden bábuját lerakta, indul az utolsó forduló.",
             "Option (off by default): when a player has placed every piece, the last round starts."),)),
    RuleSection("5", text("Végállás beírása", "Final tally mode"), (
        text("Tartományonként és játékosonként a pagodák és követek; nem lehet kevesebb, mint ami már rögzítve van, sem több, mint a készlet vagy a helyek.",
             "Pagodas and envoys per province and player; never fewer than already recorded, nor more than the supply or the sites."),),
        hu_rulebook("Végső értékelés")),
    RuleSection("6", text("Tábla-profilok", "Board profiles"), (
        text(f"A tábla adatai sehol sincsenek kiadva: a profil tartja a 9 tartományt (színnel), a {ALLIANCES} szövetséget, a határhelyeket, kikötőket és utakat; "
             "minden mentés új változat. Az ismeretlen részeket az asztal egyszer adja meg, és a profil következő változatába kerülnek.",
             f"The board's facts are published nowhere: the profile holds the 9 provinces (with colours), the {ALLIANCES} alliances, the border sites, harbours and roads; "
             "every save is a new version. What is unknown the table enters once, into the profile's next version."),)),
)
