import { z } from 'zod';
import type { ToolContext } from './context';
import { toolNamed, TOOLS } from './registry';
import { ToolInputError } from './tool';

/** What goes back to the model, at most; longer results keep their head and tail. */
export const TOOL_OUTPUT_CAP = 16_000;

export interface ToolOutcome {
  name: string;
  text: string;
  /** False when the call itself was wrong (unknown tool, bad arguments, a problem the model must fix). */
  ok: boolean;
  durationMs: number;
}

export function capText(text: string, cap = TOOL_OUTPUT_CAP): string {
  if (text.length <= cap) return text;
  const head = Math.floor(cap * 0.6);
  const tail = cap - head;
  return `${text.slice(0, head)}\n[... ${text.length - cap} characters cut by tenet ...]\n${text.slice(-tail)}`;
}

function describeIssues(error: z.ZodError): string {
  return error.issues.map((issue) => `- ${issue.path.join('.') || 'arguments'}: ${issue.message}`).join('\n');
}

/**
 * Calls a tool the way the agent loop does: arguments as the model sent them (a JSON string or an
 * object), validated against the tool's schema. Whatever goes wrong comes back as text the model
 * can act on; only tenet's own bugs reach the caller as exceptions.
 */
export async function callTool(name: string, rawArgs: unknown, ctx: ToolContext, allowed?: readonly string[]): Promise<ToolOutcome> {
  const started = Date.now();
  const done = (text: string, ok: boolean): ToolOutcome => ({ name, text: capText(text), ok, durationMs: Date.now() - started });
  const tool = toolNamed(name);
  const available = allowed ?? TOOLS.map((t) => t.name);
  if (!tool || !available.includes(name)) return done(`Unknown tool ${name}. Available tools: ${available.join(', ')}.`, false);
  let args: unknown = rawArgs ?? {};
  if (typeof rawArgs === 'string') {
    try {
      args = rawArgs.trim() ? JSON.parse(rawArgs) : {};
    } catch (error) {
      return done(`The arguments of ${name} are not valid JSON (${(error as Error).message}). Send a JSON object, e.g. ${JSON.stringify(Object.fromEntries(Object.keys(tool.schema.shape).map((k) => [k, '...'])))}.`, false);
    }
  }
  const parsed = tool.schema.safeParse(args);
  if (!parsed.success) return done(`Wrong arguments for ${name}:\n${describeIssues(parsed.error)}`, false);
  try {
    return done(await tool.run(parsed.data as never, ctx), true);
  } catch (error) {
    if (error instanceof ToolInputError) return done(error.message, false);
    throw error;
  }
}
