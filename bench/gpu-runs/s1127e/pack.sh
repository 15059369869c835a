#!/usr/bin/env bash
# Packs build-g90's programs (stripped), the plugin and ctest's files into .bin/tree.tar.xz for the
# device runs of this session (their scripts unpack it into build-g90; the device's checkout is /work/main).
set -e
cd "$(dirname "$0")/../../.."
T=$(mktemp -d); B=build-g90
(cd $B && find . -type f -perm -u+x ! -path "*/CMakeFiles/*" ! -name big_chunk ! -name pdl_probe ! -name glide_gen_dict;
 find . -name CTestTestfile.cmake; echo ./DartConfiguration.tcl) | sort -u > $T/list
(cd $B && tar cf $T/t.tar -T $T/list)
mkdir $T/x && tar xf $T/t.tar -C $T/x && find $T/x -type f -perm -u+x -exec strip --strip-unneeded {} + 2>/dev/null || true
mkdir -p .bin && (cd $T/x && tar cf - .) | xz -9 -T2 > .bin/tree.tar.xz
ls -l .bin/tree.tar.xz; rm -rf $T
