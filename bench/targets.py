"""Issue 27's targets and this run's figure for each, with a verdict: what `bench.run`
prints last. A comparison with earlier code is `make bench BASE=<commit>`
(bench/compare.py), both measured by turns in one run; figures of another run, on
another machine or at another load, are not set beside these.
"""
from __future__ import annotations

# measure -> the target, as text
TARGETS = {
    "append_render_1000": "≤ 15 ms, every game",
    "real_games": "≤ 15 ms, every example",
    "ours_floor": "≤ 3×",
    "max_appends": "≥ 330/s",
    "push": "p95 ≤ 250 ms, p99 ≤ 1 s",
    "push_hog": "push no worse than poll",
    "servers": "p95 ≤ 250 ms",
    "history": "≤ 1,000 ms cold",
}


def _at_1000(rows: list[dict]) -> dict[str, dict]:
    """Per game, its row at 1,000 events, or at its end for games the rules end sooner."""
    found = {}
    for r in rows:
        if r["size"] == 1000 or (r["base"] != r["size"] and r["kind"] not in found):
            found[r["kind"]] = r
    return found


def _p95(summary: dict | None) -> float | None:
    return (summary or {}).get("p95")


def rows(results: dict) -> list[tuple[str, str, str, str]]:
    """(measure, this run, target, verdict) for every target this run measured."""
    out = []

    def add(key: str, label: str, now: str, met: bool | None) -> None:
        verdict = "–" if met is None else ("**met**" if met else "**not met**")
        out.append((label, now, TARGETS[key], verdict))

    sizes = _at_1000(results.get("sizes") or [])
    if sizes:
        walls = {k: _p95(r["append_render"]) for k, r in sizes.items()}
        cpus = {k: _p95(r.get("append_render_cpu")) for k, r in sizes.items()}
        now = "; ".join(f"{k} {walls[k]:.1f} (CPU {cpus[k]:.1f})" for k in sorted(walls) if walls[k] is not None)
        add("append_render_1000", "append + render p95 at 1,000 events (ms, wall (CPU))", now,
            all(v is not None and v <= 15 for v in walls.values()))
        ratios = [r["append"]["mean"] / r["floor_append"]["mean"] for r in results["sizes"]
                  if r.get("append") and r.get("floor_append")]
        if ratios:
            add("ours_floor", "our append ÷ raw sqlite3 floor", f"{min(ratios):.1f}–{max(ratios):.1f}×",
                max(ratios) <= 3)
    if results.get("real"):
        walls = [(r["example"], _p95(r["append_render"]), _p95(r["append_render_cpu"])) for r in results["real"]]
        worst = max(walls, key=lambda w: w[1])
        add("real_games", "every example game tap by tap, p95 (ms)",
            f"{min(w[1] for w in walls):.1f}–{worst[1]:.1f} (worst {worst[0]}; CPU p95 ≤ "
            f"{max(w[2] for w in walls):.1f})", worst[1] <= 15)
    if results.get("max"):
        m = results["max"]
        add("max_appends", "sustained appends, 16 clients",
            f"{m['appends_per_s']:.0f}/s, p95 {m['latency']['p95']:.0f} ms", m["appends_per_s"] >= 330)
    live = results.get("live") or {}
    if live.get("push"):
        push, poll = live["push"]["tap_to_other_phones"], (live.get("poll") or {}).get("tap_to_other_phones", {})
        add("push", "tap → other phones, 400 tables × 5 phones (ms)",
            f"p50 {push.get('p50', 0):,.0f}, p95 {push.get('p95', 0):,.0f}, p99 {push.get('p99', 0):,.0f} "
            f"(poll p95 {poll.get('p95', 0):,.0f}); {live['push']['errors']} errors",
            push.get("p95", 1e9) <= 250 and push.get("p99", 1e9) <= 1000)
    if live.get("push with a CPU hog"):
        push, poll = live["push with a CPU hog"]["tap_to_other_phones"], live["poll with a CPU hog"]["tap_to_other_phones"]
        add("push_hog", "the same with a CPU hog on one core (ms)",
            f"push p50 {push.get('p50', 0):,.0f}, p95 {push.get('p95', 0):,.0f}, p99 {push.get('p99', 0):,.0f}; "
            f"poll p50 {poll.get('p50', 0):,.0f}, p95 {poll.get('p95', 0):,.0f}, p99 {poll.get('p99', 0):,.0f}",
            push.get("p95", 1e9) <= poll.get("p95", 0))
    if results.get("servers"):
        s = results["servers"]
        lat = s.get("tap_to_other_phones") or s.get("latency") or {}
        add("servers", "two servers on one PostgreSQL", f"p95 {lat.get('p95', 0):,.0f} ms", lat.get("p95", 1e9) <= 250)
    history = results.get("history")
    if history:
        cold = {(r["size"], r["undone"]): max(m["cold_ms"] for m in r["pages"].values()) for r in history["runs"]}
        biggest = max(size for size, _ in cold)
        plain, undone = cold.get((biggest, False)), max((v for (n, u), v in cold.items() if u and n >= biggest - 1),
                                                        default=None)
        add("history", f"history pages cold at {biggest:,} events, slowest page (ms)",
            f"{plain:,.0f}, one move in three undone {undone:,.0f}" if undone else f"{plain:,.0f}",
            max(v for v in (plain, undone) if v is not None) <= 1000)
    return out


def render(results: dict) -> list[str]:
    found = rows(results)
    if not found:
        return []
    before, after = results["machine"]["load_average"], results.get("load_average_after") or [0, 0, 0]
    out = ["### Issue 27's targets in this run", "",
           f"This run: {results['started']} → {results.get('finished', '')}, load average (1, 5, 15 min) "
           f"{before[0]:.1f}, {before[1]:.1f}, {before[2]:.1f} before and {after[0]:.1f}, {after[1]:.1f}, "
           f"{after[2]:.1f} after. Earlier code is compared in one run by `make bench BASE=<commit>`.", "",
           "| measure | this run | target | verdict |", "|---|---|---|---|"]
    out += [f"| {' | '.join(row)} |" for row in found]
    return out + [""]
