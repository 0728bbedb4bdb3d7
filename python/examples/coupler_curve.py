"""The worked example of docs/python.md: load the four-bar, sweep its crank, plot the coupler curve.

    PYTHONPATH=build/python python3 python/examples/coupler_curve.py [OUT.png]
"""
import math
import pathlib
import sys

import matplotlib
matplotlib.use("Agg")  # a file, no window
import matplotlib.pyplot as plt

import mechsim

root = pathlib.Path(__file__).resolve().parents[2]
m = mechsim.load(root / "mechanisms" / "fourbar.json")
d = m.make_data()

# Sweep the crank through one turn in 5° steps, over its slider range of ±180° about the file's
# pose (its driver counts from there, where the crank stands at 60°); at each angle the loop closes
# exactly and the coupler point P (a handle of the file) is read back.
lower, upper = m.drivers[0]["range"]
xs, ys, cranks = [], [], []
for k in range(73):
    angle = lower + (upper - lower) * k / 72
    mechsim.drive(m, d, {"crank": angle})
    x, y, _ = d.handle("P")
    xs.append(x)
    ys.append(y)
    cranks.append(angle)

# The same curve from a timed run: the file's driver turns the crank at 360°/s.
r = mechsim.kinematics(m, t_end=1.0, dt=0.01)
print(f"{r.rows} rows, columns {r.columns[:6]} ...; {r.summary}")

fig, ax = plt.subplots(figsize=(6, 5))
ax.plot(xs, ys, "o", ms=3, label="coupler point P, crank driven in 5° steps")
ax.plot(r["coupler.x"], r["coupler.y"], "-", label="joint B (coupler origin), kinematics run")
pivots = [b["position"] for b in m.bodies if b["name"] in ("crank", "rocker")]
ax.plot([p[0] for p in pivots], [p[1] for p in pivots], "ks", label="ground pivots A, D")
ax.set_aspect("equal")
ax.set_xlabel("x [m]")
ax.set_ylabel("y [m]")
ax.set_title(m.name)
ax.legend(loc="lower right", fontsize=8)
out = sys.argv[1] if len(sys.argv) > 1 else "coupler_curve.png"
fig.savefig(out, dpi=120)
print(f"wrote {out}")
