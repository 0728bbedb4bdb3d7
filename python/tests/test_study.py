"""Parameter studies for real (docs/studies.md): the command line on threads, killed and resumed;
the Python package on threads; a Dask cluster — a scheduler and two workers started here on
localhost, one killed mid-study — giving every run exactly once with the local run's outputs."""
import csv
import os
import signal
import socket
import subprocess
import sys
import time

import pytest

import mechsim
from conftest import CLI, SOURCE

SLOW = str(SOURCE / "tests" / "data" / "studies" / "fourbar-slow.json")
TOLERANCE = str(SOURCE / "mechanisms" / "studies" / "fourbar-tolerance.json")


def rows(path):
    with open(path, newline="") as f:
        r = list(csv.reader(f))
    return r[0], r[1:]


def run_cli(*args, **kw):
    return subprocess.run([CLI, "study", *args], capture_output=True, text=True, timeout=300, **kw)


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    """The slow study run once, uninterrupted, by the command line."""
    out = tmp_path_factory.mktemp("ref") / "reference.csv"
    r = run_cli(SLOW, "--out", str(out), "--quiet")
    assert r.returncode == 0, r.stderr
    return out


def test_python_threads_equal_the_cli(reference, tmp_path):
    out = tmp_path / "python.csv"
    result = mechsim.study(SLOW, out, jobs=2, progress=False)
    assert out.read_bytes() == reference.read_bytes()
    assert result.rows == 200 and result.failed == 0
    assert len(set(result["run"])) == 200
    # In memory, without a table: the same numbers.
    again = mechsim.study(SLOW, progress=False)
    assert (again["P_deviation"] == result["P_deviation"]).all()


def test_failed_runs_are_recorded(tmp_path):
    out = tmp_path / "grid.csv"
    r = run_cli(str(SOURCE / "mechanisms" / "studies" / "fourbar-grid.json"), "--out", str(out))
    assert r.returncode == 0, r.stderr
    header, body = rows(out)
    failed = [b for b in body if b[header.index("status")] == "failed"]
    assert len(body) == 24 and 0 < len(failed) < 24
    assert all(b[-1].startswith("cannot assemble at t = ") for b in failed)  # the linkage locks
    assert all(b[header.index("P_deviation")] == "" for b in failed)
    assert "study: 24/24 runs" in r.stderr  # plain progress lines when stderr is not a terminal


@pytest.mark.parametrize("how", [signal.SIGKILL, signal.SIGINT])
def test_stopped_study_resumes(reference, tmp_path, how):
    out = tmp_path / "stopped.csv"
    p = subprocess.Popen([CLI, "study", SLOW, "--out", str(out), "--quiet"], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True)
    # Stop it once some runs are in the table.
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if out.exists() and out.read_text().count("\n") > 30:
            break
        time.sleep(0.02)
    p.send_signal(how)
    _, err = p.communicate(timeout=60)
    if how == signal.SIGINT:
        assert p.returncode == 130, err
        assert "--resume" in err
    else:
        assert p.returncode == -signal.SIGKILL
    partial = out.read_text().count("\n") - 1
    assert 30 <= partial < 200
    # Without --resume an existing table is not overwritten.
    r = run_cli(SLOW, "--out", str(out))
    assert r.returncode == 2 and "--resume" in r.stderr
    r = run_cli(SLOW, "--out", str(out), "--resume")
    assert r.returncode == 0, r.stderr
    assert f"study: {200 - partial} runs" in r.stdout or "already in" in r.stderr
    assert out.read_bytes() == reference.read_bytes()  # every run once, the same numbers, sorted


def test_a_cut_line_is_dropped_on_resume(reference, tmp_path):
    out = tmp_path / "cut.csv"
    text = reference.read_text()
    lines = text.splitlines(keepends=True)
    out.write_text("".join(lines[:51]) + lines[51][:17])  # 50 runs, then half a line (a kill mid-write)
    r = run_cli(SLOW, "--out", str(out), "--resume", "--quiet")
    assert r.returncode == 0, r.stderr
    assert out.read_bytes() == reference.read_bytes()


def test_bad_study_files(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"mechsim-study": 1, "mechanism": "%s", "analysis": {"kind": "kinematics", "t-end": 1, "dt": 0.1},\n'
                   ' "vary": [{"parameter": "L7", "grid": [1, 2]}],\n "outputs": [{"column": "D", "reduce": "max"}]}'
                   % (SOURCE / "mechanisms" / "fourbar-parametric.json"))
    r = run_cli(str(bad), "--out", str(tmp_path / "x.csv"))
    assert r.returncode == 1 and f"{bad}:2:11: error: vary[0]: the mechanism has no parameter \"L7\"" in r.stderr, r.stderr
    with pytest.raises(mechsim.FileError) as e:
        mechsim.study(bad)
    assert e.value.line == 2
    bad.write_text('{"mechsim-study": 1, "mechanism": "%s", "analysis": {"kind": "kinematics", "t-end": 1, "dt": 0.1},\n'
                   ' "vary": [{"parameter": "L2", "grid": [0.1]}],\n "outputs": [{"column": "Q", "reduce": "max"}]}'
                   % (SOURCE / "mechanisms" / "fourbar-parametric.json"))
    with pytest.raises(mechsim.FileError, match="no column \"Q\""):
        mechsim.study(bad)


# ---- Dask ----

def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def cluster(tmp_path):
    """A Dask scheduler and two workers (no nannies: a killed worker stays dead) on localhost."""
    package = os.path.dirname(os.path.dirname(os.path.abspath(mechsim.__file__)))  # the workers import it from here
    env = dict(os.environ, PYTHONPATH=package)
    port = free_port()
    address = f"tcp://127.0.0.1:{port}"
    procs = []
    log = open(tmp_path / "cluster.log", "w")
    try:
        procs.append(subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_scheduler", "--host", "127.0.0.1",
                                       "--port", str(port), "--dashboard-address", ":0"],
                                      env=env, stdout=log, stderr=log, cwd=tmp_path))
        workers = []
        for k in range(2):
            w = subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_worker", address, "--nthreads", "1",
                                  "--no-nanny", "--name", f"w{k}", "--dashboard-address", ":0",
                                  "--local-directory", str(tmp_path / f"w{k}")],
                                 env=env, stdout=log, stderr=log, cwd=tmp_path)
            procs.append(w)
            workers.append(w)
        import distributed
        client = distributed.Client(address, timeout="60s")
        client.wait_for_workers(2, timeout=60)
        yield address, client, workers
        client.close()
    finally:
        for p in procs:
            if p.poll() is None:
                p.terminate()
        for p in procs:
            try:
                p.wait(timeout=20)
            except subprocess.TimeoutExpired:
                p.kill()
        log.close()


def test_dask_cluster_with_a_worker_killed(reference, tmp_path, cluster):
    address, client, workers = cluster
    out = tmp_path / "dask.csv"
    import threading

    def kill_when_under_way():
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if out.exists() and out.read_text().count("\n") > 40:
                workers[0].kill()
                return
            time.sleep(0.02)

    killer = threading.Thread(target=kill_when_under_way)
    killer.start()
    result = mechsim.study(SLOW, out, client=client, progress=False)
    killer.join()
    assert workers[0].poll() is not None, "the worker was not killed mid-study"
    assert result.rows == 200 and sorted(result["run"]) == list(range(200))
    assert out.read_bytes() == reference.read_bytes()  # every run once, with the local run's outputs


def test_cli_sends_the_runs_to_the_scheduler(tmp_path, cluster):
    address, client, workers = cluster
    out = tmp_path / "cli-dask.csv"
    r = run_cli(TOLERANCE, "--out", str(out), "--scheduler", address, "--quiet")
    assert r.returncode == 0, r.stderr
    assert f"on the cluster at {address}" in r.stdout
    local = tmp_path / "local.csv"
    assert run_cli(TOLERANCE, "--out", str(local), "--quiet").returncode == 0
    assert out.read_bytes() == local.read_bytes()


def test_simulate_and_deform_studies(tmp_path):
    """The other two analyses: a spring's stiffness varied in a simulate study, a part's Young's
    modulus in a deform study; outputs differ between the runs as the physics says."""
    import json
    sim = tmp_path / "sim.json"
    sim.write_text(json.dumps({
        "mechsim-study": 1, "mechanism": str(SOURCE / "mechanisms" / "dynamics" / "a01-pendulum.json"),
        "analysis": {"kind": "simulate", "t-end": 0.2, "dt": 0.001},
        "vary": [{"path": "gravity[1]", "list": [-9.81, -1.62]}],
        "outputs": [{"column": "energy.kinetic", "reduce": "final"}, {"column": "energy.total", "reduce": "max"}]}))
    r = mechsim.study(sim, progress=False)
    assert r.failed == 0
    ke = r["final(energy.kinetic)"]
    assert ke[0] > 3 * ke[1] > 0  # six times the gravity: faster after the same time
    deform = tmp_path / "deform.json"
    deform.write_text(json.dumps({
        "mechsim-study": 1, "mechanism": str(SOURCE / "mechanisms" / "deform-flexible-link.json"),
        "analysis": {"kind": "deform", "t-end": 0.03, "dt": 0.01},
        "vary": [{"path": "deformables.strap.youngs", "list": [2e6, 2e7]}],
        "outputs": [{"column": "attach_error", "reduce": "max"}, {"column": "max_speed", "reduce": "final"}]}))
    r = mechsim.study(deform, progress=False)
    assert r.failed == 0, r["error"]
    assert (r["max(attach_error)"] < 1e-6).all()
    assert r["final(max_speed)"][0] != r["final(max_speed)"][1]
