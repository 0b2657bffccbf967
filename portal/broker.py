"""The embedded default's Celery broker: kombu's filesystem transport, made safe for several
processes sharing its folders (the web server, the worker and beat all publish to it).

kombu's own transport creates a message's file and only then writes into it, so a reader
listing the folder in between takes an empty or half-written file and dies on it
(``JSONDecodeError: Expecting value``: celery/kombu#1551, treeverse/dvc#7903, dvc-task#73);
Celery counts that as unrecoverable and the worker exits. Here a message is written in full
under a hidden name and renamed into the queue's folder in one step (a rename within one file
system is atomic), so a reader sees either the whole message or nothing. A reader takes a
message by renaming it into its own folder under the same var directory (not ``/tmp``, which
may be another file system, where kombu's move is a copy). And should a file still not read
as a message (a full disk, a hand-made file), it is moved aside to ``rejected/`` with an error
in the log instead of stopping the worker.

The exchange tables of fanout exchanges (remote control's broadcasts) have the same flaw; the
embedded default turns remote control off (settings), so nothing writes them.
"""

from __future__ import annotations

import logging
import os
import uuid
from pathlib import Path
from queue import Empty
from time import monotonic

from kombu.exceptions import ChannelError
from kombu.transport import filesystem
from kombu.utils.encoding import bytes_to_str, str_to_bytes
from kombu.utils.json import dumps, loads

logger = logging.getLogger(__name__)

_SUFFIX = ".msg"


class Channel(filesystem.Channel):
    """kombu's filesystem channel whose messages appear whole or not at all."""

    def _put(self, queue: str, payload: dict, **kwargs: object) -> None:
        """Write the message under a hidden name, then rename it into the folder."""
        body = str_to_bytes(dumps(payload))
        name = f"{int(round(monotonic() * 1000))}_{uuid.uuid4()}.{queue}{_SUFFIX}"
        folder = Path(self.data_folder_out)
        hidden = folder / f".{name}.part"  # never matches a queue's name: readers skip it
        try:
            with open(hidden, "wb") as out:
                out.write(body)
            os.replace(hidden, folder / name)
        except OSError as exc:
            hidden.unlink(missing_ok=True)
            raise ChannelError(f"Cannot add file {name!r} to directory") from exc

    def _get(self, queue: str) -> dict:
        """Take the oldest message of ``queue``: rename it out of the folder, then read it."""
        wanted = f"{queue}{_SUFFIX}"
        taken_dir = Path(self.processed_folder)
        taken_dir.mkdir(parents=True, exist_ok=True)
        for name in sorted(os.listdir(self.data_folder_in)):
            if name.startswith(".") or name.partition(".")[2] != wanted:
                continue
            taken = taken_dir / name
            try:
                os.replace(os.path.join(self.data_folder_in, name), taken)
            except OSError:
                continue  # another reader took it first
            try:
                payload = taken.read_bytes()
                message = loads(bytes_to_str(payload))
            except (OSError, ValueError) as exc:
                self._reject(taken, exc)
                continue
            if not self.store_processed:
                taken.unlink(missing_ok=True)
            return message
        raise Empty()

    def _reject(self, path: Path, exc: Exception) -> None:
        rejected = Path(self.processed_folder) / "rejected"
        rejected.mkdir(parents=True, exist_ok=True)
        try:
            os.replace(path, rejected / path.name)
        except OSError:
            path.unlink(missing_ok=True)
        logger.error("broker: the message file %s could not be read (%s); it was moved to %s "
                     "and the worker goes on", path.name, exc, rejected)


class Transport(filesystem.Transport):
    Channel = Channel
