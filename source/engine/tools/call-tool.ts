import { relative } from 'node:path';
import type { z } from 'zod';
import type { ToolContext } from './context';
import { closestTools, toolNamed, TOOLS } from './registry';
import { OutsideWorkspaceError } from '../workspace/inside';
import { ToolInputError } from './tool';

/** What goes back to the model, at most; longer results keep their head and tail. */
const TOOL_OUTPUT_CAP = 16_000;

export interface ToolOutcome {
  name: string;
  text: string;
  /** False when the call itself was wrong (unknown tool, bad arguments, a problem the model must fix). */
  ok: boolean;
  durationMs: number;
}

function capText(text: string, cap = TOOL_OUTPUT_CAP): string {
  if (text.length <= cap) return text;
  const head = Math.floor(cap * 0.6);
  const tail = cap - head;
  return `${text.slice(0, head)}\n[... ${text.length - cap} characters cut by tenet ...]\n${text.slice(-tail)}`;
}

function describeIssues(error: z.ZodError): string {
  return error.issues.map((issue) => `- ${issue.path.join('.') || 'arguments'}: ${issue.message}`).join('\n');
}

/** Cancellation (Esc, a developer's stop) is not a failure of the tool: it ends the turn, so it is passed on. */
function isCancellation(error: unknown, ctx: ToolContext): boolean {
  return (error as Error | undefined)?.name === 'AbortError' || !!ctx.signal?.aborted;
}

/** A failure the tool did not foresee, worded so the model knows what happened and what to do next. */
export function describeToolError(name: string, error: unknown, root: string): string {
  const e = error as NodeJS.ErrnoException | undefined;
  const path = typeof e?.path === 'string' ? relative(root, e.path) || '.' : undefined;
  const where = path && !path.startsWith('..') ? ` ${path}` : '';
  switch (e?.code) {
    case 'ENOENT':
      return `${name} failed: the file${where} is no longer in the workspace (deleted or moved, e.g. by a shell command). The index has been refreshed: search again, or list the folder with view_directory.`;
    case 'EISDIR':
      return `${name} failed:${where || ' the path'} is a folder, not a file. List it with view_directory.`;
    case 'ENOTDIR':
      return `${name} failed: a part of the path${where} is a file, not a folder. Check the path with view_directory.`;
    case 'EACCES':
    case 'EPERM':
      return `${name} failed: permission denied on${where || ' a file'}. A shell command may have changed its permissions; fix them with run_debugger_cmd or use another file.`;
    default: {
      const message = e instanceof Error ? e.message : String(error);
      return `${name} failed: ${message}\nThis is a problem on tenet's side, not in your arguments: try again once, then carry on with other tools.`;
    }
  }
}

/**
 * Calls a tool the way the agent loop does: arguments as the model sent them (a JSON string or an
 * object), validated against the tool's schema. It never throws: whatever goes wrong comes back
 * as text the model can act on (ok: false). Only a cancellation is passed on (see isCancellation).
 *
 * The index is brought up to date first when something may have changed files since (a shell
 * command, a test run, a failure that may come from a file that went away).
 */
export async function callTool(
  name: string,
  rawArgs: unknown,
  ctx: ToolContext,
  allowed?: readonly string[],
): Promise<ToolOutcome> {
  const started = Date.now();
  const done = (text: string, ok: boolean): ToolOutcome => ({
    name,
    text: capText(text),
    ok,
    durationMs: Date.now() - started,
  });
  const tool = toolNamed(name);
  const available = allowed ?? TOOLS.map((t) => t.name);
  // The closest name first: the list is long, and a reader who sees only the line's start sees the fix.
  if (!tool || !available.includes(name)) {
    const closest = closestTools(name, available);
    return done(
      `Unknown tool ${name}.${closest.length ? ` Did you mean ${closest.join(' or ')}?` : ''} Available tools: ${available.join(', ')}.`,
      false,
    );
  }
  let args: unknown = rawArgs ?? {};
  if (typeof rawArgs === 'string') {
    try {
      args = rawArgs.trim() ? JSON.parse(rawArgs) : {};
    } catch (error) {
      return done(
        `The arguments of ${name} are not valid JSON (${(error as Error).message}). Send a JSON object, e.g. ${JSON.stringify(Object.fromEntries(Object.keys(tool.schema.shape).map((k) => [k, '...'])))}.`,
        false,
      );
    }
  }
  const parsed = tool.schema.safeParse(args);
  if (!parsed.success) return done(`Wrong arguments for ${name}:\n${describeIssues(parsed.error)}`, false);
  try {
    await ctx.index.refreshIfStale();
    return done(await tool.run(parsed.data as never, ctx), true);
  } catch (error) {
    if (isCancellation(error, ctx)) throw error;
    // A link out of the workspace was refused: the model is told, like any wrong path.
    if (error instanceof ToolInputError || error instanceof OutsideWorkspaceError) return done(error.message, false);
    // The likeliest cause is a file that changed under the index: look again now.
    await ctx.index.refresh().catch(() => ctx.index.markStale());
    return done(describeToolError(name, error, ctx.index.root), false);
  } finally {
    if (tool.changesFiles) ctx.index.markStale();
  }
}
