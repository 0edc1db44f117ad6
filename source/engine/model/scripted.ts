import { readFileSync } from 'node:fs';
import * as z from 'zod';
import { AgentStop, TenetError } from '../errors';
import type { CallOptions, Model, ModelRequest, ModelResponse } from './types';

const turnSchema = z.object({
  say: z.string().default(''),
  calls: z
    .array(
      z.object({ name: z.string(), arguments: z.union([z.string(), z.record(z.string(), z.unknown())]).default({}) }),
    )
    .default([]),
});

export const scriptSchema = z.object({
  label: z.string().default('scripted model (replays a fixed script, not an LLM)'),
  turns: z.array(turnSchema),
});

export type Script = z.infer<typeof scriptSchema>;

/** What a model script looks like, for the messages that ask for one. */
export const SCRIPT_FORMAT = 'a JSON file of {"turns": [{"say": …, "calls": [{"name": …, "arguments": {…}}]}]}';

export function loadScript(file: string): Script {
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new TenetError(
      `Cannot read the model script ${file}: ${(error as Error).message}`,
      `pass --script with ${SCRIPT_FORMAT}`,
    );
  }
  const parsed = scriptSchema.safeParse(data);
  if (!parsed.success)
    throw new TenetError(
      `Model script ${file} is not valid: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
    );
  return parsed.data;
}

/** Characters of a tool call's arguments per streamed piece (a few tokens, as the APIs send). */
const ARGUMENT_PIECE = 24;

/** A rough token count (4 characters a token) for models that report none. */
function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/**
 * A scripted model asked for a turn past its script's end. Answering anyway (with text, at an
 * estimated token count) kept the agent asking until its whole budget was spent: the agent's
 * part ends instead, and the evaluation runs on what was submitted (stop reason `script-ended`).
 */
export class ScriptEndedError extends AgentStop {
  override name = 'ScriptEndedError';
  constructor(readonly played: number) {
    const message = `The model script has no more turns (${played} played)`;
    super(message, 'script-ended', `${message}: the agent stops here, and the evaluation runs on what it submitted.`);
  }
}

/**
 * Answers from a fixed script, turn by turn, whatever it is asked: for demos and tests with no
 * API key. It says so in its label. Past the script's end it throws ScriptEndedError.
 */
export class ScriptedModel implements Model {
  readonly provider = 'scripted';
  readonly name = 'scripted';
  readonly label: string;
  private next = 0;

  constructor(
    private readonly script: Script,
    private readonly streamDelayMs = 0,
    /** Turns already played (a resumed session goes on from there). */
    startAt = 0,
  ) {
    this.label = script.label;
    this.next = startAt;
  }

  get turnsPlayed(): number {
    return this.next;
  }

  async complete(request: ModelRequest, options: CallOptions = {}): Promise<ModelResponse> {
    const turn = this.script.turns[this.next];
    if (!turn) throw new ScriptEndedError(this.next);
    this.next++;
    if (turn.say) {
      for (const piece of turn.say.match(/\S+\s*/g) ?? [turn.say]) {
        if (options.signal?.aborted) throw Object.assign(new Error('cancelled'), { name: 'AbortError' });
        options.onDelta?.(piece);
        if (this.streamDelayMs) await new Promise((r) => setTimeout(r, this.streamDelayMs));
      }
    }
    const toolCalls = turn.calls.map((call, i) => ({
      id: `scripted_${this.next}_${i}`,
      name: call.name,
      arguments: typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments),
    }));
    // The arguments stream too, as a provider's do: a submission's code grows on screen.
    for (const [index, call] of toolCalls.entries()) {
      if (!options.onToolDelta) break;
      options.onToolDelta({ index, name: call.name, arguments: '' });
      for (let at = 0; at < call.arguments.length; at += ARGUMENT_PIECE) {
        if (options.signal?.aborted) throw Object.assign(new Error('cancelled'), { name: 'AbortError' });
        options.onToolDelta({ index, name: call.name, arguments: call.arguments.slice(at, at + ARGUMENT_PIECE) });
        if (this.streamDelayMs) await new Promise((r) => setTimeout(r, this.streamDelayMs));
      }
    }
    const prompt = request.system + JSON.stringify(request.messages) + JSON.stringify(request.tools);
    return {
      content: turn.say,
      toolCalls,
      usage: {
        inputTokens: estimateTokens(prompt),
        outputTokens: estimateTokens(turn.say + JSON.stringify(toolCalls)),
      },
      stopReason: toolCalls.length ? 'tool_calls' : 'stop',
      model: 'scripted',
    };
  }
}
