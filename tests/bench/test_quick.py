"""The quick variant of every benchmark (bench/), so the suite never rots. Only that
each ran and its figures are sane; never a timing threshold (the machine is shared)."""
import json
import math

import pytest

from bench import run as bench
from bench.common import kinds, percentile


def _sane(summary: dict) -> None:
    assert summary["n"] > 0
    for key in ("p50", "p95", "p99", "mean", "max"):
        assert math.isfinite(summary[key]) and summary[key] > 0, key
    assert summary["p50"] <= summary["p95"] <= summary["p99"] <= summary["max"]


def test_percentile_is_nearest_rank():
    values = list(range(1, 101))
    assert percentile(values, 50) == 50 and percentile(values, 95) == 95
    assert percentile(values, 99) == 99 and percentile([7], 95) == 7


# Parts with a test of their own here or elsewhere in the suite: the imports (below) and the
# servers on PostgreSQL (tests/events/test_postgres_servers.py kills one under load too). Their
# quick variants start several servers each, a third of this module's time, so the make-test
# fixture leaves them out and the slow fixture runs them.
ON_THEIR_OWN = {"imports", "servers", "imports_postgres", "uploads_postgres"}


@pytest.fixture(scope="module")
def quick():
    return bench.run(dict(bench.QUICK), kinds(), skip=ON_THEIR_OWN, log=lambda msg: None)


@pytest.fixture(scope="module")
def quick_postgres_servers():
    return bench.run(dict(bench.QUICK), kinds(), skip=set(bench.PARTS) - (ON_THEIR_OWN - {"imports"}),
                     log=lambda msg: None)


def test_every_game_is_measured_beside_the_floor_and_the_peer(quick):
    measured = {r["kind"] for r in quick["sizes"]}
    assert measured == set(kinds())
    for r in quick["sizes"]:
        assert r["same_durability"] and r["durability"]["floor"]["synchronous"] == 2
        assert r["durability"]["peer"] == {"journal_mode": "wal", "synchronous": 2}
        assert 1 <= r["base"] <= r["reached"]
        for key in ("append_render", "append", "floor_append", "peer_append", "state_at"):
            _sane(r[key])
        assert r["append_render"]["mean"] >= r["append"]["mean"]  # the render comes on top
        assert r["replay_ms"] > 0 and r["peer_rebuild_ms"] > 0 and r["import_ms"] > 0
        assert r["replay_peak_mib"] > 0 and r["fragment_bytes"] > 1000


def test_the_load_test_polls_every_region_and_records_moves(quick):
    load = quick["load"]
    assert load["errors"] == 0, load["error_samples"]
    assert set(load["polled"]) >= {"live"}
    kinds_seen = set(load["by_kind"])
    assert any(k.startswith("move") for k in kinds_seen)
    assert any(k.startswith("poll live") for k in kinds_seen)
    _sane(load["by_kind"]["all requests"]["latency"])
    assert load["server_cpu_ms_per_request"] > 0


def test_max_appends_are_counted(quick):
    result = quick["max"]
    assert result["errors"] == 0, result["error_samples"]
    assert result["appends"] > 0 and result["appends_per_s"] > 0
    _sane(result["latency"])


def test_the_report_prints_every_table(quick):
    text = bench.render(quick)
    for heading in ("### Per game size", "### Load: gunicorn", "### Maximum sustained appends"):
        assert heading in text
    assert text.count("\n| ") >= len(quick["sizes"]) + 2


def test_the_command_line_writes_the_raw_results(tmp_path, capsys):
    """The command line's own parsing and its JSON: one part is enough (the quick fixture
    runs every part); ``--skip`` leaves out each of the others."""
    out = tmp_path / "r.json"
    others = ",".join(part for part in bench.PARTS if part != "sizes")
    assert bench.main(["--quick", "--games", "scorepad", "--skip", others, "--json", str(out)]) == 0
    assert "| scorepad |" in capsys.readouterr().out
    written = json.loads(out.read_text())
    assert [r["kind"] for r in written["sizes"]] == ["scorepad"]
    assert written["load"] is None and written["wal"] is None and "servers" not in written


def test_wal_pages_counts_what_each_table_writes():
    from bench.wal_pages import measure
    figures = measure(appends=20)
    assert set(figures) == {"ours", "without-rowid", "without-rowid, no summary", "peer"}
    for r in figures.values():
        assert r["p50"] > 0 and r["mean"] > 0
    # fewer indexes, fewer pages: the counting itself must see the difference
    assert figures["ours"]["frames_per_append"] > figures["without-rowid"]["frames_per_append"] \
        > figures["without-rowid, no summary"]["frames_per_append"] >= 1.5
    assert figures["peer"]["frames_per_append"] >= 1.5


def test_the_suite_prints_the_schema_share(quick):
    assert quick["wal"] and "### The schema's share" in bench.render(quick)


def test_make_bench_runs_as_a_script():
    """``python -m bench.run`` as ``make bench`` starts it, with ``--only`` one small part
    (a few seconds; the limit is for a machine other test runs share)."""
    import subprocess
    import sys
    from bench.common import ROOT
    done = subprocess.run([sys.executable, "-m", "bench.run", "--quick", "--only", "wal"],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "### The schema's share" in done.stdout
    assert "### Load: gunicorn" not in done.stdout  # the other parts were left out


def test_every_example_game_is_replayed_tap_by_tap(quick):
    from bench.real_games import examples
    assert len(quick["real"]) == len(examples()) >= 5
    for r in quick["real"]:
        assert r["taps"] == 3
        _sane(r["append_render"])
        _sane(r["append_render_cpu"])
    assert "### Real games, tap by tap" in bench.render(quick)


def test_history_pages_push_and_poll_and_slow_clients_are_measured(quick):
    history = quick["history"]
    assert [r["undone"] for r in history["runs"]] == [False, False, True, True]
    for r in history["runs"]:
        assert set(r["pages"]) == {"timeline", "final", "replay", "race.svg"}
        assert all(m["cold_ms"] > 0 and m["warm_ms"] > 0 for m in r["pages"].values())
    push, poll = quick["live"]["push"], quick["live"]["poll"]
    assert push["streams_open"] == push["tables"] * push["phones"] and push["errors"] == 0
    _sane(push["tap_to_other_phones"])
    _sane(poll["tap_to_other_phones"])
    assert quick["slow"]["slow_connections"] == 4 and quick["slow"]["p95_ratio"] > 0
    assert "Tap to every other phone" in bench.render(quick)


def test_the_statistics_pages_are_measured_beside_the_table_page(quick):
    r = quick["stats"]
    assert r["plays"] == r["games"] and r["rows"] >= 2 * r["games"] and r["rebuild_s"] > 0
    assert "/games/<id>" in r["pages"] and "/stats" in r["pages"]
    for summary in r["pages"].values():
        _sane(summary)


def test_both_engines_record_and_replay_the_same_games(quick):
    assert [r["kind"] for r in quick["engines"]] == ["scorepad", "han"]
    for r in quick["engines"]:
        for engine in ("sqlite", "postgresql"):
            _sane(r[engine]["append"])
            _sane(r[engine]["replay"])


@pytest.mark.slow
def test_two_servers_on_one_postgres_lose_and_duplicate_nothing(quick_postgres_servers):
    r = quick_postgres_servers["servers"]
    assert r["errors"] == 0, r["error_samples"]
    assert r["streams_open"] == r["tables"] * r["phones"]
    assert r["acknowledged"] == r["stored"] > 0 and r["acknowledged_missing"] == 0
    assert r["games_with_gaps_or_duplicates"] == 0 and r["chains_broken"] == 0
    _sane(r["tap_to_phones_on_the_other_server"])


@pytest.mark.slow
def test_one_of_two_servers_killed_loses_no_acknowledged_move(quick_postgres_servers):
    r = quick_postgres_servers["servers_killed"]
    assert r["acknowledged_missing"] == 0 and r["acknowledged"] > 0
    assert r["games_with_gaps_or_duplicates"] == 0 and r["chains_broken"] == 0


@pytest.mark.slow
def test_other_tables_are_measured_during_imports_and_uploads_on_postgresql(quick_postgres_servers):
    for name in ("imports_postgres", "uploads_postgres"):
        r = quick_postgres_servers[name]
        assert all(phase["errors"] == 0 for phase in r["phases"].values()), name
        _sane(r["phases"]["quiet"]["moves"])
    report = bench.render(quick_postgres_servers)
    assert "during the largest imports (postgresql)" in report and "beside tables (postgresql)" in report


def test_the_turn_times_are_measured_with_the_table_page_beside_it_without_them(quick):
    assert [r["kind"] for r in quick["turns"]] == ["scorepad", "han"]
    for r in quick["turns"]:
        assert r["events"] > 1 and r["turns"] >= 1
        for key in ("derivation", "from_marks", "page", "page_without"):
            assert 0 < r[key]["p50"] <= r[key]["p95"]
        assert r["page_ratio"] > 0


def test_photos_are_measured_beside_the_decoding_floor(quick):
    r = quick["photos"]
    assert r["upload"]["n"] == r["prepare"]["n"] == r["floor"]["n"] == 2
    assert r["page"]["photos"] == 2 and r["page"]["thumbs"] < r["page"]["full"]
    assert "## Photos" in "\n".join(__import__("bench.photos", fromlist=["render"]).render(r))


def test_other_tables_moves_are_measured_during_the_largest_imports():
    """Issue 25 §5: the imports part alone (``--only imports``), small."""
    result = bench.run(dict(bench.QUICK), [], skip=set(bench.PARTS) - {"imports"}, log=lambda msg: None)["imports"]
    assert set(result["phases"]) == {"quiet", "game import", "BG Stats import"}
    for name, phase in result["phases"].items():
        assert phase["errors"] == 0, phase["error_samples"]
        _sane(phase["moves"])
    assert result["phases"]["game import"]["import"]["status"] == 303
    assert result["phases"]["BG Stats import"]["import"]["status"] == 200
    assert "during the largest imports" in "\n".join(__import__("bench.imports", fromlist=["render"]).render(result))


def test_the_report_ends_with_issue_27s_targets_this_run_alone(quick):
    """``bench.run`` prints, last, a verdict per target it measured (bench/targets.py), and
    no figure of another run beside them (issue 38: those came from another machine)."""
    report = bench.render(quick)
    targets = report[report.index("### Issue 27's targets in this run"):]
    assert "| measure | this run | target | verdict |" in targets and "previous" not in targets
    assert "load average" in targets and "history pages cold" in targets and "tap → other phones" in targets


def test_make_bench_measures_a_base_and_today_by_turns_and_prints_each_ratio(tmp_path):
    """``make bench BASE=…``'s comparison (bench/compare.py), small: this tree stands in for
    the base's prepared checkout, two rounds of one part in each, the order alternating."""
    from bench import compare
    from bench.common import ROOT
    out = tmp_path / "compare.md"
    assert compare.main(["--base-tree", ROOT, "--quick", "--parts", "sizes", "--games", "scorepad",
                         "--sizes", "30", "--rounds", "2", "--out", str(out)]) == 0
    text, raw = out.read_text(), json.loads((tmp_path / "compare.json").read_text())
    assert "new ÷ base" in text and "load average (1 min)" in text
    assert len(raw["loads"]) == 2 * 2 + 1  # before each of the four runs, and at the end
    assert [len(raw["runs"]["sizes"][side]) for side in ("base", "new")] == [2, 2]
    rows = raw["figures"]["sizes"]
    assert "scorepad at 30: append + render CPU p50 ÷ floor" in rows
    for name, row in rows.items():
        assert row["base"] is not None and row["new"] is not None, name
        assert f"| {name} | " in text
        if row["base"]:
            assert row["ratio"] == pytest.approx(row["new"] / row["base"]) and len(row["round_ratios"]) == 2


def test_a_figure_is_the_median_of_its_rounds_and_the_targets_read_the_ratios():
    from bench.compare import combine
    from bench.figures import issue_targets

    def appends(per_s):
        return {"max": {"appends_per_s": per_s, "latency": {"p95": 50.0}, "errors": 0}}
    report = {"runs": {"max": {"base": [appends(100.0), appends(120.0), None],
                               "new": [appends(330.0), appends(360.0), appends(400.0)]}}}
    row = combine(report)["max"]["sustained appends per s (16 clients)"]
    assert (row["base"], row["new"], row["better"]) == (110.0, 360.0, "higher")  # a failed run counts for nothing
    assert row["ratio"] == pytest.approx(360 / 110) and row["round_ratios"] == [3.3, 3.0]
    [(target, now, met)] = issue_targets(combine(report))
    assert target == "sustained appends ≥ 3× the base" and met and "3.27×" in now
    report["runs"]["max"]["new"] = [appends(300.0)] * 3
    assert not issue_targets(combine(report))[0][2]


def test_the_default_base_is_the_last_commit_before_head_that_changed_the_figures():
    import subprocess
    from bench.common import ROOT
    from bench.compare import default_base, git
    base = default_base()
    if git("tag"):
        pytest.skip("a tag is the default base here")
    assert base != git("rev-parse", "HEAD")
    diff = git("show", "--format=", base, "--", "docs/performance.md")
    assert any(line.startswith("+") and ("ms" in line or "×" in line) for line in diff.splitlines())
    later = git("log", "--format=%H", f"{base}..HEAD~1", "--", "docs/performance.md").split()
    for commit in later:  # nothing since changed a figure
        changed = subprocess.run(["git", "log", "-1", "--format=%H", "-G", "[0-9] ?(ms|×|/s)", commit, "--",
                                  "docs/performance.md"], cwd=ROOT, capture_output=True, text=True).stdout.strip()
        assert changed != commit


def test_make_bench_passes_the_base_on():
    import subprocess
    from bench.common import ROOT
    dry = subprocess.run(["make", "-n", "bench", "BASE=v1", "ROUNDS=3"], cwd=ROOT, capture_output=True,
                         text=True, check=True).stdout
    assert "-m bench.compare --base v1 --parts taps,history,max,imports --rounds 3" in dry
    default = subprocess.run(["make", "-n", "bench"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    assert "-m bench.compare --base 6421a71 --parts taps,history,max,imports --rounds 2" in default  # issue 38's items 2–5


@pytest.mark.slow
def test_the_base_is_checked_out_with_a_venv_of_its_own_and_runs_its_own_benchmark(tmp_path):
    from bench.compare import git, prepare, run_part
    head = git("rev-parse", "HEAD")
    tree = prepare(head, log=lambda msg: None)
    try:
        assert git("rev-parse", "HEAD", cwd=tree) == head
        results = run_part(tree, "wal", ["--quick"], str(tmp_path / "wal"))
        assert results and results["wal"]["ours"]["mean"] > 0
    finally:
        git("worktree", "remove", "--force", tree)


def test_hostile_photo_uploads_beside_tables_are_each_answered_and_measured(quick):
    r = quick["uploads"]
    assert len(r["answers"]) == bench.QUICK["upload_photos"]
    assert all(a["status"] in (303, 503) for a in r["answers"])  # stored, or a busy worker's 503
    assert r["workers"] and all(w["quiet_mb"] > 0 and w["peak_mb"] >= w["quiet_mb"] * 0.5 for w in r["workers"])
    _sane(r["phases"]["quiet"]["moves"])
    assert "### Hostile photo uploads beside tables (sqlite)" in bench.render(quick)


def test_a_taps_answer_and_its_bytes_are_measured_at_two_lengths(quick):
    """Issue 38 item 2's part: every game's append and answer beside the floor's append, at
    two game lengths (a game the rules end sooner: at its end), and the answer's bytes."""
    rows = quick["taps"]
    assert {r["kind"] for r in rows} == set(kinds())
    for r in rows:
        for key in ("append_render", "append_cpu", "append_render_cpu", "floor_append"):
            _sane(r[key])
        assert r["fragment_bytes"] > 0 and "replay_ms" not in r  # the taps alone
    from bench.figures import taps
    figures = taps(quick)
    assert figures["scorepad at 30: append + render CPU p50 ÷ floor"][0] > 0
    assert figures["scorepad: answer bytes at 30 ÷ at 10"][0] > 0


def test_a_part_the_bases_benchmark_lacks_is_na_and_taps_stand_in_from_its_sizes(tmp_path, monkeypatch):
    """An older base (6421a71) has no taps part: its sizes part, whose rows hold the same
    figures, runs instead; a part it has not at all is "n/a" on its side, not a crash."""
    from bench import compare
    from bench.common import ROOT
    base = tmp_path / "base"
    base.symlink_to(ROOT)  # this tree again, as an older base whose benchmark has sizes only
    have = compare.parts_of
    monkeypatch.setattr(compare, "parts_of", lambda tree: {"sizes"} if tree == str(base) else have(tree))
    report = compare.compare({"base": str(base), "new": ROOT}, ["taps", "wal"], 1,
                             ["--quick", "--games", "scorepad"], "10,30", log=lambda m: None)
    report["commits"] = {}
    rows = report["figures"]["taps"]
    assert rows["scorepad at 30: answer bytes"]["base"] and rows["scorepad at 30: answer bytes"]["ratio"]
    assert report["runs"]["wal"]["base"] == [None] and report["figures"]["wal"]
    assert all(r["base"] is None for r in report["figures"]["wal"].values())
    text = compare.render(report)
    assert "| n/a | " in text and "wal (base)" in text and not report["failures"]
