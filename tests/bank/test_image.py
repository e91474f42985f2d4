"""The seeded bank image and its disk cache: the same bytes as a build, never a bad file read."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path

import pytest

from pytest_bankbench.bank import image
from pytest_bankbench.bank.image import (
    CACHE_ENV,
    build_image,
    cache_dir,
    cached_image,
    image_key,
    image_once,
    key_sources,
)
from pytest_bankbench.bank.store import DEFAULT_SEED, template_image

SEED = DEFAULT_SEED


@pytest.fixture(scope="module")
def built() -> bytes:
    return build_image(SEED)


def test_a_build_is_deterministic(built: bytes) -> None:
    assert build_image(SEED) == built


def test_the_process_template_is_the_built_image(built: bytes) -> None:
    assert template_image() == built
    assert template_image() is template_image(SEED)  # one entry, not one per spelling


def test_a_cached_image_is_the_built_one(tmp_path: Path, built: bytes) -> None:
    first = cached_image(SEED, tmp_path)
    (stored,) = tmp_path.iterdir()
    assert stored.name == image_key(SEED)
    assert first == built
    assert cached_image(SEED, tmp_path) == built


def test_a_cached_image_is_read_not_built(
    tmp_path: Path, built: bytes, monkeypatch: pytest.MonkeyPatch
) -> None:
    cached_image(SEED, tmp_path)
    monkeypatch.setattr(image, "build_image", _no_build)
    assert cached_image(SEED, tmp_path) == built


@pytest.mark.parametrize(
    "damage",
    [
        pytest.param(lambda data: data[: len(data) // 2], id="cut-short"),
        pytest.param(lambda data: data[:-1] + bytes([data[-1] ^ 1]), id="one-bit"),
        pytest.param(lambda data: b"", id="empty"),
        pytest.param(lambda data: b"OTHER" + data[5:], id="other-magic"),
    ],
)
def test_a_damaged_file_is_rebuilt_and_replaced(
    tmp_path: Path, built: bytes, damage: Callable[[bytes], bytes]
) -> None:
    cached_image(SEED, tmp_path)
    path = tmp_path / image_key(SEED)
    good = path.read_bytes()
    path.write_bytes(damage(good))
    assert cached_image(SEED, tmp_path) == built
    assert path.read_bytes() == good


def test_a_changed_source_names_another_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A stale image is never read: editing what the image is made from changes its name."""
    source = tmp_path / "seed.py"
    source.write_text("CUSTOMERS = 944\n")
    monkeypatch.setattr(image, "key_sources", lambda: [source])
    before = image.image_key.__wrapped__(SEED)
    source.write_text("CUSTOMERS = 945\n")
    assert image.image_key.__wrapped__(SEED) != before


def test_the_key_follows_seed_and_sources() -> None:
    assert image_key(SEED) != image_key(SEED + 1)
    names = {path.name for path in key_sources()}
    assert {"seed.py", "schema.py", "rules.py", "image.py", "money.py"} <= names


def test_the_key_covers_every_module_the_build_imports(tmp_path: Path) -> None:
    """A module the generator comes to import outside the hashed sources would let a stale image
    be read; a fresh interpreter lists what building the image loads."""
    script = (
        "import json, sys\n"
        "from pytest_bankbench.bank.image import build_image\n"
        f"build_image({SEED})\n"
        "print(json.dumps(sorted(m.__file__ for n, m in sys.modules.items()\n"
        "    if n.startswith('pytest_bankbench') and getattr(m, '__file__', None))))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        check=True,
        cwd=Path(__file__).resolve().parents[2],
    ).stdout
    loaded = {Path(name).resolve() for name in json.loads(out)}
    hashed = {path.resolve() for path in key_sources()}
    assert {p for p in loaded if p.name != "__init__.py"} <= hashed


def test_concurrent_writers_leave_one_whole_file(tmp_path: Path, built: bytes) -> None:
    results: list[bytes] = []

    def worker() -> None:
        results.append(cached_image(SEED, tmp_path))

    threads = [threading.Thread(target=worker) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert results == [built] * 4
    assert [p.name for p in tmp_path.iterdir()] == [image_key(SEED)]  # no temporary file left


def test_concurrent_processes_never_read_a_partial_file(tmp_path: Path, built: bytes) -> None:
    script = (
        "import hashlib, sys\n"
        "from pathlib import Path\n"
        "from pytest_bankbench.bank.image import cached_image\n"
        f"print(hashlib.sha256(cached_image({SEED}, Path(sys.argv[1]))).hexdigest())\n"
    )
    root = Path(__file__).resolve().parents[2]
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", script, str(tmp_path)], stdout=subprocess.PIPE, cwd=root
        )
        for _ in range(3)
    ]
    digests = {proc.communicate()[0].decode().strip() for proc in procs}
    assert digests == {hashlib.sha256(built).hexdigest()}
    assert [p.name for p in tmp_path.iterdir()] == [image_key(SEED)]


def test_an_unwritable_cache_builds_in_memory(tmp_path: Path, built: bytes) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory")
    assert cached_image(SEED, blocker / "cache") == built


def test_no_folder_builds_in_memory(built: bytes) -> None:
    assert cached_image(SEED, None) == built


def test_the_cache_folder_follows_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(CACHE_ENV, str(tmp_path / "images"))
    assert cache_dir() == tmp_path / "images"
    monkeypatch.setenv(CACHE_ENV, "off")
    assert cache_dir() is None
    monkeypatch.setenv(CACHE_ENV, "")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert cache_dir() == tmp_path / "pytest-bankbench"
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path))
    assert cache_dir() == tmp_path / ".cache" / "pytest-bankbench"


def _no_build(seed: int) -> bytes:
    raise AssertionError(f"the image of seed {seed} was built, not read from the cache")


def test_an_image_for_one_use_is_read_from_disk_and_not_kept(
    tmp_path: Path, built: bytes, monkeypatch: pytest.MonkeyPatch
) -> None:
    cached_image(SEED, tmp_path)
    monkeypatch.setattr(image, "_KEPT", {})
    monkeypatch.setenv(CACHE_ENV, str(tmp_path))
    assert image_once(SEED) == built
    assert SEED not in image._KEPT
    kept = template_image(SEED)
    assert image_once(SEED) is kept  # once kept, the kept one


def test_an_image_for_one_use_without_a_disk_cache_is_kept(
    built: bytes, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(image, "_KEPT", {})
    monkeypatch.setenv(CACHE_ENV, "off")
    assert image_once(SEED) == built
    assert list(image._KEPT) == [SEED]  # built once, not again for the next connection
