"""Tests against the real CardStock engine (conformance/cardstock), run as an outside program."""
