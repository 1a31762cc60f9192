import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * The layers of the code (README, "Layers"), lowest first. A file may import its own layer and
 * the ones below, never one above; and no files import each other in a circle. A folder of src/
 * is named by its name, a top-level file of src/ by its file name.
 */
const LAYERS: readonly (readonly string[])[] = [
  // base: helpers every file may use, and the configuration
  [
    'errors.ts',
    'ids.ts',
    'json.ts',
    'log.ts',
    'paths.ts',
    'secret-files.ts',
    'version.ts',
    'concurrency.ts',
    'slow-step.ts',
    'urls.ts',
    'csv.ts',
    'dates.ts',
    'config',
  ],
  // infrastructure: the database, outbound HTTP, chain clients and units
  ['db', 'net', 'chains'],
  // the webhook outbox: delivers signed bodies, knows no domain
  ['webhooks'],
  // domains: each shows one face, its index.ts (DOMAINS below)
  [
    'keys',
    'audit',
    'streams',
    'wallet',
    'aml',
    'liveaml',
    'txdetail',
    'travelrule',
    'operators',
    'deliveries',
  ],
  // roles and faces: what runs (indexers, job worker and its tasks) and what answers (API, pages)
  ['indexer', 'jobs', 'workers', 'monitoring', 'dashboard', 'api', 'devchain'],
  // entry: the process and its commands
  ['appliance.ts', 'cli.ts', 'cli', 'sealed-columns.ts'],
];

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(name) && !name.endsWith('.d.ts') ? [path] : [];
  });
}

function layerOf(file: string): number {
  const rel = relative(ROOT, file).split('/');
  const unit = rel[0] === 'workers' ? 'workers' : rel[1]!;
  const layer = LAYERS.findIndex((names) => names.includes(unit));
  if (layer === -1) throw new Error(`${relative(ROOT, file)}: no layer for "${unit}"`);
  return layer;
}

/** Relative imports of a file (static, type-only and dynamic), resolved to source files. */
function importsOf(file: string): string[] {
  const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
  return importedFiles
    .map((f) => f.fileName)
    .filter((spec) => spec.startsWith('.'))
    .map((spec) => {
      const js = resolve(dirname(file), spec);
      for (const candidate of [js.replace(/\.js$/, '.ts'), js.replace(/\.js$/, '.tsx')]) {
        try {
          if (statSync(candidate).isFile()) return candidate;
        } catch {}
      }
      throw new Error(`${relative(ROOT, file)}: cannot resolve ${spec}`);
    });
}

/** The domains: a file outside one imports only its index.ts. */
const DOMAINS = LAYERS[3]!;

const files = [...sourceFiles(join(ROOT, 'src')), ...sourceFiles(join(ROOT, 'workers'))];
const graph = new Map(files.map((f) => [f, importsOf(f)]));
const name = (f: string) => relative(ROOT, f);

describe('layers', () => {
  it('puts every file of src/ and workers/ in a layer', () => {
    for (const f of files) expect(() => layerOf(f)).not.toThrow();
  });

  it('reaches a domain only through its face (index.ts) from outside it', () => {
    const deeper: string[] = [];
    for (const [from, targets] of graph)
      for (const to of targets) {
        const [, domain, ...rest] = name(to).split('/');
        if (!DOMAINS.includes(domain!) || rest.join('/') === 'index.ts') continue;
        if (!name(from).startsWith(`src/${domain}/`)) deeper.push(`${name(from)} -> ${name(to)}`);
      }
    expect(deeper).toEqual([]);
  });

  it('has no import from a lower layer into a higher one', () => {
    const upward: string[] = [];
    for (const [from, targets] of graph)
      for (const to of targets)
        if (layerOf(to) > layerOf(from)) upward.push(`${name(from)} -> ${name(to)}`);
    expect(upward.sort()).toEqual([]);
  });

  it('has no import circle', () => {
    // Tarjan's strongly connected components: any with more than one file is a circle.
    const index = new Map<string, number>();
    const low = new Map<string, number>();
    const stack: string[] = [];
    const onStack = new Set<string>();
    const circles: string[][] = [];
    const visit = (v: string) => {
      index.set(v, index.size);
      low.set(v, index.get(v)!);
      stack.push(v);
      onStack.add(v);
      for (const w of graph.get(v) ?? []) {
        if (!index.has(w)) {
          visit(w);
          low.set(v, Math.min(low.get(v)!, low.get(w)!));
        } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
      }
      if (low.get(v) === index.get(v)) {
        const component: string[] = [];
        let w: string;
        do {
          w = stack.pop()!;
          onStack.delete(w);
          component.push(name(w));
        } while (w !== v);
        if (component.length > 1) circles.push(component.sort());
      }
    };
    for (const f of files) if (!index.has(f)) visit(f);
    expect(circles).toEqual([]);
  });
});
