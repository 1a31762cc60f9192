import { readFileSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import { z } from 'zod';
import { ConfigError } from '../../config/index.js';
import { NETWORK_SYMBOLS, networkInfo } from '../../config/networks.js';
import { PermanentError } from '../../errors.js';
import { projectPath } from '../../paths.js';

/**
 * How TRP names an asset: by its SLIP-0044 coin type (the native coin of a chain) or by its
 * Digital Token Identifier (ISO 24165). TRP carries no network and no decimals: the coin type or
 * the DTI implies both. Outbound, the native coin of a network with a coin type is named by it;
 * anything else (a token, or ETH on a layer 2, whose coin type 60 would read as ETH on Ethereum)
 * by its DTI from the table (config/dti.json, or travel_rule.dti_file), or not at all.
 */

/** SLIP-0044 coin types of the networks' native coins, only where the registry entry is certain. */
export const SLIP0044_COIN_TYPES: Readonly<Record<string, number>> = {
  bitcoin: 0,
  litecoin: 2,
  doge: 3,
  eth: 60,
  atom: 118,
  xrp: 144,
  stellar: 148,
  eos: 194,
  trx: 195,
  algo: 283,
  dot: 354,
  solana: 501,
  ton: 607,
  apt: 637,
  sui: 784,
  vet: 818,
  polygon: 966,
  xtz: 1729,
  ada: 1815,
  avalanche: 9000,
};

/** Coin type → network: the first network of the table with that native coin type. */
const NETWORK_OF_COIN_TYPE = new Map<number, string>();
for (const symbol of NETWORK_SYMBOLS) {
  const coin = SLIP0044_COIN_TYPES[symbol];
  if (coin !== undefined && !NETWORK_OF_COIN_TYPE.has(coin)) NETWORK_OF_COIN_TYPE.set(coin, symbol);
}

/**
 * The network a slip0044 value names: its coin type as a number (the spec), or as a coin symbol
 * or name string (TRISA writes "ETH"); undefined for one no network of ours pays in.
 */
export function networkOfSlip0044(value: number | string): string | undefined {
  if (typeof value === 'number') return NETWORK_OF_COIN_TYPE.get(value);
  const text = value.trim();
  if (/^\d+$/.test(text)) return NETWORK_OF_COIN_TYPE.get(Number(text));
  const upper = text.toUpperCase();
  const lower = text.toLowerCase();
  return [...NETWORK_OF_COIN_TYPE.values()].find((network) => {
    const info = networkInfo(network)!;
    return info.asset === upper || info.name.toLowerCase() === lower;
  });
}

/** A DTI: nine characters of 0-9 and consonants other than Y, the first not 0. */
export const DTI_PATTERN = /^[1-9B-DF-HJ-NP-TV-XZ][0-9B-DF-HJ-NP-TV-XZ]{8}$/;

export const DtiEntry = z.object({
  dti: z
    .string()
    .transform((v) => v.toUpperCase())
    .refine((v) => DTI_PATTERN.test(v), 'must be a DTI: 9 characters, digits and consonants'),
  network: z.string().refine((v) => networkInfo(v) !== undefined, 'must be a network symbol'),
  asset: z.string().min(1).max(32),
  decimals: z.int().min(0).max(36),
});
export type DtiEntry = z.infer<typeof DtiEntry>;

const DtiFile = z.object({ about: z.string().optional(), assets: z.array(DtiEntry) });

/** The DTI table of a file (travel_rule.dti_file); a missing file is an empty table. */
export class DtiTable {
  private constructor(private readonly entries: readonly DtiEntry[]) {}

  static fromEntries(entries: readonly DtiEntry[]): DtiTable {
    return new DtiTable(entries);
  }

  /** Reads a table file; a relative path is relative to the project. */
  static load(path = 'config/dti.json'): DtiTable {
    const file = isAbsolute(path) ? path : projectPath(path);
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return new DtiTable([]);
      throw err;
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new ConfigError(`${path}: not JSON`);
    }
    const parsed = DtiFile.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw new ConfigError(`${path}: ${issue.path.join('.')}: ${issue.message}`);
    }
    return new DtiTable(parsed.data.assets);
  }

  byDti(dti: string): DtiEntry | undefined {
    const upper = dti.trim().toUpperCase();
    return this.entries.find((e) => e.dti === upper);
  }

  of(network: string, asset: string): DtiEntry | undefined {
    const upper = asset.toUpperCase();
    return this.entries.find((e) => e.network === network && e.asset.toUpperCase() === upper);
  }
}

/** How slip0044 is written outbound: the spec's number, or the coin symbol (TRISA reads only that). */
export type Slip0044Form = 'number' | 'symbol';

/**
 * The `asset` object of an outbound inquiry: `{slip0044}` for the native coin of a network with
 * a coin type, else `{dti}` from the table. PermanentError when TRP has no name for it here.
 */
export function trpAsset(
  t: { network: string; asset: string },
  dtis: DtiTable,
  form: Slip0044Form,
): { slip0044: number | string } | { dti: string } {
  const info = networkInfo(t.network);
  const coin = SLIP0044_COIN_TYPES[t.network];
  if (info && coin !== undefined && info.asset === t.asset.toUpperCase()) {
    // A peer that reads the symbol (TRISA) drops coin type 0 as "empty": Bitcoin goes by its DTI.
    const dti = form === 'symbol' && coin === 0 ? dtis.of(t.network, t.asset) : undefined;
    if (dti) return { dti: dti.dti };
    return { slip0044: form === 'number' ? coin : info.asset };
  }
  const entry = dtis.of(t.network, t.asset);
  if (entry) return { dti: entry.dti };
  throw new PermanentError(
    `TRP has no name for ${t.asset} on ${t.network}: add its DTI to the DTI table (travel_rule.dti_file)`,
  );
}
