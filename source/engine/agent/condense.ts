import type { Message } from '../protocol/messages';

/**
 * How a conversation is made to fit a model's context window, as pure functions: the conversation
 * picks the mildest level that fits and records what it replaced (context.condensed), so a resume
 * and a replay rebuild the same conversation.
 *
 * What the workflow needs stays whole at every level: the task with the selected tests (the
 * messages before the first answer), the latest submission of code and of tests with their results,
 * and the latest prompt (the current stage's). The rest, by level:
 * 1. tool outputs older than the last two rounds become their head and tail around a marked
 *    elision; superseded submissions become a one-line reference;
 * 2. also the previous round's tool outputs, shorter heads and tails, and older prompts (earlier
 *    attempts' reports) and long answers;
 * 3. also the latest round's tool outputs, and the older ones become a one-line reference: what a
 *    long session in a small window needs (each round then adds a few dozen tokens), and what a
 *    "too long" answer of the provider asks for.
 */
export type CondenseLevel = 1 | 2 | 3;

export interface Replacement {
  index: number;
  message: Message;
}

/** The marker left where text was taken out; its count adds up over later condensations. */
const MARKER = /\n?\[… tenet elided (\d+) characters here to fit the context window …\]\n?/g;
const marker = (n: number) => `[… tenet elided ${n} characters here to fit the context window …]`;

/** How many characters of the original a text stands for: its own, and what its markers say was taken out. */
function originalLength(text: string): number {
  let earlier = 0;
  const plain = text.replace(MARKER, (_, n: string) => {
    earlier += Number(n);
    return '';
  });
  return plain.length + earlier;
}

const REMOVED = /^\[tenet removed this \S+ output \([\d,]+ characters\) to fit the context window\]$/;

/** The one line an old tool output becomes at level 3. */
export const removedOutput = (name: string, text: string) =>
  REMOVED.test(text)
    ? text
    : `[tenet removed this ${name} output (${originalLength(text).toLocaleString('en-US')} characters) to fit the context window]`;

/** `text` as its first `head` and last `tail` characters around a marker that says how much went; unchanged when short enough. */
export function elide(text: string, head: number, tail: number): string {
  if (text.length <= head + tail + 80) return text;
  const middle = text.slice(head, text.length - tail);
  let earlier = 0;
  const plain = middle.replace(MARKER, (_, n: string) => {
    earlier += Number(n);
    return '';
  });
  return `${text.slice(0, head)}\n${marker(plain.length + earlier)}\n${text.slice(text.length - tail)}`;
}

const SUBMITTERS = new Set(['submit_implementation', 'submit_tests']);

/** The one-line reference a superseded submission's code becomes (still valid JSON arguments). */
export const supersededArguments = (name: string, number: number) =>
  JSON.stringify({
    code: `# ${name === 'submit_tests' ? 'tests' : 'submission'} ${number}: superseded by a later one; tenet removed its code to fit the context window`,
  });

interface Limits {
  /** Tool outputs: cut when longer than `over`, to `head` + `tail` characters. */
  tool: { over: number; head: number; tail: number };
  /** Older prompts and the model's answers (null: left whole). */
  prose: { over: number; head: number; tail: number } | null;
  /** Rounds at the end whose tool outputs stay whole. */
  recentRounds: number;
  /** Tool outputs before the last `rounds` rounds become a one-line reference. */
  remove?: { rounds: number };
}

const LEVELS: Record<CondenseLevel, Limits> = {
  1: { tool: { over: 1500, head: 700, tail: 300 }, prose: null, recentRounds: 2 },
  2: { tool: { over: 600, head: 300, tail: 150 }, prose: { over: 2000, head: 800, tail: 400 }, recentRounds: 1 },
  3: {
    tool: { over: 600, head: 300, tail: 150 },
    prose: { over: 1200, head: 500, tail: 250 },
    recentRounds: 0,
    remove: { rounds: 1 },
  },
};

/** Indices of what stays whole at every level, and where the recent rounds start. */
function protectedParts(messages: readonly Message[]) {
  const keep = new Set<number>();
  const firstAnswer = messages.findIndex((m) => m.role === 'assistant');
  for (let i = 0; i < (firstAnswer < 0 ? messages.length : firstAnswer); i++) keep.add(i);
  const lastPrompt = messages.findLastIndex((m) => m.role === 'user');
  if (lastPrompt >= 0) keep.add(lastPrompt);
  // The latest submission of each kind: the call and its result.
  const latest = new Map<string, number>();
  messages.forEach((m, i) => {
    if (m.role === 'assistant') for (const call of m.toolCalls) if (SUBMITTERS.has(call.name)) latest.set(call.name, i);
  });
  const latestCalls = new Set<string>();
  for (const i of latest.values()) {
    keep.add(i);
    const m = messages[i]!;
    if (m.role === 'assistant') for (const call of m.toolCalls) if (SUBMITTERS.has(call.name)) latestCalls.add(call.id);
  }
  messages.forEach((m, i) => {
    if (m.role === 'tool' && latestCalls.has(m.toolCallId)) keep.add(i);
  });
  const answers = messages.flatMap((m, i) => (m.role === 'assistant' ? [i] : []));
  const recentFrom = (rounds: number) => (rounds === 0 ? messages.length : (answers.at(-rounds) ?? 0));
  return { keep, latestCalls, recentFrom };
}

/**
 * What level `level` replaces in `messages` (each index at most once, with its new message). A
 * message already condensed as far as the level goes is not replaced again.
 */
export function condense(messages: readonly Message[], level: CondenseLevel): Replacement[] {
  const limits = LEVELS[level];
  const { keep, latestCalls, recentFrom } = protectedParts(messages);
  const recent = recentFrom(limits.recentRounds);
  const removeBefore = limits.remove ? recentFrom(limits.remove.rounds) : -1;
  const out: Replacement[] = [];
  const cut = (text: string, l: { over: number; head: number; tail: number }) =>
    text.length > l.over ? elide(text, l.head, l.tail) : text;
  // Submissions are numbered in order, as the transcript numbers them.
  const numbers = new Map<string, number>();
  const counted: Record<string, number> = {};
  for (const m of messages)
    if (m.role === 'assistant')
      for (const c of m.toolCalls)
        if (SUBMITTERS.has(c.name)) numbers.set(c.id, (counted[c.name] = (counted[c.name] ?? 0) + 1));
  for (let index = 0; index < messages.length; index++) {
    const message = messages[index]!;
    if (keep.has(index)) continue;
    let next: Message = message;
    if (message.role === 'tool' && index < removeBefore) {
      next = { ...message, content: removedOutput(message.name, message.content) };
    } else if (message.role === 'tool' && index < recent) {
      next = { ...message, content: cut(message.content, limits.tool) };
    } else if (message.role === 'assistant') {
      const toolCalls = message.toolCalls.map((c) =>
        SUBMITTERS.has(c.name) && !latestCalls.has(c.id)
          ? { ...c, arguments: supersededArguments(c.name, numbers.get(c.id) ?? 0) }
          : c,
      );
      const content = limits.prose && index < recent ? cut(message.content, limits.prose) : message.content;
      if (content !== message.content || toolCalls.some((c, i) => c !== message.toolCalls[i]))
        next = { ...message, content, toolCalls };
    } else if (message.role === 'user' && limits.prose) {
      next = { ...message, content: cut(message.content, limits.prose) };
    }
    if (!same(next, message)) out.push({ index, message: next });
  }
  return out;
}

function same(a: Message, b: Message): boolean {
  if (a === b) return true;
  if (a.content !== b.content) return false;
  if (a.role === 'assistant' && b.role === 'assistant')
    return a.toolCalls.every((c, i) => c.arguments === b.toolCalls[i]?.arguments);
  return true;
}

/** `messages` with the replacements in place. */
export function applyReplacements(messages: Message[], replaced: readonly Replacement[]): void {
  for (const r of replaced) if (r.index < messages.length) messages[r.index] = r.message;
}

/** What a condensation did, counted by kind: for its event's one line. */
export function condensedKinds(
  before: readonly Message[],
  replaced: readonly Replacement[],
): { toolOutputs: number; submissions: number; prompts: number; answers: number } {
  const kinds = { toolOutputs: 0, submissions: 0, prompts: 0, answers: 0 };
  for (const r of replaced) {
    const was = before[r.index];
    if (r.message.role === 'tool') kinds.toolOutputs++;
    else if (r.message.role === 'user') kinds.prompts++;
    else if (was?.role === 'assistant') {
      if (r.message.toolCalls.some((c, i) => c.arguments !== was.toolCalls[i]?.arguments)) kinds.submissions++;
      if (r.message.content !== was.content) kinds.answers++;
    }
  }
  return kinds;
}
