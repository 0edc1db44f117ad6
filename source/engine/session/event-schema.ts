import { z } from 'zod';
import type { EngineEvent } from '../events';

/**
 * The shape of each logged event, checked when a log is read: a hand-edited line that is valid
 * JSON but not a valid event (a missing `usage`, `toolCalls: null`) must be an error naming the
 * line, not a TypeError deep in whatever reads the session. The schemas check what the readers
 * (fold, catalog, transcript, rerun, the printers and the TUI) rely on; extra fields are allowed.
 * Every type of the union has its schema (the compiler checks that the list is complete); a type
 * that is not in the union (written by a newer tenet) is accepted as it is: readers ignore it.
 */

const str = z.string();
const num = z.number();
const bool = z.boolean();
const strings = z.array(str);
const counts = z.object({ passed: num, total: num });

const toolCall = z.object({ id: str, name: str, arguments: str });
const message = z.discriminatedUnion('role', [
  z.object({ role: z.literal('user'), content: str }),
  z.object({ role: z.literal('assistant'), content: str, toolCalls: z.array(toolCall) }),
  z.object({ role: z.literal('tool'), toolCallId: str, name: str, content: str }),
]);

const thmReport = z.object({
  target: str,
  selected: strings,
  failing: z.array(z.object({ nodeid: str })),
  clusters: z.array(z.object({ caller: str, tests: z.array(z.unknown()), depth: num })),
  counts: z.object({ collected: num, failing: num, unreached: num }),
  durationMs: num,
});

/** A call's tokens; the cache counts came later: sessions recorded before them have none. */
const usage = z.object({ inputTokens: num, outputTokens: num, cacheReadTokens: num.optional(), cacheWriteTokens: num.optional() });

const outcomes = { outcomes: z.record(str, str), passed: num, total: num };

const result = z.object({
  sessionId: str,
  target: str,
  strategy: str,
  pass: bool,
  stopReason: str,
  selectedTests: counts,
  hiddenTests: counts,
  tests: z.record(str, str),
  usage: z.object({ inputTokens: num, outputTokens: num, modelCalls: num, toolCalls: num, cacheReadTokens: num.optional(), cacheWriteTokens: num.optional() }),
  costUsd: num,
  cacheSavedUsd: num.optional(),
  wallMs: num,
  patch: str,
  model: str,
});

const shapes = {
  'session.start': z.object({ sessionId: str, target: str, mode: z.enum(['stub', 'blank']), strategy: str, model: str, modelLabel: str, provider: str, repo: str, config: z.record(str, z.unknown()) }),
  'thm.start': z.object({ target: str }),
  'thm.phase': z.object({ phase: str }),
  'thm.collected': z.object({ phase: str, total: num }),
  'thm.collecting': z.object({ phase: str, files: num, tests: num }),
  'thm.running': z.object({ phase: str, tests: z.array(z.object({ nodeid: str, since: num })) }),
  'thm.test': z.object({ phase: str, nodeid: str, outcome: str }),
  'thm.report': z.object({ report: thmReport }),
  'thm.approval': z.object({ proposed: strings, chosen: strings, by: str }),
  'tests.added': z.object({ files: z.array(z.object({ path: str, content: str })), accepted: z.array(z.object({ nodeid: str, reached: bool, chain: strings })), rejected: z.array(z.object({ nodeid: str, reason: str })), removed: strings }),
  'tests.hidden': z.object({ hidden: strings, files: strings, visible: num.optional() }),
  'index.ready': z.object({ files: num, parsed: num, ms: num }),
  'agent.phase': z.object({ phase: str, round: num.optional(), attempt: num.optional(), stage: str.optional(), stopReason: str.optional() }),
  'model.request': z.object({ round: num, newMessages: z.array(message), system: str.optional(), context: z.object({ tokens: num, window: num }).optional() }),
  'context.condensed': z.object({
    round: num,
    why: z.enum(['threshold', 'stage', 'too-long']),
    level: num,
    replaced: z.array(z.object({ index: num, message })),
    kinds: z.object({ toolOutputs: num, submissions: num, prompts: num, answers: num }),
    tokensBefore: num,
    tokensAfter: num,
    window: num.optional(),
  }),
  'developer.message': z.object({ text: str, round: num, via: str }),
  'model.delta': z.object({ text: str }),
  'model.tool-delta': z.object({ index: num, name: str, arguments: str }),
  'model.retry': z.object({ reason: str }),
  'model.response': z.object({
    content: str,
    toolCalls: z.array(toolCall),
    usage,
    costUsd: num,
    cacheSavedUsd: num.optional(),
    model: str,
  }),
  'model.unanswered': z.object({ reason: str, usage, costUsd: num, cacheSavedUsd: num.optional() }),
  'tool.call': z.object({ id: str, name: str, arguments: str }),
  'tool.result': z.object({ id: str, name: str, ok: bool, text: str }),
  'step.pause': z.object({ before: z.enum(['model', 'tool']), round: num.optional(), callId: str.optional(), name: str.optional() }),
  'tool.edit': z.object({ id: str, name: str, original: str, arguments: str }),
  'debugger.input': z.object({ who: str, input: str }),
  'debugger.output': z.object({ chunk: str }),
  'debugger.entry': z.object({ entry: z.object({ who: str, input: str, output: str, mode: str, then: str.optional() }) }),
  submission: z.object({ code: str, ok: bool, message: str }),
  'tests.submission': z.object({ code: str, ok: bool, message: str }),
  'tests.run': z.object({ purpose: str, report: str, ...outcomes }),
  result,
  'tests.kept': z.object({ file: str }),
  'patch.decision': z.object({ decision: z.enum(['accept', 'reject', 'save']), applied: bool, reason: str.optional(), file: str.optional() }),
  'command.approval': z.object({ command: str, decision: z.enum(['approved', 'approved-session', 'denied', 'stopped']), by: z.enum(['human', 'auto']), reason: str.optional() }),
  'session.interrupted': z.object({ reason: str }),
  'session.resumed': z.object({ fromSeq: num, position: str, provider: str.optional(), model: str.optional(), baseUrl: str.optional(), approve: z.enum(['ask', 'auto']).optional(), approveAsked: z.enum(['ask', 'auto']).optional(), apply: z.boolean().optional(), applyFailing: z.boolean().optional(), scriptFile: str.optional(), scriptFrom: num.optional() }),
  'session.forked': z.object({ parent: str, at: num, recorded: num, provider: str, model: str, baseUrl: str.optional() }),
  'limit.reached': z.object({ limit: z.enum(['cost', 'tokens']), spent: num, max: num }),
  warning: z.object({ message: str }),
  error: z.object({ message: str }),
} satisfies Record<EngineEvent['type'], z.ZodType>;

/** Why an event does not have the shape of its type (`usage.inputTokens: expected number`), or undefined when it does. */
/** Whether this tenet knows an event type (a newer tenet may write others, which readers skip). */
export const knownEventType = (type: string): boolean => Object.hasOwn(shapes, type);

export function eventShapeProblem(event: { type: string }): string | undefined {
  if (!Object.hasOwn(shapes, event.type)) return undefined;
  const shape: z.ZodType = shapes[event.type as EngineEvent['type']];
  const checked = shape.safeParse(event);
  if (checked.success) return undefined;
  const issue = checked.error.issues[0]!;
  const path = issue.path.map(String).join('.');
  return `${path ? `${path}: ` : ''}${issue.message}`;
}
