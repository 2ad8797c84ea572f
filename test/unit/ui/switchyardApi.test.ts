import * as assert from 'node:assert/strict';
import { isSwitchyardError } from '../../../src/core/errors';
import type { SwitchyardAPI } from '../../../src/api';
import { laneToolkit } from '../../../src/lanes/laneToolkit';
import { SUPPORTED_API_VERSIONS, UnsupportedApiVersionError, apiForVersion } from '../../../src/ui/switchyardApi';

describe('getAPI(version)', () => {
  const v1: SwitchyardAPI = { ...laneToolkit, registerLane: () => ({ dispose() {} }), lanes: () => [] };

  it('gives version 1', () => {
    assert.equal(apiForVersion(1, v1), v1);
  });

  for (const version of [0, 2, '1', undefined]) {
    it(`throws a typed error for ${JSON.stringify(version) ?? 'undefined'}, listing the supported versions`, () => {
      assert.throws(
        () => apiForVersion(version, v1),
        (error: unknown) => {
          assert.ok(error instanceof UnsupportedApiVersionError);
          assert.ok(isSwitchyardError(error, 'unsupported-api-version'));
          assert.equal(error.name, 'UnsupportedApiVersionError');
          assert.equal(error.requested, version);
          assert.deepEqual(error.supported, SUPPORTED_API_VERSIONS);
          assert.match(
            error.message,
            new RegExp(`version ${String(version)} is not supported; supported versions: 1$`),
          );
          return true;
        },
      );
    });
  }

  it('carries the lane toolkit', () => {
    assert.equal(apiForVersion(1, v1).runApiLane, laneToolkit.runApiLane);
    assert.equal(apiForVersion(1, v1).startProcessGroup, laneToolkit.startProcessGroup);
    assert.equal(apiForVersion(1, v1).LANE_API_VERSION, 1);
  });
});
