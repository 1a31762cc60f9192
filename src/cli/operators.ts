import { recordAudit } from '../audit/index.js';
import { withDatabase } from '../db/open.js';
import { command, parseOptions } from './command.js';
import type { Config } from '../config/index.js';
import {
  createOperator,
  disableOperator,
  isOperatorRole,
  listOperators,
  OPERATOR_ROLES,
  type OperatorListing,
  removeMfa,
  resetOperatorPassword,
} from '../operators/index.js';

export const OPERATORS_USAGE = `Usage:
  tollgate operators create --login L --role viewer|reviewer|admin [--password-stdin]
      create a dashboard operator; a generated password is printed once, as the JSON last line
      {"login","role","password"}. TOLLGATE_OPERATOR_PASSWORD or --password-stdin gives one instead.
  tollgate operators list [--json]             operators, their roles, second factor, and whether disabled
  tollgate operators disable <login>           disable an operator for good; their sessions end
  tollgate operators reset-password <login> [--password-stdin]
      set a new password (generated and printed once, unless given as for create); every session
      of the operator ends
  tollgate operators reset-mfa <login>
      remove the operator's second factor and recovery codes (a lost phone); every session of the
      operator ends, and they set up a new one at their next login if their role requires it`;

/** The audit log's actor for what these commands do. */
const CLI_ACTOR = 'cli';

/** Names the environment variable that supplies a password instead of a generated one. */
const PASSWORD_ENV = 'TOLLGATE_OPERATOR_PASSWORD';

const cmd = command('operators', OPERATORS_USAGE);

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
}

/**
 * The password the operator supplied, if any: --password-stdin, else TOLLGATE_OPERATOR_PASSWORD
 * (a one-off input of this command, read here rather than by the configuration module).
 */
async function suppliedPassword(fromStdin: boolean | undefined): Promise<string | undefined> {
  if (fromStdin) return readStdin();
  const fromEnv = process.env[PASSWORD_ENV];
  return fromEnv ? fromEnv : undefined;
}

function printTable(rows: OperatorListing[]): void {
  if (rows.length === 0) {
    process.stdout.write('No operators.\n');
    return;
  }
  const width = Math.max(5, ...rows.map((r) => r.login.length)) + 2;
  process.stdout.write(
    `${'login'.padEnd(width)}${'role'.padEnd(10)}${'created'.padEnd(26)}${'mfa'.padEnd(5)}state\n`,
  );
  for (const r of rows) {
    const state = r.disabled_at ? `disabled ${r.disabled_at.toISOString()}` : 'active';
    process.stdout.write(
      `${r.login.padEnd(width)}${r.role.padEnd(10)}${r.created_at.toISOString().padEnd(26)}${(r.mfa ? 'on' : 'off').padEnd(5)}${state}\n`,
    );
  }
}

function oneLogin(sub: string, positionals: string[]): string | undefined {
  if (positionals.length === 1) return positionals[0];
  cmd.usage(`operators ${sub} needs exactly one <login>`);
  return undefined;
}

async function run(config: Config, sub: string | undefined, rest: string[]): Promise<void> {
  switch (sub) {
    case 'create': {
      const { values, positionals } = parseOptions({
        args: rest,
        allowPositionals: true,
        options: {
          login: { type: 'string' },
          role: { type: 'string' },
          'password-stdin': { type: 'boolean' },
        },
      });
      if (positionals.length || !values.login || !values.role)
        return cmd.usage(`operators create needs --login and --role`);
      if (!isOperatorRole(values.role))
        return cmd.fail(`--role must be one of ${OPERATOR_ROLES.join(', ')}`, 2);
      const role = values.role;
      const login = values.login;
      const password = await suppliedPassword(values['password-stdin']);
      return withDatabase(config, async (sql) => {
        const created = await createOperator(sql, login, role, password);
        await recordAudit(sql, {
          actor: CLI_ACTOR,
          action: 'operator_create',
          target: created.login,
          details: { role: created.role },
        });
        process.stdout.write(
          `Created operator ${created.login} (${created.role}).${password === undefined ? ' The password is shown once.' : ''}\n`,
        );
        process.stdout.write(
          JSON.stringify(
            password === undefined
              ? { login: created.login, role: created.role, password: created.password }
              : { login: created.login, role: created.role },
          ) + '\n',
        );
      });
    }
    case 'list': {
      const { values } = parseOptions({ args: rest, options: { json: { type: 'boolean' } } });
      return withDatabase(config, async (sql) => {
        const rows = await listOperators(sql);
        if (values.json) process.stdout.write(JSON.stringify(rows) + '\n');
        else printTable(rows);
      });
    }
    case 'disable': {
      const { positionals } = parseOptions({ args: rest, allowPositionals: true, options: {} });
      const login = oneLogin(sub, positionals);
      if (!login) return;
      return withDatabase(config, async (sql) => {
        if (!(await disableOperator(sql, login, { actor: CLI_ACTOR })))
          return cmd.fail(`no active operator with login ${login}`, 1);
        process.stdout.write(`Disabled operator ${login.toLowerCase()}; their sessions ended.\n`);
      });
    }
    case 'reset-password': {
      const { values, positionals } = parseOptions({
        args: rest,
        allowPositionals: true,
        options: { 'password-stdin': { type: 'boolean' } },
      });
      const login = oneLogin(sub, positionals);
      if (!login) return;
      const password = await suppliedPassword(values['password-stdin']);
      return withDatabase(config, async (sql) => {
        const secret = await resetOperatorPassword(sql, login, { actor: CLI_ACTOR }, password);
        if (secret === undefined) return cmd.fail(`no operator with login ${login}`, 1);
        process.stdout.write(
          `New password set for ${login.toLowerCase()}; their sessions ended.${password === undefined ? ' The password is shown once.' : ''}\n`,
        );
        process.stdout.write(
          JSON.stringify(
            password === undefined
              ? { login: login.toLowerCase(), password: secret }
              : { login: login.toLowerCase() },
          ) + '\n',
        );
      });
    }
    case 'reset-mfa': {
      const { positionals } = parseOptions({ args: rest, allowPositionals: true, options: {} });
      const login = oneLogin(sub, positionals);
      if (!login) return;
      return withDatabase(config, async (sql) => {
        const done = await removeMfa(sql, login, { actor: CLI_ACTOR, action: 'mfa_reset' });
        if (!done) return cmd.fail(`no operator with login ${login}`, 1);
        process.stdout.write(
          done.removed
            ? `Second factor of ${login.toLowerCase()} removed; their sessions ended. They set up a new one at their next login if their role requires it.\n`
            : `${login.toLowerCase()} had no second factor; their sessions ended.\n`,
        );
      });
    }
    default:
      return cmd.usage();
  }
}

/** `tollgate operators …`: the dashboard's operator accounts. */
export async function operatorsCommand(config: Config, args: string[]): Promise<void> {
  const [sub, ...rest] = args;
  await cmd.run(() => run(config, sub, rest));
}
