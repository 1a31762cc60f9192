import type { TravelRuleConfig } from '../config/index.js';
import type { Sql } from '../db/index.js';
import { TravelRuleError } from './errors.js';
import { findVaspByFingerprint, getVasp, type Vasp } from './vasps.js';

/**
 * Who sent an inbound TRP message. The token in the URL says which VASP or transfer the message
 * is about; the TLS client certificate says who sent it. A message is taken only when both agree:
 * a VASP with pinned certificates (vasps.trp_tls_fingerprints) is believed only over a connection
 * that presented one of them, whatever the token. A third party that read a callback URL cannot
 * use it. VASPs without pinned certificates are refused while travel_rule.trp_require_client_cert
 * is on (the default), and known by their token alone when it is off.
 */

/** The TLS connection a message came on: its client certificate's SHA-256, or null (none seen). */
export interface TrpPeer {
  certificate: string | null;
}

/** A message with no connection behind it (tests of the flows, the operator API). */
export const NO_PEER: TrpPeer = { certificate: null };

type Pinned = Pick<Vasp, 'trp_tls_fingerprints'>;

/** Refuses (403) a message about `vasp` (undefined: a counterparty outside the directory). */
export function checkSender(
  config: Pick<TravelRuleConfig, 'trp_require_client_cert'>,
  vasp: Pinned | undefined,
  peer: TrpPeer,
): void {
  const pins = vasp?.trp_tls_fingerprints ?? [];
  if (pins.length > 0) {
    if (peer.certificate === null)
      throw new TravelRuleError(
        'forbidden',
        'this VASP is taken only over mutual TLS: present the client certificate the directory pins for it',
      );
    if (!pins.includes(peer.certificate))
      throw new TravelRuleError(
        'forbidden',
        'the client certificate is not one the directory pins for this VASP',
      );
    return;
  }
  if (config.trp_require_client_cert)
    throw new TravelRuleError(
      'forbidden',
      vasp
        ? 'no TLS certificate of this VASP is pinned in the directory: its messages are refused'
        : 'the counterparty of this transfer is not a directory VASP with a pinned TLS certificate',
    );
}

/** checkSender for the transfer's counterparty, read from the directory. */
export async function checkTransferSender(
  sql: Sql,
  config: Pick<TravelRuleConfig, 'trp_require_client_cert'>,
  counterpartyVaspId: string | null,
  peer: TrpPeer,
): Promise<void> {
  const vasp = counterpartyVaspId ? await getVasp(sql, counterpartyVaspId) : undefined;
  checkSender(config, vasp, peer);
}

/**
 * The directory VASP that sent an inquiry on one of our Travel Addresses (which name the
 * beneficiary, not the sender): the one that pins the presented certificate. Without one, the
 * inquiry is refused (403) while certificates are required, else taken from an unknown VASP.
 */
export async function identifySender(
  sql: Sql,
  config: Pick<TravelRuleConfig, 'trp_require_client_cert'>,
  peer: TrpPeer,
): Promise<Vasp | undefined> {
  const vasp = peer.certificate ? await findVaspByFingerprint(sql, peer.certificate) : undefined;
  if (vasp || !config.trp_require_client_cert) return vasp;
  throw new TravelRuleError(
    'forbidden',
    peer.certificate
      ? 'the client certificate is not pinned for any VASP in the directory'
      : 'a client certificate pinned in the directory is required (mutual TLS)',
  );
}
