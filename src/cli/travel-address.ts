import { recordAudit } from '../audit/index.js';
import { type Config, trpPublicUrl } from '../config/index.js';
import { withDatabase } from '../db/open.js';
import { listApiKeys } from '../keys/index.js';
import { issueTravelAddress, loadKeyring } from '../travelrule/index.js';
import { command, parseOptions } from './command.js';

export const TRAVEL_ADDRESS_USAGE = `Usage:
  tollgate travel-address (--key NAME | --key-id ID) --network N --address A
      the TRP Travel Address (ta…) of one of your customers' deposit addresses, for the active API
      key named NAME (or with id ID, as \`tollgate keys list\` shows it: names need not be unique);
      prints {"travel_address","url","network","address"} as JSON (the same each time)`;

const cmd = command('travel-address', TRAVEL_ADDRESS_USAGE);

/** `tollgate travel-address …`: as POST /v2/travelrule/travel_address, for scripts and operators. */
export async function travelAddressCommand(config: Config, args: string[]): Promise<void> {
  await cmd.run(async () => {
    const { values } = parseOptions({
      args,
      options: {
        key: { type: 'string' },
        'key-id': { type: 'string' },
        network: { type: 'string' },
        address: { type: 'string' },
      },
    });
    const byId = values['key-id'];
    if (!values.network || !values.address || (values.key === undefined) === (byId === undefined))
      return cmd.usage(
        'travel-address needs --key or --key-id (one of them), --network and --address',
      );
    const keyring = loadKeyring({
      dataKey: config.data_key,
      dataKeysOld: config.data_keys_old,
      dataDir: config.data_dir,
    });
    const trpUrl = trpPublicUrl(config);
    await withDatabase(config, async (sql) => {
      const active = (await listApiKeys(sql)).filter((k) => k.revoked_at === null);
      const found =
        byId !== undefined
          ? active.filter((k) => String(k.id) === byId)
          : active.filter((k) => k.name === values.key);
      if (found.length === 0)
        return cmd.fail(
          byId !== undefined
            ? `no active API key with id ${byId}`
            : `no active API key named ${values.key}`,
          1,
        );
      // Names need not be unique: which key's customers the address is for must not be a guess.
      if (found.length > 1)
        return cmd.fail(
          `${found.length} active API keys are named ${values.key} (ids ${found.map((k) => k.id).join(', ')}): name one with --key-id`,
          1,
        );
      const key = found[0]!;
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
