#!/bin/sh
# Writes hot-functions.txt: the functions shader-translate runs when it
# translates shaders, most widely used first, for the linker to place them
# next to each other (lld's --symbol-ordering-file; meson.build). A process
# that translates one shader then touches a few dozen contiguous pages of
# code instead of pages scattered over the executable: its resident set is
# about half as large (README "Performance"). Names missing from a later
# build are ignored, so a stale list costs only locality; rerun this after
# large changes.
#
# usage: order_functions.sh SHADER-TRANSLATE DIR... > hot-functions.txt
#   e.g. sh programs/shader-translate/order_functions.sh build-rel/programs/shader-translate/shader-translate \
#            ../shared/corpus/dxbc ../shared/corpus/dxil > programs/shader-translate/hot-functions.txt
# Runs callgrind on every 8th *.dxbc / *.dxil file of each DIR (one process each).
set -eu
exe=$1
shift
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
n=0
for dir in "$@"; do
    for f in $(find "$dir" -maxdepth 1 -type f \( -name '*.dxbc' -o -name '*.dxil' \) | sort | awk 'NR % 8 == 1'); do
        n=$((n + 1))
        valgrind --tool=callgrind --demangle=no --callgrind-out-file="$out/$n.cg" \
            "$exe" "$f" -o /dev/null >/dev/null 2>&1 || true
    done
done
# Each run's functions (callgrind names a function once as "fn=(id) name" and
# then by id only), counted over the runs; ties keep the name order.
for cg in "$out"/*.cg; do
    sed -n "s/^c\\{0,1\\}fn=([0-9]*) \\([^' ]*\\).*/\\1/p" "$cg" | grep -v '^0x\|^(' | sort -u
done | sort | uniq -c | sort -k1,1nr -k2,2 | awk '{ print $2 }'
