import { z } from 'zod';
import { ALL_TAGS, PREFIXED_TAGS } from '../aml/index.js';
import { NETWORKS } from '../config/networks.js';

/**
 * The bodies of the chain webhooks (stream EVM, stream Bitcoin-family, live AML) as the
 * appliance sends them: the output shape of src/streams/evm-payload.ts, src/streams/utxo-payload.ts
 * and src/liveaml/check.ts (rescan.ts), with the `sequence` the outbox puts first
 * (src/webhooks/deliver.ts withSequence). The source of the OpenAPI document's `webhooks`
 * (webhook-contract.ts); tests check every real body against them strictly.
 */

/** Networks of a family, from the network table (config/networks.json). */
const familyNetworks = (family: 'evm' | 'utxo') =>
  Object.values(NETWORKS)
    .filter((n) => n.family === family)
    .map((n) => n.symbol) as [string, ...string[]];

const EXACT =
  'An integer written with every digit (it may exceed 2^53, where JavaScript\u2019s JSON.parse rounds it: parse with a big-number-aware JSON parser if every digit matters).';

/** A chain integer the code holds as a bigint and writes as an exact JSON number. */
export const chainInteger = (description: string) =>
  z
    .number()
    .multipleOf(1)
    .min(0)
    .meta({ description: `${description} ${EXACT}` });

export const sequence = z.int().min(1).meta({
  description:
    'Not in the spec; always the first field. Grows with every event written for the subscription (unconfirmed, confirmed, retraction, live AML alert), from 1; a repeat of the same event carries the same number. Order by it and drop what you have seen; a gap is an event still to come or given up (README, "What you can rely on").',
});

const replay = z.literal(true).optional().meta({
  description:
    'Not in the spec; present only on a past transaction sent because the subscription was created with `from_block` (README, Endpoints).',
});

const evmAddress = z.string().regex(/^0x[0-9a-f]{40}$/);
const evmHash = z.string().regex(/^0x[0-9a-f]{64}$/);
/** Bytes as the node gave them (nodes write lower-case hex). */
const hexData = z.string().regex(/^0x([0-9a-fA-F]{2})*$/);
const blockNumber = z.int().min(0);

const EvmLog = z.object({
  transactionIndex: z.int().min(0),
  blockNumber,
  transactionHash: evmHash,
  address: evmAddress.meta({ description: 'Contract that emitted the log, lower-case.' }),
  topics: z.array(evmHash),
  data: hexData,
  logIndex: z.int().min(0).meta({ description: 'Position of the log in its block.' }),
  blockHash: evmHash,
});

const EvmTx = z.object({
  from: evmAddress,
  to: z.string().meta({
    description:
      'Recipient, lower-case; for a contract creation the created contract ("" if the node reported neither).',
  }),
  hash: evmHash,
  input: hexData,
  address: evmAddress.meta({
    description:
      'The streamed address this delivery is for (one delivery per streamed address the transaction touches).',
  }),
  network: z.enum(familyNetworks('evm')),
  value: chainInteger('Native amount in wei.'),
  formattedValue: z.number().meta({ description: '`value` in whole coins, a float.' }),
  status: z.int().nullable().meta({
    description:
      'Receipt status: 1 success, 0 reverted; null where the receipt has none (blocks before Byzantium carry a state root instead), which says nothing either way.',
  }),
  gas: chainInteger('Gas limit of the transaction.'),
  gasPrice: chainInteger('Effective gas price in wei (0 where the node gave none).'),
  blockNumber,
  logs: z.array(EvmLog).meta({ description: 'Every log of the transaction, in order.' }),
});

const Approval = z.object({
  address: evmAddress.meta({ description: 'Token contract.' }),
  topic: evmHash.meta({ description: 'Event signature: Approval or ApprovalForAll.' }),
  from: evmAddress.meta({ description: 'Owner.' }),
  to: evmAddress.meta({ description: 'Spender or operator.' }),
  method: z.literal('approval'),
  index: z.int().min(0).meta({ description: 'logIndex of the event.' }),
});

const transferFields = {
  address: evmAddress.meta({ description: 'Token contract.' }),
  topic: evmHash.meta({
    description: 'Event signature: Transfer, TransferSingle or TransferBatch.',
  }),
  from: evmAddress,
  to: evmAddress,
  method: z.literal('transfer'),
  name: z.string().meta({ description: 'The token\'s name() at the node\'s latest block, or "".' }),
  symbol: z.string().meta({ description: 'The token\'s symbol(), or "".' }),
  created_at: z.iso.datetime().meta({ description: 'Block time, ISO 8601 UTC.' }),
  index: z.int().min(0).meta({ description: 'logIndex of the event.' }),
};

const Erc20Transfer = z.object({
  ...transferFields,
  type: z.literal('ERC20'),
  decimals: z.int().min(0).meta({ description: "The token's decimals() (0 when unknown)." }),
  value: chainInteger('Amount in the token\u2019s smallest unit.'),
  formattedValue: z.number().meta({ description: '`value` scaled by `decimals`, a float.' }),
});

const Erc721Transfer = z.object({
  ...transferFields,
  type: z.literal('ERC721'),
  decimals: z.literal(0),
  value: z.literal(1),
  formattedValue: z.literal(1),
  tokenID: chainInteger('Token id.'),
});

const Erc1155Transfer = z.object({
  ...transferFields,
  type: z.literal('ERC1155'),
  decimals: z.literal(0),
  value: chainInteger('Amount moved (the same as `tokenValue`).'),
  formattedValue: z.number().meta({ description: '`value` as a float.' }),
  tokenID: chainInteger('Token id.'),
  tokenValue: chainInteger('Amount moved.'),
});

const InternalTransfer = z.object({
  from: evmAddress.meta({ description: 'The contract that paid (or self-destructed).' }),
  to: evmAddress.meta({ description: 'Who received the coin (or the contract created).' }),
  type: z.enum(['call', 'create', 'selfdestruct']).meta({
    description:
      'The call frame that moved it: a call with a value, a contract creation, a self-destruct.',
  }),
  index: z.int().min(1).meta({
    description:
      "The frame's place in the transaction's call tree, depth first (the transaction is 0).",
  }),
  value: chainInteger('Amount in the native coin’s smallest unit (wei).'),
  formattedValue: z.number().meta({ description: '`value` in whole coins, a float.' }),
});

const evmShape = {
  sequence,
  blockNumber,
  chainId: z.int().min(1).meta({ description: "The node's chain id." }),
  tx: EvmTx,
  confirmed: z.boolean().meta({
    description:
      'false when the block is indexed, true when it has the network\u2019s confirmations (a second delivery, under its own webhook-id).',
  }),
  replay,
  approvals: z.array(Approval),
  erc20Transfers: z.array(Erc20Transfer),
  erc721Transfers: z.array(Erc721Transfer),
  erc1155Transfers: z.array(Erc1155Transfer).meta({
    description: 'TransferSingle gives one item; TransferBatch one item per token id.',
  }),
  internalTransfers: z.array(InternalTransfer).optional().meta({
    description:
      'Not in the spec. Native coin the transaction’s calls moved inside it (a contract paying out, such as a mixer’s withdrawal), from the node’s call traces; frames that failed, and everything they called, moved nothing and are left out. Absent where the block was not traced: the node has no call traces (`tollgate doctor` says so), lacked the state to re-run the block, or TOLLGATE_INTERNAL_TRANSFERS_<NETWORK> is off.',
  }),
  contract_type: z.enum(['', 'ERC20', 'ERC721', 'ERC1155']).meta({
    description: 'Standard of the first token transfer; "" for a transaction without one.',
  }),
  network: z.enum(familyNetworks('evm')).meta({ description: 'Network symbol.' }),
};

export const StreamEvmBody = z.object(evmShape);

const utxoAddress = z.string().min(1);
const txid = z.string().regex(/^[0-9a-f]{64}$/);
const hex = z.string().regex(/^([0-9a-f]{2})*$/);
const uint32 = z.int().min(0).max(0xffffffff);

const Coin = z
  .object({
    version: z.int().meta({ description: 'Version of the transaction that created the coin.' }),
    height: z.int().min(0).meta({ description: 'Block height of the coin.' }),
    value: chainInteger('Amount of the coin in the smallest unit (satoshi, litoshi, koinu).'),
    script: hex,
    address: utxoAddress
      .nullable()
      .meta({ description: 'null where the script pays no single address.' }),
    type: z.string().nullable().meta({ description: 'Script type as the node names it.' }),
    reqSigs: z
      .int()
      .min(0)
      .nullable()
      .meta({ description: 'null where the node does not report it (Bitcoin Core 22+).' }),
    coinbase: z.boolean().meta({ description: 'Whether the coin was created by a coinbase.' }),
  })
  .meta({ description: 'The coin (previous output) the input spends.' });

const Input = z.object({
  prevout: z
    .object({ hash: txid, index: uint32 })
    .meta({ description: 'A coinbase input has hash of 64 zeros and index 4294967295.' }),
  sequence: uint32,
  script: hex.meta({ description: 'scriptSig, hex; the coinbase data for a coinbase input.' }),
  coin: Coin.nullable().meta({ description: 'null for a coinbase input (it spends no coin).' }),
});

const Output = z.object({
  value: chainInteger('Amount in the smallest unit.'),
  script: hex.meta({ description: 'scriptPubKey, hex.' }),
  address: utxoAddress.nullable().meta({
    description:
      'null where the script pays no single address (OP_RETURN, bare multisig, non-standard).',
  }),
  scriptPubKey: z.object({
    type: z.string().meta({
      description:
        'Script type as the node names it (pubkeyhash, witness_v0_keyhash, nulldata, …).',
    }),
    reqSigs: z.int().min(0).nullable(),
  }),
});

const Mapped = z.object({
  address: utxoAddress,
  value: chainInteger('Sum per address, in the smallest unit.'),
});

export const StreamBitcoinBody = z.object({
  sequence,
  hash: txid.meta({ description: 'The txid.' }),
  hex: hex.meta({ description: 'The raw transaction.' }),
  version: z.int(),
  size: z.int().min(0),
  vsize: z.int().min(0),
  weight: z.int().min(0),
  locktime: uint32,
  timestamp: z.int().min(0).meta({ description: "The block header's time, Unix seconds." }),
  fee: z
    .number()
    .multipleOf(1)
    .meta({
      description: `Inputs minus outputs in the smallest unit; 0 for a coinbase. ${EXACT}`,
    }),
  inputs: z.array(Input),
  outputs: z.array(Output),
  addresses: z.array(utxoAddress).meta({
    description: 'Every address of the spent coins and of the outputs, once each, inputs first.',
  }),
  mapped: z.object({
    inputs: z.array(Mapped).meta({ description: 'Spent per address, in order of appearance.' }),
    outputs: z.array(Mapped).meta({ description: 'Received per address, in order of appearance.' }),
  }),
  address: utxoAddress.meta({
    description:
      'Not in the spec: the streamed address this delivery is for (one delivery per streamed address the transaction touches).',
  }),
  confirmed: z.boolean().meta({
    description:
      'false when the block is indexed, true when it has the network\u2019s confirmations (a second delivery).',
  }),
  replay,
  network: z.enum(familyNetworks('utxo')),
  blockNumber: z.int().min(0).meta({ description: 'Block height.' }),
  blockHash: txid.meta({ description: 'Hash of the block.' }),
});

/** Every tag, in answer order: base, direct_, indirect_. */
export const AML_TAGS = ALL_TAGS;
const TRANSACTION_TAGS = [
  ...PREFIXED_TAGS.map((t) => `direct_${t}`),
  ...PREFIXED_TAGS.map((t) => `indirect_${t}`),
] as [string, ...string[]];

const AmlTags = z.object(Object.fromEntries(AML_TAGS.map((t) => [t, z.boolean()]))).meta({
  description: 'Every AML tag of the address (base, direct_ and indirect_), a boolean each.',
});

const HashTags = z
  .object(
    Object.fromEntries(
      AML_TAGS.filter((t) => t !== 'new_wallet').map((t) => [t, z.literal(true).optional()]),
    ),
  )
  .meta({
    description:
      'Only the tags true for this transaction (direct_/indirect_); for an alert of a label change, the newly true tags (base tags too).',
  });

const Trigger = z.object({
  tag: z.enum(TRANSACTION_TAGS).meta({ description: 'A tag of `hash_tags`.' }),
  counterparty: z.string().meta({
    description: 'The address the transaction shared with the tracked one.',
  }),
  labelled: z.string().meta({
    description:
      'The address that carries the label: the counterparty itself for direct_, a counterparty of it for indirect_.',
  }),
  sources: z.array(z.string()).min(1).meta({
    description:
      'Label sources: "ofac", a CSV source name, "onchain:chainalysis_sanctions_oracle", …',
  }),
});

export const LiveAmlBody = z.object({
  sequence,
  address: z.string().meta({ description: 'The tracked address.' }),
  score: z.int().min(0).max(100).meta({
    description:
      'The address\u2019s risk score as /analyze/aml gives it when the check runs (100 = highest risk).',
  }),
  tags: AmlTags,
  hash: z.string().meta({
    description: 'The transaction\u2019s hash; "" for an alert raised by a label change.',
  }),
  block_number: z.int().min(0).meta({ description: '0 for an alert raised by a label change.' }),
  hash_tags: HashTags,
  triggered_by: z.array(Trigger).meta({
    description:
      'Not in the spec: per direct_/indirect_ tag of `hash_tags`, which counterparty brought it (at most 10 per tag). For an alert raised by a label change: the counterparties through which the changed labels reach the address (none for a tag of the address itself).',
  }),
  created_at: z.iso.datetime().meta({
    description:
      'The event\u2019s creation time, ISO 8601 UTC; the same as in GET /v2/liveaml/events.',
  }),
  replay,
});
