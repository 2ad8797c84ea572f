import assert from 'node:assert/strict';
import { cacheShare, formatCacheSplit, formatTokens } from '../../../src/core/text/usageText';

describe('usage text (CLI, tree tooltip, panel)', () => {
  it('writes the tokens, with the cache split and share when the provider reported one', () => {
    const cached = { inputTokens: 5_210, outputTokens: 120, cacheReadTokens: 4_300, cacheWriteTokens: 600 };
    assert.equal(cacheShare(cached)!.toFixed(3), '0.825');
    assert.equal(formatCacheSplit(cached), '4300 cache read (83%), 600 cache write, 310 uncached');
    assert.equal(formatTokens(cached), '5210+120 tokens (4300 cache read (83%), 600 cache write, 310 uncached)');
    // A lane that reports no cache figures keeps the plain form.
    assert.equal(formatTokens({ inputTokens: 900, outputTokens: 150 }), '900+150 tokens');
    assert.equal(cacheShare({ inputTokens: 900, outputTokens: 150 }), undefined);
    // Nothing read or written (caching off, or a prompt under the cacheable minimum): the plain form.
    assert.equal(
      formatTokens({ inputTokens: 900, outputTokens: 150, cacheReadTokens: 0, cacheWriteTokens: 0 }),
      '900+150 tokens',
    );
    // OpenAI-compatible: reads only.
    assert.equal(
      formatTokens({ inputTokens: 2_400, outputTokens: 10, cacheReadTokens: 1_920 }),
      '2400+10 tokens (1920 cache read (80%), 0 cache write, 480 uncached)',
    );
  });
});
