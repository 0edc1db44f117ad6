import type { EngineEvent, EventOf } from '../events';
import { TenetError } from '../errors';
import type { CallOptions, Model, ModelRequest, ModelResponse } from '../model/types';
import type { CommandDecision, DeveloperMessage } from '../protocol/decisions';
import type { ThmReport } from '../protocol/thm-report';
import { proposeFor } from '../thm/propose';
import type { Pilot } from './pilot';
import type { PreparedRun } from './prepare-run';
import { partDecisions, recordedPlanDecision, targetParts } from './recorded-decisions';

type Logged = EngineEvent & { seq?: number };

/**
 * Where a fork leaves its parent: the parent's history up to event `at` (its sequence number), and
 * what of it the fork takes as recorded — the model's answers, and the developer's decisions.
 */
export interface ForkPoint {
  parent: string;
  at: number;
  /** The parent's model answers up to `at`: the fork's first answers, at no cost. */
  answers: EventOf<'model.response'>[];
  /** The parent's events up to `at` (its decisions are taken from them). */
  history: Logged[];
  /** THM's report, when the parent had it by then: THM does not run again. */
  thm?: ThmReport;
}

const seqOf = (event: Logged, index: number) => event.seq ?? index + 1;

/** The parent's history up to event `at`; an event past its work (the result, or none at all) is refused. */
export function forkPoint(
  parent: string,
  events: readonly Logged[],
  at: number,
  options: { T?: number } = {},
): ForkPoint {
  const last = events.length ? seqOf(events.at(-1)!, events.length - 1) : 0;
  if (!Number.isInteger(at) || at < 1 || at > last)
    throw new TenetError(
      `Session ${parent} has events 1 to ${last}; there is no event ${at}.`,
      'pick an event number as `tenet replay` counts them (or as the page shows them: #step=N)',
    );
  // A plan's targets each end in an evaluation of their own: its work ends with the final one.
  const plan = events.some((e) => e.type === 'plan');
  const result = events.findIndex((e) =>
    plan
      ? e.type === 'result' || e.type === 'plan.final'
      : e.type === 'result' || (e.type === 'agent.phase' && e.phase === 'evaluate'),
  );
  if (result !== -1 && at >= seqOf(events[result]!, result)) {
    throw new TenetError(
      `Event ${at} of session ${parent} comes after the agent's work ended (event ${seqOf(events[result]!, result)}); a fork goes on from a point where the agent still works.`,
      `fork at an event before ${seqOf(events[result]!, result)}`,
    );
  }
  const history = events.filter((e, i) => seqOf(e, i) <= at);
  const approval = history.find((e) => e.type === 'thm.approval');
  if (options.T !== undefined && approval) {
    throw new TenetError(
      `-T changes THM's choice of tests, which session ${parent} made at event ${seqOf(approval, events.indexOf(approval))}, before event ${at}.`,
      'fork at an event before the tests were approved, or leave -T out',
    );
  }
  // A plan's targets each run their own THM, which runs again in the fork (on the same code, the same report).
  const thm = plan
    ? undefined
    : history.find((e): e is Logged & EventOf<'thm.report'> => e.type === 'thm.report')?.report;
  return {
    parent,
    at,
    answers: history.filter((e): e is Logged & EventOf<'model.response'> => e.type === 'model.response'),
    history,
    ...(thm ? { thm } : {}),
  };
}

/**
 * The parent's answers first, then the live model: the fork's history is the parent's, at no cost
 * (the recorded answers count no tokens here: they were paid for once), and then the new model
 * goes on. `onLive` is told once, before the first live call.
 */
export class ForkModel implements Model {
  readonly provider: string;
  readonly name: string;
  readonly label: string;
  private calls = 0;

  constructor(
    private readonly answers: readonly EventOf<'model.response'>[],
    private readonly live: Model,
  ) {
    this.provider = live.provider;
    this.name = live.name;
    this.label = `${live.label} (after ${answers.length} recorded answer${answers.length === 1 ? '' : 's'})`;
  }

  /** Model calls made so far (answered from the record or live). */
  get made(): number {
    return this.calls;
  }

  /** The answers that came from the record. */
  get recorded(): number {
    return this.answers.length;
  }

  async complete(request: ModelRequest, options: CallOptions = {}): Promise<ModelResponse> {
    const recorded = this.answers[this.calls++];
    if (!recorded) return this.live.complete(request, options);
    if (recorded.content) options.onDelta?.(recorded.content);
    return {
      content: recorded.content,
      toolCalls: recorded.toolCalls,
      usage: { inputTokens: 0, outputTokens: 0 },
      stopReason: recorded.stopReason,
      model: recorded.model,
    };
  }
}

/**
 * The fork's pilot: up to the fork's event, the parent's decisions (its choice of tests and the
 * tests the developer wrote, their messages at the rounds they went with, their edits of recorded
 * calls, their answers about shell commands); after it, the live pilot (the TUI, or headless
 * defaults), with `-T` for a choice of tests still to be made and `--message` for the first live
 * model call.
 */
export function forkPilot(
  point: ForkPoint,
  model: ForkModel,
  live: Pilot,
  options: { message?: string; T?: number } = {},
): Pilot {
  const { history } = point;
  // Each target's run of a plan decides from its own part of the history (a single run has one).
  const parts = targetParts(history);
  let part = partDecisions(parts[0]!);
  // The fork's message goes with its first live call, once (a call made again is the same call).
  let messageSent = false;
  const plan = recordedPlanDecision(history);
  const commands = history.filter((e): e is EventOf<'command.approval'> => e.type === 'command.approval');
  // Whether the model call about to be made is answered from the record (the parent's answers come first).
  const recordedNext = () => model.made < point.answers.length;
  const recordedDecision = (e: EventOf<'command.approval'>): CommandDecision =>
    e.decision === 'denied'
      ? { run: false, reason: e.reason ?? '' }
      : e.decision === 'stopped'
        ? { stop: true }
        : {
            run: true,
            ...(e.decision === 'approved-session' ? { session: true } : {}),
            ...(e.by === 'auto' ? { auto: true } : {}),
          };
  const pilot: Pilot = {
    // The live pilot's own calls, bound to it (it may be a class: the TUI's controller).
    acceptPatch: (result) => live.acceptPatch(result),
    ...(live.attach ? { attach: (attachment) => live.attach!(attachment) } : {}),
    ...(live.callSignal ? { callSignal: () => live.callSignal!() } : {}),
    ...(live.afterCancelledCall ? { afterCancelledCall: () => live.afterCancelledCall!() } : {}),
    ...(live.beforeModelCall ? { beforeModelCall: () => live.beforeModelCall!() } : {}),
    ...(live.unreadMessages ? { unreadMessages: () => live.unreadMessages!() } : {}),
    // A plan as the parent decided it, when it had; else the live pilot's.
    ...(plan
      ? { approvePlan: async () => plan }
      : live.approvePlan
        ? { approvePlan: (proposal) => live.approvePlan!(proposal) }
        : {}),
    startTarget(k) {
      part = partDecisions(parts[k + 1] ?? []);
      live.startTarget?.(k);
    },
    async addTests(desk) {
      for (const round of part.added) await desk.add(round.files);
      // Tests can still be added where the choice of tests is the fork's own.
      if (!part.approval) await live.addTests?.(desk);
    },
    approveTests(report, desk) {
      const { approval } = part;
      if (approval)
        return Promise.resolve({
          chosen: approval.chosen,
          by: approval.by === 'human' ? 'human' : 'auto',
          T: approval.T,
        });
      if (options.T === undefined) return live.approveTests(report, desk);
      // THM's proposal for the fork's T (THM ran, or the parent ran it, with the parent's).
      return live
        .approveTests({ ...report, T: options.T, selected: proposeFor(report, options.T) }, desk)
        .then((choice) => ({ ...choice, T: choice.T ?? options.T! }));
    },
    async beforeRequest(preview) {
      const said: DeveloperMessage[] = [...(part.messages.get(preview.round) ?? [])];
      if (recordedNext()) return said;
      const first = model.made === point.answers.length && !messageSent;
      if (first) messageSent = true;
      const mine = (await live.beforeRequest?.(preview)) ?? [];
      return [...said, ...(first && options.message ? [{ text: options.message, via: 'fork' as const }] : []), ...mine];
    },
    stepping(at) {
      // A call of a recorded answer: the answer's model call was the record's.
      const recorded = at.before === 'model' ? recordedNext() : model.made <= point.answers.length;
      return !recorded && !!live.stepping?.(at);
    },
    async beforeToolCall(call) {
      if (model.made <= point.answers.length) return part.edits.get(call.id);
      return live.beforeToolCall?.(call);
    },
  };
  // Shell commands are asked about when the live pilot asks, or the parent's developer was asked.
  if (live.approveCommand || commands.length) {
    pilot.approveCommand = async (command) => {
      // A shell command of a recorded answer: as the parent's developer decided (else it runs).
      if (model.made <= point.answers.length) {
        const decision = commands.shift();
        return decision ? recordedDecision(decision) : { run: true, auto: true };
      }
      return live.approveCommand ? live.approveCommand(command) : { run: true, auto: true };
    };
  }
  return pilot;
}

/** What `tenet fork` asks for beside the parent's history: a first message for the live model, THM's budget for a choice still to be made. */
export interface ForkRequest {
  point: ForkPoint;
  message?: string;
  T?: number;
}

/**
 * A prepared run made into a fork: the parent's answers before the live model, THM's report taken
 * from the parent, the parentage recorded; returns how to wrap the run's pilot.
 */
export function prepareFork(prepared: PreparedRun, request: ForkRequest): (live: Pilot) => Pilot {
  const { point } = request;
  const model = new ForkModel(point.answers, prepared.model.model);
  const choice = { ...prepared.model, model };
  prepared.model = choice;
  prepared.options = { ...prepared.options, model: choice, ...(point.thm ? { thmReport: point.thm } : {}) };
  const { provider, model: name, baseUrl } = choice.settings;
  prepared.fork = {
    parent: point.parent,
    at: point.at,
    recorded: point.answers.length,
    provider,
    model: name,
    ...(baseUrl ? { baseUrl } : {}),
  };
  return (live) =>
    forkPilot(point, model, live, {
      ...(request.message ? { message: request.message } : {}),
      ...(request.T !== undefined ? { T: request.T } : {}),
    });
}
