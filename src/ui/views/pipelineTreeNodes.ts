import type { PipelineStatus } from '../../core/report/pipelineStatus';

/** The top row of the Tasks tree: stage WIP usage, backpressure, and circuit breakers. */
export class PipelineNode {
  readonly kind = 'pipeline';
  constructor(readonly status: PipelineStatus) {}
}

/** One stage or one breaker under the Pipeline row. */
export class PipelineDetailNode {
  readonly kind = 'pipeline-detail';
  constructor(
    readonly id: string,
    readonly label: string,
    readonly description: string,
    readonly icon: string,
    readonly tooltip?: string,
  ) {}
}

export type PipelineTreeNode = PipelineNode | PipelineDetailNode;

export function isPipelineTreeNode(value: unknown): value is PipelineTreeNode {
  return value instanceof PipelineNode || value instanceof PipelineDetailNode;
}
