#!/usr/bin/env python3
"""Verify the example mechanisms in mechanisms/.

For every generated file:
  1. regenerate it into a temporary folder and compare with the committed file (up to date?);
  2. re-measure from the FILE the design lengths the generator intended (link lengths, closure);
  3. rebuild the joint equations from the file's configuration (mechcheck.py, independent of the
     generator) and report residual, Grübler count, true mobility and redundant equations from the
     rank of the constraint Jacobian, and the mobility left once the drivers are imposed;
  4. run the drivers (Newton at every step) from t = 0 to t_end and report the worst residual.
  5. when a mechsim-cli is found (build*/app/mechsim-cli or $MECHSIM_CLI), compare its
     `check --json` counts with these.
Usage: verify.py [--quick] [FILE-NAME ...]     (names as in mechanisms/, default all)
Also checks every moving body has shapes and mass or density, and that drivers are 0 at t = 0.
"""
import sys as _sys
_sys.dont_write_bytecode = True  # keep scripts/gen free of __pycache__
import math
import os
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mechcheck  # noqa
from mechlib import dist, repo_path  # noqa

GENERATORS = []
for mod in ("gen_planar", "gen_spatial", "gen_meshes", "gen_big"):
    try:
        GENERATORS.append(__import__(mod))
    except ImportError as e:
        print("(generator %s not available: %s)" % (mod, e))

# run settings per file: (t_end, dt)
RUN = {"nfourbar-40.json": (2.0, 0.05), "car-full.json": (2.0, 0.05), "humanoid.json": (2.0, 0.05),
       "antenna.json": (2.0, 0.1), "antenna-satellite.json": (2.0, 0.1), "stewart.json": (2.0, 0.02)}


def point_of(model, spec):
    if spec.startswith("h:"):
        for h in model.doc.get("handles", []):
            if h["name"] == spec[2:]:
                return [x * model.L for x in h["point"]]
    if "." in spec:
        jn, k = spec.split(".")
        j = [j for j in model.doc["joints"] if j["name"] == jn][0]
        return [x * model.L for x in j[k]]
    return model.joints[model.jidx[spec]]["p"]


def verify(name, checks, quick=False):
    path = repo_path("mechanisms", name)
    ok = True
    doc = mechcheck.load(path)
    model = mechcheck.Model(doc)
    # 2. design lengths
    worst = 0.0
    for label, a, b, L in checks:
        d = dist(point_of(model, a), point_of(model, b))
        worst = max(worst, abs(d - L))
        if abs(d - L) > 1e-12:
            print("  FAIL %s: |%s-%s| = %.15g, intended %.15g" % (label, a, b, d, L)); ok = False
    # bodies: shapes + mass
    for bd in doc["bodies"]:
        if bd.get("fixed"): continue
        if not bd.get("shapes"):
            print("  FAIL body %s has no shapes" % bd["name"]); ok = False
        if "mass" not in bd and "density" not in bd:
            print("  FAIL body %s has neither mass nor density" % bd["name"]); ok = False
    # 3. analysis
    an = model.analyse()
    if an["residual"] > 1e-12:
        print("  FAIL residual at the file's configuration %.3g" % an["residual"]); ok = False
    red = an["redundant"]
    print("  %d moving bodies, %d joints, %d drivers: Phi_q %d x %d (with drivers; %d x %d without)"
          % (an["bodies"], an["joints"], an["drivers"], an["equations"], an["coordinates"],
             an["equations"] - an["drivers"], an["coordinates"]))
    print("  design lengths worst error %.2g over %d checks; residual %.2g" % (worst, len(checks), an["residual"]))
    print("  Grübler %d, true DOF %d, redundant %d%s, DOF with drivers %d"
          % (an["grubler_dof"], an["dof"], an["redundant_count"],
             (" (" + ", ".join(red[:6]) + (", ..." if len(red) > 6 else "") + ")") if red else "", an["dof_driven"]))
    # 4. kinematics
    if doc.get("drivers") and not quick:
        t_end, dt = RUN.get(name, (2.0, 0.01))
        t0 = time.time()
        k = model.kinematics(t_end, dt)
        tr = k["traj"]
        moved = 0.0
        if tr:
            moved = max(max(dist(p, q) for p, q in zip(tr[0][1], s[1])) for s in tr)
        print("  kinematics t=0..%g dt %g: %s, worst residual %.2g, %d Newton iterations, max body travel %.3g m (%.1f s)"
              % (t_end, dt, "ok" if k["ok"] else "FAILED at t=%g (err %.2g)" % (k["t"], k["err"]), k["err"], k["iters"],
                 moved, time.time() - t0))
        if not k["ok"]: ok = False
    return ok, an


def find_cli():
    import glob
    for c in [os.environ.get("MECHSIM_CLI", "")] + sorted(glob.glob(repo_path("build*", "app", "mechsim-cli"))):
        if c and os.access(c, os.X_OK):
            return c
    return None


def cli_check(cli, name, an):
    """Compare `mechsim-cli check --json` with this script's own analysis."""
    import json, subprocess
    p = subprocess.run([cli, "check", repo_path("mechanisms", name), "--json"], capture_output=True, text=True)
    if p.returncode != 0:
        print("  FAIL mechsim-cli check: rc %d %s" % (p.returncode, p.stderr.strip()[:300])); return False
    d = json.loads(p.stdout)
    mine = {"grubler_dof": an["grubler_dof"], "dof": an["dof"], "dof_driven": an["dof_driven"],
            "coordinates": an["coordinates"], "redundant": an["redundant_count"]}
    theirs = dict(d); theirs["redundant"] = len(d.get("redundant", []))
    diff = {k: (v, theirs.get(k)) for k, v in mine.items() if theirs.get(k) != v}
    ok = not diff and d.get("residual", 1) < 1e-10
    print("  mechsim-cli check: residual %.2g, singular %s%s" % (d.get("residual", float("nan")), d.get("singular"),
          "" if not diff else ", DIFFERS (mine, cli): %s" % diff))
    return ok


def main(argv):
    quick = "--quick" in argv
    names = [a for a in argv if not a.startswith("--")]
    tmp = tempfile.mkdtemp()
    cli = find_cli()
    print("mechsim-cli: %s" % (cli or "not found (build it, or set MECHSIM_CLI)"))
    allok = True
    for g in GENERATORS:
        for fname, fn in g.FILES.items():
            if names and fname not in names: continue
            print(fname)
            tp = os.path.join(tmp, fname)
            old = sys.stdout
            sys.stdout = open(os.devnull, "w")
            try:
                checks = fn(tp)
            finally:
                sys.stdout.close(); sys.stdout = old
            real = repo_path("mechanisms", fname)
            if not os.path.exists(real):
                print("  MISSING (run the generator)"); allok = False; continue
            if open(tp).read() != open(real).read():
                print("  WARNING: the committed file differs from the generator's output")
            ok, an = verify(fname, checks or [], quick)
            if cli:
                ok = cli_check(cli, fname, an) and ok
            allok = allok and ok
            print("  " + ("OK" if ok else "FAILED"))
    return 0 if allok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
