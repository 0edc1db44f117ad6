import type { Message, ToolDefinition } from '../protocol/messages';

/** Chat formats add a few tokens of framing per message; OpenAI's own guide counts about this many. */
const PER_MESSAGE = 4;

type Counter = (text: string) => number;
let counter: Promise<Counter> | undefined;

/** The o200k_base tokenizer (GPT-4o and GPT-4.1's), loaded once: its tables are large. */
function loadCounter(): Promise<Counter> {
  counter ??= import('gpt-tokenizer/encoding/o200k_base').then(
    (tokenizer) => (text: string) => tokenizer.countTokens(text, { disallowedSpecial: new Set() }),
  );
  return counter;
}

/**
 * The size of a request before it is sent, in o200k_base tokens: other models tokenize a little
 * differently, which the budget's margin covers. A message's count is kept with it (messages are
 * never changed in place: a condensed one is a new object), so a round counts only what is new.
 */
export class RequestSizer {
  constructor() {
    // Its tables take about half a second to load: begun now, while the task's prompt is built.
    void loadCounter();
  }

  private readonly counts = new WeakMap<object, number>();
  private readonly texts = new Map<string, number>();

  private async text(text: string): Promise<number> {
    let n = this.texts.get(text);
    if (n === undefined) {
      n = (await loadCounter())(text);
      this.texts.set(text, n);
    }
    return n;
  }

  async message(message: Message): Promise<number> {
    let n = this.counts.get(message);
    if (n === undefined) {
      const count = await loadCounter();
      const calls = message.role === 'assistant' ? message.toolCalls.map((c) => c.name + c.arguments).join('') : '';
      n = PER_MESSAGE + count(message.content) + (calls ? count(calls) : 0);
      this.counts.set(message, n);
    }
    return n;
  }

  /** Every input token of a request: the system prompt, the tool definitions, the messages. */
  async request(system: string, messages: readonly Message[], tools: readonly ToolDefinition[]): Promise<number> {
    let total = PER_MESSAGE + (await this.text(system)) + (tools.length ? await this.text(JSON.stringify(tools)) : 0);
    for (const message of messages) total += await this.message(message);
    return total;
  }
}

/** A model's window as a run uses it: the tokens of a request and its answer together, and what is kept for the answer. */
export interface ContextBudget {
  window: number;
  /** The answer's tokens (the run's maxTokens): the request gets the rest. */
  reserve: number;
}

/** Above this many input tokens a request is condensed first: 80% of what the window leaves the input (a margin for tokenizers that count more). */
export const condenseAbove = (budget: ContextBudget) => Math.floor(0.8 * Math.max(0, budget.window - budget.reserve));
/** At a stage boundary a conversation past this share of the input's room is condensed already, where a new prompt breaks no cache that would have held. */
export const condenseAtBoundaryAbove = (budget: ContextBudget) =>
  Math.floor(0.6 * Math.max(0, budget.window - budget.reserve));
/** How small a condensation tries to make the request: well below the threshold, so that the next one is many rounds away (each one costs a cache miss). */
export const condenseTarget = (budget: ContextBudget) => Math.floor(0.5 * Math.max(0, budget.window - budget.reserve));
