import { execFileSync } from 'node:child_process';
import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, afterEach, beforeAll } from 'vitest';
import {
  asPostgres,
  asPostgresSync,
  continueServerProcesses,
  stopServerProcesses,
} from './postgres-tools.js';

export { privateClusterSupported } from './postgres-tools.js';

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address !== null
          ? resolve(address.port)
          : reject(new Error('no port')),
      );
    });
  });
}

const live = new Set<PrivateCluster>();
// Even a crashed worker must not leave a stopped (SIGSTOP) or running cluster behind.
process.on('exit', () => {
  for (const cluster of live) cluster.destroySync();
});

/**
 * A PostgreSQL 15 cluster of the test's own in a temporary directory, so that stopping, restarting and pausing
 * it never touches the shared server other tests use.
 */
export class PrivateCluster {
  private paused: readonly number[] = [];

  private constructor(
    readonly dir: string,
    readonly port: number,
  ) {}

  static async create(): Promise<PrivateCluster> {
    const dir = mkdtempSync(join(tmpdir(), 'gatehouse-pg-'));
    execFileSync('chown', ['-R', 'postgres', dir]);
    const cluster = new PrivateCluster(dir, await freePort());
    live.add(cluster);
    try {
      await asPostgres('initdb', ['-D', cluster.dataDir, '-A', 'trust', '-U', 'postgres', '--no-sync']);
      appendFileSync(
        join(cluster.dataDir, 'postgresql.conf'),
        `\nport = ${cluster.port}\nlisten_addresses = '127.0.0.1'\nunix_socket_directories = '${dir}'\n`,
      );
      await cluster.start();
      return cluster;
    } catch (error) {
      await cluster.destroy();
      throw error;
    }
  }

  get dataDir(): string {
    return join(this.dir, 'data');
  }

  /** A URL gatehouse can use; its application name lets a test single out that process's connections. */
  url(applicationName = 'gatehouse-test'): string {
    return `postgres://postgres@127.0.0.1:${this.port}/postgres?application_name=${applicationName}`;
  }

  async start(): Promise<void> {
    const log = join(this.dir, 'server.log');
    await asPostgres('pg_ctl', ['-D', this.dataDir, '-l', log, '-w', '-t', '30', 'start']);
  }

  async stop(): Promise<void> {
    await asPostgres('pg_ctl', ['-D', this.dataDir, '-m', 'fast', '-w', '-t', '30', 'stop']);
  }

  /** Not `pg_ctl restart`: it takes no -l, so the new server would hold our stdout pipe open (and hang us). */
  async restart(): Promise<void> {
    await this.stop();
    await this.start();
  }

  async isRunning(): Promise<boolean> {
    return asPostgres('pg_ctl', ['-D', this.dataDir, 'status']).then(
      () => true,
      () => false,
    );
  }

  /** kill -STOP to the postmaster and all its children: connections stay open, nothing answers. */
  pause(): void {
    this.paused = stopServerProcesses(this.dataDir);
  }

  resume(): void {
    continueServerProcesses(this.dataDir, this.paused);
    this.paused = [];
  }

  /** pg_terminate_backend on the idle connections of one application; returns how many were ended. */
  async terminateIdle(applicationName: string): Promise<number> {
    const client = new pg.Client({
      connectionString: this.url('gatehouse-test-admin'),
      connectionTimeoutMillis: 5000,
    });
    await client.connect();
    try {
      // Two statements: in one, the planner may call pg_terminate_backend before the filters (ending everyone).
      const idle = await client.query<{ pid: number }>(
        `select pid from pg_stat_activity where application_name = $1 and state = 'idle'`,
        [applicationName],
      );
      const ended = await client.query<{ ended: boolean }>(
        'select pg_terminate_backend(pid, 5000) as ended from unnest($1::int[]) as pid',
        [idle.rows.map((row) => row.pid)],
      );
      return ended.rows.filter((row) => row.ended).length;
    } finally {
      await client.end();
    }
  }

  /** Running and not paused, whatever the last test did to it. */
  async heal(): Promise<void> {
    this.resume();
    if (!(await this.isRunning())) await this.start();
  }

  /** Always resumes first: a stopped postmaster would not even shut down. */
  async destroy(): Promise<void> {
    this.resume();
    await asPostgres('pg_ctl', ['-D', this.dataDir, '-m', 'immediate', '-w', 'stop']).catch(() => undefined);
    rmSync(this.dir, { recursive: true, force: true });
    live.delete(this);
  }

  destroySync(): void {
    this.resume();
    asPostgresSync('pg_ctl', ['-D', this.dataDir, '-m', 'immediate', 'stop']);
    rmSync(this.dir, { recursive: true, force: true });
    live.delete(this);
  }
}

/**
 * One private cluster for the enclosing describe: created before its tests, healed (resumed, started) after each
 * one so a failing test cannot leave it paused or stopped, destroyed after all.
 */
export function usePrivateCluster(): () => PrivateCluster {
  let cluster: PrivateCluster | undefined;
  beforeAll(async () => {
    cluster = await PrivateCluster.create();
  });
  afterEach(async () => {
    await cluster?.heal();
  });
  afterAll(async () => {
    await cluster?.destroy();
    cluster = undefined;
  });
  return () => {
    if (cluster === undefined) throw new Error('usePrivateCluster: no cluster outside a test');
    return cluster;
  };
}
