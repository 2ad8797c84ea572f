import type { LaneManifest, SettingType } from '../model/laneManifest';

type JsonSchema = Record<string, unknown>;

const TYPE_SCHEMAS: Record<SettingType, JsonSchema> = {
  string: { type: 'string' },
  number: { type: 'number' },
  integer: { type: 'integer' },
  boolean: { type: 'boolean' },
  'string[]': { type: 'array', items: { type: 'string' } },
  object: { type: 'object' },
};

/**
 * The JSON schema of one lane's settings, from its manifest: each documented setting with its type and description
 * (required ones say so; not enforced, since the project's stored settings may hold them), and no undocumented keys.
 */
export function laneSettingsJsonSchema(manifest: LaneManifest): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  for (const [name, doc] of Object.entries(manifest.settings)) {
    properties[name] = {
      ...(doc.type ? TYPE_SCHEMAS[doc.type] : {}),
      markdownDescription: `${doc.required ? '**Required.** ' : ''}${doc.description}`,
    };
  }
  return {
    type: 'object',
    markdownDescription: `Settings of the lane **${manifest.displayName}** (\`${manifest.id}\`).`,
    properties,
    additionalProperties: false,
  };
}

/** `{laneId: settings}`: a schema per known lane; any other lane id takes an object (a third-party lane's). */
export function laneSettingsMapJsonSchema(manifests: readonly LaneManifest[]): JsonSchema {
  const sorted = [...manifests].sort((a, b) => a.id.localeCompare(b.id));
  return {
    properties: Object.fromEntries(sorted.map((m) => [m.id, laneSettingsJsonSchema(m)])),
    additionalProperties: { type: 'object' },
  };
}
