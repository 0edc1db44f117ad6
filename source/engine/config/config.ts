import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { TenetError } from '../errors';
import type { TenetConfig } from './config-schema';

export type { TenetConfig } from './config-schema';

function userConfigFile(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_CONFIG_HOME ? resolve(env.XDG_CONFIG_HOME) : join(homedir(), '.config');
  return join(base, 'tenet', 'config.json');
}

function projectConfigFile(repoDir: string): string {
  return join(resolve(repoDir), '.tenet.json');
}

async function readConfig(file: string): Promise<TenetConfig> {
  if (!existsSync(file)) return {};
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new TenetError(
      `Config file ${file} is not valid JSON: ${(error as Error).message}`,
      'fix the file or remove it',
    );
  }
  const { configSchema } = await import('./config-schema');
  const parsed = configSchema.safeParse(data);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join('.') || '(top level)'}: ${i.message}`).join('; ');
    throw new TenetError(
      `Config file ${file} has invalid settings: ${issues}`,
      `allowed keys: ${Object.keys(configSchema.shape).join(', ')}`,
    );
  }
  return parsed.data;
}

/** The user file, then the project's `.tenet.json` on top. */
export async function loadConfig(
  repoDir: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
): Promise<TenetConfig> {
  const user = await readConfig(userConfigFile(env));
  const project = repoDir ? await readConfig(projectConfigFile(repoDir)) : {};
  if (project.readPaths)
    throw new TenetError(
      `${projectConfigFile(repoDir!)} sets readPaths: a repository cannot choose what of this machine the sandbox shows.`,
      `remove readPaths from it; put it in ${userConfigFile(env)}, or pass --read PATH`,
    );
  return { ...user, ...project, prices: { ...user.prices, ...project.prices } };
}
