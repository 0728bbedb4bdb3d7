"""The package as a script uses it: load, check, the stages, the state views, errors, threads,
Ctrl-C (docs/python.md)."""
import json
import math
import os
import re
import signal
import subprocess
import threading
import time

import numpy as np
import pytest

import mechsim
from conftest import CLI, SOURCE, mechanism


# ---- loading and errors ----

def bad_files():
    for p in sorted((SOURCE / "tests" / "data" / "bad").glob("*.json")):
        yield pytest.param(p, id=p.name)


@pytest.mark.parametrize("path", list(bad_files()))
def test_every_bad_file_raises_file_error(path):
    line, col, substring = re.match(r"// expect: (\d+):(\d+): (.*)", path.read_text(errors="replace").splitlines()[0]).groups()
    with pytest.raises(mechsim.FileError) as e:
        mechsim.load(path)
    assert (e.value.line, e.value.column) == (int(line), int(col)), str(e.value)
    assert substring.strip() in e.value.message
    assert str(e.value).startswith(f"{path}:{line}:{col}: error: ")
    assert e.value.file == str(path)
    with pytest.raises(mechsim.FileError):
        mechsim.load_spec(path)


def test_missing_file_and_wrong_types():
    with pytest.raises(mechsim.FileError) as e:
        mechsim.load("/no/such/mechanism.json")
    assert "/no/such/mechanism.json" in str(e.value)
    m = mechsim.load(mechanism("fourbar.json"))
    d = m.make_data()
    with pytest.raises(TypeError):
        mechsim.drive(m, d, [0.3])
    with pytest.raises(TypeError):
        mechsim.drive(m, d, {"crank": "fast"})
    with pytest.raises(KeyError, match="no degree of freedom named 'crunk'"):
        mechsim.drive(m, d, {"crunk": 0.3})
    with pytest.raises(ValueError, match="not finite"):
        mechsim.drive(m, d, {"crank": float("nan")})
    with pytest.raises(TypeError):
        mechsim.step(d, m, 1e-3)
    with pytest.raises(ValueError, match="need --t-end ≥ 0 and --dt > 0"):  # the command line's message
        mechsim.kinematics(m, 1.0, 0.0)
    with pytest.raises(ValueError, match="too many"):
        mechsim.kinematics(m, 1e9, 1e-3)
    with pytest.raises(ValueError, match="another Model"):
        mechsim.assemble(mechsim.load(mechanism("fourbar.json")), d)


def test_every_format_loads():
    for f in ["fourbar.json", "urdf/panda.urdf", "mjcf/panda.xml", "sdf/panda.sdf"]:
        m = mechsim.load(mechanism(f), sliders=False)
        assert len(m.bodies) > 1 and len(m.joints) > 0, f


def test_check_is_the_cli_check():
    for f in ["fourbar.json", "stewart.json", "urdf/ur5.urdf", "deform-flexible-link.json"]:
        path = mechanism(f)
        cli = subprocess.run([CLI, "check", path, "--json"], capture_output=True, text=True, timeout=120)
        assert cli.returncode == 0, cli.stderr
        assert mechsim.load(path, sliders=False).check() == json.loads(cli.stdout), f


def test_model_describes_the_mechanism():
    m = mechsim.load(mechanism("fourbar.json"))
    assert [b["name"] for b in m.bodies] == ["ground", "crank", "coupler", "rocker"]
    assert m.bodies[0]["fixed"] and not m.bodies[1]["fixed"]
    crank = m.bodies[1]
    assert crank["mass"] > 0 and len(crank["inertia"]) == 3
    assert [j["name"] for j in m.joints] == ["A", "B", "C", "D"]
    assert m.joints[0]["type"] == "revolute" and m.joints[0]["body2"] == "crank"
    assert [x["name"] for x in m.drivers] == ["crank"]
    assert m.drivers[0]["kind"] == "driver" and m.drivers[0]["angular"] and m.drivers[0]["expression"] == "360 * t"
    assert m.handles == [{"name": "P", "body": "coupler", "point": pytest.approx(m.handles[0]["point"])}]
    assert m.nq == 21 and m.coordinate_names == ["A", "B", "C", "D"]


# ---- stages and state ----

def test_drive_closes_the_loop_and_views_follow():
    m = mechsim.load(mechanism("fourbar.json"))
    d = m.make_data()
    q = d.q  # one view, taken once
    assert not q.flags.writeable and q.base is not None
    with pytest.raises(ValueError):
        q[0] = 1.0
    p0 = d.handle("P")
    mechsim.drive(m, d, {"crank": 0.3})
    assert d.coord("A") == pytest.approx(0.3, abs=1e-12)
    assert d.dof_values[0] == pytest.approx(0.3)
    assert d.residual < 1e-10 and d.converged
    assert np.array_equal(q, d.q)  # the view taken before the stage shows the new state
    assert d.handle("P") != p0
    # Body poses: the coupler's origin is joint B, on the crank's circle of radius 0.1.
    B = d.body_pos[2]
    assert math.hypot(B[0], B[1]) == pytest.approx(0.1, abs=1e-9)
    assert np.allclose(np.linalg.norm(d.body_quat, axis=1), 1)
    assert d.point("coupler", [0, 0, 0]) == pytest.approx(list(B))
    mechsim.assemble(m, d)
    assert d.coord("A") == pytest.approx(0, abs=1e-12)  # the driver 360 t at t = 0 (coordinates count from the file's pose)


def test_drive_out_of_reach_stays_at_the_last_good_pose():
    m = mechsim.load(mechanism("slider-crank.json"))
    d = m.make_data()
    names = [x["name"] for x in m.drivers]
    # A coordinate DOF past its reach: narrowed, the mechanism stays assembled.
    before = d.q.copy()
    try:
        mechsim.drive(m, d, {names[-1]: 1e3})
    except mechsim.SolveError as e:
        assert d.message and str(e)
    assert d.residual < 1e-8
    assert np.all(np.isfinite(d.q)) and d.q.shape == before.shape


def branch(d):
    """The four-bar's assembly mode: the sign of z·((C − B) × (D − C))."""
    B, D = d.body_pos[2], d.body_pos[3]
    C = np.array(d.point("rocker", [0.3, 0, 0]))
    return np.sign(np.cross(C - B, D - C)[2])


def test_anm_drag_keeps_the_branch():
    m = mechsim.load(mechanism("fourbar.json"))
    d = m.make_data()
    s0 = branch(d)
    # The coupler curve (one crank turn) from the kinematic run, then the handle dragged along it
    # with ANM: every 15° of crank, and in far jumps of 90°.
    r = mechsim.kinematics(m, 1.0, 1.0 / 24)
    path = [d.handle("P")]
    run = m.make_data()
    for k in range(1, 25):
        mechsim.advance(m, run, 1.0 / 24)
        path.append(run.handle("P"))
    assert r.rows == 25 and r["A"][-1] == pytest.approx(2 * math.pi)
    for stride in (1, 6):
        mechsim.assemble(m, d)
        for target in path[stride::stride]:
            res = mechsim.drag(m, d, "P", target, method="anm")
            assert res["reached"] and res["distance"] < 1e-6, res
            assert d.residual < 1e-9
            assert branch(d) == s0
    # A drag that stays on across calls.
    mechsim.assemble(m, d)
    for target in path[1:6]:
        mechsim.drag(m, d, "P", target, method="anm", end=False)
    mechsim.end_drag(m, d)
    assert branch(d) == s0
    with pytest.raises(ValueError, match="unknown drag method"):
        mechsim.drag(m, d, "P", path[0], method="spline")
    with pytest.raises(KeyError):
        mechsim.drag(m, d, "Q", path[0])


def test_steps_equal_simulate():
    m = mechsim.load(mechanism("dynamics/a01-pendulum.json"))
    r = mechsim.simulate(m, 0.05, 1e-3)
    d = m.make_data()
    for k in range(1, r.rows):
        mechsim.step(m, d, 1e-3)
        assert d.t == r["t"][k]
    assert d.dynamic
    body = [b["name"] for b in m.bodies if not b["fixed"]][0]
    assert d.body_pos[1][0] == r[f"{body}.x"][-1] and d.body_pos[1][2] == r[f"{body}.z"][-1]
    assert d.energy["total"] == pytest.approx(r["energy.total"][-1], rel=1e-12)


def test_step_memory_does_not_grow():
    m = mechsim.load(mechanism("dynamics/a01-pendulum.json"))
    d = m.make_data()

    def rss():
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")

    for _ in range(10000):
        mechsim.step(m, d, 1e-4)
    before = rss()
    for _ in range(100000):
        mechsim.step(m, d, 1e-4)
    grown = rss() - before
    assert grown < 1 << 20, f"resident memory grew by {grown} bytes over 10^5 steps"
    assert math.isfinite(d.t) and d.t == pytest.approx(11.0, rel=1e-9)


def test_deformable_parts_step():
    m = mechsim.load(mechanism("deform-flexible-link.json"))
    d = m.make_data()
    x = d.part_positions("link" if "link" in [p["name"] for p in m.parts] else 0)
    rest = x.copy()
    assert x.shape[1] == 3 and not x.flags.writeable
    mechsim.drive(m, d, {m.drivers[0]["name"]: 0.4})
    for _ in range(3):
        mechsim.step_deformables(m, d)
    assert not np.array_equal(x, rest)  # the view shows the stepped part
    assert d.attach_error < 1e-6
    mechsim.reset_deformables(m, d)
    assert np.array_equal(x, rest)
    with pytest.raises(ValueError, match="no deformable parts"):
        m2 = mechsim.load(mechanism("fourbar.json"))
        mechsim.step_deformables(m2, m2.make_data())


def test_runs_on_threads_equal_one_thread():
    m = mechsim.load(mechanism("dynamics/a04-bricard.json"), sliders=False)
    serial = mechsim.simulate(m, 0.2, 1e-3).csv()
    k = mechsim.load(mechanism("stewart.json"))
    kserial = mechsim.kinematics(k, 0.3, 0.01).csv()
    out = [None] * 4

    def work(i):
        out[i] = mechsim.simulate(m, 0.2, 1e-3).csv() if i % 2 == 0 else mechsim.kinematics(k, 0.3, 0.01).csv()

    threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert out == [serial, kserial, serial, kserial]


def test_ctrl_c_stops_a_run():
    m = mechsim.load(mechanism("dynamics/a01-pendulum.json"), sliders=False)
    timer = threading.Timer(0.5, os.kill, (os.getpid(), signal.SIGINT))
    t0 = time.monotonic()
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        mechsim.simulate(m, 1e4, 1e-3)  # 10⁷ steps: minutes
    elapsed = time.monotonic() - t0
    timer.join()
    assert elapsed < 3.0, elapsed


def test_failed_run_keeps_its_rows():
    # A driver expression that is undefined from t = 0.25 s on (sqrt of a negative number).
    s = mechsim.load_spec(mechanism("fourbar.json"))
    s.drivers["crank"].expression = "100 * (0.5 - sqrt(0.25 - t))"
    m = mechsim.compile(s)
    with pytest.raises(mechsim.SolveError) as e:
        mechsim.kinematics(m, 0.5, 0.05)
    r = e.value.result
    assert 0 < r.rows < 11 and not r.ok and "t = " in r.failure
    assert mechsim.kinematics(m, 0.5, 0.05, check=False).rows == r.rows


# ---- editing the description ----

def test_spec_edit_compile_save(tmp_path):
    s = mechsim.load_spec(mechanism("fourbar.json"))
    assert s.get("bodies.crank.mass") is None  # from density and shapes
    assert s.get("joints.B.point") == pytest.approx([0.05, 0.0866025403784439, 0])
    assert s.get("joints.B.point[1]") == pytest.approx(0.0866025403784439)
    s.bodies["crank"].mass = 2.0
    assert s.bodies["crank"].mass == 2.0
    s.drivers["crank"].expression = "180 * t"
    m = mechsim.compile(s)
    assert m.bodies[1]["mass"] == 2.0
    assert m.drivers[0]["expression"] == "180 * t"
    r = mechsim.kinematics(m, 1.0, 0.5)
    assert r["A"][-1] == pytest.approx(math.pi)  # 180°/s for 1 s from the file's pose
    out = tmp_path / "edited.json"
    s.save(out)
    again = mechsim.load_spec(out)
    assert again.get("bodies.crank.mass") == 2.0 and again.get("drivers.crank.expression") == "180 * t"
    assert again.text() == s.text()
    # Moving a joint point moves the mechanism the compiler builds.
    s2 = mechsim.load_spec(mechanism("fourbar.json"))
    s2.set("handles.P.point[2]", 0.05)
    assert mechsim.compile(s2).make_data().handle("P")[2] == pytest.approx(0.05)
    # Errors: unknown names and fields, wrong kinds and counts; the spec unchanged.
    with pytest.raises(ValueError, match="no body named 'crnk'"):
        s.set("bodies.crnk.mass", 1)
    with pytest.raises(AttributeError):
        s.bodies["crank"].colour = "red"
    with pytest.raises(ValueError, match="expected 3 numbers"):
        s.set("joints.B.point", [1, 2])
    with pytest.raises(TypeError):
        s.set("joints.B.point", {"x": 1})
    with pytest.raises(ValueError, match="not finite"):
        s.set("bodies.crank.mass", float("inf"))
    assert s.bodies["crank"].mass == 2.0
    # A compile error is located in the file.
    s.set("joints.A.axis", [0, 0, 0])
    with pytest.raises(mechsim.FileError) as e:
        mechsim.compile(s)
    assert e.value.file.endswith("fourbar.json") and e.value.line > 0
    assert "joints.B.point" in s.paths() and "bodies.crank.mass" in s.paths()


def test_docstrings():
    for name in mechsim.__all__:
        obj = getattr(mechsim, name)
        assert obj.__doc__ and len(obj.__doc__) > 40, name
