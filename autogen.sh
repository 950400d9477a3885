#!/bin/sh
# Generates programs.am (from the registry, programs.txt), configure and
# Makefile.in (no libtool needed).
set -e
cd "$(dirname "$0")"
mkdir -p m4 build-aux
sh programs-am.sh programs.txt >programs.am.tmp && mv programs.am.tmp programs.am
autoreconf --install --force
