"""What the installed MPI and UCX know: their settings and current values,
asked of their own tools (ompi_info, mpivars, ucx_info), and whether a
catalogue setting can be tried here."""
import re
import shutil
import subprocess

from . import env
from .shown import decoded


def output(cmd):
    try:
        return decoded(subprocess.run(cmd, capture_output=True, timeout=120).stdout)
    except (OSError, subprocess.TimeoutExpired):
        return ""


# The lines of ompi_info --all --parsable that name a parameter's value
# (the value may hold ':'), a component, and the version.
PARAM = re.compile(r"^mca:[^:\n]*:[^:\n]*:param:([^:\n]*):value:(.*)$", re.M)
COMPONENT = re.compile(r"^mca:([^:\n]*):([^:\n]*):version(?::|$)", re.M)
VERSION = re.compile(r"^ompi:version:full:.*?([^:\n]*)$", re.M)


def _first(pattern, text, otherwise):
    return (re.findall(pattern, text, re.M) or [otherwise])[0]


class Installed:
    """What the installed libraries know: their settings and current values."""

    def __init__(self):
        launcher = env.mpiexec() or [shutil.which("mpirun") or shutil.which("mpiexec") or "mpirun"]
        banner = output([launcher[0], "--version"])
        self.mpi = "openmpi" if "Open MPI" in banner else "mpich" if "HYDRA" in banner or "MPICH" in banner else None
        self.names = {"openmpi": "Open MPI", "mpich": "MPICH", "ucx": "UCX", "mps": "MPS"}
        self.known, self.components, self.why, mpich = {}, set(), {}, ""
        if self.mpi == "openmpi":
            text = output(["ompi_info", "--all", "--parsable"])
            self.known = {"OMPI_MCA_" + k: v for k, v in PARAM.findall(text)}
            self.components = set(COMPONENT.findall(text))
            self.names["openmpi"] = " ".join(["Open MPI"] + VERSION.findall(text)[-1:])
            self.why["openmpi"] = "ompi_info" if text else "ompi_info gave nothing"
        elif self.mpi == "mpich":
            self.known = dict(re.findall(r"(MPIR_CVAR_\w+)\s*=(\S*)", output(["mpivars"])))
            mpich = output(["mpichversion"])
            self.names["mpich"] = "MPICH " + _first(r"MPICH Version:\s*(\S+)", mpich, "?")
            self.why["mpich"] = "mpivars"
        # UCX matters only where the MPI can hand messages to it.
        self.ucx = ("pml", "ucx") in self.components or "ch4:ucx" in mpich
        if self.ucx:
            text = output(["ucx_info", "-c"])
            self.known.update(re.findall(r"^(UCX_[^=\n]*)=(.*)$", text, re.M))
            version = output(["ucx_info", "-v"])
            self.names["ucx"] = "UCX " + _first(r"Library version: (\S+)", version, "(ucx_info not found)")
            self.why["ucx"] = "ucx_info -c" if text else "ucx_info not found"
        self.gpus = len([line for line in output(["nvidia-smi", "-L"]).splitlines() if line.startswith("GPU ")])

    def check(self, entry, value, np):
        """None when the setting can be tried, else why not (one line)."""
        lib, var = entry["library"], entry["variable"]
        if lib == "mps":
            if not shutil.which("nvidia-cuda-mps-control") or not self.gpus:
                return "no GPU or no nvidia-cuda-mps-control here"
            return None if np > self.gpus else "%d ranks on %d GPUs: none share a GPU" % (np, self.gpus)
        if lib == "ucx" and not self.ucx:
            return "the MPI in use (%s) does not use UCX" % (self.names.get(self.mpi) or "unknown")
        if lib in ("openmpi", "mpich") and lib != self.mpi:
            return "the MPI in use is %s" % (self.names.get(self.mpi) or "not Open MPI or MPICH")
        if var in ("OMPI_MCA_pml", "OMPI_MCA_btl"):
            fw = var[len("OMPI_MCA_"):]
            missing = [c for c in value.lstrip("^").split(",") if (fw, c) not in self.components]
            return "%s has no %s component %s (ompi_info)" % (self.names[lib], fw, ", ".join(missing)) if missing else None
        if var not in self.known:
            return "%s does not know %s (%s)" % (self.names[lib], var, self.why.get(lib, "not asked"))
        return "already the default" if self.known[var] == value else None
