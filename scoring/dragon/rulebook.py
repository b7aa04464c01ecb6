"""In the Year of the Dragon's rules as a player reads them on /rules/dragon (the final tally
mode's too): the project's own short text of each rule the app checks, with the numbers it
uses (from data.py) and the Hungarian rulebook's section to look up. Sections as
docs/rules/dragon.md numbers them."""
from __future__ import annotations

from scoring.base import RuleSection, hu_rulebook, text
from scoring.dragon.data import (CONTAGION, FESTIVAL_POINTS, GROUP_SIZES, MAX_FLOORS, REFILL_TO, SHARED_GROUP_FEE,
                                 SMALL_PRIVILEGE, START_YUAN, TRIBUTE)


_groups = "; ".join(f"{n}: {'/'.join(str(s) for s in sizes)}" for n, sizes in GROUP_SIZES.items())

SECTIONS = (
    RuleSection("2", text("Játékosok és ülésrend", "Players and seat order"), (
        text("2–5 játékos, ülési sorrendben, a legidősebbel kezdve: ő kezdi a toborzást.",
             "2–5 players, in seat order starting with the oldest, who begins the recruitment."),),
        hu_rulebook("Előkészületek")),
    RuleSection("3", text("Személylapkák", "Person tiles"), (
        text("Típusonként 10 lapka 5 játékosnál, 8/6/4 4/3/2 játékosnál; elfogyott lapkát nem lehet elvenni.",
             "10 tiles per type with 5 players, 8/6/4 with 4/3/2; a tile the supply no longer holds cannot be taken."),),
        hu_rulebook("Tartozékok, Előkészületek")),
    RuleSection("4", text("Az eseménysor", "The event row"), (
        text("Az 1–2. hónap béke; a 3–12. hónap tíz lapkája: adó, aszály, fesztivál, mongolok, járvány, mindegyik pontosan kétszer, két egyforma nem szomszédos.",
             "Months 1–2 are peace; the ten tiles of months 3–12: tribute, drought, festival, Mongols, contagion, each exactly twice, no two alike side by side."),),
        hu_rulebook("Eseménylapkák")),
    RuleSection("5", text("Kezdés és paloták", "Start and palaces"), (
        text(f"Fejenként 2 kétszintes palota, {START_YUAN} jüan, 11 személykártya. Egy palota legfeljebb {MAX_FLOORS} szintes, szintenként egy személlyel.",
             f"Each player: 2 palaces of 2 floors, {START_YUAN} yuan, 11 person cards. A palace has at most {MAX_FLOORS} floors, one person per floor."),),
        hu_rulebook("Előkészületek")),
    RuleSection("6", text("Kezdő toborzás", "Opening recruitment"), (
        text("Ülési sorrendben mindenki 2 különböző fiatal személyt vesz; egy korábban elvitt párt nem lehet.",
             "In seat order each player takes 2 different young persons; a pair taken earlier is refused."),),
        hu_rulebook("Előkészületek")),
    RuleSection("7", text("A hónap lépései és sorrendje", "The month's steps and order"), (
        text("Osztás, akciók (építéssel), személyek (1–11. hónap), esemény, hanyatlás és pontozás, ebben a sorrendben; más lépést az app elutasít, megnevezve az esedékeset.",
             "Deal, actions (with a build), persons (months 1–11), event, decay and scoring, in this order; another step is refused, naming the one due."),
        text("A sorrend a személysávé: aki előrébb áll, az lép előbb; egy mezőn a később érkezett.",
             "Order is the person track's: further ahead goes first; on one space, the later arrival.")),
        hu_rulebook("1. fázis")),
    RuleSection("8", text("Osztás", "Deal"), (
        text(f"A 7 akciókártya csoportjai játékosszám szerint: {_groups}.",
             f"The 7 action cards' groups by player count: {_groups}."),),
        hu_rulebook("1. fázis")),
    RuleSection("9", text("Akciók", "Actions"), (
        text(f"Olyan csoport, ahol már áll sárkány, előbb {SHARED_GROUP_FEE} jüanba kerül; a pénz nem mehet nulla alá.",
             f"A group that already holds a dragon costs {SHARED_GROUP_FEE} yuan first; money never goes below zero."),
        text(f"Akció helyett a pénz {REFILL_TO} jüanra egészíthető ki; akinek már van ennyi, az így passzol: nem választ akciót, és pénzt sem kap.",
             f"Instead of an action the purse may be topped up to {REFILL_TO} yuan; a player who already has that much passes this way: no action, and no money.")),
        hu_rulebook("1. fázis, Az akciók részletezése")),
    RuleSection("10", text("Kiváltság", "Privilege"), (
        text(f"Kicsi {SMALL_PRIVILEGE} jüanért (1 sárkány), nagy 6-ért (2007-es kiadás) vagy 7-ért (2 sárkány).",
             f"Small for {SMALL_PRIVILEGE} yuan (1 dragon), large for 6 (2007 edition) or 7 (2 dragons)."),),
        hu_rulebook("Kiváltságjog")),
    RuleSection("11", text("Építés", "Build"), (
        text(f"Pontosan az akció szintjeit kell lerakni, csak új szinteket; egy palota sem lehet {MAX_FLOORS} szintnél magasabb.",
             f"Exactly this action's floors are placed, new floors only; no palace may exceed {MAX_FLOORS} floors."),),
        hu_rulebook("Építmény")),
    RuleSection("12", text("Személyfázis", "Person phase"), (
        text("Minden kártya egyszer; amíg van szabad szint, oda kell költözni; csak teli udvar cserélhet vagy küldhet el valakit.",
             "Each card once; while a floor is free the person moves in there; only a full court may replace or send away."),),
        hu_rulebook("2. fázis")),
    RuleSection("13", text("Esemény és elbocsátás", "The event and releases"), (
        text("Ha választhatsz, kit bocsátasz el, pontosan annyit kell megadnod, amennyit az esemény kér.",
             "When you choose whom to release, you name exactly as many as the event asks."),),
        hu_rulebook("3. fázis")),
    RuleSection("14", text("Császári adó", "Imperial tribute"), (
        text(f"Mindenki {TRIBUTE} jüant fizet; minden hiányzó jüanért egy személyt elbocsát.",
             f"Everyone pays {TRIBUTE} yuan; each missing yuan releases one person."),),
        hu_rulebook("Császári hűbér")),
    RuleSection("15", text("Aszály", "Drought"), (
        text("Lakott palotánként 1 rizs; minden el nem látott palotáért egy személy egy másik palotából.",
             "One rice per inhabited palace; for each palace not supplied, one person from a different palace."),),
        hu_rulebook("Aszály")),
    RuleSection("16", text("Sárkányfesztivál", "Dragon festival"), (
        text(f"A legtöbb tűzijáték {FESTIVAL_POINTS[0]}, a második {FESTIVAL_POINTS[1]} pont; utána a pontozók lapkáik felét (felfelé kerekítve) visszaadják.",
             f"Most fireworks {FESTIVAL_POINTS[0]}, second {FESTIVAL_POINTS[1]} points; then the scorers return half their tiles, rounded up."),),
        hu_rulebook("Sárkányfesztivál")),
    RuleSection("17", text("Mongol támadás", "Mongol invasion"), (
        text("Mindenki pontot kap a sisakjaiért; a legkevesebb sisakú egy személyt elbocsát.",
             "Everyone scores their helmets; the fewest helmets release one person."),),
        hu_rulebook("Mongol támadás")),
    RuleSection("18", text("Járvány", "Contagion"), (
        text(f"Mindenki {CONTAGION} személyt bocsát el, gyógyítói mozsaranként eggyel kevesebbet.",
             f"Each releases {CONTAGION} persons, one fewer per mortar on their healers."),),
        hu_rulebook("Fertőzés")),
    RuleSection("19", text("Hanyatlás és pontozás", "Decay and scoring"), (
        text("Lakatlan palota egy szintet veszít; havonta 1 pont palotánként, udvarhölgyenként és kiváltság-sárkányonként.",
             "An uninhabited palace loses a floor; each month 1 point per palace, court lady and privilege dragon."),),
        hu_rulebook("Hanyatlás, 4. fázis")),
    RuleSection("20", text("A játék vége", "End of the game"), (
        text("Személyenként 2 pont; szerzetes: Buddhák × a palota szintjei; a rizs és tűzijáték 2 jüan, majd 3 jüanonként 1 pont.",
             "2 points per person; a monk: Buddhas × his palace's floors; rice and fireworks sell for 2 yuan, then 1 point per 3 yuan."),
        text("Döntetlennél a személysávon előrébb álló nyer.", "A tie goes to the player further ahead on the person track.")),
        hu_rulebook("A játék vége")),
    RuleSection("22", text("Végeredmény beírása", "Final tally mode"), (
        text("Játékosonként egy bejegyzés: eddigi pontok, jüan, rizs, tűzijáték, sávhely és paloták; a paloták és lapkák korlátai ugyanazok.",
             "One entry per player: points so far, yuan, rice, fireworks, track position and palaces; the same limits on palaces and tiles apply."),)),
    RuleSection("23", text("A telefon űrlapja", "The phone form"), (
        text("Az űrlap csak az aktuális lépést kínálja; amit nem tud értelmezni, azt az űrlap mellett utasítja el.",
             "The form offers only the current step; a field it cannot read is refused beside the form."),)),
    RuleSection("24", text("Helyezések és szabályverziók", "Ranks and rules versions"), (
        text("Játék közben az egyenlő pontszám közös helyezés; a döntetlen feloldása csak a játék végén számít.",
             "During play equal scores share a rank; the tie-break decides only a finished game."),)),
)
