import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promptsDir } from '../assets';

export type PromptName =
  | 'system'
  | 'task'
  | 'tests'
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
  | 'tdd-then-tenet';

const cache = new Map<string, string>();

/** A prompt template from prompts/, with `{{name}}` filled in (unknown names are an error). */
export function renderPrompt(name: PromptName, values: Record<string, string | number> = {}, dir = promptsDir()): string {
  const file = join(dir, `${name}.md`);
  let template = cache.get(file);
  if (template === undefined) {
    template = readFileSync(file, 'utf8').trim();
    cache.set(file, template);
  }
  return template.replace(/\{\{(\w+)\}\}/g, (_, key: string) => {
    if (!(key in values)) throw new Error(`prompt ${name}.md uses {{${key}}}, which was not given`);
    return String(values[key]);
  });
}
