#!/usr/bin/env bash
# Installs code-server (a real VS Code 1.100.3 with a Node extension host) into
# the git-ignored .vscode-test/cs, for the integration and UI tests.
# Idempotent: does nothing when that version is already there.
# Needs the Debian packages: build-essential python3 libkrb5-dev ripgrep chromium curl git
# (see shared REAL_VSCODE.md; .ci/run installs them).
set -euo pipefail

VERSION=4.100.3
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BASE="$ROOT/.vscode-test"
DEST="$BASE/cs"
BIN="$DEST/node_modules/.bin/code-server"
APT_HINT="apt-get update && apt-get install -y build-essential python3 libkrb5-dev ripgrep chromium curl git"

say() { printf '[install-code-server] %s\n' "$*"; }
die() { printf '[install-code-server] ERROR: %s\n' "$*" >&2; exit 1; }

installed_version() {
  # code-server writes a config file into XDG_CONFIG_HOME even for --version: keep it inside .vscode-test.
  [[ -x "$BIN" ]] || return 1
  mkdir -p "$BASE/tmp/version-check"
  XDG_CONFIG_HOME="$BASE/tmp/version-check" XDG_DATA_HOME="$BASE/tmp/version-check" \
    "$BIN" --version 2>/dev/null | grep -Eo '^[0-9]+\.[0-9]+\.[0-9]+' | head -1
}

if [[ "$(installed_version || true)" == "$VERSION" ]]; then
  say "code-server $VERSION already installed at $BIN"
  exit 0
fi

# --- prerequisites: name every missing piece at once -------------------------
missing=()
[[ -x /usr/bin/rg ]] || missing+=("/usr/bin/rg (Debian package ripgrep)")
[[ -x /usr/bin/chromium ]] ||
  missing+=("/usr/bin/chromium (Debian package chromium; the UI and integration tests drive it)")
command -v g++ >/dev/null && command -v make >/dev/null ||
  missing+=("g++/make (Debian package build-essential; native modules are compiled)")
command -v python3 >/dev/null || missing+=("python3 (node-gyp needs it)")
[[ -e /usr/include/gssapi/gssapi.h || -e /usr/include/krb5.h ]] ||
  missing+=("Kerberos headers (Debian package libkrb5-dev; the kerberos module is compiled)")
command -v git >/dev/null || missing+=("git")
command -v curl >/dev/null || missing+=("curl")
command -v node >/dev/null || missing+=("node (>= 20)")
command -v npm >/dev/null || missing+=("npm")
if (( ${#missing[@]} )); then
  for m in "${missing[@]}"; do printf '[install-code-server] missing: %s\n' "$m" >&2; done
  die "install the missing pieces first, e.g.: $APT_HINT"
fi
node_major="$(node -p 'process.versions.node.split(".")[0]')"
(( node_major >= 20 )) || die "node $(node -v) is too old: code-server $VERSION needs Node 20"

case "$(uname -m)" in
  x86_64) RG_TARGET=x86_64-unknown-linux-musl ;;
  aarch64 | arm64) RG_TARGET=aarch64-unknown-linux-musl ;;
  *) die "unsupported architecture $(uname -m) for the ripgrep cache seed" ;;
esac

# --- install ---------------------------------------------------------------
say "installing code-server@$VERSION into $DEST (takes about a minute)"
started=$(date +%s)
export TMPDIR="$BASE/tmp"
rm -rf "$DEST" "$TMPDIR"
mkdir -p "$TMPDIR" "$BASE/rg"

# code-server's nested install runs @vscode/ripgrep's postinstall, which would
# download rg from a host that is not reachable here: seed its cache with Debian's rg.
cp /usr/bin/rg "$BASE/rg/rg"
for rgpkg in 1.15.11; do
  mkdir -p "$TMPDIR/vscode-ripgrep-cache-$rgpkg"
  tar czf "$TMPDIR/vscode-ripgrep-cache-$rgpkg/ripgrep-v13.0.0-10-$RG_TARGET.tar.gz" -C "$BASE/rg" rg
done

# A tiny package.json pins the version and approves the two install scripts it needs.
mkdir -p "$DEST"
cat >"$DEST/package.json" <<JSON
{
  "name": "switchyard-vscode-test",
  "private": true,
  "description": "code-server for Switchyard's integration and UI tests (scripts/install-code-server.sh)",
  "dependencies": { "code-server": "$VERSION" },
  "allowScripts": { "code-server@$VERSION": true, "argon2": true }
}
JSON

# unsafe_perm: its postinstall refuses to run as root otherwise; yes: node-pty runs `npx node-gyp`.
if ! npm_config_unsafe_perm=true npm_config_yes=true npm_config_fund=false npm_config_audit=false \
  npm install --prefix "$DEST"; then
  die "npm install code-server@$VERSION failed (see above). If @vscode/ripgrep tried to download rg," \
    "its version no longer matches the seeded cache (vscode-ripgrep-cache-1.15.11 in $TMPDIR)."
fi

got="$(installed_version || true)"
[[ "$got" == "$VERSION" ]] || die "after install, $BIN reports version '${got:-nothing}', expected $VERSION"
rg_dir="$DEST/node_modules/code-server/lib/vscode/node_modules/@vscode/ripgrep/bin"
rg_bin="$(find "$rg_dir" -name rg -type f 2>/dev/null | head -1)"
[[ -n "$rg_bin" ]] || die "code-server installed but its ripgrep binary is missing (search in the workbench would fail)"
say "code-server $VERSION installed in $(( $(date +%s) - started )) s at $BIN"
