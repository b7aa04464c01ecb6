"""Five Tribes' rules as a player reads them on /rules/five-tribes: the project's own short
text of each rule the app checks, with the numbers it uses (from data.py) and the section
of the printed rulebook to look up. Sections as docs/rules/five-tribes.md numbers them."""
from __future__ import annotations

from scoring.base import RuleSection, text
from scoring.five_tribes.data import (BID_SPOTS, DJINNS, PALACES, PALM_TREES, PAYMENT_LABELS, START_GOLD,
                                      SUIT_VALUES, TILES, TRIBES, camels_per_player)


def _cost(djinn: dict) -> dict:
    """A djinn's price to use its power: "—" for a passive djinn, else the ways to pay."""
    if not djinn["cost"]:
        return text("— (mindig hat)", "— (always on)")
    return {lang: " / ".join(PAYMENT_LABELS[p][lang] for p in djinn["cost"]) for lang in ("hu", "en")}


DJINN_TABLE = ((text("Dzsinn", "Djinn"), text("GyP", "VP"), text("Használat ára", "Cost to use"), text("Képesség", "Power")),
               ) + tuple((name, d["vp"], _cost(d), d["power"]) for name, d in DJINNS.items())

_tiles = {lang: ", ".join(f"{t['label'][lang]} {t['count']} × {t['vp']}" for t in TILES.values())
          for lang in ("hu", "en")}
_tribes = {lang: ", ".join(f"{t['count']} {t['label'][lang]}" for t in TRIBES.values()) for lang in ("hu", "en")}
_spots = ", ".join(str(s) for s in BID_SPOTS)
_suits = "-".join(str(v) for v in SUIT_VALUES[1:])

SECTIONS = (
    RuleSection("1", text("Alkatrészek", "Components"), (
        text(f"30 lapka (név × GyP): {_tiles['hu']}.", f"30 tiles (name × VP): {_tiles['en']}."),
        text(f"90 figura: {_tribes['hu']}.", f"90 meeples: {_tribes['en']}."),
        text(f"{PALM_TREES} pálmafa, {PALACES} palota; játékosonként {START_GOLD} arany; "
             f"{camels_per_player(3)} teve 3–4 játékosnál, {camels_per_player(2)} 2 játékosnál.",
             f"{PALM_TREES} palm trees, {PALACES} palaces; {START_GOLD} gold per player; "
             f"{camels_per_player(3)} camels with 3–4 players, {camels_per_player(2)} with 2.")),
        text("Szabálykönyv: Tartozékok", "Rulebook: Components")),
    RuleSection("2", text("Előkészület", "Set-up"), (
        text("A 30 lapka 5 sorban, 6 oszlopban fekszik (A1–F5), mindegyiken 3 figura.",
             "The 30 tiles lie in 5 rows of 6 (A1–F5), 3 meeples on each."),
        text("Más lapkakeverék vagy más figuraszín-szám nem kezdheti a játékot; az elutasítás megmondja, mi tér el és mennyivel.",
             "Any other mix of tiles or count of meeple colours cannot start the game; the refusal says what is off and by how much.")),
        text("Szabálykönyv: Előkészületek", "Rulebook: Set-up")),
    RuleSection("3", text("Licit a sorrendért", "Bid for turn order"), (
        text(f"A sorrendsáv árai: {_spots}. Foglalt helyre nem lehet licitálni, kivéve a 0-t, amelyen legfeljebb 3 jelző áll.",
             f"The turn order track's prices: {_spots}. A taken spot cannot be bid, except 0, which holds up to 3 markers."),
        text("Az arany azonnal fizetendő, és nem mehet nulla alá. Magasabb ár előbb lép; a 0-s licitek közül a később licitáló lép előbb.",
             "The gold is paid at once and never goes below zero. A higher price plays first; among 0 bids the later bidder plays first."),
        text("Kumarbi: minden eldobott fakír egy hellyel olcsóbbá teszi az árat.",
             "Kumarbi: each fakir discarded lowers the price by one spot.")),
        text("Szabálykönyv: Egy forduló, 1.", "Rulebook: A round, 1")),
    RuleSection("4", text("A lépés", "The move"), (
        text("Annyi lépés, ahány figurát felveszel; lépésenként egy figurát teszel le.",
             "As many steps as meeples picked up; each step drops one meeple."),
        text("Csak a szomszédos lapkára, átlósan nem, és közvetlenül vissza sem; később, egy kör után visszatérni szabad.",
             "Only to a tile beside the last one, never diagonally, never straight back; coming back later, after a loop, is allowed."),
        text("Az utolsó figura olyan lapkára kerül, ahol már áll ilyen színű; onnan minden ilyen színűt elveszel (legalább 2-t). Kiürült, gazdátlan lapkára tevét teszel.",
             "The last meeple goes where one of its colour stands; you take every meeple of that colour there (at least 2). An emptied tile nobody owns gets your camel."),
        text("Építők: arany = kék lapkák a célmező körüli 3 × 3-as blokkban (a célmezővel együtt) × (építők + eldobott fakírok). "
             "Echidna (fizetős képesség, §6) ebben a körben megduplázza.",
             "Builders: gold = the blue tiles in the 3 × 3 block around the end tile (the tile included) × (builders + fakirs discarded). "
             "Echidna (a paid power, §6) doubles it this turn."),
        text("Orgyilkosok: egy áldozat legfeljebb (orgyilkosok + eldobott fakírok) lépésnyire, átló nélkül, vagy egy ellenfél vezíre/vénje (Boaz védi). "
             "Iblis (fizetős képesség, §6) két áldozatot enged, egy lapkáról vagy egy ellenféltől.",
             "Assassins: one victim within (assassins + fakirs discarded) steps, not diagonally, or an opponent's vizier or elder (Boaz protects them). "
             "Iblis (a paid power, §6) allows two victims, on one tile or of one opponent."),
        text("Kandicha (mindig hat): ha orgyilkosod építőt öl, megkapod azt az aranyat, amit egyetlen építő azon a lapkán érne: "
             "a lapka körüli 3 × 3-as blokk kék lapkáinak száma (× 2, ha ebben a körben Echidnát használtad); vezír vagy vén áldozat a tiéd marad; kereskedőért a húzott lapot kapod.",
             "Kandicha (always on): when your assassins kill a builder you get the gold one builder would earn on its tile: "
             "the blue tiles in the 3 × 3 block around it (× 2 if you used Echidna this turn); a killed vizier or elder is yours to keep; a merchant gives you the card drawn.")),
        text("Szabálykönyv: Egy forduló, 2.2–2.4", "Rulebook: A round, 2.2–2.4")),
    RuleSection("5", text("Lapka-akció és eladás", "Tile action and selling"), (
        text("Oázis → pálmafa, Falu → palota: kötelező, amíg van készlet. Kis piac: 3 aranyért 1 lap az első 3-ból. "
             "Nagy piac: 6 aranyért 2 lap az első 6-ból (1 csak ha csak 1 maradt). Szent hely: dzsinn 2 vénért vagy 1 vén + 1 fakírért.",
             "Oasis → palm tree, Village → palace: compulsory while the supply lasts. Small market: 3 gold for 1 card of the first 3. "
             "Large market: 6 gold for 2 cards of the first 6 (1 only if just 1 is left). Sacred place: a djinn for 2 elders or 1 elder + 1 fakir."),
        text(f"Árut eladni minden akció után lehet; az eladás után nincs lapka-akció. Egy sorozat értéke fajtaszám szerint: {_suits}. Fakír nem eladható.",
             f"Goods are sold after all actions; after a sale no tile action. A suit is worth, by its number of kinds: {_suits}. Fakirs cannot be sold.")),
        text("Szabálykönyv: Egy forduló, 2.5 és 2.6", "Rulebook: A round, 2.5 and 2.6")),
    RuleSection("6", text("Dzsinnek", "Djinns"), (
        text("Fizetős képességet a gazdája a saját körében, fordulónként legfeljebb egyszer használhat, az árát megfizetve; "
             "2 játékosnál a forduló mindkét köre együtt számít.",
             "A paid power is used by its owner on their own turn, at most once per round, paying its cost; "
             "with 2 players both turns of the round count together."),
        text("A többi dzsinn mindig hat (ára: —). Mind a 22 dzsinn a győzelmi pontjával, használati árával és képességével:",
             "The other djinns are always on (cost: —). All 22 djinns with their VP, cost to use and power:")),
        text("Szabálykönyv: 2.5 és a dzsinnek segédlapja", "Rulebook: 2.5 and the djinns' aid sheet"),
        table=DJINN_TABLE),
    RuleSection("7", text("Semmi sincs kétszer", "Nothing owned twice"), (
        text("Egy dzsinn legfeljebb egy játékosé; a kínálatból csak ott lévő dzsinn vehető el; a lapok fajtánként nem haladják meg a paklit.",
             "A djinn belongs to one player at most; a djinn taken from the display must be on it; cards of a kind never exceed the deck."),)),
    RuleSection("8", text("Pontozólap", "Score sheet"), (
        text("Játékosonként egy lap; a készletek minden játékosra együtt: vezír ≤ 16, vén ≤ 20, pálmafa ≤ 12, palota ≤ 10.",
             "One sheet per player; the supplies count across all players: viziers ≤ 16, elders ≤ 20, palm trees ≤ 12, palaces ≤ 10."),
        text("A játék akkor ér véget, amikor minden játékosnak van lapja.", "The game ends when every player has a sheet.")),
        text("Szabálykönyv: Győzelmi pontok", "Rulebook: Victory points")),
    RuleSection("9", text("Végső pontozás", "Final scoring"), (
        text("1 GyP aranyanként; vezír 1 (Jafaar: 3), és +10 minden ellenfélért, akinek kevesebb vezíre van; vén 2 (Shamhat: 4); "
             "dzsinnek a GyP-jük; pálmafa saját lapkán 3 (Haurvatat: 5); palota saját lapkán 5; a lapkák GyP-je; árusorozatok.",
             "1 VP per gold; vizier 1 (Jafaar: 3), and +10 per opponent with fewer viziers; elder 2 (Shamhat: 4); "
             "djinns their VP; palm tree on own tiles 3 (Haurvatat: 5); palace on own tiles 5; the tiles' VP; merchandise suits."),
        text("Döntetlennél a helyezés közös.", "Ties share the place.")),
        text("Szabálykönyv: Győzelmi pontok", "Rulebook: Victory points")),
    RuleSection("10", text("A forduló és a játék vége", "End of a round and of the game"), (
        text("A forduló végén a lapsor 9 lapra, a dzsinnsor 3 dzsinnre töltődik, kevesebbre csak ha nincs mit húzni.",
             "At the end of a round the card row is refilled to 9 and the djinn row to 3, fewer only when none is left to draw."),
        text("A játék annak a fordulónak a végén ér véget, amelyben valaki letette utolsó tevéjét, vagy nem tudott szabályosan lépni (az app ellenőrzi).",
             "The game ends at the end of the round in which someone placed their last camel or had no legal move (the app checks it).")),
        text("Szabálykönyv: A forduló vége, A játék vége", "Rulebook: End of a round, End of the game")),
    RuleSection("13", text("Lépés a táblán koppintva", "A move tapped on the board"), (
        text("Csak szabályos lépés koppintható: a figurák követése miatt az app tudja, honnan indulhat és hová léphet egy út.",
             "Only a legal step can be tapped: with the meeples tracked the app knows where a path may start and go."),)),
    RuleSection("14", text("2. szabályverzió", "Rules version 2"), (
        text("Az új játékok a 2. verziót játsszák (nagy piac 2 lap, feltöltés 9 lapra és 3 dzsinnre, eladás a lapka-akció után, "
             "dzsinn fordulónként egyszer); a régebbi játékok megtartják az 1. verziót.",
             "New games play rules version 2 (large market 2 cards, refill to 9 cards and 3 djinns, selling after the tile action, "
             "a djinn power once per round); older games keep version 1."),)),
)
