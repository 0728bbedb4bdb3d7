"""Python's runs equal the command line's: every golden example (tests/data/golden/cases.txt) run by
mechsim-cli and by mechsim.kinematics / simulate / deform, the CSV text compared byte for byte and
the arrays against the CLI's numbers (17 significant digits read back: bit for bit)."""
import csv
import pathlib
import subprocess

import numpy as np
import pytest

import mechsim
from conftest import CLI, SOURCE


def cases():
    for line in (SOURCE / "tests" / "data" / "golden" / "cases.txt").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            name, command, file, *args = line.split()
            yield pytest.param(command, file, args, id=name)


def option(args, name, default=None):
    return float(args[args.index(name) + 1]) if name in args else default


@pytest.mark.parametrize("command,file,args", list(cases()))
def test_python_equals_cli(command, file, args, tmp_path):
    out = tmp_path / "cli.csv"
    cli = subprocess.run([CLI, command, str(SOURCE / file), *args, "--out", str(out)], capture_output=True, text=True,
                         timeout=300)
    assert cli.returncode == 0, cli.stderr
    t_end, dt = option(args, "--t-end"), option(args, "--dt")
    path = SOURCE / file
    if command == "kinematics":
        r = mechsim.kinematics(mechsim.load(path), t_end, dt)  # the default load: sliders, parts
    elif command == "simulate":
        # The DOF analysis is not needed by the dynamics (and takes seconds on the 221-ball pools);
        # the four-bar also runs on the default load, which must not change the numbers.
        m = mechsim.load(path, sliders=path.name == "fourbar.json")
        r = mechsim.simulate(m, t_end, dt)
    else:
        method = args[args.index("--method") + 1] if "--method" in args else None
        r = mechsim.deform(mechsim.load(path, deformables=False), t_end, dt, method=method)
    assert r.ok, r.failure
    # The summary line is the command's (its times aside).
    assert r.summary.split(",")[0] in cli.stdout
    mine = tmp_path / "python.csv"
    r.to_csv(mine)
    assert mine.read_bytes() == out.read_bytes()
    # The arrays hold the numbers the CLI wrote.
    with open(out) as f:
        rows = list(csv.reader(f))
    assert rows[0] == r.columns
    assert len(rows) - 1 == r.rows
    for c, name in enumerate(r.columns):
        values = [row[c] for row in rows[1:]]
        if name == "part":
            assert r[name] == values
            continue
        cli_values = np.array([float(v) for v in values])
        if command == "deform":  # its table has 9 significant digits
            np.testing.assert_allclose(r[name], cli_values, rtol=1e-8, atol=1e-300)
        else:
            assert np.array_equal(r[name], cli_values), name
