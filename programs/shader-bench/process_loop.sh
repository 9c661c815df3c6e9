#!/bin/sh
# One process per shader, as translation layers that shell out do: runs
# COMMAND once per file (its output to /dev/null) over every *.dxbc / *.dxil
# of DIR, three times, and prints the CPU seconds (user + system) of each
# loop and the files that failed. shader-bench measures the in-process cost;
# this measures what start-up and library loading add.
#
# usage: process_loop.sh DIR COMMAND [ARGS...]
#   e.g. process_loop.sh ../shared/corpus/dxbc build-rel/programs/shader-translate/shader-translate -o /dev/null
#        process_loop.sh ../shared/corpus/dxbc vkd3d-compiler -o /dev/null
set -u
dir=$1
shift
files=$(find "$dir" -maxdepth 1 -type f \( -name '*.dxbc' -o -name '*.dxil' \) | sort)
count=$(printf '%s\n' "$files" | grep -c .)
for run in 1 2 3; do
    failed=0
    start=$(cat /proc/$$/stat | cut -d' ' -f16,17)
    for f in $files; do
        "$@" "$f" >/dev/null 2>&1 || failed=$((failed + 1))
    done
    # Children's user and system time (fields 16, 17 of /proc/PID/stat), in clock ticks.
    end=$(cat /proc/$$/stat | cut -d' ' -f16,17)
    ticks=$(getconf CLK_TCK)
    echo "$start $end $ticks" | awk -v run="$run" -v n="$count" -v failed="$failed" \
        '{ printf "run %d: %d files, %.2f s CPU (user %.2f, system %.2f), %d failed\n", run, n, \
           ($3 + $4 - $1 - $2) / $5, ($3 - $1) / $5, ($4 - $2) / $5, failed }'
done
