import type { Usage } from '../model/laneEvent';
import { formatUsd } from '../text/usageText';

export interface BudgetLimits {
  /** Tool calls per attempt ("max executions"); `finish` does not count. */
  maxExecutions: number;
  /** Input plus output tokens per attempt. */
  maxTokens: number;
  /** What the whole task may cost, earlier runs included. */
  maxTaskCostUsd?: number;
  /** What the task's earlier runs cost. */
  priorTaskCostUsd: number;
}

/**
 * Counts an attempt's tool calls, tokens and cost (replayed calls included,
 * so a resumed run has the same budget as an uninterrupted one) and the last
 * real error, and says when a cap is hit: the reason names the cap and that
 * error, e.g. `exceeded max executions (5): last error: \`pytest\` exit 1: FAILED tests/test_user.py::test_create`.
 */
export class BudgetTracker {
  executions = 0;
  private tokens = 0;
  private costUsd = 0;
  private lastError: string | undefined;

  constructor(private readonly limits: BudgetLimits) {}

  addUsage(usage: Usage): void {
    this.tokens += usage.inputTokens + usage.outputTokens;
    this.costUsd += usage.costUsd;
  }

  /** Remembers the latest real error (a failed tool call, a provider error that was retried). */
  noteError(message: string): void {
    this.lastError = message.split('\n')[0]!.slice(0, 300);
  }

  /** Checked before each model call: the reason when the token budget or the task's cost cap is spent. */
  beforeModelCall(): string | undefined {
    if (this.tokens >= this.limits.maxTokens) {
      return this.reason(`exceeded token budget (${this.limits.maxTokens} tokens; used ${this.tokens})`);
    }
    const cap = this.limits.maxTaskCostUsd;
    const spent = this.limits.priorTaskCostUsd + this.costUsd;
    if (cap !== undefined && spent >= cap) {
      const earlier = this.limits.priorTaskCostUsd
        ? `, ${formatUsd(this.limits.priorTaskCostUsd)} of it in earlier runs`
        : '';
      return this.reason(`exceeded the task cost cap (${formatUsd(cap)}; spent ${formatUsd(spent)}${earlier})`);
    }
    return undefined;
  }

  /** Checked before each tool call: the reason when this one would pass the cap; otherwise it is counted. */
  takeExecution(): string | undefined {
    if (this.executions >= this.limits.maxExecutions)
      return this.reason(`exceeded max executions (${this.limits.maxExecutions})`);
    this.executions += 1;
    return undefined;
  }

  private reason(cap: string): string {
    return `${cap}: last error: ${this.lastError ?? 'none (no tool or model call had failed)'}`;
  }
}
