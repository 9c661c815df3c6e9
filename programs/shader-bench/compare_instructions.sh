#!/bin/sh
# Instructions per DXBC translation against vkd3d-compiler: for every
# STEP-th *.dxbc of DIR (by name) that both translate, callgrind counts the
# instructions inside the translation call only (shader-translate's
# dxspv::api::translate, vkd3d-compiler's vkd3d_shader_compile), one cold
# translation per process, and prints the means. Start-up and file I/O are
# left out of both.
#
# shader-translate checks the container checksum (as vkd3d-shader does);
# OPTIONS "--no-checksum" measures the library's default instead.
#
# usage: compare_instructions.sh DIR SHADER_TRANSLATE [STEP [OPTIONS]]
#   e.g. compare_instructions.sh ../shared/corpus/dxbc build-rel/programs/shader-translate/shader-translate 10
set -u
dir=$1
ours=$2
step=${3:-10}
options=${4:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
count() { # TOGGLE COMMAND... : the instructions callgrind counted inside TOGGLE
    toggle=$1
    shift
    valgrind --tool=callgrind --toggle-collect="$toggle" --callgrind-out-file="$tmp/cg" "$@" 2>&1 >/dev/null |
        awk '/refs:/ { gsub(",", "", $4); print $4 }'
}
files=0 ours_sum=0 theirs_sum=0
for f in $(find "$dir" -maxdepth 1 -name '*.dxbc' | sort | awk -v s="$step" '(NR - 1) % s == 0'); do
    "$ours" $options -o /dev/null "$f" >/dev/null 2>&1 || continue
    VKD3D_SHADER_DEBUG=none vkd3d-compiler -o "$tmp/b.spv" "$f" >/dev/null 2>&1 || continue
    a=$(count 'dxspv::api::translate*' "$ours" $options -o /dev/null "$f")
    b=$(VKD3D_SHADER_DEBUG=none count vkd3d_shader_compile vkd3d-compiler -o "$tmp/b.spv" "$f")
    files=$((files + 1))
    ours_sum=$((ours_sum + a))
    theirs_sum=$((theirs_sum + b))
done
echo "$files $ours_sum $theirs_sum" | awk '{ printf "%d files both translate: dxspv %.1f k instructions per translation, vkd3d-shader %.1f k (ratio %.3f)\n", $1, $2 / $1 / 1000, $3 / $1 / 1000, $2 / $3 }'
