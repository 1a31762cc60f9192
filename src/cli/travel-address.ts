import { recordAudit } from '../audit/index.js';
import { parseArgs } from 'node:util';
import { type Config, trpPublicUrl } from '../config/index.js';
import { withDatabase } from '../db/open.js';
import { listApiKeys } from '../keys/index.js';
import { issueTravelAddress, loadKeyring } from '../travelrule/index.js';
import { command } from './command.js';

export const TRAVEL_ADDRESS_USAGE = `Usage:
  tollgate travel-address --key NAME --network N --address A
      the TRP Travel Address (ta…) of one of your customers' deposit addresses, for the API key
      named NAME; prints {"travel_address","url","network","address"} as JSON (the same each time)`;

const cmd = command('travel-address', TRAVEL_ADDRESS_USAGE);

/** `tollgate travel-address …`: as POST /v2/travelrule/travel_address, for scripts and operators. */
export async function travelAddressCommand(config: Config, args: string[]): Promise<void> {
  await cmd.run(async () => {
    const { values } = parseArgs({
      args,
      options: {
        key: { type: 'string' },
        network: { type: 'string' },
        address: { type: 'string' },
      },
    });
    if (!values.key || !values.network || !values.address)
      return cmd.usage('travel-address needs --key, --network and --address');
    const keyring = loadKeyring({
      dataKey: config.data_key,
      dataKeysOld: config.data_keys_old,
      dataDir: config.data_dir,
    });
    const trpUrl = trpPublicUrl(config);
    await withDatabase(config, async (sql) => {
      const key = (await listApiKeys(sql)).find(
        (k) => k.name === values.key && k.revoked_at === null,
      );
      if (!key) return cmd.fail(`no active API key named ${values.key}`, 1);
      // A refusal (an address not valid on the network) is a PermanentError: cmd.run says it.
      const issued = await issueTravelAddress(
        { sql, keyring, trpUrl },
        String(key.id),
        values.network!,
        values.address!,
      );
      await recordAudit(sql, {
        actor: 'cli',
        action: 'travel_address_issue',
        target: issued.travel_address,
        details: { api_key_id: String(key.id), network: issued.network },
      });
      process.stdout.write(JSON.stringify(issued) + '\n');
    });
  });
}
