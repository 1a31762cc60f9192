import { setMaxListeners } from 'node:events';
import { noteIfSlow, stopStepWithin } from './slow-step.js';
import type { PublicClient } from 'viem';
import {
  type Config,
  type ResolvedNetwork,
  resolveNetworks,
  travelRulePublicUrl,
  trpPublicUrl,
  wantsDevChain,
} from './config/index.js';
import type { Sql } from './db/index.js';
import { type Database, openDatabase } from './db/open.js';
import { apiStatementTimeoutMs } from './db/time-limits.js';
import { connectionLimits, connectionShortfall } from './db/connections.js';
import { ApiKeyCache, ensureApiKey } from './keys/index.js';
import { ProxyTrust } from './net/proxy.js';
import { setOperatorPolicy } from './operators/index.js';
import { SEALED_COLUMNS } from './sealed-columns.js';
import { createApp } from './api/app.js';
import { createTrpApp } from './api/trp.js';
import { Admission } from './api/admission.js';
import { PageCache } from './wallet/index.js';
import { createHealthApp } from './api/health.js';
import { checkPortsFree, startServer, type RunningServer } from './api/server.js';
import { loadTls } from './api/tls.js';
import {
  closeEvmClient,
  createEvmClient,
  createEvmBlockSource,
  type TraceOptions,
  type EvmBlockSource,
  evmClientSource,
} from './chains/evm/client.js';
import { nodeLabel } from './indexer/node-errors.js';
import { startDevChain, type DevChain } from './devchain/devchain.js';
import { EvmIndexer } from './indexer/evm/indexer.js';
import { UtxoIndexer } from './indexer/utxo/indexer.js';
import { UtxoRpc } from './chains/utxo/client.js';
import { forgetNetwork } from './indexer/evm/store.js';
import { readCursor } from './indexer/cursor.js';
import { jobQueueConnections, startWorker, type Worker } from './jobs/worker.js';
import { sensitiveReach, parseAllowList } from './net/ssrf.js';
import { log, setLogLevel } from './log.js';
import { describeError } from './errors.js';
import { VERSION } from './version.js';
import { TokenBuckets } from './api/ratelimit.js';
import { importShippedLabels, listContracts, syncExposureSettings } from './aml/index.js';
import { readFileSync } from 'node:fs';
import {
  createMailer,
  logRelayCheck,
  loadKeyring,
  seedVaspsFromFile,
  type SenderDeps,
  DtiTable,
  missingKey,
  missingKeys,
  leafCertificate,
} from './travelrule/index.js';

/** The certificate TRP's GET /identity shows, from its PEM file; none without one. */
function identityCertificateOf(file: string | undefined): string | undefined {
  return file === undefined ? undefined : leafCertificate(readFileSync(file, 'utf8'), file);
}

/** How long a stop waits for the indexers' blocks in hand (see the stop below). */
export const INDEXERS_STOP_MS = 15_000;

export interface Roles {
  api: boolean;
  worker: boolean;
  /** Networks to index: all configured ones, a list, or none. */
  indexer: 'all' | readonly string[] | false;
  /** Start the local dev chain when no RPC is configured (the `start` command). */
  devChain: boolean;
}

/**
 * The dev chain keeps no state across restarts: when the block under the stored cursor is not
 * on it any more, what was indexed belongs to an earlier dev chain and is forgotten.
 */
/**
 * How an EVM block source's call traces are configured and told about: whether the node has
 * them (once each way: a node without them leaves internal transfers unseen, which an operator
 * must know), and blocks it could not trace for want of state, at most one line a minute.
 */
function traceLogging(network: string, rpc: string, mode: 'auto' | 'off'): TraceOptions {
  const node = nodeLabel(rpc);
  let untraced = 0;
  let lastLine = 0;
  return {
    internalTransfers: mode,
    onTracing: (available, reason) => {
      if (available)
        log.info({ network, node }, 'the node has call traces: internal transfers are read');
      else
        log.warn(
          { network, node, reason },
          'the node has no call traces (neither trace_block nor debug_traceBlockByNumber with callTracer): coin contracts move inside transactions (internal transfers, such as a mixer paying out) is not seen; asked again in 10 minutes',
        );
    },
    onUntraced: (block, reason) => {
      untraced++;
      if (Date.now() - lastLine < 60_000) return;
      lastLine = Date.now();
      log.warn(
        { network, node, block: block.toString(), blocks: untraced, reason },
        'the node could not trace blocks (it lacks their state; an archive node has it): stored without their internal transfers',
      );
      untraced = 0;
    },
  };
}

async function forgetStaleDevChain(sql: Sql, source: EvmBlockSource): Promise<void> {
  const cursor = await readCursor(sql, 'eth');
  if (!cursor || cursor.block_hash === '') return;
  const hash = await source.blockHash(BigInt(cursor.block_number));
  if (hash?.toLowerCase() === cursor.block_hash) return;
  log.warn(
    { network: 'eth', indexed_block: Number(cursor.block_number) },
    'dev chain is new: forgetting what was indexed from the previous one',
  );
  await forgetNetwork(sql, 'eth');
}

export interface Appliance {
  db: Database;
  apiPort: number | undefined;
  /** TOLLGATE_BOOTSTRAP_API_KEY, made (or found) before the API listened. */
  bootstrapKey?: { created: boolean; webhook_secret: string } | undefined;
  /** The mutual-TLS TRP listener's port (travel_rule.trp_port), when there is one. */
  trpPort: number | undefined;
  /** The plain-HTTP /healthz and /readyz listener's port (health_port), when there is one. */
  healthPort: number | undefined;
  networks: ResolvedNetwork[];
  devChainUrl: string | undefined;
  stop(): Promise<void>;
}

/**
 * Starts the asked-for roles in this process. `stop()` finishes in-flight work and closes
 * everything in order: HTTP server, indexers (block in hand), worker (jobs in hand), pools,
 * the embedded database, the dev chain.
 */
/**
 * The first start of a network indexes from a block the operator chose: "head" (no history) or a
 * block number. Without a choice it stops here, naming the variable, rather than silently start at
 * the head (wallet answers would be empty and look complete). Later starts go on from the cursor.
 */
async function requireStartBlockChoice(
  sql: Sql,
  networks: readonly ResolvedNetwork[],
  indexed: Roles['indexer'],
): Promise<void> {
  const unchosen = networks.filter(
    (n) => n.startBlock === undefined && (indexed === 'all' || (indexed || []).includes(n.symbol)),
  );
  if (unchosen.length === 0) return;
  const started = await sql<{ network: string }[]>`
    select network from indexer_cursors where network = any(${unchosen.map((n) => n.symbol)}::text[])`;
  const first = unchosen.filter((n) => !started.some((r) => r.network === n.symbol));
  if (first.length === 0) return;
  throw new Error(
    `first start of ${first.map((n) => n.symbol).join(', ')}: choose how far back to index with ${first
      .map((n) => `TOLLGATE_START_BLOCK_${n.symbol.toUpperCase()}`)
      .join(
        ', ',
      )} (or networks.<network>.start_block): "head" indexes from now on (no history), a block number indexes from that block; older history can be added later with "tollgate indexer backfill" (README: How far back to index)`,
  );
}

/**
 * The most database connections a process of these roles opens: the pool of the indexers, the
 * worker and the start; the API's pool and its key cache's listener; the job queue's pool, the
 * worker's liveness lock and the dispatcher's listener; one lock per indexed network.
 */
function connectionsWanted(
  config: Config,
  roles: Roles,
  networks: readonly ResolvedNetwork[],
): number {
  const indexed = networks.filter(
    (n) => roles.indexer === 'all' || (roles.indexer || []).includes(n.symbol),
  ).length;
  return (
    config.database_pool_max +
    (roles.api ? config.api_database_pool_max + 1 : 0) +
    (roles.worker ? jobQueueConnections(config.worker_concurrency) + 2 : 0) +
    indexed
  );
}

export async function startAppliance(config: Config, roles: Roles): Promise<Appliance> {
  setLogLevel(config.log_level);
  let devChain: DevChain | undefined;
  const useDevChain = roles.devChain && wantsDevChain(config);
  // The listeners of these roles: where, and the setting that says so.
  const at = (port: number | undefined, portSetting: string) =>
    port === undefined ? undefined : { host: config.host, port, portSetting };
  const listeners = {
    api: roles.api ? at(config.port, 'TOLLGATE_PORT') : undefined,
    trp: roles.api ? at(config.travel_rule.trp_port, 'TOLLGATE_TRP_PORT') : undefined,
    health: at(config.health_port, 'TOLLGATE_HEALTH_PORT'),
  };
  // Before the database is opened and migrated: a start that cannot listen changes nothing.
  await checkPortsFree(Object.values(listeners).filter((l) => l !== undefined));
  const db = await openDatabase(config);
  let server: RunningServer | undefined;
  let trpServer: RunningServer | undefined;
  let healthServer: RunningServer | undefined;
  let apiKeys: ApiKeyCache | undefined;
  let runner: Worker | undefined;
  let mailer: ReturnType<typeof createMailer>;
  const indexers: (EvmIndexer | UtxoIndexer)[] = [];
  /** Aborted once every indexer is stopping: their EVM node calls still waiting are given up. */
  const indexerCalls = new AbortController();
  // Each call in flight listens on it (a backfill has dozens): that is the work, not a leak.
  setMaxListeners(0, indexerCalls.signal);
  const stopIndexers = () => {
    const stopped = Promise.all(indexers.map((i) => i.stop()));
    // Each indexer now knows it is stopping (stop() says so at once): a node call still waiting
    // is given up instead of waited for, up to its timeout and retries. The block it was for was
    // not in hand; the next start fetches it again.
    indexerCalls.abort();
    return stopped;
  };
  try {
    // What the exposure triggers read: the 'evm' label scope, when a hub's label goes to a job.
    await syncExposureSettings(db.sql, config.aml.exposure_defer_above);
    // The bootstrap key exists before the API answers: a client that sees /healthz up can use it.
    const bootstrapKey =
      roles.api && config.bootstrap_api_key
        ? await ensureApiKey(db.sql, 'bootstrap', config.bootstrap_api_key)
        : undefined;
    await importShippedLabels(db.sql); // config/labels/, once per start; cheap when unchanged
    if (useDevChain) {
      devChain = await startDevChain(config.dev_chain_port, config.dev_chain_node);
      await forgetStaleDevChain(db.sql, createEvmBlockSource(devChain.url));
    }
    const networks = resolveNetworks(config, devChain?.url);
    // A bad on-chain list entry in config/networks.json stops the start, naming it.
    for (const n of networks) if (n.family === 'evm') listContracts(n.symbol);
    if (roles.indexer) await requireStartBlockChoice(db.sql, networks, roles.indexer);
    // A database that cannot give this process every connection it may open is said at start.
    const wanted = connectionsWanted(config, roles, networks);
    const short = connectionShortfall(wanted, await connectionLimits(db.sql));
    if (short) log.warn({ connections: wanted }, short);
    // Three outbound allow-lists, by who chose the URL: the operator's own webhook receivers,
    // counterparties' TRP URLs, NFT metadata URLs (any contract's author). Opening one never
    // opens another. The dev chain's receivers are on this machine: loopback is allowed with it.
    const withDev = (cidrs: readonly string[]) =>
      parseAllowList(useDevChain ? [...cidrs, '127.0.0.0/8', '::1/128'] : [...cidrs]);
    for (const [variable, cidrs] of [
      ['TOLLGATE_WEBHOOK_ALLOW_CIDRS', config.webhook_allow_cidrs],
      ['TOLLGATE_TRP_ALLOW_CIDRS', config.travel_rule.trp_allow_cidrs],
      ['TOLLGATE_NFT_METADATA_ALLOW_CIDRS', config.nft_metadata_allow_cidrs],
    ] as const) {
      const opened = sensitiveReach(parseAllowList(cidrs));
      if (opened.length)
        log.warn(
          { variable, opens: opened },
          `${variable} lets outbound requests reach ${opened.join(' and ')}; narrow it to the ranges your own receivers are in`,
        );
    }
    const allow = withDev(config.webhook_allow_cidrs);
    const trpAllow = withDev(config.travel_rule.trp_allow_cidrs);
    const metadataAllow = withDev(config.nft_metadata_allow_cidrs);
    const clients = new Map<string, PublicClient>(
      networks.filter((n) => n.family === 'evm').map((n) => [n.symbol, createEvmClient(n.rpc)]),
    );
    const utxoClients = new Map(
      networks.filter((n) => n.family === 'utxo').map((n) => [n.symbol, new UtxoRpc(n.rpc)]),
    );

    // Travel Rule: the data keyring (read or generated now, so a bad key stops the start), the
    // directory from config/vasps.json, the SMTP relay, and where other VASPs reach us.
    const tr = config.travel_rule;
    const keyring = loadKeyring({
      dataKey: config.data_key,
      dataKeysOld: config.data_keys_old,
      dataDir: config.data_dir,
    });
    // Rows sealed with a key that is not configured are said now, naming the setting (each read
    // of one refuses the same way); the rest of the appliance runs. The same columns as
    // `tollgate data-key rotate` (src/sealed-columns.ts).
    for (const m of await missingKeys(db.sql, keyring, SEALED_COLUMNS))
      log.error(
        { table: m.column.table, key_id: m.keyId, rows: m.rows },
        missingKey(m.column, m.keyId, m.rows).message,
      );
    const seeded = await seedVaspsFromFile(db.sql, tr.vasps_file);
    if (seeded.added || seeded.updated)
      log.info(seeded, 'VASP directory seeded from the configured file');
    mailer = roles.worker ? createMailer(tr) : undefined;
    if (mailer) void logRelayCheck(mailer, log);
    const travelRule: SenderDeps = {
      sql: db.sql,
      keyring,
      config: tr,
      aml: config.aml,
      dtis: DtiTable.load(tr.dti_file),
      indexedNetworks: networks.map((n) => n.symbol),
      publicUrl: '',
      trpUrl: '',
      // TRP's GET /identity: the certificate this VASP presents, else its TRP listener's.
      identityCertificate: identityCertificateOf(
        tr.trp_client_cert_file ?? tr.trp_server_cert_file,
      ),
      maxAttempts: config.webhook_max_attempts,
      // A minute's worth may come at once.
      inquiryBuckets:
        tr.trp_inquiries_per_minute > 0
          ? new TokenBuckets({
              perMinute: tr.trp_inquiries_per_minute,
              burst: tr.trp_inquiries_per_minute,
            })
          : undefined,
      allow: trpAllow,
      mailer,
      trpCa: tr.trp_ca_file ? readFileSync(tr.trp_ca_file, 'utf8') : undefined,
      trpClientCert:
        tr.trp_client_cert_file && tr.trp_client_key_file
          ? {
              cert: readFileSync(tr.trp_client_cert_file, 'utf8'),
              key: readFileSync(tr.trp_client_key_file, 'utf8'),
            }
          : undefined,
    };
    // The API's requests run on a pool of their own (apiPool below), with these same deps.
    const apiTravelRule: SenderDeps = { ...travelRule };
    const setPublicUrls = (ports: { api?: number; trp?: number } = {}) => {
      for (const deps of [travelRule, apiTravelRule]) {
        deps.publicUrl = travelRulePublicUrl(config, ports.api ?? config.port);
        deps.trpUrl = trpPublicUrl(config, ports);
      }
    };
    setPublicUrls();

    if (roles.worker) {
      runner = await startWorker(
        db.url,
        {
          sql: db.sql,
          evmClients: clients,
          // The NFT metadata job's node calls, which its signal ends when the worker stops.
          evmClientFor: evmClientSource(
            new Map(networks.filter((n) => n.family === 'evm').map((n) => [n.symbol, n.rpc])),
            clients,
          ),
          timeoutMs: config.webhook_timeout_ms,
          allow,
          metadataAllow,
          nftIpfsGateway: config.nft_ipfs_gateway,
          aml: config.aml,
          webhookMaxAttempts: config.webhook_max_attempts,
          keyring,
          travelRuleWebhookUrl: tr.webhook_url,
          travelRule,
          operatorWebhook:
            config.operator_webhook_url && config.operator_webhook_secret
              ? { url: config.operator_webhook_url, secret: config.operator_webhook_secret }
              : undefined,
        },
        config.worker_concurrency,
        {
          concurrency: config.delivery_concurrency,
          endpointConcurrency: config.delivery_endpoint_concurrency,
          maxAttempts: config.webhook_max_attempts,
          disableAfterS: config.webhook_disable_after_hours * 3600,
        },
      );
    }
    if (roles.indexer) {
      const wanted =
        roles.indexer === 'all'
          ? networks
          : networks.filter((n) => (roles.indexer as readonly string[]).includes(n.symbol));
      if (roles.indexer !== 'all') {
        const missing = roles.indexer.filter(
          (symbol) => !networks.some((n) => n.symbol === symbol),
        );
        if (missing.length)
          throw new Error(
            `not configured: ${missing.join(', ')} (set ${missing.map((m) => `TOLLGATE_RPC_${m.toUpperCase()}`).join(', ')})`,
          );
      }
      if (wanted.length === 0) log.warn('no network to index: set TOLLGATE_RPC_<NETWORK>');
      for (const n of wanted) {
        const options = {
          network: n.symbol,
          confirmations: n.confirmations,
          startBlock: n.startBlock,
          pollIntervalMs: n.pollIntervalMs,
          maxReorgDepth: n.maxReorgDepth,
          finality: n.finality,
          nodeBehindS: n.nodeBehindS,
          databaseUrl: db.url,
          headsUrl: n.heads,
          node: nodeLabel(n.rpc),
        };
        const indexer =
          n.family === 'utxo'
            ? new UtxoIndexer(db.sql, new UtxoRpc(n.rpc, { signal: indexerCalls.signal }), options)
            : new EvmIndexer(
                db.sql,
                // Over http(s) clients of its own, whose waiting calls a stop gives up; over
                // ws(s) the network's one connection (closed at the stop).
                createEvmBlockSource(n.rpc, {
                  signal: indexerCalls.signal,
                  shared: clients.get(n.symbol),
                  onBatchLimit: (size, reason) =>
                    log.warn(
                      { network: n.symbol, node: nodeLabel(n.rpc), batch_size: size, reason },
                      'the node refused a batch of calls: sending smaller batches',
                    ),
                  ...traceLogging(n.symbol, n.rpc, n.internalTransfers),
                }),
                options,
              );
        indexer.start();
        indexers.push(indexer);
      }
    }
    if (roles.api) {
      const proxies = ProxyTrust.of(config.trust_proxy);
      const tls = proxies
        ? null
        : await loadTls({
            certFile: config.tls_cert,
            keyFile: config.tls_key,
            dataDir: config.data_dir,
          });
      // The API's requests (the API, the dashboard, the TRP listener) on a pool of their own: a
      // burst of requests waiting on the database (a slow statement, a lock, a flood) holds
      // only these connections, never the ones the indexer and the worker need, so blocks are
      // stored and events delivered meanwhile. Its sessions' statement_timeout is the request
      // deadline (or the database's own, if lower): a statement still running when its request
      // was answered 503 is cancelled by the server instead of running on.
      const apiSql = db.pool({
        application: 'tollgate-api',
        max: config.api_database_pool_max,
        statementTimeoutMs: await apiStatementTimeoutMs(db.sql, config.request_timeout_ms),
      });
      apiTravelRule.sql = apiSql;
      apiKeys = new ApiKeyCache(apiSql);
      // How operators log in here (the roles that need a second factor, whose forwarded client
      // address is believed, this process's login limits): the dashboard and /ops find it by pool.
      setOperatorPolicy(apiSql, {
        mfaRequiredRoles: config.mfa_required_roles,
        trustProxy: proxies,
      });
      // One line for every face on the API's pool (src/api/admission.ts).
      const admission = new Admission(config.api_max_concurrent_requests);
      const app = createApp({
        apiKeys,
        sql: apiSql,
        allow,
        trustProxy: proxies,
        networks: networks.map((n) => n.symbol),
        confirmations: new Map(networks.map((n) => [n.symbol, n.confirmations])),
        maxLagBlocks: config.indexer_max_lag_blocks,
        version: VERSION,
        nftIpfsGateway: config.nft_ipfs_gateway,
        aml: config.aml,
        evmClients: clients,
        utxoClients,
        travelRule: apiTravelRule,
        trpListener: tr.trp_port !== undefined,
        metricsToken: config.metrics_token,
        metricsAllowCidrs: config.metrics_allow_cidrs,
        rateLimit: { perMinute: config.rate_limit_per_minute, burst: config.rate_limit_burst },
        subscriptionLimits: {
          streams: config.max_streams_per_key,
          trackings: config.max_trackings_per_key,
        },
        requestTimeoutMs: config.request_timeout_ms,
        admission,
        walletPageCache: new PageCache(config.wallet_page_cache_mb * 1024 * 1024),
      });
      server = await startServer(app, { ...listeners.api!, tls });
      if (listeners.trp) {
        // Its own certificate, else this VASP's TRP client certificate (one identity both ways).
        const certFile = tr.trp_server_cert_file ?? tr.trp_client_cert_file!;
        const keyFile = tr.trp_server_key_file ?? tr.trp_client_key_file!;
        trpServer = await startServer(
          createTrpApp(apiTravelRule, config.request_timeout_ms, admission),
          {
            ...listeners.trp,
            tls: {
              cert: readFileSync(certFile, 'utf8'),
              key: readFileSync(keyFile, 'utf8'),
              selfSigned: false,
            },
            clientCertificates: true,
          },
        );
      }
      setPublicUrls({ api: server.port, trp: trpServer?.port });
      log.info(
        { port: server.port, tls: tls ? (tls.selfSigned ? 'self-signed' : 'configured') : 'proxy' },
        'api listening',
      );
      log.info(
        {
          port: trpServer?.port ?? server.port,
          mutual_tls: trpServer !== undefined,
          require_client_cert: tr.trp_require_client_cert,
          public_url: travelRule.trpUrl,
        },
        trpServer
          ? 'TRP listening with mutual TLS'
          : tr.trp_require_client_cert
            ? 'TRP served on the API port, where no client certificate is seen: every inbound TRP message is refused until travel_rule.trp_port is set'
            : 'TRP served on the API port without client certificates: VASPs without pinned certificates are known by their URL token alone',
      );
    }
    // Whatever the roles: a worker's or an indexer's process can be probed as well as the API's.
    if (listeners.health) {
      healthServer = await startServer(
        createHealthApp({
          sql: db.sql,
          networks: networks.map((n) => n.symbol),
          maxLagBlocks: config.indexer_max_lag_blocks,
        }),
        { ...listeners.health, tls: null },
      );
      log.info({ port: healthServer.port }, 'health listening (plain HTTP: /healthz, /readyz)');
    }
    const appliance: Appliance = {
      db,
      apiPort: server?.port,
      bootstrapKey,
      trpPort: trpServer?.port,
      healthPort: healthServer?.port,
      networks,
      devChainUrl: devChain?.url,
      // Each step runs whatever the ones before it met (a database gone, a role that failed):
      // a stop is always carried through, and never throws.
      stop: async () => {
        const step = async (
          what: string,
          fn: () => Promise<unknown> | unknown,
          limitMs?: number,
        ) => {
          try {
            await (limitMs === undefined
              ? noteIfSlow(what, fn)
              : stopStepWithin(what, limitMs, fn));
          } catch (err) {
            log.warn({ error: describeError(err) }, `while stopping: ${what} failed`);
          }
        };
        await step('closing the API server', () => server?.close());
        await step('forgetting the API keys', () => apiKeys?.stop());
        await step('closing the TRP listener', () => trpServer?.close());
        await step('closing the health listener', () => healthServer?.close());
        // Independent of each other: side by side. The worker bounds its own stop (WORKER_STOP_MS);
        // an indexer's block in hand that is still not stored after INDEXERS_STOP_MS (held up in
        // the database: a lock, a network cut) is left as a kill leaves it: its transaction never
        // commits, and the next start fetches that block again.
        await Promise.all([
          step('stopping the indexers', stopIndexers, INDEXERS_STOP_MS),
          step('stopping the worker', () => runner?.stop()),
        ]);
        await step('closing the node connections', () =>
          Promise.all([...clients.values()].map(closeEvmClient)),
        );
        await step('closing the mailer', () => mailer?.close());
        await step('closing the database pool', () => db.close());
        await step('stopping the dev chain', () => devChain?.stop());
        log.info('stopped');
      },
    };
    return appliance;
  } catch (err) {
    await server?.close().catch(() => {});
    await trpServer?.close().catch(() => {});
    await healthServer?.close().catch(() => {});
    await stopIndexers().catch(() => {});
    await runner?.stop().catch(() => {});
    await db.close().catch(() => {});
    await devChain?.stop().catch(() => {});
    throw err;
  }
}
