/** Records one event of a run: its type and body (executeRun redacts it and appends it to the run's events log). */
export type RecordFn = (type: string, body: Record<string, unknown>) => void;
