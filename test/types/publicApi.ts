/**
 * Compile-time check (run by `tsc --noEmit`) that the public API's plain types
 * (src/api.ts, whose declaration is switchyard.d.ts) are the types Switchyard
 * really takes and gives: each is the same as the core's type, which for data
 * is what the core's zod schema parses (`z.input` for what a lane hands over,
 * `z.infer` for what it gets back). A member added, removed, made optional or
 * changed on either side fails. test/integration/types/publicApi.test.ts shows that it
 * bites and that the list below names every type src/api.ts exports.
 */
import type { z } from 'zod';
import type * as Api from '../../src/api';
import type * as AgentSettings from '../../src/core/agent/apiLaneSettings';
import type * as AgentRun from '../../src/core/agent/runApiLane';
import type { CallResult, CallSpec } from '../../src/core/journal/durableCalls';
import type * as Core from '../../src/core/lanes/lanePlugin';
import type { LaneEventInput, UsageInput } from '../../src/core/model/laneEvent';
import type { LaneManifestInput, PriceTable, SettingType } from '../../src/core/model/laneManifest';
import type { LaneResultInput } from '../../src/core/model/laneResult';
import type { SettingClass } from '../../src/core/model/settingClass';
import type * as Process from '../../src/core/process/processGroup';
import type { ProcessGroupRecord } from '../../src/core/process/processGroupRecord';
import type * as Start from '../../src/core/process/startProcessGroup';

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
// Types: each public type against the core's (generic ones at two arguments).
export type LanePluginSame = Assert<Same<Api.LanePlugin, Core.LanePlugin>>;
export type LaneRunInputSame = Assert<Same<Api.LaneRunInput, Core.LaneRunInput>>;
export type LaneTaskSame = Assert<Same<Api.LaneTask, Core.LaneTask>>;
export type LaneReadinessSame = Assert<Same<Api.LaneReadiness, Core.LaneReadiness>>;
export type LaneReadinessInputSame = Assert<Same<Api.LaneReadinessInput, Core.LaneReadinessInput>>;
export type LaneFixSame = Assert<Same<Api.LaneFix, Core.LaneFix>>;
export type LaneProblemSame = Assert<Same<Api.LaneProblem, Core.LaneProblem>>;
export type LaneAttemptSame = Assert<Same<Api.LaneAttempt, Core.LaneAttempt>>;
export type DisposableSame = Assert<Same<Api.Disposable, Core.Disposable>>;
export type LaneManifestSame = Assert<Same<Api.LaneManifest, LaneManifestInput>>;
export type LaneSettingTypeSame = Assert<Same<Api.LaneSettingType, SettingType>>;
export type SettingClassSame = Assert<Same<Api.SettingClass, SettingClass>>;
export type LaneEventSame = Assert<Same<Api.LaneEvent, LaneEventInput>>;
export type UsageSame = Assert<Same<Api.Usage, UsageInput>>;
export type LaneResultSame = Assert<Same<Api.LaneResult, LaneResultInput>>;
export type CallSpecOfUnknownSame = Assert<Same<Api.CallSpec<unknown>, CallSpec<unknown>>>;
export type CallSpecOfObjectSame = Assert<Same<Api.CallSpec<{ n: number }>, CallSpec<{ n: number }>>>;
export type CallResultOfUnknownSame = Assert<Same<Api.CallResult<unknown>, CallResult<unknown>>>;
export type CallResultOfStringSame = Assert<Same<Api.CallResult<string>, CallResult<string>>>;
export type ProcessGroupSame = Assert<Same<Api.ProcessGroup, Process.ProcessGroup>>;
export type ProcessGroupSpecSame = Assert<Same<Api.ProcessGroupSpec, Process.ProcessGroupSpec>>;
export type ProcessGroupExitSame = Assert<Same<Api.ProcessGroupExit, Process.ProcessGroupExit>>;
export type ProcessGroupRecordSame = Assert<Same<Api.ProcessGroupRecord, ProcessGroupRecord>>;
export type PriceTableSame = Assert<Same<Api.PriceTable, PriceTable>>;
export type ApiLaneRunSame = Assert<Same<Api.ApiLaneRun, AgentRun.ApiLaneRun>>;
export type ApiLaneSettingsSame = Assert<Same<Api.ApiLaneSettings, z.infer<typeof AgentSettings.ApiLaneSettings>>>;
export type LaneSettingDocSame = Assert<Same<Api.LaneSettingDoc, (typeof AgentSettings.API_LANE_SETTING_DOCS)[string]>>;
/** What a lane parses with the public schema type, or with one it extended, is the plain type. */
export type ObjectSchemaSame = Assert<Same<z.infer<Api.ObjectSchema<Api.ApiLaneSettings>>, Api.ApiLaneSettings>>;
export type ExtendedSchemaSame = Assert<
  Same<
    z.infer<ReturnType<typeof Api.ApiLaneSettings.extend<{ model: z.ZodDefault<z.ZodString> }>>>,
    Omit<Api.ApiLaneSettings, 'model'> & { model: string }
  >
>;

// Values: every value of the module is handed to third parties (the toolkit), each the core's at the public types.
export type ValueNamesSame = Assert<Identical<keyof typeof Api, keyof Api.LaneToolkit>>;
export type StartProcessGroupSame = Assert<Same<typeof Api.startProcessGroup, typeof Start.startProcessGroup>>;
export type ParseLaneSettingsSame = Assert<
  Same<
    ReturnType<typeof Api.parseLaneSettings<typeof AgentSettings.ApiLaneSettings>>,
    ReturnType<typeof AgentSettings.parseLaneSettings<typeof AgentSettings.ApiLaneSettings>>
  >
>;
export type SettingDocsSame = Assert<
  Same<typeof Api.API_LANE_SETTING_DOCS, typeof AgentSettings.API_LANE_SETTING_DOCS>
>;
export type RunApiLaneSame = Assert<Same<typeof Api.runApiLane, typeof AgentRun.runApiLane>>;
export type LaneApiVersionSame = Assert<Identical<typeof Api.LANE_API_VERSION, 1>>;

// Types only the API has: the toolkit is exactly the values, the API the toolkit and the registry's calls.
export type LaneToolkitSame = Assert<
  Same<
    Api.LaneToolkit,
    {
      readonly [K in
        | 'LANE_API_VERSION'
        | 'startProcessGroup'
        | 'runApiLane'
        | 'ApiLaneSettings'
        | 'API_LANE_SETTING_DOCS'
        | 'parseLaneSettings'
        | 'failureLeadLines']: (typeof Api)[K];
    }
  >
>;
export type SwitchyardAPISame = Assert<
  Same<
    Omit<Api.SwitchyardAPI, keyof Api.LaneToolkit>,
    { registerLane(plugin: Core.LanePlugin): Core.Disposable; lanes(): LaneManifestInput[] }
  >
>;
export type SwitchyardExtensionSame = Assert<Same<Api.SwitchyardExtension, { getAPI(version: 1): Api.SwitchyardAPI }>>;
