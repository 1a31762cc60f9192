import { setLogLevel } from '../../src/log.js';

// Each test worker logs at TEST_LOG_LEVEL (quiet by default), as the appliances it starts do.
setLogLevel(process.env.TEST_LOG_LEVEL ?? 'silent');
