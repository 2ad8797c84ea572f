import assert from 'node:assert/strict';
import { APICallError } from 'ai';
import { BudgetTracker } from '../../../src/core/agent/budget';
import { choosePrice, usageWithCost, withCachePrices } from '../../../src/core/agent/pricing';
import { classifyProviderError, toProviderError } from '../../../src/core/agent/providerError';
import { ANTHROPIC_CACHE_MULTIPLIERS, anthropicLaneManifest } from '../../../plugins/anthropic/manifest';

describe('agent loop parts', () => {
  describe('prices', () => {
    const manifest = {
      price: { inputPerMTokUsd: 3, outputPerMTokUsd: 15 },
      modelPrices: {
        'claude-haiku-4-5': { inputPerMTokUsd: 1, outputPerMTokUsd: 5 },
        'claude-opus-4': { inputPerMTokUsd: 15, outputPerMTokUsd: 75 },
        'claude-opus-4-5': { inputPerMTokUsd: 5, outputPerMTokUsd: 25 },
      },
    };
    it('the project override, then the exact model, then the longest id prefix, then the lane default', () => {
      assert.equal(
        choosePrice('claude-haiku-4-5', manifest, { inputPerMTokUsd: 9, outputPerMTokUsd: 9 }).price!.inputPerMTokUsd,
        9,
      );
      assert.equal(choosePrice('claude-haiku-4-5', manifest).price!.inputPerMTokUsd, 1);
      assert.equal(choosePrice('claude-opus-4-5-20251101', manifest).price!.inputPerMTokUsd, 5);
      assert.equal(choosePrice('claude-opus-4-1-20250805', manifest).price!.inputPerMTokUsd, 15);
      const fallback = choosePrice('some-new-model', manifest);
      assert.equal(fallback.price!.inputPerMTokUsd, 3);
      assert.match(fallback.source, /default price \(no price listed for some-new-model\)/);
      assert.match(
        fallback.warning!,
        /^model some-new-model is not in the lane's price table: .*set the lane setting "price"/,
      );
      assert.deepEqual(choosePrice('llama', {}), { source: 'no price for llama: cost counted as $0' });
    });
    it('cost is tokens × price per million; the shipped Anthropic table prices dated ids', () => {
      assert.deepEqual(
        usageWithCost({ input: 2_000_000, output: 100_000 }, { inputPerMTokUsd: 3, outputPerMTokUsd: 15 }),
        {
          inputTokens: 2_000_000,
          outputTokens: 100_000,
          costUsd: 7.5,
        },
      );
      assert.equal(usageWithCost({ input: 5, output: 5 }, undefined).costUsd, 0);
      assert.equal(choosePrice('claude-sonnet-4-5-20250929', anthropicLaneManifest).price!.outputPerMTokUsd, 15);
    });
  });

  describe('cache prices', () => {
    const sonnet = withCachePrices({ inputPerMTokUsd: 3, outputPerMTokUsd: 15 }, ANTHROPIC_CACHE_MULTIPLIERS);
    it("Anthropic's multipliers fill the cache prices a table leaves out; listed ones stay", () => {
      assert.deepEqual(sonnet, {
        inputPerMTokUsd: 3,
        outputPerMTokUsd: 15,
        cacheWritePerMTokUsd: 3.75,
        cacheWrite1hPerMTokUsd: 6,
        cacheReadPerMTokUsd: 0.30000000000000004,
      });
      const own = { inputPerMTokUsd: 3, outputPerMTokUsd: 15, cacheReadPerMTokUsd: 0.5 };
      assert.equal(withCachePrices(own, ANTHROPIC_CACHE_MULTIPLIERS).cacheReadPerMTokUsd, 0.5);
      assert.deepEqual(withCachePrices(own, undefined), own);
    });
    it('cost = uncached × input + writes × write price (5 m or 1 h) + reads × read price + output × output', () => {
      const tokens = { input: 10_000, cacheRead: 6_000, cacheWrite: 3_000, output: 500 };
      const usage = usageWithCost(tokens, sonnet);
      assert.deepEqual(
        { ...usage, costUsd: undefined },
        { inputTokens: 10_000, outputTokens: 500, cacheReadTokens: 6_000, cacheWriteTokens: 3_000, costUsd: undefined },
      );
      const expected = (1_000 * 3 + 3_000 * 3.75 + 6_000 * 0.3 + 500 * 15) / 1e6;
      assert.ok(Math.abs(usage.costUsd - expected) < 1e-12, `${usage.costUsd} vs ${expected}`);
      const hour = usageWithCost(tokens, sonnet, '1h').costUsd;
      assert.ok(Math.abs(hour - (1_000 * 3 + 3_000 * 6 + 6_000 * 0.3 + 500 * 15) / 1e6) < 1e-12);
      // A table without cache prices (an OpenAI-compatible model) bills cached tokens at the input price.
      const plain = usageWithCost(
        { input: 1_000, cacheRead: 400, output: 0 },
        { inputPerMTokUsd: 2, outputPerMTokUsd: 8 },
      );
      assert.equal(plain.costUsd, (1_000 * 2) / 1e6);
      assert.equal(plain.cacheReadTokens, 400);
      assert.equal(plain.cacheWriteTokens, undefined);
    });
  });

  describe('budgets', () => {
    it('names the cap and the last real error', () => {
      const b = new BudgetTracker({ maxExecutions: 1, maxTokens: 100, maxTaskCostUsd: 1, priorTaskCostUsd: 0.75 });
      assert.equal(b.takeExecution(), undefined);
      b.noteError('`pytest` exit 1: FAILED tests/test_user.py::test_create\nmore lines');
      assert.equal(
        b.takeExecution(),
        'exceeded max executions (1): last error: `pytest` exit 1: FAILED tests/test_user.py::test_create',
      );
      assert.equal(b.beforeModelCall(), undefined);
      b.addUsage({ inputTokens: 10, outputTokens: 10, costUsd: 0.3 });
      assert.equal(
        b.beforeModelCall(),
        'exceeded the task cost cap ($1.00; spent $1.05, $0.7500 of it in earlier runs): last error: `pytest` exit 1: FAILED tests/test_user.py::test_create',
      );
      b.addUsage({ inputTokens: 80, outputTokens: 0, costUsd: 0 });
      assert.match(b.beforeModelCall()!, /^exceeded token budget \(100 tokens; used 100\)/);
    });
  });

  describe('provider errors', () => {
    const apiError = (status: number, body: unknown, headers: Record<string, string> = {}) =>
      new APICallError({
        message: 'x',
        url: 'http://127.0.0.1/v1/messages',
        requestBodyValues: {},
        statusCode: status,
        responseHeaders: headers,
        responseBody: JSON.stringify(body),
      });

    it("carry the status, the provider's error type and words, and what the classifier needs", () => {
      const rate = apiError(
        429,
        { type: 'error', error: { type: 'rate_limit_error', message: 'slow down' } },
        { 'retry-after': '7' },
      );
      assert.equal((toProviderError(rate) as Error).message, 'HTTP 429 rate_limit_error: slow down');
      assert.deepEqual(classifyProviderError(rate), {
        class: 'transient',
        rule: 'rate-limited',
        description: classifyProviderError(rate).description,
        retryAfterMs: 7_000,
      });
      assert.equal(
        classifyProviderError(
          apiError(529, { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }),
        ).rule,
        'overloaded',
      );
      assert.equal(
        classifyProviderError(
          apiError(401, {
            error: { message: 'Incorrect API key provided', type: 'invalid_request_error', code: 'invalid_api_key' },
          }),
        ).class,
        'permanent',
      );
      assert.equal(
        classifyProviderError(
          apiError(400, {
            type: 'error',
            error: { type: 'invalid_request_error', message: 'prompt is too long: 210000 tokens > 200000 maximum' },
          }),
        ).rule,
        'context-too-long',
      );
    });

    it('a stream error event and a dropped socket are transient', () => {
      assert.equal(
        (toProviderError({ type: 'overloaded_error', message: 'Overloaded' }) as Error).message,
        'stream error overloaded_error: Overloaded',
      );
      assert.equal(classifyProviderError({ type: 'overloaded_error', message: 'Overloaded' }).rule, 'overloaded');
      const socket = Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' });
      const dropped = new TypeError('terminated', { cause: socket });
      assert.equal(
        (toProviderError(dropped) as Error).message,
        'connection failed: terminated: other side closed (UND_ERR_SOCKET)',
      );
      assert.equal(classifyProviderError(dropped).rule, 'connection-failed');
    });
  });
});
