import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config/index.js';
import { normalizeFingerprint } from '../../src/net/tls-certs.js';
import { checkSender } from '../../src/travelrule/peer.js';
import { TravelRuleError } from '../../src/travelrule/errors.js';

const HEX = 'ab'.repeat(32);
const STORED = 'AB:'.repeat(31) + 'AB';
const OTHER = 'CD:'.repeat(31) + 'CD';

describe('normalizeFingerprint', () => {
  it('takes the spellings people and tools give and stores one form', () => {
    for (const given of [
      HEX,
      HEX.toUpperCase(),
      STORED.toLowerCase(),
      `sha256 Fingerprint=${STORED}`,
      `SHA256:${HEX}`,
      ` ${STORED.replace(/:/g, ' ')} `,
    ])
      expect(normalizeFingerprint(given), given).toBe(STORED);
  });
  it('refuses what is not a SHA-256 fingerprint', () => {
    for (const given of ['', 'ab'.repeat(20), 'zz'.repeat(32), `${HEX}00`, 'sha1:' + HEX])
      expect(normalizeFingerprint(given), given).toBeUndefined();
  });
});

describe('checkSender', () => {
  const strict = { trp_require_client_cert: true };
  const lax = { trp_require_client_cert: false };
  const pinned = { trp_tls_fingerprints: [STORED] };
  const unpinned = { trp_tls_fingerprints: [] };
  const refused = (fn: () => void, message: RegExp) => {
    try {
      fn();
    } catch (err) {
      expect(err).toBeInstanceOf(TravelRuleError);
      expect((err as TravelRuleError).kind).toBe('forbidden');
      expect((err as Error).message).toMatch(message);
      return;
    }
    throw new Error('not refused');
  };

  it('a pinned VASP is taken only from one of its certificates, whatever the setting', () => {
    for (const config of [strict, lax]) {
      expect(() => checkSender(config, pinned, { certificate: STORED })).not.toThrow();
      refused(
        () => checkSender(config, pinned, { certificate: OTHER }),
        /not one the directory pins/,
      );
      refused(() => checkSender(config, pinned, { certificate: null }), /mutual TLS/);
    }
  });
  it('a VASP without pins, or no VASP, is refused while client certificates are required', () => {
    refused(() => checkSender(strict, unpinned, { certificate: STORED }), /no TLS certificate/);
    refused(() => checkSender(strict, undefined, { certificate: STORED }), /not a directory VASP/);
    expect(() => checkSender(lax, unpinned, { certificate: null })).not.toThrow();
    expect(() => checkSender(lax, undefined, { certificate: null })).not.toThrow();
  });
});

describe('mutual TLS configuration', () => {
  const base = { DATABASE_URL: 'postgres://u@127.0.0.1:1/x', TOLLGATE_DATA_DIR: '/tmp' };
  const message = (env: Record<string, string>) => {
    try {
      loadConfig({ ...base, ...env });
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      return (err as Error).message;
    }
    return undefined;
  };

  it('requires client certificates by default; the listener needs a certificate', () => {
    expect(loadConfig(base).travel_rule.trp_require_client_cert).toBe(true);
    expect(message({ TOLLGATE_TRP_PORT: '8443' })).toMatch(
      /TOLLGATE_TRP_PORT: the mutual-TLS TRP listener needs a certificate/,
    );
    expect(message({ TOLLGATE_TRP_SERVER_CERT_FILE: '/x.pem' })).toMatch(
      /trp_server_key_file.*given together/,
    );
    expect(
      message({
        TOLLGATE_TRP_PORT: '8443',
        TOLLGATE_TRP_CLIENT_CERT_FILE: '/c.pem',
        TOLLGATE_TRP_CLIENT_KEY_FILE: '/c.key',
      }),
    ).toBeUndefined();
  });
});
