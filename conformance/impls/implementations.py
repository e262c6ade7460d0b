"""The SDT implementations under test: `list` names them, <name>.h adapts each.

An adapter is a header that defines IMPL_PROBE(provider, name, args...) on
top of the implementation's own probe macro. Its header comment carries
`xsdt-impl <key>: <value>` lines:

  role        subject (every failure fails the matrix) or reference (its
              failures are findings, reported side by side; only a known
              bug that stops reproducing fails the matrix)
  features    lit features the implementation provides; tests that need one
              it lacks are reported as not applicable (UNSUPPORTED)
  header      <include name>=<glob>: an installed header the adapter includes,
              linked into a directory of its own (cross builds cannot use
              the host's multiarch include directory)
  package     the Debian package that installs the headers
  known-bug   a lit test (catalog/<entry>.test) the implementation must fail
              in at least one cell of the test's arch
  generator   its `dtrace -h/-G` build step (lit-tests/dtrace, as %dtrace):
              an absolute path, or `xsdt-dtrace`, the tool of this tree
              (lit's --param dtrace); gives the lit feature dtrace-generator
"""
import glob
import os
import re

HERE = os.path.dirname(os.path.abspath(__file__))
LIST = os.path.join(HERE, "list")
_KEY = re.compile(r"^\W*xsdt-impl ([a-z-]+):[ \t]*(.*?)\s*$")
_ROLES = ("subject", "reference")
XSDT_DTRACE = "xsdt-dtrace"


class ImplementationError(Exception):
    pass


def names():
    """The implementations of the list, in order."""
    with open(LIST) as f:
        return [line.strip() for line in f
                if line.strip() and not line.lstrip().startswith("#")]


def load(name):
    """The adapter's description: a dict with name, adapter, role, features,
    headers ({include name: glob}), package and known_bugs."""
    adapter = os.path.join(HERE, f"{name}.h")
    if not re.fullmatch(r"[a-z0-9][a-z0-9-]*", name or ""):
        raise ImplementationError(f"bad implementation name {name!r}")
    if not os.path.exists(adapter):
        raise ImplementationError(f"implementation {name!r}: no adapter {adapter}")
    impl = {"name": name, "adapter": adapter, "role": None, "features": [],
            "headers": {}, "package": None, "known_bugs": [], "generator": None}
    with open(adapter) as f:
        for line in f:
            match = _KEY.match(line)
            if not match:
                continue
            key, value = match.groups()
            if key == "role":
                impl["role"] = value
            elif key == "features":
                impl["features"] += value.split()
            elif key == "header":
                include, _, pattern = value.partition("=")
                if not include or not pattern:
                    raise ImplementationError(f"{adapter}: bad header line {value!r}")
                impl["headers"][include] = pattern
            elif key == "package":
                impl["package"] = value
            elif key == "known-bug":
                impl["known_bugs"].append(value)
            elif key == "generator":
                if value != XSDT_DTRACE and not os.path.isabs(value):
                    raise ImplementationError(
                        f"{adapter}: xsdt-impl generator must be {XSDT_DTRACE} or an "
                        f"absolute path, got {value!r}")
                impl["generator"] = value
            else:
                raise ImplementationError(f"{adapter}: unknown key xsdt-impl {key}")
    if impl["role"] not in _ROLES:
        raise ImplementationError(
            f"{adapter}: xsdt-impl role must be one of {', '.join(_ROLES)}, got {impl['role']!r}")
    return impl


def missing_headers(impl):
    """Headers of the implementation that are not installed: [include name]."""
    return [include for include, pattern in impl["headers"].items()
            if not glob.glob(pattern)]


def generator_path(impl, xsdt_dtrace):
    """The implementation's dtrace generator as a path (xsdt_dtrace: the
    path of this tree's xsdt-dtrace), or None when it has none."""
    if impl.get("generator") == XSDT_DTRACE:
        return xsdt_dtrace
    return impl.get("generator")


def header_dir(impl, root):
    """Links the implementation's installed headers under root/<name>/ and
    returns that include directory (None when it has no headers)."""
    if not impl["headers"]:
        return None
    include_dir = os.path.join(root, impl["name"])
    for include, pattern in impl["headers"].items():
        found = sorted(glob.glob(pattern))
        if not found:
            raise ImplementationError(
                f"implementation {impl['name']}: {include} not found ({pattern}); "
                f"install {impl['package'] or 'it'}")
        target = os.path.join(include_dir, include)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        if os.path.realpath(target) != os.path.realpath(found[0]):
            if os.path.lexists(target):
                os.unlink(target)
            os.symlink(found[0], target)
    return include_dir
