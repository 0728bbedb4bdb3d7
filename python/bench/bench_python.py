"""What the Python layer costs, side by side with the C++ it calls (issue: Python package, item 6).

    PYTHONPATH=build/python python3 python/bench/bench_python.py [--cli build/app/mechsim-cli]

1. One mechsim.step call from Python beyond the C++ step: n steps of the IFToMM A01 pendulum made
   by n Python calls of mechsim.step, against the same n steps made by one call whose loop is in
   C++ (_mechsim._step_n: the same stage, the same GIL release and state copy, once); the
   difference per step is the Python call's cost. Also the bare compiled function without the
   package's Python wrapper. Goal: at most 5 µs.
2. `kinematics` of the Stewart platform from Python (mechsim.load + mechsim.kinematics +
   Result.to_csv) against the command line doing the same (`mechsim-cli kinematics ... --out`, a
   process of its own: its start-up included), and the run alone (Python's call against the
   wall time the command prints for its loop). Goal: within 5 %.
Each figure is the best of several repetitions (the least disturbed by the machine's other
work), the two sides interleaved, measured in this one run.
"""
import argparse
import os
import pathlib
import re
import subprocess
import sys
import tempfile
import time

import mechsim
from mechsim import _mechsim

root = pathlib.Path(__file__).resolve().parents[2]
ap = argparse.ArgumentParser()
ap.add_argument("--cli", default=str(root / "build" / "app" / "mechsim-cli"))
ap.add_argument("--steps", type=int, default=200000)
ap.add_argument("--repeat", type=int, default=7)
args = ap.parse_args()


def median_time(f, repeat):
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        f()
        times.append(time.perf_counter() - t0)
    return min(times)


# ---- 1. the cost of a step call ----
m = mechsim.load(root / "mechanisms" / "dynamics" / "a01-pendulum.json", sliders=False)
n, h = args.steps, 1e-5
d_py, d_raw, d_cpp = m.make_data(), m.make_data(), m.make_data()
step, raw_step = mechsim.step, _mechsim._step


def python_loop():
    for _ in range(n):
        step(m, d_py, h)


def raw_loop():
    rm, rd = m._m, d_raw._d
    for _ in range(n):
        raw_step(rm, rd, h)


def cpp_loop():
    assert _mechsim._step_n(m._m, d_cpp._d, h, n)


for warm in (python_loop, raw_loop, cpp_loop):  # dynamic mode on, caches warm
    warm()
t_cpp = median_time(cpp_loop, args.repeat)
t_py = median_time(python_loop, args.repeat)
t_raw = median_time(raw_loop, args.repeat)
per = lambda t: t / n * 1e6
print(f"step call (A01 pendulum, {n} steps of {h:g} s, best of {args.repeat}):")
print(f"  {'':34s} {'µs/step':>9s} {'vs C++ loop':>12s} {'call cost µs':>13s}")
print(f"  {'C++ loop (one call, _step_n)':34s} {per(t_cpp):9.3f} {1.0:12.2f} {'':>13s}")
print(f"  {'_mechsim._step (compiled, bare)':34s} {per(t_raw):9.3f} {t_raw / t_cpp:12.2f} {per(t_raw - t_cpp):13.3f}")
print(f"  {'mechsim.step (the package)':34s} {per(t_py):9.3f} {t_py / t_cpp:12.2f} {per(t_py - t_cpp):13.3f}")
print(f"  goal: mechsim.step's call cost <= 5 µs: {'met' if per(t_py - t_cpp) <= 5 else 'NOT met'}")

# ---- 2. kinematics of the Stewart platform: Python against the command line ----
stewart = root / "mechanisms" / "stewart.json"
t_end, dt = 20.0, 0.001
tmp = pathlib.Path(tempfile.mkdtemp())
env = dict(os.environ, MECHSIM_CACHE_DIR="off")


def cli_run():
    r = subprocess.run([args.cli, "kinematics", str(stewart), "--t-end", str(t_end), "--dt", str(dt), "--out",
                        str(tmp / "cli.csv")], capture_output=True, text=True, env=env, check=True)
    return float(re.search(r"wall ([0-9.]+) s", r.stdout).group(1))


def python_run():
    model = mechsim.load(stewart)
    t0 = time.perf_counter()
    r = mechsim.kinematics(model, t_end, dt)
    run = time.perf_counter() - t0
    r.to_csv(tmp / "python.csv")
    return run


cli_whole, cli_loop, py_whole, py_loop = [], [], [], []
for _ in range(args.repeat):  # interleaved, so that the machine's load falls on both alike
    t0 = time.perf_counter()
    cli_loop.append(cli_run())
    cli_whole.append(time.perf_counter() - t0)
    t0 = time.perf_counter()
    py_loop.append(python_run())
    py_whole.append(time.perf_counter() - t0)
assert (tmp / "cli.csv").read_bytes() == (tmp / "python.csv").read_bytes()
med = min
rows = int(t_end / dt) + 1
print(f"kinematics of the Stewart platform ({rows} output times, best of {args.repeat}; the two CSVs identical):")
print(f"  {'':36s} {'CLI s':>8s} {'Python s':>9s} {'Python/CLI':>11s}")
print(f"  {'load + run + write CSV':36s} {med(cli_whole):8.3f} {med(py_whole):9.3f} {med(py_whole) / med(cli_whole):11.3f}")
print(f"  {'the run alone':36s} {med(cli_loop):8.3f} {med(py_loop):9.3f} {med(py_loop) / med(cli_loop):11.3f}")
ratio = med(py_whole) / med(cli_whole)
print(f"  goal: within 5 %: {'met' if ratio <= 1.05 else 'NOT met'} ({(ratio - 1) * 100:+.1f} %)")
