#!/bin/sh
# The Spack recipe (scripts/spack/package.py) kept honest without Spack,
# which has never built it (docs/install.md, "Spack"): read with Spack's
# directives stubbed, its versions are configure.ac's (or branches), its
# variants and CudaPackage's are exactly configure's --with options (a new
# option without a variant fails here), its CUDA minimum is configure's,
# and every module the scripts import beyond Python's own has a run
# dependency (matplotlib, for umb-plot only, is optional). Its
# configure_args are checked in tests/scripts/batch_scripts.sh.
. "$top_srcdir/tests/lib.sh"
[ -n "${PYTHON3:-}" ] || skip "python3 not found"
"$PYTHON3" - "$top_srcdir/scripts/spack/package.py" "$top_srcdir/configure.ac" "$top_srcdir/scripts/umbench" <<'PY' || fail "the Spack recipe does not match configure.ac or the scripts (above)"
import ast, glob, re, sys, types
recipe, configure_ac, package = sys.argv[1:4]
calls = {"version": [], "variant": [], "depends_on": []}
stub = types.ModuleType("spack.package")
stub.AutotoolsPackage, stub.CudaPackage = type("AutotoolsPackage", (), {}), type("CudaPackage", (), {})
for name in calls:
    setattr(stub, name, lambda *a, _n=name, **k: calls[_n].append((a, k)))
stub.which = lambda *a, **k: None
sys.modules["spack"] = types.ModuleType("spack"); sys.modules["spack.package"] = stub
exec(compile(open(recipe).read(), recipe, "exec"), {})
ac = open(configure_ac).read()
bad = []

# Versions: a numbered one is configure.ac's AC_INIT version; others are branches.
ac_version = re.search(r"AC_INIT\(\[umbench\], \[([^]]+)\]", ac).group(1)
numbered = [a[0] for a, k in calls["version"] if "branch" not in k]
branches = [a[0] for a, k in calls["version"] if "branch" in k]
bad += ["version %s is not configure.ac's %s" % (v, ac_version) for v in numbered if v != ac_version]
if not calls["version"]:
    bad.append("no version at all")

# Variants: the recipe's and CudaPackage's (cuda, cuda_arch), against configure's --with options.
withs = set(re.findall(r"AC_ARG_WITH\(\[([a-z-]+)\]", ac))
enables = set(re.findall(r"AC_ARG_ENABLE\(\[([a-z-]+)\]", ac))
variants = {a[0].replace("_", "-") for a, k in calls["variant"]} | {"cuda", "cuda-arch"}
bad += ["configure --with-%s has no variant" % w for w in sorted(withs - variants)]
bad += ["variant %s is no configure --with option" % v for v in sorted(variants - withs)]
# --enable-sanitizers is for the tests only: no variant, on purpose.
bad += ["configure --enable-%s: a variant, or say why not here" % e for e in sorted(enables - {"sanitizers"})]

# The CUDA minimum: configure refuses older than "needs X.Y or newer".
need = re.search(r"umbench needs (\d+\.\d+) or newer", ac).group(1)
cuda = [a[0] for a, k in calls["depends_on"] if a[0].startswith("cuda@")]
if cuda != ["cuda@%s:" % need]:
    bad.append("depends_on %s, configure needs CUDA %s or newer (cuda@%s:)" % (cuda, need, need))

# What the scripts import beyond Python's own: a run dependency each (py-NAME).
imported = set()
for path in glob.glob(package + "/*.py"):
    for node in ast.walk(ast.parse(open(path).read())):
        if isinstance(node, ast.Import):
            imported |= {n.name.split(".")[0] for n in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            imported.add(node.module.split(".")[0])
third = imported - set(sys.stdlib_module_names) - {"umbench"}
optional = {"matplotlib"}  # umb-plot and umb-compare --plot only; they say so without it
run = {a[0] for a, k in calls["depends_on"] if "run" in str(k.get("type", ""))}
bad += ["the scripts import %s: no depends_on('py-%s', type='run')" % (m, m) for m in sorted(third - optional) if "py-" + m not in run]
if not third - optional:
    bad.append("the scripts import nothing beyond Python's own? (%s)" % sorted(imported))

for b in bad:
    print("package.py:", b)
if bad:
    sys.exit(1)
print("package.py: versions %s (configure.ac: %s); variants %s = configure's --with options; cuda@%s:; run dependencies for %s"
      % (numbered + ["%s (branch)" % b for b in branches], ac_version, sorted(variants), need, sorted(third - optional)))
PY
