"""Parameter-study throughput, side by side in one run (`mechsim-cli bench study` runs this).

    PYTHONPATH=build/python python3 python/bench/bench_study.py [--cli build/app/mechsim-cli] [--runs 1000]

A Monte Carlo study of the parametric four-bar (mechanisms/fourbar-parametric.json): the four link
lengths drawn with ±0.5 mm tolerances (3 sd), a kinematic run of one crank turn (101 output
times) per run, three outputs. Measured:
  * runs/s of `mechsim-cli study --jobs 1` (one core) and `--jobs N` (every core), and of
    mechsim.study through a local Dask cluster of two single-threaded worker processes;
  * the overhead per run beyond the solve: a run as the study makes it (read the file with the
    run's parameter values, compile, run, reduce: StudyPlan.run) against the kinematic run alone on a
    model compiled once (mechsim.kinematics), both on one thread, the median of all runs.
Goal: overhead ≤ 10 ms per run.
"""
import argparse
import json
import os
import pathlib
import re
import statistics
import subprocess
import sys
import tempfile
import time

import mechsim
from mechsim import _mechsim



def main():
    root = pathlib.Path(__file__).resolve().parents[2]
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", default=str(root / "build" / "app" / "mechsim-cli"))
    ap.add_argument("--runs", type=int, default=1000)
    ap.add_argument("--csv", action="store_true")
    args = ap.parse_args()

    tmp = pathlib.Path(tempfile.mkdtemp())
    mechanism = root / "mechanisms" / "fourbar-parametric.json"
    study = {
        "mechsim-study": 1,
        "mechanism": str(mechanism),
        "analysis": {"kind": "kinematics", "t-end": 1.0, "dt": 0.01},
        "vary": [{"parameter": p, "normal": {"mean": m, "tolerance": 0.0005}}
                 for p, m in (("L1", 0.4), ("L2", 0.1), ("L3", 0.35), ("L4", 0.3))],
        "runs": args.runs,
        "seed": 1,
        "outputs": [{"name": "P_deviation", "handle": "P", "reduce": "max-deviation"},
                    {"name": "rocker_max", "column": "D", "reduce": "max"},
                    {"column": "D.vel", "reduce": "rms"}],
    }
    study_file = tmp / "study.json"
    study_file.write_text(json.dumps(study))
    cores = os.cpu_count() or 1
    env = dict(os.environ, MECHSIM_CACHE_DIR="off")


    def cli(jobs):
        out = tmp / f"cli-{jobs}.csv"
        t0 = time.perf_counter()
        subprocess.run([args.cli, "study", str(study_file), "--out", str(out), "--jobs", str(jobs), "--force", "--quiet"],
                       check=True, env=env, capture_output=True)
        return time.perf_counter() - t0, out


    rows = []
    t1, out1 = min(cli(1), cli(1))  # the better of two: the machine is shared
    rows.append(("mechsim-cli study --jobs 1", 1, t1))
    tn, outn = min(cli(cores), cli(cores))
    rows.append((f"mechsim-cli study --jobs {cores}", cores, tn))

    import distributed
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None)
    client = distributed.Client(cluster)
    client.run(lambda: __import__("mechsim"))  # the workers import the package before the clock starts
    outd = tmp / "dask.csv"
    t0 = time.perf_counter()
    mechsim.study(study_file, outd, client=client, progress=False)
    td = time.perf_counter() - t0
    client.close()
    cluster.close()
    rows.append(("mechsim.study on Dask, 2 worker processes", 2, td))
    same = out1.read_bytes() == outn.read_bytes() == outd.read_bytes()

    # Overhead per run beyond the solve, one thread.
    plan = _mechsim.StudyPlan(str(study_file))
    plan.run(0)  # the nominal run (for P_deviation) is made once, before the clock
    model = mechsim.load(mechanism)
    whole, solve = [], []
    for i in range(min(args.runs, 200)):
        t0 = time.perf_counter()
        plan.run(i)
        whole.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        mechsim.kinematics(model, 1.0, 0.01)
        solve.append(time.perf_counter() - t0)
    overhead_ms = (statistics.median(whole) - statistics.median(solve)) * 1e3

    if args.csv:
        print("runner,cores,seconds,runs_per_s,ratio_to_one_core")
        for name, c, t in rows:
            print(f"{name},{c},{t:.4f},{args.runs / t:.1f},{t1 / t:.3f}")
        print(f"overhead_per_run_ms,{overhead_ms:.3f}")
        return
    print(f"study of {args.runs} runs (parametric four-bar, link lengths ± 0.5 mm, 101 output times each); "
          f"tables identical: {'yes' if same else 'NO'}")
    print(f"  {'':44s} {'cores':>5s} {'s':>8s} {'runs/s':>8s} {'× one core':>11s}")
    for name, c, t in rows:
        print(f"  {name:44s} {c:5d} {t:8.3f} {args.runs / t:8.1f} {t1 / t:11.2f}")
    print(f"  one run as the study makes it: {statistics.median(whole) * 1e3:.3f} ms; the kinematic run alone: "
          f"{statistics.median(solve) * 1e3:.3f} ms; overhead {overhead_ms:.3f} ms per run "
          f"(goal ≤ 10 ms: {'met' if overhead_ms <= 10 else 'NOT met'})")


if __name__ == "__main__":  # Dask's worker processes import this file: run only here
    main()
