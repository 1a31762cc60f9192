import pino from 'pino';
import { log } from '../../src/log.js';

/**
 * Writes this process's log (an appliance started in it) here instead of stdout, at whatever
 * level the appliance sets, until restore(). pino keeps its destination under streamSym.
 */
export function captureLog(): { text(): string; restore(): void } {
  let logged = '';
  const sym = pino.symbols.streamSym as unknown as symbol;
  const holder = log as unknown as Record<symbol, unknown>;
  const original = holder[sym];
  holder[sym] = {
    write(line: string) {
      logged += line;
    },
  };
  return {
    text: () => logged,
    restore: () => {
      holder[sym] = original;
    },
  };
}
