/**
 * Boundary guards: checks at git, CI, auth and network boundaries. Each is
 * fail-safe (an internal error is recorded as `guard.error` and never
 * blocks) and records its verdict in `<repo>/.switchyard/guards.jsonl`.
 */
export { runPrePushGuard, PUSH_BLOCKED, type PrePushOptions, type PrePushReport } from './prePushGuard';
export { guardRunDiff, type RunDiffGuardOptions, type RunDiffGuardReport } from './guardRunDiff';
export { installPrePushHook, defaultCliCommand, type InstallResult } from './installPrePushHook';
export { scanTreeForConflictMarkers } from './fullTreeScan';
export { findConflictMarkers, conflictMarkerKind, CONFLICT_MARKER } from './conflictMarkers';
export { scanSecrets, secretEvidence, type SecretFinding } from './secretScan';
export { loadMergePolicy, refPatternMatches, ruleForRef, MergePolicy, type MergePolicyRule } from './mergePolicy';
export { classify, loadErrorRules, type Classification, type ErrorClass, type ErrorRule } from './classifyError';
export { BUILTIN_ERROR_RULES } from './errorRules';
export { RetryPolicy, decideRetry, withRetry, backoffDelayMs, RetryGaveUpError, type RetryDecision, type FailureKind } from './retryPolicy';
export { waitForRequiredChecks, ciGateVerdict, type CiGateOptions, type CiGateResult } from './ciGate';
export { mergePullRequest, type MergeOptions, type MergeOutcome } from './mergePullRequest';
export { TokenLender, Credential, type CredentialSource, type TokenLoan } from './tokenLender';
export { GuardEvent, appendGuardEvent, readGuardEvents, guardLogPath, type GuardEvidence, type GuardVerdict } from './guardLog';
export { runGuard, formatGuardEvent, formatEvidence, type GuardOutcome, type GuardResult } from './runGuard';
export { summarizeGuards, type GuardSummary } from './guardSummary';
