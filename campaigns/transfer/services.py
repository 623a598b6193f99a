"""A campaign as a versioned JSON file: exported as a viewer may see it, imported as a new one.

The format is documented in docs/export-format.md. This module is the public face of the
package; the work is done by one module per concern:

* ``format`` — the marker, the version, the scopes, the columns of each section;
* ``export`` — ``build_export(viewer)``: the file as that viewer may see it (``stream_export``:
  its text in pieces, for the download);
* ``read`` — ``read_upload(file)`` / ``parse_export(raw)``: the size, JSON, the header, then
  ``check`` (``FileChecker``, on the row tools of ``checker`` and ``values``): every section
  checked before anything is written; ``ImportRefused`` carries a message for the user;
* ``load`` — ``load(parsed, user=…)``: the checked file written as a new campaign in one
  transaction.
"""

from campaigns.transfer.check import ParsedExport
from campaigns.transfer.export import (
    build_export,
    dumps,
    export_filename,
    stream_export,
)
from campaigns.transfer.format import (
    FORMAT,
    FORMAT_VERSION,
    MAX_IMPORT_BYTES,
    ImportRefused,
)
from campaigns.transfer.load import load
from campaigns.transfer.read import parse_export, read_upload

__all__ = [
    "FORMAT",
    "FORMAT_VERSION",
    "MAX_IMPORT_BYTES",
    "ImportRefused",
    "ParsedExport",
    "build_export",
    "dumps",
    "export_filename",
    "load",
    "parse_export",
    "stream_export",
    "read_upload",
]
