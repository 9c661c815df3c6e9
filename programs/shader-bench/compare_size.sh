#!/bin/sh
# SPIR-V size against vkd3d-compiler: translates every *.dxbc of DIR with
# shader-translate and with vkd3d-compiler (Vulkan 1.0 defaults of both) and
# prints the mean SPIR-V words per shader over the files both translate.
#
# usage: compare_size.sh DIR SHADER_TRANSLATE
#   e.g. compare_size.sh ../shared/corpus/dxbc build-rel/programs/shader-translate/shader-translate
set -u
dir=$1
ours=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
files=0 ours_bytes=0 theirs_bytes=0
for f in "$dir"/*.dxbc; do
    "$ours" -b spirv-binary -o "$tmp/a.spv" "$f" >/dev/null 2>&1 || continue
    VKD3D_SHADER_DEBUG=none vkd3d-compiler -o "$tmp/b.spv" "$f" >/dev/null 2>&1 || continue
    files=$((files + 1))
    ours_bytes=$((ours_bytes + $(wc -c < "$tmp/a.spv")))
    theirs_bytes=$((theirs_bytes + $(wc -c < "$tmp/b.spv")))
done
echo "$files $ours_bytes $theirs_bytes" | awk '{ printf "%d files both translate: dxspv %.1f words per shader, vkd3d-compiler %.1f (ratio %.3f)\n", $1, $2 / 4 / $1, $3 / 4 / $1, $2 / $3 }'
