"""The base's code and today's measured by turns on this machine in one run (``make bench
BASE=<commit>``): each figure printed as new ÷ base with both values and the run's load.

The base is checked out in a git worktree under ``instance/bench-base/`` with a venv of its own
(``make setup`` there; pip's cache makes it quick, and it is kept for the next run). Each
part of ``bench.run`` is then run in a fresh process by each tree's own ``bench.run``,
alternating which goes first (base, new, new, base, …), so both see the same minutes of a
shared machine; a figure is the median over the rounds, and the ratios of the rounds, each
pair side by side in time, show how much the machine moved it.

    python -m bench.compare [--base <commit>] [--parts taps,history,max,imports]
                            [--rounds 2] [--quick] [--out bench/results/compare.md]
"""
from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import time

from bench.common import ROOT
from bench.figures import figures, issue_targets
from bench.run import PARTS as ALL_PARTS

PARTS = ("taps", "history", "max", "imports")  # issue 38's items 2–5
SIZES = "100,1000"  # two sizes: a move's answer should weigh the same at both
# Lines of docs/performance.md holding a measured figure: what "changed the figures" means.
FIGURE_LINE = r"[0-9] ?(ms|×|/s)"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.compare", description=__doc__.split("\n\n")[0])
    parser.add_argument("--base", help="commit or tag to compare with (default: the last commit before "
                                       "HEAD that changed docs/performance.md's figures)")
    parser.add_argument("--base-tree", help="an already prepared checkout (with its .venv) to use as the base")
    parser.add_argument("--parts", default=",".join(PARTS), help="bench.run parts, comma-separated")
    parser.add_argument("--rounds", type=int, default=2, help="runs of each part per tree (order alternates)")
    parser.add_argument("--quick", action="store_true", help="bench.run's small variants (for the tests)")
    parser.add_argument("--games", help="comma-separated game kinds (bench.run --games)")
    parser.add_argument("--sizes", default=SIZES, help="game sizes of the sizes part (bench.run --sizes)")
    parser.add_argument("--out", help="where to write the report (default bench/results/compare-<time>.md; "
                                      "the raw figures beside it as .json)")
    args = parser.parse_args(argv)
    if args.base_tree:
        tree = os.path.abspath(args.base_tree)
        base = resolve(args.base) if args.base else git("rev-parse", "HEAD", cwd=tree)
    else:
        base = resolve(args.base) if args.base else default_base()
        tree = prepare(base)
    extra = (["--quick"] if args.quick else []) + (["--games", args.games] if args.games else [])
    report = compare({"base": tree, "new": ROOT}, args.parts.split(","), args.rounds, extra, args.sizes)
    report["commits"] = {"base": describe(base, tree) + dirty(tree), "new": describe("HEAD", ROOT) + dirty(ROOT)}
    text = render(report)
    print(text)
    out = args.out or os.path.join(ROOT, "bench", "results", time.strftime("compare-%Y%m%d-%H%M%S.md"))
    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
    with open(out, "w") as f:
        f.write(text + "\n")
    with open(os.path.splitext(out)[0] + ".json", "w") as f:
        json.dump(report, f, indent=1, default=str)
    print(f"\n(written to {out})", file=sys.stderr)
    return 0 if not report["failures"] else 1


# ---- the trees ------------------------------------------------------------------------

def git(*args: str, cwd: str = ROOT) -> str:
    return subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, check=True).stdout.strip()


def resolve(ref: str) -> str:
    return git("rev-parse", "--verify", f"{ref}^{{commit}}")


def default_base() -> str:
    """The newest tag if the repository has one, else the last commit before HEAD whose change
    to docs/performance.md touched a line with a measured figure: the code those figures are of."""
    tags = git("tag", "--sort=-creatordate", "--merged", "HEAD").splitlines()
    if tags:
        return resolve(tags[0])
    found = git("log", "-1", "--format=%H", "-G", FIGURE_LINE, "HEAD~1", "--", "docs/performance.md")
    if not found:
        raise SystemExit("no commit before HEAD changed docs/performance.md's figures: give BASE=<commit>")
    return found


def describe(ref: str, tree: str) -> str:
    """``abc1234 (2026-11-26 21:36) The subject's first words…``"""
    line = git("log", "-1", "--format=%h (%cd) %s", "--date=format:%Y-%m-%d %H:%M", ref, cwd=tree)
    return line if len(line) <= 90 else line[:89] + "…"


def dirty(tree: str) -> str:
    return " + uncommitted changes" if git("status", "--porcelain", "--untracked-files=no", cwd=tree) else ""


def prepare(commit: str, log=None) -> str:
    """The base checked out at ``instance/bench-base/<commit>`` with its own venv (kept):
    outside the folders the tests read as the project's code."""
    log = log or (lambda msg: print(msg, file=sys.stderr, flush=True))
    path = os.path.join(ROOT, "instance", "bench-base", commit[:12])
    if not (os.path.exists(path) and git("rev-parse", "HEAD", cwd=path) == commit):
        if os.path.exists(path):
            git("worktree", "remove", "--force", path)
        git("worktree", "prune")
        log(f"compare: checking out the base {commit[:12]} in {path}")
        git("worktree", "add", "--detach", path, commit)
    log("compare: the base's venv (make setup .venv/.test-installed there)")
    os.makedirs(os.path.join(path, "instance"), exist_ok=True)  # its database may be elsewhere (DATABASE set)
    env = {k: v for k, v in os.environ.items() if k not in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL", "VIRTUAL_ENV")}
    subprocess.run(["make", "-s", "-C", path, "setup", ".venv/.test-installed"], check=True, env=env,
                   stdout=sys.stderr)
    return path


# ---- the runs -------------------------------------------------------------------------

def compare(trees: dict[str, str], parts: list[str], rounds: int, extra: list[str], sizes: str,
            log=None) -> dict:
    """Every part ``rounds`` times in each tree, the order alternating; the load average
    (1, 5, 15 min) before every run and after the last."""
    log = log or (lambda msg: print(msg, file=sys.stderr, flush=True))
    report = {"started": _now(), "parts": parts, "rounds": rounds, "args": extra, "sizes": sizes,
              "cpus": os.cpu_count(), "loads": [], "runs": {p: {"base": [], "new": []} for p in parts},
              "failures": []}
    work = os.path.join(ROOT, "bench", "results", time.strftime("runs-%Y%m%d-%H%M%S"))
    os.makedirs(work, exist_ok=True)
    for part in parts:
        for n in range(rounds):
            for side in ("base", "new") if n % 2 == 0 else ("new", "base"):
                report["loads"].append(os.getloadavg())
                report.setdefault("part_loads", {}).setdefault(part, []).append(report["loads"][-1][0])
                log(f"compare: {part}, round {n + 1} of {rounds}, {side} (load {report['loads'][-1][0]:.1f})")
                args = extra + (["--sizes", sizes] if part in ("sizes", "taps") else [])
                ran = stand_in(trees[side], part)
                if ran is None:  # this tree's benchmark has no such part: "n/a" on its side
                    report["runs"][part][side].append(None)
                    report.setdefault("absent", []).append(f"{part} ({side})")
                    continue
                results = run_part(trees[side], ran, args, os.path.join(work, f"{part}-{n + 1}-{side}"))
                if results is None:
                    report["failures"].append(f"{part} round {n + 1} {side}")
                elif ran != part:
                    results[part] = results.get(ran)
                report["runs"][part][side].append(results)
    report["loads"].append(os.getloadavg())
    report["finished"] = _now()
    report["figures"] = combine(report)
    return report


# The headings of issue 38's parts in the report (docs/performance.md's tables)
TITLES = {"taps": "Item 2: a tap's append and answer (taps)", "history": "Item 3: history pages (history)",
          "max": "Item 4: sustained appends (max)", "imports": "Item 5: other tables during imports (imports)"}
# A part an older benchmark lacks, and the part of it whose results hold the same figures.
STAND_INS = {"taps": "sizes"}


def parts_of(tree: str) -> set[str]:
    """The parts ``bench.run`` of ``tree`` runs unless skipped: every ``"<part>" not in skip``
    of its run.py (an older one has no list of its parts)."""
    with open(os.path.join(tree, "bench", "run.py"), encoding="utf-8") as f:
        return set(re.findall(r'"(\w+)" not in skip', f.read()))


def stand_in(tree: str, part: str) -> str | None:
    """The part to run in ``tree`` for ``part``: itself, its stand-in, or None (not there)."""
    have = parts_of(tree)
    if part in have:
        return part
    return STAND_INS[part] if STAND_INS.get(part) in have else None


def run_part(tree: str, part: str, args: list[str], stem: str) -> dict | None:
    """One part of ``bench.run`` in ``tree`` with its venv: its raw results, or None if it
    failed (its output is kept beside the JSON). The others are left out with ``--skip``,
    which every version of ``bench.run`` has (``--only`` came later)."""
    python = os.path.join(tree, ".venv", "bin", "python")
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH")}
    others = ",".join(p for p in ALL_PARTS if p != part)
    with open(stem + ".txt", "w") as out:
        done = subprocess.run([python, "-m", "bench.run", "--skip", others, "--json", stem + ".json", *args],
                              cwd=tree, stdout=out, stderr=subprocess.STDOUT, env=env)
    if done.returncode != 0 or not os.path.exists(stem + ".json"):
        with open(stem + ".txt") as f:
            print(f.read()[-2000:], file=sys.stderr)
        return None
    with open(stem + ".json") as f:
        return json.load(f)


def _now() -> str:
    return time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime())


def combine(report: dict) -> dict:
    """Per part, per figure: each side's values over the rounds, their medians and the ratio."""
    out = {}
    for part, sides in report["runs"].items():
        per_side = {side: [figures(part, r) if r else {} for r in runs] for side, runs in sides.items()}
        names = list(dict.fromkeys(n for side in ("new", "base") for f in per_side[side] for n in f))
        rows = {}
        for name in names:
            values = {side: [f[name][0] for f in per_side[side] if name in f and f[name][0] is not None]
                      for side in ("base", "new")}
            better = next(f[name][1] for side in ("new", "base") for f in per_side[side] if name in f)
            pairs = [(b[name][0], n[name][0]) for b, n in zip(per_side["base"], per_side["new"])
                     if name in b and name in n and b[name][0] and n[name][0] is not None]
            base = statistics.median(values["base"]) if values["base"] else None
            new = statistics.median(values["new"]) if values["new"] else None
            rows[name] = {"base": base, "new": new, "better": better,
                          "ratio": new / base if base and new is not None else None,
                          "round_ratios": [n / b for b, n in pairs]}
        out[part] = rows
    return out


# ---- printing -------------------------------------------------------------------------

def _num(value) -> str:
    if value is None:
        return "n/a"
    if float(value).is_integer() and abs(value) < 100:
        return f"{value:.0f}"
    return f"{value:,.0f}" if abs(value) >= 100 else f"{value:,.2f}" if abs(value) < 10 else f"{value:,.1f}"


def _loads(report: dict) -> str:
    ones = [load[0] for load in report["loads"]]
    last = report["loads"][-1]
    return (f"load average (1 min) {ones[0]:.2f} at the start, {min(ones):.2f}–{max(ones):.2f} over the "
            f"run, {ones[-1]:.2f} at the end (5 and 15 min at the end: {last[1]:.2f}, {last[2]:.2f}) "
            f"on {report['cpus']} CPUs")


def render(report: dict) -> str:
    commits = report.get("commits", {})
    out = [f"### new ÷ base, measured by turns in one run", "",
           f"Base: {commits.get('base', '?')}. New: {commits.get('new', '?')}.",
           f"Run {report['started']} → {report['finished']}; {_loads(report)}. Every part ran "
           f"{report['rounds']}× in each tree, alternating which went first; a value is the median of "
           "its rounds, *rounds* gives new ÷ base of each pair run back to back. "
           f"Arguments: {' '.join(report['args']) or '(full size)'}; sizes part at {report['sizes']} events. "
           "Absolute values are this machine's at this load; the ratios are the comparison.", ""]
    if report.get("absent"):
        out += ["**Parts a tree's benchmark does not have** (n/a on its side): "
                + ", ".join(dict.fromkeys(report["absent"])), ""]
    if report["failures"]:
        out += ["**Failed runs** (their output is in bench/results/runs-*): " + ", ".join(report["failures"]), ""]
    for part, rows in report["figures"].items():
        loads = report.get("part_loads", {}).get(part) or [0.0]
        load = f"{min(loads):.1f}–{max(loads):.1f}"
        out += [f"#### {TITLES.get(part, part)}", "",
                "| figure | base | new | new ÷ base | rounds | better | load (1 min) |", "|---|---|---|---|---|---|---|"]
        for name, r in rows.items():
            ratio = "n/a" if r["ratio"] is None else f"{r['ratio']:.2f}×"
            rounds = ", ".join(f"{x:.2f}" for x in r["round_ratios"]) or "–"
            out.append(f"| {name} | {_num(r['base'])} | {_num(r['new'])} | {ratio} | {rounds} | {r['better']} | {load} |")
        out.append("")
    targets = issue_targets(report["figures"])
    if targets:
        out += ["#### Issue 38's targets in this run", "", "| target | this run | verdict |", "|---|---|---|"]
        out += [f"| {t} | {now} | {'**met**' if met else '**not met**'} |" for t, now, met in targets]
        out.append("")
    return "\n".join(out)


if __name__ == "__main__":
    sys.exit(main())
