#!/bin/sh
# Generates configure and Makefile.in (no libtool needed).
set -e
cd "$(dirname "$0")"
mkdir -p m4 build-aux
autoreconf --install --force
