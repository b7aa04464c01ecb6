"""Maharaja's rules as a player reads them on /rules/maharaja: the project's own short text of
each rule the app checks, with the numbers it uses (from data.py) and the section of the
Hungarian rulebook (HU n.n) to look up. Sections as docs/rules/maharaja.md numbers them."""
from __future__ import annotations

from scoring.base import RuleSection, hu_rulebook, text
from scoring.maharaja.data import (ARTIST_PALACE_COST, HOUSE_COST, HOUSES_PER_COLOUR, INNER_POINTS, MONOPOLY_BONUS,
                                   OUTER_SITES, PALACE_COST, PAYOUTS, RENOUNCE_GOLD, SHORT_GAME_ROUNDS, START_GOLD,
                                   START_HOUSES, START_RESERVE, VILLAGES)


PAYOUT_TABLE = ((text("Játékosok", "Players"), "1.", "2.", "3.", "4.", "5."),) + tuple(
    (n,) + row + ("",) * (5 - len(row)) for n, row in PAYOUTS.items())

SECTIONS = (
    RuleSection("1", text("Amit az app vezet", "What the app keeps"), (
        text(f"A városok jele A–G, a falvaké 1–{VILLAGES}: az asztal egyszer megegyezik, melyik nyomtatott falu melyik szám.",
             f"Cities are A–G and villages 1–{VILLAGES}: the table agrees once which printed village is which number."),),
        hu_rulebook("2.0, 3.1")),
    RuleSection("2", text("Beállítások", "Options"), (
        text("Rövid játék, jógi és akciókorongok, karakterárverés, semleges paloták 5-nél kevesebb játékosnál (alapból be), otthonok, titkos arany.",
             "Short game, Yogi and action chips, character auction, neutral palaces with fewer than 5 players (on by default), homes, secret gold."),),
        hu_rulebook("11")),
    RuleSection("3", text("Kormányzósáv az elején", "The governor track at set-up"), (
        text("A 7 kormányzó a keverés sorrendjében, mindegyik betű pontosan egyszer.",
             "The 7 governors in their shuffled order, each letter exactly once."),),
        hu_rulebook("3.2")),
    RuleSection("4", text("Karakterválasztás", "Choosing characters"), (
        text("Ülési sorrendben választotok; árverésnél a nyertes legfeljebb annyit fizet, amennyi aranya van; az utolsó ingyen választ.",
             "Players choose in seat order; with the auction the winner pays at most the gold he has; the last one chooses free."),),
        hu_rulebook("5.1, 11.2.5")),
    RuleSection("5", text("Kezdő házak", "Starting houses"), (
        text(f"Fejenként {START_HOUSES} kezdő ház, egyenként, karaktersorrendben, csak falvakba; egy faluban 2 ház fér el (2 játékosnál 1).",
             f"{START_HOUSES} starting houses each, one at a time in character order, villages only; a village holds 2 houses (1 with 2 players)."),
        text(f"Utána mindenki {START_RESERVE} házat kap a tartalékába és {START_GOLD} aranyat.",
             f"Then everyone gets {START_RESERVE} houses into reserve and {START_GOLD} gold.")),
        hu_rulebook("5.2, 4.0")),
    RuleSection("6", text("A forduló és a soron következő", "A round and whose turn it is"), (
        text("A Maharadzsa a legalsó kormányzó városába lép; aztán karaktersorrendben mindenki egyszer cselekszik; végül a város kiértékelése.",
             "The Maharaja moves to the lowest governor's city; then each player acts once, in character order; then the city is evaluated."),
        text("Az app tudja, ki következik; más játékos lépését elutasítja, mindkettőjük nevével.",
             "The app knows whose turn it is and refuses a move for anyone else, naming both.")),
        hu_rulebook("6.0, 6.1, 7.6, 9.0")),
    RuleSection("7", text("Cselekedetek", "Actions"), (
        text("Két cselekedetet fedsz fel (ugyanaz kétszer is lehet), aztán bármilyen sorrendben végrehajtod a részeiket; be nem állított részt nem lehet.",
             "You reveal two actions (the same one twice is allowed), then carry out their parts in any order; a part you did not set cannot be done."),
        text(f"Ház {HOUSE_COST} arany; palota {PALACE_COST} arany (Művész: {ARTIST_PALACE_COST}); két palotához 2 × {PALACE_COST} = {2 * PALACE_COST} arany kell.",
             f"A house costs {HOUSE_COST} gold; a palace {PALACE_COST} gold (Artist: {ARTIST_PALACE_COST}); two palaces need 2 × {PALACE_COST} = {2 * PALACE_COST} gold.")),
        hu_rulebook("6.2, 6.3, 7.0")),
    RuleSection("8", text("Utazás", "Travel"), (
        text("Az építész városba utazik, legalább egy falun át; ház nélküli falu elzárja az utat.",
             "The architect travels to a city through at least one village; a village without houses blocks the way."),
        text("Olyan faluban, ahol nincs saját házad, házanként 1 aranyat fizetsz a gazdájának (a Vándorszerzetes helyett a bank fizet).",
             "In a village without a house of your own you pay 1 gold per house to its owner (for the Wandering Monk the bank pays).")),
        hu_rulebook("7.1, 4.0")),
    RuleSection("9", text("Építés és arany", "Building and gold"), (
        text(f"Városban csak ott építhetsz, ahol az építészed áll; egy városban 1 belső és {OUTER_SITES} külső palotahely van.",
             f"You build in a city only where your architect stands; a city has 1 inner and {OUTER_SITES} outer palace sites."),
        text("Az arany nem mehet nulla alá: amit nem tudsz kifizetni, az elutasítás az árral és az aranyaddal együtt mondja meg.",
             "Gold never goes below zero: what you cannot pay is refused with the price and your gold.")),
        hu_rulebook("7.2, 4.0")),
    RuleSection("10", text("Ház áthelyezése, kőbánya", "Moving a house, the quarry"), (
        text(f"Csak saját házat helyezhetsz át. A kőbánya 2 házat hoz a bankból (színenként {HOUSES_PER_COLOUR} ház van).",
             f"Only your own house can be moved. The quarry brings 2 houses from the bank ({HOUSES_PER_COLOUR} houses per colour)."),),
        hu_rulebook("7.3, 7.4, 2.0")),
    RuleSection("11", text("Kormányzósáv játék közben", "The governor track during play"), (
        text("Egy kormányzó két mezőt lép lefelé, az átugrottak egyet fel; kell, hogy legyen két mezővel lejjebb hely.",
             "One governor goes two boxes down, those passed go up one; there must be a box two below."),),
        hu_rulebook("7.5")),
    RuleSection("12", text("Karakterek és karaktercsere", "Characters and the swap"), (
        text("1 Mogul: elsőként lép, döntetlent nyer; 2 Kereskedő: +1 arany; 3 Szádhu: külső palotája 2 pont; 4 Vándorszerzetes: ingyen utazik; "
             "5 Kőműves: körönként 1 ingyen ház; 6 Művész: olcsóbb palota; 7 Jógi: akciókorong.",
             "1 Mogul: acts first, wins ties; 2 Trader: +1 gold; 3 Sadhu: outer palaces count 2; 4 Wandering Monk: travels free; "
             "5 Builder: 1 free house a turn; 6 Artist: cheaper palace; 7 Yogi: an action chip."),
        text("Aki csere miatt elvesztette karakterét, azonnal választ egyet a bankból.",
             "A player who lost his character in a swap picks one from the bank at once.")),
        hu_rulebook("5.1, 7.6")),
    RuleSection("13", text("Akciókorongok", "Action chips"), (
        text("Egy korong fordulónként legfeljebb egyszer ad harmadik cselekedetet, de karaktercserét soha.",
             "A chip gives a third action at most once a round, never the character swap."),),
        hu_rulebook("11.2.2, 11.2.3")),
    RuleSection("14", text("Lemondás", "Renouncing"), (
        text(f"Aki el nem végzett részekkel fejezi be a körét, az app rákérdez; utána minden más játékos {RENOUNCE_GOLD} aranyat kap.",
             f"Ending a turn with parts left is asked first; then every other player gets {RENOUNCE_GOLD} gold."),),
        hu_rulebook("7.7")),
    RuleSection("15", text("A város kiértékelése", "The city evaluation"), (
        text(f"Pont a Maharadzsa városában: építész 1, ház 1, külső palota 1 (Szádhunak 2), belső palota {INNER_POINTS}.",
             f"Points in the Maharaja's city: architect 1, house 1, outer palace 1 (Sadhu 2), inner palace {INNER_POINTS}."),
        text(f"Arany helyezés szerint (táblázat); döntetlennél az alacsonyabb karakterszám nyer; 0 pont: semmi; egyedüli jelenlévő +{MONOPOLY_BONUS}.",
             f"Gold by rank (table); ties go to the lower character number; 0 points: nothing; the only one present +{MONOPOLY_BONUS}.")),
        hu_rulebook("8.0, 12.6"), table=PAYOUT_TABLE),
    RuleSection("16", text("Vége és győztes", "End and winner"), (
        text(f"A játék annak a fordulónak a kiértékelése után ér véget, amelyben valaki megépítette utolsó palotáját, vagy egy kormányzó a 10. mezőre ért; "
             f"a rövid játék a {SHORT_GAME_ROUNDS}. forduló után is.",
             f"The game ends after the evaluation of the round in which someone built his last palace or a governor reached box 10; "
             f"the short game also after round {SHORT_GAME_ROUNDS}."),
        text("Győz a legtöbb palota; döntetlennél a több arany, aztán az alacsonyabb karakterszám.",
             "Most palaces wins; tie: most gold, then the lower character number.")),
        hu_rulebook("10.0, 11.1")),
    RuleSection("17", text("A várostábla-profil", "The city-board profile"), (
        text("Nem kötelező: a városok neve és színe, a falvak neve és az utak. Utakkal az utazásnak a városig vezető, megadott falvakon át kell haladnia.",
             "Optional: the cities' names and colours, the villages' names and the roads. With roads a journey must reach the city through the villages entered."),),
        hu_rulebook("3.1")),
)
