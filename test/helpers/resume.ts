import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { EngineEvent } from '../../source/engine/events';
import { runCli } from './cli';
import { ROOT } from './fixtures';

/** The invoicing example's right answer, as the demo's script submits it. */
export function invoicingAnswer(): string {
  const demo = JSON.parse(readFileSync(join(ROOT, 'examples', 'invoicing.demo.json'), 'utf8')) as {
    turns: { calls?: { name: string; arguments: { code?: string } }[] }[];
  };
  return demo.turns
    .flatMap((t) => t.calls ?? [])
    .filter((c) => c.name === 'submit_implementation')
    .at(-1)!.arguments.code!;
}

/** Resumes session `id` headless (`--json`) with a script that submits the right answer; its events, once it ended well. */
export async function resumeSubmitting(scratch: string, id: string, env: NodeJS.ProcessEnv): Promise<EngineEvent[]> {
  const script = join(scratch, 'submit.json');
  writeFileSync(
    script,
    JSON.stringify({
      turns: [
        { say: 'Submitting.', calls: [{ name: 'submit_implementation', arguments: { code: invoicingAnswer() } }] },
      ],
    }),
  );
  const resumed = await runCli(['resume', id, '--script', script, '--json'], { env });
  expect(resumed.code, resumed.stderr).toBe(0);
  return resumed.stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as EngineEvent);
}
