#!/usr/bin/env bash
# The one test command (`npm test`): layer check, type check, lint and format, build, the three Node tiers (unit:
# pure, no process; integration: real git, processes, PostgreSQL; stress: large drains and crash loops), the scenario
# matrix, the queue panel's webview on its own in headless chromium, then the real VS Code tests: integration tests
# inside code-server's extension host and UI tests in headless chromium. Exits non-zero if any suite fails and
# ends with a line "N passed, N failed" (suites, not test cases).
#
# The code-server and browser suites run in a network namespace with only
# loopback when the machine allows it (unshare + ip), so nothing can leave
# the machine; SWITCHYARD_TEST_OFFLINE=0 turns that off.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

passed=0
failed=0
skipped=0
results=()
started_all=$SECONDS

# Each suite's output also goes to test-output/logs/, so that the summary can repeat the failures of a failed suite:
# a CI log that keeps only its end still says which test failed and why.
logs=test-output/logs
mkdir -p "$logs"
failed_logs=()

section() {
  local name=$1
  shift
  printf '\n========== %s ==========\n$ %s\n' "$name" "$*"
  local t0=$SECONDS rc=0 log
  log="$logs/$(printf '%s' "$name" | tr -c 'A-Za-z0-9' '-').log"
  "$@" 2>&1 | tee "$log"
  rc=${PIPESTATUS[0]}
  local took=$((SECONDS - t0))
  if ((rc == 0)); then
    passed=$((passed + 1))
    results+=("PASS  $name (${took} s)")
    printf -- '---------- %s: passed in %s s\n' "$name" "$took"
  else
    failed=$((failed + 1))
    results+=("FAIL  $name (exit $rc, ${took} s)")
    failed_logs+=("$name" "$log")
    printf -- '---------- %s: FAILED (exit %s) after %s s\n' "$name" "$rc" "$took"
  fi
  return "$rc"
}

skip() {
  skipped=$((skipped + 1))
  results+=("SKIP  $1 ($2)")
  printf '\n========== %s ==========\nskipped: %s\n' "$1" "$2"
}

# Runs "$@" with loopback as the only network, when possible.
offline() {
  if [[ ${SWITCHYARD_TEST_OFFLINE:-1} != 0 ]] && command -v unshare >/dev/null && command -v ip >/dev/null &&
    unshare -n true 2>/dev/null; then
    echo "(offline: a network namespace with loopback only)"
    unshare -n bash -c 'ip link set lo up && exec "$@"' offline "$@"
  else
    echo "(not sandboxed: unshare/ip unavailable or SWITCHYARD_TEST_OFFLINE=0; the tests still only use 127.0.0.1)"
    "$@"
  fi
}

built=0 installed=0 suite=0
# The layer check runs from its own small package (dependency-cruiser needs TypeScript's JavaScript API, which
# TypeScript 7 lacks).
[[ -x tools/depcruise/node_modules/.bin/depcruise ]] || npm ci --prefix tools/depcruise --no-audit --no-fund
section "Layers" npm run --silent check:layers
section "Type check" npx tsc --noEmit -p .
# Biome (biome.json): the formatter's check and the linter, warnings included; then lines over 120 characters
# whose code or comments alone pass 120 (a literal's text may run long: the formatter keeps it whole), outside
# documented data tables.
section "Lint and format" npx biome ci --error-on-warnings .
section "Line length" node scripts/check-line-length.mjs
# The committed switchyard.d.ts against what src/api.ts generates, before the build regenerates it.
section "Public API file" node scripts/build-api.mjs --check
section "Build" npm run build && built=1
section "Unit tests" npm run test:unit
section "Integration tests (real git, processes, PostgreSQL)" npm run test:integration
section "Stress tests (large drains, crash loops)" npm run test:stress
# The scenario matrix (test/matrix): the real claude and codex CLIs, the openai-compatible API lane and the command
# lane, each on a real Node project, against scripted model servers and a GitHub double on 127.0.0.1.
section "Scenario matrix" offline npm run --silent test:matrix
section "code-server" bash scripts/install-code-server.sh && installed=1
section "Integration suite build" node scripts/build-tests.mjs && suite=1

integration="Extension-host tests (real extension host in code-server)"
if ((built && installed && suite)); then
  section "$integration" offline node_modules/.bin/tsx test/extension-host/runInCodeServer.ts
else
  skip "$integration" "the build, the code-server install or the suite build failed"
fi
mocha=(node --import tsx node_modules/mocha/bin/mocha.js)
if ((built)) && [[ -x /usr/bin/chromium ]]; then
  section "Webview tests (standalone, headless chromium)" offline "${mocha[@]}" --config test/webview/mocharc.json
else
  skip "Webview tests (standalone, headless chromium)" "the build failed or /usr/bin/chromium is missing"
fi
if ((built && installed)); then
  section "UI tests (code-server + headless chromium)" offline "${mocha[@]}" --config test/ui/mocharc.json
else
  skip "UI tests (code-server + headless chromium)" "the build or the code-server install failed"
fi

# The failures again, where a truncated log still shows them: mocha's "N failing" part, or else the suite's last lines.
for ((i = 0; i < ${#failed_logs[@]}; i += 2)); do
  name=${failed_logs[i]} log=${failed_logs[i + 1]}
  printf '\n========== What failed in %s (from %s) ==========\n' "$name" "$log"
  if grep -qE '^ +[0-9]+ failing' "$log"; then
    sed -n '/^ \+[0-9]\+ failing/,$p' "$log" | head -n 200
  else
    tail -n 60 "$log"
  fi
done

printf '\n========== Summary (%s s) ==========\n' "$((SECONDS - started_all))"
printf '%s\n' "${results[@]}"
if ((skipped)); then
  printf '%s passed, %s failed, %s skipped\n' "$passed" "$failed" "$skipped"
else
  printf '%s passed, %s failed\n' "$passed" "$failed"
fi
((failed == 0 && skipped == 0))
