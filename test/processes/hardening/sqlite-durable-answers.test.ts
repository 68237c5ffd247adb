import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { arrangeCheckins, useOwnDatabase } from '../../fixtures/processes/arrange.js';
import { send, statusOf } from '../../fixtures/processes/http.js';
import { useServeProcesses, useTempDir } from '../../fixtures/processes/serve-process.js';

/** One system call of the trace, as strace -f -y prints it (a call split by another thread's is joined here). */
interface Call {
  readonly name: string;
  /** The file or socket of its first argument (strace -y), e.g. `/tmp/…/gatehouse.db-wal` or `socket:[…]`. */
  readonly target: string;
  readonly text: string;
  /** Where in the trace it began and where it returned. */
  readonly began: number;
  readonly ended: number;
}

/** Parses `strace -f -y -o` output, pairing `<unfinished ...>` lines with their `<... resumed>` line. */
function callsOf(trace: string): Call[] {
  const calls: Call[] = [];
  const pending = new Map<string, { name: string; target: string; text: string; began: number }>();
  trace.split('\n').forEach((line, index) => {
    const resumed = /^(\d+)\s+<\.\.\. \w+ resumed>(.*)$/.exec(line);
    if (resumed !== null) {
      const open = pending.get(resumed[1] ?? '');
      pending.delete(resumed[1] ?? '');
      if (open !== undefined) calls.push({ ...open, text: `${open.text}${resumed[2] ?? ''}`, ended: index });
      return;
    }
    const call = /^(\d+)\s+(\w+)\(\d+<([^>]*)>(.*)$/.exec(line);
    if (call === null) return;
    const [, pid = '', name = '', target = '', text = ''] = call;
    if (text.endsWith('<unfinished ...>')) pending.set(pid, { name, target, text, began: index });
    else calls.push({ name, target, text, began: index, ended: index });
  });
  return calls.sort((a, b) => a.ended - b.ended);
}

describe('SQLite at GATEHOUSE_SQLITE_SYNCHRONOUS=full (the default)', () => {
  const start = useServeProcesses();
  const ownDatabase = useOwnDatabase();
  const dir = useTempDir('gatehouse-durable-');

  test('when validations are answered, then each answer leaves only after the WAL holding its commit was synced to disk', async () => {
    const { url, operator } = await ownDatabase('sqlite');
    const arranged = await arrangeCheckins(operator.services, 24);
    await operator.close();
    const tracePath = join(dir(), 'trace.txt');
    // Every write to the WAL, every sync, and every write to a socket (the answers), in the order they happened.
    const server = await start(
      { GATEHOUSE_DATABASE_URL: url },
      {
        wrap: [
          'strace',
          '-f',
          '-qq',
          '-y',
          '-s',
          '16',
          '-o',
          tracePath,
          '-e',
          'trace=pwrite64,fdatasync,fsync,writev,write',
        ],
      },
    );
    const outcomes = await Promise.all(
      arranged.checkins.map((checkin) =>
        send(server.baseUrl, 'POST', '/access/v1/validate', {
          headers: arranged.headers,
          json: { platform_id: checkin.platformId },
        }),
      ),
    );
    expect(outcomes.map(statusOf)).toEqual(arranged.checkins.map(() => 200));
    // strace passes a signal on to nobody: the server itself (its child, whose pid each log line names) is stopped,
    // and strace ends with it.
    const firstLine =
      server
        .output()
        .split('\n')
        .find((line) => line.startsWith('{')) ?? '{}';
    const node = (JSON.parse(firstLine) as { pid: number }).pid;
    process.kill(node, 'SIGTERM');
    await server.exited;

    const calls = callsOf(readFileSync(tracePath, 'utf8'));
    const wal = (call: Call) => call.target.endsWith('gatehouse.db-wal');
    const answers = calls.filter(
      (call) => call.target.startsWith('socket:') && call.text.includes('HTTP/1.1 200'),
    );
    expect(answers).toHaveLength(arranged.checkins.length);
    for (const answer of answers) {
      // The last write to the WAL before the answer holds its commit (a batch commits before it answers).
      const lastWrite = calls.filter((c) => c.name === 'pwrite64' && wal(c) && c.ended < answer.began).at(-1);
      expect(lastWrite, 'a commit was written to the WAL before the answer').toBeDefined();
      const synced = calls.some(
        (c) =>
          (c.name === 'fdatasync' || c.name === 'fsync') &&
          wal(c) &&
          c.began > (lastWrite?.ended ?? Infinity) &&
          c.ended < answer.began &&
          /\)\s+= 0$/.test(c.text),
      );
      expect(synced, `answer at trace line ${answer.began}: the WAL was synced after its commit`).toBe(true);
    }
  });
});
