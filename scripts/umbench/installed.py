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


class Installed:
    """What the installed libraries know: their settings and current values."""

    def __init__(self):
        launcher = env.mpiexec() or [shutil.which("mpirun") or shutil.which("mpiexec") or "mpirun"]
        banner = output([launcher[0], "--version"])
        self.mpi = "openmpi" if "Open MPI" in banner else "mpich" if "HYDRA" in banner or "MPICH" in banner else None
        self.names = {"openmpi": "Open MPI", "mpich": "MPICH", "ucx": "UCX", "mps": "MPS"}
        self.known, self.components, self.why = {}, set(), {}
        if self.mpi == "openmpi":
            text = output(["ompi_info", "--all", "--parsable"])
            for line in text.splitlines():
                f = line.split(":", 6)
                if line.startswith("mca:") and len(f) >= 7 and f[3] == "param" and f[5] == "value":
                    self.known["OMPI_MCA_" + f[4]] = f[6]
                elif line.startswith("mca:") and len(f) >= 4 and f[3] == "version":
                    self.components.add((f[1], f[2]))
                elif line.startswith("ompi:version:full:"):
                    self.names["openmpi"] = "Open MPI " + line.split(":")[-1]
            self.why["openmpi"] = "ompi_info" if text else "ompi_info gave nothing"
        elif self.mpi == "mpich":
            for m in re.finditer(r"(MPIR_CVAR_\w+)\s*=(\S*)", output(["mpivars"])):
                self.known[m.group(1)] = m.group(2)
            self.names["mpich"] = "MPICH " + (re.findall(r"MPICH Version:\s*(\S+)", output(["mpichversion"])) or ["?"])[0]
            self.why["mpich"] = "mpivars"
        # UCX matters only where the MPI can hand messages to it.
        self.ucx = (self.mpi == "openmpi" and ("pml", "ucx") in self.components) or \
            (self.mpi == "mpich" and "ch4:ucx" in output(["mpichversion"]))
        if self.ucx:
            text = output(["ucx_info", "-c"])
            for line in text.splitlines():
                if line.startswith("UCX_") and "=" in line:
                    k, v = line.split("=", 1)
                    self.known[k] = v
            version = re.findall(r"Library version: (\S+)", output(["ucx_info", "-v"]))
            self.names["ucx"] = "UCX " + (version[0] if version else "(ucx_info not found)")
            self.why["ucx"] = "ucx_info -c" if text else "ucx_info not found"
        self.gpus = len([l for l in output(["nvidia-smi", "-L"]).splitlines() if l.startswith("GPU ")])

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
        if var == "OMPI_MCA_pml" or var == "OMPI_MCA_btl":
            fw = var[len("OMPI_MCA_"):]
            missing = [c for c in value.lstrip("^").split(",") if (fw, c) not in self.components]
            return "%s has no %s component %s (ompi_info)" % (self.names[lib], fw, ", ".join(missing)) if missing else None
        if var not in self.known:
            return "%s does not know %s (%s)" % (self.names[lib], var, self.why.get(lib, "not asked"))
        if self.known[var] == value:
            return "already the default"
        return None
