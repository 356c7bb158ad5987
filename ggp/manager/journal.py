"""Where a running match is written as it goes: the :class:`Journal` interface and
:class:`StoreJournal` (the match database and the record file).

The runner calls :meth:`Journal.begin` before START, :meth:`Journal.step` after every step and
:meth:`Journal.end` with the final record (finished, aborted, not played or failed), so a match
stopped by a signal leaves its partial record, and one whose manager was killed outright loses
at most the step in flight.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Protocol

from ggp.manager.record import MatchRecord, RecordError, RecordFile, Step
from ggp.manager.store import MatchStore, StoreError, default_record_path

log = logging.getLogger(__name__)


class Journal(Protocol):
    """Receives a match as it is played (see the module doc)."""

    def begin(self, record: MatchRecord) -> None:
        """The match begins (its settings are in ``record``; no steps yet)."""

    def step(self, record: MatchRecord, step: Step) -> None:
        """``step`` was just played (it is ``record.steps[-1]``)."""

    def end(self, record: MatchRecord) -> None:
        """The match is over: ``record`` is final."""


class StoreJournal:
    """Commits a match to the store at ``db`` (None: the default database; ``store`` False: no
    database) and to its record file: ``record_path``, else ``record_dir/MATCH_ID.json``, else
    the data directory's (``files`` False: no file). ``tournament`` and ``index`` tag the row.
    ``database``: an open store to write through (left open), instead of opening ``db``.

    A failure to write a step is logged once and the match goes on; failures at the beginning
    and the end raise :class:`~ggp.manager.store.StoreError` (the database) or
    :class:`~ggp.manager.record.RecordError` (the file).
    """

    def __init__(self, db: str | Path | None = None, record_path: str | Path | None = None, *,
                 record_dir: str | Path | None = None, store: bool = True, files: bool = True,
                 tournament: str | None = None, index: int | None = None, database: MatchStore | None = None):
        self.db = db
        self.record_path = Path(record_path) if record_path is not None else None
        self.record_dir = Path(record_dir) if record_dir is not None else None
        self.use_store = store
        self.files = files
        self.tournament = tournament
        self.index = index
        #: The record file written (None until :meth:`begin`, or without files).
        self.path: Path | None = None
        self._store: MatchStore | None = None
        self._shared = database
        self._file: RecordFile | None = None
        self._warned = False

    def _path_for(self, match_id: str) -> Path:
        if self.record_path is not None:
            return self.record_path
        if self.record_dir is not None:
            return self.record_dir / f"{match_id}.json"
        return default_record_path(match_id)

    def begin(self, record: MatchRecord) -> None:
        """Open the store and note the match; write the record file."""
        if self.files:
            self.path = self._path_for(record.match_id)
            self._file = RecordFile(self.path)
            try:
                self._file.update(record)
            except OSError as exc:
                self._file = None
                raise RecordError(f"cannot write the record file {self.path}: {exc.strerror or exc}") from None
        if self.use_store:
            self._store = self._shared if self._shared is not None else MatchStore(self.db)
            self._store.begin(record, self.path.resolve() if self.path else None, self.tournament, self.index)

    def step(self, record: MatchRecord, step: Step) -> None:
        """Commit ``step``; rewrite the record file."""
        try:
            if self._store is not None:
                self._store.add_step(record, step)
            if self._file is not None:
                self._file.update(record)
        except (StoreError, OSError) as exc:
            if not self._warned:
                log.warning("%s: cannot write the step: %s (the match goes on)", record.match_id, exc)
                self._warned = True

    def end(self, record: MatchRecord) -> None:
        """Write the final record to the file (flushed) and the store, each even if the other
        fails (the first failure is raised after both were tried); close the store."""
        failure: StoreError | RecordError | None = None
        if self._file is not None:
            try:
                self._file.finish(record)
            except OSError as exc:
                failure = RecordError(f"cannot write the record file {self.path}: {exc.strerror or exc}")
        if self._store is not None:
            try:
                self._store.add(record, self.path.resolve() if self.path else None, self.tournament, self.index)
            except StoreError as exc:
                failure = failure or exc
            finally:
                if self._store is not self._shared:
                    self._store.close()
                self._store = None
        if failure is not None:
            raise failure


__all__ = ["Journal", "StoreJournal"]
