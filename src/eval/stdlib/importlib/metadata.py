"""importlib.metadata (onnxify's stdlib subset): installed distributions, read from the *.dist-info
and *.egg-info folders on sys.path under the import roots (files outside them are not read), with
CPython 3.11's search order, name normalization and answers."""
import os
import pathlib
import re
import sys

import _onnxify


class PackageNotFoundError(ModuleNotFoundError):
    """The package was not found."""

    def __str__(self):
        return f"No package metadata was found for {self.name}"

    @property
    def name(self):
        (name,) = self.args
        return name


def _normalize(name):
    return re.sub(r"[-_.]+", "-", name).lower().replace("-", "_")


class PackageMetadata:
    """The METADATA / PKG-INFO headers (email.message.Message's reading side: the first value of a
    header, case-insensitive, None when missing; get_all for repeated ones)."""

    def __init__(self, text):
        self._headers = []
        self._payload = ""
        lines = text.split("\n")
        for i, line in enumerate(lines):
            if line == "" or line == "\r":
                self._payload = "\n".join(lines[i + 1:])
                break
            if line[:1] in (" ", "\t") and self._headers:
                key, value = self._headers[-1]
                self._headers[-1] = (key, value + "\n" + line.rstrip("\r"))
                continue
            key, sep, value = line.partition(":")
            if not sep:
                continue
            self._headers.append((key, value.strip().rstrip("\r")))

    def __getitem__(self, key):
        low = key.lower()
        for k, v in self._headers:
            if k.lower() == low:
                return v
        return None

    def get(self, key, failobj=None):
        v = self[key]
        return failobj if v is None else v

    def get_all(self, key, failobj=None):
        low = key.lower()
        out = [v for k, v in self._headers if k.lower() == low]
        return out or failobj

    def __contains__(self, key):
        return self[key] is not None

    def keys(self):
        return [k for k, v in self._headers]

    def values(self):
        return [v for k, v in self._headers]

    def items(self):
        return list(self._headers)

    def __iter__(self):
        return iter(self.keys())

    def __len__(self):
        return len(self._headers)

    def get_payload(self):
        return self._payload

    @property
    def json(self):
        out = {}
        for k, v in self._headers:
            key = k.lower().replace("-", "_")
            if key in ("classifier", "obsoletes_dist", "platform", "project_url", "provides_dist", "provides_extra",
                       "requires_dist", "requires_external", "supported_platform", "dynamic"):
                out.setdefault(key, []).append(v)
            elif key == "keywords":
                out[key] = v.split(",") if "," in v else v.split()
            else:
                out[key] = v
        return out


class PackagePath(pathlib.PurePosixPath):
    """A file listed in a distribution's RECORD: a pure posix path (as in CPython) that can read itself."""

    def read_text(self, encoding="utf-8"):
        with open(self.locate(), encoding=encoding) as f:
            return f.read()

    def read_binary(self):
        with open(self.locate(), "rb") as f:
            return f.read()

    def locate(self):
        return self.dist.locate_file(self)


def _parse_record_line(line):
    if line.startswith('"'):
        end = 1
        out = ""
        while end < len(line):
            c = line[end]
            if c == '"':
                if line[end + 1:end + 2] == '"':
                    out += '"'
                    end += 2
                    continue
                rest = line[end + 1:].split(",")
                return [out] + rest[1:]
            out += c
            end += 1
        return [out]
    return line.split(",")


class Distribution:
    """A distribution found as a *.dist-info / *.egg-info folder."""

    def __init__(self, path):
        self._path = path

    @classmethod
    def from_name(cls, name):
        if not name:
            raise ValueError("A distribution name is required.")
        for dist in _search(_normalize(name), name.lower().replace("-", "_")):
            return dist
        raise PackageNotFoundError(name)

    @classmethod
    def discover(cls, **kwargs):
        name = kwargs.get("name")
        if name is None:
            return iter(_search(None, None))
        return iter(_search(_normalize(name), name.lower().replace("-", "_")))

    def read_text(self, filename):
        try:
            with open(os.path.join(self._path, filename), encoding="utf-8") as f:
                return f.read()
        except (FileNotFoundError, IsADirectoryError, KeyError, NotADirectoryError, PermissionError):
            return None

    def locate_file(self, path):
        return os.path.join(os.path.dirname(self._path), os.fspath(path))

    @property
    def metadata(self):
        text = self.read_text("METADATA") or self.read_text("PKG-INFO") or self.read_text("") or ""
        return PackageMetadata(text)

    @property
    def name(self):
        return self.metadata["Name"]

    @property
    def _normalized_name(self):
        return _normalize(self.name)

    @property
    def version(self):
        return self.metadata["Version"]

    @property
    def files(self):
        text = self.read_text("RECORD")
        if text is not None:
            lines = text.splitlines()
        else:
            text = self.read_text("SOURCES.txt")
            if text is None:
                return None
            lines = text.splitlines()
            out = []
            for line in lines:
                p = PackagePath(line)
                p.dist = self
                out.append(p)
            return out
        out = []
        for line in lines:
            fields = _parse_record_line(line)
            p = PackagePath(fields[0])
            p.hash = fields[1] if len(fields) > 1 and fields[1] else None
            p.size = int(fields[2]) if len(fields) > 2 and fields[2] else None
            p.dist = self
            out.append(p)
        return out

    @property
    def requires(self):
        reqs = self.metadata.get_all("Requires-Dist")
        return reqs and list(reqs)

    @property
    def entry_points(self):
        return _onnxify.poison("importlib.metadata.entry_points", "entry points are not available in onnxify")


PathDistribution = Distribution


def _search(normalized, legacy):
    """The distributions on sys.path in CPython's order: each sys.path folder in turn, its entries in
    directory order; one name: only the ones whose folder name normalizes to it."""
    for folder in sys.path:
        root = folder or "."
        base = os.path.basename(root).lower()
        try:
            children = os.listdir(root)
        except (OSError, ValueError):
            continue
        if _onnxify.is_poison(children):
            continue
        infos, eggs = {}, {}
        for child in children:
            low = child.lower()
            if low.endswith((".dist-info", ".egg-info")):
                key = _normalize(low.rpartition(".")[0].partition("-")[0])
                infos.setdefault(key, []).append(os.path.join(root, child))
            elif base.endswith(".egg") and low == "egg-info":
                key = base.rpartition(".")[0].partition("-")[0].lower().replace("-", "_")
                eggs.setdefault(key, []).append(os.path.join(root, child))
        if normalized is None:
            found = [p for ps in infos.values() for p in ps] + [p for ps in eggs.values() for p in ps]
        else:
            found = infos.get(normalized, []) + eggs.get(legacy, [])
        for p in found:
            yield Distribution(p)


def distribution(distribution_name):
    return Distribution.from_name(distribution_name)


def distributions(**kwargs):
    return Distribution.discover(**kwargs)


def metadata(distribution_name):
    return Distribution.from_name(distribution_name).metadata


def version(distribution_name):
    return distribution(distribution_name).version


def files(distribution_name):
    return distribution(distribution_name).files


def requires(distribution_name):
    return distribution(distribution_name).requires


def entry_points(**params):
    return _onnxify.poison("importlib.metadata.entry_points", "entry points are not available in onnxify")


def packages_distributions():
    pkg_to_dist = {}
    for dist in distributions():
        declared = (dist.read_text("top_level.txt") or "").split()
        if declared:
            pkgs = declared
        else:
            pkgs = {}
            for f in dist.files or ():
                if f.suffix == ".py":
                    parts = f.parts
                    pkgs[parts[0] if len(parts) > 1 else f.stem] = None
        name = dist.metadata["Name"]
        for pkg in pkgs:
            pkg_to_dist.setdefault(pkg, []).append(name)
    return pkg_to_dist
