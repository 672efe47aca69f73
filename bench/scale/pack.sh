#!/bin/bash
# Fills perfkit/ with what bench/scale/run-on-bare.sh needs besides node.xz and sys.tar.xz (../shared/perf/kit.sh):
#   perfkit/scale.tar.xz  after/dist (this tree's build), before/dist (the build of $BEFORE, issue 40's
#                         baseline), node_modules (what the bundles load at run time: prod-modules.mjs),
#                         bench.mjs (bench/scale/main.ts bundled: no tsx there), meta.env (the commits)
#   perfkit/kit-env.sh    a copy of ../shared/perf/kit-env.sh (../shared is not carried)
# Run from the project root:  bash bench/scale/pack.sh     (PERFKIT=<dir> to fill another folder)
# Source maps are left out (2/3 of dist/); the servers run without --enable-source-maps.
set -euo pipefail
ROOT=$PWD; K=${PERFKIT:-$ROOT/perfkit}; BEFORE=${BEFORE:-a765e55}
BDIR=${BEFORE_DIR:-/tmp/addon-pair-before-$BEFORE}
MODULES=$(readlink -f "$ROOT/node_modules")
[ -f "$K/node.xz" ] && [ -f "$K/sys.tar.xz" ] || { echo "pack: $K lacks node.xz/sys.tar.xz: run ../shared/perf/kit.sh first" >&2; exit 1; }
S=$(mktemp -d); trap 'rm -rf "$S"' EXIT
mkdir -p "$S/after" "$S/before"

npm run -s build
cp -a dist "$S/after/"
# The build before, in a scratch clone of its own (never a worktree of this repository).
if [ "$(git -C "$BDIR" rev-parse HEAD 2>/dev/null)" != "$(git rev-parse "$BEFORE^{commit}")" ]; then
  rm -rf "$BDIR"; git clone -q "$ROOT" "$BDIR"; git -C "$BDIR" checkout -q "$BEFORE"
fi
[ -e "$BDIR/node_modules" ] || ln -s "$MODULES" "$BDIR/node_modules"
(cd "$BDIR" && npm run -s build)
cp -a "$BDIR/dist" "$S/before/"
find "$S" -name '*.map' -delete

node bench/scale/prod-modules.mjs "$S"
# pg stays external: it is CommonJS, and node_modules/pg is carried anyway.
npx esbuild bench/scale/main.ts --bundle --platform=node --format=esm --target=node20 --external:pg \
  --log-level=warning --outfile="$S/bench.mjs"
DIRTY=$(git status --porcelain --untracked-files=no | grep -q . && echo '+uncommitted changes' || true)
printf 'SCALE_COMMIT=%q\nSCALE_BEFORE_COMMIT=%q\n' "$(git rev-parse --short HEAD)$DIRTY" "$(git -C "$BDIR" rev-parse --short HEAD)" >"$S/meta.env"

tar -C "$S" -cf - . | xz -T2 -9 >"$K/scale.tar.xz"
KIT_ENV=${KIT_ENV:-$ROOT/../shared/perf/kit-env.sh}; [ -f "$KIT_ENV" ] || KIT_ENV=/work/shared/perf/kit-env.sh
cp "$KIT_ENV" "$K/kit-env.sh"
du -sh "$S"/* | sed 's/^/pack: unpacked /'
ls -la "$K"; du -shL "$K"
