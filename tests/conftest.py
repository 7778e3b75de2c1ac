# SPDX-License-Identifier: GPL-2.0-or-later
"""Fixtures of the Python test suite: the plugin under test, tshark isolated from the
user's Wireshark setup (tests/lib/wsrun.py), and the repository's folders.

    python3 -m pytest -n 2                          the plugin of build/, the tshark on PATH
    python3 -m pytest --build=/tmp/build            another build folder
    BTHOME_TSHARK=.../tshark python3 -m pytest --plugin=.../bthome.so -m tshark
    python3 -m pytest --update -k spec-examples     rewrite expected files (review them)

Give --build and --plugin their value after "=": pytest reads the command line before it
loads this file, and would take a value after a space for a path to test. The markers of
pytest.ini say which tests a stage leaves to another.
"""
import os
from pathlib import Path

import pytest

from tests.lib.wsrun import IsolatedTshark

ROOT = Path(__file__).resolve().parent.parent


def pytest_addoption(parser):
    group = parser.getgroup("bthome")
    group.addoption("--build", default=str(ROOT / "build"),
                    help="the CMake build folder (bthome.so, test_v1, BTHome-profile.zip)")
    group.addoption("--plugin", help="the plugin tshark loads (default: BUILD/bthome.so)")
    group.addoption("--update", action="store_true",
                    help="rewrite the expected files and generated docs sections instead "
                         "of comparing (review the diff before committing)")


@pytest.fixture(scope="session")
def root():
    return ROOT


@pytest.fixture(scope="session")
def captures():
    return ROOT / "captures"


@pytest.fixture(scope="session")
def expected_dir():
    return ROOT / "tests" / "tshark" / "expected"


@pytest.fixture(scope="session")
def build(request):
    return Path(request.config.getoption("--build")).resolve()


@pytest.fixture(scope="session")
def plugin(request, build):
    """The plugin under test: --plugin, or the build folder's."""
    path = request.config.getoption("--plugin") or str(build / "bthome.so")
    if not os.path.isfile(path):
        pytest.fail(f"no plugin {path}: build first, or give --build or --plugin")
    return path


@pytest.fixture(scope="session")
def update(request):
    return request.config.getoption("--update")


@pytest.fixture
def ws(plugin):
    """tshark with the plugin alone, in a temporary HOME and profile."""
    with IsolatedTshark(plugin) as tshark:
        yield tshark
