"""Shared paths of the Python package's tests (python/tests/CMakeLists.txt sets them in ctest)."""
import os
import pathlib

import pytest

SOURCE = pathlib.Path(os.environ.get("MECHSIM_SOURCE_DIR", pathlib.Path(__file__).resolve().parents[2]))
CLI = os.environ.get("MECHSIM_CLI", str(SOURCE / "build" / "app" / "mechsim-cli"))
OUT = pathlib.Path(os.environ.get("MECHSIM_TEST_OUT", "/tmp/mechsim-python-tests"))


@pytest.fixture
def out_dir(tmp_path):
    return tmp_path


def mechanism(name):
    return str(SOURCE / "mechanisms" / name)
