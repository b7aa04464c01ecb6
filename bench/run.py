"""The benchmark suite: ``python -m bench.run`` (``make bench``) prints the tables of
docs/performance.md; ``--quick`` runs a small variant of every benchmark (the tests
run it so the code never rots). Figures are ratios measured side by side in one run:
the machine is shared and noisy, absolute times drift.

    python -m bench.run [--quick] [--sizes 100,1000,10000] [--games scorepad,han]
                        [--skip load] [--json results.json]
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time

from bench import wal_pages
from bench.common import kinds

FULL = {"sizes": [100, 1000, 10000], "taps_sizes": [100, 1000], "appends": 40, "states": 20, "big": 5000, "big_appends": 20,
        "big_states": 10, "load_tables": 200,
        "load_phones": 5, "load_seconds": 60, "load_move_every": 15.0, "max_seconds": 20, "max_clients": 16,
        "wal_appends": 300, "history_sizes": [1000, 10000], "live_tables": 400, "live_phones": 5,
        "live_seconds": 60, "live_idle": 20, "poll_seconds": 30, "live_hog": True, "slow": 50, "slow_requests": 400,
        "stats_games": 1000, "stats_people": 30, "stats_samples": 40,
        "engine_size": 1000, "engine_appends": 100, "engine_replays": 10,
        "servers_tables": 200, "servers_phones": 5, "servers_seconds": 60, "servers_move_every": 15.0,
        "turn_sizes": [10000], "turn_samples": 40,
        "photo_samples": 6, "photo_size": (4032, 3024),
        "import_tables": 20, "import_game": 10000, "import_plays": 10000, "import_every": 0.5, "import_quiet": 10,
        "upload_tables": 20, "upload_photos": 8, "upload_every": 0.5, "upload_quiet": 10}
QUICK = {"sizes": [30], "taps_sizes": [10, 30], "appends": 3, "states": 3, "load_tables": 3, "load_phones": 2,
         "load_seconds": 2, "load_move_every": 0.5, "max_seconds": 1, "max_clients": 2,
         "wal_appends": 10, "real_taps": 3, "history_sizes": [60, 120], "live_tables": 3,
         "live_phones": 3, "live_seconds": 3, "live_idle": 2, "poll_seconds": 3, "live_move_every": 0.5,
         "slow": 4, "slow_requests": 20, "stats_games": 12, "stats_people": 6, "stats_samples": 3,
         "engine_size": 30, "engine_appends": 3, "engine_replays": 2,
         "servers_tables": 2, "servers_phones": 3, "servers_seconds": 3, "servers_move_every": 0.5,
         "turn_sizes": [30], "turn_samples": 3,
         "photo_samples": 2, "photo_size": (640, 480),
         "import_tables": 2, "import_game": 40, "import_plays": 20, "import_every": 0.3, "import_quiet": 1,
         "upload_tables": 2, "upload_photos": 2, "upload_every": 0.3, "upload_quiet": 1}
PARTS = ("sizes", "taps", "turns", "real", "load", "max", "wal", "history", "live", "slow", "stats", "photos", "imports",
         "uploads", "engines", "servers", "imports_postgres", "uploads_postgres")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.run", description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="small, fast variants (for the tests)")
    parser.add_argument("--sizes", help="comma-separated game sizes in events")
    parser.add_argument("--games", help="comma-separated game kinds (default: every registered game)")
    parser.add_argument("--skip", default="", help="comma-separated parts to skip: " + ",".join(PARTS))
    parser.add_argument("--only", help="comma-separated parts to run (the others skipped), e.g. imports")
    parser.add_argument("--load-seconds", type=float, help="duration of the load test")
    parser.add_argument("--json", help="also write the raw results to this file")
    parser.add_argument("--default-gc", action="store_true",
                        help="keep Python's default GC instead of a server worker's (app.tune_gc)")
    args = parser.parse_args(argv)
    if not args.default_gc:  # the in-process measurements run as a gunicorn worker would
        from app import tune_gc
        tune_gc()
    plan = dict(QUICK if args.quick else FULL)
    if args.sizes:
        plan["sizes"] = plan["taps_sizes"] = [int(s) for s in args.sizes.split(",")]
    if args.load_seconds:
        plan["load_seconds"] = args.load_seconds
    games = args.games.split(",") if args.games else kinds()
    skip = set(filter(None, args.skip.split(",")))
    if args.only:
        skip |= set(PARTS) - set(args.only.split(","))
    plan["gc"] = "default" if args.default_gc else "worker (app.tune_gc)"
    results = run(plan, games, skip, save=_saver(args.json))
    print(render(results))
    _saver(args.json)(results)
    return 0


def _saver(path: str | None):
    """Write the raw results after every measurement, so a long run keeps what it has."""
    def save(results: dict) -> None:
        if path:
            with open(path, "w") as f:
                json.dump(results, f, indent=1, default=str)
    return save


def _per_size(part: str, sizes: list[int], games: list[str], measure, results: dict, log, save) -> None:
    """``measure(kind, size)`` for every game at every size, into ``results[part]``."""
    for kind in games:
        for size in sizes:
            log(f"{part}: {kind} at {size} events")
            r = measure(kind, size)
            results[part].append(r)
            save(results)
            if r["base"] != size:
                break  # the rules end this game earlier: a bigger size is the same game


def run(plan: dict, games: list[str], skip: set[str] = frozenset(), log=None, save=None) -> dict:
    log = log or (lambda msg: print(msg, file=sys.stderr, flush=True))
    save = save or (lambda results: None)
    results = {"machine": machine(), "plan": plan, "started": time.strftime("%Y-%m-%d %H:%M:%S UTC",
                                                                          time.gmtime()),
               "sizes": [], "real": None, "load": None, "max": None, "wal": None,
               "history": None, "live": None, "slow": None, "stats": None}
    if "sizes" not in skip:
        from bench.sizes import measure

        def grown(kind: str, size: int) -> dict:
            big = size >= plan.get("big", size + 1)  # fewer samples where each costs seconds
            appends = plan["big_appends"] if big else plan["appends"]
            return measure(kind, size, appends, plan["big_states"] if big else plan["states"])
        _per_size("sizes", plan["sizes"], games, grown, results, log, save)
    if "taps" not in skip:
        from bench.sizes import measure
        results["taps"] = []
        _per_size("taps", plan["taps_sizes"], games, lambda kind, size: measure(
            kind, size, plan["appends"], 0, peer=False, memory=False, taps_only=True), results, log, save)
    if "turns" not in skip:
        from bench import turn_times
        results["turns"] = []
        for kind in [k for k in ("scorepad", "han") if k in games]:
            for size in plan["turn_sizes"]:
                log(f"turn times: {kind} at {size} events")
                results["turns"].append(turn_times.measure(kind, size, plan["turn_samples"]))
                save(results)
    if "real" not in skip:
        from bench import real_games
        log("real games: every example game, tap by tap")
        results["real"] = [real_games.measure(path, plan.get("real_taps"), breakdown=True)
                           for path in real_games.examples()]
        save(results)
    if "load" not in skip:
        from bench.load import load_test
        log(f"load: {plan['load_tables']} tables x {plan['load_phones']} phones for {plan['load_seconds']} s")
        results["load"] = load_test(plan["load_tables"], plan["load_phones"], plan["load_seconds"],
                                    plan["load_move_every"])
        save(results)
    if "max" not in skip:
        from bench.load import max_appends
        log(f"max appends/s: {plan['max_clients']} clients for {plan['max_seconds']} s")
        results["max"] = max_appends(plan["max_clients"], plan["max_seconds"])
        save(results)
    if "wal" not in skip:
        log(f"WAL pages per append: {plan['wal_appends']} appends to each table")
        results["wal"] = wal_pages.measure(plan["wal_appends"])
    _run_live(plan, skip, results, log, save)
    if "stats" not in skip:
        from bench.stats_pages import measure as stats_pages
        log(f"statistics pages: {plan['stats_games']} finished games, {plan['stats_people']} people")
        results["stats"] = stats_pages(plan["stats_games"], plan["stats_people"], plan["stats_samples"])
        save(results)
    if "photos" not in skip:
        from bench.photos import measure as photo_costs
        log(f"photos: {plan['photo_samples']} uploads of a {plan['photo_size'][0]} x {plan['photo_size'][1]} JPEG")
        results["photos"] = photo_costs(plan["photo_samples"], tuple(plan["photo_size"]))
        save(results)
    if "imports" not in skip:
        from bench import imports
        log(f"imports: {plan['import_tables']} tables' moves during the largest imports")
        results["imports"] = imports.measure(plan["import_tables"], plan["import_game"], plan["import_plays"],
                                             plan["import_every"], plan["import_quiet"], log=log)
        save(results)
    if "uploads" not in skip:
        from bench import photo_uploads
        log(f"uploads: {plan['upload_tables']} tables' moves during {plan['upload_photos']} hostile photo uploads")
        results["uploads"] = photo_uploads.measure(plan["upload_tables"], plan["upload_photos"], plan["upload_every"],
                                                   plan["upload_quiet"], log=log)
        save(results)
    if not {"engines", "servers", "imports_postgres", "uploads_postgres"} <= skip:
        _run_postgres(plan, skip, results, log, save)
    results["finished"] = time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime())
    results["load_average_after"] = os.getloadavg()
    return results


def _run_postgres(plan: dict, skip: set[str], results: dict, log, save) -> None:
    """Issue 19's targets, on a throwaway PostgreSQL cluster as durable as the SQLite store."""
    from tests.conftest import create_database, start_postgres
    cluster, stop = start_postgres(durable=True)
    try:
        if "engines" not in skip:
            from bench import engines
            log(f"engines: score pad and Han at {plan['engine_size']} events on SQLite and PostgreSQL")
            results["engines"] = engines.measure(cluster, create_database, ["scorepad", "han"],
                                                 plan["engine_size"], plan["engine_appends"],
                                                 plan["engine_replays"])
            save(results)
        if "imports_postgres" not in skip:
            from bench import imports
            log("imports on PostgreSQL")
            results["imports_postgres"] = imports.measure(
                plan["import_tables"], plan["import_game"], plan["import_plays"], plan["import_every"],
                plan["import_quiet"], database=create_database(cluster), log=log)
            save(results)
        if "uploads_postgres" not in skip:
            from bench import photo_uploads
            log("hostile photo uploads on PostgreSQL")
            results["uploads_postgres"] = photo_uploads.measure(
                plan["upload_tables"], plan["upload_photos"], plan["upload_every"], plan["upload_quiet"],
                database=create_database(cluster), log=log)
            save(results)
        if "servers" not in skip:
            from bench import two_servers
            log(f"two servers on one PostgreSQL: {plan['servers_tables']} tables x {plan['servers_phones']} phones")
            hall = (cluster, create_database, plan["servers_tables"], plan["servers_phones"],
                    plan["servers_seconds"], plan["servers_move_every"])
            results["servers"] = two_servers.measure(*hall)
            save(results)
            log("two servers on one PostgreSQL, one killed half-way")
            results["servers_killed"] = two_servers.measure(*hall, kill_one=True)
            save(results)
    finally:
        stop()


def _run_live(plan: dict, skip: set[str], results: dict, log, save) -> None:
    """Issue 18's targets: history pages at two sizes, push against poll, slow clients."""
    if "history" not in skip:
        from bench.history_pages import growth, measure
        log(f"history pages: score pad at {plan['history_sizes']} events, plain and one move in three undone")
        runs = [measure(n, undone) for undone in (False, True) for n in plan["history_sizes"]]
        results["history"] = {"runs": runs, "growth": growth(runs[0], runs[1]),
                              "growth_undone": growth(runs[2], runs[3])}
        save(results)
    if "live" not in skip:
        from bench.live import fan_out
        every = plan.get("live_move_every", 15.0)
        log(f"live: {plan['live_tables']} tables x {plan['live_phones']} phones, push then poll")
        results["live"] = {}
        for hog in (False, True) if plan.get("live_hog") else (False,):
            if hog:
                log("live: the same with another process taking one core (push, then poll)")
            for mode, seconds in (("push", plan["live_seconds"]), ("poll", plan["poll_seconds"])):
                name = f"{mode} with a CPU hog" if hog else mode
                results["live"][name] = fan_out(plan["live_tables"], plan["live_phones"], seconds, mode,
                                                every, plan["live_idle"], hog=hog)
                save(results)
    if "slow" not in skip:
        from bench.live import slow_headers
        log(f"slow clients: {plan['slow']} connections sending a header line a second")
        results["slow"] = slow_headers(plan["slow"], plan["slow_requests"])
        save(results)


def machine() -> dict:
    return {"load_average": os.getloadavg(), "python": platform.python_version(), "cpus": os.cpu_count(),
            "platform": platform.platform(), "sqlite": __import__("sqlite3").sqlite_version}


# ---- printing ---------------------------------------------------------------------

def _f(value, digits: int = 1) -> str:
    if value is None:
        return "–"
    return f"{value:,.{digits}f}"


def _ratio(a, b) -> str:
    return "–" if not a or not b else f"{a / b:.2f}×"


def _events(r: dict) -> str:
    """The game size the appends were measured at: the size asked for, or for a game
    whose rules end it sooner, from half-way to its end."""
    if r["base"] == r["size"]:
        return f"{r['size']:,}"
    return f"{r['base']:,}→{r['reached']:,} (its end)"


def render(results: dict) -> str:
    out = [f"Run {results['started']} → {results.get('finished', '')}; "
           f"{results['machine']['cpus']} CPUs, Python {results['machine']['python']}, "
           f"SQLite {results['machine']['sqlite']}; load average before "
           f"{results['machine']['load_average'][0]:.1f}, after {results.get('load_average_after', [0])[0]:.1f} "
           "(other work shares this machine)", ""]
    rows = results["sizes"]
    if rows:
        out += ["### Per game size: the targets (ms; wall clock and this thread's CPU time)", "",
                "| game | events | append+render p50 | p95 | CPU p50 | CPU p95 | state at seq p50 | p95 "
                "| CPU p95 | full replay | import | replay peak MiB | state KiB |",
                "|" + "---|" * 13]
        for r in rows:
            ar, arc = r["append_render"] or {}, r.get("append_render_cpu") or {}
            st, stc = r["state_at"], r.get("state_at_cpu") or {}
            out.append("| " + " | ".join([
                r["kind"], _events(r), _f(ar.get("p50")), _f(ar.get("p95")), _f(arc.get("p50")),
                _f(arc.get("p95")), _f(st["p50"]), _f(st["p95"]), _f(stc.get("p95")),
                _f(r["replay_ms"]), _f(r.get("import_ms")), _f(r.get("replay_peak_mib"), 2),
                _f(r["state_json_bytes"] / 1024)]) + " |")
        out += ["", "### Per game size: side by side with the floor and the peer (ms, means; "
                "each of our appends is followed at once by the floor's and the peer's)", "",
                "| game | events | our append | floor (raw sqlite3) | ours ÷ floor | peer append "
                "| peer ÷ ours | our full replay | peer rebuild | peer ÷ ours |",
                "|" + "---|" * 10]
        for r in rows:
            a, fl, pa = r["append"] or {}, r["floor_append"] or {}, r["peer_append"] or {}
            out.append("| " + " | ".join([
                r["kind"], _events(r), _f(a.get("mean"), 2), _f(fl.get("mean"), 2),
                _ratio(a.get("mean"), fl.get("mean")), _f(pa.get("mean"), 2),
                _ratio(pa.get("mean"), a.get("mean")), _f(r["replay_ms"]),
                _f(r.get("peer_rebuild_ms")), _ratio(r.get("peer_rebuild_ms"), r["replay_ms"])]) + " |")
        out += ["", "append = `events.application.table.record` (idempotency check, cached state, schema, rules, "
                "hash chain, BEGIN IMMEDIATE append, fsync); append+render adds what POST /moves adds "
                "for htmx: the table fragment. peer ÷ ours ≥ 1 means we are not slower.", ""]
    if results.get("real"):
        from bench.real_games import render as render_real
        out += render_real(results["real"])
    if results.get("load"):
        out += render_load(results["load"])
    if results.get("max"):
        m = results["max"]
        out += ["### Maximum sustained appends", "",
                f"{m['clients']} clients posting moves back to back to their own tables for "
                f"{m['seconds']:.0f} s against gunicorn ({m['workers']} workers × {m['threads']} threads): "
                f"**{m['appends_per_s']:.0f} appends/s**, p50 {_f(m['latency']['p50'])} ms, "
                f"p95 {_f(m['latency']['p95'])} ms, errors {m['errors']}, server CPU "
                f"{_f(m['server_cpu_ms_per_request'], 2)} ms per append, client CPU "
                f"{_f(m['client_cpu_s'])} s.", ""]
    if results.get("turns"):
        from bench import turn_times
        out += [turn_times.render(results["turns"]), ""]
    if results.get("wal"):
        out += wal_pages.render(results["wal"])
    out += render_live(results)
    if results.get("stats"):
        from bench.stats_pages import render as render_stats
        out += render_stats(results["stats"])
    if results.get("photos"):
        from bench.photos import render as render_photos
        out += render_photos(results["photos"])
    for key in ("imports", "imports_postgres"):
        if results.get(key):
            from bench import imports
            out += imports.render(results[key])
    for key in ("uploads", "uploads_postgres"):
        if results.get(key):
            from bench import photo_uploads
            out += photo_uploads.render(results[key])
    if results.get("engines"):
        from bench import engines
        out += engines.render(results["engines"])
    if results.get("servers"):
        from bench import two_servers
        out += two_servers.render(results["servers"])
    if results.get("servers_killed"):
        from bench import two_servers
        out += two_servers.render(results["servers_killed"])
    from bench import targets
    out += targets.render(results)
    return "\n".join(out)


def render_live(results: dict) -> list[str]:
    out = []
    if results.get("history"):
        h = results["history"]
        out += ["### History pages (score pad; ms; cold = a fresh worker process's first request)", "",
                "| events | undone | page | cold | warm | KiB |", "|---|---|---|---|---|---|"]
        for r in h["runs"]:
            for page, m in r["pages"].items():
                out.append(f"| {r['size']:,} | {'1 in 3' if r['undone'] else 'none'} | {page} "
                           f"| {_f(m['cold_ms'])} | {_f(m['warm_ms'])} | {_f(m['bytes'] / 1024)} |")
        out += ["", "Growth, largest ÷ smallest size (linear ≈ the size ratio): " + "; ".join(
            f"{page} cold {g['cold']:.1f}×, warm {g['warm']:.1f}×" for page, g in h["growth"].items())
            + ". One move in three undone: " + "; ".join(
            f"{page} cold {g['cold']:.1f}×, warm {g['warm']:.1f}×" for page, g in h["growth_undone"].items())
            + f". History cache after the largest game: {h['runs'][1]['cached_bytes'] / 2**20:.1f} MiB "
              "as counted (JSON).", ""]
    if results.get("live"):
        out += ["### Tap to every other phone: pushed (SSE) and polled, side by side", "",
                "| mode | tables × phones | streams open | tap→other phones p50 ms | p95 | p99 | deliveries "
                "| errors | idle CPU ms per phone per min | memory KiB per connection | server RSS MiB |",
                "|" + "---|" * 11]
        for mode, r in results["live"].items():
            lat = r["tap_to_other_phones"]
            out.append(f"| {mode} | {r['tables']} × {r['phones']} | {r['streams_open']} | {_f(lat.get('p50'))} "
                       f"| {_f(lat.get('p95'))} | {_f(lat.get('p99'))} | {r['deliveries']:,} | {r['errors']} "
                       f"| {_f(r['idle_cpu_ms_per_phone_per_min'], 2)} | {_f(r['memory_kb_per_connection'])} "
                       f"| {_f(r['server_rss_mb'])} |")
        out += ["", "A move per table every ~" + f"{results['live']['push']['move_every_s']:g} s; "
                "idle = a window with every phone connected and no move.", ""]
    if results.get("slow"):
        s = results["slow"]
        out += ["### Slow clients", "",
                f"{s['slow_connections']} connections sending one header line a second: the table page's "
                f"p95 {_f(s['with_slow']['p95'], 2)} ms against {_f(s['alone']['p95'], 2)} ms without them "
                f"in the same run ({s['p95_ratio']:.2f}×; target ≤ 2×), {s['requests']} requests each.", ""]
    return out


def render_load(load: dict) -> list[str]:
    out = ["### Load: gunicorn on 127.0.0.1", "",
           f"{load['tables']} tables × {load['phones']} phones for {load['seconds']:.0f} s "
           f"(gunicorn {load['workers']} workers × {load['threads']} threads); every phone polls "
           + ", ".join(f"/{name} every {every:g} s" for name, every in load["polled"].items())
           + " (as the page's hx-trigger says) over "
           + f"{load.get('connections_per_phone', 0):.2f} keep-alive connections per phone on average, "
           "each table records a move every "
           f"~{load['move_every_s']} s.", "",
           "| requests | p50 ms | p95 ms | p99 ms | max ms | count | errors |", "|---|---|---|---|---|---|---|"]
    for name, s in load["by_kind"].items():
        lat = s["latency"]
        out.append(f"| {name} | {_f(lat.get('p50'))} | {_f(lat.get('p95'))} | {_f(lat.get('p99'))} "
                   f"| {_f(lat.get('max'))} | {s['count']:,} | {s['errors']} |")
    out += ["", f"Throughput {load['requests_per_s']:.0f} requests/s; errors {load['errors']} "
            f"(stale 409s, an expected answer, {load['stale']}); server CPU "
            f"{_f(load['server_cpu_ms_per_request'], 2)} ms per request "
            f"({_f(load['server_cpu_share'] * 100, 0)}% of one core over the run); "
            f"load generator CPU {_f(load['client_cpu_s'])} s.", ""]
    return out


if __name__ == "__main__":
    sys.exit(main())

