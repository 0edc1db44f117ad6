import { join } from 'node:path';
import { installRoot } from '../engine/assets';
import { TenetError } from '../engine/errors';
import type { SandboxFlags } from '../engine/sandbox/sandbox-spec';
import { runCommand } from './run';

/** The built-in example: a stub with tests, in examples/invoicing, and a script for it. */
export const DEMO = {
  repo: () => join(installRoot(), 'examples', 'invoicing'),
  /** The demo model's script: the TENET pipeline, or the TDD-Agent workflow (`--strategy tdd`). */
  script: (strategy: 'tenet' | 'tdd' = 'tenet') =>
    join(installRoot(), 'examples', strategy === 'tdd' ? 'invoicing.tdd.json' : 'invoicing.demo.json'),
  target: 'invoicing/tax.py::tax_for',
};

/** `tenet demo --plan`: a module of three stubs (examples/shipping), `quote` needing the two after it. */
export const PLAN_DEMO = {
  repo: () => join(installRoot(), 'examples', 'shipping'),
  script: () => join(installRoot(), 'examples', 'shipping.demo.json'),
  target: 'shipping/quote.py',
};

export interface DemoOptions {
  json: boolean;
  /** `--live`: the configured model (or --provider/--model/--base-url) answers instead of the script, at the account's cost. */
  live?: boolean;
  provider?: string;
  model?: string;
  baseUrl?: string;
  contextWindow?: number;
  sessionsDir?: string;
  tui?: boolean;
  approve?: 'ask' | 'auto';
  sandbox?: SandboxFlags;
  strategy?: 'tenet' | 'tdd';
  /** Step mode from the start (the start screen's `d` with `tenet --step`). */
  step?: boolean;
  /** `--plan`: the example of a plan (every stub of a module, one at a time) instead of the one-function demo. */
  plan?: boolean;
}

/**
 * `tenet demo` (what `npm start` runs): a real session on the example — THM, tools, tests and
 * evaluation all run — with the scripted demo model, whatever keys the environment holds: a
 * newcomer expects the offline demo, not a paid model. `--live` runs it with the configured model,
 * and says which and that it costs money.
 */
export async function demoCommand(options: DemoOptions): Promise<number> {
  const strategy = options.strategy ?? 'tenet';
  if (options.plan && options.strategy === 'tdd')
    throw new TenetError(
      'tenet demo --plan plays the TENET pipeline; its script has no TDD-Agent workflow.',
      'leave out --strategy tdd, or run `tenet run --target FILE --strategy tdd` on a module of yours',
    );
  const example = options.plan
    ? PLAN_DEMO
    : { repo: DEMO.repo, script: () => DEMO.script(strategy), target: DEMO.target };
  const asked = [
    options.provider && options.provider !== 'scripted' ? `--provider ${options.provider}` : '',
    options.model ? '--model' : '',
    options.baseUrl ? '--base-url' : '',
  ].filter(Boolean);
  if (!options.live && asked.length) {
    throw new TenetError(
      `tenet demo plays the scripted demo model; ${asked.join(', ')} choose${asked.length === 1 ? 's' : ''} a real one.`,
      'add --live to run the demo with that model (its calls are billed to your account)',
    );
  }
  const flags = {
    ...(options.provider ? { provider: options.provider } : {}),
    ...(options.model ? { model: options.model } : {}),
    ...(options.baseUrl ? { baseUrl: options.baseUrl } : {}),
    ...(options.contextWindow ? { contextWindow: options.contextWindow } : {}),
  };
  if (options.live) {
    // Which model, before anything runs: a live demo is a paid one. (Loaded here, not at start: the
    // start screen, which can start the demo, draws its first frame without the providers.)
    const [{ loadConfig }, { createModel }] = await Promise.all([
      import('../engine/config/config'),
      import('../engine/model/create-model'),
    ]);
    const chosen = createModel(await loadConfig(example.repo()), flags);
    if (chosen.settings.provider !== 'scripted')
      process.stderr.write(
        `tenet demo --live: ${chosen.model.label} answers; its calls cost money (billed to the account of its API key).\n`,
      );
  }
  return runCommand({
    settings: { strategy },
    ...(options.sandbox ? { sandbox: options.sandbox } : {}),
    tui: options.tui ?? false,
    ...(options.step ? { step: true } : {}),
    ...(options.approve ? { approve: options.approve } : {}),
    ...(options.sessionsDir ? { sessionsDir: options.sessionsDir } : {}),
    repo: example.repo(),
    copyOfExample: true,
    target: example.target,
    testArgs: [],
    json: options.json,
    // Not live: the script, whatever the environment or the config files name.
    model: options.live ? flags : { ...flags, provider: 'scripted' },
    ...(options.live
      ? {}
      : {
          fallbackScript: (await import('../engine/model/scripted')).loadScript(example.script()),
          fallbackScriptFile: example.script(),
        }),
  });
}
