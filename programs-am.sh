#!/bin/sh
# Writes the automake lines of every program in the registry (programs.txt)
# to standard output: Makefile.am includes them as programs.am. autogen.sh
# and make (when programs.txt changes) run it.
set -e
# The registry's lines, checked by its one shell reader (programs.sh).
programs_txt=${1:-programs.txt}
. "$(dirname "$0")/programs.sh"
rows=$(registry)
printf '%s\n' "$rows" | awk '
NF == 0 { next }
{
    p = $3 "/" $1; v = p; gsub(/[^A-Za-z0-9_]/, "_", v)
    srcs = p ".c"; if ($6 != "-") { extra = $6; gsub(/,/, " ", extra); srcs = srcs " " extra }
    if ($5 == "gpu") printf "if HAVE_CUDA\nbin_PROGRAMS += %s\nendif\n", p
    else printf "bin_PROGRAMS += %s\n", p
    printf "%s_SOURCES = %s\n", v, srcs
    if ($5 == "gpu") printf "%s_CPPFLAGS = $(DRIVER_INCLUDES)\n%s_LDADD = $(DRIVER_LIBS)\n%s_LDFLAGS = $(AS_NEEDED)\n", v, v, v
}
BEGIN { print "# Made by programs-am.sh from programs.txt: edit that, not this." }
'
