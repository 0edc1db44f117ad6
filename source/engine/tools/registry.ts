import * as z from 'zod';
import { finish } from './finish';
import { runDebuggerCmd } from './debugger-cmd';
import { getCodeAroundLine, readFileTool, viewDirectory } from './file-tools';
import { searchImportStatement } from './import-statements';
import { runTestsTool } from './run-tests';
import { searchClass, searchClassInFile } from './search-class';
import { searchCode, searchCodeInFile } from './search-code';
import { searchMethod, searchMethodInClass, searchMethodInFile } from './search-method';
import { searchSimilarMethod } from './similar-method';
import { submitImplementation, submitTests } from './submit';
import { searchTargetUsage } from './target-usage';
import type { ToolDefinition } from '../protocol/messages';
import type { Tool } from './tool';
import { closestNames } from '../util/closest';

/** Every tool, in the order they are offered to the model. */
export const TOOLS: Tool[] = [
  searchClass,
  searchClassInFile,
  searchMethod,
  searchMethodInClass,
  searchMethodInFile,
  searchCode,
  searchCodeInFile,
  getCodeAroundLine,
  searchSimilarMethod,
  searchTargetUsage,
  searchImportStatement,
  runDebuggerCmd,
  viewDirectory,
  readFileTool,
  submitImplementation,
  runTestsTool,
  submitTests,
  finish,
] as Tool[];

/** SpecRover's AST search API: what the `--no-apis` ablation leaves the model. */
export const AST_TOOLS = [
  'search_class',
  'search_class_in_file',
  'search_method',
  'search_method_in_class',
  'search_method_in_file',
  'search_code',
  'search_code_in_file',
  'get_code_around_line',
];

export function toolNamed(name: string): Tool | undefined {
  return TOOLS.find((t) => t.name === name);
}

/**
 * The tools a wrong name most likely meant, for "did you mean": those of its first word (submit_code:
 * submit_implementation or submit_tests, both named when the word has two), else the nearest
 * spellings. Edits alone offered search_code for submit_code.
 */
export function closestTools(name: string, among: readonly string[]): string[] {
  const word = name.split('_')[0];
  const same = among.filter((tool) => tool.split('_')[0] === word && tool !== name);
  if (same.length === 1 || same.length === 2) return same;
  return closestNames(name, same.length ? same : among, 1);
}

export function toolDefinition(tool: Tool): ToolDefinition {
  const schema = z.toJSONSchema(tool.schema, { io: 'input' }) as Record<string, unknown>;
  delete schema.$schema;
  return { name: tool.name, description: tool.description, parameters: schema };
}

/**
 * The definitions of the named tools, always in the registry's order whatever the order asked: the
 * tools open every request's prompt, and the provider's prompt cache only reuses a prefix that is
 * the same byte for byte.
 */
export function toolDefinitions(names: readonly string[]): ToolDefinition[] {
  for (const name of names) if (!toolNamed(name)) throw new Error(`unknown tool ${name}`);
  return TOOLS.filter((tool) => names.includes(tool.name)).map(toolDefinition);
}
