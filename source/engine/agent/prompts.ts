import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promptsDir } from '../assets';
import { TOOLS } from '../tools/registry';

export type PromptName =
  | 'system'
  | 'task'
  | 'tests'
  | 'rrw-attempt'
  | 'rrw-failure'
  | 'rrw-context'
  | 'rrw-refine'
  | 'naive-refine'
  | 'nudge'
  | 'tdd-system'
  | 'tdd-task'
  | 'tdd-implement'
  | 'tdd-red'
  | 'tdd-green'
  | 'tdd-nudge'
  | 'tdd-then-tenet'
  | 'developer-message'
  | 'developer-edit';

export interface PromptOptions {
  /**
   * The tools the model is offered. A template's `{{#tool NAME}}…{{/tool}}` sections stay only when
   * NAME is among them, and the rest of it may name no other tool: a prompt that points the model at
   * a tool it lacks (`--no-apis` has no debugger) makes it call an unknown tool.
   */
  tools?: readonly string[];
  dir?: string;
}

const cache = new Map<string, string>();
const SECTION = /\{\{#tool (\w+)\}\}([\s\S]*?)\{\{\/tool\}\}/g;

function template(name: PromptName, dir: string): string {
  const file = join(dir, `${name}.md`);
  let text = cache.get(file);
  if (text === undefined) {
    text = readFileSync(file, 'utf8').trim();
    cache.set(file, text);
  }
  return text;
}

/** Keeps the sections of the offered tools, and checks that what is left names none that is not offered. */
function forTools(name: PromptName, text: string, tools: readonly string[] | undefined): string {
  if (!tools) {
    if (text.includes('{{#tool ')) throw new Error(`prompt ${name}.md has tool sections, but no tool list was given`);
    return text;
  }
  const kept = text.replace(SECTION, (_, tool: string, body: string) => (tools.includes(tool) ? body : ''));
  // Names with an underscore only: "finish" is also a plain word.
  const named = TOOLS.map((t) => t.name).find(
    (tool) => tool.includes('_') && !tools.includes(tool) && new RegExp(`\\b${tool}\\b`).test(kept),
  );
  if (named)
    throw new Error(`prompt ${name}.md names ${named}, which is not offered: put it in a {{#tool ${named}}} section`);
  return kept;
}

/** A prompt template from prompts/, with `{{name}}` filled in (unknown names are an error). */
export function renderPrompt(
  name: PromptName,
  values: Record<string, string | number> = {},
  options: PromptOptions = {},
): string {
  const text = forTools(name, template(name, options.dir ?? promptsDir()), options.tools);
  return text.replace(/\{\{(\w+)\}\}/g, (_, key: string) => {
    if (!(key in values)) throw new Error(`prompt ${name}.md uses {{${key}}}, which was not given`);
    return String(values[key]);
  });
}
