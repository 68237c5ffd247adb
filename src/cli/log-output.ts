import type pino from 'pino';
import { bufferedStdout } from '../http/logging.js';

export type LogFormat = 'auto' | 'json' | 'pretty';

export interface LogOutput {
  readonly stream: pino.DestinationStream;
  stop(): void;
}

/**
 * Where serve's log lines go: JSON lines in blocks (for a collector, and the fast path under load), or, for a
 * person at a terminal, one readable line per entry through pino-pretty. `auto` is pretty exactly when stdout is
 * a terminal. pino-pretty is loaded only then, so a JSON server never pays for it.
 */
export async function logOutput(format: LogFormat, stdoutIsTerminal: boolean): Promise<LogOutput> {
  if (format === 'json' || (format === 'auto' && !stdoutIsTerminal)) return bufferedStdout();
  const { default: pretty } = await import('pino-pretty');
  const stream = pretty({
    destination: 1,
    sync: true, // a line appears when it is logged, and before the banner serve prints next
    colorize: stdoutIsTerminal,
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname',
  });
  return { stream, stop: () => undefined };
}
