#!/usr/bin/env bash
# The layer check (`npm run check:layers`): dependency-cruiser with the rules of
# .dependency-cruiser.cjs over src, webview and plugins. Exits non-zero on any
# import cycle or import against the layers. Extra arguments go to depcruise
# (test/integration/layers/layerRules.test.ts runs it on a fixture tree).
#
# dependency-cruiser needs TypeScript's JavaScript compiler API, which the
# project's TypeScript 7 (the native compiler) does not have, so it runs from
# its own small package in tools/depcruise (dependency-cruiser + TypeScript 5.9),
# installed by `npm ci --prefix tools/depcruise` (.ci/run does it).
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
depcruise="$repo/tools/depcruise/node_modules/.bin/depcruise"
if [[ ! -x $depcruise ]]; then
  echo "the layer check is not installed: run \`npm ci --prefix tools/depcruise\` in $repo" >&2
  exit 2
fi
if (($# == 0)); then
  cd "$repo"
  set -- src webview plugins
fi
exec "$depcruise" --config "$repo/.dependency-cruiser.cjs" "$@"
