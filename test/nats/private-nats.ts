import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect as tcpConnect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../fixtures/processes/private-postgres.js';

const NATS_SERVER = '/usr/sbin/nats-server';

function answers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = tcpConnect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/**
 * A nats-server of the test's own, with JetStream and a store directory that outlives a kill: the test can take
 * it down with SIGKILL and start it again on the same port, as an outage does.
 */
export async function startPrivateNats() {
  const port = await freePort();
  const storeDir = mkdtempSync(join(tmpdir(), 'gatehouse-nats-'));
  let child: ChildProcess | undefined;

  async function up(): Promise<void> {
    child = spawn(NATS_SERVER, ['-a', '127.0.0.1', '-p', String(port), '-js', '-sd', storeDir], {
      stdio: 'ignore',
    });
    const deadline = Date.now() + 10_000;
    while (!(await answers(port))) {
      if (Date.now() > deadline) throw new Error(`nats-server did not answer on ${port}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  async function down(): Promise<void> {
    const running = child;
    if (running === undefined || running.exitCode !== null) return;
    const exited = new Promise((resolve) => running.once('exit', resolve));
    running.kill('SIGKILL');
    await exited;
  }

  await up();
  return {
    url: `nats://127.0.0.1:${port}`,
    /** Killed at once: no flush, no goodbye to clients. */
    kill: down,
    start: up,
    async stop(): Promise<void> {
      await down();
      rmSync(storeDir, { recursive: true, force: true });
    },
  };
}
