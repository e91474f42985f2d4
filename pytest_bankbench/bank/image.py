"""The seeded bank as a serialized SQLite image: built once per machine, kept in a disk cache.

Building the image (944 customers and their records) costs a few hundred milliseconds, which
every pytest-xdist worker paid before its first session (issue 11, item 7). The image is now
written once per machine under the user cache directory and read back by every later process.

The file name carries a key over everything the image is made from (the sources of the bank
package and the money rules, the SQLite and Python versions, the seed), so a changed generator
never reads an old image. A file is written to a temporary name and moved into place with
os.replace, so a reader never sees half of one, even with many workers starting together; a
file that fails its checksum is rebuilt. `BANKBENCH_CACHE_DIR` moves the cache, and
`BANKBENCH_CACHE_DIR=off` turns it off (the image is built in memory, nothing is written).
"""

from __future__ import annotations

import hashlib
import os
import sqlite3
import sys
import tempfile
from functools import cache
from pathlib import Path

from pytest_bankbench.bank.schema import TABLE_BY_NAME, ddl, trigger_ddl

DEFAULT_SEED = 20260331
CACHE_ENV = "BANKBENCH_CACHE_DIR"
CACHE_OFF = "off"
_MAGIC = b"BANKIMG1"
_DIGEST = hashlib.sha256().digest_size
_PACKAGE = Path(__file__).resolve().parent.parent


# Kept by seed (not functools.cache, which keys template_image() and template_image(DEFAULT_SEED)
# apart: the image was built twice).
_KEPT: dict[int, bytes] = {}


def template_image(seed: int = DEFAULT_SEED) -> bytes:
    """The seeded bank as a serialized SQLite image, read or built once per process and seed."""
    image = _KEPT.get(seed)
    if image is None:
        image = _KEPT.setdefault(seed, cached_image(seed, cache_dir()))
    return image


def image_once(seed: int = DEFAULT_SEED) -> bytes:
    """The image for one use, read from the disk cache and not kept by the process (a worker
    that only ever opens one connection then holds no second 4 MB copy); the kept one when there
    is one, or when the disk cache has none to give."""
    folder = cache_dir()
    if seed not in _KEPT and folder is not None:
        image = _read(folder / image_key(seed))
        if image is not None:
            return image
    return template_image(seed)


def build_image(seed: int) -> bytes:
    """The seeded bank built from scratch: tables, records, then the change-capture triggers."""
    from pytest_bankbench.bank.seed import generate_records

    conn = sqlite3.connect(":memory:")
    conn.executescript(ddl())
    for table, rows in generate_records(seed).items():
        cols = TABLE_BY_NAME[table].column_names
        marks = ", ".join("?" for _ in cols)
        conn.executemany(
            f"INSERT INTO {table} ({', '.join(cols)}) VALUES ({marks})",
            [tuple(row[c] for c in cols) for row in rows],
        )
    conn.executescript(trigger_ddl())
    conn.commit()
    image = conn.serialize()
    conn.close()
    return image


def key_sources() -> list[Path]:
    """The source files an image is made from: the bank package and the money rules."""
    # tests/bank/test_image.py holds this list to the modules a build imports.
    found = [*sorted((_PACKAGE / "bank").glob("*.py")), _PACKAGE / "money.py"]
    return [path for path in found if path.is_file()]


@cache
def image_key(seed: int) -> str:
    """Names the image of a seed as built by this code, SQLite and Python."""
    digest = hashlib.sha256()
    for path in key_sources():
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    versions = f"{sqlite3.sqlite_version} {sys.version_info[0]}.{sys.version_info[1]} {seed}"
    digest.update(versions.encode())
    return f"bank-{seed}-{digest.hexdigest()[:24]}.sqlite-image"


def cache_dir() -> Path | None:
    """Where images are kept, or None when the cache is turned off."""
    chosen = os.environ.get(CACHE_ENV, "")
    if chosen == CACHE_OFF:
        return None
    if chosen:
        return Path(chosen).expanduser()
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "pytest-bankbench"


def cached_image(seed: int, folder: Path | None) -> bytes:
    """The seed's image from the cache in `folder`, built and stored there when absent or bad.

    An unreadable or unwritable folder only costs the build: the image is then made in memory.
    """
    if folder is None:
        return build_image(seed)
    path = folder / image_key(seed)
    image = _read(path)
    if image is None:
        image = build_image(seed)
        _write(path, image)
    return image


def _read(path: Path) -> bytes | None:
    """The image stored at `path`, or None when it is missing, cut short or corrupted."""
    try:
        with path.open("rb") as stored:
            head = stored.read(len(_MAGIC) + _DIGEST)
            payload = stored.read()  # read apart from the header: no second copy to slice
    except OSError:
        return None
    if head[: len(_MAGIC)] != _MAGIC or hashlib.sha256(payload).digest() != head[len(_MAGIC) :]:
        return None
    return payload


def _write(path: Path, image: bytes) -> None:
    """Store an image so that no reader ever sees a partial file; failures are ignored."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, temp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    except OSError:
        return
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(_MAGIC + hashlib.sha256(image).digest() + image)
        # Atomic on POSIX and Windows: a concurrent writer's file is replaced whole by an equal one.
        os.replace(temp, path)
    except OSError:
        Path(temp).unlink(missing_ok=True)
