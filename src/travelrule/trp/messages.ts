import { NETWORK_SYMBOLS, networkInfo, type NetworkFamily } from '../../config/networks.js';
import { JsonNumber } from '../../json.js';
import { isValidLei } from '../../ids.js';
import { DTI_PATTERN, type DtiTable, networkOfSlip0044 } from './assets.js';
import { parseWebhookUrl } from '../../net/ssrf.js';
import { parseTravelRuleInput, type NormalisedParty } from '../ivms101/index.js';
import { AMOUNT_PATTERN } from '../ivms101/schema.js';
import { TRANSLITERATION_METHODS } from '../ivms101/codes.js';

/**
 * OpenVASP Travel Rule Protocol (TRP) v3.1 messages as this product speaks them: the transfer
 * inquiry (originator VASP → beneficiary VASP), its resolution (synchronous in the inquiry's
 * response, or POSTed later to the inquiry's `callback`) and the transfer confirmation
 * (originator → `approved.callback`). Pure: no database, no network I/O.
 *
 * Our choices where TRP leaves room:
 * - `asset` is `{ slip0044?, network?, symbol?, decimals?, dti? }`. TRP names `slip0044` (and
 *   `dti`); `network`, `symbol` and `decimals` are our documented extensions. Outbound we send
 *   `network` (our symbol) always; for the network's native coin also its SLIP-0044 coin type
 *   when we know it; for any other asset (a token) `symbol` and `decimals` and NO slip0044: a
 *   peer that reads only slip0044 would otherwise take "60" as ETH and misread a USDT amount as
 *   wei. Inbound any subset is accepted: the network comes from `network` (our symbol or the
 *   network's name, any letter case) or else from `slip0044`; when neither names a network we
 *   know, it is left undefined and derived from the wallet addresses (as for create_tx). A
 *   `slip0044` whose family contradicts `network` is refused. A known `dti` names the asset
 *   (its network, symbol and decimals from the DTI table); a `slip0044` beside it must name the
 *   same coin (its native asset, in the same network family) and a `network` beside it the same
 *   network, else the inquiry is refused ("asset: … disagree"): one identifier never silently wins.
 * - The asset symbol is `symbol`, else the network's native coin (config/networks.json), else
 *   the upper-cased `network` string. `decimals` may be left out for a native coin (the network
 *   table's decimals); otherwise it is required.
 * - `amount` is a JSON number in whole units of the asset (1.25), read from its exact text (no
 *   float: 18 decimals stay exact), with at most the asset's decimals; it must be greater than 0.
 * - IVMS101 is the standard JSON shape; persons are natural persons with the same fields as the
 *   create_tx input, validated by parseTravelRuleInput. `name` may also come as an array of
 *   name objects (IVMS101 NaturalPerson.name [1..n]); their identifiers are joined. Legal
 *   persons as originator or beneficiary are refused (not supported by this product).
 *
 * Every message names a TRP path and a rule, never a value: values are personal data.
 */

export const TRP_VERSION = '3.1.0';

export type Resolution =
  | { version: string }
  | { approved: { address: string; callback: string } }
  | { rejected: string };
export type Confirmation = { txid: string } | { canceled: string };

export interface InboundInquiry {
  /** Asset symbol as sent, or the native coin's symbol when only slip0044/network was given. */
  asset: string;
  /** The network named by asset.network / asset.slip0044; undefined when they name none we know. */
  network: string | undefined;
  decimals: number;
  /** Canonical decimal in whole units (NormalisedInput.transaction_amount). */
  amount: string;
  amountBaseUnits: string;
  /** Syntax-checked http(s) URL; whether it may be reached is decided when posting (SSRF guard). */
  callback: string;
  originator: NormalisedParty;
  beneficiary: NormalisedParty;
  /** NormalisedInput.transaction_network: the network above, or derived from the wallet addresses. */
  network_resolved: string;
  /** What the inquiry says of the VASP that sent it (IVMS101 originatingVASP), as stated. */
  originatingVaspName: string | undefined;
  /** Its LEI (nationalIdentifierType LEIX, check digits holding), upper case. */
  originatingVaspLei: string | undefined;
  /** IVMS101 payloadMetadata.transliterationMethod: the known codes it names, in order. */
  transliterationMethods: string[] | undefined;
}

type Parsed<T> = { ok: true; value: T } | { ok: false; message: string };

const MAX_REASON_CHARS = 1000;
const MAX_ADDRESS_CHARS = 200;
const MAX_TXID_CHARS = 200;
const MAX_VERSION_CHARS = 64;
/** 78 integer digits (AMOUNT_PATTERN) plus the most decimals an asset may have (36). */
const MAX_AMOUNT_DIGITS = 114;
const MAX_DECIMALS = 36;
const MAX_VASP_NAME_CHARS = 100;

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const fail = (message: string): { ok: false; message: string } => ({ ok: false, message });

function isNative(asset: string, network: string): boolean {
  return networkInfo(network)?.asset === asset.toUpperCase();
}

// ---------------------------------------------------------------------------------------------
// Outbound

/**
 * The transfer inquiry body for the beneficiary VASP's inquiry URL: only what TRP defines
 * (asset, amount, callback, IVMS101). `asset` is trpAsset's; the amount is written exactly.
 */
export function buildInquiry(d: {
  asset: { slip0044: number | string } | { dti: string };
  /** Whole units of the asset, a decimal string (as stored): sent as a JSON number, exactly. */
  amount: string;
  callback: string;
  originator: NormalisedParty;
  beneficiary: NormalisedParty;
  vaspName: string;
  vaspCountry?: string;
  vaspLei?: string;
}): Record<string, unknown> {
  const asset = d.asset;
  return {
    asset,
    amount: new JsonNumber(d.amount),
    callback: d.callback,
    IVMS101: {
      originator: {
        originatorPersons: d.originator.persons,
        accountNumber: d.originator.accountNumber,
      },
      beneficiary: {
        beneficiaryPersons: d.beneficiary.persons,
        ...(d.beneficiary.accountNumber.length
          ? { accountNumber: d.beneficiary.accountNumber }
          : {}),
      },
      originatingVASP: {
        originatingVASP: {
          legalPerson: {
            name: {
              nameIdentifier: [
                { legalPersonName: d.vaspName, legalPersonNameIdentifierType: 'LEGL' },
              ],
            },
            ...(d.vaspLei
              ? {
                  nationalIdentification: {
                    nationalIdentifier: d.vaspLei,
                    nationalIdentifierType: 'LEIX',
                  },
                }
              : {}),
            ...(d.vaspCountry ? { countryOfRegistration: d.vaspCountry } : {}),
          },
        },
      },
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Inbound: asset and amount

interface AssetFields {
  symbol: string;
  network: string | undefined;
  decimals: number;
}

function networkFromString(value: string): string | undefined {
  const lower = value.trim().toLowerCase();
  if (networkInfo(lower)) return lower;
  return NETWORK_SYMBOLS.find((s) => networkInfo(s)!.name.toLowerCase() === lower);
}

function family(network: string): NetworkFamily {
  return networkInfo(network)!.family;
}

/** Decimals of a native coin named by symbol alone: known when every network paying in it agrees. */
function nativeDecimals(symbol: string): number | undefined {
  const upper = symbol.toUpperCase();
  const found = new Set(
    NETWORK_SYMBOLS.filter((s) => networkInfo(s)!.asset === upper).map(
      (s) => networkInfo(s)!.decimals,
    ),
  );
  return found.size === 1 ? [...found][0] : undefined;
}

/**
 * The asset of an inbound inquiry. TRP names it by `slip0044` (the coin type as a number, as
 * the spec writes it, or the coin's symbol or name as a string, as TRISA writes it) or by `dti`
 * (read with the DTI table). Our earlier extension keys (`network`, `symbol`, `decimals`) are
 * still read when present, so a peer that sends them is understood; other keys are ignored.
 */
function parseAsset(asset: unknown, dtis: DtiTable): Parsed<AssetFields> {
  if (asset === undefined || asset === null) return fail('asset: is required');
  if (!isObject(asset)) return fail('asset: must be an object');
  const { slip0044, dti, network: networkValue, symbol, decimals: decimalsValue } = asset;

  if (dti !== undefined && dti !== null && dti !== '') {
    if (typeof dti !== 'string' || !DTI_PATTERN.test(dti.trim().toUpperCase()))
      return fail('asset.dti: must be a Digital Token Identifier (9 characters)');
    const entry = dtis.byDti(dti);
    if (!entry)
      return fail(
        'asset.dti: is not a DTI this VASP knows (its DTI table lists the assets it takes)',
      );
    // The DTI names the asset; a slip0044 or network given beside it must name the same one.
    if (slip0044 !== undefined && slip0044 !== null) {
      const coin =
        typeof slip0044 === 'number' || typeof slip0044 === 'string'
          ? networkOfSlip0044(slip0044)
          : undefined;
      if (
        coin !== undefined &&
        (networkInfo(coin)!.asset !== entry.asset.toUpperCase() ||
          family(coin) !== family(entry.network))
      )
        return fail('asset: asset.slip0044 and asset.dti disagree (they name different assets)');
    }
    if (typeof networkValue === 'string') {
      const named = networkFromString(networkValue);
      if (named !== undefined && named !== entry.network)
        return fail('asset: asset.network and asset.dti disagree (they name different networks)');
    }
    return {
      ok: true,
      value: { symbol: entry.asset, network: entry.network, decimals: entry.decimals },
    };
  }

  let fromCoin: string | undefined;
  if (slip0044 !== undefined && slip0044 !== null) {
    if (typeof slip0044 === 'number') {
      if (!Number.isSafeInteger(slip0044) || slip0044 < 0)
        return fail(
          'asset.slip0044: must be a coin type (a non-negative integer) or a coin symbol',
        );
    } else if (typeof slip0044 !== 'string' || slip0044.trim() === '' || slip0044.length > 64)
      return fail('asset.slip0044: must be a coin type (a non-negative integer) or a coin symbol');
    fromCoin = networkOfSlip0044(slip0044);
    if (fromCoin === undefined) return fail('asset.slip0044: is not a coin this VASP takes');
  }
  let named: string | undefined;
  let networkText: string | undefined;
  if (networkValue !== undefined && networkValue !== null) {
    if (typeof networkValue !== 'string' || networkValue.trim() === '')
      return fail('asset.network: must be a non-empty string');
    networkText = networkValue.trim();
    named = networkFromString(networkText);
  }
  if (named !== undefined && fromCoin !== undefined && family(named) !== family(fromCoin)) {
    return fail('asset.slip0044: contradicts asset.network');
  }
  const network = named ?? fromCoin;

  if (symbol !== undefined && symbol !== null && typeof symbol !== 'string')
    return fail('asset.symbol: must be a string');
  let assetSymbol = typeof symbol === 'string' ? symbol : undefined;
  if (assetSymbol === undefined) {
    if (network !== undefined) assetSymbol = networkInfo(network)!.asset;
    else if (networkText !== undefined) assetSymbol = networkText.toUpperCase();
    else return fail('asset: must name the asset by slip0044 or dti');
  }

  let decimals: number | undefined;
  if (decimalsValue !== undefined && decimalsValue !== null) {
    const n =
      typeof decimalsValue === 'string' && /^\d{1,2}$/.test(decimalsValue)
        ? Number(decimalsValue)
        : decimalsValue;
    if (typeof n !== 'number' || !Number.isInteger(n) || n < 0 || n > MAX_DECIMALS)
      return fail(`asset.decimals: must be an integer from 0 to ${MAX_DECIMALS}`);
    decimals = n;
  } else {
    decimals =
      network !== undefined
        ? isNative(assetSymbol, network)
          ? networkInfo(network)!.decimals
          : undefined
        : nativeDecimals(assetSymbol);
  }
  if (decimals === undefined) return fail('asset.decimals: required');
  return { ok: true, value: { symbol: assetSymbol, network, decimals } };
}

/**
 * A JSON number as a plain decimal in whole units ("1.25", "0.000021", "1500"): exponent forms
 * written out, no leading zeros, no trailing fractional zeros. Undefined when negative, or when
 * its exponent puts it beyond any amount (more than MAX_AMOUNT_DIGITS digits).
 */
export function decimalOf(text: string): string | undefined {
  const m = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(text);
  if (!m || m[1] === '-') return undefined;
  const fraction = m[3] ?? '';
  const exponent = Number(m[4] ?? '0') - fraction.length;
  if (!Number.isSafeInteger(exponent) || Math.abs(exponent) > MAX_AMOUNT_DIGITS) return undefined;
  let digits = (m[2]! + fraction).replace(/^0+(?=\d)/, '');
  let point = digits.length + exponent; // digits before the decimal point
  if (point > MAX_AMOUNT_DIGITS) return undefined;
  if (point < 0) {
    digits = '0'.repeat(-point) + digits;
    point = 0;
  }
  if (exponent > 0) digits += '0'.repeat(exponent);
  const whole = digits.slice(0, point).replace(/^0+(?=\d)/, '') || '0';
  const frac = digits.slice(point).replace(/0+$/, '');
  return frac ? `${whole}.${frac}` : whole;
}

/** TRP's amount: a JSON number in whole units of the asset, read from its exact text; more than 0. */
function parseAmount(amount: unknown): Parsed<string> {
  if (amount === undefined || amount === null) return fail('amount: is required');
  const text =
    amount instanceof JsonNumber
      ? amount.text
      : typeof amount === 'number' && Number.isFinite(amount)
        ? String(amount)
        : undefined;
  if (text === undefined)
    return fail('amount: must be a JSON number in whole units of the asset, such as 1.25');
  // Zero, however written (0, 0.000, -0, 0e5), is no transfer.
  if (/^-?0(?:\.0+)?(?:[eE][+-]?\d+)?$/.test(text)) return fail('amount: must be greater than 0');
  const decimal = decimalOf(text);
  if (decimal === undefined) return fail('amount: must be a non-negative number of a sane size');
  // Said here in TRP's terms (create_tx's own words are about its decimal strings).
  if (!AMOUNT_PATTERN.test(decimal))
    return fail('amount: must have at most 78 digits before the point and 36 after it');
  return { ok: true, value: decimal };
}

// ---------------------------------------------------------------------------------------------
// Inbound: IVMS101

const NAME_LISTS = ['nameIdentifier', 'localNameIdentifier', 'phoneticNameIdentifier'] as const;

/**
 * IVMS101 names a person's name [1..n]: an array of name objects (of a natural or a legal
 * person) becomes one with all their identifiers, local and phonetic ones too.
 */
function joinNames(person: unknown): unknown {
  if (!isObject(person)) return person;
  const key = isObject(person.naturalPerson)
    ? 'naturalPerson'
    : isObject(person.legalPerson)
      ? 'legalPerson'
      : undefined;
  if (key === undefined) return person;
  const inner = person[key] as Record<string, unknown>;
  const name = inner.name;
  if (
    !Array.isArray(name) ||
    name.length === 0 ||
    !name.every(
      (n) =>
        isObject(n) &&
        Array.isArray(n.nameIdentifier) &&
        NAME_LISTS.every(
          (list) => n[list] === undefined || n[list] === null || Array.isArray(n[list]),
        ),
    )
  )
    return person;
  const joined: Record<string, unknown[]> = {};
  for (const list of NAME_LISTS) {
    const all = name.flatMap((n) => ((n as Record<string, unknown>)[list] ?? []) as unknown[]);
    if (list === 'nameIdentifier' || all.length) joined[list] = all;
  }
  return { ...person, [key]: { ...inner, name: joined } };
}

type Side = 'originator' | 'beneficiary';

function partyInput(
  ivms: Record<string, unknown>,
  side: Side,
): Parsed<{ persons: unknown; accountNumber: unknown }> {
  const party = ivms[side];
  if (party === undefined || party === null) return fail(`IVMS101.${side}: is required`);
  if (!isObject(party)) return fail(`IVMS101.${side}: must be an object`);
  // IVMS101 2020 names the list originatorPersons / beneficiaryPersons, IVMS101.2023 the singular.
  const personsKey =
    party[`${side}Persons`] === undefined && party[`${side}Person`] !== undefined
      ? `${side}Person`
      : `${side}Persons`;
  const persons = party[personsKey];
  return {
    ok: true,
    value: {
      persons: Array.isArray(persons) ? persons.map(joinNames) : persons,
      // Either address may be left out (IVMS101: accountNumber 0..n): the beneficiary's our
      // caller supplies (send_address); the originator's, a pooled wallet, may be unnamed.
      accountNumber:
        party.accountNumber === undefined || party.accountNumber === null
          ? []
          : party.accountNumber,
    },
  };
}

/** A parseTravelRuleInput path (create_tx terms) in TRP terms. */
export function trpPath(path: string): string {
  const fields: Record<string, string> = {
    transaction_asset: 'asset.symbol',
    transaction_network: 'asset.network',
    transaction_amount: 'amount',
    transaction_asset_decimals: 'asset.decimals',
  };
  if (fields[path]) return fields[path];
  const match = /^(originator|beneficiary)(?:\.(persons|accountNumber))?(.*)$/.exec(path);
  if (!match) return path;
  const [, side, key, rest] = match;
  if (key === undefined) return `IVMS101.${side}${rest}`;
  return `IVMS101.${side}.${key === 'persons' ? `${side}Persons` : key}${rest}`;
}

/** The legal person of the originating VASP (IVMS101 originatingVASP, or its inner object). */
function originatingVaspPerson(ivms: Record<string, unknown>): unknown {
  const outer = ivms.originatingVASP;
  const vasp = isObject(outer) && isObject(outer.originatingVASP) ? outer.originatingVASP : outer;
  return isObject(vasp) ? vasp.legalPerson : undefined;
}

/**
 * The LEI of the originating VASP: its national identifier of type LEIX, when it is one (ISO
 * 17442 check digits), upper case; undefined otherwise. Informational (shown as stated), so one
 * that is not an LEI is left out rather than refusing the transfer.
 */
function originatingVaspLei(ivms: Record<string, unknown>): string | undefined {
  const legal = originatingVaspPerson(ivms);
  const id = isObject(legal) ? legal.nationalIdentification : undefined;
  if (!isObject(id) || id.nationalIdentifierType !== 'LEIX') return undefined;
  const lei =
    typeof id.nationalIdentifier === 'string' ? id.nationalIdentifier.trim().toUpperCase() : '';
  return isValidLei(lei) ? lei : undefined;
}

/** legalPersonName of the originating VASP (the LEGL one, else the first); undefined when absent or malformed. */
function originatingVaspName(ivms: Record<string, unknown>): string | undefined {
  const legal = originatingVaspPerson(ivms);
  let names = isObject(legal) ? legal.name : undefined;
  if (Array.isArray(names)) names = names[0];
  const ids =
    isObject(names) && Array.isArray(names.nameIdentifier)
      ? names.nameIdentifier.filter(isObject)
      : [];
  const chosen = ids.find((n) => n.legalPersonNameIdentifierType === 'LEGL') ?? ids[0];
  const name = chosen?.legalPersonName;
  if (typeof name !== 'string') return undefined;
  const trimmed = name.trim();
  return trimmed && trimmed.length <= MAX_VASP_NAME_CHARS && !/[\u0000-\u001f\u007f]/.test(trimmed)
    ? trimmed
    : undefined;
}

// ---------------------------------------------------------------------------------------------
// Inbound: the three messages

export function parseInquiry(body: unknown, dtis: DtiTable): Parsed<InboundInquiry> {
  if (!isObject(body)) return fail('the body must be a JSON object');
  const asset = parseAsset(body.asset, dtis);
  if (!asset.ok) return asset;
  const amount = parseAmount(body.amount);
  if (!amount.ok) return amount;
  if (typeof body.callback !== 'string')
    return fail(
      body.callback === undefined || body.callback === null
        ? 'callback: is required'
        : 'callback: must be a string',
    );
  const callback = parseWebhookUrl(body.callback);
  if (!callback.ok)
    return fail(
      `callback: ${callback.reason.startsWith('not a URL') ? 'must be an http(s) URL' : callback.reason}`,
    );
  const ivms = body.IVMS101;
  if (ivms === undefined || ivms === null) return fail('IVMS101: is required');
  if (!isObject(ivms)) return fail('IVMS101: must be an object');
  const originator = partyInput(ivms, 'originator');
  if (!originator.ok) return originator;
  const beneficiary = partyInput(ivms, 'beneficiary');
  if (!beneficiary.ok) return beneficiary;

  const parsed = parseTravelRuleInput(
    {
      transaction_ref: 'trp-inquiry',
      transaction_asset: asset.value.symbol,
      ...(asset.value.network !== undefined ? { transaction_network: asset.value.network } : {}),
      transaction_amount: amount.value,
      transaction_asset_decimals: String(asset.value.decimals),
      originator: originator.value,
      beneficiary: beneficiary.value,
    },
    'trp_inquiry',
  );
  if (!parsed.ok) {
    const path = trpPath(parsed.path);
    // Reasons name create_tx fields; TRP has no decimals field (the asset implies them).
    const reason = parsed.issues[0]!.reason.replace(
      /transaction_asset_decimals/g,
      "the asset's decimals",
    );
    return fail(path ? `${path}: ${reason}` : reason);
  }
  const v = parsed.value;
  return {
    ok: true,
    value: {
      asset: v.transaction_asset,
      network: asset.value.network,
      decimals: v.transaction_asset_decimals,
      amount: v.transaction_amount,
      amountBaseUnits: v.transaction_amount_base_units,
      callback: callback.url.href,
      originator: v.originator,
      beneficiary: v.beneficiary,
      network_resolved: v.transaction_network,
      originatingVaspName: originatingVaspName(ivms),
      originatingVaspLei: originatingVaspLei(ivms),
      transliterationMethods: transliterationMethods(ivms),
    },
  };
}

/**
 * How the inquiry says its names were transliterated (IVMS101 payloadMetadata), as stated: the
 * TransliterationMethodCodes it names, lower case, once each; undefined when it names none.
 * Informational, like the VASP's stated name: an unknown code is left out, not refused.
 */
function transliterationMethods(ivms: Record<string, unknown>): string[] | undefined {
  const meta = ivms.payloadMetadata;
  const given = isObject(meta) ? meta.transliterationMethod : undefined;
  const list = Array.isArray(given) ? given : typeof given === 'string' ? [given] : [];
  const codes = [
    ...new Set(
      list
        .filter((c): c is string => typeof c === 'string')
        .map((c) => c.trim().toLowerCase())
        .filter((c) => Object.hasOwn(TRANSLITERATION_METHODS, c)),
    ),
  ];
  return codes.length ? codes : undefined;
}

/** A reason string: null means none given (""); at most `max` characters. */
function reason(value: unknown, path: string): Parsed<string> {
  if (value === null) return { ok: true, value: '' };
  if (typeof value !== 'string') return fail(`${path}: must be a string`);
  if (value.length > MAX_REASON_CHARS)
    return fail(`${path}: must be at most ${MAX_REASON_CHARS} characters`);
  return { ok: true, value };
}

/** The one TRP key of `keys` the body holds. Keys outside `keys` (extensions) are ignored. */
function exactlyOne<K extends string>(body: unknown, keys: readonly K[]): Parsed<K> {
  if (!isObject(body)) return fail('the body must be a JSON object');
  const present = keys.filter((k) => Object.hasOwn(body, k) && body[k] !== undefined);
  if (present.length !== 1) return fail(`the body must hold exactly one of ${keys.join(', ')}`);
  return { ok: true, value: present[0]! };
}

export function parseResolution(body: unknown): Parsed<Resolution> {
  const key = exactlyOne(body, ['version', 'approved', 'rejected'] as const);
  if (!key.ok) return key;
  const value = (body as Record<string, unknown>)[key.value];
  if (key.value === 'version') {
    if (typeof value !== 'string' || value.length === 0 || value.length > MAX_VERSION_CHARS)
      return fail(`version: must be a non-empty string of at most ${MAX_VERSION_CHARS} characters`);
    return { ok: true, value: { version: value } };
  }
  if (key.value === 'rejected') {
    const r = reason(value, 'rejected');
    return r.ok ? { ok: true, value: { rejected: r.value } } : r;
  }
  if (!isObject(value)) return fail('approved: must be an object');
  const { address, callback } = value;
  if (typeof address !== 'string' || address.trim() === '')
    return fail('approved.address: must be a non-empty string');
  if (address.length > MAX_ADDRESS_CHARS)
    return fail(`approved.address: must be at most ${MAX_ADDRESS_CHARS} characters`);
  if (typeof callback !== 'string') return fail('approved.callback: is required');
  const url = parseWebhookUrl(callback);
  if (!url.ok)
    return fail(
      `approved.callback: ${url.reason.startsWith('not a URL') ? 'must be an http(s) URL' : url.reason}`,
    );
  return { ok: true, value: { approved: { address: address.trim(), callback: url.url.href } } };
}

export function parseConfirmation(body: unknown): Parsed<Confirmation> {
  const key = exactlyOne(body, ['txid', 'canceled'] as const);
  if (!key.ok) return key;
  const value = (body as Record<string, unknown>)[key.value];
  if (key.value === 'canceled') {
    const r = reason(value, 'canceled');
    return r.ok ? { ok: true, value: { canceled: r.value } } : r;
  }
  if (typeof value !== 'string' || value.length === 0 || value.length > MAX_TXID_CHARS)
    return fail(`txid: must be a string of 1 to ${MAX_TXID_CHARS} characters`);
  return { ok: true, value: { txid: value } };
}
