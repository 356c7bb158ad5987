"""Third-party GDL-II systems, run from Python: the Dresden GameController and UWA's fork of it
with the HyperPlay agents (sources in ``../shared/tools/peers``, built with ``interop/build.sh``).

- :mod:`ggp.peers.build`: where the built systems are, building them when asked;
- :mod:`ggp.peers.gamecontroller`: a match under either manager, its log read for faults;
- :mod:`ggp.peers.agent`: a UWA agent served as a GGP HTTP player (``interop/``'s adapter);
- :mod:`ggp.peers.prover`: the GameController's Java prover on seeded playouts, compared with a
  state machine of this project.

See docs/interop.md.
"""

from ggp.peers.build import Peers, PeerError, find_peers

__all__ = ["PeerError", "Peers", "find_peers"]
