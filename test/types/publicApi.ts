/**
 * Compile-time check (run by `tsc --noEmit`) that switchyard.d.ts, the
 * contract third parties build against, and src/api.ts, what the built-in
 * lanes import, are the same API: the same values with identical types, and
 * the same types, each identical (a member added, removed, made optional or
 * changed on either side fails). test/unit/types/publicApi.test.ts shows that it
 * bites and that the list of types below names every type either side exports.
 */
import type * as Public from '../../switchyard';
import type * as Impl from '../../src/api';
import type { LanePlugin as RegistryPlugin } from '../../src/core/lanes/lanePlugin';
import type { LaneManifestInput } from '../../src/core/model/laneManifest';

type Assert<T extends true> = T;
/** Identity, not assignability: `{ a: string; b?: number }` is not `{ a: string }`. */
type Identical<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
/** Each assignable to the other (for functions, whose zod-typed parameters are never identical). */
type Mutual<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type OptionalKeys<T> = { [K in keyof T]-?: Record<never, never> extends Pick<T, K> ? K : never }[keyof T];
/**
 * Identical, or else the same shape member by member: the same keys, the same
 * optional keys and each member the same (zod's inferred types are not
 * identical to an equal hand-written type, only member by member).
 */
type Same<A, B> =
  Identical<A, B> extends true
    ? true
    : [A, B] extends [infer TA extends readonly unknown[], infer TB extends readonly unknown[]]
      ? Identical<TA['length'], TB['length']> extends true
        ? false extends { [K in keyof TA & `${number}`]: Same<TA[K], TB[K & keyof TB]> }[keyof TA & `${number}`]
          ? false
          : true
        : false
      : [A, B] extends [Promise<infer VA>, Promise<infer VB>]
        ? Same<VA, VB>
        : [A, B] extends [(...args: never) => unknown, (...args: never) => unknown]
          ? Mutual<A, B>
          : [A, B] extends [object, object]
            ? Identical<keyof A, keyof B> extends true
              ? Identical<OptionalKeys<A>, OptionalKeys<B>> extends true
                ? false extends { [K in keyof A]: Same<A[K], B[K & keyof B]> }[keyof A]
                  ? false
                  : true
                : false
              : false
            : false;
/** The names whose two sides differ; `never` when none does. */
type Differing<T> = keyof {
  [K in keyof T as T[K] extends [infer A, infer B] ? (Same<A, B> extends true ? never : K) : K]: K;
};

// Values: the same names both ways, each of the same type.
type PublicValues = typeof Public;
type ImplValues = typeof Impl;
export type ValueNamesEqual = Assert<Identical<keyof PublicValues, keyof ImplValues>>;
type ValuePairs = { [K in keyof PublicValues & keyof ImplValues]: [PublicValues[K], ImplValues[K]] };
export type ValuesEqual = Assert<Identical<Differing<ValuePairs>, never>>;

// Types: each one on both sides (generic ones at two arguments), the same.
export type LanePluginSame = Assert<Same<Public.LanePlugin, Impl.LanePlugin>>;
export type LaneRunInputSame = Assert<Same<Public.LaneRunInput, Impl.LaneRunInput>>;
export type LaneTaskSame = Assert<Same<Public.LaneTask, Impl.LaneTask>>;
export type LaneReadinessSame = Assert<Same<Public.LaneReadiness, Impl.LaneReadiness>>;
export type LaneReadinessInputSame = Assert<Same<Public.LaneReadinessInput, Impl.LaneReadinessInput>>;
export type LaneFixSame = Assert<Same<Public.LaneFix, Impl.LaneFix>>;
export type LaneAttemptSame = Assert<Same<Public.LaneAttempt, Impl.LaneAttempt>>;
export type DisposableSame = Assert<Same<Public.Disposable, Impl.Disposable>>;
export type LaneManifestSame = Assert<Same<Public.LaneManifest, Impl.LaneManifest>>;
export type LaneEventSame = Assert<Same<Public.LaneEvent, Impl.LaneEvent>>;
export type UsageSame = Assert<Same<Public.Usage, Impl.Usage>>;
export type LaneResultSame = Assert<Same<Public.LaneResult, Impl.LaneResult>>;
export type CallSpecOfUnknownSame = Assert<Same<Public.CallSpec<unknown>, Impl.CallSpec<unknown>>>;
export type CallSpecOfObjectSame = Assert<Same<Public.CallSpec<{ n: number }>, Impl.CallSpec<{ n: number }>>>;
export type CallResultOfUnknownSame = Assert<Same<Public.CallResult<unknown>, Impl.CallResult<unknown>>>;
export type CallResultOfStringSame = Assert<Same<Public.CallResult<string>, Impl.CallResult<string>>>;
export type ProcessGroupSame = Assert<Same<Public.ProcessGroup, Impl.ProcessGroup>>;
export type ProcessGroupSpecSame = Assert<Same<Public.ProcessGroupSpec, Impl.ProcessGroupSpec>>;
export type ProcessGroupExitSame = Assert<Same<Public.ProcessGroupExit, Impl.ProcessGroupExit>>;
export type ProcessGroupRecordSame = Assert<Same<Public.ProcessGroupRecord, Impl.ProcessGroupRecord>>;
export type PriceTableSame = Assert<Same<Public.PriceTable, Impl.PriceTable>>;
export type ApiLaneRunSame = Assert<Same<Public.ApiLaneRun, Impl.ApiLaneRun>>;
export type ApiLaneSettingsSame = Assert<Same<Public.ApiLaneSettings, Impl.ApiLaneSettings>>;
export type LaneToolkitSame = Assert<Same<Public.LaneToolkit, Impl.LaneToolkit>>;
export type SwitchyardAPISame = Assert<Same<Public.SwitchyardAPI, Impl.SwitchyardAPI>>;
export type SwitchyardExtensionSame = Assert<Same<Public.SwitchyardExtension, Impl.SwitchyardExtension>>;

// The public types are the ones the host really takes and gives.
export type PluginRegistered = Assert<Identical<Impl.LanePlugin, RegistryPlugin>>;
export type ManifestRegistered = Assert<Identical<Impl.LaneManifest, LaneManifestInput>>;
