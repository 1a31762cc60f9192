import pino from 'pino';

/**
 * One pino logger for the process: JSON, one line per event, snake_case keys, on stderr (stdout
 * is the commands' output: `tollgate indexer status --json | jq` reads only that).
 * Personal data (IVMS101 fields, e-mail bodies, API keys, webhook secrets) is never passed in;
 * the redact list is a second line of defence, not the first.
 */
/** IVMS101 keys that hold personal data: censored wherever they appear at the top or one level down. */
const PERSONAL_KEYS = [
  'ivms101',
  'IVMS101',
  'originator',
  'beneficiary',
  'persons',
  'naturalPerson',
  'legalPerson',
  'legalPersonName',
  'customerNumber',
  'accountNumber',
  'nameIdentifier',
  'localNameIdentifier',
  'phoneticNameIdentifier',
  'primaryIdentifier',
  'secondaryIdentifier',
  'dateAndPlaceOfBirth',
  'dateOfBirth',
  'placeOfBirth',
  'nationalIdentification',
  'nationalIdentifier',
  'geographicAddress',
  'customerIdentification',
  'email',
  'to',
];

export const log = pino(
  {
    level: 'info',
    base: { service: 'tollgate' },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: {
      paths: [
        'apikey',
        '*.apikey',
        'webhook_secret',
        '*.webhook_secret',
        'webhook_secret_previous',
        '*.webhook_secret_previous',
        'operator_webhook_secret',
        '*.operator_webhook_secret',
        'data_key',
        '*.data_key',
        'data_keys_old',
        '*.data_keys_old',
        'headers.authorization',
        'headers.apikey',
        'req.headers.authorization',
        'req.headers.apikey',
        'password',
        '*.password',
        // Travel rule personal data (IVMS101), should a payload ever be passed to a log call.
        ...PERSONAL_KEYS.flatMap((k) => [k, `*.${k}`]),
      ],
      censor: '[redacted]',
    },
  },
  pino.destination({ dest: 2, sync: true }),
);

export function setLogLevel(level: string): void {
  log.level = level;
}

export type Logger = pino.Logger;
