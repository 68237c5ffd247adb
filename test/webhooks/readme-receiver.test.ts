import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, test } from 'vitest';
import { dialects } from '../fixtures/test-app.js';
import { readmeSection } from '../processes/readme/readme-section.js';
import { admin, arrangeNetwork, createCheckin } from '../fixtures/operator-api.js';
import { eventually } from '../fixtures/webhook-receiver.js';
import { deliveriesOf, register, webhookApp } from '../fixtures/webhook-app.js';

const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const [receiverCode] = [...readmeSection('## Webhooks').matchAll(/```js\n([\s\S]*?)```/g)].map((m) => m[1]);

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

describe.each(dialects)("the README's webhook receiver, run as written (%s)", (dialect) => {
  const app = webhookApp({ dialect });
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-receiver-'));
  // Where a reader who ran `npm install standardwebhooks` has it: beside the file.
  symlinkSync(join(REPO_ROOT, 'node_modules'), join(dir, 'node_modules'));
  writeFileSync(join(dir, 'receiver.mjs'), receiverCode ?? '');
  let child: ChildProcess | undefined;
  afterAll(() => {
    child?.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  test('when a delivery comes, is sent again, and a forged one comes, then it prints the event once and refuses the forgery', async () => {
    const t = app();
    const port = await freePort();
    const n = await arrangeNetwork(t);
    const endpoint = await register(t, n.partner.id, { url: `http://127.0.0.1:${port}/` });
    let stdout = '';
    child = spawn(process.execPath, ['receiver.mjs'], {
      cwd: dir,
      env: { PATH: process.env.PATH, WEBHOOK_SECRET: endpoint.secret, PORT: String(port) },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    child.stdout?.on('data', (chunk: Buffer) => void (stdout += chunk.toString('utf8')));
    await eventually(() =>
      fetch(`http://127.0.0.1:${port}/`, { method: 'POST', body: '{}' }).then(
        (r) => r.status === 400,
        () => false,
      ),
    );

    const checkin = await createCheckin(t, n.product);
    await eventually(async () => (await deliveriesOf(t, endpoint.id))[0]?.status === 'delivered');
    const [delivery] = await deliveriesOf(t, endpoint.id);
    expect((await admin(t, 'POST', `/deliveries/${delivery?.id}/retry`)).statusCode).toBe(202);
    await eventually(async () => (await deliveriesOf(t, endpoint.id))[0]?.attempts === 2);
    const forged = await fetch(`http://127.0.0.1:${port}/`, {
      method: 'POST',
      headers: {
        'webhook-id': 'evt_forged',
        'webhook-timestamp': String(Math.floor(Date.now() / 1000)),
        'webhook-signature': 'v1,AAAA',
      },
      body: '{"type":"checkin.created","data":{"platform_id":"0000000000000"}}',
    });

    expect(forged.status).toBe(400);
    expect(
      (await deliveriesOf(t, endpoint.id)).map((d) => [d.status, d.attempts, d.last_status_code]),
    ).toEqual([['delivered', 2, 204]]);
    expect(stdout).toBe(`checkin.created ${checkin.platform_id}\n`);
  });
});
