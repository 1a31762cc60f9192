import { PermanentError } from '../errors.js';
import { checkDatabaseUrl } from './database-url.js';
import { readFileSync, statSync } from 'node:fs';
import ipaddr from 'ipaddr.js';
import { z } from 'zod';
import { projectPath } from '../paths.js';
import { isValidLei } from '../ids.js';
import { isLoopbackHost, personalDataUrlRefusal } from '../urls.js';
import { NETWORK_SYMBOLS, networkInfo } from './networks.js';
import { AmlConfigSchema } from './aml.js';

/**
 * The one configuration module. Sources, later ones winning:
 *   config/default.json → the file named by TOLLGATE_CONFIG → environment variables.
 * Nothing else in the code reads process.env. A bad value stops start-up with the key's name.
 */

const rpcUrl = z
  .string()
  .refine((v) => {
    try {
      return ['http:', 'https:', 'ws:', 'wss:'].includes(new URL(v).protocol);
    } catch {
      return false;
    }
  }, 'must be an http(s):// or ws(s):// URL')
  // The user and password are sent decoded (Basic authorization): a `%` that starts no escape
  // cannot be, and the clients would fail on it, or send the URL as it is, naming it.
  .refine((v) => {
    let u: URL;
    try {
      u = new URL(v);
    } catch {
      return true; // not a URL: said by the check above
    }
    try {
      decodeURIComponent(u.username);
      decodeURIComponent(u.password);
      return true;
    } catch {
      return false;
    }
  }, 'its user or password holds a % that starts no escape: write it as %25');

const cidr = z.string().refine((v) => {
  try {
    ipaddr.parseCIDR(v);
    return true;
  } catch {
    return false;
  }
}, 'must be a CIDR range such as 10.0.0.0/8');

/** A data key: the base64 of 32 bytes (`openssl rand -base64 32`). The message never shows the value. */
const dataKey = z
  .string()
  .trim()
  .refine(
    (v) => /^[A-Za-z0-9+/]+={0,2}$/.test(v) && Buffer.from(v, 'base64').length === 32,
    'must be the base64 of 32 random bytes (e.g. openssl rand -base64 32)',
  );

const httpUrl = z.string().refine((v) => {
  try {
    return ['http:', 'https:'].includes(new URL(v).protocol);
  } catch {
    return false;
  }
}, 'must be an http(s):// URL');

/**
 * A URL other VASPs are given (TRP callbacks, e-mailed view links): a login in it would go to
 * every counterparty with it (found by an outside probe), so it has none.
 */
const publicBaseUrl = httpUrl
  .refine((v) => {
    const url = new URL(v);
    return !url.username && !url.password;
  }, 'must not carry a login: it is given to other VASPs')
  // The view links and callbacks under it carry tokens that open personal data: over plain http
  // any network between the counterparty and here reads them. Loopback only for development.
  .refine((v) => {
    const url = new URL(v);
    return url.protocol === 'https:' || isLoopbackHost(url);
  }, 'must be https (the view links and callbacks it makes carry tokens); plain http only for a loopback host, in development');

/**
 * A Standard Webhooks signing secret: `whsec_` and the base64 of at least 24 random bytes
 * (`echo "whsec_$(openssl rand -base64 32)"`). The message never shows the value.
 */
const webhookSecret = z
  .string()
  .trim()
  .refine(
    (v) => /^whsec_[A-Za-z0-9+/]+={0,2}$/.test(v) && Buffer.from(v.slice(6), 'base64').length >= 24,
    'must be whsec_ and the base64 of at least 24 random bytes (e.g. echo "whsec_$(openssl rand -base64 32)")',
  );

/** A decimal amount as a string: "15000", "0.5". */
const decimalString = z
  .string()
  .regex(/^\d{1,30}(\.\d{1,30})?$/, 'must be a decimal number as a string, e.g. "15000"');

/**
 * Travel Rule settings (src/travelrule/). The threshold is noted on each record, never enforced
 * (as the spec says). `rates` convert a transaction's asset into the threshold's currency: the
 * appliance has no price feed, so an asset without a rate is noted as "unknown".
 */
const TravelRuleConfigSchema = z
  .object({
    /** The base URL other VASPs reach this appliance at: TRP callbacks and e-mailed view links point here. */
    public_url: publicBaseUrl.optional(),
    /** This VASP, as other VASPs see it (the TRP originatingVASP / beneficiaryVASP). */
    vasp_name: z.string().min(1).max(100).default('Tollgate VASP'),
    vasp_country: z
      .string()
      .regex(/^[A-Za-z]{2}$/, 'must be a two-letter country code')
      .optional(),
    /** This VASP's LEI, sent with its name (TRP originatingVASP, nationalIdentifierType LEIX). */
    vasp_lei: z
      .string()
      .transform((s) => s.trim().toUpperCase())
      .refine(
        isValidLei,
        'must be a legal entity identifier: 20 letters and digits whose check digits hold (ISO 17442)',
      )
      .optional(),
    /** Travel rule webhook for API keys that registered none (POST /v2/travelrule/webhook). https. */
    webhook_url: httpUrl.optional(),
    /**
     * Development only: allow plain http to loopback hosts for what carries personal data (TRP
     * endpoints and callbacks, travel rule webhooks). Off: https everywhere.
     */
    allow_http_loopback: z.boolean().default(false),
    /** Name of the API key that receives incoming transfers (inbound TRP inquiries); default: the oldest active key. */
    incoming_key_name: z.string().min(1).optional(),
    /** How long an e-mailed transaction view link works. */
    view_link_ttl_hours: z
      .int()
      .min(1)
      .max(24 * 90)
      .default(168),
    /** The directory seeded at start (missing file: nothing seeded). */
    vasps_file: z.string().min(1).default('config/vasps.json'),
    /** DTIs of the assets named over TRP (src/travelrule/trp/assets.ts); relative to the project. */
    dti_file: z.string().min(1).default('config/dti.json'),
    /**
     * Private ranges counterparties' TRP URLs may point into (their endpoints and the callbacks
     * they give). A counterparty chooses those URLs: a list of its own, never the webhook one.
     */
    trp_allow_cidrs: z.array(cidr).default([]),
    /** PEM file of extra CA certificates trusted for TRP endpoints (e.g. a peer's self-signed certificate). */
    trp_ca_file: z.string().min(1).optional(),
    /**
     * PEM files of this VASP's TLS client certificate and its key, presented on every outbound
     * TRP request (TRP 3.0 made mutual TLS core). Both or neither.
     */
    trp_client_cert_file: z.string().min(1).optional(),
    trp_client_key_file: z.string().min(1).optional(),
    /**
     * The mutual-TLS TRP listener (src/api/trp.ts): other VASPs' inquiries, resolutions and
     * confirmations arrive here, each with the client certificate the directory pins for the
     * VASP it concerns. Unset: TRP is served on the API port, where no client certificate is seen.
     */
    trp_port: z.int().min(0).max(65_535).optional(),
    /** The listener's certificate and key (PEM files); default: the client certificate and key. */
    trp_server_cert_file: z.string().min(1).optional(),
    trp_server_key_file: z.string().min(1).optional(),
    /** The base URL other VASPs reach the TRP listener at; default: https://localhost:<trp_port>. */
    trp_public_url: publicBaseUrl.optional(),
    /**
     * Take a TRP message only from a VASP whose certificate the directory pins, over a connection
     * that presented it. Off (development, or mutual TLS checked by a proxy in front): a VASP
     * without pinned certificates is known by the token of its URL alone. A VASP with pinned
     * certificates is held to them either way.
     */
    trp_require_client_cert: z.boolean().default(true),
    trp_timeout_ms: z.int().min(100).max(120_000).default(10_000),
    /**
     * New inquiries a minute taken from one counterparty (by the VASP that sent them; a sender
     * not in the directory, by its inquiry URL), per API process; over it, 429 with Retry-After
     * (TRP senders retry). A minute's worth may come at once. 0: no limit.
     */
    trp_inquiries_per_minute: z.int().min(0).max(1_000_000).default(600),
    /** SMTP relay of the e-mail fallback: smtp://user:pass@host:port or smtps://…; none: no e-mail is sent. */
    smtp_url: z
      .string()
      .refine((v) => {
        try {
          return ['smtp:', 'smtps:'].includes(new URL(v).protocol);
        } catch {
          return false;
        }
      }, 'must be an smtp:// or smtps:// URL')
      .refine((v) => {
        try {
          const url = new URL(v);
          return !url.search && !url.hash && ['', '/'].includes(url.pathname);
        } catch {
          return true;
        }
      }, 'takes no path or ?options: TLS is set with TOLLGATE_SMTP_STARTTLS and TOLLGATE_SMTP_TLS_INSECURE')
      .optional(),
    smtp_from: z.string().min(3).default('Tollgate Travel Rule <travelrule@localhost>'),
    /** Accept a relay's self-signed certificate (a relay inside the building). */
    smtp_tls_insecure: z.boolean().default(false),
    /**
     * STARTTLS on an smtp:// relay. `required`: the mail (its view link) and the relay's
     * credentials go only over TLS; a relay that does not take STARTTLS, or a network that strips
     * it from the relay's answer, gets nothing. `if_offered`: plain text when the relay does not
     * offer it. Unset: `required`, but `if_offered` for a relay on a loopback host (the traffic
     * does not leave the machine). smtps:// is TLS from the start either way.
     */
    smtp_starttls: z.enum(['required', 'if_offered']).optional(),
    thresholds: z
      .array(
        z.object({
          jurisdiction: z.string().regex(/^[A-Za-z]{2}$/, 'must be a two-letter country code'),
          currency: z.string().min(1).max(10),
          amount: decimalString,
          /** Price of one unit of each asset in `currency`, by asset symbol: {"ETH": "120000"}. */
          rates: z.record(z.string(), decimalString).default({}),
        }),
      )
      .default([]),
  })
  .superRefine((tr, ctx) => {
    if ((tr.trp_client_cert_file === undefined) !== (tr.trp_client_key_file === undefined))
      ctx.addIssue({
        code: 'custom',
        path: [
          tr.trp_client_cert_file === undefined ? 'trp_client_cert_file' : 'trp_client_key_file',
        ],
        message: 'the TRP client certificate and its key are given together',
      });
    if ((tr.trp_server_cert_file === undefined) !== (tr.trp_server_key_file === undefined))
      ctx.addIssue({
        code: 'custom',
        path: [
          tr.trp_server_cert_file === undefined ? 'trp_server_cert_file' : 'trp_server_key_file',
        ],
        message: 'the TRP server certificate and its key are given together',
      });
    if (
      tr.trp_port !== undefined &&
      tr.trp_server_cert_file === undefined &&
      tr.trp_client_cert_file === undefined
    )
      ctx.addIssue({
        code: 'custom',
        path: ['trp_port'],
        message:
          'the mutual-TLS TRP listener needs a certificate: set trp_server_cert_file and trp_server_key_file (or trp_client_cert_file and trp_client_key_file, used for both)',
      });
    if (tr.webhook_url === undefined) return;
    const refusal = personalDataUrlRefusal(new URL(tr.webhook_url), tr.allow_http_loopback);
    if (refusal) ctx.addIssue({ code: 'custom', path: ['webhook_url'], message: refusal });
  });

const NetworkConfigSchema = z.object({
  /** Without it the network is not indexed (except eth when the dev chain runs). */
  rpc: rpcUrl.optional(),
  /**
   * EVM: a ws(s):// URL of the same node whose pushed new heads wake the indexer at once (requests
   * stay on `rpc`). Defaults to `rpc` when that is ws(s)://; without either, the head is polled.
   */
  heads: z
    .string()
    .regex(/^wss?:\/\/\S+$/, 'must be a ws:// or wss:// URL')
    .optional(),
  /** Blocks on top of a transaction's block (its own counts as one) before `confirmed: true`. */
  // The transaction's own block counts as one: 0 would be no confirmation at all.
  confirmations: z
    .int()
    .min(1, "must be at least 1 (the transaction's own block counts as one)")
    .max(100_000)
    .optional(),
  /**
   * Where the first start begins indexing: "head" (the node's head then: no history) or a block
   * number (history from it). No default for a real network: the first start asks for a choice
   * (README, How far back to index). Older history can be added later by a backfill.
   */
  start_block: z.union([z.literal('head'), z.int().min(0)]).optional(),
  poll_interval_ms: z.int().min(10).max(60_000).optional(),
  /** Deepest reorg the indexer follows; a deeper one stops it loudly (and /readyz fails). */
  max_reorg_depth: z.int().min(1).max(10_000).optional(),
  /**
   * EVM: "node" (default) also stops the indexer on a reorg that would replace a block at or below
   * the node's `finalized` block; "depth" trusts max_reorg_depth alone (dev nodes such as Hardhat
   * call every block final, even one they are about to revert).
   */
  finality: z.enum(['node', 'depth']).optional(),
  /**
   * How old (seconds) the node's newest block may be, once the indexer has reached it, before the
   * node counts as behind the network (/readyz, the log, /metrics); 0: never. Unset: the network
   * table's value on the network's mainnet, 0 on any other chain (a dev chain makes blocks only
   * when asked).
   */
  node_behind_s: z.int().min(0).max(604_800).optional(),
  /**
   * EVM: "auto" (default) reads each block's call traces where the node has them, for the coin
   * contracts move inside transactions (internal transfers: a mixer's payout); "off" never asks
   * (a node whose tracing is too slow or costly). Not traced, those transfers are not seen.
   */
  internal_transfers: z.enum(['auto', 'off']).optional(),
});

const ConfigSchema = z
  .object({
    database_url: z
      .string()
      .min(1)
      .superRefine((v, ctx) => {
        try {
          checkDatabaseUrl(v);
        } catch (err) {
          ctx.addIssue({
            code: 'custom',
            message: (err as Error).message.replace(/^DATABASE_URL: /, ''),
          });
        }
      })
      .optional(),
    /** Without database_url: the embedded Postgres's port on 127.0.0.1 (a free one when unset). */
    embedded_postgres_port: z.int().min(1).max(65_535).optional(),
    data_dir: z.string().min(1),
    host: z.string().min(1),
    port: z.int().min(0).max(65_535),
    /**
     * A plain-HTTP listener (on `host`) answering GET /healthz and GET /readyz only, for probes
     * that must get through while the API port is flooded (src/api/health.ts). Unset: none; the
     * API port answers both as well.
     */
    health_port: z.int().min(0).max(65_535).optional(),
    tls_cert: z.string().min(1).optional(),
    tls_key: z.string().min(1).optional(),
    /**
     * The TLS-terminating proxies in front (CIDR ranges): plain HTTP is served, and forwarded
     * headers are believed from these peers only. Empty: HTTPS, no proxy.
     */
    trust_proxy: z.preprocess(
      (v) =>
        v === false || (Array.isArray(v) && v.length === 1 && v[0] === 'false')
          ? []
          : v === true || (Array.isArray(v) && v.length === 1 && v[0] === 'true')
            ? 'any peer'
            : v,
      z.array(cidr, {
        error: (issue) =>
          issue.input === 'any peer'
            ? "is the list of your TLS-terminating proxies' addresses (CIDR ranges such as 10.0.0.5/32), whose forwarded headers are believed; `true` (any peer) is no longer accepted"
            : undefined,
      }),
    ),
    log_level: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']),
    bootstrap_api_key: z.string().min(24, 'must be at least 24 characters').max(200).optional(),
    /** Private ranges the operator's own webhook receivers may be in (streams, live AML, travel rule). */
    webhook_allow_cidrs: z.array(cidr),
    /**
     * Private ranges NFT metadata URLs may point into. Any contract's author chooses those URLs,
     * so this list is separate from the webhook one: opening one never opens the other.
     */
    nft_metadata_allow_cidrs: z.array(cidr).default([]),
    webhook_timeout_ms: z.int().min(100).max(120_000),
    /**
     * The longest an HTTP request (API, dashboard, TRP) waits for its answer before a 503 says
     * the database (or a node) did not answer in time (src/api/deadline.ts).
     */
    request_timeout_ms: z.int().min(1000).max(600_000).default(20_000),
    /**
     * Connections of the pool the indexers, the worker and the start use (src/db/open.ts), and of
     * the API's own pool (the API, the dashboard, the TRP listener: src/appliance.ts).
     */
    database_pool_max: z.int().min(2).max(500).default(10),
    /**
     * Seconds a serving start (start, api, worker, indexer) keeps trying while DATABASE_URL's
     * Postgres cannot serve yet (restarting, failing over, starting up); 0: fail at once
     * (src/db/start-wait.ts).
     */
    database_start_wait_s: z.int().min(0).max(3600).default(60),
    api_database_pool_max: z.int().min(2).max(500).default(10),
    /**
     * Requests of one process at work at once on the API's pool (the API, the operator API, the
     * dashboard, TRP); the others wait for their turn in arrival order, and one whose deadline
     * passes while it waits is answered 503 without running (src/api/admission.ts).
     */
    api_max_concurrent_requests: z.int().min(1).max(100_000).default(256),
    /**
     * MiB of /wallet/transactions pages an API process keeps, each answered again while its
     * address's history has not changed (src/wallet/page-cache.ts); 0 keeps none.
     */
    wallet_page_cache_mb: z.number().min(0).max(4096).default(32),
    webhook_max_attempts: z.int().min(1).max(100),
    /**
     * A webhook endpoint (a key's URL) without a 2xx for this many hours is disabled: its events
     * are kept, held, until it is enabled again (src/webhooks/endpoints.ts). Fractions allowed; 0:
     * never disabled.
     */
    webhook_disable_after_hours: z.number().min(0).max(8760),
    /** Where the operator is told of each endpoint disabled: a signed POST (src/webhooks/operator-notice.ts). */
    operator_webhook_url: httpUrl.optional(),
    /** Signs the operator's notices (Standard Webhooks); required with operator_webhook_url. */
    operator_webhook_secret: webhookSecret.optional(),
    worker_concurrency: z.int().min(1).max(1000),
    /** Webhook deliveries a worker process has in hand at once (src/webhooks/dispatcher.ts). */
    delivery_concurrency: z.int().min(1).max(10_000),
    /** Of those, POSTs in flight to one receiver at once: a slow or dead one never takes more. */
    delivery_endpoint_concurrency: z.int().min(1).max(1000),
    indexer_poll_interval_ms: z.int().min(10).max(60_000),
    /** The dev chain's node (no RPC configured): Hardhat 2 or Foundry's anvil, both from npm. */
    dev_chain_node: z.enum(['hardhat', 'anvil']).default('hardhat'),
    /** The dev chain's port on 127.0.0.1; a node already answering there is used as it is. */
    dev_chain_port: z.int().min(1).max(65_535).default(8545),
    indexer_max_lag_blocks: z.int().min(1),
    /** Base URL that ipfs://<cid>/<path> NFT metadata is fetched through, and media links point to. */
    nft_ipfs_gateway: z.string().refine((v) => {
      try {
        return ['http:', 'https:'].includes(new URL(v).protocol);
      } catch {
        return false;
      }
    }, 'must be an http(s):// URL'),
    /** AML score weights, thresholds and exposure limits (src/config/aml.ts). */
    aml: AmlConfigSchema,
    /** Encrypts travel rule personal data at rest; without it, `<data_dir>/data.key` (generated once). */
    data_key: dataKey.optional(),
    /** Earlier data keys, kept to decrypt rows they sealed (src/travelrule/crypto.ts). */
    data_keys_old: z.array(dataKey).default([]),
    /** Travel Rule exchange, e-mail fallback and threshold (see TravelRuleConfigSchema). */
    travel_rule: TravelRuleConfigSchema.default(() => TravelRuleConfigSchema.parse({})),
    /** Start a local Hardhat node as `eth` when no network has an RPC URL (the quick start). */
    dev_chain: z.boolean().optional(),
    /** Bearer token that opens GET /metrics from any address (src/monitoring/metrics-access.ts); none: CIDRs only. */
    metrics_token: z.string().min(16, 'must be at least 16 characters').max(200).optional(),
    /** Client addresses that may read GET /metrics without the token; an empty list: token only. */
    metrics_allow_cidrs: z.array(cidr).default(['127.0.0.0/8', '::1/128']),
    /**
     * Operator roles that must log in with a second factor (TOTP): an operator of one of them
     * without it sets it up right after the password, before anything else, and the operator API
     * takes them only with a session opened with a code. Default: every role, since viewers read
     * the Travel Rule's personal data too. Empty: no role requires it (operators may still enrol).
     */
    mfa_required_roles: z
      .array(z.enum(['viewer', 'reviewer', 'admin']))
      .default(['viewer', 'reviewer', 'admin']),
    /** Sustained /v2 requests per minute per API key, per API process (src/api/ratelimit.ts); 0: no limit. */
    rate_limit_per_minute: z.int().min(0).max(1_000_000).default(600),
    /** Requests per API key allowed at once after an idle spell (the token bucket's size). */
    rate_limit_burst: z.int().min(1).max(1_000_000).default(100),
    /** The most streams one API key may have (src/streams/streams.ts); 0: no limit. */
    max_streams_per_key: z.int().min(0).max(100_000_000).default(100_000),
    /** The most live AML trackings one API key may have; 0: no limit. */
    max_trackings_per_key: z.int().min(0).max(100_000_000).default(100_000),
    networks: z.record(z.string(), NetworkConfigSchema).superRefine((nets, ctx) => {
      for (const symbol of Object.keys(nets)) {
        const info = networkInfo(symbol);
        if (!info)
          ctx.addIssue({
            code: 'custom',
            path: [symbol],
            message: `unknown network symbol (known: ${NETWORK_SYMBOLS.join(', ')})`,
          });
        else if (info.family !== 'evm' && info.family !== 'utxo')
          ctx.addIssue({
            code: 'custom',
            path: [symbol],
            message: `no indexer for the ${info.family} family (Tollgate indexes EVM and Bitcoin-family networks)`,
          });
      }
    }),
  })
  .superRefine((config, ctx) => {
    const hp = config.health_port;
    if (hp !== undefined && hp !== 0 && (hp === config.port || hp === config.travel_rule.trp_port))
      ctx.addIssue({
        code: 'custom',
        path: ['health_port'],
        message: `must differ from ${hp === config.port ? 'port' : 'travel_rule.trp_port'} (${hp}): the health listener is a socket of its own`,
      });
  });

export type Config = z.infer<typeof ConfigSchema>;
export type NetworkConfig = z.infer<typeof NetworkConfigSchema>;
export type TravelRuleConfig = z.infer<typeof TravelRuleConfigSchema>;

export class ConfigError extends PermanentError {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;
type Json = Record<string, unknown>;

/** Where each value came from, so an error names the key the operator actually wrote. */
type Sources = Map<string, string>;

const ENV_KEYS: Record<
  string,
  { path: string; type: 'string' | 'int' | 'number' | 'bool' | 'list' }
> = {
  DATABASE_URL: { path: 'database_url', type: 'string' },
  TOLLGATE_DATA_DIR: { path: 'data_dir', type: 'string' },
  TOLLGATE_EMBEDDED_POSTGRES_PORT: { path: 'embedded_postgres_port', type: 'int' },
  TOLLGATE_HOST: { path: 'host', type: 'string' },
  TOLLGATE_PORT: { path: 'port', type: 'int' },
  TOLLGATE_HEALTH_PORT: { path: 'health_port', type: 'int' },
  TOLLGATE_TLS_CERT: { path: 'tls_cert', type: 'string' },
  TOLLGATE_TLS_KEY: { path: 'tls_key', type: 'string' },
  TOLLGATE_TRUST_PROXY: { path: 'trust_proxy', type: 'list' },
  TOLLGATE_LOG_LEVEL: { path: 'log_level', type: 'string' },
  TOLLGATE_BOOTSTRAP_API_KEY: { path: 'bootstrap_api_key', type: 'string' },
  TOLLGATE_WEBHOOK_ALLOW_CIDRS: { path: 'webhook_allow_cidrs', type: 'list' },
  TOLLGATE_NFT_METADATA_ALLOW_CIDRS: { path: 'nft_metadata_allow_cidrs', type: 'list' },
  TOLLGATE_TRP_ALLOW_CIDRS: { path: 'travel_rule.trp_allow_cidrs', type: 'list' },
  TOLLGATE_WEBHOOK_TIMEOUT_MS: { path: 'webhook_timeout_ms', type: 'int' },
  TOLLGATE_REQUEST_TIMEOUT_MS: { path: 'request_timeout_ms', type: 'int' },
  TOLLGATE_DATABASE_POOL_MAX: { path: 'database_pool_max', type: 'int' },
  TOLLGATE_DATABASE_START_WAIT_S: { path: 'database_start_wait_s', type: 'int' },
  TOLLGATE_API_DATABASE_POOL_MAX: { path: 'api_database_pool_max', type: 'int' },
  TOLLGATE_API_MAX_CONCURRENT_REQUESTS: { path: 'api_max_concurrent_requests', type: 'int' },
  TOLLGATE_WALLET_PAGE_CACHE_MB: { path: 'wallet_page_cache_mb', type: 'number' },
  TOLLGATE_WEBHOOK_MAX_ATTEMPTS: { path: 'webhook_max_attempts', type: 'int' },
  TOLLGATE_WEBHOOK_DISABLE_AFTER_HOURS: { path: 'webhook_disable_after_hours', type: 'number' },
  TOLLGATE_OPERATOR_WEBHOOK_URL: { path: 'operator_webhook_url', type: 'string' },
  TOLLGATE_OPERATOR_WEBHOOK_SECRET: { path: 'operator_webhook_secret', type: 'string' },
  TOLLGATE_WORKER_CONCURRENCY: { path: 'worker_concurrency', type: 'int' },
  TOLLGATE_DELIVERY_CONCURRENCY: { path: 'delivery_concurrency', type: 'int' },
  TOLLGATE_DELIVERY_ENDPOINT_CONCURRENCY: { path: 'delivery_endpoint_concurrency', type: 'int' },
  TOLLGATE_INDEXER_POLL_INTERVAL_MS: { path: 'indexer_poll_interval_ms', type: 'int' },
  TOLLGATE_DEV_CHAIN_NODE: { path: 'dev_chain_node', type: 'string' },
  TOLLGATE_DEV_CHAIN_PORT: { path: 'dev_chain_port', type: 'int' },
  TOLLGATE_INDEXER_MAX_LAG_BLOCKS: { path: 'indexer_max_lag_blocks', type: 'int' },
  TOLLGATE_NFT_IPFS_GATEWAY: { path: 'nft_ipfs_gateway', type: 'string' },
  TOLLGATE_DEV_CHAIN: { path: 'dev_chain', type: 'bool' },
  TOLLGATE_METRICS_TOKEN: { path: 'metrics_token', type: 'string' },
  TOLLGATE_METRICS_ALLOW_CIDRS: { path: 'metrics_allow_cidrs', type: 'list' },
  TOLLGATE_MFA_REQUIRED_ROLES: { path: 'mfa_required_roles', type: 'list' },
  TOLLGATE_RATE_LIMIT_PER_MINUTE: { path: 'rate_limit_per_minute', type: 'int' },
  TOLLGATE_RATE_LIMIT_BURST: { path: 'rate_limit_burst', type: 'int' },
  TOLLGATE_MAX_STREAMS_PER_KEY: { path: 'max_streams_per_key', type: 'int' },
  TOLLGATE_MAX_TRACKINGS_PER_KEY: { path: 'max_trackings_per_key', type: 'int' },
  TOLLGATE_DATA_KEY: { path: 'data_key', type: 'string' },
  TOLLGATE_DATA_KEYS_OLD: { path: 'data_keys_old', type: 'list' },
  TOLLGATE_TRAVEL_RULE_PUBLIC_URL: { path: 'travel_rule.public_url', type: 'string' },
  TOLLGATE_TRAVEL_RULE_VASP_NAME: { path: 'travel_rule.vasp_name', type: 'string' },
  TOLLGATE_TRAVEL_RULE_VASP_LEI: { path: 'travel_rule.vasp_lei', type: 'string' },
  TOLLGATE_TRAVEL_RULE_WEBHOOK_URL: { path: 'travel_rule.webhook_url', type: 'string' },
  TOLLGATE_TRAVEL_RULE_INCOMING_KEY: { path: 'travel_rule.incoming_key_name', type: 'string' },
  TOLLGATE_TRAVEL_RULE_ALLOW_HTTP_LOOPBACK: {
    path: 'travel_rule.allow_http_loopback',
    type: 'bool',
  },
  TOLLGATE_TRAVEL_RULE_VIEW_LINK_TTL_HOURS: {
    path: 'travel_rule.view_link_ttl_hours',
    type: 'int',
  },
  TOLLGATE_VASPS_FILE: { path: 'travel_rule.vasps_file', type: 'string' },
  TOLLGATE_DTI_FILE: { path: 'travel_rule.dti_file', type: 'string' },
  TOLLGATE_TRP_CA_FILE: { path: 'travel_rule.trp_ca_file', type: 'string' },
  TOLLGATE_TRP_CLIENT_CERT_FILE: { path: 'travel_rule.trp_client_cert_file', type: 'string' },
  TOLLGATE_TRP_CLIENT_KEY_FILE: { path: 'travel_rule.trp_client_key_file', type: 'string' },
  TOLLGATE_TRP_TIMEOUT_MS: { path: 'travel_rule.trp_timeout_ms', type: 'int' },
  TOLLGATE_TRP_INQUIRIES_PER_MINUTE: {
    path: 'travel_rule.trp_inquiries_per_minute',
    type: 'int',
  },
  TOLLGATE_TRP_PORT: { path: 'travel_rule.trp_port', type: 'int' },
  TOLLGATE_TRP_SERVER_CERT_FILE: { path: 'travel_rule.trp_server_cert_file', type: 'string' },
  TOLLGATE_TRP_SERVER_KEY_FILE: { path: 'travel_rule.trp_server_key_file', type: 'string' },
  TOLLGATE_TRP_PUBLIC_URL: { path: 'travel_rule.trp_public_url', type: 'string' },
  TOLLGATE_TRP_REQUIRE_CLIENT_CERT: { path: 'travel_rule.trp_require_client_cert', type: 'bool' },
  TOLLGATE_SMTP_URL: { path: 'travel_rule.smtp_url', type: 'string' },
  TOLLGATE_SMTP_FROM: { path: 'travel_rule.smtp_from', type: 'string' },
  TOLLGATE_SMTP_TLS_INSECURE: { path: 'travel_rule.smtp_tls_insecure', type: 'bool' },
  TOLLGATE_SMTP_STARTTLS: { path: 'travel_rule.smtp_starttls', type: 'string' },
};

/** Per-network variables: TOLLGATE_RPC_ETH, TOLLGATE_CONFIRMATIONS_POLYGON, TOLLGATE_START_BLOCK_BSC. */
const NETWORK_ENV_KEYS: Record<string, { field: string; type: 'string' | 'int' | 'int_or_head' }> =
  {
    RPC: { field: 'rpc', type: 'string' },
    HEADS: { field: 'heads', type: 'string' },
    CONFIRMATIONS: { field: 'confirmations', type: 'int' },
    START_BLOCK: { field: 'start_block', type: 'int_or_head' },
    POLL_INTERVAL_MS: { field: 'poll_interval_ms', type: 'int' },
    MAX_REORG_DEPTH: { field: 'max_reorg_depth', type: 'int' },
    FINALITY: { field: 'finality', type: 'string' },
    NODE_BEHIND_S: { field: 'node_behind_s', type: 'int' },
    INTERNAL_TRANSFERS: { field: 'internal_transfers', type: 'string' },
  };

function parseEnvValue(name: string, raw: string, type: string): unknown {
  switch (type) {
    case 'int':
      if (!/^-?\d+$/.test(raw.trim()))
        throw new ConfigError(`${name}: must be a whole number, got "${raw}"`);
      return Number(raw.trim());
    case 'number':
      if (!/^\d+(\.\d+)?$/.test(raw.trim()))
        throw new ConfigError(`${name}: must be a number such as 120 or 0.5, got "${raw}"`);
      return Number(raw.trim());
    case 'int_or_head':
      if (raw.trim() === 'head') return 'head';
      return parseEnvValue(name, raw, 'int');
    case 'bool': {
      const v = raw.trim().toLowerCase();
      if (['1', 'true', 'yes', 'on'].includes(v)) return true;
      if (['0', 'false', 'no', 'off', ''].includes(v)) return false;
      throw new ConfigError(`${name}: must be true or false, got "${raw}"`);
    }
    case 'list':
      return raw
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
    default:
      return raw;
  }
}

function readJsonFile(path: string, what: string): Json {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new ConfigError(
      `${what}: cannot read ${path} (${(err as NodeJS.ErrnoException).code ?? 'error'})`,
    );
  }
  try {
    const value = JSON.parse(text) as unknown;
    if (typeof value !== 'object' || value === null || Array.isArray(value))
      throw new Error('not an object');
    return value as Json;
  } catch {
    throw new ConfigError(`${what}: ${path} is not a JSON object`);
  }
}

function mergeInto(target: Json, source: Json, sources: Sources, label: string, prefix = ''): void {
  for (const [key, value] of Object.entries(source)) {
    if (key.startsWith('$')) continue;
    const path = prefix ? `${prefix}.${key}` : key;
    if (value && typeof value === 'object' && !Array.isArray(value)) {
      if (!target[key] || typeof target[key] !== 'object' || Array.isArray(target[key]))
        target[key] = {};
      sources.set(path, `${label} "${path}"`);
      mergeInto(target[key] as Json, value as Json, sources, label, path);
    } else {
      target[key] = value;
      sources.set(path, `${label} "${path}"`);
    }
  }
}

function setPath(target: Json, path: string[], value: unknown): void {
  let node = target;
  for (const part of path.slice(0, -1)) {
    if (typeof node[part] !== 'object' || node[part] === null) node[part] = {};
    node = node[part] as Json;
  }
  node[path[path.length - 1]!] = value;
}

/** Builds and validates the configuration. Throws ConfigError naming the offending key. */
/** TOLLGATE_* variables read outside the table above (by the CLI). */
const OTHER_ENV_NAMES = ['TOLLGATE_CONFIG', 'TOLLGATE_OPERATOR_PASSWORD'];

/** Every TOLLGATE_* name this version reads, per-network ones spelt out for each network. */
function knownEnvNames(): string[] {
  const perNetwork = Object.keys(NETWORK_ENV_KEYS).flatMap((k) =>
    NETWORK_SYMBOLS.map((s) => `TOLLGATE_${k}_${s.toUpperCase()}`),
  );
  return [...Object.keys(ENV_KEYS), ...OTHER_ENV_NAMES, ...perNetwork];
}

/** Edit distance (insertions, deletions, substitutions), for "did you mean". */
function editDistance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++)
      next[j] = Math.min(
        row[j]! + 1,
        next[j - 1]! + 1,
        row[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    row = next;
  }
  return row[b.length]!;
}

/**
 * Keys of the TOLLGATE_CONFIG file this version does not read (a typo, `webhok_timeout_ms`), as
 * paths (`travel_rule.smtp_ulr`): the start warns about them, as about unknown variables, instead
 * of ignoring them silently. Empty without a file (a file that cannot be read is loadConfig's).
 */
export function unknownConfigFileKeys(env: Env = process.env): string[] {
  if (!env.TOLLGATE_CONFIG) return [];
  let file: Json;
  try {
    file = readJsonFile(env.TOLLGATE_CONFIG, 'TOLLGATE_CONFIG');
  } catch {
    return [];
  }
  return unknownKeys(ConfigSchema, file, []);
}

/** The keys of `value` (JSON) that `schema` has no place for, as dotted paths. */
function unknownKeys(schema: z.ZodType, value: unknown, path: string[]): string[] {
  let s = schema as z.ZodType & { _zod: { def: Record<string, unknown> } };
  // Through the wrappers a field may have (optional, a default, a transform after it).
  for (;;) {
    const def = s._zod.def;
    const inner = (def.innerType ?? (def.type === 'pipe' ? def.in : undefined)) as
      | typeof s
      | undefined;
    if (!inner) break;
    s = inner;
  }
  const def = s._zod.def;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return [];
  if (def.type === 'record')
    return Object.entries(value).flatMap(([k, v]) =>
      unknownKeys(def.valueType as z.ZodType, v, [...path, k]),
    );
  if (def.type !== 'object') return [];
  const shape = def.shape as Record<string, z.ZodType>;
  // A key starting with `$` is a note (`$comment`, as config/default.json has), not a setting.
  return Object.entries(value).flatMap(([k, v]) =>
    Object.hasOwn(shape, k)
      ? unknownKeys(shape[k]!, v, [...path, k])
      : k.startsWith('$')
        ? []
        : [[...path, k].join('.')],
  );
}

/**
 * TOLLGATE_* variables this version does not read (a typo, a setting of another version), each
 * with the closest name it does read where one is near: the start warns about them instead of
 * ignoring them silently.
 */
export function unknownEnvVariables(env: Env = process.env): { name: string; closest?: string }[] {
  const known = knownEnvNames();
  const knownSet = new Set(known);
  return Object.keys(env)
    .filter((name) => name.startsWith('TOLLGATE_') && !knownSet.has(name))
    .sort()
    .map((name) => {
      let best: { name: string; d: number } | undefined;
      for (const k of known) {
        const d = editDistance(name, k);
        if (!best || d < best.d) best = { name: k, d };
      }
      return best && best.d <= Math.max(3, Math.floor(name.length / 4))
        ? { name, closest: best.name }
        : { name };
    });
}

export function loadConfig(env: Env = process.env): Config {
  const sources: Sources = new Map();
  const raw: Json = {};
  mergeInto(
    raw,
    readJsonFile(projectPath('config', 'default.json'), 'config/default.json'),
    sources,
    'config/default.json',
  );
  if (env.TOLLGATE_CONFIG)
    mergeInto(
      raw,
      readJsonFile(env.TOLLGATE_CONFIG, 'TOLLGATE_CONFIG'),
      sources,
      env.TOLLGATE_CONFIG,
    );

  for (const [name, spec] of Object.entries(ENV_KEYS)) {
    const value = env[name];
    if (value === undefined || (value === '' && spec.type !== 'list')) continue;
    setPath(raw, spec.path.split('.'), parseEnvValue(name, value, spec.type));
    sources.set(spec.path, name);
  }
  for (const [name, value] of Object.entries(env)) {
    const m =
      /^TOLLGATE_(RPC|HEADS|CONFIRMATIONS|START_BLOCK|POLL_INTERVAL_MS|MAX_REORG_DEPTH|FINALITY|NODE_BEHIND_S|INTERNAL_TRANSFERS)_([A-Z0-9]+)$/.exec(
        name,
      );
    if (!m || value === undefined || value === '') continue;
    const spec = NETWORK_ENV_KEYS[m[1]!]!;
    const symbol = m[2]!.toLowerCase();
    if (!networkInfo(symbol))
      throw new ConfigError(
        `${name}: unknown network symbol "${symbol}" (known: ${NETWORK_SYMBOLS.join(', ')})`,
      );
    setPath(raw, ['networks', symbol, spec.field], parseEnvValue(name, value, spec.type));
    sources.set(`networks.${symbol}.${spec.field}`, name);
    sources.set(`networks.${symbol}`, name);
  }

  const parsed = ConfigSchema.safeParse(raw);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => {
      const path = issue.path.map(String).join('.');
      let name = sources.get(path);
      for (let i = issue.path.length - 1; !name && i > 0; i--)
        name = sources.get(issue.path.slice(0, i).map(String).join('.'));
      return `${name ?? path}: ${issue.message}`;
    });
    throw new ConfigError(`Invalid configuration:\n  ${lines.join('\n  ')}`);
  }
  const config = parsed.data;
  if (Boolean(config.tls_cert) !== Boolean(config.tls_key)) {
    throw new ConfigError(
      `${config.tls_cert ? 'TOLLGATE_TLS_KEY' : 'TOLLGATE_TLS_CERT'}: TLS needs both TOLLGATE_TLS_CERT and TOLLGATE_TLS_KEY`,
    );
  }
  if (config.operator_webhook_url && !config.operator_webhook_secret)
    throw new ConfigError(
      `${sources.get('operator_webhook_url') ?? 'operator_webhook_url'}: the operator webhook needs TOLLGATE_OPERATOR_WEBHOOK_SECRET to sign its notices (e.g. echo "whsec_$(openssl rand -base64 32)")`,
    );
  const devChain = wantsDevChain(config);
  for (const [symbol, net] of Object.entries(config.networks)) {
    if (net.heads && networkInfo(symbol)?.family !== 'evm')
      throw new ConfigError(
        `${sources.get(`networks.${symbol}.heads`) ?? `networks.${symbol}.heads`}: pushed new heads are for EVM networks; ${symbol} is polled`,
      );
    if (net.internal_transfers && networkInfo(symbol)?.family !== 'evm')
      throw new ConfigError(
        `${sources.get(`networks.${symbol}.internal_transfers`) ?? `networks.${symbol}.internal_transfers`}: internal transfers are read from EVM call traces; a ${symbol} transaction shows all it pays`,
      );
    if (net.rpc || (devChain && symbol === 'eth')) continue;
    const name = sources.get(`networks.${symbol}`) ?? `networks.${symbol}`;
    throw new ConfigError(
      `${name}: network ${symbol} has settings but no RPC URL (set TOLLGATE_RPC_${symbol.toUpperCase()})`,
    );
  }
  // Something other than a directory there stops every command further on, with the file
  // system's ENOTDIR naming a file inside it; said here, naming the setting.
  const dataDir = statSync(config.data_dir, { throwIfNoEntry: false });
  if (dataDir && !dataDir.isDirectory())
    throw new ConfigError(
      `${sources.get('data_dir') ?? 'data_dir'}: ${config.data_dir} is not a directory (a file is there); name a directory, or where one may be made`,
    );
  return config;
}

/** A network the indexer follows, with every default applied. */
export interface ResolvedNetwork {
  symbol: string;
  family: 'evm' | 'utxo';
  rpc: string;
  /** EVM: the ws(s):// URL whose pushed new heads wake the indexer; undefined: polled. */
  heads: string | undefined;
  maxReorgDepth: number;
  confirmations: number;
  /** Undefined: not chosen (the first start refuses to guess). */
  startBlock: 'head' | number | undefined;
  pollIntervalMs: number;
  finality: 'node' | 'depth';
  /** Set by the operator (undefined: the indexer applies the table's on the mainnet, 0 elsewhere). */
  nodeBehindS: number | undefined;
  /** EVM: whether call traces are read for internal transfers (where the node has them). */
  internalTransfers: 'auto' | 'off';
}

/** Confirmations on the dev chain unless configured: it mines a block a second. */
export const DEV_CHAIN_CONFIRMATIONS = 3;

/** The networks to index: those with an RPC URL, plus eth on the dev chain when it runs. */
export function resolveNetworks(config: Config, devChainUrl?: string): ResolvedNetwork[] {
  const out: ResolvedNetwork[] = [];
  for (const [symbol, net] of Object.entries(config.networks)) {
    if (!net.rpc) continue;
    const info = networkInfo(symbol)!;
    out.push({
      symbol,
      family: info.family as 'evm' | 'utxo',
      rpc: net.rpc,
      heads:
        info.family === 'evm'
          ? (net.heads ?? (/^wss?:/.test(net.rpc) ? net.rpc : undefined))
          : undefined,
      confirmations: confirmationsFor(config, symbol),
      startBlock: net.start_block,
      pollIntervalMs: net.poll_interval_ms ?? config.indexer_poll_interval_ms,
      maxReorgDepth: net.max_reorg_depth ?? info.max_reorg_depth ?? 64,
      finality: net.finality ?? 'node',
      nodeBehindS: net.node_behind_s,
      internalTransfers: net.internal_transfers ?? 'auto',
    });
  }
  if (devChainUrl && !out.some((n) => n.symbol === 'eth')) {
    const eth = config.networks.eth;
    out.push({
      symbol: 'eth',
      family: 'evm',
      rpc: devChainUrl,
      heads: eth?.heads,
      confirmations: eth?.confirmations ?? DEV_CHAIN_CONFIRMATIONS,
      // A new chain at every start (its history is forgotten): all of it.
      startBlock: eth?.start_block ?? 0,
      pollIntervalMs: eth?.poll_interval_ms ?? 200,
      maxReorgDepth: eth?.max_reorg_depth ?? 64,
      // Hardhat answers `finalized` with its head, and its blocks can be reverted.
      finality: eth?.finality ?? 'depth',
      nodeBehindS: eth?.node_behind_s,
      internalTransfers: eth?.internal_transfers ?? 'auto',
    });
  }
  return out;
}

/** Confirmations for a network: its configured value, else the network table's default. */
export function confirmationsFor(config: Config, network: string): number {
  return config.networks[network]?.confirmations ?? networkInfo(network)?.confirmations ?? 12;
}

/** The dev chain runs when asked for, or by default when no network has an RPC URL. */
export function wantsDevChain(config: Config): boolean {
  return config.dev_chain ?? !Object.values(config.networks).some((n) => n.rpc);
}

/**
 * Where other VASPs reach this appliance's web pages (e-mailed view links): travel_rule.public_url,
 * else this host's HTTPS port; no trailing slash.
 */
export function travelRulePublicUrl(config: Config, port: number = config.port): string {
  return (config.travel_rule.public_url ?? `https://localhost:${port}`).replace(/\/+$/, '');
}

/**
 * Where other VASPs send TRP messages (inquiry URLs, callbacks, Travel Addresses): the mutual-TLS
 * listener's travel_rule.trp_public_url, else its port on this host; without that listener, the
 * API's address (travelRulePublicUrl). No trailing slash.
 */
export function trpPublicUrl(
  config: Config,
  ports: { api?: number | undefined; trp?: number | undefined } = {},
): string {
  const tr = config.travel_rule;
  if (tr.trp_port === undefined) return travelRulePublicUrl(config, ports.api ?? config.port);
  return (tr.trp_public_url ?? `https://localhost:${ports.trp ?? tr.trp_port}`).replace(/\/+$/, '');
}
