import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { stateDir } from './state-dir';

/**
 * Answers that cost a process start to get (which interpreter a shim runs, what an interpreter
 * has), kept in a file of the state folder between runs. Each is kept with a fingerprint of what
 * it was worked out from; a caller recalls it only while that fingerprint is the same.
 */

/** Answers kept per file: those asked last. */
const MAX_ANSWERS = 200;

export interface KeptAnswer<T> {
  fingerprint: string;
  value: T;
  at: number;
}

/** What changes when a file or folder is written, replaced, or has entries added or removed. */
export function fileSignature(path: string): string {
  try {
    const info = statSync(path);
    return `${info.ino}:${info.size}:${info.mtimeMs}`;
  } catch {
    return '-';
  }
}

/** The variables of `env` whose names `wanted` keeps, as `NAME=value` in name order: a fingerprint's part. */
export function variablesOf(env: NodeJS.ProcessEnv, wanted: (name: string) => boolean): string[] {
  return Object.keys(env)
    .filter(wanted)
    .sort()
    .map((name) => `${name}=${env[name]}`);
}

export function fingerprintOf(parts: string[]): string {
  return createHash('sha256').update(parts.join('\0')).digest('hex');
}

function answersFile(name: string, env: NodeJS.ProcessEnv): string {
  return join(stateDir(env), name);
}

function readAnswers<T>(name: string, env: NodeJS.ProcessEnv): Record<string, KeptAnswer<T>> {
  try {
    const answers: unknown = JSON.parse(readFileSync(answersFile(name, env), 'utf8'));
    return answers && typeof answers === 'object' ? (answers as Record<string, KeptAnswer<T>>) : {};
  } catch {
    return {};
  }
}

/** The answer kept under `key` in the file `name`, whatever its fingerprint (the caller compares). */
export function keptAnswer<T>(name: string, key: string, env: NodeJS.ProcessEnv): KeptAnswer<T> | undefined {
  const answer = readAnswers<T>(name, env)[key];
  return answer && typeof answer.fingerprint === 'string' && answer.value !== undefined ? answer : undefined;
}

/** Keeps an answer for the next run; nothing where the state folder cannot be written. */
export function keepAnswer<T>(name: string, key: string, fingerprint: string, value: T, env: NodeJS.ProcessEnv): void {
  const answers = readAnswers<T>(name, env);
  answers[key] = { fingerprint, value, at: Date.now() };
  const kept = Object.entries(answers)
    .sort(([, a], [, b]) => b.at - a.at)
    .slice(0, MAX_ANSWERS);
  const file = answersFile(name, env);
  try {
    mkdirSync(dirname(file), { recursive: true });
    // Whole or not at all: another tenet may read it at the same moment.
    const temporary = `${file}.${process.pid}.tmp`;
    writeFileSync(temporary, JSON.stringify(Object.fromEntries(kept)));
    renameSync(temporary, file);
  } catch {
    // A state folder that cannot be written costs the next run a process start, nothing more.
  }
}
