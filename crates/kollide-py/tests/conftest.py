"""Shared fixtures: random but seeded inputs, and the same shapes built in the peers."""

import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
