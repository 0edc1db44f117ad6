/**
 * The fixed part of every request: the system prompt and the tool schemas, in tokens (o200k_base,
 * the tokenizer of GPT-4o and GPT-4.1). The paper's point: a short fixed prompt leaves the budget
 * to the repository.
 *
 *   npx tsx perf/prompt-size.ts
 */
import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import { renderPrompt } from '../source/engine/agent/prompts';
import { tenetTools } from '../source/engine/run/strategies';
import { toolDefinitions } from '../source/engine/tools/registry';

const system = renderPrompt('system');
const count = (text: string) => encode(text).length;
for (const [label, tools] of [
  ['TENET toolset', tenetTools(false)],
  ['--no-apis (SpecRover AST tools)', tenetTools(true)],
] as const) {
  const schemas = JSON.stringify(toolDefinitions(tools));
  console.log(
    `${label.padEnd(34)} system ${count(system)} + ${tools.length} tool schemas ${count(schemas)} = ${count(system) + count(schemas)} tokens`,
  );
}
