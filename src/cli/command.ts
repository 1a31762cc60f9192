import { parseArgs, type ParseArgsConfig } from 'node:util';
import { PermanentError } from '../errors.js';

/**
 * What the command files of src/cli/ share: how a command says it failed. A usage error (an
 * argument node:util's parseArgs refuses, a missing one) prints the message and the usage, exit
 * code 2; what the command refuses (a PermanentError: a bad file, a conflict, an invalid input)
 * prints its message, exit code 1. Neither prints a stack. Anything else is thrown on to the
 * entry (src/cli.ts), which logs it and exits 1.
 */
export interface Command {
  /** Prints `tollgate <name>: message` on stderr and sets the exit code. */
  fail(message: string, code: number): void;
  /** A usage error: the message, then the usage; exit code 2. */
  usage(message?: string): void;
  /** Runs the command's body with the failures above answered. */
  run(body: () => Promise<void>): Promise<void>;
}

export function command(name: string, usageText: string): Command {
  const fail = (message: string, code: number) => {
    process.stderr.write(`tollgate ${name}: ${message}\n`);
    process.exitCode = code;
  };
  const usage = (message?: string) => fail(message ? `${message}\n\n${usageText}` : usageText, 2);
  return {
    fail,
    usage,
    async run(body) {
      try {
        await body();
      } catch (err) {
        const code = (err as { code?: unknown }).code;
        if (typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS_'))
          return usage((err as Error).message);
        if (err instanceof PermanentError) return fail(err.message, 1);
        throw err;
      }
    },
  };
}

/**
 * node:util's parseArgs, refusing an option with a value given twice (unless it is `multiple`; a
 * flag twice is the flag): parseArgs keeps
 * the last (`keys create --name a --name b` named the key b; found by an outside probe). The
 * refusal carries an ERR_PARSE_ARGS_ code, so it is a usage error as parseArgs's own are.
 */
export function parseOptions<T extends ParseArgsConfig>(
  config: T,
): ReturnType<typeof parseArgs<T>> {
  const { tokens, ...parsed } = parseArgs({ ...config, tokens: true });
  const seen = new Set<string>();
  for (const token of tokens ?? []) {
    if (token.kind !== 'option') continue;
    const option = config.options?.[token.name];
    // A flag given twice means what it means once; a value given twice is a guess.
    if (option?.multiple || option?.type === 'boolean') continue;
    if (seen.has(token.name))
      throw Object.assign(
        new TypeError(`Option '--${token.name}' is given more than once: give it once.`),
        { code: 'ERR_PARSE_ARGS_REPEATED_OPTION' },
      );
    seen.add(token.name);
  }
  return parsed as ReturnType<typeof parseArgs<T>>;
}
