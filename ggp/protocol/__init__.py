"""The GGP protocol: typed messages (:mod:`.messages`) and their HTTP framing (:mod:`.http`)."""

from __future__ import annotations

from ggp.protocol.messages import (
    Abort,
    Info,
    InfoReply,
    Message,
    Play,
    PlayII,
    Preview,
    ProtocolError,
    Start,
    Stop,
    StopII,
    TurnMessage,
    parse_info_reply,
    parse_message,
    parse_move,
)

__all__ = [
    "Abort", "Info", "InfoReply", "Message", "Play", "PlayII", "Preview", "ProtocolError", "Start",
    "Stop", "StopII", "TurnMessage", "parse_info_reply", "parse_message", "parse_move",
]
