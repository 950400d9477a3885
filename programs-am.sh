#!/bin/sh
# Writes the automake lines of every program in the registry (programs.txt)
# to standard output: Makefile.am includes them as programs.am. autogen.sh
# and make (when programs.txt changes) run it.
set -e
awk '
function fail(msg) { printf "%s:%d: %s\n", FILENAME, FNR, msg > "/dev/stderr"; exit 1 }
/^[ \t]*(#|$)/ { next }
{
    if (NF != 6) fail("expected 6 columns (name family dir ranks needs sources), got " NF)
    if ($2 !~ /^(pt2pt|rma|collective|driver)$/) fail("family " $2 ": not pt2pt, rma, collective or driver")
    if ($4 !~ /^(1|2|even|any)$/) fail("ranks " $4 ": not 1, 2, even or any")
    if ($5 !~ /^(mpi|gpu)$/) fail("needs " $5 ": not mpi or gpu")
    if (seen[$1]++) fail($1 " listed twice")
    p = $3 "/" $1; v = p; gsub(/[^A-Za-z0-9_]/, "_", v)
    srcs = p ".c"; if ($6 != "-") { extra = $6; gsub(/,/, " ", extra); srcs = srcs " " extra }
    if ($5 == "gpu") printf "if HAVE_CUDA\nbin_PROGRAMS += %s\nendif\n", p
    else printf "bin_PROGRAMS += %s\n", p
    printf "%s_SOURCES = %s\n", v, srcs
    if ($5 == "gpu") printf "%s_CPPFLAGS = $(DRIVER_INCLUDES)\n%s_LDADD = $(GPU_LIBS)\n%s_LDFLAGS = $(AS_NEEDED)\n", v, v, v
}
BEGIN { print "# Made by programs-am.sh from programs.txt: edit that, not this." }
' "${1:-programs.txt}"
