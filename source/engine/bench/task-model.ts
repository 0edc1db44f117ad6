import { readFileSync } from 'node:fs';
import type { TenetConfig } from '../config/config';
import { TenetError } from '../errors';
import { createModel, type ModelChoice, type ModelFlags } from '../model/create-model';
import { SCRIPT_FORMAT, scriptSchema } from '../model/scripted';
import { checkScriptTools } from '../model/script-tools';
import { taskId, taskTarget, type BenchTask } from './task';

/** What a scripted model's turns may say about the task at hand (JSON-escaped into the script). */
function placeholders(task: BenchTask): Record<string, string> {
  return {
    full_function: task.full_function,
    function_name: task.function_name,
    name: task.function_name.split('.').pop()!,
    target_module_path: task.target_module_path,
    target: taskTarget(task),
    repository: task.repository,
  };
}

/**
 * The model of each task of a run. API models are shared settings; a scripted model is made per
 * task from the script with `{{full_function}}`, `{{function_name}}`, `{{name}}`,
 * `{{target_module_path}}`, `{{target}}` and `{{repository}}` filled in — a script that submits
 * `{{full_function}}` plays the ground truth, which measures the harness, not a model.
 */
export function modelsForTasks(
  config: TenetConfig,
  flags: ModelFlags,
  env: NodeJS.ProcessEnv = process.env,
): (task: BenchTask) => ModelChoice {
  if ((flags.provider ?? config.provider) !== 'scripted') {
    createModel(config, flags, env); // fail before the first task when nothing is configured
    return () => createModel(config, flags, env);
  }
  if (!flags.script)
    throw new TenetError(
      '--provider scripted needs --script FILE.',
      'a JSON file of {"turns": […]}; {{full_function}} in it becomes each task\'s ground truth',
    );
  const file = flags.script;
  const template = readFileSync(file, 'utf8');
  return (task) => {
    const values = placeholders(task);
    const text = template.replace(/\{\{(\w+)\}\}/g, (whole, key: string) =>
      key in values ? JSON.stringify(values[key]).slice(1, -1) : whole,
    );
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (error) {
      throw new TenetError(
        `Model script ${file} is not JSON (with task ${taskId(task)}'s values filled in): ${(error as Error).message}`,
        `pass --script with ${SCRIPT_FORMAT}`,
      );
    }
    const parsed = scriptSchema.safeParse(json);
    if (!parsed.success)
      throw new TenetError(
        `Model script ${file} is not valid: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
        `pass --script with ${SCRIPT_FORMAT}`,
      );
    // Named by its file: createModel, given the script itself, knows no file to name.
    checkScriptTools(parsed.data, file);
    return createModel(config, { provider: 'scripted' }, env, parsed.data);
  };
}
