"""The engine's command line: replay or verify a downloaded match record offline.

    python -m engine replay record.json   one JSON line: {"result", "state_sha256", ...}
    python -m engine verify record.json   the same, plus the seed commitment's check and
                                          whether everything matches the record ("ok")

Exit status: 0 done (for verify: everything matched), 1 verify found a difference, 2 the
record could not be read or replayed (a message on standard error, never a traceback). The
only I/O of the engine package is here.
"""

from __future__ import annotations

import argparse
import json
import sys

from engine.jsontext import read_json
from engine.record import RecordError, replay_record, verify_record

# The largest record read (bytes): a long finished match's record is well under it.
MAX_RECORD_BYTES = 50_000_000


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m engine",
                                     description="Replay or verify a match record offline.")
    parser.add_argument("command", choices=["replay", "verify"])
    parser.add_argument("record", help="a record.json downloaded from a finished match "
                                       "('-' reads standard input)")
    args = parser.parse_args(argv)
    try:
        if args.record == "-":
            raw = sys.stdin.buffer.read(MAX_RECORD_BYTES + 1)
        else:
            with open(args.record, "rb") as handle:
                raw = handle.read(MAX_RECORD_BYTES + 1)
        record = read_json(raw, max_bytes=MAX_RECORD_BYTES)
        out = replay_record(record) if args.command == "replay" else verify_record(record)
    except (OSError, ValueError) as error:  # (RecordError and bad JSON are ValueErrors)
        reason = error if isinstance(error, RecordError) else f"cannot read the record: {error}"
        print(json.dumps({"error": str(reason)}), file=sys.stderr)
        return 2
    except Exception as error:  # noqa: BLE001  (a record the rules cannot take: exit 2, said)
        print(json.dumps({"error": f"the record cannot be replayed: {error!r}"}),
              file=sys.stderr)
        return 2
    print(json.dumps(out, sort_keys=True))
    return 0 if args.command == "replay" or out["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
