import type { EventOf, EventSink } from '../events';
import { cacheSavingOf, costOf, isUnpriced, unpricedWarning, type Pricing } from '../model/pricing';
import type { Model, ModelResponse, RecordedUnanswered } from '../model/types';
import { addCall, newTotals, type Totals, type UsageSums } from '../model/usage-sums';
import type { Message, ToolCall, ToolDefinition, Usage } from '../protocol/messages';
import { callTool, type ToolOutcome } from '../tools/call-tool';
import type { ToolContext } from '../tools/context';
import { toolDefinitions } from '../tools/registry';
import { limitReached, requestPastLimit, SpendLimitError, type SpendLimits } from '../model/spend-limits';
import { Steering, type SteeringHooks } from './steering';
import { applyReplacements } from './condense';
import { ContextKeeper } from './context-keeper';
import { unknownWindowWarning } from './context-words';
import type { ContextBudget } from './context-size';
import { ProviderError } from '../model/types';
import { codeArgument, oddStop } from './answer-words';

export type { Totals } from '../model/usage-sums';

export interface RoundOutcome {
  response: ModelResponse;
  /** A submit_implementation call in this round was accepted. */
  submitted: boolean;
  /** A submit_tests call in this round was accepted. */
  testsSubmitted: boolean;
  /** The model called finish. */
  finished: boolean;
  /** It answered with text only. */
  textOnly: boolean;
}

export interface ConversationOptions {
  model: Model;
  system: string;
  ctx: ToolContext;
  emit: EventSink;
  price: Pricing | undefined;
  temperature: number;
  maxTokens: number;
  signal?: AbortSignal;
  /**
   * Awaited before every model call, and again after a step pause before it: where a developer's
   * takeover of the debugger pauses the agent, and what they did there for the model.
   */
  beforeModelCall?: () => Promise<string | undefined>;
  /** A signal per model call (a developer cancels it with Esc), and what to do after. */
  callSignal?: () => AbortSignal | undefined;
  afterCancelledCall?: () => Promise<'retry' | 'stop'>;
  /** The developer's messages (and, in step mode, pauses and edits) between the agent's steps. */
  steering?: SteeringHooks;
  /** The session's cost and token limits, checked before each model call. */
  limits?: SpendLimits;
  /** What the session spent before this conversation (a plan's earlier targets): counted against the limits too. */
  spentBefore?: UsageSums;
  /** The model's context window and the answer's share of it: requests are kept inside (see ContextKeeper). */
  context?: ContextBudget;
  /** The model whose window no one knows: said once, at the first request. */
  windowUnknown?: string;
}

const aborted = () => Object.assign(new Error('cancelled'), { name: 'AbortError' });

export interface RoundOptions {
  /**
   * Asked before each tool call (given whether this round already submitted code): a reason to
   * refuse it, which the model reads as the call's result, or nothing to run it. A strategy refuses
   * what its current step does not allow (a finish before any code, a submission before the
   * refinement stage that takes it).
   */
  refuse?: (name: string, submittedThisRound: boolean, id: string) => string | undefined;
}

/**
 * One agent conversation: the message history, and a round = one model call plus the tools it
 * asked for, each result going back as a tool message. Everything is reported as events.
 */
export class Conversation {
  readonly messages: Message[] = [];
  readonly totals: Totals = newTotals();
  private readonly definitions = new Map<string, ToolDefinition[]>();
  /** Messages up to here were part of an earlier request (or recorded in its response). */
  private recorded = 0;
  private systemSent = false;
  private readonly steering: Steering;
  private readonly context: ContextKeeper;
  private windowSaid = false;

  constructor(private readonly options: ConversationOptions) {
    this.steering = new Steering(options.steering ?? {}, options.emit);
    this.context = new ContextKeeper(options.context);
  }

  /** The next request opens a stage, an attempt or an iteration: where condensing early costs the prompt cache least. */
  markStageBoundary(): void {
    this.context.markBoundary();
  }

  /** A resumed session: the conversation and counts as they were recorded. */
  restore(messages: readonly Message[], totals: Totals): void {
    this.messages.push(...messages);
    Object.assign(this.totals, totals);
    this.recorded = this.messages.length;
    this.systemSent = true;
  }

  say(content: string): void {
    this.messages.push({ role: 'user', content });
  }

  private toolsFor(names: readonly string[]): ToolDefinition[] {
    const key = names.join(',');
    let defs = this.definitions.get(key);
    if (!defs) {
      defs = toolDefinitions(names);
      this.definitions.set(key, defs);
    }
    return defs;
  }

  /** No call past the session's cost or token limit: the run ends with what it has. */
  private checkLimits(): void {
    const before = this.options.spentBefore;
    const spent = before
      ? {
          ...this.totals,
          costUsd: this.totals.costUsd + before.costUsd,
          inputTokens: this.totals.inputTokens + before.inputTokens,
          outputTokens: this.totals.outputTokens + before.outputTokens,
        }
      : this.totals;
    const reached = limitReached(this.options.limits, spent);
    if (reached) {
      this.options.emit({ type: 'limit.reached', ...reached });
      throw new SpendLimitError(reached);
    }
  }

  /** No call whose counted input would pass the token limit (see requestPastLimit); `counted`: the window check's count. */
  private async checkNextRequest(counted: number | undefined, definitions: ToolDefinition[]): Promise<void> {
    if (this.options.limits?.maxTokens === undefined) return;
    const input = counted ?? (await this.context.count(this.options.system, this.messages, definitions));
    const past = requestPastLimit(this.options.limits, this.totals, input);
    if (!past) return;
    this.options.emit({ type: 'warning', message: past.message });
    this.options.emit({ type: 'limit.reached', ...past.reached });
    throw new SpendLimitError(past.reached);
  }

  /**
   * One step of the agent, as mini-swe-agent's `step`: ask the model, then act on its answer. The
   * ways out are thrown: a spend limit or the end of a scripted model's script (AgentStop), the
   * developer's stop or the session's cancel (AbortError), a provider that failed.
   */
  async round(tools: readonly string[], options: RoundOptions = {}): Promise<RoundOutcome> {
    return this.observe(await this.query(tools), tools, options);
  }

  /**
   * Asks the model: what the developer has to say first, the request logged and fitted to the
   * context window, the call (made again when the developer says so), and the answer counted,
   * reported and added to the conversation.
   */
  private async query(tools: readonly string[]): Promise<ModelResponse> {
    const round = await this.beforeRequest();
    const definitions = this.toolsFor(tools);
    await this.logRequest(tools, definitions, round);
    const started = Date.now();
    const response = await this.call(definitions, round);
    this.record(response, Date.now() - started);
    return response;
  }

  /** Acts on the answer: the tools it asked for run, each result going back to the model as a tool message. */
  private async observe(
    response: ModelResponse,
    tools: readonly string[],
    options: RoundOptions,
  ): Promise<RoundOutcome> {
    const { submitted, testsSubmitted, finished } = await this.runTools(response.toolCalls, tools, options);
    return { response, submitted, testsSubmitted, finished, textOnly: response.toolCalls.length === 0 };
  }

  /**
   * Before a request: the limits, a takeover's note, the developer's messages and a step pause.
   * The round the request is.
   */
  private async beforeRequest(): Promise<number> {
    this.checkLimits();
    const note = await this.options.beforeModelCall?.();
    if (note) this.say(note);
    const { said, paused } = await this.steering.beforeRequest(this.totals.rounds + 1, this.messages);
    // The developer may take the debugger over at the step pause itself: what they did goes with
    // this request as a takeover's note, as it would have at the wait above (not as their message).
    const late = paused ? await this.options.beforeModelCall?.() : undefined;
    if (late) this.say(late);
    for (const message of said) this.say(message);
    this.totals.rounds++;
    return this.totals.rounds;
  }

  /** The request as the log records it (what the conversation gained since the last), condensed first when it would not fit. */
  private async logRequest(tools: readonly string[], definitions: ToolDefinition[], round: number): Promise<void> {
    const { emit } = this.options;
    // Once per run (a resumed one too), before its first request.
    if (!this.windowSaid && this.options.windowUnknown)
      emit({ type: 'warning', message: unknownWindowWarning(this.options.windowUnknown) });
    this.windowSaid = true;
    const fit = await this.context.beforeRequest(this.options.system, this.messages, definitions, round);
    await this.checkNextRequest(fit.context?.tokens, definitions);
    emit({
      type: 'model.request',
      round,
      messages: this.messages.length,
      tools: [...tools],
      newMessages: this.messages.slice(this.recorded),
      ...(this.systemSent ? {} : { system: this.options.system }),
      ...(fit.context ? { context: fit.context } : {}),
    });
    this.systemSent = true;
    this.recorded = this.messages.length;
    // Logged after the request's new messages, so that replaying the log replaces what it names.
    if (fit.condensed) this.condensed(fit.condensed);
    if (fit.warning) emit({ type: 'warning', message: fit.warning });
  }

  /**
   * The model call, made until it answers or a way out is thrown. Two failures ask again: the
   * provider's "too long" (once, condensed as far as tenet goes), and a call the developer
   * cancelled and chose to make again.
   */
  private async call(definitions: ToolDefinition[], round: number): Promise<ModelResponse> {
    const { model, emit } = this.options;
    let condensedHarder = false;
    for (;;) {
      const callSignal = this.options.callSignal?.();
      const signals = [this.options.signal, callSignal].filter((s): s is AbortSignal => !!s);
      const since = Date.now();
      let unanswered: Usage | undefined;
      // A rerun: the calls the run made here that got no answer cost what they cost then.
      for (const past of model.unansweredBefore?.() ?? []) {
        this.countUnanswered(past.usage, past.reason, past.durationMs, past);
        this.checkLimits();
      }
      try {
        return await model.complete(
          {
            system: this.options.system,
            messages: this.messages,
            tools: definitions,
            temperature: this.options.temperature,
            maxTokens: this.options.maxTokens,
          },
          {
            ...(signals.length ? { signal: AbortSignal.any(signals) } : {}),
            onDelta: (text) => emit({ type: 'model.delta', text }),
            onToolDelta: (delta) => emit({ type: 'model.tool-delta', ...delta }),
            onRetry: (notice) => emit({ type: 'model.retry', ...notice }),
            onWarning: (message) => emit({ type: 'warning', message }),
            onUnanswered: (usage) => (unanswered = usage),
          },
        );
      } catch (error) {
        // No answer, but the provider billed what the call's attempts used: counted all the same.
        if (unanswered)
          this.countUnanswered(unanswered, signals.some((s) => s.aborted) ? 'cancelled' : 'failed', Date.now() - since);
        // Longer than the window (a tokenizer that counts more than tenet's, an unknown window): once, condensed as far as tenet goes.
        if (error instanceof ProviderError && error.tooLong && !condensedHarder) {
          condensedHarder = true;
          if (await this.condenseHarder(error, definitions, round)) continue;
        }
        await this.afterCancel(error, callSignal);
      }
    }
  }

  /** After the provider's "too long": the conversation condensed further, and said so; false when there is nothing more to condense. */
  private async condenseHarder(error: ProviderError, definitions: ToolDefinition[], round: number): Promise<boolean> {
    const harder = await this.context.afterTooLong(this.options.system, this.messages, definitions, round);
    if (!harder) return false;
    this.options.emit({
      type: 'warning',
      message: `The provider answered that the request is too long (${error.message}): tenet condensed the conversation further and asks again.`,
    });
    this.condensed(harder);
    return true;
  }

  /**
   * A call the developer cancelled (not the whole session): returns when they make it again, and
   * throws when they stop. Any other failure is thrown on as it is.
   */
  private async afterCancel(error: unknown, callSignal: AbortSignal | undefined): Promise<void> {
    if (!callSignal?.aborted || this.options.signal?.aborted) throw error;
    this.options.emit({ type: 'warning', message: 'The model call was cancelled.' });
    if ((await this.options.afterCancelledCall?.()) !== 'retry') throw aborted();
    // The call made again is a call like any other: the cancelled one's cost may have used up the limit.
    this.checkLimits();
  }

  /** The answer counted, priced, reported and added to the conversation. */
  private record(response: ModelResponse, durationMs: number): void {
    const { emit } = this.options;
    // An answer from a record (rerun) costs what it cost then, so limits stop a rerun where they stopped the run.
    const costUsd = response.recorded?.costUsd ?? costOf(this.options.price, response.usage);
    const cacheSavedUsd = response.recorded
      ? response.recorded.cacheSavedUsd
      : cacheSavingOf(this.options.price, response.usage);
    this.noteIncompleteCost(response.usage);
    this.totals.modelCalls++;
    addCall(this.totals, { usage: response.usage, costUsd, cacheSavedUsd });
    emit({
      type: 'model.response',
      content: response.content,
      toolCalls: response.toolCalls,
      usage: response.usage,
      costUsd,
      cacheSavedUsd,
      durationMs,
      model: response.model,
      stopReason: response.stopReason,
    });
    const odd = oddStop(response, this.options.maxTokens);
    if (odd) emit({ type: 'warning', message: odd });
    this.messages.push({ role: 'assistant', content: response.content, toolCalls: response.toolCalls });
    this.recorded = this.messages.length; // the response event records it
  }

  /** Replaces what a condensation names, and says so. */
  private condensed(event: Omit<EventOf<'context.condensed'>, 'type'>): void {
    applyReplacements(this.messages, event.replaced);
    this.options.emit({ type: 'context.condensed', ...event });
  }

  /** What a call that got no answer used, priced, added to the totals (not as a model call) and reported. */
  private countUnanswered(
    usage: Usage,
    reason: 'failed' | 'cancelled',
    durationMs: number,
    recorded?: RecordedUnanswered,
  ): void {
    const costUsd = recorded ? recorded.costUsd : costOf(this.options.price, usage);
    const cacheSavedUsd = recorded ? recorded.cacheSavedUsd : cacheSavingOf(this.options.price, usage);
    this.noteIncompleteCost(usage);
    addCall(this.totals, { usage, costUsd, cacheSavedUsd });
    this.options.emit({ type: 'model.unanswered', reason, usage, costUsd, cacheSavedUsd, durationMs });
  }

  /** Says once per run that the cost or the token counts are not the provider's own, and marks the totals. */
  private noteIncompleteCost(usage: Usage): void {
    const { price, emit } = this.options;
    if (isUnpriced(price) && !this.totals.unpriced) {
      this.totals.unpriced = true;
      emit({ type: 'warning', message: unpricedWarning(price.model) });
    }
    if (usage.estimated && !this.totals.estimatedTokens) {
      this.totals.estimatedTokens = true;
      // Not only a server that ignores include_usage: a stream cut before its usage came has its tokens estimated too.
      emit({
        type: 'warning',
        message:
          'Some token counts are estimated with the o200k_base tokenizer: the model server sent none for them (it leaves usage out, or a stream was cut before its usage came).',
      });
    }
  }

  /** Runs tool calls and adds their results; a resumed session uses it for calls cut off by the interruption. */
  async runTools(
    calls: readonly ToolCall[],
    tools: readonly string[],
    options: RoundOptions = {},
  ): Promise<{ submitted: boolean; testsSubmitted: boolean; finished: boolean }> {
    const { emit, ctx } = this.options;
    let submitted = false;
    let testsSubmitted = false;
    let finished = false;
    for (const asked of calls) {
      this.totals.toolCalls++;
      emit({ type: 'tool.call', id: asked.id, name: asked.name, arguments: asked.arguments });
      // Step mode may hold the call, and the developer change its arguments: it runs as they left it.
      const { call, note } = await this.steering.beforeTool(asked);
      const refusal = options.refuse?.(call.name, submitted, call.id);
      const ran: Pick<ToolOutcome, 'ok' | 'text' | 'durationMs'> = refusal
        ? { ok: false, text: refusal, durationMs: 0 }
        : await this.callClosing(call, tools);
      const outcome = note ? { ...ran, text: `${note}\n${ran.text}` } : ran;
      emit({
        type: 'tool.result',
        id: call.id,
        name: call.name,
        ok: outcome.ok,
        text: outcome.text,
        durationMs: outcome.durationMs,
      });
      this.messages.push({ role: 'tool', toolCallId: call.id, name: call.name, content: outcome.text });
      if (call.name === 'submit_implementation') {
        emit({ type: 'submission', code: codeArgument(call.arguments), ok: outcome.ok, message: outcome.text });
        submitted ||= outcome.ok;
      }
      if (call.name === 'submit_tests') {
        emit({
          type: 'tests.submission',
          code: codeArgument(call.arguments),
          ok: outcome.ok,
          message: outcome.text,
          ...(outcome.ok && ctx.agentTestFile ? { path: ctx.agentTestFile } : {}),
        });
        testsSubmitted ||= outcome.ok;
      }
      if (call.name === 'finish' && outcome.ok) finished = true;
    }
    return { submitted, testsSubmitted, finished };
  }

  /**
   * Calls a tool; when the call ends the run instead (the developer stopped the agent, the session
   * was cancelled, a bug), the call still gets its result first, so no log, transcript or replay
   * shows it running forever, and the conversation stays valid for a resume.
   */
  private async callClosing(call: ToolCall, tools: readonly string[]): Promise<ToolOutcome> {
    const started = Date.now();
    try {
      return await callTool(call.name, call.arguments, this.options.ctx, tools);
    } catch (error) {
      const stopped = (error as Error).name === 'AbortError';
      const text = stopped
        ? `Not run to the end: ${this.options.signal?.aborted ? 'the session was cancelled' : (error as Error).message}.`
        : `tenet failed running ${call.name}: ${(error as Error).message}`;
      this.options.emit({
        type: 'tool.result',
        id: call.id,
        name: call.name,
        ok: false,
        text,
        durationMs: Date.now() - started,
      });
      this.messages.push({ role: 'tool', toolCallId: call.id, name: call.name, content: text });
      throw error;
    }
  }
}
