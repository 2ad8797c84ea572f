/**
 * Boundary guards: checks at the git, CI and merge boundaries. Each is
 * fail-safe (an internal error is recorded as `guard.error` and never
 * blocks) and records its verdict in `<repo>/.switchyard/guards.jsonl`.
 */
export { runPrePushGuard, PUSH_BLOCKED, type PrePushOptions, type PrePushReport } from './prePushGuard';
export { guardRunDiff, type RunDiffGuardOptions, type RunDiffGuardReport } from './guardRunDiff';
export {
  installPrePushHook,
  installRunWorktreeHook,
  defaultCliCommand,
  defaultHookCommand,
  type InstallResult,
} from './installPrePushHook';
export { scanTreeForConflictMarkers } from './fullTreeScan';
export { findConflictMarkers, conflictMarkerKind, CONFLICT_MARKER } from './conflictMarkers';
export { scanSecrets, secretEvidence, type SecretFinding } from './secretScan';
export { loadMergePolicy, refPatternMatches, ruleForRef, MergePolicy, type MergePolicyRule } from './mergePolicy';
export { waitForRequiredChecks, ciGateVerdict, type CiGateOptions, type CiGateResult } from './ciGate';
export { mergePullRequest, type MergeOptions, type MergeOutcome } from '../github/mergePullRequest';
export {
  GuardEvent,
  appendGuardEvent,
  readGuardEvents,
  guardLogPath,
  type GuardEvidence,
  type GuardVerdict,
} from './guardLog';
export { runGuard, formatGuardEvent, formatEvidence, type GuardOutcome, type GuardResult } from './runGuard';
