# Spack recipe for umbench. Use it from a local repository:
#   spack repo create myrepo && mkdir -p myrepo/packages/umbench
#   cp package.py myrepo/packages/umbench/ && spack repo add myrepo
#   spack install umbench +cuda +cupti +numa ^openmpi
# Never built by Spack: what can be checked without it is
# (tests/install/spack_recipe.sh: versions, variants and CUDA minimum
# against configure.ac, run dependencies against the scripts' imports;
# tests/scripts/batch_scripts.sh: configure_args), the rest is untested
# (docs/install.md, "Spack"). A release adds version("X.Y.Z", sha256=...)
# for make dist's tarball, X.Y.Z being configure.ac's version.
from spack.package import *


class Umbench(AutotoolsPackage, CudaPackage):
    """MPI-aware CUDA Unified Memory benchmarks: what moving managed memory
    costs, between host and device and through an MPI library, and why."""

    homepage = "https://example.invalid/umbench"  # no public home yet
    git = "https://example.invalid/umbench.git"

    version("main", branch="main")

    variant("cupti", default=True, when="+cuda", description="Unified-memory counters (CUPTI)")
    variant("numa", default=True, description="NUMA binding and reporting (libnuma)")

    depends_on("autoconf", type="build")
    depends_on("automake", type="build")
    depends_on("mpi")
    depends_on("cuda@12.2:", when="+cuda")
    depends_on("numactl", when="+numa")
    depends_on("python@3:", type="run")
    # Every file the scripts read or write is checked against its schema.
    depends_on("py-jsonschema", type="run")

    def autoreconf(self, spec, prefix):
        which("sh")("./autogen.sh")

    def configure_args(self):
        spec = self.spec
        args = ["MPICC=" + spec["mpi"].mpicc]
        if spec.satisfies("+cuda"):
            args.append("--with-cuda=" + spec["cuda"].prefix)
            archs = spec.variants["cuda_arch"].value
            if archs and archs[0] != "none":
                args.append("--with-cuda-arch=" + " ".join(archs))
            args.append("--with-cupti" if spec.satisfies("+cupti") else "--without-cupti")
        else:
            args += ["--without-cuda", "--without-cupti"]
        args.append("--with-numa" if spec.satisfies("+numa") else "--without-numa")
        return args
