#!/usr/bin/env node
import { recordAudit } from './audit/index.js';
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseOptions } from './cli/command.js';
import {
  ConfigError,
  loadConfig,
  unknownConfigFileKeys,
  unknownEnvVariables,
  type Config,
} from './config/index.js';
import { startAppliance, type Appliance, type Roles } from './appliance.js';
import { openDatabase, withDatabase } from './db/open.js';
import {
  countActiveApiKeys,
  createApiKey,
  keyNameProblem,
  listApiKeys,
  MAX_KEY_OVERLAP_HOURS,
  revokeApiKey,
  rotateApiKey,
} from './keys/index.js';
import { describeError, PermanentError } from './errors.js';
import { log } from './log.js';
import type { Sql } from './db/index.js';
import { LABELS_USAGE, labelsCommand } from './cli/labels.js';
import { VASPS_USAGE, vaspsCommand } from './cli/vasps.js';
import { OPERATORS_USAGE, operatorsCommand } from './cli/operators.js';
import { TRAVEL_ADDRESS_USAGE, travelAddressCommand } from './cli/travel-address.js';
import { DATA_KEY_USAGE, dataKeyCommand } from './cli/data-key.js';
import { TLS_USAGE, tlsCommand } from './cli/tls.js';
import { AUDIT_USAGE, auditCommand } from './cli/audit.js';
import { INDEXER_USAGE, indexerCommand } from './cli/indexer.js';
import { DOCTOR_USAGE, doctorCommand } from './cli/doctor.js';
import { guardPostgresDefects } from './db/connection-guard.js';
import { DatabaseUnreachableError } from './db/reach.js';
import { DatabaseNewerError } from './db/migrate.js';
import { startWhenDatabaseServes } from './db/start-wait.js';
import { UnpatchedDriverError } from './db/patched-driver.js';
import { apiContract } from './api/contract.js';

const USAGE = `Usage: tollgate <command>

  start                      all roles in one process (API, worker, indexers; dev chain if no RPC)
  api                        the HTTPS API only
  worker                     the job worker only (webhook delivery)
  indexer [--network X]      the indexers only (all configured networks, or X; repeatable)
  indexer status [--json]    per network: head, indexed block, lag, last reorg, halted, node behind or running
  indexer resume --network X [--allow-deep-reorg]
                             lift a halt of X's indexer (a reorg past finality, a node contradicting itself)
  migrate                    apply database migrations and exit
  doctor [--network X] [--smtp] [--json]
                             check each configured node for the RPC methods and settings Tollgate needs,
                             and the SMTP relay of the e-mail fallback (connect, TLS, login; nothing sent)
  keys create --name N       create an API key; prints {"apikey","webhook_secret"} as its last line
  keys list [--json]         list API keys (never the keys themselves)
  keys revoke <id|prefix>    revoke an API key
  keys rotate <id|prefix> [--overlap-hours H]
                             a new secret for the key, same key; the old one works H more hours
  labels import FILE [--format ofac|csv|tagpack] [--source NAME] [--replace]
                             import AML labels (OFAC list or CSV); prints the counts as JSON last
  labels stats [--json]      labels per source and category, and the last import
  vasps add --name N --website URL [--uid U] [--legal-name L] [--country XX] [--trp-endpoint URL]
            [--trp-tls-cert FILE] [--email E]
                             add a VASP to the directory; prints it with its inbound_url as JSON last
  vasps list [--json] | show <uid> | remove <uid> | rotate-token <uid> | import FILE
                             the Travel Rule VASP directory
  operators create --login L --role viewer|reviewer|admin [--password-stdin]
                             create a dashboard operator; prints {"login","role","password"} last
  operators list [--json] | disable <login> | reset-password <login> [--password-stdin]
            | reset-mfa <login>
                             dashboard operator accounts; a credential change ends their sessions
  travel-address --key NAME --network N --address A
                             the Travel Address (ta…) of a customer's deposit address, as JSON
  data-key rotate [--batch N] [--json] | status [--json]
                             re-seal stored personal data and TOTP secrets under the current data
                             key; rows still under each old key (when one can be removed)
  tls dev-ca --out DIR | dev-cert --ca DIR --host H --out DIR | fingerprint FILE
                             development certificates for TRP's mutual TLS; fingerprints to pin
  openapi                    print the API's OpenAPI 3.1 document (as served at /docs/openapi.json)
  audit verify [--json]      check the audit log's hash chain (exit 1 when an entry was edited or deleted)

Every command takes --help (its usage; nothing else happens).
Exit codes: 0 done; 1 failed or refused (the reason on stderr); 2 a usage or configuration error.
Logs go to stderr, as JSON lines; stdout carries only the command's output.

Configuration: config/default.json, the file in TOLLGATE_CONFIG, then TOLLGATE_* variables (see README).`;

const ROLE_USAGE = (role: string, what: string) => `Usage:
  tollgate ${role}
      ${what}; runs until SIGTERM or SIGINT (Ctrl-C), then stops in order and exits 0`;

const KEYS_USAGE = `Usage:
  tollgate keys create --name N
      create an API key; prints {"apikey","webhook_secret"} as its last line (shown once)
  tollgate keys list [--json]
      list API keys (id, prefix, name, created, revoked; never the keys themselves)
  tollgate keys revoke <id|prefix>
      revoke an API key
  tollgate keys rotate <id|prefix> [--overlap-hours H]
      a new secret for the key, keeping everything of it (streams, trackings, transfers, events,
      webhook secret); the replaced one is accepted for H more hours (default 24, 0 to 720;
      0: refused at once). Prints {"id","apikey","previous_until"} as its last line (shown once)`;

/** Each command's usage, printed by `tollgate <command> --help` before anything else happens. */
const COMMAND_USAGE: Record<string, string> = {
  start: ROLE_USAGE(
    'start',
    'all roles in one process (API, worker, indexers; dev chain if no RPC)',
  ),
  api: ROLE_USAGE('api', 'the HTTPS API only'),
  worker: ROLE_USAGE(
    'worker',
    'the job worker only (webhook delivery, NFT metadata, live AML, Travel Rule)',
  ),
  indexer: INDEXER_USAGE,
  migrate: `Usage:
  tollgate migrate
      apply database migrations and exit`,
  doctor: DOCTOR_USAGE,
  keys: KEYS_USAGE,
  labels: LABELS_USAGE,
  vasps: VASPS_USAGE,
  operators: OPERATORS_USAGE,
  'travel-address': TRAVEL_ADDRESS_USAGE,
  'data-key': DATA_KEY_USAGE,
  tls: TLS_USAGE,
  audit: AUDIT_USAGE,
  openapi: `Usage:
  tollgate openapi
      print the API's OpenAPI 3.1 document as JSON (needs no configuration or database; the
      appliance serves the same at /docs/openapi.json and /v2/openapi.json)`,
};

function fail(message: string, code = 2): never {
  process.stderr.write(message.endsWith('\n') ? message : message + '\n');
  process.exit(code);
}

/**
 * Runs until SIGTERM/SIGINT, then stops in order and exits 0, whatever happened before (the stop
 * carries through every step and never throws). A second signal exits at once. The handlers are
 * in place before the start: a signal while the appliance is still starting (migrations, the
 * bundled label import) is kept, and the stop follows as soon as the start is done, rather than
 * the signal ending the process half-started.
 */
function handleSignals(): { started(appliance: Appliance): boolean; stopping(): boolean } {
  let appliance: Appliance | undefined;
  let stopping = false;
  const stop = () => {
    log.info('stopping: finishing in-flight work');
    void appliance!.stop().finally(() => process.exit(0));
  };
  const onSignal = (signal: string) => {
    if (stopping) {
      log.warn({ signal }, 'second signal: exiting now');
      process.exit(1);
    }
    stopping = true;
    if (appliance) {
      log.info({ signal }, 'signal received');
      stop();
    } else log.info({ signal }, 'signal received while starting: stopping once started');
  };
  process.on('SIGTERM', () => onSignal('SIGTERM'));
  process.on('SIGINT', () => onSignal('SIGINT'));
  // Started by bin/tollgate.mjs (a launcher holding an IPC channel to it): the launcher gone
  // (killed with SIGKILL, which it cannot pass on) is a stop as a signal is. The process ran on
  // without it, and a supervisor that had killed the launcher's pid started a second one, which
  // found the port taken (found by an outside fault harness).
  if (process.channel) {
    process.channel.unref();
    process.once('disconnect', () => onSignal('its launcher exited'));
  }
  return {
    /** Whether a signal came (before the start is handed over: it is not to be started). */
    stopping: () => stopping,
    /** Hands over the started appliance; true when a signal came meanwhile (it is stopping now). */
    started: (a) => {
      appliance = a;
      if (stopping) stop();
      return stopping;
    },
  };
}

/**
 * Where first credentials go when stdout is not a terminal (a container's log, a service's
 * journal, a pipe): not into that log, but into a file of the data dir only its owner may read.
 * Returns the file's path.
 */
function credentialsFile(config: Config, credentials: Record<string, string>): string {
  const file = join(config.data_dir, 'initial-credentials.json');
  writeFileSync(
    file,
    `${JSON.stringify({ ...credentials, created_at: new Date().toISOString(), note: 'Shown once: store these, then delete this file.' }, null, 2)}\n`,
    { mode: 0o600 },
  );
  chmodSync(file, 0o600); // an existing file keeps its mode on overwrite
  return file;
}

/**
 * The first start gives a key to try the API with; the bootstrap key (made by startAppliance
 * before the API listened) is announced when it was just made. On a terminal the secrets are
 * printed; anywhere else they go to a file only the owner reads (credentialsFile).
 */
async function ensureKeys(
  sql: Sql,
  config: Config,
  apiPort: number | undefined,
  bootstrapKey: Appliance['bootstrapKey'],
): Promise<void> {
  const base = `https://localhost:${apiPort ?? config.port}/v2`;
  const terminal = process.stdout.isTTY === true;
  if (bootstrapKey) {
    const { created, webhook_secret } = bootstrapKey;
    if (created) {
      process.stdout.write(
        terminal
          ? `\nBootstrap API key created (TOLLGATE_BOOTSTRAP_API_KEY).\nWebhook signing secret: ${webhook_secret}\n(shown once; store it now)\n\n`
          : `\nBootstrap API key created (TOLLGATE_BOOTSTRAP_API_KEY). Its webhook signing secret is in ${credentialsFile(config, { webhook_secret })} (readable by its owner only): store it, then delete the file.\n\n`,
      );
    }
    return;
  }
  if ((await countActiveApiKeys(sql)) > 0) {
    process.stdout.write(
      `\nTollgate is running: ${base}  (create a key with: npm run tollgate -- keys create --name NAME)\n\n`,
    );
    return;
  }
  const key = await createApiKey(sql, 'default');
  if (!terminal) {
    const file = credentialsFile(config, {
      apikey: key.apikey,
      webhook_secret: key.webhook_secret,
    });
    process.stdout.write(
      `\nTollgate is running: ${base}\n\n  An API key and its webhook signing secret were created: they are in ${file} (readable by its owner only). Store them, then delete the file.\n\n`,
    );
    return;
  }
  process.stdout.write(
    `\nTollgate is running: ${base}\n\n` +
      `  API key:                ${key.apikey}\n` +
      `  Webhook signing secret: ${key.webhook_secret}\n` +
      `  (shown once: store them now; more keys with: npm run tollgate -- keys create --name NAME)\n\n` +
      `Try it:\n  curl -k -H "apikey: ${key.apikey}" "${base}/stream/list"\n\n`,
  );
}

function parseKeysArgs(args: string[]) {
  return parseOptions({
    args,
    options: {
      name: { type: 'string' },
      json: { type: 'boolean' },
      'overlap-hours': { type: 'string' },
    },
    allowPositionals: true,
  });
}

/** The audit log's actor for what the CLI changes. */
const CLI_ACTOR = 'cli';

async function keysCommand(config: Config, args: string[]): Promise<void> {
  let parsed: ReturnType<typeof parseKeysArgs>;
  try {
    parsed = parseKeysArgs(args);
  } catch (err) {
    // An option parseArgs refuses (unknown, or without its value): a usage error, as elsewhere.
    if (!String((err as { code?: unknown }).code ?? '').startsWith('ERR_PARSE_ARGS_')) throw err;
    fail(`tollgate keys: ${(err as Error).message}\n\n${KEYS_USAGE}`);
  }
  const { values, positionals } = parsed;
  const [sub, target] = positionals;
  // Arguments first: a refusal after the database is open would leave an embedded one running.
  if (sub !== 'create' && sub !== 'list' && sub !== 'revoke' && sub !== 'rotate')
    fail(sub ? `tollgate keys: unknown subcommand "${sub}"\n\n${KEYS_USAGE}` : KEYS_USAGE);
  // One key a command: `keys revoke 5 6` revoked 5 and said nothing of 6 (found by an outside probe).
  const extra = positionals.slice(sub === 'revoke' || sub === 'rotate' ? 2 : 1);
  if (extra.length)
    fail(
      `tollgate keys ${sub}: unexpected argument "${extra[0]}" (one key a command)\n\n${KEYS_USAGE}`,
    );
  if (sub === 'create' && !values.name) fail('keys create needs --name NAME');
  const nameProblem = sub === 'create' ? keyNameProblem(values.name!) : undefined;
  if (nameProblem) fail(`tollgate keys create: ${nameProblem}`);
  if ((sub === 'revoke' || sub === 'rotate') && !target)
    fail(`keys ${sub} needs the key id or its 8-character prefix`);
  const overlap = Number(values['overlap-hours'] ?? 24);
  if (
    sub === 'rotate' &&
    (!/^\d+(\.\d+)?$/.test(values['overlap-hours'] ?? '24') || overlap > MAX_KEY_OVERLAP_HOURS)
  )
    fail(
      `keys rotate --overlap-hours must be a number of hours from 0 to ${MAX_KEY_OVERLAP_HOURS}`,
    );
  await withDatabase(config, async (sql) => {
    if (sub === 'create') {
      const name = values.name!;
      const key = await createApiKey(sql, name);
      await recordAudit(sql, {
        actor: CLI_ACTOR,
        action: 'apikey_create',
        target: String(key.id),
        details: { name },
      });
      process.stdout.write(`Created API key ${key.id} (${name}). Both values are shown once.\n`);
      process.stdout.write(
        JSON.stringify({ apikey: key.apikey, webhook_secret: key.webhook_secret }) + '\n',
      );
    } else if (sub === 'list') {
      const rows = await listApiKeys(sql);
      if (values.json) {
        const list = rows.map((r) => ({
          id: r.id,
          prefix: r.key_prefix,
          name: r.name,
          created_at: new Date(r.created_at).toISOString(),
          revoked_at: r.revoked_at ? new Date(r.revoked_at).toISOString() : null,
        }));
        process.stdout.write(`${JSON.stringify(list)}\n`);
        return;
      }
      for (const r of rows) {
        process.stdout.write(
          `${r.id}\t${r.key_prefix}…\t${r.name}\tcreated ${new Date(r.created_at).toISOString()}${r.revoked_at ? `\trevoked ${new Date(r.revoked_at).toISOString()}` : ''}\n`,
        );
      }
      if (rows.length === 0) process.stdout.write('No API keys.\n');
    } else if (sub === 'rotate') {
      let rotated: Awaited<ReturnType<typeof rotateApiKey>>;
      try {
        rotated = await rotateApiKey(sql, target!, overlap);
      } catch (err) {
        if (!(err instanceof PermanentError)) throw err;
        process.stderr.write(`tollgate keys: ${err.message}\n`);
        process.exitCode = 1;
        return;
      }
      if (!rotated) {
        process.stderr.write(`tollgate keys: no active key with id or prefix ${target}\n`);
        process.exitCode = 1;
        return;
      }
      await recordAudit(sql, {
        actor: CLI_ACTOR,
        action: 'apikey_rotate',
        target: String(rotated.id),
        details: { overlap_hours: overlap },
      });
      process.stdout.write(
        `Rotated API key ${rotated.id} (${rotated.name}): the new key is shown once${rotated.previous_until ? `; the old one is accepted until ${rotated.previous_until.toISOString()}` : '; the old one is refused from now on'}.\n`,
      );
      process.stdout.write(
        `${JSON.stringify({ id: rotated.id, apikey: rotated.apikey, previous_until: rotated.previous_until?.toISOString() ?? null })}\n`,
      );
    } else {
      const n = await revokeApiKey(sql, target!);
      if (n === 0) {
        process.stderr.write(`tollgate keys: no active key with id or prefix ${target}\n`);
        process.exitCode = 1;
      } else {
        await recordAudit(sql, {
          actor: CLI_ACTOR,
          action: 'apikey_revoke',
          target: target!,
          details: { keys: n },
        });
        process.stdout.write(`Revoked ${n} key(s).\n`);
      }
    }
  });
}

async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  if (!command || command === '--help' || command === '-h' || command === 'help') {
    process.stdout.write(USAGE + '\n');
    return;
  }
  // --help answers before anything is read, opened or started.
  if (rest.includes('--help') || rest.includes('-h')) {
    const usage = COMMAND_USAGE[command];
    if (!usage) fail(`tollgate: unknown command "${command}"\n\n${USAGE}`);
    process.stdout.write(`${usage}\n`);
    return;
  }
  // Needs no configuration and no database.
  if (command === 'tls') return tlsCommand(rest);
  // Commands that take no arguments refuse any before they run: `migrate --dry-run` migrated
  // (found by an outside probe).
  if (['start', 'api', 'worker', 'migrate', 'openapi'].includes(command) && rest.length)
    fail(`tollgate ${command} takes no arguments (given: ${rest[0]})\n\n${COMMAND_USAGE[command]}`);
  if (command === 'openapi') {
    process.stdout.write(`${JSON.stringify(apiContract(), null, 2)}\n`);
    return;
  }
  let config: Config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) fail(`tollgate: ${err.message}`);
    throw err;
  }
  for (const key of unknownConfigFileKeys())
    log.warn(
      { file: process.env.TOLLGATE_CONFIG, key },
      `${key} in TOLLGATE_CONFIG's file is not a setting of this version and is ignored`,
    );
  for (const { name, closest } of unknownEnvVariables())
    log.warn(
      { variable: name, ...(closest ? { did_you_mean: closest } : {}) },
      `${name} is not a setting of this version and is ignored${closest ? `; did you mean ${closest}?` : ''}`,
    );
  const serve = async (roles: Roles) => {
    guardPostgresDefects();
    const signals = handleSignals();
    // An embedded database is this process's own: nothing to wait for.
    const wait = {
      waitMs: config.database_url ? config.database_start_wait_s * 1000 : 0,
      stopping: signals.stopping,
    };
    const appliance = await startWhenDatabaseServes(() => startAppliance(config, roles), wait);
    if (!appliance) {
      log.info('stopped before the database could serve the start');
      process.exit(0);
    }
    if (signals.started(appliance)) return;
    // Serving already: a database restarting now (a session cut, a failover) delays the key
    // check as it would the start, rather than ending a running API.
    if (roles.api)
      await startWhenDatabaseServes(
        () => ensureKeys(appliance.db.sql, config, appliance.apiPort, appliance.bootstrapKey),
        wait,
      );
  };
  switch (command) {
    case 'start':
      return serve({ api: true, worker: true, indexer: 'all', devChain: true });
    case 'api':
      return serve({ api: true, worker: false, indexer: false, devChain: false });
    case 'worker':
      return serve({ api: false, worker: true, indexer: false, devChain: false });
    case 'indexer': {
      if (rest[0] !== undefined && !rest[0].startsWith('-')) return indexerCommand(config, rest);
      let values: { network?: string[] };
      try {
        ({ values } = parseOptions({
          args: rest,
          options: { network: { type: 'string', multiple: true } },
        }));
      } catch (err) {
        if (!String((err as { code?: unknown }).code ?? '').startsWith('ERR_PARSE_ARGS_'))
          throw err;
        fail(`tollgate indexer: ${(err as Error).message}\n\n${COMMAND_USAGE.indexer}`);
      }
      return serve({
        api: false,
        worker: false,
        indexer: values.network?.length ? values.network : 'all',
        devChain: false,
      });
    }
    case 'migrate': {
      const db = await openDatabase(config);
      await db.close();
      process.stdout.write('Migrations applied.\n');
      return;
    }
    case 'doctor':
      return doctorCommand(config, rest);
    case 'keys':
      return keysCommand(config, rest);
    case 'labels':
      return labelsCommand(config, rest);
    case 'vasps':
      return vaspsCommand(config, rest);
    case 'operators':
      return operatorsCommand(config, rest);
    case 'audit':
      return auditCommand(config, rest);
    case 'travel-address':
      return travelAddressCommand(config, rest);
    case 'data-key':
      return dataKeyCommand(config, rest);
    default:
      fail(`tollgate: unknown command "${command}"\n\n${USAGE}`);
  }
}

main(process.argv.slice(2)).catch((err: unknown) => {
  // What the start refuses (a database it cannot use, a database driver installed without its
  // patch) is said plainly.
  if (
    err instanceof DatabaseUnreachableError ||
    err instanceof UnpatchedDriverError ||
    err instanceof DatabaseNewerError
  )
    fail(`tollgate: ${err.message}`, 1);
  // A setting found unusable only once it is used (a file it names): a configuration error.
  if (err instanceof ConfigError) fail(`tollgate: ${err.message}`);
  log.fatal({ error: describeError(err) }, 'tollgate failed');
  process.exit(1);
});
