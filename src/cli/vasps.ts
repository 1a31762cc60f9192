import { recordAudit } from '../audit/index.js';
import { existsSync, readFileSync } from 'node:fs';
import { certificateFingerprints } from '../net/tls-certs.js';
import { basename, resolve } from 'node:path';
import { withDatabase } from '../db/open.js';
import { command, parseOptions } from './command.js';
import { type Config, trpPublicUrl } from '../config/index.js';
import {
  getVasp,
  inboundUrl,
  listAllVasps,
  loadVaspsFile,
  removeVasp,
  rotateInboundToken,
  storeVasps,
  upsertVasp,
  type Vasp,
  VaspInput,
  type VaspWithToken,
} from '../travelrule/index.js';

export const VASPS_USAGE = `Usage:
  tollgate vasps add --name N --website URL [--uid U] [--legal-name L] [--country XX] [--trp-endpoint URL] [--trp-slip0044 number|symbol]
                    [--trp-tls-cert FILE]... [--trp-tls-fingerprint SHA256]... [--email E]
      add a VASP to the directory (or replace the fields of the one with that uid); prints it as JSON last,
      with the inbound_url to hand to that VASP. --trp-tls-cert (a PEM file of the VASP's TLS certificate)
      or --trp-tls-fingerprint pins the certificate its TRP server presents and its messages must come with
  tollgate vasps list [--json]          the directory (never the inbound tokens)
  tollgate vasps show <uid>             one VASP as JSON (the inbound URL is shown once, when made)
  tollgate vasps remove <uid>           remove a VASP no travel rule transaction names
  tollgate vasps rotate-token <uid>     a new inbound URL for the VASP (the old one stops working)
  tollgate vasps import FILE            add or update the entries of a JSON file (as config/vasps.json)`;

const cmd = command('vasps', VASPS_USAGE);

/** Where other VASPs send TRP messages (trpPublicUrl). */
function publicBase(config: Config): string {
  return trpPublicUrl(config);
}

/**
 * A VASP as printed: every field but the token, which is shown inside inbound_url when this
 * command made it (add of a new VASP); it is not stored (only its hash), so show prints none.
 */
function printable(vasp: VaspWithToken, config: Config) {
  const { inbound_token, ...rest } = vasp;
  return inbound_token === undefined
    ? rest
    : { ...rest, inbound_url: inboundUrl(publicBase(config), inbound_token) };
}

function printTable(rows: Vasp[]): void {
  if (rows.length === 0) {
    process.stdout.write('No VASPs.\n');
    return;
  }
  const width = Math.min(40, Math.max(4, ...rows.map((r) => r.name.length))) + 2;
  process.stdout.write(
    `${'uid'.padEnd(38)}${'name'.padEnd(width)}${'country'.padEnd(9)}${'reached by'.padEnd(12)}website\n`,
  );
  for (const r of rows) {
    const reached = r.trp_endpoint
      ? r.trp_tls_fingerprints.length
        ? 'trp+mtls'
        : 'trp'
      : r.email
        ? 'e-mail'
        : 'nothing';
    process.stdout.write(
      `${r.uid.padEnd(38)}${r.name.padEnd(width)}${(r.country ?? '-').padEnd(9)}${reached.padEnd(12)}${r.website}\n`,
    );
  }
}

/** The audit log's actor for what these commands change. */
const CLI_ACTOR = 'cli';

const ADD_OPTIONS = {
  name: { type: 'string' },
  website: { type: 'string' },
  uid: { type: 'string' },
  'legal-name': { type: 'string' },
  country: { type: 'string' },
  'trp-endpoint': { type: 'string' },
  'trp-slip0044': { type: 'string' },
  email: { type: 'string' },
  'trp-tls-cert': { type: 'string', multiple: true },
  'trp-tls-fingerprint': { type: 'string', multiple: true },
} as const;

async function add(config: Config, args: string[]): Promise<void> {
  const { values, positionals } = parseOptions({
    args,
    options: ADD_OPTIONS,
    allowPositionals: true,
  });
  if (positionals.length) return cmd.usage(`unexpected argument ${positionals[0]}`);
  if (!values.name || !values.website) return cmd.usage(`vasps add needs --name and --website`);
  const pins = [...(values['trp-tls-fingerprint'] ?? [])];
  for (const file of values['trp-tls-cert'] ?? []) {
    if (!existsSync(file)) return cmd.fail(`--trp-tls-cert: no such file: ${file}`, 1);
    try {
      pins.push(...certificateFingerprints(readFileSync(file, 'utf8')));
    } catch (err) {
      return cmd.fail(`--trp-tls-cert ${file}: ${(err as Error).message}`, 2);
    }
  }
  const parsed = VaspInput.safeParse({
    trp_tls_fingerprints: pins.length ? pins : undefined,
    uid: values.uid,
    name: values.name,
    website: values.website,
    legal_name: values['legal-name'],
    country: values.country,
    trp_endpoint: values['trp-endpoint'],
    trp_slip0044: values['trp-slip0044'],
    email: values.email,
  });
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const flag = issue.path[0] === 'trp_tls_fingerprints' ? 'trp_tls_fingerprint' : issue.path[0];
    return cmd.fail(`--${String(flag ?? 'name').replace(/_/g, '-')}: ${issue.message}`, 2);
  }
  await withDatabase(config, async (sql) => {
    const existed = parsed.data.uid ? (await getVasp(sql, parsed.data.uid)) !== undefined : false;
    const vasp = await upsertVasp(sql, parsed.data, 'cli');
    await recordAudit(sql, {
      actor: CLI_ACTOR,
      action: existed ? 'vasp_update' : 'vasp_create',
      target: vasp.uid,
    });
    process.stdout.write(
      `${existed ? 'Updated' : 'Added'} VASP ${vasp.uid} (${vasp.name}). Hand it the inbound_url: its TRP inquiries go there.\n`,
    );
    process.stdout.write(JSON.stringify(printable(vasp, config)) + '\n');
  });
}

function oneUid(sub: string, args: string[]): string | undefined {
  const { positionals } = parseOptions({ args, allowPositionals: true, options: {} });
  if (positionals.length !== 1) {
    cmd.usage(`vasps ${sub} needs exactly one <uid>`);
    return undefined;
  }
  return positionals[0];
}

async function run(config: Config, sub: string | undefined, rest: string[]): Promise<void> {
  switch (sub) {
    case 'add':
      return add(config, rest);
    case 'list': {
      const { values } = parseOptions({ args: rest, options: { json: { type: 'boolean' } } });
      return withDatabase(config, async (sql) => {
        const rows = await listAllVasps(sql);
        if (values.json) process.stdout.write(JSON.stringify(rows) + '\n');
        else printTable(rows);
      });
    }
    case 'show': {
      const uid = oneUid(sub, rest);
      if (!uid) return;
      return withDatabase(config, async (sql) => {
        const vasp = await getVasp(sql, uid);
        if (!vasp) return cmd.fail(`no VASP with uid ${uid}`, 1);
        process.stdout.write(JSON.stringify(printable(vasp, config)) + '\n');
      });
    }
    case 'remove': {
      const uid = oneUid(sub, rest);
      if (!uid) return;
      return withDatabase(config, async (sql) => {
        const outcome = await removeVasp(sql, uid);
        if (outcome === 'not_found') return cmd.fail(`no VASP with uid ${uid}`, 1);
        if (outcome === 'in_use')
          return cmd.fail(
            `VASP ${uid} is named by travel rule transactions and stays in the directory`,
            1,
          );
        await recordAudit(sql, { actor: CLI_ACTOR, action: 'vasp_remove', target: uid });
        process.stdout.write(`Removed VASP ${uid}.\n`);
      });
    }
    case 'rotate-token': {
      const uid = oneUid(sub, rest);
      if (!uid) return;
      return withDatabase(config, async (sql) => {
        const token = await rotateInboundToken(sql, uid);
        if (!token) return cmd.fail(`no VASP with uid ${uid}`, 1);
        // The new token is the inbound URL's credential: never in the entry.
        await recordAudit(sql, { actor: CLI_ACTOR, action: 'vasp_rotate_token', target: uid });
        process.stdout.write(
          `New inbound URL of VASP ${uid} (the old one no longer works; hand this one to the VASP):\n`,
        );
        process.stdout.write(inboundUrl(publicBase(config), token) + '\n');
      });
    }
    case 'import': {
      const { positionals } = parseOptions({ args: rest, allowPositionals: true, options: {} });
      if (positionals.length !== 1) return cmd.usage(`vasps import needs exactly one FILE`);
      const file = resolve(positionals[0]!);
      if (!existsSync(file)) return cmd.fail(`no such file: ${positionals[0]}`, 1);
      const entries = loadVaspsFile(file); // checked before the database is opened
      return withDatabase(config, async (sql) => {
        const counts = await storeVasps(sql, entries, 'cli');
        await recordAudit(sql, {
          actor: CLI_ACTOR,
          action: 'vasp_import',
          target: basename(file),
          details: { entries: entries.length, ...counts },
        });
        process.stdout.write(
          JSON.stringify({ file: positionals[0], entries: entries.length, ...counts }) + '\n',
        );
      });
    }
    default:
      return cmd.usage();
  }
}

/** `tollgate vasps …`: the VASP directory. */
export async function vaspsCommand(config: Config, args: string[]): Promise<void> {
  const [sub, ...rest] = args;
  await cmd.run(() => run(config, sub, rest));
}
