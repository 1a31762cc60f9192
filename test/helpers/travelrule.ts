import { randomUUID } from 'node:crypto';
import { parseTravelRuleInput } from '../../src/travelrule/ivms101/index.js';
import { buildInquiry, TRP_VERSION } from '../../src/travelrule/trp/messages.js';
import { call } from './http.js';

/**
 * Travel rule fixtures: a create_tx body whose personal values are distinctive strings, so a
 * test can look for them in logs, e-mails and stored bytes.
 */

export {
  BENEFICIARY_ADDRESS,
  ORIGINATOR_ADDRESS,
  PERSONAL_VALUES,
  travelBody,
} from '../../support/travel-rule-body.js';
import { travelBody } from '../../support/travel-rule-body.js';

/**
 * Sends a TRP transfer inquiry built from travelBody() to an appliance's inquiry URL, as a
 * directory VASP would; returns the reference the incoming transaction gets there.
 */
export async function sendInquiry(
  baseUrl: string,
  token: string,
  opts: { callback: string; vaspName: string },
): Promise<{ requestId: string; ref: string; status: number; json: any }> {
  const parsed = parseTravelRuleInput(travelBody('ignored'), 'create_tx');
  if (!parsed.ok) throw new Error(parsed.message);
  const v = parsed.value;
  const body = buildInquiry({
    asset: v.transaction_asset,
    network: v.transaction_network,
    decimals: v.transaction_asset_decimals,
    amountBaseUnits: v.transaction_amount_base_units,
    callback: opts.callback,
    originator: v.originator,
    beneficiary: v.beneficiary,
    vaspName: opts.vaspName,
  });
  const requestId = randomUUID();
  const reply = await call(baseUrl, 'POST', `/trp/v3/inquiries/${token}`, {
    headers: { 'api-version': TRP_VERSION, 'request-identifier': requestId },
    body,
  });
  return { requestId, ref: `trp-${requestId}`, status: reply.status, json: reply.json };
}
