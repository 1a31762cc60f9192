import type { AmlConfig } from '../config/aml.js';
import {
  analyzeAddress,
  explainAnalysis,
  explanationIds,
  type Explanation,
  type ExplanationIds,
} from '../aml/index.js';
import { type Db, inOneSnapshot, type Sql } from '../db/index.js';
import type { NormalisedParty } from './ivms101/index.js';

/**
 * AML screening of a travel rule transaction's parties: every wallet address of the originator
 * and of the beneficiary through the AML engine (the same as GET /analyze/aml). Screening
 * informs the operator; it never decides. A party's score is the highest of its addresses'; its
 * tags, the union of those found true. Wallet addresses and tags are not personal data in the
 * sense of the log rules, but the result is stored on the row, not logged.
 */

export interface PartyScreening {
  score: number;
  /** Tags found true on any of the party's addresses. */
  tags: Record<string, true>;
  /**
   * Why, per address with a true tag (as /analyze/aml?detail=true): shown on the dashboard's
   * transaction page. Absent on transactions screened before explanations were kept.
   */
  explanations?: { address: string; explanation: Explanation }[];
}

export interface Screening {
  network: string;
  originator: PartyScreening;
  beneficiary: PartyScreening;
}

async function screenParty(
  sql: Db,
  aml: AmlConfig,
  network: string,
  indexed: boolean,
  party: NormalisedParty,
  /** The label set's and configuration's ids: read once per screening, when first needed. */
  ids: () => Promise<ExplanationIds>,
): Promise<PartyScreening> {
  let score = 0;
  const tags: Record<string, true> = {};
  const explanations: { address: string; explanation: Explanation }[] = [];
  for (const address of party.accountNumber) {
    const analysis = await analyzeAddress(sql, aml, { network, address, indexed });
    score = Math.max(score, analysis.score);
    for (const [tag, on] of Object.entries(analysis.tags)) if (on) tags[tag] = true;
    if (Object.values(analysis.tags).some(Boolean))
      explanations.push({
        address,
        explanation: await explainAnalysis(
          sql,
          aml,
          { network, address, tags: analysis.tags },
          await ids(),
        ),
      });
  }
  return { score, tags, explanations };
}

export async function screenParties(
  sql: Sql,
  aml: AmlConfig,
  indexedNetworks: readonly string[],
  t: { network: string; originator: NormalisedParty; beneficiary: NormalisedParty },
): Promise<Screening> {
  const indexed = indexedNetworks.includes(t.network);
  // One snapshot for both parties, their explanations and the label set's id: the screening kept
  // on the transaction is what one state of the labels and the chain gave.
  return inOneSnapshot(sql, async (tx) => {
    let read: Promise<ExplanationIds> | undefined;
    const ids = () => (read ??= explanationIds(tx, aml));
    return {
      network: t.network,
      originator: await screenParty(tx, aml, t.network, indexed, t.originator, ids),
      beneficiary: await screenParty(tx, aml, t.network, indexed, t.beneficiary, ids),
    };
  });
}
