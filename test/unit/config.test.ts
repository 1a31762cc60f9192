import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  ConfigError,
  loadConfig,
  resolveNetworks,
  unknownConfigFileKeys,
  unknownEnvVariables,
  wantsDevChain,
} from '../../src/config/index.js';
import { nodeBehindLimitS } from '../../src/indexer/chain-indexer.js';

describe('loadConfig', () => {
  it('takes the TRP client certificate and its key together', () => {
    expect(() => loadConfig({ TOLLGATE_TRP_CLIENT_CERT_FILE: '/etc/tollgate/trp.pem' })).toThrow(
      /given together/,
    );
    expect(
      loadConfig({
        TOLLGATE_TRP_CLIENT_CERT_FILE: '/etc/tollgate/trp.pem',
        TOLLGATE_TRP_CLIENT_KEY_FILE: '/etc/tollgate/trp.key',
      }).travel_rule.trp_client_key_file,
    ).toBe('/etc/tollgate/trp.key');
  });

  it('takes a travel rule webhook only over https, plain http only to loopback in development', () => {
    expect(() =>
      loadConfig({ TOLLGATE_TRAVEL_RULE_WEBHOOK_URL: 'http://backend.internal/tr' }),
    ).toThrow(/TOLLGATE_TRAVEL_RULE_WEBHOOK_URL: must be https/);
    expect(() =>
      loadConfig({
        TOLLGATE_TRAVEL_RULE_WEBHOOK_URL: 'http://backend.internal/tr',
        TOLLGATE_TRAVEL_RULE_ALLOW_HTTP_LOOPBACK: 'true',
      }),
    ).toThrow(/must be https \(plain http only to a loopback host\)/);
    expect(
      loadConfig({
        TOLLGATE_TRAVEL_RULE_WEBHOOK_URL: 'http://127.0.0.1:8080/tr',
        TOLLGATE_TRAVEL_RULE_ALLOW_HTTP_LOOPBACK: 'true',
      }).travel_rule.webhook_url,
    ).toBe('http://127.0.0.1:8080/tr');
    expect(
      loadConfig({ TOLLGATE_TRAVEL_RULE_WEBHOOK_URL: 'https://backend.internal/tr' }).travel_rule
        .webhook_url,
    ).toBe('https://backend.internal/tr');
  });

  it("takes this VASP's LEI only when it is one, in capitals", () => {
    expect(loadConfig({}).travel_rule.vasp_lei).toBeUndefined();
    expect(
      loadConfig({ TOLLGATE_TRAVEL_RULE_VASP_LEI: ' 529900t8bm49aursdo55 ' }).travel_rule.vasp_lei,
    ).toBe('529900T8BM49AURSDO55');
    for (const bad of ['529900T8BM49AURSDO56', '529900T8BM49AURSD', 'not an lei'])
      expect(() => loadConfig({ TOLLGATE_TRAVEL_RULE_VASP_LEI: bad }), bad).toThrow(
        /TOLLGATE_TRAVEL_RULE_VASP_LEI.*legal entity identifier/,
      );
  });

  it('takes an SMTP relay as scheme, login, host and port; TLS through its own settings', () => {
    const tr = loadConfig({
      TOLLGATE_SMTP_URL: 'smtp://user:p%40ss@mail.acme.example:587',
      TOLLGATE_SMTP_STARTTLS: 'if_offered',
    }).travel_rule;
    expect(tr).toMatchObject({
      smtp_url: 'smtp://user:p%40ss@mail.acme.example:587',
      smtp_starttls: 'if_offered',
    });
    expect(loadConfig({}).travel_rule.smtp_starttls).toBeUndefined();
    for (const url of [
      'smtp://mail.acme.example:587?requireTLS=true',
      'smtps://mail.acme.example/relay',
      'smtp://mail.acme.example#x',
    ])
      expect(() => loadConfig({ TOLLGATE_SMTP_URL: url }), url).toThrow(
        /TOLLGATE_SMTP_URL: takes no path or \?options/,
      );
    expect(() => loadConfig({ TOLLGATE_SMTP_STARTTLS: 'sometimes' })).toThrow(
      /TOLLGATE_SMTP_STARTTLS/,
    );
  });

  it('requires a second factor of every operator role by default; the roles are a list', () => {
    expect(loadConfig({}).mfa_required_roles).toEqual(['viewer', 'reviewer', 'admin']);
    expect(
      loadConfig({ TOLLGATE_MFA_REQUIRED_ROLES: 'admin, reviewer' }).mfa_required_roles,
    ).toEqual(['admin', 'reviewer']);
    expect(loadConfig({ TOLLGATE_MFA_REQUIRED_ROLES: '' }).mfa_required_roles).toEqual([]);
    expect(() => loadConfig({ TOLLGATE_MFA_REQUIRED_ROLES: 'admin,boss' })).toThrow(
      /TOLLGATE_MFA_REQUIRED_ROLES/,
    );
  });

  it('has working defaults and the dev chain when no RPC is set', () => {
    const c = loadConfig({});
    expect(c.port).toBe(8443);
    expect(c.data_dir).toBe('./data');
    expect(wantsDevChain(c)).toBe(true);
    expect(resolveNetworks(c, 'http://127.0.0.1:8545')).toEqual([
      expect.objectContaining({ symbol: 'eth', confirmations: 3 }),
    ]);
  });

  it('sizes the two database pools, 10 connections each unless set, 2 to 500', () => {
    expect(loadConfig({})).toMatchObject({ database_pool_max: 10, api_database_pool_max: 10 });
    expect(
      loadConfig({ TOLLGATE_DATABASE_POOL_MAX: '4', TOLLGATE_API_DATABASE_POOL_MAX: '30' }),
    ).toMatchObject({ database_pool_max: 4, api_database_pool_max: 30 });
    for (const bad of ['1', '501', 'ten'])
      expect(() => loadConfig({ TOLLGATE_API_DATABASE_POOL_MAX: bad })).toThrow(
        /TOLLGATE_API_DATABASE_POOL_MAX|api_database_pool_max/,
      );
  });

  it('lets 256 requests at once at work unless set, 1 to 100,000', () => {
    expect(loadConfig({}).api_max_concurrent_requests).toBe(256);
    expect(
      loadConfig({ TOLLGATE_API_MAX_CONCURRENT_REQUESTS: '16' }).api_max_concurrent_requests,
    ).toBe(16);
    for (const bad of ['0', '100001', '2.5', 'many'])
      expect(() => loadConfig({ TOLLGATE_API_MAX_CONCURRENT_REQUESTS: bad })).toThrow(
        /TOLLGATE_API_MAX_CONCURRENT_REQUESTS|api_max_concurrent_requests/,
      );
  });

  it('keeps 32 MiB of wallet pages unless set, 0 to 4096', () => {
    expect(loadConfig({}).wallet_page_cache_mb).toBe(32);
    expect(loadConfig({ TOLLGATE_WALLET_PAGE_CACHE_MB: '0' }).wallet_page_cache_mb).toBe(0);
    expect(loadConfig({ TOLLGATE_WALLET_PAGE_CACHE_MB: '0.5' }).wallet_page_cache_mb).toBe(0.5);
    for (const bad of ['-1', '4097', 'lots'])
      expect(() => loadConfig({ TOLLGATE_WALLET_PAGE_CACHE_MB: bad })).toThrow(
        /TOLLGATE_WALLET_PAGE_CACHE_MB|wallet_page_cache_mb/,
      );
  });

  it('reads per-network variables and applies the network table defaults', () => {
    const c = loadConfig({
      TOLLGATE_RPC_ETH: 'wss://node:8546',
      TOLLGATE_RPC_POLYGON: 'http://p',
      TOLLGATE_CONFIRMATIONS_POLYGON: '200',
      TOLLGATE_START_BLOCK_ETH: '1000',
    });
    expect(wantsDevChain(c)).toBe(false);
    const nets = resolveNetworks(c);
    expect(nets.find((n) => n.symbol === 'eth')).toMatchObject({
      rpc: 'wss://node:8546',
      heads: 'wss://node:8546', // a ws(s):// RPC URL pushes heads too
      confirmations: 12,
      startBlock: 1000,
    });
    // No start block chosen: the first start asks (src/appliance.ts); finality from the node.
    expect(nets.find((n) => n.symbol === 'polygon')).toMatchObject({
      confirmations: 200,
      startBlock: undefined,
      finality: 'node',
      heads: undefined, // polled
      internalTransfers: 'auto', // call traces read where the node has them
    });
    const off = loadConfig({
      TOLLGATE_RPC_ETH: 'http://e',
      TOLLGATE_INTERNAL_TRANSFERS_ETH: 'off',
    });
    expect(resolveNetworks(off)[0]!.internalTransfers).toBe('off');
  });

  it("counts a node behind when its newest block is older than the network's limit: the table's on the mainnet only, unless set", () => {
    const c = loadConfig({
      TOLLGATE_RPC_ETH: 'http://e',
      TOLLGATE_RPC_LITECOIN: 'http://u:p@l:9332',
      TOLLGATE_NODE_BEHIND_S_LITECOIN: '0',
    });
    const nets = resolveNetworks(c);
    expect(nets.find((n) => n.symbol === 'eth')!.nodeBehindS).toBeUndefined();
    expect(nets.find((n) => n.symbol === 'litecoin')!.nodeBehindS).toBe(0);
    expect(nodeBehindLimitS('eth', undefined, true)).toBe(300);
    expect(nodeBehindLimitS('bitcoin', undefined, true)).toBe(7200);
    // A dev chain (Hardhat's or anvil's chain id, litecoind -regtest) makes blocks only when asked.
    expect(nodeBehindLimitS('eth', undefined, false)).toBe(0);
    expect(nodeBehindLimitS('eth', 30, false)).toBe(30);
    expect(nodeBehindLimitS('litecoin', 0, true)).toBe(0);
    expect(() => loadConfig({ TOLLGATE_NODE_BEHIND_S_ETH: '-1' })).toThrow(
      /TOLLGATE_NODE_BEHIND_S_ETH/,
    );
  });

  it('takes pushed heads from TOLLGATE_HEADS_<NETWORK> beside an http RPC URL, for EVM networks', () => {
    const c = loadConfig({
      TOLLGATE_RPC_ETH: 'http://node:8545',
      TOLLGATE_HEADS_ETH: 'ws://node:8546',
      TOLLGATE_RPC_LITECOIN: 'http://u:p@node:9332',
    });
    const nets = resolveNetworks(c);
    expect(nets.find((n) => n.symbol === 'eth')).toMatchObject({
      rpc: 'http://node:8545',
      heads: 'ws://node:8546',
    });
    expect(nets.find((n) => n.symbol === 'litecoin')?.heads).toBeUndefined();
  });

  it.each([
    [{ TOLLGATE_PORT: 'abc' }, 'TOLLGATE_PORT'],
    [{ TOLLGATE_PORT: '70000' }, 'TOLLGATE_PORT'],
    [{ TOLLGATE_TRUST_PROXY: 'maybe' }, 'TOLLGATE_TRUST_PROXY'],
    [{ TOLLGATE_RPC_ETH: 'ftp://x' }, 'TOLLGATE_RPC_ETH'],
    [{ TOLLGATE_RPC_NOPE: 'http://x' }, 'TOLLGATE_RPC_NOPE'],
    [{ TOLLGATE_RPC_TRX: 'http://x' }, 'TOLLGATE_RPC_TRX'],
    [{ TOLLGATE_WEBHOOK_ALLOW_CIDRS: '10.0.0.0/8,banana' }, 'TOLLGATE_WEBHOOK_ALLOW_CIDRS'],
    [{ TOLLGATE_BOOTSTRAP_API_KEY: 'short' }, 'TOLLGATE_BOOTSTRAP_API_KEY'],
    [{ TOLLGATE_TLS_CERT: '/x.pem' }, 'TOLLGATE_TLS_KEY'],
    [
      { TOLLGATE_RPC_ETH: 'http://x', TOLLGATE_CONFIRMATIONS_BSC: '5' },
      'TOLLGATE_CONFIRMATIONS_BSC',
    ],
    [{ TOLLGATE_LOG_LEVEL: 'loud' }, 'TOLLGATE_LOG_LEVEL'],
    // Given to other VASPs (view links, TRP callbacks): no login in them.
    [
      { TOLLGATE_TRAVEL_RULE_PUBLIC_URL: 'https://u:pw@tollgate.example' },
      'TOLLGATE_TRAVEL_RULE_PUBLIC_URL',
    ],
    [{ TOLLGATE_TRP_PUBLIC_URL: 'https://u@tollgate.example:8444' }, 'TOLLGATE_TRP_PUBLIC_URL'],
    // Plain http to another host: the view links' tokens would cross networks in clear (found by
    // an outside probe).
    [
      { TOLLGATE_TRAVEL_RULE_PUBLIC_URL: 'http://tollgate.example' },
      'TOLLGATE_TRAVEL_RULE_PUBLIC_URL',
    ],
    [{ TOLLGATE_TRP_PUBLIC_URL: 'http://10.0.0.5:8444' }, 'TOLLGATE_TRP_PUBLIC_URL'],
    // The transaction's own block counts as one: 0 was taken (found by an outside probe).
    [{ TOLLGATE_CONFIRMATIONS_ETH: '0' }, 'TOLLGATE_CONFIRMATIONS_ETH'],
    [{ TOLLGATE_RPC_ETH: 'http://x', TOLLGATE_HEADS_ETH: 'http://x' }, 'TOLLGATE_HEADS_ETH'],
    [
      { TOLLGATE_RPC_BITCOIN: 'http://u:p@x:8332', TOLLGATE_HEADS_BITCOIN: 'ws://x' },
      'TOLLGATE_HEADS_BITCOIN',
    ],
    [{ TOLLGATE_CONFIG: '/nonexistent/tollgate.json' }, 'TOLLGATE_CONFIG'],
    [
      { TOLLGATE_RPC_ETH: 'http://x', TOLLGATE_INTERNAL_TRANSFERS_ETH: 'on' },
      'TOLLGATE_INTERNAL_TRANSFERS_ETH',
    ],
    // A Bitcoin-family transaction shows all it pays: no call traces to read.
    [
      { TOLLGATE_RPC_LITECOIN: 'http://u:p@x:9332', TOLLGATE_INTERNAL_TRANSFERS_LITECOIN: 'auto' },
      'TOLLGATE_INTERNAL_TRANSFERS_LITECOIN',
    ],
  ])('refuses %j naming %s', (env, name) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(name);
  });

  it('takes a public URL over plain http for a loopback host only (development)', () => {
    expect(
      loadConfig({ TOLLGATE_TRAVEL_RULE_PUBLIC_URL: 'http://127.0.0.1:8443' }).travel_rule
        .public_url,
    ).toBe('http://127.0.0.1:8443');
    expect(() => loadConfig({ TOLLGATE_TRP_PUBLIC_URL: 'http://localhost:8444' })).not.toThrow();
  });
});

describe('unknownEnvVariables', () => {
  it('names TOLLGATE_* variables this version does not read, with the closest known name', () => {
    expect(
      unknownEnvVariables({
        TOLLGATE_RPC_ETH: 'http://x', // known
        TOLLGATE_HEADS_ETH: 'ws://x', // known, per network
        TOLLGATE_OPERATOR_PASSWORD: 'x', // read by the CLI
        TOLLGATE_RCP_ETH: 'http://x',
        TOLLGATE_WEBHOOK_TIMEOUT: '5000',
        TOLLGATE_CONFIRMATION_POLYGON: '3',
        TOLLGATE_SOMETHING_ELSE_ENTIRELY: '1',
        PATH: '/bin', // not ours
      }),
    ).toEqual([
      { name: 'TOLLGATE_CONFIRMATION_POLYGON', closest: 'TOLLGATE_CONFIRMATIONS_POLYGON' },
      { name: 'TOLLGATE_RCP_ETH', closest: 'TOLLGATE_RPC_ETH' },
      { name: 'TOLLGATE_SOMETHING_ELSE_ENTIRELY' },
      { name: 'TOLLGATE_WEBHOOK_TIMEOUT', closest: 'TOLLGATE_WEBHOOK_TIMEOUT_MS' },
    ]);
  });
});

describe('TOLLGATE_CONFIG', () => {
  /** A config file of its own, holding `json`. */
  const configFile = (json: object) => {
    const file = join(mkdtempSync(join(tmpdir(), 'tollgate-config-')), 'tollgate.json');
    writeFileSync(file, JSON.stringify(json));
    return file;
  };

  it('reads a JSON file over the defaults, and the environment over the file', () => {
    const file = configFile({
      port: 9443,
      webhook_allow_cidrs: ['10.9.0.0/16'],
      networks: { polygon: { rpc: 'https://polygon.internal', confirmations: 64 } },
    });
    const c = loadConfig({ TOLLGATE_CONFIG: file, TOLLGATE_PORT: '10443' });
    expect(c.port).toBe(10443);
    expect(c.webhook_allow_cidrs).toEqual(['10.9.0.0/16']);
    expect(resolveNetworks(c)).toEqual([
      expect.objectContaining({
        symbol: 'polygon',
        rpc: 'https://polygon.internal',
        confirmations: 64,
      }),
    ]);

    writeFileSync(
      file,
      JSON.stringify({ networks: { polygon: { rpc: 'https://p', confirmations: -1 } } }),
    );
    expect(() => loadConfig({ TOLLGATE_CONFIG: file })).toThrow(/networks\.polygon\.confirmations/);
  });

  it("names the file's keys this version does not read, as paths (a typo was ignored silently)", () => {
    const file = configFile({
      $comment: 'a note, not a setting',
      webhok_timeout_ms: 5,
      port: 9443,
      travel_rule: { smtp_ulr: 'smtp://x', vasp_name: 'Acme' },
      networks: { polygon: { rpc: 'https://p', confirmatons: 64 } },
    });
    expect(unknownConfigFileKeys({ TOLLGATE_CONFIG: file })).toEqual([
      'webhok_timeout_ms',
      'travel_rule.smtp_ulr',
      'networks.polygon.confirmatons',
    ]);
    // The shipped defaults are all settings; no file, nothing to say.
    expect(
      unknownConfigFileKeys({ TOLLGATE_CONFIG: join(process.cwd(), 'config', 'default.json') }),
    ).toEqual([]);
    expect(unknownConfigFileKeys({})).toEqual([]);
  });
});
