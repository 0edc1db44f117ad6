import { join } from 'node:path';
import { installRoot } from '../engine/assets';
import { loadScript } from '../engine/model/scripted';
import type { SandboxFlags } from '../engine/sandbox/sandbox-spec';
import { runCommand } from './run';

/** The built-in example: a stub with tests, in examples/invoicing, and a script for it. */
export const DEMO = {
  repo: () => join(installRoot(), 'examples', 'invoicing'),
  /** The demo model's script: the TENET pipeline, or the TDD-Agent workflow (`--strategy tdd`). */
  script: (strategy: 'tenet' | 'tdd' = 'tenet') => join(installRoot(), 'examples', strategy === 'tdd' ? 'invoicing.tdd.json' : 'invoicing.demo.json'),
  target: 'invoicing/tax.py::tax_for',
};

/**
 * `tenet demo` (what `npm start` runs): a real session on the example — THM, tools, tests and
 * evaluation all run — with the scripted demo model unless a provider is configured.
 */
export async function demoCommand(options: { json: boolean; provider?: string; model?: string; baseUrl?: string; sessionsDir?: string; tui?: boolean; approve?: 'ask' | 'auto'; sandbox?: SandboxFlags; strategy?: 'tenet' | 'tdd' }): Promise<number> {
  const strategy = options.strategy ?? 'tenet';
  return runCommand({
    settings: { strategy },
    ...(options.sandbox ? { sandbox: options.sandbox } : {}),
    tui: options.tui ?? false,
    ...(options.approve ? { approve: options.approve } : {}),
    ...(options.sessionsDir ? { sessionsDir: options.sessionsDir } : {}),
    repo: DEMO.repo(),
    copyOfExample: true,
    target: DEMO.target,
    testArgs: [],
    json: options.json,
    model: {
      ...(options.provider ? { provider: options.provider } : {}),
      ...(options.model ? { model: options.model } : {}),
      ...(options.baseUrl ? { baseUrl: options.baseUrl } : {}),
    },
    fallbackScript: loadScript(DEMO.script(strategy)),
    fallbackScriptFile: DEMO.script(strategy),
  });
}
