#!/bin/sh
# easyconfig.sh TEMPLATE TARBALL VERSION MPI_MODULE [CUDA_MODULE [PYTHON_MODULE]]:
# umbench's easyconfig on stdout, for that tarball (its sha256) and the
# site's modules of the MPI library, of CUDA (empty: a host-only build) and
# of a Python with jsonschema, which the scripts need (empty: the system's
# python3 has it). `make easyconfig` runs it; docs/install.md says why it
# is written, not kept.
# A module name is the site's to give: letters, digits and . _ / + - only,
# refused in one line otherwise, so that nothing else reaches the file (no
# quote: each lands in a Python string of the easyconfig as it is). `make
# easyconfig` passes EB_MPI_MODULE, EB_CUDA_MODULE and EB_PYTHON_MODULE as arguments, the
# shell's values, never as its text.
set -u
me=easyconfig.sh
case $# in 4 | 5 | 6) ;; *) { echo "usage: $me TEMPLATE TARBALL VERSION MPI_MODULE [CUDA_MODULE [PYTHON_MODULE]]" >&2; exit 1; } ;; esac
template=$1 tarball=$2 version=$3 mpi=$4 cuda=${5:-} python=${6:-}
# shown TEXT...: the one rule for showing a value (scripts/shown.sh; make
# easyconfig runs this file from the tree, where that one is beside it).
# shellcheck source=/dev/null
. "$(dirname "$0")/../shown.sh"
module_name() {  # module_name WHAT VALUE: VALUE is a module name, or one line and exit 1
    case $2 in
    '' | *[!A-Za-z0-9._/+-]* | /* | *//* | -*)
        # One line whatever the value holds: a newline or an escape shown as \xNN.
        echo "$me: $1 '$(shown "$2")' is not a module name (letters, digits and . _ / + - only)" >&2
        exit 1 ;;
    esac
}
module_name EB_MPI_MODULE "$mpi"
[ -z "$cuda" ] || module_name EB_CUDA_MODULE "$cuda"
[ -z "$python" ] || module_name EB_PYTHON_MODULE "$python"
case $version in '' | *[!0-9A-Za-z.+-]*) echo "$me: version '$version' is not a version" >&2; exit 1 ;; esac
[ -r "$template" ] || { echo "$me: no template $template" >&2; exit 1; }
[ -r "$tarball" ] || { echo "$me: no tarball $tarball (make dist first)" >&2; exit 1; }
sum=$(sha256sum "$tarball" | cut -d' ' -f1)
[ ${#sum} -eq 64 ] || { echo "$me: cannot checksum $tarball" >&2; exit 1; }
deps="    ('$mpi', EXTERNAL_MODULE),"
if [ -n "$cuda" ]; then
    deps="$deps
    ('$cuda', EXTERNAL_MODULE),"
    opts='--with-cuda' suffix='-CUDA'
else
    opts='--without-cuda' suffix=''
fi
[ -z "$python" ] || deps="$deps
    ('$python', EXTERNAL_MODULE),"
# awk, not sed: the values carry / and + (module names) and newlines (deps).
awk -v version="$version" -v suffix="$suffix" -v sum="$sum" -v deps="$deps" -v opts="$opts" '
    $0 == "@DEPENDENCIES@]" { print deps; print "]"; next }
    { gsub(/@VERSION@/, version); gsub(/@VERSIONSUFFIX@/, suffix); gsub(/@SHA256@/, sum); gsub(/@CONFIGOPTS@/, opts); print }
' "$template"
