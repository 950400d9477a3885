#!/bin/sh
# configure's --with-cuda-arch, against a stand-in nvcc (CUDA 12.4 that
# builds 75 to 90): a bare --with-cuda-arch, an empty list, a comma list,
# a newline in the list, and an architecture this nvcc does not build (70)
# each fail at configure time in one line naming the value and what this
# nvcc builds (issue 66: they failed only in make); "80 90" is taken (and
# configure stops at the stand-in's missing libcudart_static.a, next).
# One --cache-file for every case (configure saves it before CUDA): seconds.
. "$top_srcdir/tests/lib.sh"
# configure runs in a folder of its own: not beside a build made in the source folder.
[ ! -f "$top_srcdir/config.status" ] || skip "the source folder is configured in place: configure cannot run in another folder"
cuda=$tmp/cuda
mkdir -p "$cuda/bin" "$tmp/b"
cat >"$cuda/bin/nvcc" <<'EOS'
#!/bin/sh
case $1 in
--version) echo "Cuda compilation tools, release 12.4, V12.4.131" ;;
--list-gpu-arch) printf 'compute_%s\n' 75 80 86 87 89 90 ;;
*) echo "stand-in nvcc: $*" >&2; exit 1 ;;
esac
EOS
chmod +x "$cuda/bin/nvcc"
conf() { (cd "$tmp/b" && "$top_srcdir/configure" -q --cache-file="$tmp/config.cache" --with-cuda="$cuda" "$@") >"$tmp/out" 2>"$tmp/err"; }
accepted="75 80 86 87 89 90"
n=0
for arch in --with-cuda-arch --with-cuda-arch= --with-cuda-arch=80,90 "--with-cuda-arch=80
90" "--with-cuda-arch=80 70"; do
    rc=0; conf "$arch" || rc=$?
    [ $rc -ne 0 ] || { cat "$tmp/err"; fail "configure $arch: taken"; }
    [ "$(grep -c '^configure: error: ' "$tmp/err")" -eq 1 ] && grep -q "^configure: error: --with-cuda-arch.*builds $accepted\$" "$tmp/err" \
        || { cat "$tmp/err"; fail "configure $arch: not one line naming it and the architectures this nvcc builds"; }
    n=$((n + 1))
done
grep -q "^configure: error: --with-cuda-arch: 70 is not" "$tmp/err" || { cat "$tmp/err"; fail "the refusal does not name 70"; }
echo "$n --with-cuda-arch values refused at configure time, each in one line"
! conf "--with-cuda-arch=80 90" && grep -q "^configure:[0-9]*: result: 80 90$" "$tmp/b/config.log" \
    && grep -q "libcudart_static.a not found" "$tmp/err" || { cat "$tmp/err"; fail "configure --with-cuda-arch='80 90': not taken"; }
echo "--with-cuda-arch='80 90' taken"
