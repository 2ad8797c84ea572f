import { shellQuote } from '../text/shellQuote';
import { PUSH_BLOCKED } from './prePushGuard';

/** The line that marks a hook as Switchyard's, so installing twice never chains the hook to itself. */
export const HOOK_MARKER = '# switchyard-guard-hook v1';
/** The previous hook is kept next to ours under this name and runs after ours. */
export const CHAINED_HOOK = 'pre-push.switchyard-chained';

/**
 * The pre-push hook: runs `<cliCommand> guard pre-push <remote> <url>` with
 * git's stdin, refuses the push only when the guard says so (exit 1 and the
 * refusal line), and otherwise goes on to the chained hook. If the command
 * itself cannot run (node or the CLI missing, a crash before the guard
 * decides), the push goes through and a `guard.error` line is appended to
 * the repository's `.switchyard/guards.jsonl`.
 */
export function prePushHookScript(cliCommand: string): string {
  // line-length: data-table, the hook's shell script exactly as sh reads it (its guard.error line is one printf)
  return `#!/bin/sh
${HOOK_MARKER}
# Installed by \`switchyard guard install\` (re-run it to update; remove this file to uninstall).
# Runs Switchyard's pre-push guard, then the hook that was here before (${CHAINED_HOOK}).
input=$(cat)
hook_dir=$(dirname -- "$0")
out=$( { if [ -n "$input" ]; then printf '%s\\n' "$input"; fi; } | ${cliCommand} guard pre-push "$@" 2>&1 )
status=$?
if [ -n "$out" ]; then printf '%s\\n' "$out" >&2; fi
case "$status:$out" in
  1:*"${PUSH_BLOCKED}"*) exit 1 ;;
esac
if [ "$status" -ne 0 ]; then
  echo "switchyard: the pre-push guard could not run (exit $status); push allowed" >&2
  common=$(git rev-parse --path-format=absolute --git-common-dir 2>/dev/null)
  case "$common" in
    */.git)
      root=\${common%/.git}
      if mkdir -p "$root/.switchyard" 2>/dev/null; then
        [ -f "$root/.switchyard/.gitignore" ] || printf '*\\n!config.json\\n' > "$root/.switchyard/.gitignore"
        printf '{"v":1,"type":"guard.error","ts":"%s","guard":"pre-push","verdict":"error","rule":"internal-error","evidence":[],"durationMs":0,"subject":"push to %s","error":"the hook command exited with status %s before the guard decided; push allowed"}\\n' \\
          "$(date -u +%Y-%m-%dT%H:%M:%SZ)" "$(printf '%s' "$1" | tr -d '"\\\\')" "$status" >> "$root/.switchyard/guards.jsonl" 2>/dev/null
      fi
      ;;
  esac
fi
if [ -x "$hook_dir/${CHAINED_HOOK}" ]; then
  { if [ -n "$input" ]; then printf '%s\\n' "$input"; fi; } | "$hook_dir/${CHAINED_HOOK}" "$@" || exit $?
fi
exit 0
`;
  // line-length: end
}

/** A hook that only forwards to a hook elsewhere (used to keep the user's hooks working in a run worktree). */
export function forwardingHookScript(target: string): string {
  return `#!/bin/sh\n# Forwards to the repository's own hook (added by switchyard guard install).\nexec ${shellQuote(target)} "$@"\n`;
}
