"""A Python missing what UMB_FAKE_MISSING names (comma-separated top-level
modules) and, where UMB_FAKE_SETUPTOOLS is set, claiming that setuptools
version: tests/scripts/package_needs.sh gives package.sh such a Python."""
import os
import sys

_missing = set(filter(None, os.environ.get("UMB_FAKE_MISSING", "").split(",")))


class _Missing:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in _missing:
            raise ModuleNotFoundError("No module named %r" % name, name=name)
        return None


sys.meta_path.insert(0, _Missing())
if os.environ.get("UMB_FAKE_SETUPTOOLS") and "setuptools" not in _missing:
    import setuptools
    setuptools.__version__ = os.environ["UMB_FAKE_SETUPTOOLS"]
