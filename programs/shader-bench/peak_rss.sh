#!/bin/sh
# Peak resident set of one process per shader: runs COMMAND on every
# *.dxbc / *.dxil of DIR (output to /dev/null) under /usr/bin/time and
# prints the median and maximum peak RSS in KiB over the files it
# translates.
#
# usage: peak_rss.sh DIR COMMAND [ARGS...]
#   e.g. peak_rss.sh ../shared/corpus/dxbc build-rel/programs/shader-translate/shader-translate -o /dev/null
#        peak_rss.sh ../shared/corpus/dxbc vkd3d-compiler -o /dev/null
set -u
dir=$1
shift
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
for f in $(find "$dir" -maxdepth 1 -type f \( -name '*.dxbc' -o -name '*.dxil' \) | sort); do
    /usr/bin/time -f '%x %M' -o "$tmp" "$@" "$f" >/dev/null 2>&1
    read -r status kib < "$tmp"
    [ "$status" = 0 ] && echo "$kib"
done | sort -n | awk '{ v[NR] = $1 } END { if (NR) printf "%d files: peak RSS median %d KiB, max %d KiB\n", NR, v[int((NR + 1) / 2)], v[NR] }'
