"""The figures ``bench.compare`` sets side by side, read from one part's raw ``bench.run``
results (``--json``), and issue 38's targets judged from them. Each figure is
``name -> (value, "lower" | "higher")``, the better direction; a result that lacks a key
(an older base's benchmark) simply has fewer figures."""
from __future__ import annotations

LOWER, HIGHER = "lower", "higher"


def _get(summary: dict | None, key: str) -> float | None:
    return (summary or {}).get(key)


def _events(r: dict) -> str:
    return f"{r['size']:,}" if r.get("base", r["size"]) == r["size"] else f"{r['reached']:,} (its end)"


def sizes(results: dict) -> dict:
    out = {}
    for r in results.get("sizes") or []:
        at = f"{r['kind']} at {_events(r)}"
        cpu, floor = _get(r.get("append_render_cpu"), "p50"), _get(r.get("floor_append"), "mean")
        out[f"{at}: append + render p50 ms"] = (_get(r.get("append_render"), "p50"), LOWER)
        out[f"{at}: append + render p95 ms"] = (_get(r.get("append_render"), "p95"), LOWER)
        out[f"{at}: append + render CPU p50 ms"] = (cpu, LOWER)
        out[f"{at}: our append mean ms"] = (_get(r.get("append"), "mean"), LOWER)
        out[f"{at}: raw sqlite3 floor append mean ms"] = (floor, LOWER)
        out[f"{at}: append + render CPU p50 ÷ floor"] = (cpu / floor if cpu and floor else None, LOWER)
        out[f"{at}: answer bytes"] = (r.get("fragment_bytes"), LOWER)
        out[f"{at}: full replay ms"] = (r.get("replay_ms"), LOWER)
    return out


def taps(results: dict, key: str = "taps") -> dict:
    """Issue 38 item 2: a tap's append + answer CPU per game kind as a multiple of the raw
    SQLite floor's append, and the answer's bytes at each game length with the longer
    game's ÷ the shorter's (a base without the taps part gives its sizes part's rows)."""
    out, first = {}, {}
    for r in results.get(key) or []:
        at = f"{r['kind']} at {_events(r)}"
        cpu, floor = _get(r.get("append_render_cpu"), "p50"), _get(r.get("floor_append"), "mean")
        out[f"{at}: append + render CPU p50 ms"] = (cpu, LOWER)
        out[f"{at}: append CPU p50 ms"] = (_get(r.get("append_cpu"), "p50"), LOWER)
        out[f"{at}: raw sqlite3 floor append mean ms"] = (floor, LOWER)
        out[f"{at}: append + render CPU p50 ÷ floor"] = (cpu / floor if cpu and floor else None, LOWER)
        out[f"{at}: answer bytes"] = (r.get("fragment_bytes"), LOWER)
        shorter = first.setdefault(r["kind"], r)
        ended = r.get("base", r["size"]) != r["size"]  # a game at its end: its answer ends the game
        if shorter is not r and not ended and shorter.get("fragment_bytes") and r.get("fragment_bytes"):
            out[f"{r['kind']}: answer bytes at {_events(r)} ÷ at {_events(shorter)}"] = (
                r["fragment_bytes"] / shorter["fragment_bytes"], LOWER)
    return out


def real(results: dict) -> dict:
    out = {}
    for r in results.get("real") or []:
        out[f"{r['example']}: tap p50 ms"] = (_get(r["append_render"], "p50"), LOWER)
        out[f"{r['example']}: tap p95 ms"] = (_get(r["append_render"], "p95"), LOWER)
        out[f"{r['example']}: tap CPU p50 ms"] = (_get(r.get("append_render_cpu"), "p50"), LOWER)
    return out


def max_appends(results: dict) -> dict:
    m = results.get("max")
    if not m:
        return {}
    return {"sustained appends per s (16 clients)": (m["appends_per_s"], HIGHER),
            "their p95 ms": (_get(m["latency"], "p95"), LOWER),
            "server CPU ms per append": (m.get("server_cpu_ms_per_request"), LOWER),
            "errors": (m.get("errors"), LOWER)}


def history(results: dict) -> dict:
    out = {}
    for r in (results.get("history") or {}).get("runs", []):
        game = f"{r['size']:,} events" + (", 1 in 3 undone" if r["undone"] else "")
        for page, m in r["pages"].items():
            out[f"{game}: {page} cold ms"] = (m["cold_ms"], LOWER)
        for page, m in r["pages"].items():
            out[f"{game}: {page} cold CPU ms"] = (m.get("cold_cpu_ms"), LOWER)
        for page, m in r["pages"].items():
            out[f"{game}: {page} warm ms"] = (m["warm_ms"], LOWER)
    return out


def imports(results: dict, key: str = "imports") -> dict:
    out = {}
    phases = (results.get(key) or {}).get("phases", {})
    quiet = _get((phases.get("quiet") or {}).get("moves"), "p95")
    for name, phase in phases.items():
        p95 = _get(phase["moves"], "p95")
        out[f"other tables' moves, {name}: p95 ms"] = (p95, LOWER)
        if name != "quiet":
            out[f"other tables' moves, {name}: p95 ÷ quiet p95"] = (p95 / quiet if p95 and quiet else None, LOWER)
            out[f"{name}: seconds"] = (_get(phase.get("import"), "seconds"), LOWER)
        out[f"other tables' moves, {name}: errors"] = (phase.get("errors"), LOWER)
    return out


def load(results: dict) -> dict:
    r = results.get("load")
    if not r:
        return {}
    out = {f"{name}: p95 ms": (_get(s["latency"], "p95"), LOWER) for name, s in r["by_kind"].items()}
    out["server CPU ms per request"] = (r.get("server_cpu_ms_per_request"), LOWER)
    out["errors"] = (r.get("errors"), LOWER)
    return out


def live(results: dict) -> dict:
    out = {}
    for mode, r in (results.get("live") or {}).items():
        for p in ("p50", "p95", "p99"):
            out[f"{mode}: tap → other phones {p} ms"] = (_get(r["tap_to_other_phones"], p), LOWER)
        out[f"{mode}: idle CPU ms per phone per min"] = (r.get("idle_cpu_ms_per_phone_per_min"), LOWER)
    return out


def wal(results: dict) -> dict:
    return {f"{table}: append mean ms": (r.get("mean"), LOWER) for table, r in (results.get("wal") or {}).items()}


READERS = {"sizes": sizes, "taps": taps, "real": real, "max": max_appends, "history": history, "imports": imports,
           "imports_postgres": lambda r: imports(r, "imports_postgres"), "load": load, "live": live, "wal": wal}


def figures(part: str, results: dict) -> dict:
    reader = READERS.get(part)
    return reader(results) if reader else {}


def issue_targets(rows: dict) -> list[tuple[str, str, bool]]:
    """(target, this run's figures, met) for each of issue 38's targets the run measured."""
    out = []
    floor = {n: r["new"] for part in ("sizes", "taps") for n, r in (rows.get(part) or {}).items()
             if n.endswith("CPU p50 ÷ floor") and r["new"]}
    if floor:
        worst = max(floor, key=floor.get)
        out.append(("append + render CPU p50 ≤ 3× the raw SQLite floor append, every game",
                    f"{min(floor.values()):.1f}–{floor[worst]:.1f}× (worst {worst.split(':')[0]})",
                    floor[worst] <= 3))
    grows = {n: r["new"] for n, r in (rows.get("taps") or {}).items() if " ÷ at " in n and r["new"]}
    if grows:
        far = max(grows, key=lambda n: abs(grows[n] - 1))
        out.append(("a move's answer weighs the same on a long game (bytes, the longer ÷ the shorter, within 10%)",
                    f"{min(grows.values()):.2f}–{max(grows.values()):.2f}× (furthest {far.split(':')[0]})",
                    abs(grows[far] - 1) <= 0.1))
    m = (rows.get("max") or {}).get("sustained appends per s (16 clients)")
    if m and m["ratio"]:
        out.append(("sustained appends ≥ 3× the base", f"{m['new']:.0f}/s against {m['base']:.0f}/s: "
                    f"{m['ratio']:.2f}×", m["ratio"] >= 3))
    cold = {n: r for n, r in (rows.get("history") or {}).items() if n.endswith("cold ms") and r["new"]}
    if cold:
        biggest = max(int(n.split(" events")[0].replace(",", "")) for n in cold)
        at = {n: r for n, r in cold.items() if n.startswith(f"{biggest:,} events")}
        slow = max(at, key=lambda n: at[n]["new"])
        ratios = [r["ratio"] for r in at.values() if r["ratio"]]
        out.append((f"history pages cold at {biggest:,} events ≤ 300 ms and ≤ ⅓ of the base's",
                    f"slowest {at[slow]['new']:,.0f} ms ({slow.split(': ')[1].split(' ')[0]}); "
                    f"new ÷ base {min(ratios):.2f}–{max(ratios):.2f}×" if ratios else f"{at[slow]['new']:,.0f} ms",
                    at[slow]["new"] <= 300 and bool(ratios) and max(ratios) <= 1 / 3))
    for part in ("imports", "imports_postgres"):
        for name, r in (rows.get(part) or {}).items():
            if name.endswith("÷ quiet p95") and r["new"]:
                phase = name.split(", ")[1].split(":")[0]
                out.append((f"other tables' moves during the {phase} p95 ≤ 2× quiet ({part})",
                            f"{r['new']:.2f}×", r["new"] <= 2))
    return out
