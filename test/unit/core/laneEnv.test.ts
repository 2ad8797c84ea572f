import assert from 'node:assert/strict';
import { buildLaneEnv } from '../../../src/core/lanes/laneEnv';

describe('buildLaneEnv', () => {
  it('passes only allowlisted variables plus explicit ones', () => {
    const env = buildLaneEnv(
      { PATH: '/bin', HOME: '/root', AWS_PROFILE: 'prod', GITHUB_TOKEN: 'ghp_x', OPENAI_API_KEY: 'sk', EXTRA: 'yes' },
      ['EXTRA'],
      { SWITCHYARD_TASK_ID: 't1' },
    );
    assert.deepEqual(env, { PATH: '/bin', HOME: '/root', EXTRA: 'yes', SWITCHYARD_TASK_ID: 't1' });
  });
});
