import { loadConfig } from '../engine/config/config';
import { sandboxSpec, type SandboxFlags } from '../engine/sandbox/sandbox-spec';
import { TenetError } from '../engine/errors';
import { hideTests } from '../engine/task/hide-tests';
import { openTask } from '../engine/task/open-task';
import { entryFunctions } from '../engine/thm/clustering';
import { runThm, THM_DEFAULTS } from '../engine/thm/run-thm';
import { callTool } from '../engine/tools/call-tool';
import { toolDefinition, TOOLS } from '../engine/tools/registry';
import { closestNames } from '../engine/util/closest';
import { printable, printableJson } from '../engine/terminal-text';
import { EXIT } from '../engine/exit-codes';

export interface ToolCommandOptions {
  name?: string;
  repo?: string;
  target?: string;
  blank?: boolean;
  args: string[];
  selected?: string[];
  /** Hide what a run with THM's selection hides (run_tests always uses a selection). */
  thm?: boolean;
  /** THM's budget for its selection. */
  T?: number;
  python?: string;
  sandbox?: SandboxFlags;
  json?: boolean;
  tests: string[];
}

/** `key=value` → value as JSON when it parses (numbers, booleans), else the plain string. */
function parseToolArgs(pairs: string[]): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    if (eq <= 0)
      throw new TenetError(`--arg ${pair} is not of the form key=value.`, 'e.g. --arg class_name=Cart --arg n=5');
    const raw = pair.slice(eq + 1);
    let value: unknown = raw;
    try {
      const parsed = JSON.parse(raw);
      if (typeof parsed !== 'object' || parsed === null) value = parsed;
    } catch {
      // a plain string
    }
    args[pair.slice(0, eq)] = value;
  }
  return args;
}

function listTools(json: boolean): string {
  if (json) return JSON.stringify(TOOLS.map(toolDefinition), null, 2);
  const width = Math.max(...TOOLS.map((t) => t.name.length));
  return TOOLS.map((t) => {
    const params = Object.keys(t.schema.shape).join(', ');
    return `${`${t.name}(${params})`.padEnd(width + 30)} ${t.description}`;
  }).join('\n');
}

/**
 * `tenet tool NAME`: calls one tool the way the agent would and prints exactly the text the model
 * would receive. Without a name, lists the tools (`--json`: their JSON-schema definitions).
 */
export async function toolCommand(options: ToolCommandOptions): Promise<number> {
  if (!options.name) {
    process.stdout.write(`${listTools(!!options.json)}\n`);
    return EXIT.pass;
  }
  const tool = TOOLS.find((t) => t.name === options.name);
  if (!tool) {
    throw new TenetError(
      `No tool named ${options.name}.` +
        `\n  Closest: ${closestNames(
          options.name,
          TOOLS.map((t) => t.name),
        ).join(', ')}`,
      'run `tenet tool` to list the tools',
    );
  }
  if (!options.repo || !options.target)
    throw new TenetError(
      'tenet tool needs --repo and --target.',
      'e.g. tenet tool search_class --repo . --target pkg/mod.py::func --arg class_name=Cart',
    );
  const args = parseToolArgs(options.args);
  const task = await openTask({
    repo: options.repo,
    target: options.target,
    blank: options.blank ?? false,
    sandbox: sandboxSpec(options.sandbox ?? {}, await loadConfig(options.repo)),
    ...(options.python ? { python: options.python } : {}),
  });
  const { openToolbox } = await import('../engine/tools/toolbox');
  let toolbox: Awaited<ReturnType<typeof openToolbox>> | undefined;
  try {
    let selected: string[] = [];
    if (options.selected || options.thm || tool.name === 'run_tests') {
      // As in a run: THM finds the failing tests (and, without --selected, selects as a run
      // would); those not selected are out of the workspace while the agent works.
      const report = await runThm(task, {
        ...THM_DEFAULTS,
        ...(options.T ? { T: options.T } : {}),
        testArgs: options.tests,
      });
      selected = options.selected ?? report.selected;
      const hide = report.failing.map((f) => f.nodeid).filter((id) => !selected.includes(id));
      await hideTests(task.workspace, task.sandbox, hide, selected, entryFunctions(report.failing));
    } else {
      process.stderr.write(
        'note: no selection, so no test is hidden; a run hides the failing tests it does not select (pass --selected or --thm to see that)\n',
      );
    }
    toolbox = await openToolbox(task, { selectedTests: selected, testArgs: options.tests });
    // A shell command, a submission or the tests run code as the agent's would: the copy is not kept.
    if (tool.changesFiles) task.workspace.ranAgentCode();
    const outcome = await callTool(tool.name, args, toolbox.ctx);
    process.stdout.write(options.json ? `${printableJson(outcome)}\n` : `${printable(outcome.text)}\n`);
    return outcome.ok ? 0 : 2;
  } finally {
    toolbox?.dispose();
    await task.dispose();
  }
}
