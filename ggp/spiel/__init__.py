"""Any GDL or GDL-II game as an OpenSpiel game (the optional ``[spiel]`` extra).

``import ggp.spiel`` registers the game ``ggp`` with OpenSpiel: ``pyspiel.load_game("ggp",
{"file": "rulesheets/kuhn.rcy"})`` is translated Kuhn poker, with chance nodes from ``random``,
information states from what each player saw, and returns in chips. See ``docs/spiel.md``.
"""

from __future__ import annotations

from ggp.errors import GGPError


class SpielMissing(GGPError, ImportError):
    """OpenSpiel is not installed."""


try:
    import pyspiel  # noqa: F401
except ImportError as exc:  # pragma: no cover - depends on the installation
    raise SpielMissing("the OpenSpiel bridge needs OpenSpiel: pip install 'ggp[spiel]'") from exc

from ggp.spiel.game import GGPGame, GGPState, load  # noqa: E402
from ggp.spiel.summary import Summary  # noqa: E402
from ggp.spiel.tree import BridgeError, Node, Tree  # noqa: E402

__all__ = ["BridgeError", "GGPGame", "GGPState", "Node", "SpielMissing", "Summary", "Tree", "load"]
