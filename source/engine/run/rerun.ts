import type { EngineEvent, EventOf } from '../events';
import { TenetError } from '../errors';
import { ScriptEndedError } from '../model/scripted';
import {
  ProviderError,
  type CallOptions,
  type Model,
  type ModelResponse,
  type RecordedUnanswered,
} from '../model/types';
import { recordedPilot } from './recorded-decisions';

/** Answers with a recorded session's responses, in order: re-running it costs no API call. */
export class ReplayModel implements Model {
  readonly provider = 'replay';
  readonly name: string;
  readonly label: string;
  private readonly responses: EventOf<'model.response'>[] = [];
  /** The calls that got no answer before each response (the last entry: after the last one). */
  private readonly unanswered: RecordedUnanswered[][] = [[]];
  private next = 0;
  private told = -1;
  /** The developer stopped the agent (`x`): past the recorded answers, the rerun stops there too. */
  private readonly stopped: boolean;

  constructor(
    /** The session's events: its model responses and its calls that got no answer, in order. */
    events: readonly EngineEvent[],
    recordedModel: string,
    /** The session ended at its model script's end: asked past its answers, the replay ends the same way. */
    private readonly scriptEnded = false,
  ) {
    this.stopped = events.some(
      (e) => e.type === 'agent.phase' && e.phase === 'evaluate' && e.stopReason === 'cancelled',
    );
    for (const event of events) {
      if (event.type === 'model.response') {
        this.responses.push(event);
        this.unanswered.push([]);
      } else if (event.type === 'model.unanswered') {
        const { type: _, ...recorded } = event;
        this.unanswered.at(-1)!.push(recorded);
      }
    }
    this.name = recordedModel;
    this.label = `replay of the recorded answers of ${recordedModel} (no API calls)`;
  }

  /** How many answers the session recorded. */
  get answers(): number {
    return this.responses.length;
  }

  get exhausted(): boolean {
    return this.next >= this.responses.length;
  }

  unansweredBefore(): RecordedUnanswered[] {
    if (this.told === this.next) return [];
    this.told = this.next;
    return this.unanswered[this.next] ?? [];
  }

  async complete(_request: unknown, options: CallOptions = {}): Promise<ModelResponse> {
    const recorded = this.responses[this.next++];
    if (!recorded) {
      if (this.scriptEnded) throw new ScriptEndedError(this.responses.length);
      // The run ended on a call that got no answer: cancelled by the developer, or given up on.
      const last = this.unanswered[this.responses.length]!.at(-1);
      // (Stopped with `x` between two calls, the run asked for none: nothing was recorded of it but the stop.)
      if (last?.reason === 'cancelled' || (!last && this.stopped))
        throw Object.assign(new Error('cancelled'), { name: 'AbortError' });
      if (last)
        throw new ProviderError(
          `The run's model call ${this.next} got no answer (the provider failed); the rerun ends there too.`,
        );
      throw new TenetError(
        `The run asked for model answer ${this.next}, but the session recorded only ${this.responses.length}.`,
      );
    }
    if (recorded.content) options.onDelta?.(recorded.content);
    return {
      content: recorded.content,
      toolCalls: recorded.toolCalls,
      usage: recorded.usage,
      stopReason: recorded.stopReason,
      model: recorded.model,
      recorded: { costUsd: recorded.costUsd, cacheSavedUsd: recorded.cacheSavedUsd },
    };
  }
}

/** The decisions the session recorded: the same tests and messages; the patch is never applied by a rerun. */
export const replayPilot = recordedPilot;

export interface Divergence {
  step: string;
  recorded: string;
  now: string;
}

/** Output that differs between two runs of the same thing: workspace paths, timings, addresses. */
function normalizeOutput(text: string, workspaces: string[]): string {
  let out = text;
  for (const root of workspaces) if (root) out = out.split(root).join('<workspace>');
  return out
    .replace(/\/tmp\/tenet-[A-Za-z0-9]+\//g, '<tmp>/')
    .replace(/\b\d+(\.\d+)?s\b/g, '<t>s')
    .replace(/0x[0-9a-f]{6,}/gi, '0x…')
    .replace(/\d+(\.\d+)? ?ms\b/g, '<t>ms');
}

/** Where a re-run of a session differs from its record: THM's selection, tool outputs, test outcomes, the result. */
export function compareRuns(
  recorded: readonly EngineEvent[],
  now: readonly EngineEvent[],
  redact: (text: string) => string = (t) => t,
): Divergence[] {
  const divergences: Divergence[] = [];
  const workspace = (events: readonly EngineEvent[]) =>
    String(events.find((e): e is EventOf<'session.start'> => e.type === 'session.start')?.config.workspace ?? '');
  const roots = [workspace(recorded), workspace(now)];
  const pick = <T extends EngineEvent['type']>(events: readonly EngineEvent[], type: T) =>
    events.filter((e): e is EventOf<T> => e.type === type);

  const selection = (events: readonly EngineEvent[]) => pick(events, 'thm.report')[0]?.report;
  const [a, b] = [selection(recorded), selection(now)];
  // The same tests in another order are the same selection (ties in the order may fall either way).
  const chosen = (r: NonNullable<typeof a>) => [...r.selected].sort().join(', ');
  if (a && b && chosen(a) !== chosen(b))
    divergences.push({ step: 'THM selection', recorded: chosen(a), now: chosen(b) });
  if (a && b) {
    const failing = (r: typeof a) =>
      r.failing
        .map((f) => f.nodeid)
        .sort()
        .join('\n');
    if (failing(a) !== failing(b))
      divergences.push({
        step: 'THM failing tests',
        recorded: `${a.failing.length} failing`,
        now: `${b.failing.length} failing`,
      });
  }

  const toolsA = pick(recorded, 'tool.result');
  const toolsB = pick(now, 'tool.result');
  for (let i = 0; i < Math.max(toolsA.length, toolsB.length); i++) {
    const x = toolsA[i];
    const y = toolsB[i];
    if (!x || !y) {
      divergences.push({
        step: `tool call ${i + 1}`,
        recorded: x ? `${x.name}` : '(none)',
        now: y ? `${y.name}` : '(none)',
      });
      continue;
    }
    // The record is redacted: compare the new output as it would be stored.
    const tx = normalizeOutput(x.text, roots);
    const ty = normalizeOutput(redact(y.text), roots);
    if (x.name !== y.name || tx !== ty)
      divergences.push({ step: `tool call ${i + 1} (${x.name})`, recorded: tx, now: ty });
  }

  const runsA = pick(recorded, 'tests.run');
  const runsB = pick(now, 'tests.run');
  for (let i = 0; i < Math.max(runsA.length, runsB.length); i++) {
    const x = runsA[i];
    const y = runsB[i];
    const show = (r: typeof x) =>
      r
        ? Object.entries(r.outcomes)
            .map(([id, o]) => `${id}: ${o}`)
            .sort()
            .join('\n')
        : '(no run)';
    if (show(x) !== show(y))
      divergences.push({ step: `test run ${i + 1} (${(x ?? y)!.purpose})`, recorded: show(x), now: show(y) });
  }

  // The developer's tests were written again, with the same outcome.
  const added = (events: readonly EngineEvent[]) =>
    pick(events, 'tests.added')
      .map((e) =>
        [
          ...e.accepted.map((t) => `joined: ${t.nodeid}`),
          ...e.rejected.map((r) => `kept out: ${r.nodeid}`),
          ...e.removed.map((id) => `removed: ${id}`),
        ].join('\n'),
      )
      .join('\n---\n');
  if (added(recorded) !== added(now))
    divergences.push({
      step: "the developer's tests",
      recorded: added(recorded) || '(none)',
      now: added(now) || '(none)',
    });

  // The developer's messages went to the model again, at the same rounds.
  const said = (events: readonly EngineEvent[]) =>
    pick(events, 'developer.message')
      .map((m) => `round ${m.round}: ${m.text}`)
      .join('\n');
  if (said(recorded) !== said(now))
    divergences.push({
      step: "the developer's messages",
      recorded: said(recorded) || '(none)',
      now: said(now) || '(none)',
    });

  const resultA = pick(recorded, 'result')[0];
  const resultB = pick(now, 'result')[0];
  if (resultA && resultB && resultA.pass !== resultB.pass)
    divergences.push({ step: 'result', recorded: resultA.pass ? 'pass' : 'fail', now: resultB.pass ? 'pass' : 'fail' });
  return divergences;
}
