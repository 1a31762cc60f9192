import { z } from 'zod';
import { storableTime } from '../../dates.js';
import { NETWORK_SYMBOLS } from '../../config/networks.js';
import { CONTROL_CHARS, optional } from './fields.js';
import { Person } from './legal-person.js';
import { decodeTravelAddress } from '../trp/travel-address.js';

/**
 * The travel rule transaction input (spec: "Travel rule transaction input (IVMS101-style)"),
 * field by field. Rules that join fields (the originator's identification, the amount against
 * the decimals, the network against the wallet addresses) are in rules.ts; input.ts puts the
 * two together into the exported schemas.
 */

export const MAX_PERSONS = 10;
export const MAX_ACCOUNT_NUMBERS = 20;
/** Tokens with more decimals than this do not exist in practice (ERC-20 uses uint8, commonly 18). */
export const MAX_ASSET_DECIMALS = 36;

const Party = (who: string, accounts: 'required' | 'optional' = 'required') =>
  z.object({
    persons: z
      .array(Person)
      .min(1, 'must hold at least one person')
      .max(MAX_PERSONS, `must hold at most ${MAX_PERSONS} persons`)
      .meta({
        description: `The ${who} persons; each element is a \`naturalPerson\` or a \`legalPerson\` object.`,
      }),
    accountNumber: z
      .array(z.string().min(1, 'must not be empty'))
      .min(accounts === 'required' ? 1 : 0, 'must hold at least one wallet address')
      .max(MAX_ACCOUNT_NUMBERS, `must hold at most ${MAX_ACCOUNT_NUMBERS} wallet addresses`)
      .meta({
        description: `The ${who} wallet addresses, each valid on the transaction's network (stored in the network's normal form).`,
      }),
  });

/**
 * A non-negative decimal: digits, optionally a point and more digits; no sign, exponent or
 * leading zeros ("0.5" yes, "00.5", ".5", "5." and "1e3" no). The count of fractional digits is
 * checked against transaction_asset_decimals in rules.ts.
 */
export const AMOUNT_PATTERN = /^(0|[1-9]\d{0,77})(\.\d{1,36})?$/;

export const Network = z.enum(NETWORK_SYMBOLS as [string, ...string[]], {
  error: () => 'must be a network symbol',
});

export const TravelRuleFields = {
  transaction_ref: z
    .string()
    .min(1, 'must not be empty')
    .max(255, 'must be at most 255 characters')
    .refine((v) => !CONTROL_CHARS.test(v), 'must not contain control characters')
    .meta({ description: "The caller's reference of the transaction (at most 255 characters)." }),
  transaction_asset: z
    .string()
    .regex(
      /^[A-Za-z0-9][A-Za-z0-9._-]{0,31}$/,
      'must be an asset symbol: letters, digits, ".", "_" or "-", at most 32',
    )
    .meta({
      description: 'Asset symbol (ETH, BTC, USDT, …), kept as sent; compared case-insensitively.',
    }),
  transaction_network: optional(
    Network.meta({
      description:
        'Network symbol. When omitted, derived from the first originator wallet address and the asset (see the endpoint description).',
    }),
  ),
  transaction_amount: z
    .string()
    .regex(
      AMOUNT_PATTERN,
      'must be a non-negative decimal number such as "0.25" (no sign, exponent or leading zeros)',
    )
    .meta({
      description:
        'Amount in whole units of the asset, a decimal string with at most transaction_asset_decimals fractional digits.',
    }),
  transaction_asset_decimals: z
    .string()
    .regex(/^(0|[1-9]\d?)$/, 'must be a whole number as a string, such as "18"')
    .refine((v) => Number(v) <= MAX_ASSET_DECIMALS, `must be at most ${MAX_ASSET_DECIMALS}`)
    .meta({ description: `Decimals of the asset, "0" to "${MAX_ASSET_DECIMALS}".` }),
  originator: Party('originator').meta({
    description:
      'The sender: name, wallet address, and at least one of date of birth, national identification, geographic address, customer number.',
  }),
  beneficiary: Party('beneficiary').meta({ description: 'The receiver: name and wallet address.' }),
};

/**
 * A TRP inquiry's beneficiary may come without a wallet address: the originator often learns it
 * only from the approval, and the caller supplies it with send_address.
 */
export const InquiryBeneficiary = Party('beneficiary', 'optional');
/**
 * An inquiry's originator may name no wallet address: IVMS101 makes Originator.accountNumber
 * optional (0..n), and senders paying from a pooled wallet leave it out (TRISA's reference
 * inquiry does). create_tx still needs one: our own withdrawals say where they are paid from.
 */
export const InquiryOriginator = Party('originator', 'optional');

/** create_tx only: the counterpart VASP, a `uid` of list_vasps. */
export const BeneficiaryVaspId = optional(
  z
    .guid('must be a UUID')
    .transform((v) => v.toLowerCase())
    .meta({ description: 'UUID of the counterpart VASP (a uid of list_vasps).' }),
);

/**
 * create_tx only, an addition to the spec: the beneficiary's Travel Address (TRP 3.1 `ta…`, an
 * `lnurl1…`, or an https URL), as the customer gave it. The inquiry goes there.
 */
export const BeneficiaryTravelAddress = optional(
  z
    .string()
    .trim()
    .max(2000, 'must be at most 2000 characters')
    .superRefine((v, ctx) => {
      const decoded = decodeTravelAddress(v);
      if (!decoded.ok) ctx.addIssue({ code: 'custom', message: decoded.reason });
      else if (decoded.url.protocol !== 'https:')
        ctx.addIssue({ code: 'custom', message: 'must name an https URL' });
    })
    .meta({
      description:
        "Not in the spec: the beneficiary's Travel Address (ta…, lnurl1…) or TRP inquiry URL (https). When given, the inquiry goes there, whatever the directory says.",
    }),
);

/** receive_tx_without_protocol only. */
export const ReceiveFields = {
  transaction_hash: z
    .string()
    .min(1, 'must not be empty')
    .max(128, 'must be at most 128 characters')
    .meta({
      description:
        "On-chain transaction hash, in the network's format (EVM: 0x and 64 hex digits; Bitcoin-family: 64 hex digits).",
    }),
  created_at: z.iso
    .datetime({
      offset: true,
      error: (issue) =>
        issue.input === undefined
          ? 'is required'
          : 'must be an ISO 8601 timestamp with a time zone, such as 2024-05-01T12:00:00Z',
    })
    .refine((v) => storableTime(Date.parse(v)), 'must be a time from year 1 to 9999')
    .meta({
      description: 'When the transaction happened, ISO 8601 with Z or an offset; stored in UTC.',
    }),
};
