import assert from 'node:assert/strict';

/**
 * Polls `probe` every `everyMs` until it returns a value (anything but
 * `undefined`) and returns it; fails naming `what` after `ms`. A probe that
 * throws is tried again, and its last error is named in the failure.
 */
export async function untilValue<T>(
  what: string,
  probe: () => T | undefined | Promise<T | undefined>,
  ms = 10_000,
  everyMs = 20,
): Promise<T> {
  const deadline = Date.now() + ms;
  let last: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline) {
      assert.fail(`timed out after ${ms} ms waiting for ${what}${last ? `: ${String(last)}` : ''}`);
    }
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

/** Polls `check` every `everyMs` until it holds; fails naming `what` after `ms`. */
export async function until(
  what: string,
  check: () => boolean | Promise<boolean>,
  ms = 10_000,
  everyMs = 20,
): Promise<void> {
  await untilValue(what, async () => ((await check()) ? true : undefined), ms, everyMs);
}
