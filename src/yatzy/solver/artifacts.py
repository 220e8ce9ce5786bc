"""Saving and loading value tables: the solver's only I/O.

A table lives in the cache directory (``YATZY_CACHE_DIR``, else the user cache
directory) in one ``.npz`` file per ruleset and solver version. Its header holds the
ruleset, the solver version and a SHA-256 of the arrays, checked on every load; a file
that does not match, or cannot be read at all, is ignored (and rebuilt by the caller).
Files are written to a temporary name and renamed, so a reader never sees half a file.
A table's values are mapped from its file in place (copy on write), not read into the
process: a page of them is read when first touched and shared by every process that
loads the table.
Beside a table, the table of the points still to come (``.remaining.bin``, see
:func:`save_remaining`) is one file of raw arrays, mapped read-only by every process
that reads it; one that does not match is refused with :class:`RemainingDamaged`.
Saving a table deletes the same ruleset's files of earlier solver versions.

A *compact* table (``save(..., compact=True)``: those too large to be built on demand,
Maxi Yatzy's) keeps its values as ``float32``, half the size on disk (they are within
``2**-24`` of the built values, relatively: well under 0.0001 points), and the start of a
game's value exactly in its header; loaded, they are ``float64`` again, as the compiled
code reads them.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import struct
import tempfile
import zipfile
from dataclasses import dataclass
from itertools import combinations_with_replacement
from pathlib import Path
from typing import Any, BinaryIO

import numpy as np
import numpy.typing as npt
import platformdirs

from yatzy.core.errors import YatzyError
from yatzy.core.rulesets import RULESET_NAMES, Ruleset
from yatzy.solver.codes import SolverCode
from yatzy.solver.keeps import FloatArray, IntArray, SmallIntArray

#: Bump when the table's meaning or layout changes: old files are then ignored.
#: 2: states no game reaches hold ``kernels.NEG`` instead of NaN. 3: ``five_points`` is
#: ``int8``.
SOLVER_VERSION = 3

ENV_VAR = "YATZY_CACHE_DIR"


@dataclass(frozen=True)
class StoredTable:
    """What a table file holds."""

    values: FloatArray
    allowed: IntArray
    five_points: SmallIntArray
    meta: dict[str, Any]


def cache_dir() -> Path:
    """Where tables are kept: ``$YATZY_CACHE_DIR``, else the user cache directory."""
    env = os.environ.get(ENV_VAR)
    return Path(env) if env else Path(platformdirs.user_cache_dir("yatzy"))


def table_path(ruleset: Ruleset, directory: Path | None = None) -> Path:
    """The file of ``ruleset``'s table, e.g. ``yatzy-order=free-rolls=3-v3.npz``; for a
    ruleset added with :func:`~yatzy.core.rulesets.define_ruleset`, the name also
    carries :func:`rules_digest`, so that another ruleset of the same name never reads
    its table."""
    options = "-".join(f"{k}={str(v).lower()}" for k, v in sorted(ruleset.option_items))
    added = "" if ruleset.name in RULESET_NAMES else f"-{rules_digest(ruleset)[:16]}"
    return (directory or cache_dir()) / f"{ruleset.name}{added}-{options}-v{SOLVER_VERSION}.npz"


def rules_digest(ruleset: Ruleset) -> str:
    """A SHA-256 of everything the table depends on: the boxes and sections, the dice,
    rolls, bonus, play order, Joker and extra bonus, and every box's table score for
    every roll (so a box's scoring function counts, not only its name)."""
    h = hashlib.sha256(json.dumps([
        ruleset.boxes, ruleset.upper_count, ruleset.dice_count, ruleset.rolls,
        ruleset.upper_bonus_threshold, ruleset.upper_bonus_points, ruleset.order,
        ruleset.joker, ruleset.extra_yahtzee_points, ruleset.yahtzee_box,
    ]).encode())
    for dice in combinations_with_replacement(range(1, 7), ruleset.dice_count):
        h.update(bytes(ruleset.scores(dice).values()))
    return h.hexdigest()


def _digest(values: npt.NDArray[np.floating[Any]], allowed: IntArray,
            five_points: SmallIntArray) -> str:
    h = hashlib.sha256()
    for array in (values, allowed, five_points):
        # The array's own bytes, not a copy of them (tobytes() would copy the table).
        h.update(np.ascontiguousarray(array).data)
    return h.hexdigest()


def save(
    ruleset: Ruleset,
    values: FloatArray,
    allowed: IntArray,
    five_points: SmallIntArray,
    meta: dict[str, Any],
    directory: Path | None = None,
    *,
    compact: bool = False,
) -> Path:
    """Write a table atomically; returns its path. ``compact``: its values as
    ``float32`` (see above)."""
    path = table_path(ruleset, directory)
    small = np.asarray(five_points, dtype=np.int8)  # a copy only if it is not int8
    stored = values.astype(np.float32) if compact else values
    header = {
        **meta,
        "ruleset": ruleset.to_dict(),
        "solver_version": SOLVER_VERSION,
        "sha256": _digest(stored, allowed, small),
    }
    if compact:
        header["start_value"] = float(values.flat[0])
    _write(path, header, values=stored, allowed=allowed, five_points=small)
    _remove_older(path)
    return path


def _remove_older(path: Path) -> None:
    """Delete this ruleset's files of earlier solver versions beside ``path`` (its table
    and start distribution): they are never read again. One that cannot be deleted is
    left."""
    stem = path.name.removesuffix(f"-v{SOLVER_VERSION}.npz")
    for version in range(1, SOLVER_VERSION):
        for suffix in (".npz", ".distribution.npz", REMAINING_SUFFIX, LAYERS_SUFFIX):
            with contextlib.suppress(OSError):
                path.with_name(f"{stem}-v{version}{suffix}").unlink(missing_ok=True)


def _write(path: Path, header: dict[str, Any], **arrays: npt.NDArray[Any]) -> None:
    """Write ``arrays`` and ``header`` (as JSON) to ``path`` atomically: to a temporary
    name, then renamed."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.stem, suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            contents: dict[str, Any] = {
                **arrays, "header": np.frombuffer(json.dumps(header).encode(), dtype=np.uint8)}
            _savez(f, contents)
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


#: Bytes of an array written at a time by :func:`_savez`, and read at a time by
#: :func:`_file_digest`.
_CHUNK = 1 << 20
#: The zip extra field that pads a member's local header (as Android's zipalign pads
#: its files): ignored by every zip reader.
_PAD_FIELD = 0xD935


def _mapped_values(path: Path) -> tuple[FloatArray, int] | None:
    """The ``values`` member of the table file ``path`` mapped in place (copy on write:
    a page is read from the file when first touched, and shared with every process
    that maps it, instead of a private copy of the whole table), with its offset in the
    file; ``None`` when it cannot be (stored compressed, not ``float64``, or not at a
    multiple of 8 bytes, as in files that ``np.savez`` wrote)."""
    with zipfile.ZipFile(path) as z:
        info = z.getinfo("values.npy")
    if info.compress_type != zipfile.ZIP_STORED:
        return None
    with open(path, "rb") as f:
        f.seek(info.header_offset)
        local = f.read(30)
        if len(local) != 30 or local[:4] != b"PK\x03\x04":
            return None
        name_len, extra_len = struct.unpack("<HH", local[26:30])
        start = info.header_offset + 30 + name_len + extra_len
        f.seek(start)
        version = np.lib.format.read_magic(f)
        if version == (1, 0):
            shape, fortran, dtype = np.lib.format.read_array_header_1_0(f)
        elif version == (2, 0):
            shape, fortran, dtype = np.lib.format.read_array_header_2_0(f)
        else:
            return None
        offset = f.tell()
    size = int(np.prod(shape, dtype=np.int64)) * dtype.itemsize
    if (fortran or dtype != np.float64 or offset % dtype.itemsize
            or offset - start + size != info.file_size):
        return None
    mapping = np.memmap(path, dtype=np.float64, mode="c", offset=offset, shape=shape)
    values: FloatArray = mapping.view(np.ndarray)  # a plain array (the mapping stays open)
    return values, offset


def _file_digest(path: Path, offset: int, size: int, allowed: IntArray,
                 five_points: SmallIntArray) -> str:
    """:func:`_digest` of a table whose values are ``size`` bytes at ``offset`` in
    ``path``, read from the file rather than through their mapping (which would make
    every page of it the process's own)."""
    h = hashlib.sha256()
    with open(path, "rb") as f:
        f.seek(offset)
        while size > 0:
            chunk = f.read(min(_CHUNK, size))
            if not chunk:
                raise EOFError(f"{path} ends inside its values")
            h.update(chunk)
            size -= len(chunk)
    for array in (allowed, five_points):
        h.update(np.ascontiguousarray(array).data)
    return h.hexdigest()


def _savez(f: BinaryIO, arrays: dict[str, npt.NDArray[Any]]) -> None:
    """What ``np.savez(f, **arrays)`` writes (an uncompressed zip of ``.npy`` members,
    read by ``np.load``), without its copy of each array in pieces of up to 16 MiB (a
    table's size, at the peak of a build): the arrays' own bytes, a megabyte at a time."""
    with zipfile.ZipFile(f, mode="w", compression=zipfile.ZIP_STORED, allowZip64=True) as z:
        for name, array in arrays.items():
            data = np.ascontiguousarray(array)
            member = zipfile.ZipInfo(f"{name}.npy", date_time=(1980, 1, 1, 0, 0, 0))
            # A padding field in the member's local header puts its .npy at a multiple of
            # 64 bytes in the file, and so its data (numpy pads the .npy header to 64
            # bytes): the values can then be mapped in place (see _mapped_values). The
            # local header is 30 bytes, the name, this field and zipfile's 20-byte zip64
            # field.
            start = f.tell() + 30 + len(member.filename.encode()) + 4 + 20
            pad = -start % 64
            member.extra = struct.pack("<HH", _PAD_FIELD, pad) + bytes(pad)
            with z.open(member, "w", force_zip64=True) as out:
                np.lib.format.write_array_header_1_0(
                    out, np.lib.format.header_data_from_array_1_0(data))
                raw = data.reshape(-1).view(np.uint8)  # the same bytes, not a copy
                for start in range(0, raw.size, _CHUNK):
                    out.write(raw[start:start + _CHUNK].data)


def load(ruleset: Ruleset, directory: Path | None = None) -> StoredTable | None:
    """The stored table of ``ruleset``, or ``None`` when there is none or it does not
    match (other ruleset or version, damaged content)."""
    path = table_path(ruleset, directory)
    try:
        with np.load(path, allow_pickle=False) as data:
            header = json.loads(bytes(data["header"]).decode())
            allowed = data["allowed"]
            small = data["five_points"]
            compact = isinstance(header, dict) and "start_value" in header
            mapped = None if compact else _mapped_values(path)
            values = data["values"] if mapped is None else mapped[0]
        digest = (_digest(values, allowed, small) if mapped is None
                  else _file_digest(path, mapped[1], values.nbytes, allowed, small))
    except Exception:
        # A cache file is only a shortcut, and a damaged one makes numpy and zipfile raise
        # nearly anything (EOFError for an empty file, NotImplementedError, RuntimeError
        # for garbled zip flags, MemoryError for a garbled shape...): whatever cannot be
        # read is rebuilt, like a file that does not match.
        return None
    if (
        not isinstance(header, dict)
        or header.get("ruleset") != ruleset.to_dict()
        or header.get("solver_version") != SOLVER_VERSION
        or small.dtype != np.int8
        or values.dtype != (np.float32 if compact else np.float64)
        or (compact and not isinstance(header["start_value"], float))
        or header.get("sha256") != digest
    ):
        return None
    if compact:
        values = values.astype(np.float64)
        values.flat[0] = header["start_value"]  # the start of a game's value, exact
    return StoredTable(values, allowed, small, header)


def distribution_path(ruleset: Ruleset, directory: Path | None = None) -> Path:
    """The file of the start-of-game score distribution of ``ruleset``, beside its table:
    e.g. ``yatzy-order=free-rolls=3-v3.distribution.npz``."""
    table = table_path(ruleset, directory)
    return table.with_name(table.stem + ".distribution.npz")


def save_distribution(ruleset: Ruleset, lowest: int, chances: FloatArray,
                      directory: Path | None = None) -> Path:
    """Write the start-of-game distribution (``chances[i]``: the chance of ``lowest + i``
    points) atomically, with its ruleset, the solver version and a SHA-256."""
    path = distribution_path(ruleset, directory)
    header = {
        "ruleset": ruleset.to_dict(),
        "solver_version": SOLVER_VERSION,
        "lowest": int(lowest),
        "sha256": hashlib.sha256(np.ascontiguousarray(chances).data).hexdigest(),
    }
    _write(path, header, chances=chances)
    return path


def load_distribution(ruleset: Ruleset, directory: Path | None = None
                      ) -> tuple[int, FloatArray] | None:
    """``(lowest, chances)`` of the stored start-of-game distribution of ``ruleset``, or
    ``None`` when there is none or it does not match (as :func:`load`)."""
    try:
        with np.load(distribution_path(ruleset, directory), allow_pickle=False) as data:
            header = json.loads(bytes(data["header"]).decode())
            chances = data["chances"]
    except Exception:  # unreadable: rebuilt, as load() explains
        return None
    if (
        not isinstance(header, dict)
        or header.get("ruleset") != ruleset.to_dict()
        or header.get("solver_version") != SOLVER_VERSION
        or chances.dtype != np.float64
        or chances.ndim != 1
        or not isinstance(header.get("lowest"), int)
        or header.get("sha256") != hashlib.sha256(np.ascontiguousarray(chances).data).hexdigest()
    ):
        return None
    return header["lowest"], chances


# --- The table of the points still to come ------------------------------------------------

#: The file of a ruleset's table of the points still to come (see
#: :mod:`yatzy.solver.remaining`), beside its value table.
REMAINING_SUFFIX = ".remaining.bin"
#: The first bytes of such a file.
REMAINING_MAGIC = b"YATZYREM"
#: Bump when the layout of the file changes: older files are then refused (and rebuilt).
REMAINING_FORMAT = 1
#: The arrays of the file, with their item types (little-endian).
REMAINING_ARRAYS = {
    "row_of": "<i4", "lowest": "<i4", "length": "<i4", "offset": "<i8", "wide": "|u1",
    "pool8": "|u1", "pool16": "<u2",
}
_ALIGN = 64


class RemainingDamaged(YatzyError):
    """A file of the table of the points still to come that cannot be trusted: short,
    damaged, of another ruleset, solver version or layout. It is never read; the caller
    builds the table again (and replaces the file). ``params``: ``path`` and
    ``reason``."""

    code = SolverCode.REMAINING_DAMAGED

    def __init__(self, path: Path, reason: str) -> None:
        super().__init__(f"The table of the points still to come in {path} cannot be used "
                         f"({reason}): it is built again", path=str(path), reason=reason)


def remaining_path(ruleset: Ruleset, directory: Path | None = None) -> Path:
    """The file of the table of the points still to come of ``ruleset``, beside its value
    table: e.g. ``yatzy-order=free-rolls=3-v3.remaining.bin``."""
    table = table_path(ruleset, directory)
    return table.with_name(table.stem + REMAINING_SUFFIX)


def save_remaining(ruleset: Ruleset, arrays: dict[str, npt.NDArray[Any]],
                   meta: dict[str, Any], directory: Path | None = None) -> Path:
    """Write the arrays of a table of the points still to come (those of
    :data:`REMAINING_ARRAYS`) atomically, in one file that :func:`open_remaining` maps
    into memory: ``REMAINING_MAGIC``, the header's length (8 bytes), a JSON header
    (ruleset, solver version, layout, each array's type, offset and length, a SHA-256 of
    everything after the header), then the arrays, each at a multiple of 64 bytes."""
    path = remaining_path(ruleset, directory)
    _save_mapped(path, _REMAINING_KIND, ruleset, arrays, meta)
    return path


def open_remaining(ruleset: Ruleset, directory: Path | None = None
                   ) -> tuple[dict[str, npt.NDArray[Any]], dict[str, Any]] | None:
    """The arrays of the stored table of the points still to come of ``ruleset``, mapped
    read-only into memory (``numpy.memmap``: the processes that open the file share one
    copy, in the page cache), and its header; ``None`` when there is no file.
    :class:`RemainingDamaged` when the file does not match (another ruleset, solver
    version or layout), is short or damaged: its SHA-256 is checked on every open, by
    reading the file (the pages read are not this process's memory)."""
    return _open_mapped(remaining_path(ruleset, directory), _REMAINING_KIND, ruleset)


@dataclass(frozen=True)
class _MappedKind:
    """A kind of file of arrays mapped into memory (see :func:`save_remaining`)."""

    magic: bytes
    format: int
    arrays: dict[str, str]
    #: The arrays the header's SHA-256 covers (the others: the reader checks what it reads).
    digested: tuple[str, ...]


_REMAINING_KIND = _MappedKind(REMAINING_MAGIC, REMAINING_FORMAT, REMAINING_ARRAYS,
                              tuple(REMAINING_ARRAYS))


def _save_mapped(path: Path, kind: _MappedKind, ruleset: Ruleset,
                 arrays: dict[str, npt.NDArray[Any]], meta: dict[str, Any]) -> None:
    layout: dict[str, list[Any]] = {}
    at = 0
    parts = []
    for name, dtype in kind.arrays.items():
        a = np.ascontiguousarray(arrays[name], dtype=np.dtype(dtype))
        if a.ndim != 1:
            raise ValueError(f"{name}: one dimension, not {a.ndim}")
        pad = -at % _ALIGN
        at += pad
        parts.append((name, pad, a))
        layout[name] = [dtype, at, int(a.size)]
        at += a.nbytes
    digest = hashlib.sha256()
    whole = kind.digested == tuple(kind.arrays)
    for name, pad, a in parts:
        if name in kind.digested:
            digest.update(bytes(pad) if whole else b"")
            digest.update(a.data)
    header = {
        **meta,
        "ruleset": ruleset.to_dict(),
        "solver_version": SOLVER_VERSION,
        "format": kind.format,
        "arrays": layout,
        "data_bytes": at,
        "sha256": digest.hexdigest(),
    }
    text = json.dumps(header).encode()
    text += b" " * (-(len(kind.magic) + 8 + len(text)) % _ALIGN)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.stem, suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(kind.magic)
            f.write(len(text).to_bytes(8, "little"))
            f.write(text)
            for _, pad, a in parts:
                f.write(bytes(pad))
                f.write(a.data)
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _open_mapped(path: Path, kind: _MappedKind, ruleset: Ruleset
                 ) -> tuple[dict[str, npt.NDArray[Any]], dict[str, Any]] | None:
    try:
        f = open(path, "rb")  # noqa: SIM115 - closed below, kept open for the checks
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise RemainingDamaged(path, f"unreadable: {exc}") from exc
    with f:
        try:
            size = os.fstat(f.fileno()).st_size
            start = f.read(len(kind.magic) + 8)
            if len(start) < len(kind.magic) + 8 or not start.startswith(kind.magic):
                raise RemainingDamaged(path, "not such a file")
            length = int.from_bytes(start[len(kind.magic):], "little")
            if length > min(size, 1 << 20):
                raise RemainingDamaged(path, "short or damaged header")
            header = json.loads(f.read(length).decode())
        except (OSError, UnicodeDecodeError, ValueError) as exc:
            raise RemainingDamaged(path, f"damaged header: {exc}") from exc
        base = len(kind.magic) + 8 + length
        if not isinstance(header, dict):
            raise RemainingDamaged(path, "damaged header")
        if header.get("ruleset") != ruleset.to_dict():
            raise RemainingDamaged(path, "another ruleset")
        if header.get("solver_version") != SOLVER_VERSION or header.get(
                "format") != kind.format:
            raise RemainingDamaged(path, "another version")
        layout = header.get("arrays")
        data_bytes = header.get("data_bytes")
        if not isinstance(layout, dict) or not isinstance(data_bytes, int) or sorted(
                layout) != sorted(kind.arrays):
            raise RemainingDamaged(path, "damaged header")
        if size != base + data_bytes:
            raise RemainingDamaged(path, f"{size} bytes, not {base + data_bytes}")
        for name, spec in layout.items():
            if (not isinstance(spec, list) or len(spec) != 3 or spec[0] != kind.arrays[name]
                    or not all(isinstance(x, int) and x >= 0 for x in spec[1:])
                    or spec[1] + spec[2] * np.dtype(spec[0]).itemsize > data_bytes):
                raise RemainingDamaged(path, f"damaged header ({name})")
        if kind.digested == tuple(kind.arrays):
            try:
                digest = hashlib.file_digest(f, "sha256").hexdigest()
            except OSError as exc:
                raise RemainingDamaged(path, f"unreadable: {exc}") from exc
    whole = np.memmap(path, dtype=np.uint8, mode="r")
    arrays: dict[str, npt.NDArray[Any]] = {}
    for name, (dtype, offset, count) in layout.items():
        at = base + offset
        arrays[name] = whole[at:at + count * np.dtype(dtype).itemsize].view(np.dtype(dtype))
    if kind.digested != tuple(kind.arrays):
        h = hashlib.sha256()
        for name in kind.digested:
            h.update(arrays[name].data)
        digest = h.hexdigest()
    if digest != header.get("sha256"):
        raise RemainingDamaged(path, "its content does not match its SHA-256")
    return arrays, header


# --- Exact layers of score distributions ------------------------------------------------

#: The file of a ruleset's exact score distributions of the first layers of states (see
#: :mod:`yatzy.solver.distribution`), beside its value table.
LAYERS_SUFFIX = ".layers.bin"
#: The arrays of the file: each row's state, lowest score, length and first chance, and
#: the chances (float64). The SHA-256 covers all but the chances, which are checked row
#: by row where read (so that opening the file reads none of them).
LAYERS_ARRAYS = {"keys": "<i4", "lowest": "<i4", "length": "<i4", "offset": "<i8",
                 "chances": "<f8"}
_LAYERS_KIND = _MappedKind(b"YATZYLAY", 1, LAYERS_ARRAYS, ("keys", "lowest", "length", "offset"))


def layers_path(ruleset: Ruleset, directory: Path | None = None) -> Path:
    """The file of the exact layers of ``ruleset``, beside its value table: e.g.
    ``yatzy-order=free-rolls=3-v3.layers.bin``."""
    table = table_path(ruleset, directory)
    return table.with_name(table.stem + LAYERS_SUFFIX)


def save_layers(ruleset: Ruleset, arrays: dict[str, npt.NDArray[Any]], meta: dict[str, Any],
                directory: Path | None = None) -> Path:
    """Write the exact layers (the arrays of :data:`LAYERS_ARRAYS`) atomically, as
    :func:`save_remaining` writes its table."""
    path = layers_path(ruleset, directory)
    _save_mapped(path, _LAYERS_KIND, ruleset, arrays, meta)
    return path


def open_layers(ruleset: Ruleset, directory: Path | None = None
                ) -> tuple[dict[str, npt.NDArray[Any]], dict[str, Any]] | None:
    """The arrays of the stored exact layers, mapped read-only, and the header; ``None``
    when there is no file; :class:`RemainingDamaged` when it does not match (the chances
    are not read here: the reader checks each row it reads)."""
    return _open_mapped(layers_path(ruleset, directory), _LAYERS_KIND, ruleset)


# --- Tables with saved rolls ---------------------------------------------------------------


def saved_table_path(ruleset: Ruleset, cap: int | None, bound: str,
                     directory: Path | None = None) -> Path:
    """The file of a table with saved rolls (:mod:`yatzy.solver.saved`): the ruleset's
    :func:`table_path`, with the cap and bound when capped
    (``…-saved_rolls=true-cap=4-lower-v3.npz``)."""
    path = table_path(ruleset, directory)
    if cap is None:
        return path
    return path.with_name(path.name.replace(f"-v{SOLVER_VERSION}.npz",
                                            f"-cap={cap}-{bound}-v{SOLVER_VERSION}.npz"))


def save_saved(ruleset: Ruleset, cap: int | None, bound: str,
               layers: list[npt.NDArray[np.int32]],
               values: list[npt.NDArray[np.float32]], start_value: float,
               meta: dict[str, Any], directory: Path | None = None) -> Path:
    """Write a table with saved rolls atomically, compact as Maxi Yatzy's (``float32``
    layers ``values_NN[masks, upper sums, saved rolls]`` with their masks ``masks_NN``,
    the start's value exactly in the header); returns its path."""
    path = saved_table_path(ruleset, cap, bound, directory)
    arrays: dict[str, npt.NDArray[Any]] = {}
    h = hashlib.sha256()
    for n, (masks, vals) in enumerate(zip(layers, values, strict=True)):
        arrays[f"masks_{n:02d}"] = masks
        arrays[f"values_{n:02d}"] = vals
        h.update(np.ascontiguousarray(masks).data)
        h.update(np.ascontiguousarray(vals).data)
    header = {**meta, "ruleset": ruleset.to_dict(), "solver_version": SOLVER_VERSION,
              "cap": cap, "bound": bound, "start_value": float(start_value),
              "layers": len(layers), "sha256": h.hexdigest()}
    _write(path, header, **arrays)
    return path


def load_saved(ruleset: Ruleset, cap: int | None, bound: str, directory: Path | None = None
               ) -> tuple[list[npt.NDArray[Any]], list[npt.NDArray[np.float32]],
                          dict[str, Any]] | None:
    """``(masks, values, header)`` of the stored table with saved rolls (see
    :func:`save_saved`), or ``None`` when there is none or it does not match."""
    try:
        with np.load(saved_table_path(ruleset, cap, bound, directory),
                     allow_pickle=False) as data:
            header = json.loads(bytes(data["header"]).decode())
            count = int(header["layers"])
            masks = [data[f"masks_{n:02d}"] for n in range(count)]
            values = [data[f"values_{n:02d}"] for n in range(count)]
    except Exception:  # unreadable: rebuilt, as load() explains
        return None
    h = hashlib.sha256()
    for m, v in zip(masks, values, strict=True):
        h.update(np.ascontiguousarray(m).data)
        h.update(np.ascontiguousarray(v).data)
    if (
        header.get("ruleset") != ruleset.to_dict()
        or header.get("solver_version") != SOLVER_VERSION
        or header.get("cap") != cap or header.get("bound") != bound
        or any(v.dtype != np.float32 for v in values)
        or header.get("sha256") != h.hexdigest()
    ):
        return None
    return masks, values, header
