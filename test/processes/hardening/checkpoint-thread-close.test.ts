import { execFile } from 'node:child_process';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, test } from 'vitest';
import { useTempDir } from '../../fixtures/processes/cli.js';

/**
 * A process whose last work is closing a SQLite store with its checkpointing thread (a `serve` that failed to start
 * closes its store and then reports why): the thread holds the process open until it has stopped, so the close
 * finishes and what comes after it runs.
 */
describe('closing a SQLite store with its checkpointing thread, last thing in a process', () => {
  const dir = useTempDir();

  test('when nothing else is left for the process to do, then the close finishes and the process ends with its own exit code', async () => {
    const store = pathToFileURL(resolve('dist/store/create-store.js')).href;
    const script = `
      import { createStore } from ${JSON.stringify(store)};
      const store = createStore({ databaseUrl: ${JSON.stringify(`sqlite:${join(dir(), 'closing.db')}`)}, sqliteCheckpointThread: true });
      await store.close();
      process.stdout.write('closed\\n');
      process.exitCode = 3;
    `;

    const result = await new Promise<{ code: number | null; stdout: string }>((done) => {
      const child = execFile(process.execPath, ['--input-type=module', '-e', script], (_error, stdout) =>
        done({ code: child.exitCode, stdout }),
      );
    });

    // Without the thread held open while it stops, Node ends the process at the close: 13, an unsettled await.
    expect(result).toEqual({ code: 3, stdout: 'closed\n' });
  });
});
