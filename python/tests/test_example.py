"""The worked example of docs/python.md runs and writes its figure (look at it:
<build>/python/tests/out/coupler_curve.png)."""
import os
import pathlib
import subprocess
import sys

from conftest import OUT, SOURCE


def test_coupler_curve_example():
    OUT.mkdir(parents=True, exist_ok=True)
    png = OUT / "coupler_curve.png"
    if png.exists():
        png.unlink()
    r = subprocess.run([sys.executable, str(SOURCE / "python" / "examples" / "coupler_curve.py"), str(png)],
                       capture_output=True, text=True, timeout=120, env=dict(os.environ))
    assert r.returncode == 0, r.stderr
    assert "101 rows" in r.stdout
    assert png.stat().st_size > 10000


def test_help_is_useful():
    import mechsim
    import pydoc
    text = pydoc.render_doc(mechsim.simulate, renderer=pydoc.plaintext)
    assert "energy.total" in text and "t_end" in text


def test_installed_package(tmp_path):
    """`cmake --install` puts the package where the interpreter of the prefix finds it, and it runs
    from there (away from the build tree's python/ folder)."""
    build, cmake = os.environ.get("MECHSIM_BUILD_DIR"), os.environ.get("MECHSIM_CMAKE", "cmake")
    if not build:
        import pytest
        pytest.skip("MECHSIM_BUILD_DIR not set (ctest sets it)")
    prefix = tmp_path / "prefix"
    r = subprocess.run([cmake, "--install", build, "--prefix", str(prefix)], capture_output=True, text=True,
                       timeout=300)
    assert r.returncode == 0, r.stderr
    site = prefix / "lib" / f"python{sys.version_info.major}.{sys.version_info.minor}" / "dist-packages"
    assert (site / "mechsim" / "__init__.py").exists()
    env = dict(os.environ, PYTHONPATH=str(site))
    code = ("import mechsim, sys; m = mechsim.load(sys.argv[1]); r = mechsim.kinematics(m, 0.1, 0.05); "
            "print(mechsim.__file__, r.rows)")
    r = subprocess.run([sys.executable, "-c", code, str(SOURCE / "mechanisms" / "fourbar-meshes.json")],
                       capture_output=True, text=True, timeout=120, env=env, cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith(str(site)) and r.stdout.split()[-1] == "3"
