import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import { TenetError } from '../errors';
import { SANDBOX_KINDS, STRATEGIES } from '../protocol/settings';

/** USD per million tokens; cachedInput (read from the prompt cache) and cacheWrite cost what input costs when left out. */
const price = z.strictObject({ input: z.number().min(0), output: z.number().min(0), cachedInput: z.number().min(0).optional(), cacheWrite: z.number().min(0).optional() });

/** What a config file may set. Flags override the project file, which overrides the user file. */
export const configSchema = z
  .object({
    provider: z.enum(['openai', 'anthropic', 'scripted']),
    model: z.string().min(1),
    baseUrl: z.string().url(),
    temperature: z.number().min(0).max(2),
    maxTokens: z.number().int().positive(),
    timeoutSec: z.number().positive(),
    maxRetries: z.number().int().min(1).max(20),
    /** The longest wait a server's Retry-After gets (seconds); longer ones are cut to it. */
    maxRetryAfterSec: z.number().min(0),
    prices: z.record(z.string(), price),
    pregenRounds: z.number().int().positive(),
    rrwAttempts: z.number().int().min(0),
    rrwRounds: z.number().int().positive(),
    testTimeout: z.number().positive(),
    strategy: z.enum(STRATEGIES),
    tddIterations: z.number().int().positive(),
    sessionsDir: z.string(),
    sandbox: z.enum(SANDBOX_KINDS),
    image: z.string().min(1),
    dockerHost: z.string().min(1),
    docker: z
      .object({
        memory: z.union([z.string(), z.number().positive()]),
        cpus: z.number().positive(),
        pids: z.number().int().min(16),
        tmp: z.union([z.string(), z.number().positive()]),
        network: z.boolean(),
        mount: z.boolean(),
      })
      .partial()
      .strict(),
  })
  .partial()
  .strict();

export type TenetConfig = z.infer<typeof configSchema>;

function userConfigFile(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_CONFIG_HOME ? resolve(env.XDG_CONFIG_HOME) : join(homedir(), '.config');
  return join(base, 'tenet', 'config.json');
}

function projectConfigFile(repoDir: string): string {
  return join(resolve(repoDir), '.tenet.json');
}

function readConfig(file: string): TenetConfig {
  if (!existsSync(file)) return {};
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new TenetError(`Config file ${file} is not valid JSON: ${(error as Error).message}`, 'fix the file or remove it');
  }
  const parsed = configSchema.safeParse(data);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join('.') || '(top level)'}: ${i.message}`).join('; ');
    throw new TenetError(`Config file ${file} has invalid settings: ${issues}`, `allowed keys: ${Object.keys(configSchema.shape).join(', ')}`);
  }
  return parsed.data;
}

/** The user file, then the project's `.tenet.json` on top. */
export function loadConfig(repoDir: string | undefined, env: NodeJS.ProcessEnv = process.env): TenetConfig {
  const user = readConfig(userConfigFile(env));
  const project = repoDir ? readConfig(projectConfigFile(repoDir)) : {};
  return { ...user, ...project, prices: { ...user.prices, ...project.prices } };
}
