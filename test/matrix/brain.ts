import { readFileSync } from 'node:fs';
import type { RecordedRequest, ScriptStep, ScriptedModelServer } from '../fixtures/scriptedModelServer';

/** What the scripted model decides to do next. */
export type Move =
  | { write: { file: string; content: string }[] }
  | { read: string }
  | { end: string }
  /** Start answering and never finish (the test kills the owner meanwhile). */
  | { hang: true };

/** A request as the model sees it. */
export interface View {
  /** The whole request as text. */
  text: string;
  /** The working directory the session names (the last one it names), for lanes whose session names one. */
  cwd?: string;
  /** Whether the request carries feedback on an earlier attempt. */
  feedback: boolean;
  /** A file (relative to the working directory) as the session can know it: null missing, undefined: read it first. */
  file(path: string): string | null | undefined;
}

/** A task's model: the next move for a request. */
export type Behaviour = (view: View) => Move;

/** How one lane's session shows the model its files, and how a move is written in the lane's wire format. */
export interface LaneWire {
  /** Where the session says it works (undefined: the session names no path; its tools take relative ones). */
  cwd(text: string, body: any): string | undefined;
  /** A file as the session knows it (see View.file). */
  file(body: any, cwd: string | undefined, path: string): string | null | undefined;
  /** The path a write of `file` goes to, as the model names it in its tool call. */
  target(cwd: string | undefined, file: string): string;
  step(move: Move, cwd: string | undefined): ScriptStep;
}

/** The tokens every answered turn reports (the scripted server's answer; distinct numbers make a double count show). */
export const TURN_USAGE = { input: 2_000, output: 50 } as const;

/** Turns a task's model answers in all before it gives up. */
const MAX_TURNS = 8;

/** A write the model asked for, with the worktrees of the runs RUNNING at that moment. */
export interface ModelWrite {
  tag: string;
  request: number;
  path: string;
  running: { taskId: string; worktree: string }[];
}

/**
 * Request attribution: the tag of the task in its spec (`[matrix-task:<tag>]`). Only the spec carries it: titles
 * reach commit messages, which a CLI shows its model (Claude Code's git status lists recent commits), so another
 * task's title may come first in a request.
 */
const TAG = /\[matrix-task:([a-z-]+)\]/;

export function tagOf(text: string): string | undefined {
  return TAG.exec(text)?.[1];
}

/**
 * A scripted model server that behaves like a model rather than a script: each request is answered by the behaviour
 * of the task it is about (found by the tag only its spec carries), which looks at what the session shows it (the
 * working directory the request names, the files there or the tool results of the conversation, whether feedback
 * is present) and acts on those paths. It records every answered turn's usage per task and every write with the runs
 * RUNNING at that moment (from the project's state file), so a session that points at another worktree shows up.
 */
export class Brain {
  /** Tokens answered per task tag (only turns that were answered: a hung request is not paid). */
  readonly answered = new Map<string, { input: number; output: number; turns: number }>();
  readonly writes: ModelWrite[] = [];
  /** The requests, with the task tag each was about. */
  readonly seen: { request: RecordedRequest; tag?: string; text: string }[] = [];

  constructor(
    private readonly wire: LaneWire,
    private readonly behaviours: Record<string, Behaviour>,
    private readonly stateFile: string,
  ) {}

  attach(server: ScriptedModelServer, script: ScriptStep[]): void {
    const before = server.onRequest;
    server.onRequest = (request) => {
      before?.(request);
      script[request.index] = this.answer(request);
    };
  }

  private answer(request: RecordedRequest): ScriptStep {
    const text = JSON.stringify(request.body ?? '');
    const tag = tagOf(text);
    this.seen.push({ request, tag, text });
    // A model that keeps failing gives up (a refused write, asked again, would otherwise be written again forever).
    const spent = this.answered.get(tag ?? '')?.turns ?? 0;
    const behaviour = tag && spent < MAX_TURNS ? this.behaviours[tag] : undefined;
    const cwd = this.wire.cwd(text, request.body);
    const move: Move = behaviour
      ? behaviour({
          text,
          cwd,
          feedback: /Feedback on the previous attempt/.test(text),
          file: (path) => this.wire.file(request.body, cwd, path),
        })
      : { end: tag ? 'I give up: too many turns.' : 'I have no task here.' };
    if ('write' in move)
      for (const w of move.write)
        this.writes.push({
          tag: tag ?? '',
          request: request.index,
          path: this.wire.target(cwd, w.file),
          running: this.running(),
        });
    if (!('hang' in move)) {
      const sum = this.answered.get(tag ?? '') ?? { input: 0, output: 0, turns: 0 };
      this.answered.set(tag ?? '', {
        input: sum.input + TURN_USAGE.input,
        output: sum.output + TURN_USAGE.output,
        turns: sum.turns + 1,
      });
    }
    return { ...this.wire.step(move, cwd), ...('hang' in move ? {} : { usage: { ...TURN_USAGE } }) } as ScriptStep;
  }

  private running(): { taskId: string; worktree: string }[] {
    try {
      const state = JSON.parse(readFileSync(this.stateFile, 'utf8'));
      return (state.runs as { taskId: string; worktree: string; state: string }[])
        .filter((r) => r.state === 'RUNNING')
        .map((r) => ({ taskId: r.taskId, worktree: r.worktree }));
    } catch {
      return [];
    }
  }
}

/** A model that changes one file by `change` (read it first if the session has not shown it); ends when done. */
export function edit(file: string, change: (text: string, view: View) => string): Behaviour {
  return (view) => {
    const now = view.file(file);
    if (now === undefined) return { read: file };
    if (now === null) return { end: `${file} does not exist here.` };
    const next = change(now, view);
    return next === now ? { end: `${file} is changed as asked.` } : { write: [{ file, content: next }] };
  };
}
