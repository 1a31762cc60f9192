/** What every benchmark shares: the machine it ran on, percentiles, and where results go. */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';

export function machine() {
  return {
    cpus: cpus().length,
    cpu_model: cpus()[0]?.model ?? 'unknown',
    memory_gb: Math.round(totalmem() / 2 ** 30),
    node: process.version,
  };
}

/** One decimal. */
export const round = (x: number) => Math.round(x * 10) / 10;

/** The p-th percentile of ascending `sorted` (nearest rank). */
export function percentile(sorted: readonly number[], p: number): number {
  return sorted[
    Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))
  ]!;
}

/** p50/p95/p99/max of some latencies (ms), one decimal. */
export function latencySummary(values: readonly number[]) {
  const sorted = [...values].sort((a, b) => a - b);
  return {
    p50: round(percentile(sorted, 50)),
    p95: round(percentile(sorted, 95)),
    p99: round(percentile(sorted, 99)),
    max: round(sorted[sorted.length - 1]!),
  };
}

const RESULTS = new URL('../results/', import.meta.url);

/** Writes bench/results/<name>.json. */
export function writeResult(name: string, result: unknown): void {
  mkdirSync(RESULTS, { recursive: true });
  writeFileSync(new URL(`${name}.json`, RESULTS), JSON.stringify(result, null, 2) + '\n');
}

export function readResult<T = any>(name: string): T | undefined {
  try {
    return JSON.parse(readFileSync(new URL(`${name}.json`, RESULTS), 'utf8')) as T;
  } catch {
    return undefined;
  }
}
